"""Scale-out and long runs: summaries as mergeable sums, the Dask backend giving exactly the
threads backend's results, and run folders that resume after a kill."""

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import snakesim
from snakesim.analysis.stats import summarize, summary_of
from snakesim.cli import cli
from snakesim.core.arms import Budget
from snakesim.core.backends import DaskBackend
from snakesim.core.runner import simulate_spec, tally_spec
from snakesim.core.tally import km_histogram_quantile, length_histogram, merge, tally_columns
from snakesim.games import get_game

FORTUNE = get_game("fortune")
HISSS = get_game("hisss")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


# ---------------------------------------------------------------- mergeable sums
@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.integers(0, 60), min_size=1, max_size=200), q=st.sampled_from([0.05, 0.5, 0.95, 1.0]))
def test_a_length_quantile_from_the_histogram_is_the_first_length_with_that_share_over(values, q):
    # With no game unfinished: the smallest length that at least a share q of the games reach
    # no later than (numpy's "inverted_cdf"), counted here from the sorted lengths themselves.
    first = sorted(values)[math.ceil(round(q * len(values), 9)) - 1]
    assert km_histogram_quantile(length_histogram(values), {}, q) == first
    assert first == np.quantile(values, q, method="inverted_cdf")


def test_the_length_histogram_stays_small_whatever_the_turn_cap():
    # Two-coin games of SUNS alone never end: every game runs to a cap of 10**7 cards. A dense
    # histogram would hold 10**7 entries; the sparse one holds one.
    from snakesim.games.fortune.rules import DECK_SYMBOLS

    rules = FORTUNE.rules(deck={s: int(s == "SUNS") for s in DECK_SYMBOLS}, snakes=0, start_coins=2, turn_cap=10**7)
    tally = tally_spec(FORTUNE, rules, 2, Budget(2, 1))
    assert tally.lengths == {10**7: 2}
    assert len(json.dumps(tally.to_dict())) < 1000


def test_tallies_merge_exactly_in_any_grouping():
    rules = HISSS.rules()
    whole = HISSS.play_block(rules, 3, 5, 0, 3000)
    parts = [HISSS.play_block(rules, 3, 5, start, 1000) for start in (0, 1000, 2000)]
    tallies = [tally_columns(HISSS, p, 3) for p in parts]
    assert merge(tallies) == tally_columns(HISSS, whole, 3)
    assert merge(tallies[::-1]) == merge(tallies)
    assert merge(tallies).sums["cards_0"] == int(whole["cards"][:, 0].sum())
    assert merge(tallies).squares["completed"] == int((whole["completed"].astype(np.int64) ** 2).sum())


def test_summary_only_gives_the_tables_summary():
    rules = FORTUNE.rules()
    df = simulate_spec(FORTUNE, rules, 4, Budget(20_000, 9, block=3000))
    tally = tally_spec(FORTUNE, rules, 4, Budget(20_000, 9, block=7000))
    full = summarize(df)
    short = summary_of(tally, list(FORTUNE.outcomes), {})
    for key in ("games", "win_rate", "win_ci", "draw_rate", "outcomes", "length"):
        assert short[key] == full[key], key
    assert full["length"]["median"] == float(np.quantile(df["length"], 0.5, method="inverted_cdf"))


# ---------------------------------------------------------------- Dask
@pytest.fixture(scope="module")
def dask_backend():
    with DaskBackend(workers=2) as backend:
        yield backend


def test_dask_gives_the_threads_table_and_summary(dask_backend):
    rules = HISSS.rules()
    threads = simulate_spec(
        HISSS, rules, 4, Budget(9000, 3, block=2000), policies=("greedy", "random", "greedy", "random")
    )
    dask = simulate_spec(
        HISSS,
        rules,
        4,
        Budget(9000, 3, block=1300),
        policies=("greedy", "random", "greedy", "random"),
        backend=dask_backend,
    )
    pd.testing.assert_frame_equal(threads, dask)
    assert threads.attrs == dask.attrs
    assert tally_spec(HISSS, rules, 4, Budget(9000, 3, block=2000)) == tally_spec(
        HISSS, rules, 4, Budget(9000, 3, block=1100), backend=dask_backend
    )


def _numba_threads():
    from snakesim.core.threads import get_threads, max_threads

    return max_threads(), get_threads()


def test_dask_workers_use_one_numba_thread(dask_backend):
    counts = dask_backend.client.run(_numba_threads)
    assert len(counts) == 2 and set(counts.values()) == {(1, 1)}


