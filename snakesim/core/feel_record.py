"""The game-feel figures as the kernels keep them, seat by seat (the definitions:
``snakesim.core.feel``; up to four seats go through ``snakesim.core.feel_lanes`` instead).

A kernel writes each step's standings down as it plays (:func:`store`: one number a seat) and
reads the figures off them once, when the game ends (:func:`summarise`), in passes that the
compiler turns into vector code: the top standing of every step, then which seats stand at the
top (a mask a step), then the steps at which that mask changes. Every figure comes from those
changes and from the winner's row alone: the sole leader only changes where the mask does, so
the lead changes, when the game was decided and who led at each quarter are read off the
changes, not off every step.

Keeping a running record instead (each step's top and mask worked out as it is played, as this
module did before issue 44) cost a Fortune game 8.4 times its time without feel, since the fast
path had to give way to the exact one (``benchmarks/bench_feel.py``).
"""

from __future__ import annotations

import numpy as np

from snakesim.core.bits import sole
from snakesim.core.feel import MAX_SEATS
from snakesim.core.jit import njit, njit_inner

MASK_BITS = 8  # an event packs (step << MASK_BITS) | the mask of the seats at the top


def scratch(cap: int, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A kernel's buffers for games of at most ``cap`` steps: every step's standings by seat,
    and the passes' scratch (each step's top and mask, and the mask's changes)."""
    if players > MAX_SEATS:
        raise ValueError(f"the feel figures follow at most {MAX_SEATS} seats, got {players}")
    return (
        np.empty((players, cap + 1), np.int32),
        np.empty(cap + 1, np.int32),
        np.empty(cap + 1, np.int32),
        np.empty(cap + 2, np.int64),
    )


@njit(forceinline=True)  # (called every step: a call would pass each of its arrays field by field)
def store(history, values, sign, n, step):
    """Write the standings ``sign * values[:n]`` after step ``step`` (0: the deal)."""
    standings = history[0]
    for s in range(n):
        standings[s, step] = sign * values[s]


@njit_inner
def _changes(history, n, length):
    """Fill ``events`` with the steps at which the mask of the seats at the top changes (step
    0 first); return how many. Each pass but the last is a loop over the steps, which LLVM
    turns into vector code."""
    standings, top, masks, events = history
    steps = length + 1
    first = standings[0]
    for t in range(steps):
        top[t] = first[t]
    for s in range(1, n):
        row = standings[s]
        for t in range(steps):
            top[t] = max(top[t], row[t])
    for t in range(steps):
        masks[t] = 0
    for s in range(n):
        row = standings[s]
        bit = np.int32(1 << s)
        for t in range(steps):
            masks[t] |= bit if row[t] == top[t] else np.int32(0)
    count = 0
    latest = np.int32(-1)
    for t in range(steps):  # (each step written, the count moved on at a change: no branch)
        mask = masks[t]
        events[count] = (t << MASK_BITS) | mask
        count += mask != latest
        latest = mask
    return count


@njit_inner
def _figures(events, count, length, winner, deficit):
    """The figures from the changes of the mask at the top (``events``, step 0 first) and the
    winner's worst deficit: ``(lead_changes, decided, comeback, deficit, leader_q1,
    leader_q2, leader_q3, tie_break)``."""
    low = (1 << MASK_BITS) - 1
    q1, q2, q3 = length // 4, length // 2, (3 * length) // 4
    at_q1 = at_q2 = at_q3 = 0
    changes = 0
    latest = -1
    for i in range(count):
        mask = events[i] & low
        step = events[i] >> MASK_BITS
        lead = sole(mask)
        changes += (lead >= 0) & (latest >= 0) & (lead != latest)
        latest = lead if lead >= 0 else latest
        # The mask at a step is that of the last change at or before it.
        at_q1 = mask if step <= q1 else at_q1
        at_q2 = mask if step <= q2 else at_q2
        at_q3 = mask if step <= q3 else at_q3
    decided, comeback, tie_break = np.nan, -1, -1
    if winner >= 0:
        last = events[count - 1]
        tie_break = 0 if sole(last & low) == winner else 1
        # The winner leads alone from the last change on, and not at the step before it.
        decided = 1.0 if length == 0 or tie_break else (last >> MASK_BITS) / length
        comeback = 0 if (at_q2 >> winner) & 1 else 1
    else:
        deficit = -1
    return (changes, decided, comeback, deficit, sole(at_q1), sole(at_q2), sole(at_q3), tie_break)


@njit_inner
def summarise(history, n, length, winner):
    """:func:`snakesim.core.feel.figures` from the standings :func:`store` wrote at steps 0 ..
    ``length``: ``(lead_changes, decided, comeback, deficit, leader_q1, leader_q2, leader_q3,
    tie_break)``."""
    count = _changes(history, n, length)
    standings, top, _, events = history
    deficit = 0
    if winner >= 0:
        row = standings[winner]
        for t in range(length + 1):
            deficit = max(deficit, top[t] - row[t])
    return _figures(events, count, length, winner, deficit)


@njit_inner
def zeros(history, n, length):
    """Seat-steps at a standing of 0 over steps 0 .. ``length - 1`` (Fortune's ``out_share``:
    the cards a seat waits through)."""
    standings = history[0]
    count = 0
    for s in range(n):
        row = standings[s]
        for t in range(length):
            count += row[t] == 0
    return count


@njit_inner
def write(columns, row, summary):
    """One game's :func:`summarise` into row ``row`` of the feel ``columns`` (in COLUMNS order)."""
    lead_changes, decided, comeback, deficit, q1, q2, q3, tie_break = columns
    lead_changes[row] = summary[0]
    decided[row] = summary[1]
    comeback[row] = summary[2]
    deficit[row] = summary[3]
    q1[row] = summary[4]
    q2[row] = summary[5]
    q3[row] = summary[6]
    tie_break[row] = summary[7]
