"""Parameter sweeps: a grid over player counts and rule options, one summary row set per point.

Every grid point plays games ``0 .. n-1`` of the same seed, so neighbouring points differ by
the swept value, not by the luck of the deal (common random numbers, as in comparisons).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.compare import estimate, per_game_metrics
from snakesim.analysis.stats import LEVEL, seat_balance
from snakesim.core.arms import Budget, RuleSource, build_arm, parse_arm
from snakesim.core.backends import ThreadsBackend
from snakesim.core.columns import winners
from snakesim.core.errors import InputError
from snakesim.core.figures import COMPARED, figure
from snakesim.core.registry import GameSpec
from snakesim.core.runner import simulate_spec

if TYPE_CHECKING:
    import pandas as pd


MAX_POINTS = 1000


def parse_players(text: str) -> list[int]:
    """``"4"``, ``"2,3,5"`` or ``"2..6"`` as a list of player counts."""
    try:
        if ".." in text:
            low, high = (int(x) for x in text.split(".."))
            values = range(low, high + 1)
        else:
            values = [int(x) for x in text.split(",")]
    except ValueError:
        raise InputError("--players", f"expected N, N,M,... or LOW..HIGH, got {text!r}") from None
    if not values:
        raise InputError("--players", f"the range {text!r} is empty")
    if len(values) > MAX_POINTS:
        raise InputError("--players", f"the range {text} has {len(values):,} values; at most {MAX_POINTS:,}")
    return list(values)


def parse_axes(settings: Iterable[str]) -> tuple[list[str], dict[str, Sequence]]:
    """Split ``--set`` strings into fixed settings and swept axes.

    ``NAME=LOW:HIGH:STEP`` sweeps integers from LOW to HIGH inclusive (kept as a ``range``, so
    a huge axis costs nothing until it is counted and refused); ``NAME=A,B,C`` sweeps the
    listed values; anything else is a fixed setting. Values are checked by the rules (which
    name the field) when each point is built.
    """
    fixed, axes = [], {}
    for setting in settings:
        name, sep, text = setting.partition("=")
        if sep and text.lstrip()[:1] in ("[", "{", '"', "'"):
            fixed.append(setting)  # a TOML value (an effect list, say): fixed, never an axis
        elif sep and ":" in text:
            try:
                low, high, step = (int(x) for x in text.split(":"))
            except ValueError:
                raise InputError(name, f"expected LOW:HIGH:STEP with integers, got {text!r}") from None
            if step < 1 or high < low:
                raise InputError(name, f"expected LOW <= HIGH and STEP >= 1, got {text!r}")
            axes[name] = range(low, high + 1, step)
        elif sep and "," in text:
            axes[name] = [v.strip() for v in text.split(",")]
        else:
            fixed.append(setting)
    return fixed, axes


def plan_sweep(
    spec: GameSpec,
    players: Sequence[int],
    settings: Iterable[str],
    budget: Budget,
    base: RuleSource = RuleSource(),
) -> list[tuple[int, str, object, tuple[str, ...]]]:
    """Check every point of the grid, without playing: ``(players, label, rules, seats)`` each.

    ``base.variant`` is the arm every point starts from (``snakesim.core.arms``: a variant
    name, a rules file or inline options), ``base.policy`` every seat's player; the point's
    settings apply after the arm.

    The grid is counted from its axes' lengths before any point is built, so a grid over the
    cap costs nothing.
    """
    fixed, axes = parse_axes(settings)
    names = list(axes)
    count = len(players) * math.prod(len(values) for values in axes.values())
    if count > MAX_POINTS:
        raise InputError("--set", f"the grid has {count:,} points; at most {MAX_POINTS:,}")
    arm = parse_arm(spec, base.variant or "standard")
    runs = []
    for point in itertools.product(players, *axes.values()):
        n, values = point[0], point[1:]
        point_settings = [*fixed, *(f"{k}={v}" for k, v in zip(names, values, strict=True))]
        built = build_arm(spec, n, budget, arm, RuleSource(settings=point_settings, policy=base.policy))
        runs.append((n, built.label, built.rules, built.seats))
    return runs


def sweep(
    spec: GameSpec,
    players: Sequence[int],
    settings: Iterable[str],
    budget: Budget,
    base: RuleSource = RuleSource(),
    *,
    threads: int | None = None,
    progress: bool = False,
    level: float = LEVEL,
    backend=None,
    runs: list | None = None,
) -> pd.DataFrame:
    """Run every point of the grid and summarise it (on ``backend``: threads here if None).

    Every point plays the budget's games, from the arm ``base.variant`` with ``base.policy``
    (see :func:`plan_sweep`); ``runs`` is the grid as :func:`plan_sweep` checked it (planned
    here if None).

    Returns
    -------
    pandas.DataFrame
        One row per point and metric: ``players``, one column per swept option,
        ``rules_hash`` (of the point's complete rules), ``metric`` (the figure's row id,
        ``snakesim.core.figures``), ``label`` (its words as a column), ``value``, ``low``,
        ``high``. The figures: every one a comparison pairs that is ``swept`` (seat 0's of a
        figure by seat; the game-feel ones where the games recorded them), then
        ``seat_balance``. ``attrs`` holds the game, variant, games per point, seed, swept
        options, the intervals' ``level`` and each player count's ``policies`` (by seat).
    """
    import pandas as pd

    names = list(parse_axes(settings)[1])
    if runs is None:
        runs = plan_sweep(spec, players, settings, budget, base)
    rows, policies = [], {}
    with backend or ThreadsBackend(threads) as engine:
        for n, name, rules, seats in runs:
            df = simulate_spec(spec, rules, n, budget, name, threads=threads, progress=progress, policies=seats,
                               backend=engine)  # fmt: skip
            policies[str(n)] = list(seats)
            swept = {k: _value_of(rules, k) for k in names}
            point = {"players": n, **swept, "rules_hash": rules.rules_hash()}
            for metric, value, low, high in _point_metrics(spec, df, n, level):
                rows.append({**point, "metric": metric, "label": figure(metric).heading.format(seat=0),
                             "value": value, "low": low, "high": high})  # fmt: skip
    out = pd.DataFrame(rows)
    out.attrs.update(game=spec.name, variant=base.variant or "standard", games=budget.games, seed=budget.seed,
                     axes=names, level=level, policies=policies)  # fmt: skip
    return out


def _value_of(rules, name: str):
    """The checked value of option ``name`` (``deck.RAIN`` reads one entry of a table)."""
    base, _, key = name.partition(".")
    value = getattr(rules, base)
    return dict(value)[key] if key else value


def _point_metrics(spec: GameSpec, df: pd.DataFrame, players: int, level: float):
    """The swept figures of one point, from the same per-game quantities comparisons use."""
    metrics = per_game_metrics(spec, df, players)
    for f in COMPARED:
        row = f.row(0)  # (a figure by seat: seat 0's)
        if f.swept and row in metrics:  # (the feel figures where the games recorded them)
            yield (row, *estimate(*metrics[row], level))
    winner = winners(df)
    wins = np.bincount(winner[winner >= 0], minlength=players)
    yield ("seat_balance", seat_balance(wins), np.nan, np.nan)