@pytest.mark.slow  # (11 s: two Dask workers compiling from an empty cache; the default run checks their threads)
def test_cli_workers_use_one_numba_thread_and_can_compile(tmp_path):
    # The CLI's main module imports numba before a worker's environment is set; a fresh
    # cache makes the workers compile a kernel variant the parent has not used.
    command = [sys.executable, "-c", "from snakesim.cli import main; main()", "compare", "fortune", "-n", "3000"]
    command += ["-v", "standard", "-v", "rejoin", "--backend", "dask", "--workers", "2", "--json"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(command, capture_output=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert json.loads(done.stdout)["variants"] == ["standard", "rejoin"]


def test_cli_dask_backend_json(tmp_path):
    r = invoke("run", "fortune", "-n", 20_000, "--chunk-size", 4000, "--backend", "dask", "--workers", 2, "--json")
    assert r.exit_code == 0, r.output
    dask = json.loads(r.stdout)
    threads = json.loads(invoke("run", "fortune", "-n", 20_000, "--json").stdout)
    assert dask["backend"] == "dask" and dask["win_ci"] == threads["win_ci"] and dask["length"] == threads["length"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--scheduler", "tcp://127.0.0.1:9"], "--scheduler: needs --backend dask"),
        (["--workers", "2"], "--workers: needs --backend dask"),
        (["--backend", "dask", "--threads", "1"], "--threads: each Dask worker plays with one numba thread"),
        (["--backend", "dask", "--workers", "0"], "--workers: expected a positive number"),
        (
            ["--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--workers", "2"],
            "cannot be used with --scheduler",
        ),
        (["--backend", "spark"], "'spark' is not one of 'threads', 'dask'"),
        (["--summary-only", "--out", "x.parquet"], "a --summary-only run keeps no per-game table"),
        (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler: cannot reach a Dask scheduler"),
    ],
)
def test_bad_scale_options(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SNAKESIM_DASK_TIMEOUT", "3")
    r = invoke("run", "fortune", "-n", 1000, *args)
    assert r.exit_code == 2 and r.stdout == "", r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- run folders
def test_run_folder_resumes_and_refuses_other_parameters(tmp_path):
    folder = tmp_path / "run"
    args = ["run", "rainbow", "-p", 3, "-n", 5000, "--chunk-size", 1000, "--seed", 4, "--out", folder, "--json"]
    first = json.loads(invoke(*args).stdout)
    names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))  # the lock is hidden
    assert names == [f"block-00000{k}.parquet" for k in range(5)] + ["manifest.json"]
    (folder / "block-000003.parquet").unlink()  # as if the run had been stopped before it
    again = json.loads(invoke(*args).stdout)
    assert again["resumed_games"] == 4000 and again["win_ci"] == first["win_ci"]
    table = snakesim.read_table(folder)
    direct = snakesim.simulate("rainbow", players=3, games=5000, seed=4)
    pd.testing.assert_frame_equal(table, direct)
    assert table.attrs["seed"] == 4 and table.attrs["game"] == "rainbow"
    r = invoke(*[a if a != 4 else 5 for a in args])  # another seed
    assert r.exit_code == 2 and "holds a run with other parameters (seed differ)" in r.stderr
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    r = invoke("run", "rainbow", "-n", 100, "--out", tmp_path / "other")
    assert r.exit_code == 2 and "is not empty and is not a snakesim run folder" in r.stderr
    r = invoke("run", "rainbow", "-n", 100, "--out", tmp_path / "other" / "notes.txt" / "run")
    assert r.exit_code == 2 and "cannot make a folder inside" in r.stderr and "notes.txt" in r.stderr


def test_summary_only_run_folder(tmp_path):
    folder = tmp_path / "sums"
    args = ["run", "fortune", "-n", 30_000, "--chunk-size", 10_000, "--summary-only", "--out", folder, "--json"]
    s = json.loads(invoke(*args).stdout)
    names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    assert names == [f"block-00000{k}.json" for k in range(3)] + ["manifest.json"]
    assert s == {**json.loads(invoke(*args).stdout), "elapsed_s": s["elapsed_s"], "resumed_games": 0}
    full = json.loads(invoke("run", "fortune", "-n", 30_000, "--json").stdout)
    assert s["win_ci"] == full["win_ci"] and s["length"] == full["length"]


def _start(folder, *extra):
    command = [sys.executable, "-c", "from snakesim.cli import main; main()", "run", "sssnake", "-p", "4"]
    command += ["--policy", "random", "-n", "12000", "--chunk-size", "100", "--seed", "8", "--out", str(folder)]
    # (SIGINT back to its default in the child: a shell's background job, as a CI runner may
    # start the suite, ignores it, and Python then keeps ignoring Ctrl-C.)
    return subprocess.Popen(
        [*command, "--no-progress", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _wait_for_blocks(folder, count, process):
    deadline = time.monotonic() + 120
    while len(list(folder.glob("block-*"))) < count:
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline, "no blocks written"
        time.sleep(0.01)


@pytest.mark.parametrize(
    "how,extra",
    [
        (signal.SIGKILL, []),
        # (15 s: Ctrl-C across a Dask cluster, then resumed on another; make test-all)
        pytest.param(signal.SIGINT, ["--backend", "dask", "--workers", "2"], marks=pytest.mark.slow),
    ],
    ids=["kill-threads", "ctrl-c-dask"],
)
def test_a_killed_run_resumes_to_the_uninterrupted_result(tmp_path, how, extra):
    folder = tmp_path / "run"
    process = _start(folder, *extra)
    _wait_for_blocks(folder, 4, process)
    process.send_signal(how)
    _, err = process.communicate(timeout=60)
    kept = len(list(folder.glob("block-*.parquet")))
    assert 4 <= kept < 120, kept  # stopped part way (120 blocks: room for a slow reaction to the signal)
    if how == signal.SIGINT:
        assert process.returncode == 130 and "blocks are kept in" in err.decode()
    assert not list(folder.glob(".*.tmp")) or how == signal.SIGKILL  # a clean stop leaves no temporary file
    finish = _start(folder, *extra)
    out, err = finish.communicate(timeout=300)
    assert finish.returncode == 0, err.decode()
    assert "games read from the blocks already in" in out.decode()
    resumed = snakesim.read_table(folder)
    whole = snakesim.simulate("sssnake", players=4, games=12000, seed=8, policy="random")
    pd.testing.assert_frame_equal(resumed, whole)


def test_joining_an_existing_cluster(tmp_path):
    # A scheduler and two one-thread workers started as a user would (README: "Running on a
    # cluster"); the run must give the threads backend's summary exactly.
    dask = [str(Path(sys.executable).parent / "dask")]  # the command installed beside this Python
    scheduler_file = tmp_path / "scheduler.json"
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    scheduler = subprocess.Popen(
        [*dask, "scheduler", "--scheduler-file", scheduler_file, "--port", "0", "--dashboard-address", ":0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers = subprocess.Popen(
        [*dask, "worker", "--scheduler-file", scheduler_file, "--nthreads", "1", "--nworkers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        args = ["run", "hisss", "-p", 3, "-n", 6000, "--chunk-size", 1000, "--json"]
        r = invoke(*args, "--backend", "dask", "--scheduler", address)
        assert r.exit_code == 0, r.output
        joined, local = json.loads(r.stdout), json.loads(invoke(*args).stdout)
        for key in ("win_ci", "draw_ci", "outcomes", "length"):
            assert joined[key] == local[key], key
    finally:
        workers.terminate()
        scheduler.terminate()
        workers.wait(30)
        scheduler.wait(30)


def test_the_api_takes_a_backend(dask_backend):
    threads = snakesim.simulate("rainbow", players=3, games=3000, seed=2, policy="random")
    dask = snakesim.simulate("rainbow", players=3, games=3000, seed=2, policy="random", backend=dask_backend)
    pd.testing.assert_frame_equal(threads, dask)


def test_one_progress_bar_across_dask_blocks(monkeypatch):
    import snakesim.core.progress as progress

    monkeypatch.setattr(progress, "SHOW_AFTER_SECONDS", 0)
    r = invoke("run", "fortune", "-n", 8000, "--chunk-size", 1000, "--backend", "dask", "--workers", 2, "--progress")
    assert r.exit_code == 0, r.output
    # One bar: every update shows the run's 8,000 games as its total (a bar per block would
    # show 1.00k), it starts once and is closed once.
    totals = re.findall(r"fortune:.*?\| *\S+/(\S+) \[", r.stderr)
    assert totals and set(totals) == {"8.00k"} and "8.00k/8.00k" in r.stderr
    assert r.stderr.count("fortune:   0%") == 1 and len(re.findall(r"games/s\]\n", r.stderr)) == 1


def _pid():
    return os.getpid()


RANDOM_3 = ("random", "random", "random")


def test_a_killed_worker_loses_only_its_blocks_in_flight(dask_backend, tmp_path):
    # Kill one worker process while a run is under way: Dask plays its blocks again on the
    # other worker (or on the one the nanny restarts), and the table is unchanged.
    import threading

    from snakesim.core.store import RunStore

    spec, rules = get_game("sssnake"), get_game("sssnake").rules()
    meta = {"game": "sssnake", "case": "killed worker"}
    store = RunStore(tmp_path / "run", meta)
    result = {}

    def play():
        result["df"] = simulate_spec(
            spec, rules, 3, Budget(6000, 4, block=200), policies=RANDOM_3, backend=dask_backend, store=store
        )

    runner = threading.Thread(target=play)
    runner.start()
    deadline = time.monotonic() + 120
    while len(list((tmp_path / "run").glob("block-*"))) < 3:
        assert time.monotonic() < deadline and runner.is_alive()
        time.sleep(0.01)
    victim = next(iter(dask_backend.client.run(_pid).values()))
    os.kill(victim, signal.SIGKILL)
    assert runner.is_alive() and len(list((tmp_path / "run").glob("block-*"))) < 30  # killed part way
    runner.join(300)
    assert not runner.is_alive() and len(list((tmp_path / "run").glob("block-*"))) == 30
    pd.testing.assert_frame_equal(result["df"], simulate_spec(spec, rules, 3, Budget(6000, 4), policies=RANDOM_3))
