"""What a first run compiles, function by function, and what compiling ahead costs.

For each game, a run's kernel compiled from an empty numba cache (a new folder each time, in a
fresh process, as a new user's first command): the number of functions numba compiles for it
and the time of each (numba's ``numba:compile`` events; a function's time includes the
functions it compiles on the way), for the default run (the game feel recorded, the default
players), with the feel off, and with look-ahead players where the game has them. The
functions are what specialising a kernel on what a run plays would remove (issue 56).

Then compiling ahead: ``snakesim compile`` (every game's default engine, one process a core:
what ``make run`` adds to the set-up) from an empty cache, against a first ``snakesim run
fortune`` alone. Interleaved, ``--repeats`` rounds, medians with their spread and the load.

    python benchmarks/bench_compile.py [--repeats 2]
    NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES= python benchmarks/bench_compile.py   # AVX2 code
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import arguments, interleaved, isa, load, median_spread, print_table

# Runs in the child: compile one kernel by playing one game, recording numba's compile events.
CHILD = r"""
import json, sys, time
from numba.core import event
from snakesim.core.policies import encode_policies
from snakesim.games import get_game
game, policy, feel = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
spec = get_game(game)
rules = spec.rules().updated({"feel": feel})
codes = encode_policies(spec, (policy,) * 4) if policy != "-" else None
started = time.perf_counter()
with event.install_recorder("numba:compile") as record:
    spec.play_block(rules, 4, 1, 0, 1, policies=codes)
seconds = time.perf_counter() - started
begun, each = {}, []
for at, ev in record.buffer:
    key = (ev.data["dispatcher"].py_func.__qualname__, str(ev.data["args"]))
    if ev.is_start:
        begun[key] = at
    else:
        each.append((at - begun.pop(key), key[0]))
print(json.dumps({"seconds": seconds, "functions": sorted(each, reverse=True)}))
"""

CONFIGS = [(game, "-", True) for game in ("fortune", "rainbow", "hisss", "sssnake")] + [
    (game, "-", False) for game in ("fortune", "rainbow", "hisss", "sssnake")
] + [("rainbow", "expert", True), ("hisss", "expert", True), ("sssnake", "expert", True)]  # fmt: skip
SNAKESIM = str(Path(sys.executable).parent / "snakesim")


def compiled(game: str, policy: str, feel: bool) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        done = subprocess.run([sys.executable, "-c", CHILD, game, policy, "1" if feel else "0"], env=env,
                              capture_output=True, text=True, check=True, timeout=900)  # fmt: skip
    return json.loads(done.stdout.splitlines()[-1])


def cold(args: list[str]) -> callable:
    def run():
        with tempfile.TemporaryDirectory() as home:
            env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(home) / "cache"), "SNAKESIM_HOME": home}
            subprocess.run([SNAKESIM, *args], env=env, capture_output=True, check=True, timeout=900)

    return run


def main() -> None:
    args = arguments(__doc__, games=0, reference_games=0, repeats=2)
    before = load()
    runs = interleaved({config: (lambda c=config: compiled(*c)) for config in CONFIGS}, args.repeats)
    rows = []
    for (game, policy, feel), results in runs.items():
        seconds = [r["seconds"] for _, r in results]
        last = results[-1][1]["functions"]
        top = ", ".join(f"{name} {t:.2f}" for t, name in last[:4])
        who = "look-ahead players" if policy == "expert" else ("default" if feel else "feel off")
        rows.append((f"{game}, {who}", median_spread(seconds, "{:.2f} s"), f"{len(last)} functions; {top}"))
    print_table(f"A kernel compiled from an empty cache ({isa()}), {args.repeats} interleaved rounds", rows, before)

    before = load()
    ahead = interleaved({
        "snakesim compile (every game)": cold(["compile"]),
        "snakesim run fortune (alone)": cold(["run", "fortune", "-n", "1000"]),
    }, args.repeats)  # fmt: skip
    rows = [(name, median_spread([s for s, _ in r], "{:.2f} s"), "") for name, r in ahead.items()]
    print_table(f"Compiling ahead from an empty cache ({isa()}, {os.cpu_count()} cores), {args.repeats} rounds", rows,
                before)  # fmt: skip


if __name__ == "__main__":
    main()
