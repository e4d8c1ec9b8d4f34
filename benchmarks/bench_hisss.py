"""Hisss throughput, with every ratio taken side by side in one run.

Prints, for 4 players and the published deck, with every seat random and then every seat
greedy: kernel games/s and ns per turn (1 thread); reference engine games/s; their ratio
(target >= 100x, issue 4); and 2 threads over 1 thread.

    python benchmarks/bench_hisss.py [--games 1000000] [--reference-games 1000]
"""

from _common import arguments, kernel_vs_reference

from snakesim.games.hisss import kernel, reference
from snakesim.games.hisss.rules import POLICIES, HisssRules

if __name__ == "__main__":
    args = arguments(__doc__, 1_000_000, 1000)
    kernel_vs_reference(
        "Hisss, published deck", kernel, reference, HisssRules(), 4,
        policy_names=POLICIES[:2], games=args.games, reference_games=args.reference_games,
        repeats=args.repeats, unit="turn",
    )  # fmt: skip
