"""The game-feel figures as the kernels keep them (the definitions: ``snakesim.core.feel``).

A kernel calls :func:`record` after the deal and after every step with the seats'
standings; it keeps one byte per step (the seats at the top) and each seat's worst deficit
so far, not the whole history, and :func:`summarise` reads the figures off them at the end.
"""

from __future__ import annotations

import numpy as np

from snakesim.core.feel import MAX_SEATS
from snakesim.core.jit import njit_inner


def scratch(cap: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """A kernel's buffers for games of at most ``cap`` steps: each step's top seats (a bit
    each) and each seat's worst deficit so far."""
    if players > MAX_SEATS:
        raise ValueError(f"the feel figures follow at most {MAX_SEATS} seats, got {players}")
    return np.empty(cap + 1, np.uint8), np.empty(players, np.int64)


@njit_inner
def record(values, sign, n, step, tops, deficits):
    """Standings ``sign * values[:n]`` after step ``step`` (0: the deal, which also starts the
    deficits); returns how many seats stand at 0."""
    top = sign * values[0]
    for s in range(1, n):
        top = max(top, sign * values[s])
    mask = 0
    zeros = 0
    for s in range(n):
        v = sign * values[s]
        mask |= (v == top) << s
        zeros += v == 0
        gap = top - v
        deficits[s] = gap if step == 0 else max(deficits[s], gap)
    tops[step] = mask
    return zeros


@njit_inner
def _sole(mask):
    """The seat of a one-bit mask, or -1."""
    if mask == 0 or (mask & (mask - 1)) != 0:
        return -1
    s = 0
    while (mask >> s) != 1:
        s += 1
    return s


@njit_inner
def summarise(tops, deficits, length, winner):
    """:func:`figures` from what :func:`record` kept: ``(lead_changes, decided, comeback,
    deficit, leader_q1, leader_q2, leader_q3, tie_break)``."""
    changes = 0
    latest = -1
    for t in range(length + 1):
        lead = _sole(tops[t])
        if lead >= 0:
            changes += latest >= 0 and lead != latest
            latest = lead
    decided, comeback, deficit, tie_break = np.nan, -1, -1, -1
    if winner >= 0:
        tie_break = 0 if _sole(tops[length]) == winner else 1
        first = length
        while tie_break == 0 and first > 0 and _sole(tops[first - 1]) == winner:
            first -= 1
        decided = 1.0 if length == 0 or tie_break else first / length
        comeback = 0 if (tops[length // 2] >> winner) & 1 else 1
        deficit = deficits[winner]
    return (
        changes,
        decided,
        comeback,
        deficit,
        _sole(tops[length // 4]),
        _sole(tops[length // 2]),
        _sole(tops[(3 * length) // 4]),
        tie_break,
    )


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
