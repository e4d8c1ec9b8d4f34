"""Sssnake throughput, with every ratio taken side by side in one run.

Prints, for 4 players and the default rules, with every seat random, then greedy, then
friendly: kernel games/s and ns per turn (1 thread); reference engine games/s; their ratio
(target >= 50x, issue 5); and 2 threads over 1 thread.

    python benchmarks/bench_sssnake.py [--games 20000] [--reference-games 200]
"""

from _common import arguments, kernel_vs_reference

from snakesim.games.sssnake import kernel, reference
from snakesim.games.sssnake.rules import POLICIES, SssnakeRules

if __name__ == "__main__":
    args = arguments(__doc__, 20_000, 200)
    kernel_vs_reference(
        "Sssnake, default rules", kernel, reference, SssnakeRules(), 4,
        policy_names=POLICIES[:3], games=args.games, reference_games=args.reference_games,
        repeats=args.repeats, unit="turn",
    )  # fmt: skip
