"""The results table on disk: Parquet and CSV round trips with metadata, atomic writes."""

import os

import pandas as pd
import pytest

import snakesim
from snakesim.core.errors import InputError
from snakesim.core.results import check_output_path, write_table


@pytest.fixture(scope="module")
def table():  # (with the feel figures: nullable columns, a null where a figure does not apply)
    return snakesim.simulate("fortune", players=3, games=500, seed=5, variant="rejoin", feel=True)


@pytest.mark.parametrize("name", ["t.parquet", "sub/dir/t.csv"])
def test_round_trip(tmp_path, table, name):
    path = write_table(table, tmp_path / name)
    back = snakesim.read_table(path)
    assert back.attrs == table.attrs
    # The same table, types included: the outcome's categories in their order, nullable
    # integers with their nulls (a CSV's metadata carries its columns' types).
    assert table["out_at_0"].isna().any() and str(table["comeback"].dtype) == "Int8"
    pd.testing.assert_frame_equal(back, table)
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_bad_suffix_refused(tmp_path):
    with pytest.raises(InputError, match=r"--out: expected a file ending in \.parquet or \.csv"):
        check_output_path(tmp_path / "t.xlsx")


def test_failed_write_leaves_nothing(tmp_path, table, monkeypatch):
    import pyarrow.parquet as pq

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pq.ParquetWriter, "write_table", broken)  # (the disk fills mid-write)
    with pytest.raises(InputError, match=r"--out: cannot write .*No space left on device"):
        write_table(table, tmp_path / "t.parquet")
    assert list(tmp_path.iterdir()) == []


def test_folder_under_a_file_is_refused_before_anything_runs(tmp_path):
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(InputError, match=r"--out: cannot make a folder inside .*file\.txt.*: it is a file"):
        check_output_path(tmp_path / "file.txt" / "sub" / "t.parquet")
