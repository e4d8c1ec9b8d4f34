"""Game feel: lead changes, comebacks, when the winner is known, time spent out of the game.

The definitions for every game live here: :func:`figures` reads them off a game's whole
history of standings in plain Python (the reference engines call it). The kernels write each
step's standings down as they play and read the figures off them when the game ends
(``snakesim.core.feel_lanes`` for up to four seats packed in 16-bit lanes, in vector code;
``snakesim.core.feel_record`` seat by seat). Tests hold them to the same figures, bit for bit.
Every run records them unless its rules say ``feel = false``.

A seat's **standing** is what the game's rules rank by, higher is better: Fortune a seat's
coins, Rainbow minus the cards in hand, Hisss its points, Sssnake minus the cards its snake
still misses. Standings are taken at step 0 (after the deal, or the head starts) and after each
step counted in ``length``, steps 1..L.

- **sole leader** at a step: the one seat with the highest standing; none when two or more tie.
- ``lead_changes``: steps at which a sole leader exists and differs from the latest earlier
  sole leader (the first is not a change, a tie is not a change).
- With a winner (else ``decided`` is NaN and the others -1):

  - ``decided``: the first step t from which the winner is the sole leader at every step to
    L, over L (1.0: only at the end). A winner who is not the sole leader at L (chosen by a
    tie-break, or by a rule other than the standing) gets 1.0 and ``tie_break`` 1.
  - ``comeback``: 1 if the winner's standing at step L // 2 is below the highest then.
  - ``deficit``: the largest (highest standing - winner's standing) over steps 0..L.

- ``leader_q1``, ``leader_q2``, ``leader_q3``: the sole leader at step (k L) // 4, k = 1, 2, 3
  (-1: none). "Is the winner known" is the share of games, among those with a sole leader
  there, that this leader wins.
- ``out_share`` (Fortune): seat-steps with no coins over players x L, steps 0..L-1: the
  states a card is still drawn from, so a seat counts the cards it waits through, and the
  last card (which ends the game, often by putting a seat out) counts for nobody.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from snakesim.core.rules import Bool, option

COLUMNS = (  # name, dtype, one per seat: the tables of the games that record them end with these
    ("lead_changes", np.int32, False),
    ("decided", np.float64, False),
    ("comeback", np.int8, False),
    ("deficit", np.int32, False),
    ("leader_q1", np.int8, False),
    ("leader_q2", np.int8, False),
    ("leader_q3", np.int8, False),
    ("tie_break", np.int8, False),
)
OUT_SHARE = ("out_share", np.float64, False)  # Fortune's too
QUARTERS = (1, 2, 3)
QUARTER_NAMES = ("1/4", "1/2", "3/4")  # how far in the game each quarter's step is, in words
NOT_RECORDED = (-1, np.nan, -1, -1, -1, -1, -1, -1)  # a game played with feel = false
# What a recorded figure holds where it does not apply: a game without a winner has no
# decided, comeback, deficit or tie-break; a quarter with no sole leader has no leader. A
# results table shows these as nulls (snakesim.core.results), never as the kernel's -1 or NaN.
NULLS = {"decided": np.nan, "comeback": -1, "deficit": -1, "leader_q1": -1, "leader_q2": -1, "leader_q3": -1,
         "tie_break": -1}  # fmt: skip
MAX_SEATS = 8  # the top seats of a step are one byte
NAMES = frozenset(name for name, _, _ in (*COLUMNS, OUT_SHARE))
FIXED = 1 << 16  # decided and out_share are tallied in 1/65536ths, so that sums merge exactly


def feel_option():
    """The ``feel`` rules option every game with these figures has: on by default, since
    recording them costs a game a tenth of its time or less (Fortune a quarter);
    ``feel = false`` saves that."""
    return option(
        True,
        Bool(),
        "record the game-feel figures (lead changes, comebacks, when the winner is known); "
        "false plays a little faster without them (the game's docs, 'Game feel')",
    )


# ---------------------------------------------------------------- the definitions, readable
def sole_leader(standing: Sequence[int]) -> int:
    """The one seat with the highest standing, or -1 when two or more share it."""
    top = max(standing)
    at_top = [s for s, v in enumerate(standing) if v == top]
    return at_top[0] if len(at_top) == 1 else -1


def leader_text(standing: Sequence[int]) -> str:
    """The sole leader in words, for a trace: ``"seat 2 leads"`` or ``"no sole leader"``."""
    lead = sole_leader(standing)
    return f"seat {lead} leads" if lead >= 0 else "no sole leader"


def trace_line(label: str, values: Sequence[int], standing: Sequence[int]) -> str:
    """A trace's line after a step: each seat's ``values`` (what the players count: coins,
    cards in hand, points, cards missing) and who leads by ``standing``."""
    return f"       {label} {' '.join(str(v) for v in values)}: {leader_text(standing)}"


def figures(history: Sequence[Sequence[int]], winner: int) -> dict:
    """The feel figures of one game from its standings at steps 0..L (``history[t][seat]``).

    Returns
    -------
    dict
        ``lead_changes, decided, comeback, deficit, leader_q1..3, tie_break`` (see the module).
    """
    length = len(history) - 1
    leaders = [sole_leader(h) for h in history]
    changes, latest = 0, -1
    for lead in leaders:
        if lead >= 0:
            changes += latest >= 0 and lead != latest
            latest = lead
    out = {"lead_changes": changes}
    if winner < 0:
        out.update(decided=float("nan"), comeback=-1, deficit=-1, tie_break=-1)
    else:
        out["tie_break"] = int(leaders[length] != winner)
        if out["tie_break"] or length == 0:
            out["decided"] = 1.0
        else:  # back from the end while the winner leads alone
            first = length
            while first > 0 and leaders[first - 1] == winner:
                first -= 1
            out["decided"] = first / length
        half = history[length // 2]
        out["comeback"] = int(half[winner] < max(half))
        out["deficit"] = max(max(h) - h[winner] for h in history)
    for k in QUARTERS:
        out[f"leader_q{k}"] = leaders[(k * length) // 4]
    return out


def not_recorded() -> dict:
    """The feel columns of a game played with ``feel = false``."""
    return dict(zip((name for name, _, _ in COLUMNS), NOT_RECORDED, strict=True))


def out_share(history: Sequence[Sequence[int]]) -> float:
    """Seat-steps at a standing of 0 (Fortune: no coins, out of play) over seats x L, steps
    0..L-1: the cards each seat waits through with no coins (the last card, which ends the
    game, is waited through by nobody)."""
    length = len(history) - 1
    if length == 0:
        return 0.0
    return sum(v == 0 for h in history[:-1] for v in h) / (len(history[0]) * length)
