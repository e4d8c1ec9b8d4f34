"""Helpers shared by the benchmark scripts."""

from __future__ import annotations

import time

import numba


def best_of(repeats, fn):
    """Run ``fn`` ``repeats`` times; return the shortest time and the last result."""
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def on_threads(threads, fn):
    """Run ``fn`` with ``threads`` numba threads."""
    numba.set_num_threads(threads)
    return fn()


def two_threads() -> int:
    return min(2, numba.config.NUMBA_NUM_THREADS)


def kernel_vs_reference(
    title, kernel, reference, rules, players, policy_names, games, reference_games, repeats, unit, target=100
):
    """Print, for each policy (all seats alike): kernel games/s and ns per ``unit`` on 1
    thread, reference engine games/s, their ratio, and 2 threads over 1."""
    import numpy as np

    threads = two_threads()
    for code, name in enumerate(policy_names):
        seats = np.full(players, code, np.int8)

        def run(count, n_threads, seats=seats):
            return on_threads(n_threads, lambda: kernel.play_block(rules, players, 1, 0, count, policies=seats))

        run(100, 1)  # compile (or load from cache) before timing
        t1, out = best_of(repeats, lambda run=run: run(games, 1))
        t2, _ = best_of(repeats, lambda run=run: run(games, threads))
        t_ref, _ = best_of(
            1,
            lambda seats=seats: [reference.play(rules, players, 1, i, policies=seats) for i in range(reference_games)],
        )
        steps = int(out["length"].sum())
        ref_steps = int(out["length"][:reference_games].sum())  # the games the reference played
        kernel_gps, ref_gps = games / t1, reference_games / t_ref
        print(f"{title}, {players} players, all {name}; {steps / games:.1f} {unit}s per game")
        print(f"  kernel, 1 thread     {kernel_gps:14,.0f} games/s   {1e9 * t1 / steps:8.1f} ns per {unit}")
        print(f"  reference engine     {ref_gps:14,.0f} games/s   {1e9 * t_ref / ref_steps:8.0f} ns per {unit}")
        print(f"  kernel / reference   {kernel_gps / ref_gps:14,.0f} x        (target >= {target})")
        print(f"  {threads} threads / 1 thread {t1 / t2:13.2f} x        ({games / t2:,.0f} games/s)")


def arguments(doc, games, reference_games):
    """The command line every benchmark script takes."""
    import argparse

    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=games, help="kernel games per timing")
    parser.add_argument("--reference-games", type=int, default=reference_games, help="reference engine games")
    parser.add_argument("--repeats", type=int, default=3, help="timings per figure; the best is kept")
    return parser.parse_args()
