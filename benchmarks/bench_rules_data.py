"""Rules as data against hard-coded rules: kernel time per game, today's code vs a baseline.

The baseline is a git revision (default: the main before rules became data), checked out
into a temporary worktree. Each timing runs in a fresh interpreter on one numba thread
(after a warm-up game block, so compilation is not timed), alternating baseline and
current (and which of the two goes first), so both see the same machine load; the figure is the median of the per-repeat
ratios (current / baseline; below 1 is faster), with their spread and the load average.
Both engines play the same games: the shipped variants are bit-identical across the change
(tests/regression), so the ratio is cost per game alone.

    python benchmarks/bench_rules_data.py [--baseline a325820] [--repeats 7] [--scale 1] [--only GAME]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = (  # game, variant, players, policy code for every seat (None: no choices), games
    ("fortune", "standard", 4, None, 1_000_000),
    ("fortune", "rejoin", 4, None, 300_000),
    ("rainbow", "both", 4, 1, 300_000),
    ("hisss", "standard", 4, 1, 100_000),
    ("sssnake", "standard", 3, 1, 3_000),
)
TIMER = """
import sys, time
import numpy as np
from snakesim.games import get_game
game, variant, players, code, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
spec = get_game(game)
rules = spec.rules.variant(variant)
seats = None if code == "None" else np.full(players, int(code), np.int8)
spec.play_block(rules, players, 1, 0, max(10, games // 100), policies=seats)  # compile or load, warm up
start = time.perf_counter()
out = spec.play_block(rules, players, 1, 0, games, policies=seats)
print(time.perf_counter() - start, int(out["length"].sum()))
"""


def timed(tree: Path, case, scale: float) -> tuple[float, int]:
    """Seconds for the case's games in a fresh interpreter on ``tree``'s code, and its total length."""
    game, variant, players, code, games = case
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_NUM_THREADS": "1"}
    args = [game, variant, str(players), str(code), str(max(100, int(games * scale)))]
    done = subprocess.run(
        [sys.executable, "-c", TIMER, *args], cwd=tree, env=env, capture_output=True, text=True, check=True
    )
    seconds, length = done.stdout.split()
    return float(seconds), int(length)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="a325820", help="git revision of the hard-coded rules")
    parser.add_argument("--repeats", type=int, default=7, help="interleaved timings per case")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every case's game count")
    parser.add_argument("--only", default=None, help="only the cases of this game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.baseline], cwd=ROOT, check=True,
                       capture_output=True)  # fmt: skip
        try:
            load = os.getloadavg()[0]
            print(f"current against baseline {args.baseline}; 1 numba thread; median of {args.repeats} interleaved")
            print(f"repeats; load average {load:.2f} at the start")
            print(f"{'case':<28} {'baseline ns/game':>17} {'current ns/game':>16} {'current/baseline':>17}  spread")
            for case in [c for c in CASES if args.only in (None, c[0])]:
                timed(base, case, 0.01), timed(ROOT, case, 0.01)  # compile both before timing
                ratios, old, new = [], [], []
                for r in range(args.repeats):
                    if r % 2 == 0:  # alternate which runs first, so an order effect cancels
                        (t_old, len_old), (t_new, len_new) = (
                            timed(base, case, args.scale),
                            timed(ROOT, case, args.scale),
                        )
                    else:
                        (t_new, len_new), (t_old, len_old) = (
                            timed(ROOT, case, args.scale),
                            timed(base, case, args.scale),
                        )
                    assert len_old == len_new, "the two revisions played different games"
                    games = max(100, int(case[4] * args.scale))
                    old.append(1e9 * t_old / games)
                    new.append(1e9 * t_new / games)
                    ratios.append(t_new / t_old)
                label = f"{case[0]} {case[1]} {case[2]}p"
                print(
                    f"{label:<28} {statistics.median(old):17,.0f} {statistics.median(new):16,.0f} "
                    f"{statistics.median(ratios):17.3f}  [{min(ratios):.3f}, {max(ratios):.3f}]"
                )
            print(f"load average at the end {os.getloadavg()[0]:.2f}")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
