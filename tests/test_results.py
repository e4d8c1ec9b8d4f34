"""The results table on disk: Parquet and CSV round trips with metadata, atomic writes."""

import os

import pandas as pd
import pytest

import snakesim
from snakesim.core.errors import InputError
from snakesim.core.results import check_output_path, write_table


@pytest.fixture(scope="module")
def table():
    return snakesim.simulate("fortune", players=3, games=500, seed=5, variant="rejoin")


@pytest.mark.parametrize("name", ["t.parquet", "sub/dir/t.csv"])
def test_round_trip(tmp_path, table, name):
    path = write_table(table, tmp_path / name)
    back = snakesim.read_table(path)
    assert back.attrs == table.attrs
    pd.testing.assert_frame_equal(
        back.astype({"outcome": str}),
        table.astype({"outcome": str}),
        check_dtype=path.suffix == ".parquet",
    )
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
