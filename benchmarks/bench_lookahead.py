"""The look-ahead expert: its speed at each K, and what each K buys.

For Rainbow and Hisss, one ``expert:K`` among 3 greedy players, K = 16, 64 and 256: games per
second on 1 and 2 numba threads (medians of interleaved repeats with their spread; 1 and 2
threads alternate, so a change of load hits both), and the expert's win rate against the
greedy player it replaces, on the same games, with the expert at each seat in turn (so a user
can pick K by its value). The issue's target: expert:64 among 3 greedy plays at least 1,000
Rainbow games per second on 2 cores. The load average is printed before and after, since the
machine is shared.

    python benchmarks/bench_lookahead.py [--games 2000] [--edge-games 8000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from snakesim.analysis.stats import paired_difference
from snakesim.core.policies import encode_policies
from snakesim.core.threads import max_threads, set_threads
from snakesim.games import get_game

GAMES = ("rainbow", "hisss")
KS = (16, 64, 256)


def seats(spec, k: int, at: int = 0) -> np.ndarray:
    names = ["greedy"] * 4
    names[at] = f"expert:{k}"
    return encode_policies(spec, names)


def timed(spec, table, games: int, threads: int) -> float:
    set_threads(threads)
    start = time.perf_counter()
    spec.play_block(spec.rules(), 4, 1, 0, games, policies=table)
    return time.perf_counter() - start


def odd_seat_wins(spec, policy: str, games: int) -> np.ndarray:
    """Whether the odd player won, ``games // 4`` games with it at each seat."""
    per = games // 4
    out = []
    for at in range(4):
        names = ["greedy"] * 4
        names[at] = policy
        result = spec.play_block(spec.rules(), 4, 7, at * per, per, policies=encode_policies(spec, names))
        out.append(result["winner"] == at)
    return np.concatenate(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000, help="games per timing")
    parser.add_argument("--edge-games", type=int, default=8_000, help="games for each win rate")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    two = min(2, max_threads())
    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores; {args.games:,} games per timing")
    print(f"{'':<18}{'1 thread games/s':>22}{f'{two} threads games/s':>24}{'2 / 1':>8}"
          f"{'expert wins':>14}{'edge over greedy (points)':>30}")  # fmt: skip
    for game in GAMES:
        spec = get_game(game)
        base = odd_seat_wins(spec, "greedy", args.edge_games)
        for k in KS:
            table = seats(spec, k)
            spec.play_block(spec.rules(), 4, 1, 0, 8, policies=table)  # compile or load before timing
            runs = {1: [], two: []}
            for _ in range(args.repeats):
                for threads in runs:
                    runs[threads].append(args.games / timed(spec, table, args.games, threads))
            one, many = statistics.median(runs[1]), statistics.median(runs[two])
            wins = odd_seat_wins(spec, f"expert:{k}", args.edge_games)
            edge, low, high, _ = paired_difference(wins, base)
            print(
                f"{game} expert:{k:<6}{one:>12,.0f} ({min(runs[1]):,.0f}-{max(runs[1]):,.0f})"
                f"{many:>12,.0f} ({min(runs[two]):,.0f}-{max(runs[two]):,.0f}){many / one:>8.2f}"
                f"{wins.mean():>13.1%}{edge * 100:>+12.1f} [{low * 100:+.1f}, {high * 100:+.1f}]"
            )
        print(f"{game} greedy (for reference) wins {base.mean():.1%} at the same seats")
    set_threads(None)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
