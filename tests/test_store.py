"""Run folders never merge a block they cannot prove is their own, and survive crashes.

Each test injects one fault a real run meets (a truncated or empty block, an edited one, a
neighbour's or another seed's copy, a manifest cut short, a concurrent writer, a CSV beside
another run's metadata) and checks what the user gets: the bad file named on stderr and set
aside, the game replayed, the table equal to an uninterrupted run's.
"""

import fcntl
import json
import os
import shutil

import pandas as pd
import pytest
from click.testing import CliRunner

import snakesim
from snakesim.cli import cli
from snakesim.core.errors import InputError
from snakesim.core.results import read_table, write_table
from snakesim.core.store import RunStore

ARGS = ["run", "fortune", "-p", "3", "-n", "4000", "--chunk-size", "1000", "--seed", "6", "--json"]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def whole():
    return snakesim.simulate("fortune", players=3, games=4000, seed=6)


def run_into(folder, *extra):
    r = invoke(*ARGS, "--out", folder, *extra)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout), r.stderr


def blocks(folder):
    return sorted(p.name for p in folder.glob("block-*"))


def corrupt_truncate(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def corrupt_empty(path):
    path.write_bytes(b"")


def corrupt_edit(path):
    # A block edited by hand and saved by pandas: the content changes, its record is lost.
    df = pd.read_parquet(path)
    df.loc[0, "length"] += 1
    df.to_parquet(path, index=False)


def corrupt_flip_a_byte_keeping_the_record(path):
    # The record survives but a value in the data pages differs: only the checksum can tell.
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    df = table.to_pandas()
    df.loc[5, "winner"] = (df.loc[5, "winner"] + 1) % 3
    import pyarrow as pa

    edited = pa.Table.from_pandas(df, preserve_index=False).replace_schema_metadata(table.schema.metadata)
    pq.write_table(edited, path)


@pytest.mark.parametrize(
    "corrupt,reason",
    [
        (corrupt_truncate, "unreadable"),
        (corrupt_empty, "unreadable"),
        (corrupt_edit, "has no block record"),
        (corrupt_flip_a_byte_keeping_the_record, "is damaged (its content does not match its checksum)"),
    ],
    ids=["truncated", "empty", "edited", "checksum"],
)
def test_a_damaged_block_is_named_set_aside_and_replayed(tmp_path, whole, corrupt, reason):
    folder = tmp_path / "run"
    first, _ = run_into(folder)
    corrupt(folder / "block-000002.parquet")
    with pytest.raises(InputError, match=r"block-000002.parquet.*run the command again to replay it"):
        snakesim.read_table(folder)
    again, err = run_into(folder)
    assert "block-000002.parquet" in err and reason in err and "it will be played again" in err
    assert again["resumed_games"] == 3000 and again["win_ci"] == first["win_ci"]
    assert (folder / "rejected" / "block-000002.parquet").exists()  # kept, not deleted
    pd.testing.assert_frame_equal(snakesim.read_table(folder), whole)


def test_a_neighbours_copy_and_another_seeds_block_are_refused(tmp_path, whole):
    folder, other = tmp_path / "run", tmp_path / "other"
    run_into(folder)
    r = invoke(*[a if a != "6" else "7" for a in ARGS], "--out", other)  # seed 7
    assert r.exit_code == 0, r.output
    shutil.copy(folder / "block-000001.parquet", folder / "block-000002.parquet")
    shutil.copy(other / "block-000003.parquet", folder / "block-000003.parquet")
    again, err = run_into(folder)
    assert "block-000002.parquet: is another block's (index 1, first 1000)" in err
    assert "block-000003.parquet: belongs to another run" in err
    assert again["resumed_games"] == 2000
    table = snakesim.read_table(folder)
    assert table["game"].is_unique and len(table) == 4000
    pd.testing.assert_frame_equal(table, whole)


def test_summary_only_blocks_are_checked_too(tmp_path):
    folder = tmp_path / "sums"
    first, _ = run_into(folder, "--summary-only")
    path = folder / "block-000001.json"
    data = json.loads(path.read_text())
    data["tally"]["wins"][0] += 5  # an edit that keeps the file valid JSON
    path.write_text(json.dumps(data))
    (folder / "block-000002.json").write_text('{"block": ')  # cut short
    again, err = run_into(folder, "--summary-only")
    assert "block-000001.json: is damaged" in err and "block-000002.json: unreadable" in err
    assert again["win_ci"] == first["win_ci"] and again["resumed_games"] == 2000


def test_read_table_refuses_missing_or_repeated_games(tmp_path):
    folder = tmp_path / "run"
    run_into(folder)
    (folder / "block-000001.parquet").unlink()
    with pytest.raises(InputError, match="unfinished run: 3 of 4 blocks"):
        snakesim.read_table(folder)
    shutil.copy(folder / "block-000000.parquet", folder / "block-000001.parquet")
    with pytest.raises(InputError, match=r"block-000001.parquet: is another block's"):
        snakesim.read_table(folder)


def test_a_manifest_cut_short_by_a_crash_is_recovered(tmp_path, whole):
    folder = tmp_path / "run"
    run_into(folder)
    (folder / "block-000003.parquet").unlink()
    (folder / "manifest.json").write_text('{"game": "fort')  # a power cut mid-write
    again, err = run_into(folder)
    assert "manifest.json: unreadable" in err and again["resumed_games"] == 3000
    pd.testing.assert_frame_equal(snakesim.read_table(folder), whole)


def test_a_run_killed_before_its_manifest_was_written_is_not_refused(tmp_path, whole):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / ".manifest.json.12345.abcd.tmp").write_text('{"ga')  # killed while writing it
    again, _ = run_into(folder)
    assert again["resumed_games"] == 0 and not list(folder.glob(".*.tmp"))
    pd.testing.assert_frame_equal(snakesim.read_table(folder), whole)


