"""Fortune throughput: one table, every ratio taken within interleaved rounds in one process.

For 4 players and the standard rules without the game-feel figures (``feel = false``: the
play itself, as these figures were always measured), in each round: the kernel on 1 thread
(its fast path on, and every card the exact way), the kernel on 2 threads, the kernel with the
game feel (the default since issue 44) on 1 thread, the reference engine on the first games, a
bare loop of bounded draws from the same generator (the floor: one draw per card the kernel
drew) and a loop making exactly the keyed deals those games made (what dealing alone costs
per card). Prints medians over rounds with their spread, and the load.

Targets (issues 2, 17 and 44): kernel >= 100x the reference per card; kernel per card <= 4x
the floor (3.3x with AVX2 code: issue 44); 2 threads >= 1.8x 1 thread. Beside the last, the
floor loop split over the same threads, sharing nothing: on a machine whose two cores are one
core's two hyper-threads it stays far below 2x, and no kernel can do better.

    python benchmarks/bench_fortune.py [--games 1000000] [--reference-games 1000] [--repeats 5]
"""

from __future__ import annotations

import threading

import numpy as np
from _common import arguments, interleaved, load, median_spread, on_threads, per_round, print_table, two_threads

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
def _deal_loop(deck, identities, pile, copies, keys, deals):
    """``deals`` keyed deals of the whole deck, as a game makes them (one per game and reshuffle)."""
    acc = 0
    for g in range(deals):
        rng.keyed_deal(rng.deal_key(1, g), 0, deck, identities, pile, n_types=N_TYPES, copies=copies, keys=keys)
        acc += pile[0]
    return acc


def floor_on_threads(draws, threads):
    """The floor loop, ``draws`` draws on each of ``threads`` threads at once (each its own
    stream): what the machine gives two threads that share nothing, the ceiling for any kernel."""
    states = list(np.empty((threads, 32), np.uint64)[:, :4])  # (rows 256 bytes apart: no cache line shared)
    workers = [threading.Thread(target=_floor_loop, args=(s, 1, draws)) for s in states]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def kernel_run(rules, games, threads, fast=True):
    return on_threads(threads, lambda: kernel.play_block(rules, 4, 1, 0, games, fast=fast))


def main() -> None:
    args = arguments(__doc__, 1_000_000, 1000)
    rules = FortuneRules(feel=False)
    threads = two_threads()
    out = kernel_run(rules, args.games, 1)  # compile (or load from cache), and count the work
    cards = int(out["length"].sum())
    ref_cards = int(out["length"][: args.reference_games].sum())  # the games the reference plays
    deals = args.games + int(out["reshuffles"].sum())
    deck, pile = rules.deck_cards().astype(np.int32), np.empty(rules.deck_size(), np.int32)
    sizes = rng.keyed_scratch(rules.deck_size(), N_TYPES)
    identities = np.empty(rules.deck_size(), np.uint64)
    rng.deck_identities(deck, identities)
    scratch = (identities, pile, np.empty(sizes[0], np.int64), np.empty(sizes[1], np.uint64))
    _floor_loop(np.empty(4, np.uint64), 1, 10)
    _deal_loop(deck, *scratch, 2)
    kernel_run(rules, 1000, 1, fast=False)
    before = load()
    runs = interleaved(
        {
            "kernel": lambda: kernel_run(rules, args.games, 1),
            "exact": lambda: kernel_run(rules, args.games, 1, fast=False),
            "threads": lambda: kernel_run(rules, args.games, threads),
            "feel": lambda: kernel_run(FortuneRules(), args.games, 1),
            "reference": lambda: [reference.play(rules, 4, 1, i) for i in range(args.reference_games)],
            "floor": lambda: _floor_loop(np.empty(4, np.uint64), 1, cards),
            "floor2": lambda: floor_on_threads(cards // threads, threads),
            "deals": lambda: _deal_loop(deck, *scratch, deals),
        },
        args.repeats,
    )
    t = {name: [seconds for seconds, _ in values] for name, values in runs.items()}
    ns = {name: [1e9 * s / cards for s in t[name]] for name in ("kernel", "exact", "floor", "deals", "feel")}
    ns["reference"] = [1e9 * s / ref_cards for s in t["reference"]]

    rows = [
        ("kernel, 1 thread: ns per card", median_spread(ns["kernel"]), f"{cards / args.games:.1f} cards/game"),
        ("kernel, 1 thread: games/s", median_spread([args.games / s for s in t["kernel"]], "{:,.0f}"), ""),
        ("floor: a bounded draw, ns", median_spread(ns["floor"]), "one per card"),
        ("kernel / floor", per_round(ns["kernel"], ns["floor"]), "x  (target <= 4)"),
        ("  keyed deals alone: ns per card", median_spread(ns["deals"]), f"{deals / args.games:.2f} deals/game"),
        ("  keyed deals / floor", per_round(ns["deals"], ns["floor"]), "x"),
        ("with the game feel (the default): ns per card", median_spread(ns["feel"]), "(feel = true)"),
        ("  with / without", per_round(ns["feel"], ns["kernel"]), "x"),
        ("exact path only: ns per card", median_spread(ns["exact"]), "(fast=False)"),
        ("fast path speed-up", per_round(ns["exact"], ns["kernel"]), "x"),
        ("reference engine: ns per card", median_spread(ns["reference"], "{:.0f}"), ""),
        ("kernel / reference", per_round(ns["reference"], ns["kernel"], "{:.0f}"), "x  (target >= 100)"),
        (f"{threads} threads / 1 thread", per_round(t["kernel"], t["threads"]), "x  (target >= 1.8)"),
        (f"  the floor loop, {threads} threads / 1", per_round(t["floor"], t["floor2"]), "x  (the machine allows)"),
    ]
    print_table(f"Fortune, 4 players, standard rules; {args.games:,} games, {args.repeats} rounds", rows, before)


if __name__ == "__main__":
    main()
