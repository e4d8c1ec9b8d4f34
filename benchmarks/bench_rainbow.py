"""Rainbow throughput, with every ratio taken side by side in one run.

Prints, for 4 players, standard rules, greedy and random seats: kernel games/s and ns per
turn (1 thread); reference engine games/s; their ratio (target >= 100x, issue 3); and
2 threads over 1 thread.

    python benchmarks/bench_rainbow.py [--games 1000000] [--reference-games 1000]
"""

from __future__ import annotations

import argparse

import numpy as np
from _common import best_of, on_threads, two_threads

from snakesim.games.rainbow import kernel, reference
from snakesim.games.rainbow.rules import GREEDY, POLICIES, RANDOM, RainbowRules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000_000, help="kernel games per timing")
    parser.add_argument("--reference-games", type=int, default=1000, help="reference engine games")
    parser.add_argument("--repeats", type=int, default=3, help="timings per figure; the best is kept")
    args = parser.parse_args()
    rules = RainbowRules()
    threads = two_threads()
    for policy in (GREEDY, RANDOM):
        seats = np.full(4, policy, np.int8)

        def run(games, n_threads, seats=seats):
            return on_threads(n_threads, lambda: kernel.play_block(rules, 4, 1, 0, games, policies=seats))

        run(100, 1)  # compile (or load from cache) before timing
        t1, out = best_of(args.repeats, lambda run=run: run(args.games, 1))
        t2, _ = best_of(args.repeats, lambda run=run: run(args.games, threads))
        t_ref, _ = best_of(
            1, lambda seats=seats: [reference.play(rules, 4, 1, i, policies=seats) for i in range(args.reference_games)]
        )
        turns = int(out["length"].sum())
        ref_turns = int(out["length"][: args.reference_games].sum())  # the games the reference played
        kernel_gps, ref_gps = args.games / t1, args.reference_games / t_ref
        print(f"Rainbow, 4 players, standard rules, all {POLICIES[policy]}; {turns / args.games:.1f} turns per game")
        print(f"  kernel, 1 thread     {kernel_gps:14,.0f} games/s   {1e9 * t1 / turns:8.1f} ns per turn")
        print(f"  reference engine     {ref_gps:14,.0f} games/s   {1e9 * t_ref / ref_turns:8.0f} ns per turn")
        print(f"  kernel / reference   {kernel_gps / ref_gps:14,.0f} x        (target >= 100)")
        print(f"  {threads} threads / 1 thread {t1 / t2:13.2f} x        ({args.games / t2:,.0f} games/s)")


if __name__ == "__main__":
    main()
