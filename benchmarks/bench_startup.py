"""How long commands take to start: time spent importing, and the whole command's wall time.

Each command runs in a fresh Python process (as a user's would), with the outermost import
statements timed by a wrapper around ``builtins.__import__``; the commands are interleaved and
repeated, and the medians printed with their spread (min-max) and the machine's load. The
children may write and read compiled bytecode (``__pycache__``), as an installed package does,
even where ``PYTHONDONTWRITEBYTECODE`` is set (it is on the project's machine): otherwise every
start would time compiling snakesim's sources (~40 ms), which no user's command pays.

Target (issue 17): ``snakesim --help``, ``variants`` and a 1,000-game run each spend under
0.5 s importing (numba's own start-up when the first kernel loads is counted too: it imports
scipy.linalg then).

Then a new user's first command, ``snakesim run GAME -n 1000`` for each game, with an empty
numba cache (a new folder each time: everything compiled) and again with that cache warm,
interleaved by game, ``--cold-repeats`` times. Target (issue 27): under 10 s cold, on 2 cores; issue 44: under 5 s.
The instruction set numba compiled for is printed (``NUMBA_CPU_NAME`` and
``NUMBA_CPU_FEATURES`` set it: ``NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES=`` for AVX2 code).

    python benchmarks/bench_startup.py [--repeats 5] [--cold-repeats 3]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from _common import arguments, isa, load, median_spread

COMMANDS = (("--help",), ("variants", "fortune"), ("run", "fortune", "--games", "1000"))

# Runs in the child: time the imports made at depth 0 (their nested imports are inside them).
CHILD = r"""
import builtins, json, sys, time
start = time.perf_counter()
spent, depth, real = [0.0], [0], builtins.__import__
def timed(*args, **kwargs):
    if depth[0]:
        return real(*args, **kwargs)
    depth[0] += 1
    t = time.perf_counter()
    try:
        return real(*args, **kwargs)
    finally:
        spent[0] += time.perf_counter() - t
        depth[0] -= 1
builtins.__import__ = timed
sys.argv = ["snakesim", *sys.argv[1:]]
from snakesim.cli import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write("\n" + json.dumps({"import": spent[0], "wall": time.perf_counter() - start}) + "\n")
"""


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
GAMES = ("fortune", "rainbow", "hisss", "sssnake")


def measure(command: tuple[str, ...], env: dict | None = None) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *command], capture_output=True, text=True, check=False, timeout=600,
        env={**ENV, **(env or {})},
    )  # fmt: skip
    return json.loads(done.stderr.strip().splitlines()[-1])


def first_commands(repeats: int) -> None:
    """Each game's first ``run -n 1000`` with an empty cache, then warm; medians [min-max]."""
    before = load()
    cold: dict[str, list] = {g: [] for g in GAMES}
    warm: dict[str, list] = {g: [] for g in GAMES}
    for _ in range(repeats):
        for game in GAMES:
            with tempfile.TemporaryDirectory() as cache:
                command = ("run", game, "-n", "1000")
                cold[game].append(measure(command, {"NUMBA_CACHE_DIR": cache})["wall"])
                warm[game].append(measure(command, {"NUMBA_CACHE_DIR": cache})["wall"])
    print(f"\nFirst command, snakesim run GAME -n 1000, {repeats} rounds (load {before} -> {load()}; {isa()})")
    print(f"  {'game':<10} {'empty cache (s)':>22} {'cache warm (s)':>22}")
    for game in GAMES:
        print(f"  {game:<10} {median_spread(cold[game], '{:.2f}'):>22} {median_spread(warm[game], '{:.2f}'):>22}")
    print("  (target: under 5 s with an empty cache, issue 44; 10 s before)")


def main() -> None:
    args = arguments(__doc__, games=0, reference_games=0, repeats=5, cold_repeats=3)
    for command in COMMANDS:  # warm the numba cache, the bytecode and the file system once
        measure(command)
    before = load()
    times: dict[tuple, list] = {c: [] for c in COMMANDS}
    for _ in range(args.repeats):
        for command in COMMANDS:
            times[command].append(measure(command))
    after = load()
    print(f"Start-up, {args.repeats} interleaved runs per command in fresh processes (load {before} -> {after})")
    print(f"  {'command':<34} {'importing (s)':>22} {'whole command (s)':>22}")
    for command, runs in times.items():
        imports = median_spread([r["import"] for r in runs], "{:.3f}")
        walls = median_spread([r["wall"] for r in runs], "{:.3f}")
        print(f"  snakesim {' '.join(command):<25} {imports:>22} {walls:>22}")
    print("  (target: importing < 0.5 s for each)")
    first_commands(args.cold_repeats)


if __name__ == "__main__":
    main()
