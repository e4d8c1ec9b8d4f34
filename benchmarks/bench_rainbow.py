"""Rainbow throughput, with every ratio taken side by side in one run.

Prints, for 4 players and standard rules, with every seat greedy and then every seat random:
kernel games/s and ns per turn (1 thread); reference engine games/s; their ratio (target
>= 100x, issue 3); and 2 threads over 1 thread.

    python benchmarks/bench_rainbow.py [--games 1000000] [--reference-games 1000]
"""

from _common import arguments, kernel_vs_reference

from snakesim.games.rainbow import kernel, reference
from snakesim.games.rainbow.rules import POLICIES, RainbowRules

if __name__ == "__main__":
    args = arguments(__doc__, 1_000_000, 1000)
    kernel_vs_reference(
        "Rainbow, standard rules", kernel, reference, RainbowRules(), 4,
        policy_names=POLICIES[:2], games=args.games, reference_games=args.reference_games,
        repeats=args.repeats, unit="turn",
    )  # fmt: skip
