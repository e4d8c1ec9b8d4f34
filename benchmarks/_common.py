"""Helpers shared by the benchmark scripts.

The machine is shared and noisy, so no figure is a best-of or a single timing: the things
compared run *interleaved* in one process (round k times each of them once, in an order that
rotates from round to round), every ratio is taken within a round, and what is printed is
the median over rounds with its spread (min-max), beside the machine's load average before
and after.
"""

from __future__ import annotations

import os
import platform
import statistics
import time

import numba

from snakesim.core.jit import target_features, target_has
from snakesim.core.threads import max_threads, using_threads


def load() -> str:
    """The one-minute load average, for the record."""
    return f"{os.getloadavg()[0]:.2f}"


def isa() -> str:
    """The processor numba compiles for and its widest vector instructions (AVX-512, AVX2, ...).

    ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` change it: ``NUMBA_CPU_NAME=haswell
    NUMBA_CPU_FEATURES=`` compiles AVX2 code on a machine with AVX-512. (``NUMBA_CPU_NAME``
    alone keeps this machine's features, AVX-512 included.)
    """
    name, _ = target_features()
    widest = next((label for flag, label in (("avx512f", "AVX-512"), ("avx2", "AVX2")) if target_has(flag)), "SSE")
    return f"{name}: {widest}"


def machine() -> str:
    """A short description of this machine and the instructions numba compiles for, for the record."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, numba {numba.__version__}, code for {isa()}"


def timed(fn):
    """``(seconds, result)`` of one call of ``fn``."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def interleaved(fns: dict, repeats: int) -> dict:
    """Time every function of ``fns`` once per round for ``repeats`` rounds, the order rotated
    each round; return ``{name: [(seconds, result), ...]}`` in round order."""
    names = list(fns)
    out = {name: [] for name in names}
    for k in range(repeats):
        for name in names[k % len(names) :] + names[: k % len(names)]:
            out[name].append(timed(fns[name]))
    return out


def median_spread(values, fmt: str = "{:.2f}") -> str:
    """``median [min-max]`` of ``values``."""
    values = list(values)
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}-{fmt.format(max(values))}]"


def per_round(a, b, fmt: str = "{:.2f}") -> str:
    """``median [min-max]`` of the round-by-round ratios ``a[k] / b[k]``."""
    return median_spread([x / y for x, y in zip(a, b, strict=True)], fmt)


def on_threads(threads, fn):
    """Run ``fn`` with ``threads`` threads."""
    with using_threads(threads):
        return fn()


def two_threads() -> int:
    return min(2, max_threads())


def print_table(title: str, rows: list[tuple[str, str, str]], before: str) -> None:
    """One benchmark's table: ``(figure, median [min-max], note)`` rows, and the load."""
    print(f"{title}  (load {before} -> {load()}; {machine()})")
    width = max(len(r[0]) for r in rows)
    for name, value, note in rows:
        print(f"  {name:<{width}}  {value:>28}  {note}")


def kernel_vs_reference(
    title, kernel, reference, rules, players, *, policy_names, games, reference_games, repeats, unit
):
    """Print one table: for each policy (all seats alike), kernel ns per ``unit`` on 1 thread,
    the reference engine's, their ratio and 2 threads over 1, all from interleaved rounds."""
    import numpy as np

    threads = two_threads()
    before = load()
    rows = []
    for code, name in enumerate(policy_names):
        seats = np.full(players, code, np.int8)

        def kernel_games(n_threads, seats=seats):
            return on_threads(n_threads, lambda: kernel.play_block(rules, players, 1, 0, games, policies=seats))

        def reference_games_(seats=seats):
            return [reference.play(rules, players, 1, i, policies=seats) for i in range(reference_games)]

        kernel_games(1)  # compile (or load from cache) before timing
        runs = interleaved(
            {"1": lambda f=kernel_games: f(1), "2": lambda f=kernel_games: f(threads), "ref": reference_games_}, repeats
        )
        out = runs["1"][0][1]
        steps = int(out["length"].sum())
        ref_steps = int(out["length"][:reference_games].sum())  # the games the reference played
        ns_kernel = [1e9 * t / steps for t, _ in runs["1"]]
        ns_ref = [1e9 * t / ref_steps for t, _ in runs["ref"]]
        per_game = f"{steps / games:.1f} {unit}s/game"
        rows += [
            (f"{name}: kernel, 1 thread (ns per {unit})", median_spread(ns_kernel), per_game),
            (f"{name}: reference engine (ns per {unit})", median_spread(ns_ref, "{:.0f}"), ""),
            (f"{name}: kernel / reference", per_round(ns_ref, ns_kernel, "{:.0f}"), "x"),
            (f"{name}: {threads} threads / 1 thread", per_round(*([t for t, _ in runs[k]] for k in "12")), "x"),
        ]
    print_table(f"{title}, {players} players; {repeats} interleaved rounds", rows, before)


def arguments(doc, games, reference_games, repeats=5, cold_repeats=None):
    """The command line every benchmark script takes."""
    import argparse

    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=games, help="kernel games per timing")
    if reference_games is not None:
        parser.add_argument("--reference-games", type=int, default=reference_games, help="reference engine games")
    parser.add_argument("--repeats", type=int, default=repeats, help="interleaved rounds; medians are printed")
    if cold_repeats is not None:
        parser.add_argument("--cold-repeats", type=int, default=cold_repeats, help="rounds with an empty cache")
    return parser.parse_args()
