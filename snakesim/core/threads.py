"""Games spread over threads: a kernel's block function on several Python threads at once.

Every kernel is compiled with ``nogil=True``, so a call into it releases the GIL and threads
started here play different blocks of games at the same time. This takes the place of
numba's ``prange``: a ``parallel=True`` driver cost 3 to 8 seconds of compilation per game
(numba's parfor passes and a second copy of the whole game in the gufunc it builds), which
every user paid on their first command; threads cost nothing to compile. A block of games
is the same work whichever thread plays it, and game ``i`` draws only from its own stream,
so the thread count cannot change a result (``tests/test_runner.py``).

The thread count is this module's setting (:func:`using_threads`), by default every core
numba may use (``NUMBA_NUM_THREADS``); numba's own thread pool is never started.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numba

from snakesim.core.rules import Int

_setting = {"threads": None}  # None: max_threads()
_caller = threading.local()  # .report: what the calling thread's play_in_blocks reports to


def max_threads() -> int:
    """The most threads a run may use here (``NUMBA_NUM_THREADS``, by default the cores)."""
    return numba.config.NUMBA_NUM_THREADS


def get_threads() -> int:
    """The threads a kernel uses now."""
    return _setting["threads"] or max_threads()


def set_threads(threads: int | None) -> None:
    """Use ``threads`` threads from now on (all of them if None); raises InputError if out of range."""
    if threads is not None:
        Int(1, max_threads()).check("threads", threads)
    _setting["threads"] = threads


@contextmanager
def using_threads(threads: int | None) -> Iterator[None]:
    """Use ``threads`` threads inside the block (the current setting if None)."""
    if threads is None:
        yield
        return
    before = _setting["threads"]
    set_threads(threads)
    try:
        yield
    finally:
        _setting["threads"] = before


@contextmanager
def reporting(done: Callable[[int], None] | None) -> Iterator[None]:
    """Inside the block, :func:`play_in_blocks` calls ``done(games)`` as each of its blocks
    finishes (one call at a time, from whichever thread played it), so a progress bar moves
    while one long call of a kernel plays. The setting is the calling thread's own."""
    before = getattr(_caller, "report", None)
    _caller.report = done
    try:
        yield
    finally:
        _caller.report = before


def reporter() -> Callable[[int], None] | None:
    """What the calling thread's :func:`play_in_blocks` reports finished games to (None: nothing)."""
    return getattr(_caller, "report", None)


def play_in_blocks(play: Callable[[int, int], None], count: int, block: int, threads: int | None = None) -> None:
    """Call ``play(start, stop)`` for blocks of ``range(count)`` on ``threads`` threads
    (:func:`get_threads` if None).

    A block is a multiple of ``block`` games (the kernel's unit of scratch), about an eighth of
    a thread's share, so that a call from Python is rare beside its games. Fewer games than
    the threads' blocks (eight games of look-ahead players, say, which take seconds each) are
    split finer, about a quarter of a thread's share a block, so that every thread plays: any
    block gives the same games. Each thread takes the next block not yet taken, so a thread
    that drew long games does fewer. An exception in any thread stops the others after their
    current block and is raised here; so is a Ctrl-C in the calling thread. Finished blocks
    are reported as :func:`reporting` asks.
    """
    threads = threads or get_threads()
    report = getattr(_caller, "report", None)
    if count < threads * block:
        block = max(1, -(-count // (4 * threads)))
    else:
        block = max(block, -(-count // (8 * threads * block)) * block)
    n_blocks = (count + block - 1) // block
    threads = min(threads, n_blocks)
    if threads <= 1:
        for b in range(n_blocks):
            play(b * block, min(count, (b + 1) * block))
            if report is not None:
                report(min(count, (b + 1) * block) - b * block)
        return
    lock = threading.Lock()
    state = {"next": 0, "error": None}

    def worker() -> None:
        while True:
            with lock:
                b = state["next"]
                if b >= n_blocks or state["error"] is not None:
                    return
                state["next"] = b + 1
            try:
                play(b * block, min(count, (b + 1) * block))
                if report is not None:
                    with lock:
                        report(min(count, (b + 1) * block) - b * block)
            except BaseException as err:  # handed to the calling thread
                with lock:
                    state["error"] = state["error"] or err
                return

    workers = [threading.Thread(target=worker, daemon=True, name=f"snakesim-{k}") for k in range(threads - 1)]
    for w in workers:
        w.start()
    try:
        worker()  # the calling thread plays too
        for w in workers:
            while w.is_alive():
                w.join(0.1)  # (a timed join, so that Ctrl-C reaches this thread)
    except BaseException:
        with lock:
            state["next"] = n_blocks  # no new block starts
        raise
    if state["error"] is not None:
        raise state["error"]
