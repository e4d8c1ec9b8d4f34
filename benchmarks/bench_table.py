"""A full per-game table: time and peak memory of ``snakesim run ... --out FILE``.

Runs ``snakesim run fortune --players 4 --games N --out TMP.parquet`` and the same run with
``--summary-only`` (sums only, no table) in fresh processes, interleaved, and prints the
median wall time with its spread and the peak resident memory of each (the child's maximum
RSS), with the load before and after. The table's own size is printed for reference.

Target (issue 17): peak memory at most 1 GB for 10**7 Fortune games with the table.

    python benchmarks/bench_table.py [--games 10000000] [--repeats 3]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from _common import arguments, load, median_spread, print_table

from snakesim.core.columns import row_bytes
from snakesim.games import get_game


def run(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (GB) of one ``snakesim`` command in a fresh process."""
    snakesim = os.path.join(os.path.dirname(sys.executable), "snakesim")
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", RUN, snakesim, *args], capture_output=True, text=True, check=True, timeout=3600
    )
    wall = time.perf_counter() - start
    return wall, float(done.stderr.strip().splitlines()[-1]) / 1e6  # ru_maxrss is in KB on Linux


# The child runs the command and reports its own peak RSS (a grandchild's would not count).
RUN = """
import resource, runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit:
    pass
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def main() -> None:
    args = arguments(__doc__, 10_000_000, 0, repeats=3)
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "t.parquet")
        base = ["run", "fortune", "--players", "4", "--games", str(args.games), "--seed", "1", "--no-progress"]
        commands = {"table": [*base, "--out", out], "summary only": [*base, "--summary-only"]}
        run(["run", "fortune", "--games", "1000"])  # load the kernel once
        before = load()
        results = {name: [] for name in commands}
        for _ in range(args.repeats):
            for name, command in commands.items():
                results[name].append(run(command))
        size = os.path.getsize(out) / 1e6
    rows = []
    for name, values in results.items():
        rows.append((f"{name}: wall (s)", median_spread([w for w, _ in values]), ""))
        rows.append((f"{name}: peak memory (GB)", median_spread([m for _, m in values]), ""))
    per_game = row_bytes(get_game("fortune").columns, 4)
    rows.append(("table in memory (GB)", f"{args.games * per_game / 1e9:.2f}", f"{per_game} bytes a game"))
    rows.append(("Parquet file (MB)", f"{size:.0f}", ""))
    rows.append(("target: table peak (GB)", "<= 1", ""))
    print_table(f"Fortune, 4 players, {args.games:,} games; {args.repeats} interleaved rounds", rows, before)


if __name__ == "__main__":
    main()
