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
