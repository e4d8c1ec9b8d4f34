"""Compiling ahead (snakesim.games.warm): the workbench's background process says each game's
state, a Play waits while its own game compiles there and for no other, the process and its
workers end with the server; ``snakesim compile`` (the set-up's) leaves every game's default
engine in the cache, so that a first run compiles nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from snakesim.cli import cli
from snakesim.games.warm import Background
from tests.engines_stand_in import stand_in

# A stand-in for the background process: Hisss "compiles" while Fortune waits its turn, until
# the test leaves a file named "release" in the folder; then both are ready. It starts a worker
# of its own, as the real one does.
FAKE = stand_in("hisss", then=("hisss", "fortune"), worker=True)


def call(wb, method, path, body=None):
    base = wb.url.rstrip("/")
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Origin": base}
    request = urllib.request.Request(base + path, method=method, data=data, headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def states_seen(wb, run_id) -> list[tuple[str, str]]:
    seen = []
    while True:
        job = call(wb, "GET", f"/api/runs/{run_id}")
        step = (job["state"], job.get("message") or "")
        if not seen or seen[-1] != step:
            seen.append(step)
        if job["state"] in ("done", "failed", "cancelled"):
            return seen
        time.sleep(0.05)


@pytest.fixture
def warming(tmp_path):
    from snakesim.workbench.serve import Workbench

    wb = Workbench().start()
    wb.jobs.warming = Background(["hisss", "fortune"], tmp_path / "states", command=FAKE)
    yield wb
    wb.stop()


def request(game):
    return {"kind": "compare", "game": game, "players": 3, "games": 200, "seed": 1,
            "arms": [{"name": "standard", "toml": ""}]}  # fmt: skip


def test_a_play_waits_while_its_game_compiles_in_the_background_and_for_no_other(warming):
    assert call(warming, "GET", "/api/engines")["engines"] == {"hisss": {"state": "pending"},
                                                               "fortune": {"state": "pending"}}  # fmt: skip
    while call(warming, "GET", "/api/engines")["engines"]["hisss"]["state"] != "compiling":
        time.sleep(0.02)
    # Fortune waits its turn there: its Play does not wait for Hisss.
    fortune = states_seen(warming, call(warming, "POST", "/api/runs", request("fortune"))["id"])
    assert fortune[-1][0] == "done" and not any("in the background" in m for _, m in fortune)
    assert call(warming, "GET", "/api/engines")["engines"]["hisss"]["state"] == "compiling"
    # Hisss's Play waits, says why, and plays once it is ready.
    run = call(warming, "POST", "/api/runs", request("hisss"))["id"]
    waits_then_plays(warming, run, warming.jobs.warming.folder, "getting the Hisss engine ready for this computer: it "
                     "is compiling in the background (started with the workbench)")  # fmt: skip
    assert call(warming, "GET", "/api/engines")["engines"]["hisss"]["state"] == "ready"


def waits_then_plays(wb, run, folder, message):
    """Run ``run`` waits for its engine, saying ``message`` (its start), and is still waiting a
    moment later; once the stand-in in ``folder`` is released, it plays to the end."""
    while (job := call(wb, "GET", f"/api/runs/{run}"))["state"] == "waiting":  # (before its thread takes it)
        time.sleep(0.02)
    assert job["state"] == "compiling" and job["message"].startswith(message)
    time.sleep(0.3)
    assert call(wb, "GET", f"/api/runs/{run}")["state"] == "compiling"  # (still waiting for it)
    (folder / "release").touch()
    assert states_seen(wb, run)[-1][0] == "done"


# Another stand-in: Hisss's default engine is ready, its look-ahead players' compiles until the
# test leaves a file named "release" in the folder.
FAKE_THINKING = stand_in("hisss-thinking", then=("hisss-thinking",), ready=("hisss",))


def test_a_play_with_a_player_who_thinks_ahead_waits_for_that_engine_alone(tmp_path):
    from snakesim.workbench.serve import Workbench

    wb = Workbench().start()
    try:
        wb.jobs.warming = Background(["hisss"], tmp_path, command=FAKE_THINKING)
        while not wb.jobs.warming.compiling("hisss", thinks=True):
            time.sleep(0.02)
        # Greedy players do not wait for the look-ahead's engine.
        greedy = states_seen(wb, call(wb, "POST", "/api/runs", request("hisss"))["id"])
        assert greedy[-1][0] == "done" and not any("in the background" in m for _, m in greedy)
        thinking = {**request("hisss"), "games": 10}
        thinking["arms"] = [{"name": "standard", "toml": "", "policies": ["expert", "greedy", "greedy"]}]
        run = call(wb, "POST", "/api/runs", thinking)["id"]
        waits_then_plays(wb, run, tmp_path, "getting the Hisss engine for players who think ahead ready for this "
                         "computer: it is compiling in the background")  # fmt: skip
    finally:
        wb.stop()


def test_the_engines_of_players_who_think_ahead_follow_the_defaults_where_a_game_has_them():
    from snakesim.games.warm import engine, game_of, with_thinking

    assert with_thinking(["sssnake", "fortune", "hisss"]) == [
        "sssnake", "fortune", "hisss", "sssnake-thinking", "hisss-thinking"]  # fmt: skip
    assert game_of(engine("rainbow", thinks=True)) == ("rainbow", True) and game_of("rainbow") == ("rainbow", False)


def test_the_background_process_and_its_workers_end_with_the_server(tmp_path):
    from snakesim.workbench.serve import Workbench

    wb = Workbench().start()
    wb.jobs.warming = Background(["hisss"], tmp_path, command=FAKE)
    while not (tmp_path / "worker").exists():
        time.sleep(0.02)
    worker = int((tmp_path / "worker").read_text())
    wb.stop()
    assert wb.jobs.warming.process.poll() is not None
    for _ in range(100):  # (the worker, in the same session, is ended too)
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the background process's worker outlived the server")


def test_a_background_process_that_ends_early_leaves_no_game_waiting(tmp_path):
    gone = Background(["hisss", "fortune"], tmp_path, command=[sys.executable, "-c", "import sys"])
    gone.process.wait(10)
    assert {g: s["state"] for g, s in gone.states().items()} == {"hisss": "failed", "fortune": "failed"}
    assert gone.wait("hisss") == "failed" and not gone.compiling("hisss")


def test_a_server_that_compiles_nothing_ahead_lists_no_engine():
    from snakesim.workbench.serve import Workbench

    wb = Workbench().start()
    try:
        assert call(wb, "GET", "/api/engines") == {"engines": {}}
    finally:
        wb.stop()


def test_compile_names_an_unknown_game_in_one_line():
    r = CliRunner().invoke(cli, ["compile", "fortune", "chess"])
    assert r.exit_code == 2 and r.output == (
        "snakesim: error: game: unknown game 'chess'; expected one of fortune, rainbow, hisss, sssnake\n")  # fmt: skip


@pytest.mark.slow
@pytest.mark.timed
def test_compile_leaves_every_default_engine_in_the_cache_so_a_first_run_compiles_nothing(tmp_path):
    """The set-up's step (`make run`), from an empty cache: after `snakesim compile`, each
    game's first default run loads its engine (no compile line) and answers in seconds."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "SNAKESIM_HOME": str(tmp_path)}
    snakesim = str(Path(sys.executable).parent / "snakesim")
    done = subprocess.run([snakesim, "compile"], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert sorted(line.split(":")[0].strip() for line in done.stdout.splitlines()) == sorted(
        ["fortune", "rainbow", "hisss", "sssnake"])  # fmt: skip
    for game in ("fortune", "rainbow", "hisss", "sssnake"):
        started = time.perf_counter()
        run = subprocess.run([snakesim, "run", game, "-n", "1000"], env=env, capture_output=True, text=True,
                             timeout=600)  # fmt: skip
        assert run.returncode == 0 and "compiling" not in run.stderr, run.stderr
        assert time.perf_counter() - started < 4


@pytest.mark.slow
@pytest.mark.timed
def test_a_first_play_in_a_workbench_started_twenty_seconds_earlier_compiles_nothing(tmp_path):
    """The issue's check, from an empty cache: the workbench's background process has every
    game's engine ready within 20 s, and a first Play of each then loads it (no compiling);
    35 s after the start, a first Play with a player who thinks ahead compiles nothing either."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "SNAKESIM_HOME": str(tmp_path)}
    snakesim = str(Path(sys.executable).parent / "snakesim")
    started = time.perf_counter()
    server = subprocess.Popen([snakesim, "workbench", "--port", "0"], env=env, stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[2]

        class At:
            pass

        wb = At()
        wb.url = url
        time.sleep(20)
        states = call(wb, "GET", "/api/engines")["engines"]
        assert {g: s["state"] for g, s in states.items()} == dict.fromkeys(states, "ready"), states
        for game in states:
            seen = states_seen(wb, call(wb, "POST", "/api/runs", request(game))["id"])
            assert [s for s, _ in seen if s == "compiling"] == [] and seen[-1][0] == "done", (game, seen)
        # The look-ahead players' engines follow (measured: all ready 16 s after the start).
        time.sleep(max(0.0, started + 35 - time.perf_counter()))
        for game in ("rainbow", "hisss", "sssnake"):
            thinking = {**request(game), "games": 6}
            thinking["arms"] = [{"name": "standard", "toml": "", "policies": ["expert", "greedy", "greedy"]}]
            seen = states_seen(wb, call(wb, "POST", "/api/runs", thinking)["id"])
            assert [s for s, _ in seen if s == "compiling"] == [] and seen[-1][0] == "done", (game, seen)
    finally:
        server.terminate()
        server.wait(30)
