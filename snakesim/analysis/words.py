"""Numbers and phrases every kind of question's findings share.

Each kind's findings live with its question (``snakesim.questions.KIND``); what they have in
common is here: numbers with as many decimals as their interval needs, rates in percent and
their differences in percentage points (never plain "points", which a game may score), a
p-value as people read it, a target in words, and who wins from which seat. A seat is named
as players say it, "the first player" for seat 0: tables, JSON and options keep the seat numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.stats import LEVEL, wilson
from snakesim.core.figures import target_figure

if TYPE_CHECKING:
    from snakesim.core.registry import GameSpec

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


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(seat: int) -> str:
    """A seat counted from 0 as players count it: 0 -> ``first``, 2 -> ``third``."""
    return ORDINALS[seat] if 0 <= seat < len(ORDINALS) else f"{seat + 1}th"


def seat_player(seat: int) -> str:
    """The player in ``seat`` (counted from 0) as a family says it: ``the first player``."""
    return f"the {ordinal(seat)} player"


def seat_players(seats: Sequence[int]) -> str:
    """Seats (counted from 0) as a family says them: ``the first player``, ``the first and
    third players``."""
    if len(seats) == 1:
        return seat_player(seats[0])
    return f"the {listed([ordinal(s) for s in seats])} players"


def seat_whose(seats: Sequence[int]) -> str:
    """:func:`seat_players` as an owner: ``the first player's``, ``the first and third players'``."""
    return seat_players(seats) + ("'s" if len(seats) == 1 else "'")


def handicaps(options: Mapping | None, spec: GameSpec) -> dict[int, str]:
    """The seats a rule set's per-seat options (its handicaps) set apart, each with what it
    gets: ``{2: "start_coins 14, the others 10"}`` for ``start_coins = [10, 10, 14, 10]``;
    where no value is the most common, every seat with its own (``{0: "start_points 1", ...}``).
    An option with one value for every seat sets no seat apart."""
    out: dict[int, list[str]] = {}
    for name in spec.rules.per_seat_options():
        values = (options or {}).get(name)
        if not isinstance(values, list | tuple) or len(set(values)) < 2:
            continue
        counts = Counter(values).most_common()
        common = counts[0][0] if counts[0][1] > counts[1][1] else None
        for seat, v in enumerate(values):
            if v != common:
                others = f", the others {common}" if common is not None else ""
                out.setdefault(seat, []).append(f"{name} {v}{others}")
    return {seat: "; ".join(said) for seat, said in sorted(out.items())}


def in_percent(metric: str) -> bool:
    """Whether a search's figure (``win_rate.2``, ``draw.share``, ``length.median``) is a rate,
    written in percent."""
    f = target_figure(metric)
    return metric.startswith("win_rate.") or (f is not None and f.kind == "rate")


def shown_as(metric: str, low: float, high: float):
    """How a search's figure is written beside an interval from ``low`` to ``high``: a rate in
    percent, a quantile in whole steps, anything else to the interval's digits."""
    if in_percent(metric):
        return lambda x: percent(x, points(low, high))
    f = target_figure(metric)
    places = 0 if f is not None and f.kind == "quantile" else decimals(high - low)
    return lambda x: number(x, places)


def metric_words(metric: str) -> str:
    """A tune target in words (``win_rate.2`` -> the third player's win rate; a figure's: its
    registry noun)."""
    name, _, part = metric.partition(".")
    if name == "win_rate":
        return f"{seat_whose([int(part)])} win rate"
    if name == "means":
        return f"the average {part}"
    f = target_figure(metric)
    return f.noun if f is not None and f.noun else metric


def seat_sentence(rates, cis, games: int, players: int, level: float = LEVEL,
                  apart: Mapping[int, str] | None = None, lineup: bool = False) -> str:  # fmt: skip
    """Who wins from which seat, against the smallest difference in a seat's chance that
    matters (1 percentage point): each seat's win rate has its interval at the level that holds
    for every seat at once (Bonferroni). The seats are not equal when some seat's interval lies
    beyond an equal share of the games somebody won by more than that; they differ by too little
    to notice when every seat's lies within it; and no seat is measurably favoured when every
    interval holds an equal share. A seat a handicap sets apart (``apart``, :func:`handicaps`)
    is named with it, and its chance said. Where the seats hold different kinds of player
    (``lineup``) the players' chances differ, not the seats': it is said so."""
    from snakesim.analysis.verdicts import margin_for

    wins = [round(r * games) for r in rates]
    fair = sum(wins) / players / games
    # (24.9% for 4 seats, not 25%, where some games had no winner: said so)
    equal = "an equal share of the games somebody won" if sum(wins) < games else "an equal share"
    joint = 1 - (1 - level) / players
    bounds = [wilson(k, games, joint) for k in wins]
    m = margin_for("win_rate").amount
    places = max(1, points(*cis[0]))
    best, worst = int(np.argmax(rates)), int(np.argmin(rates))
    most, least = (rate_ci(rates[i], cis[i], places) for i in (best, worst))
    # (most and least said plainly only where every other seat's interval lies on the other side)
    most_of = "" if all(bounds[best][0] > hi for s, (_, hi) in enumerate(bounds) if s != best) else " by estimate"
    least_of = "" if all(bounds[worst][1] < lo for s, (lo, _) in enumerate(bounds) if s != worst) else " by estimate"
    apart = apart or {}
    name = lambda s: seat_player(s) + (f" ({apart[s]})" if s in apart else "")  # noqa: E731
    uneven = (f"{name(best)} wins most often{most_of}, {most} of games, and {name(worst)} least{least_of}, {least}, "
              f"where {equal} would be {percent(fair, places)}")  # fmt: skip

    def told(seats: list[int]) -> str:  # (the handicapped seats' own chances, in a sentence after)
        text = "; ".join(f"{name(s)} wins {rate_ci(rates[s], cis[s], places)}" for s in seats) + " of games."
        return f" {text[0].upper()}{text[1:]}" if seats else ""

    aside = told([s for s in apart if s not in (best, worst)])  # (best and worst are named already)
    size = f"{100 * m:g} percentage point{'' if m == 0.01 else 's'}"
    if any(lo >= fair + m for lo, _ in bounds) or any(hi <= fair - m for _, hi in bounds):
        lead = "The players' chances are not equal" if lineup else "The seats are not equal"
        return f"{lead}: {uneven}.{aside}"
    within = all(fair - m < lo and hi < fair + m for lo, hi in bounds)
    if any(lo > fair for lo, _ in bounds) or any(hi < fair for _, hi in bounds):
        tail = (f"every seat is within {size} of an equal share, too little to notice" if within
                else f"these games cannot tell whether by as much as matters ({size})")  # fmt: skip
        lead = "The players' chances differ a little" if lineup else "The seats differ a little"
        return f"{lead}: {uneven}; {tail}.{aside}"
    who = "player" if lineup else "seat"
    lead = f"No {who} is favoured by as much as matters" if within else f"No {who} is measurably favoured"
    return (
        f"{lead}: every seat wins between {percent(min(rates), places)} and {percent(max(rates), places)} of games, "
        f"{equal} being {percent(fair, places)}." + told(list(apart))
    )
