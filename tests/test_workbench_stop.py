"""Ctrl-C stops `snakesim workbench` every time, within 3 seconds: while it waits, while a run
plays, and while an engine compiles (a numba cache of its own, empty, makes the first run
compile). The default suite does each once; `make test-all` does each 20 times with both cores
kept busy by other processes."""

import http.client
import json
import os
import signal
import subprocess
import sys
import time

import pytest

STOP_WITHIN = 3.0  # seconds from SIGINT to the process's end
LONG = {"kind": "compare", "game": "fortune", "players": 4, "games": 1_000_000, "seed": 1, "feel": True,
        "arms": [{"name": "standard", "toml": ""}, {"name": "ten", "toml": "start_coins = 10\n"}]}  # fmt: skip


def hear_ctrl_c() -> None:
    """In the child, before it runs: Ctrl-C's default action, which a suite started in the
    background (``make test &``, nohup, a mutation run) leaves ignored, and a child keeps
    ignoring; Python then installs its own KeyboardInterrupt handler, as in a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(cache: str | None = None) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, **({"NUMBA_CACHE_DIR": cache} if cache else {})}
    command = [sys.executable, "-c", "from snakesim.cli import main; main()", "workbench", "--port", "0"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, preexec_fn=hear_ctrl_c
    )
    line = process.stdout.readline()
    assert line.startswith("snakesim workbench: http://127.0.0.1:"), line + process.stderr.read()
    return process, int(line.split(":")[3].split("/")[0])


def ask(port: int, method: str, path: str, body=None) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"}
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    data = json.loads(conn.getresponse().read())
    conn.close()
    return data


def reach(port: int, state: str, seconds: float = 120) -> None:
    """Start a long run and wait until it is in ``state`` (compiling, or playing with games done)."""
    run = ask(port, "POST", "/api/runs", LONG)["id"]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        job = ask(port, "GET", f"/api/runs/{run}")
        if job["state"] == state and (state != "playing" or job["done"] > 0):
            return
        assert job["state"] not in ("done", "failed", "cancelled"), job
        time.sleep(0.02)
    raise AssertionError(f"the run never reached {state}")


def stop_time(process: subprocess.Popen) -> float:
    """Send SIGINT; return the seconds until the process ended (it is killed after 30 s)."""
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return float("inf")
    took = time.monotonic() - sent
    err = process.stderr.read()
    assert process.returncode == 0 and "stopping" in err and "Traceback" not in err, err
    return took


def once(state: str, cache: str) -> float:
    process, port = start(cache if state == "compiling" else None)
    try:
        if state != "idle":
            reach(port, state)
        return stop_time(process)
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.parametrize("state", ["idle", "playing", "compiling"])
def test_ctrl_c_stops_the_workbench_within_3_s(state, tmp_path):
    took = once(state, str(tmp_path / "cache"))
    assert took <= STOP_WITHIN, f"{state}: {took:.1f} s"


@pytest.mark.slow
@pytest.mark.parametrize("state", ["idle", "playing", "compiling"])
def test_ctrl_c_stops_it_20_times_under_load(state, tmp_path):
    burn = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        times = [once(state, str(tmp_path / f"cache{k}")) for k in range(20)]
    finally:
        for p in burn:
            p.kill()
    assert max(times) <= STOP_WITHIN, f"{state}: {[round(t, 2) for t in times]}"
