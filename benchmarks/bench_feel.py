"""What recording the game-feel figures costs: kernel time per game with ``feel = true``
against the same games without, for every game, in one process.

Both settings run the same compiled kernel (feel is a value of the rules, not a second
kernel), on one thread, interleaved round by round; each round's ratio is taken within the
round, and the median over rounds is printed with its spread and the machine's load.

    python benchmarks/bench_feel.py [--games 100000] [--repeats 7]
"""

from __future__ import annotations

import numpy as np
from _common import arguments, interleaved, load, median_spread, on_threads, per_round, print_table

from snakesim.games import get_game

CASES = (  # game, players, policy code for every seat (None: no choices), share of --games
    ("fortune", 4, None, 1.0),
    ("rainbow", 4, 1, 1.0),
    ("hisss", 4, 1, 1.0),
    ("sssnake", 3, 1, 0.03),  # (a Sssnake game searches its boards at every placement)
)


def main() -> None:
    args = arguments(__doc__, games=100_000, reference_games=None, repeats=7)
    before = load()
    rows = []
    for game, players, code, share in CASES:
        spec = get_game(game)
        games = max(100, int(args.games * share))
        seats = None if code is None else np.full(players, code, np.int8)
        runs = {}
        for feel in (False, True):
            rules = spec.rules().updated({"feel": feel})

            def play(rules=rules, n=games, spec=spec, players=players, seats=seats):
                return on_threads(1, lambda: spec.play_block(rules, players, 1, 0, n, policies=seats))

            play(n=100)  # compile (or load from the cache) before timing
            runs["on" if feel else "off"] = play
        timed = interleaved(runs, args.repeats)
        off, on = ([t for t, _ in timed[k]] for k in ("off", "on"))
        us = lambda times, games=games: [1e6 * t / games for t in times]  # noqa: E731
        rows += [
            (f"{game}: without feel (us per game)", median_spread(us(off)), f"{games:,} games, {players} players"),
            (f"{game}: with feel (us per game)", median_spread(us(on)), ""),
            (f"{game}: with / without", per_round(on, off), "x"),
        ]
    print_table(f"The game-feel figures' cost; {args.repeats} interleaved rounds, 1 thread", rows, before)


if __name__ == "__main__":
    main()
