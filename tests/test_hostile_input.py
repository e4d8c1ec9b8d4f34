"""Hostile input and hostile machines: every case is one line on stderr, exit status 2, no
traceback, and nothing written; resources are checked before any game is played."""

import json
import os

import pytest
from click.testing import CliRunner

import snakesim.core.results as results_module
import snakesim.core.runner as runner_module
from snakesim.cli import cli
from snakesim.core.store import RunStore


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def one_line(r, message):
    assert r.exit_code == 2 and r.stdout == "", r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_a_toml_file_nested_500_deep(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("start_coins = " + "[" * 500 + "]" * 500 + "\n")
    r = invoke("run", "fortune", "--rules", path, "-n", 10)
    one_line(r, f"{path}: not a rules file snakesim can read: arrays or tables nested too deeply")
    study = tmp_path / "deep-study.toml"
    study.write_text('title = "t"\nx = ' + "[" * 500 + "]" * 500 + "\n")
    one_line(invoke("study", study, "--out", tmp_path / "out"), "nested too deeply")


def test_trace_names_its_own_option():
    one_line(invoke("trace", "fortune", "--game", -1), "--game: expected an integer from 0 to")


@pytest.mark.parametrize("command", ["compare", "sweep"])
def test_an_unwritable_plot_folder_is_refused_before_the_games(tmp_path, monkeypatch, command):
    locked = tmp_path / "figs"
    locked.mkdir()
    real_access = os.access

    def access(path, mode):  # the suite may run as root, whom chmod does not stop
        return False if mode == os.W_OK and str(path) == str(locked) else real_access(path, mode)

    monkeypatch.setattr(results_module.os, "access", access)
    monkeypatch.setattr(runner_module, "play_blocks", lambda *a, **k: pytest.fail("a game was played"))
    plot = locked if command == "compare" else locked / "sweep.png"
    extra = ["--set", "start_coins=4,8"] if command == "sweep" else []
    r = invoke(command, "fortune", "-n", 100, *extra, "--plot", plot)
    one_line(r, f"--plot: cannot write in '{locked}': permission denied")


@pytest.mark.parametrize("target", ["run", "table.parquet"])
def test_a_dangling_symlink_out(tmp_path, target):
    link = tmp_path / target
    link.symlink_to(tmp_path / "gone" / target)
    one_line(invoke("run", "fortune", "-n", 100, "--out", link), "is a broken symbolic link")
    assert sorted(p.name for p in tmp_path.iterdir()) == [target]


def test_a_full_disk_in_a_run_folder(tmp_path, monkeypatch):
    def full(self, index, first, count, result):
        raise OSError(28, "No space left on device", str(self.block_path(index)))

    monkeypatch.setattr(RunStore, "write", full)
    r = invoke("run", "fortune", "-n", 1000, "--out", tmp_path / "run")
    one_line(r, f"snakesim: error: {tmp_path / 'run' / 'block-000000.parquet'}: No space left on device")


def test_a_table_too_big_for_memory_is_refused_before_playing(tmp_path, monkeypatch):
    monkeypatch.setattr(runner_module, "play_blocks", lambda *a, **k: pytest.fail("a game was played"))
    r = invoke("run", "fortune", "-n", 10_000_000_000, "--out", tmp_path / "big.parquet")
    one_line(r, "--games: a per-game table of 10,000,000,000 games needs about")
    assert "use --summary-only, or --out DIR" in r.stderr and list(tmp_path.iterdir()) == []
    monkeypatch.setattr(runner_module, "available_memory", lambda: 10**6)  # a 1 MB machine
    one_line(invoke("run", "fortune", "-n", 100_000, "--out", tmp_path / "t.csv"), "available")


def test_a_run_without_a_table_file_keeps_only_sums(monkeypatch):
    # No --out: the summary comes from each block's sums, so no table is built and the
    # memory guard does not stand in the way of a long run.
    monkeypatch.setattr(runner_module, "available_memory", lambda: 10**6)
    monkeypatch.setattr(runner_module, "simulate_spec", lambda *a, **k: pytest.fail("a per-game table was built"))
    r = invoke("run", "fortune", "-n", 50_000, "--chunk-size", 10_000, "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    # The summary is whole: every game counted in an outcome, the seats' wins making up the wins.
    assert s["games"] == 50_000 and sum(o["count"] for o in s["outcomes"].values()) == 50_000
    assert abs(sum(s["win_rate"]) - s["outcomes"]["win"]["rate"]) < 1e-9 and s["length"]["mean"] > 50


@pytest.mark.parametrize(
    "args,message",
    [
        (["--chunk-size", 10**9], "--chunk-size: expected an integer from 1 to 4,194,304"),
        (["--backend", "dask", "--workers", 10_000], "--workers: expected at most"),
        (["--games", 0], "games: expected an integer from 1"),
    ],
)
def test_resource_options_have_bounds(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    one_line(invoke("run", "fortune", *args), message)
    assert list(tmp_path.iterdir()) == []
