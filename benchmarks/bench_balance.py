"""balance and tune: how long the issue's searches take, and how many games they play.

The targets (issue 15): a 4-player Fortune or Rainbow balance search with a 0.5-point
tolerance in under 2 minutes on 2 cores; a tune for a median length target within 1 card in
under 1 minute. Each search runs ``--repeats`` times on all numba threads after a warm-up
(kernels compiled or loaded); the figure is the median wall time with its spread, the games
played (the same each time: a search is deterministic for a seed) and games per second, with
the load average before and after, since the machine is shared.

    python benchmarks/bench_balance.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import snakesim

SEARCHES = (
    ("fortune balance, start_coins, 0.5 points", lambda: snakesim.balance("fortune", 4, "start_coins", 0.005)),
    ("rainbow balance, hand_size, 0.5 points", lambda: snakesim.balance("rainbow", 4, "hand_size", 0.005)),
    ("fortune tune, length.median=60, start_coins=5:40",
     lambda: snakesim.tune("fortune", 4, "length.median=60", "start_coins=5:40")),
)  # fmt: skip


def games_of(result) -> int:
    s = result.summary
    confirm = s["confirm"]["games_played"] if "confirm" in s else s["metric"]["games"]
    return s["search"]["games_played"] + confirm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    snakesim.simulate("fortune", 4, 1000)  # warm up: compile or load the kernels
    snakesim.simulate("rainbow", 4, 1000)
    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    print(f"{'search':<52}{'median s':>10}{'spread s':>14}{'games':>12}{'games/s':>12}  verdict")
    for title, search in SEARCHES:
        times, result = [], None
        for _ in range(args.repeats):
            start = time.perf_counter()
            result = search()
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        games = games_of(result)
        spread = f"{min(times):.1f}-{max(times):.1f}"
        print(f"{title:<52}{median:>10.1f}{spread:>14}{games:>12,}{games / median:>12,.0f}  {result.status}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
