"""Tune: the value of one integer option that brings a summary metric to a target.

``tune`` is stochastic root-finding by bisection with intervals, on common random numbers:
every value plays the same games (:class:`~snakesim.analysis.search.SameGames`), so the
metric moves with the option and not with luck. The two ends of the range are played first;
a target outside both ends' intervals cannot be met. Then the middle of the bracket is
played; when its interval lies on one side of the target the bracket halves, and when it
holds the target the search plays twice the games and looks again (up to the budget, after
which the point estimate decides and the path says so). The answer is the integer whose
metric is nearest the target, with its neighbours' figures, the value interpolated between
the two integers around the target with an interval (where the metric's confidence band
crosses the target), and a confirmation on fresh games of the answer and of the runner-up (the
next nearest), with the other values whose interval holds the target named as as good.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.search import (
    SEARCH,
    SameGames,
    check_budget,
    check_metric,
    check_range,
    held,
    metric_value,
    needs_feel,
)
from snakesim.analysis.stats import LEVEL
from snakesim.analysis.words import shown_as
from snakesim.core import compiling
from snakesim.core.arms import Budget
from snakesim.core.errors import InputError
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Int, PerSeat, Rules, seat_values

if TYPE_CHECKING:
    import pandas as pd


def parse_target(spec: GameSpec, players: int, text: str) -> tuple[str, float]:
    """``METRIC=VALUE`` (``length.median=60``) as ``(metric, value)``."""
    metric, sep, value = str(text).partition("=")
    if not sep:
        raise InputError("--target", f"expected METRIC=VALUE (e.g. length.median=60), got {text!r}")
    try:
        number = float(value)
    except ValueError:
        raise InputError("--target", f"expected a number after {metric.strip()}=, got {value!r}") from None
    if not np.isfinite(number):
        raise InputError("--target", f"expected a finite number, got {value!r}")
    return check_metric(spec, players, metric.strip()), number


def parse_vary(rules: Rules, players: int, text: str) -> tuple[str, int | None, int, int]:
    """``NAME=LOW:HIGH`` or, for a per-seat option, ``NAME.SEAT=LOW:HIGH`` (one seat's value;
    without a seat every seat gets the value): ``(name, seat or None, low, high)``."""
    target, sep, span = str(text).partition("=")
    name, _, seat_text = target.strip().partition(".")
    specs = rules.specs()
    integer = [n for n, f in specs.items() if isinstance(f.metadata["spec"], (Int, PerSeat))]
    if not sep or name not in specs:
        raise InputError(
            "--vary", f"expected NAME=LOW:HIGH with an integer option ({', '.join(integer)}), got {text!r}"
        )
    option = specs[name].metadata["spec"]
    if not isinstance(option, (Int, PerSeat)):
        raise InputError("--vary", f"{name} is not an integer option; expected one of {', '.join(integer)}")
    seat = None
    if seat_text:
        if not isinstance(option, PerSeat) or not seat_text.isdigit() or int(seat_text) >= players:
            raise InputError("--vary", f"{target}: a seat is given only for a per-seat option, from 0 to {players - 1}")
        seat = int(seat_text)
    low, high = check_range("--vary", span, option.low, option.high)
    return name, seat, low, high


def check_tune(spec: GameSpec, rules: Rules, players: int, target: str, vary: str, *, budget: Budget):
    """Check a tune search's settings before any game is played; return the metric, its
    target, the option, its seat (or None), the range, and the function from a value to rules."""
    metric, goal = parse_target(spec, players, target)
    if needs_feel(metric):
        rules = rules.updated({"feel": True})  # (the games record the feel figures only when asked)
    name, seat, low, high = parse_vary(rules, players, vary)
    check_budget(budget)

    def rules_at(x):
        if seat is None:
            return rules.updated({name: x})
        values = seat_values(getattr(rules, name), players)
        values[seat] = x
        return rules.updated({name: values})

    for x in (low, high):
        spec.check(rules_at(x), players)  # both ends must be playable (a deal within the deck, say)
    return metric, goal, name, seat, low, high, rules_at


@dataclass
class TuneResult:
    """What :func:`tune` found: the ``best`` integer, the ``status`` (``met``, ``nearest``,
    ``out of reach``) and a ``message``; ``path`` (every value played: games, value, the
    metric and its interval, and what the search did) and ``answer`` (the best value and its
    neighbours on the search's last games, and the best on fresh games); ``summary`` holds
    the interpolated value and its interval."""

    best: int
    status: str
    message: str
    path: pd.DataFrame
    answer: pd.DataFrame
    summary: dict = field(default_factory=dict)


def tune(
    spec: GameSpec,
    rules: Rules,
    players: int,
    target: str,
    vary: str,
    seats: tuple[str, ...] = (),
    *,
    budget: Budget = SEARCH,
    level: float = LEVEL,
    backend=None,
    progress: bool = False,
    kept=None,
) -> TuneResult:
    """Find the value of the option ``vary`` names that brings the metric ``target`` names to
    its value (see the module docstring).

    Parameters
    ----------
    spec, rules, players, seats
        The game, the rules every value starts from, the number of seats, each seat's policy.
    target : str
        ``FIGURE.STAT=VALUE``: a figure of the registry (``snakesim.core.figures.targets``:
        ``length.median``, ``draw.share``, ``comeback.share`` ...), ``win_rate.SEAT`` or
        ``means.COLUMN`` (a results column, e.g.
        ``means.cards_0``).
    vary : str
        ``NAME=LOW:HIGH``, an integer option and its range (``NAME.SEAT=LOW:HIGH`` for one
        seat's value of a per-seat option).
    budget, level, backend, progress
        As in :func:`snakesim.analysis.balance.balance`.

    Returns
    -------
    TuneResult
    """
    import pandas as pd

    started, compiled = time.perf_counter(), compiling.spent()
    metric, goal, name, seat, low, high, rules_at = check_tune(spec, rules, players, target, vary, budget=budget)
    games, max_games, confirm_games = budget.games, budget.most, budget.confirm_games
    seed, first = budget.seed, budget.first
    with held(backend):  # one cluster for the whole search, when the backend is Dask
        search = SameGames(spec, players, seed, first, seats, backend=backend, progress=progress, kept=kept)
        path: list[dict] = []

        def at(x, count, step):
            v, lo, hi = metric_value(search.games(rules_at(x), count), metric, level)
            path.append({"games": count, "value": x, "metric": v, "low": lo, "high": hi, "step": step})
            return v, lo, hi

        count = games
        ends = {x: at(x, count, "end") for x in (low, high)}
        rising = ends[high][0] >= ends[low][0]
        status = "met"
        if goal < min(ends[low][1], ends[high][1]) or goal > max(ends[low][2], ends[high][2]):
            status = "out of reach"
        a, b = low, high  # the bracket: the target lies between metric(a) and metric(b)
        while status != "out of reach" and b - a > 1:
            mid = (a + b) // 2
            v, lo, hi = at(mid, count, "bisect")
            if v == goal:  # met exactly (a median often is): no bracket can do better
                a = b = mid
                break
            if lo <= goal <= hi and count < max_games:
                count = min(2 * count, max_games)
                path[-1]["step"] = "more games"
                for x in (a, b):
                    at(x, count, "more games")
                continue
            if lo <= goal <= hi:
                path[-1]["step"] = "bisect by estimate"
            below = v < goal
            if below == rising:
                a = mid
            else:
                b = mid
        near = sorted({x for x in (a - 1, a, b, b + 1) if low <= x <= high})
        figures = {x: metric_value(search.games(rules_at(x), count), metric, level) for x in near}
        search.close()
        best = min(near, key=lambda x: (abs(figures[x][0] - goal), x))
        estimate, interval = _interpolate(figures, goal)
        if status == "out of reach":
            closest = min((low, high), key=lambda x: abs(ends[x][0] - goal))
            best = closest
            message = (
                f"{metric} = {goal:g} is out of reach for {name} from {low} to {high}: it runs from "
                f"{ends[low][0]:.4g} (at {low}) to {ends[high][0]:.4g} (at {high}); the nearest is {closest}"
            )
        else:
            lo_b, hi_b = figures[best][1], figures[best][2]
            status = "met" if lo_b <= goal <= hi_b else "nearest"
            show = shown_as(metric, lo_b, hi_b)  # (a rate in percent, to its interval's digits)
            message = (
                f"{name}{'' if seat is None else f'.{seat}'} = {best} gives {metric} {show(figures[best][0])} "
                f"[{show(lo_b)}, {show(hi_b)}]"
                + f" on the search's {count:,} games"
                + (
                    " (the target is inside the interval)"
                    if status == "met"
                    else f"; no whole value played there holds {show(goal)} in its interval"
                )
            )
        # The runner-up (the next nearest on the same games) is confirmed on the same fresh
        # games; "as good" are the other values whose interval holds the target.
        ranked = sorted(near, key=lambda x: (abs(figures[x][0] - goal), x))
        runner_up = ranked[1] if len(ranked) > 1 else None
        as_good = [x for x in ranked[1:] if figures[x][1] <= goal <= figures[x][2]]
        confirm = confirm_games or max(count, 100_000)
        fresh = SameGames(spec, players, seed, first + count, seats, backend=backend, progress=progress, kept=kept)
        confirmed = metric_value(fresh.games(rules_at(best), confirm), metric, level)
        second = None if runner_up is None else metric_value(fresh.games(rules_at(runner_up), confirm), metric, level)
        fresh.close()
    rows = [{"games": count, "value": x, "metric": figures[x][0], "low": figures[x][1], "high": figures[x][2],
             "fresh": False} for x in near]  # fmt: skip
    rows.append({"games": confirm, "value": best, "metric": confirmed[0], "low": confirmed[1], "high": confirmed[2],
                 "fresh": True})  # fmt: skip
    summary = {
        "game": spec.name,
        "players": players,
        "rules_hash": rules.rules_hash(),
        "target": {"metric": metric, "value": goal},
        "vary": {"option": name, "seat": seat, "range": [low, high]},
        "status": status,
        "message": message,
        "best": best,
        "value": best,
        "estimate": estimate,
        "interval": interval,
        "metric": {"value": confirmed[0], "ci": [confirmed[1], confirmed[2]], "games": confirm, "first": first + count},
        "neighbours": [{"value": x, "metric": figures[x][0], "ci": [figures[x][1], figures[x][2]]} for x in near],
        "as_good": as_good,
        "runner_up": None if second is None else {"value": runner_up, "metric": second[0],
                                                  "ci": [second[1], second[2]]},
        "search": {"games_per_value": count, "values_played": len({p["value"] for p in path} | set(near)),
                   "rounds": len(path), "games_played": search.played, "seed": seed,
                   "first": first, "games_from_catalogue": search.stored + fresh.stored},
        "policies": list(seats),  # (each seat's player; empty for a game without choices)
        "level": level,
        "elapsed_s": time.perf_counter() - started - (compiling.spent() - compiled),  # (compiling left out)
    }  # fmt: skip
    return TuneResult(best, status, message, pd.DataFrame(path), pd.DataFrame(rows), summary=summary)


def _interpolate(figures: dict[int, tuple[float, float, float]], goal: float) -> tuple[float | None, list]:
    """The option value where the metric, joined linearly between the integers played, meets
    ``goal``, and the values whose test does not reject it: the hull of every ``x`` where
    ``goal`` lies inside the confidence band, itself joined linearly between the integers.

    The band is solved exactly on each segment between neighbouring integers (two linear
    inequalities in the segment's fraction), not on a grid: a grid could step over the
    estimate, which lies on the band's edge when an integer's interval is a single value (a
    median of whole turns is). Every interval holds its own estimate (a one-sided interval is
    widened to it), so the band holds the interpolated metric and the answer holds the
    estimate.
    """
    xs = sorted(figures)
    values = [figures[x][0] for x in xs]
    lows = [min(figures[x][1], figures[x][0]) for x in xs]
    highs = [max(figures[x][2], figures[x][0]) for x in xs]
    estimate = None
    for k in range(len(xs) - 1):
        v0, v1 = values[k], values[k + 1]
        if v0 != v1 and min(v0, v1) <= goal <= max(v0, v1):
            estimate = float(xs[k] + (goal - v0) / (v1 - v0) * (xs[k + 1] - xs[k]))
            break
    inside = list(_band(xs, lows, highs, goal) or ())
    if estimate is not None:
        inside.append(estimate)  # (inside already, up to rounding at the band's edge)
    return estimate, ([float(min(inside)), float(max(inside))] if inside else [None, None])


def _band(xs: list[int], lows: list[float], highs: list[float], goal: float) -> tuple[float, float] | None:
    """The hull of the ``x`` where ``goal`` lies between ``lows`` and ``highs``, both joined
    linearly between the integers ``xs``; None if there is none."""
    inside: list[float] = []
    for k in range(len(xs) - 1):
        part = _band_segment(lows[k], lows[k + 1], highs[k], highs[k + 1], goal)
        if part is not None:
            inside += [xs[k] + t * (xs[k + 1] - xs[k]) for t in part]
    if len(xs) == 1 and lows[0] <= goal <= highs[0]:
        inside = [float(xs[0])]
    return (min(inside), max(inside)) if inside else None


def _band_segment(low0: float, low1: float, high0: float, high1: float, goal: float) -> tuple[float, float] | None:
    """The fractions ``t`` in [0, 1] where ``low(t) <= goal <= high(t)``, with ``low`` and
    ``high`` linear from their values at 0 to those at 1: an interval ``(from, to)``, or None."""
    start, stop = 0.0, 1.0
    for a, b in ((low0 - goal, low1 - goal), (goal - high0, goal - high1)):  # each must be <= 0
        if a <= 0 and b <= 0:
            continue
        if a > 0 and b > 0:
            return None
        cross = a / (a - b)  # where a + (b - a) t = 0
        if a > 0:
            start = max(start, cross)
        else:
            stop = min(stop, cross)
    return (start, stop) if start <= stop else None
