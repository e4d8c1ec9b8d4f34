"""Fortune throughput, with every ratio taken side by side in one run.

Prints, for 4 players and the standard rules:
  kernel games/s and ns per card drawn (1 thread); reference engine games/s; their ratio;
  the floor: a bare numba loop drawing bounded integers with the same generator (ns per
  draw); the kernel's cost per card over that floor; 2 threads over 1 thread.

Targets (issue 2): kernel >= 100x reference per game; per-card cost <= 4x the floor;
2 threads >= 1.8x 1 thread.

    python benchmarks/bench_fortune.py [--games 2000000] [--reference-games 2000]
"""

from __future__ import annotations

import argparse

import numpy as np
from _common import best_of, on_threads, two_threads

from snakesim.core import rng
from snakesim.core.jit import njit
from snakesim.games.fortune import kernel, reference
from snakesim.games.fortune.rules import SYMBOLS, FortuneRules

N_TYPES = len(SYMBOLS)


@njit
def _floor_loop(state, seed, draws):
    """The cheapest thing a game can do per card: one bounded draw from the game's stream."""
    rng.seed_stream(state, seed, 0)
    acc = 0
    for _ in range(draws):
        acc += rng.below(state, 52)
    return acc


@njit
def _draw_loop(deck, identities, pile, copies, keys, games, cards_per_game, dispatch):
    """Draw cards as a game does (keyed deal, draw, keyed reshuffle of the whole deck) with no
    rules, optionally branching 11 ways on each card. Shows what the card loop costs before any rule."""
    acc = 0
    n = deck.shape[0]
    for g in range(games):
        key = rng.deal_key(1, g)
        rng.keyed_deal(key, 0, deck, identities, pile, N_TYPES, copies, keys)
        top = 0
        shuffles = 0
        for _ in range(cards_per_game):
            if top == n:
                shuffles += 1
                rng.keyed_deal(key, shuffles, deck, identities, pile, N_TYPES, copies, keys)
                top = 0
            card = pile[top]
            top += 1
            if not dispatch:
                acc += card
            elif card <= 2:
                acc += card + 1
            elif card == 3:
                acc -= 4
            elif card <= 6:
                acc ^= card
            elif card == 7:
                acc += 3
            elif card == 8:
                acc -= 3
            elif card == 9:
                acc *= 3
            else:
                acc = 0
    return acc


def kernel_run(rules, games, threads):
    return on_threads(threads, lambda: kernel.play_block(rules, 4, 1, 0, games))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2_000_000, help="kernel games per timing")
    parser.add_argument("--reference-games", type=int, default=2000, help="reference engine games")
    parser.add_argument("--repeats", type=int, default=3, help="timings per figure; the best is kept")
    args = parser.parse_args()
    rules = FortuneRules()

    kernel_run(rules, 1000, 1)  # compile (or load from cache) before timing
    _floor_loop(np.empty(4, np.uint64), 1, 10)

    t1, out = best_of(args.repeats, lambda: kernel_run(rules, args.games, 1))
    cards = int(out["length"].sum())
    t_ref, _ = best_of(1, lambda: [reference.play(rules, 4, 1, i) for i in range(args.reference_games)])
    ref_cards = int(out["length"][: args.reference_games].sum())  # the same games the reference played
    t_floor, _ = best_of(args.repeats, lambda: _floor_loop(np.empty(4, np.uint64), 1, cards))
    deck, pile = rules.deck_cards(), np.empty(rules.deck_size(), np.int8)
    sizes = rng.keyed_scratch(rules.deck_size(), N_TYPES)
    identities = np.empty(rules.deck_size(), np.uint64)
    rng.deck_identities(deck, identities)
    scratch = (identities, pile, np.empty(sizes[0], np.int64), np.empty(sizes[1], np.uint64))
    per_game = round(cards / args.games)
    loops = {}
    for dispatch in (False, True):
        _draw_loop(deck, *scratch, 2, 10, dispatch)
        t, _ = best_of(
            args.repeats,
            lambda d=dispatch: _draw_loop(deck, *scratch, args.games // 4, per_game, d),
        )
        loops[dispatch] = 1e9 * t / (args.games // 4 * per_game)
    threads = two_threads()
    t2, _ = best_of(args.repeats, lambda: kernel_run(rules, args.games, threads))

    kernel_gps = args.games / t1
    ref_gps = args.reference_games / t_ref
    ns_card = 1e9 * t1 / cards
    ns_floor = 1e9 * t_floor / cards
    print(f"Fortune, 4 players, standard rules; {args.games:,} kernel games ({cards / args.games:.1f} cards per game)")
    print(f"  kernel, 1 thread     {kernel_gps:14,.0f} games/s   {ns_card:8.2f} ns per card drawn")
    print(f"  reference engine     {ref_gps:14,.0f} games/s   {1e9 * t_ref / ref_cards:8.0f} ns per card drawn")
    print(f"  kernel / reference   {kernel_gps / ref_gps:14,.0f} x        (target >= 100)")
    print(f"  floor: bare bounded draws                {ns_floor:8.2f} ns per draw")
    print(f"  kernel cost / floor  {ns_card / ns_floor:14.2f} x        (target <= 4)")
    print("  what the card loop costs before any rule, same generator:")
    for label, ns in (
        ("shuffle, draw, reshuffle", loops[False]),
        ("... plus an 11-way branch on the card", loops[True]),
    ):
        print(f"    {label:<38} {ns:8.2f} ns per card ({ns / ns_floor:.1f} x floor)")
    print(f"  kernel, {threads} threads    {args.games / t2:14,.0f} games/s")
    print(f"  {threads} threads / 1 thread {t1 / t2:13.2f} x        (target >= 1.8)")


if __name__ == "__main__":
    main()
