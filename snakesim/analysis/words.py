"""Numbers and phrases every kind of question's findings share.

Each kind's findings live with its question (``snakesim.questions.KIND``); what they have in
common is here: numbers with as many decimals as their interval needs, rates in percent and
their differences in percentage points (never plain "points", which a game may score), a
p-value as people read it, a target in words, and who wins from which seat.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from snakesim.analysis.stats import LEVEL, wilson
from snakesim.core.figures import target_figure

ALPHA = 0.05


SAME = 1e-12  # values this close are the same (a mean of equal integers, computed in floats)


def decimals(width: float, most: int = 4) -> int:
    """Decimals that show an interval ``width`` wide: one significant digit of the width, two
    when it starts with 1 or 2 (as uncertainties are usually rounded)."""
    if not width > 0 or not math.isfinite(width):
        return 0
    e = math.floor(math.log10(width))
    return int(min(most, max(0, -e + (width / 10**e < 3))))


def number(x: float, places: int) -> str:
    """``x`` with ``places`` decimals and thousands separators; an integer without decimals."""
    if abs(x - round(x)) < SAME and places == 0:
        return f"{round(x):,}"
    return fixed(x, places)


def points(low: float, high: float) -> int:
    """Decimals for rates in percentage points whose interval runs from ``low`` to ``high``."""
    return decimals(100 * (high - low))


def fixed(x: float, places: int, sign: bool = False) -> str:
    """``x`` with ``places`` decimals (and thousands separators), ``+`` before positives with
    ``sign``; never a "-0" for a value that rounds to zero."""
    text = f"{x:{'+' if sign else ''},.{places}f}"
    if text.startswith("-") and not text.strip("-0.,"):
        text = ("+" if sign else "") + text[1:]
    return text


def percent(x: float, places: int) -> str:
    """``x`` in percent with ``places`` decimals; never "-0%" for a value that rounds to 0."""
    return fixed(100 * x, places) + "%"


def signed(x: float, low: float, high: float, places: int, scale: float = 1) -> str:
    """A difference and its interval, signed: ``+1.4 [+0.4, +2.5]`` (``scale`` 100: in points)."""
    return f"{fixed(scale * x, places, True)} [{fixed(scale * low, places, True)}, {fixed(scale * high, places, True)}]"


def rate_ci(x: float, ci, places: int) -> str:
    """A rate and its interval in percent: ``29.0% [28.4%, 29.6%]``."""
    return f"{percent(x, places)} [{percent(ci[0], places)}, {percent(ci[1], places)}]"


def p_text(p: float) -> str:
    """A p-value as people read it: never 0 (a p-value below what a float holds is < 1e-300)."""
    if p != p:
        return "n/a"
    if p < 1e-300:
        return "< 1e-300"
    return f"{p:.2g}"


def listed(items: Sequence[str], last: str = " and ") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``last`` joins the last two)."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + last + items[-1]


def plain(x: float) -> str:
    """A margin or a value with three significant digits: ``0.5``, ``7.9``."""
    return f"{x:.3g}"


def metric_words(metric: str) -> str:
    """A tune target in words (``win_rate.2`` -> seat 2's win rate; a figure's: its registry noun)."""
    name, _, part = metric.partition(".")
    if name == "win_rate":
        return f"seat {part}'s win rate"
    if name == "means":
        return f"the average {part}"
    f = target_figure(metric)
    return f.noun if f is not None and f.noun else metric


def seat_sentence(rates, cis, games: int, players: int, level: float = LEVEL) -> str:
    """Who wins from which seat, against the smallest difference in a seat's chance that
    matters (1 percentage point): each seat's win rate has its interval at the level that holds
    for every seat at once (Bonferroni). The seats are not equal when some seat's interval lies
    beyond an equal share of the games somebody won by more than that; they differ by too little
    to notice when every seat's lies within it; and no seat is measurably favoured when every
    interval holds an equal share."""
    from snakesim.analysis.verdicts import margin_for

    wins = [round(r * games) for r in rates]
    fair = sum(wins) / players / games
    joint = 1 - (1 - level) / players
    bounds = [wilson(k, games, joint) for k in wins]
    m = margin_for("win_rate").amount
    places = max(1, points(*cis[0]))
    best, worst = int(np.argmax(rates)), int(np.argmin(rates))
    most, least = (rate_ci(rates[i], cis[i], places) for i in (best, worst))
    uneven = (f"seat {best} wins most often, {most} of games, and seat {worst} least, {least}, where an equal "
              f"share would be {percent(fair, places)}")  # fmt: skip
    size = f"{100 * m:g} percentage point{'' if m == 0.01 else 's'}"
    if any(lo >= fair + m for lo, _ in bounds) or any(hi <= fair - m for _, hi in bounds):
        return f"The seats are not equal: {uneven}."
    within = all(fair - m < lo and hi < fair + m for lo, hi in bounds)
    if any(lo > fair for lo, _ in bounds) or any(hi < fair for _, hi in bounds):
        tail = (f"every seat is within {size} of an equal share, too little to notice" if within
                else f"these games cannot tell whether by as much as matters ({size})")  # fmt: skip
        return f"The seats differ a little: {uneven}; {tail}."
    lead = "No seat is favoured by as much as matters" if within else "No seat is measurably favoured"
    return (
        f"{lead}: every seat wins between {percent(min(rates), places)} and {percent(max(rates), places)} of games, "
        f"an equal share being {percent(fair, places)}."
    )