def test_a_concurrent_run_is_refused_and_its_temporary_file_kept(tmp_path):
    folder = tmp_path / "run"
    run_into(folder)
    (folder / "block-000003.parquet").unlink()
    busy = folder / ".block-000003.parquet.999999.wxyz.tmp"  # the other run's write in progress
    busy.write_bytes(b"partial")
    fd = os.open(folder / ".snakesim.lock", os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another run holds the folder
    os.write(fd, b"999999\n")
    try:
        r = invoke(*ARGS, "--out", folder)
        assert r.exit_code == 2 and r.stdout == ""
        assert r.stderr.strip().splitlines() == [
            f"snakesim: error: --out: '{folder}' is being written by another snakesim run (pid 999999); wait for it"
        ]
        assert busy.exists()
    finally:
        os.close(fd)
    again, _ = run_into(folder)  # once the other run is gone, its leftovers are abandoned
    assert again["resumed_games"] == 3000 and not busy.exists()


def test_blocks_and_manifest_are_fsynced_before_the_rename(tmp_path, monkeypatch):
    synced, renamed = [], []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real_fsync(fd)))
    monkeypatch.setattr(os, "replace", lambda a, b: (renamed.append((str(a), len(synced))), real_replace(a, b)))
    store = RunStore(tmp_path / "run", {"game": "fortune", "seed": 1})
    store.create()
    store.close()
    (tmp, synced_before), *_ = renamed
    assert tmp in synced[:synced_before]  # the temporary manifest was on disk before its rename
    assert str(tmp_path / "run") in synced[synced_before:]  # and the folder after it


def test_a_csv_never_pairs_with_another_runs_metadata(tmp_path, monkeypatch):
    path = tmp_path / "t.csv"
    old = snakesim.simulate("fortune", players=2, games=50, seed=1)
    write_table(old, path)
    new = snakesim.simulate("fortune", players=3, games=60, seed=2)

    def failing_write_text(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    from pathlib import Path

    monkeypatch.setattr(Path, "write_text", failing_write_text)  # the metadata write fails
    with pytest.raises(InputError, match="No space left on device"):
        write_table(new, path)
    monkeypatch.undo()
    assert read_table(path).attrs["seed"] == 1 and len(read_table(path)) == 50  # the old pair, whole
    # A CSV replaced behind snakesim's back no longer matches its metadata.
    new.to_csv(path, index=False)
    with pytest.raises(InputError, match=r"t.csv.meta.json: this metadata does not belong to t.csv"):
        read_table(path)
