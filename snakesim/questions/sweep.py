"""A sweep, asked once: every figure at every point of a grid of options and player counts.

``snakesim sweep``, ``snakesim.sweep`` and a study's ``[[sweep]]`` section each turn what they
were given into one :class:`Plan` (:func:`ask` checks every point, with one error text for
every door), play it (:func:`play`) and show a view of its :class:`Answer`: :func:`summary`
is what ``--json`` prints.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.compare import unit_of
from snakesim.analysis.sweep import parse_axes, plan_sweep, sweep
from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE, Margin, verdict
from snakesim.analysis.words import SAME, decimals, number, percent, plain, points
from snakesim.core.arms import Budget, RuleSource
from snakesim.core.figures import figure
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Rules
from snakesim.questions.base import Matters, Question, budget_json, identity, margins, margins_json, spec_of
from snakesim.questions.rows import tidy

if TYPE_CHECKING:
    import pandas as pd

KIND = "sweep"


@dataclass(frozen=True)
class Plan(Question):
    """Every input a sweep's answer depends on, checked (build one with :func:`ask`): the
    ``--set`` texts (fixed settings and swept axes), the arm every point starts from
    (``variant``) and every seat's ``policy``, the games per point (``budget``), what matters
    by figure, and every point of the grid as it will be played (``points``: players, label,
    rules, seats)."""

    counts: tuple[int, ...]
    settings: tuple[str, ...]
    budget: Budget
    points: tuple[tuple[int, str, Rules, tuple[str, ...]], ...]
    variant: str | None = None
    policy: str | None = None
    matters: Matters = ()

    @property
    def axes(self) -> list[str]:
        """The swept options, in the order the settings give them."""
        return list(parse_axes(self.settings)[1])

    def key(self) -> str:
        """The question's identity: 16 hex digits of SHA-256 of its canonical JSON (each point
        by its complete rules' hash), equal for the same question from any door."""
        return identity(KIND, game=self.game, axes=self.axes, budget=budget_json(self.budget),
                        points=[[n, rules.rules_hash(), list(seats)] for n, _, rules, seats in self.points],
                        matters=margins_json(self.matters))  # fmt: skip


def ask(
    game: str | GameSpec,
    counts: Sequence[int],
    settings: Iterable[str],
    budget: Budget,
    source: RuleSource = RuleSource(),
    *,
    matters: Mapping[str, Margin] | str | Sequence[str] | None = None,
) -> Plan:
    """A sweep's plan, every point checked before any game is played: ``source.variant`` is the
    arm each point starts from and ``source.policy`` every seat's player; each point's settings
    apply after it. InputError naming the field otherwise."""
    spec = spec_of(game)
    settings = tuple(settings)
    points = plan_sweep(spec, list(counts), settings, budget, source)
    built = tuple((n, label, rules, tuple(seats)) for n, label, rules, seats in points)
    return Plan(
        spec.name,
        tuple(counts),
        settings,
        budget,
        points=built,
        variant=source.variant,
        policy=source.policy,
        matters=margins(matters),
    )


@dataclass(frozen=True)
class Answer:
    """A played sweep: the tidy table (one row per point and figure, with its interval) and the
    findings in words along the first swept option."""

    plan: Plan
    table: pd.DataFrame = field(repr=False)
    findings: list[str]


def play(plan: Plan, *, backend=None, threads: int | None = None, progress: bool = False) -> Answer:
    """Play every point of the grid."""
    spec, axes = plan.spec, plan.axes
    table = sweep(spec, list(plan.counts), plan.settings, plan.budget, RuleSource(plan.variant, policy=plan.policy),
                  threads=threads, progress=progress, backend=backend, runs=list(plan.points))  # fmt: skip
    findings = sweep_findings(table, axes[0], spec.length_unit, matters=dict(plan.matters)) if axes else []
    return Answer(plan, table, findings)


def summary(answer: Answer) -> dict:
    """What ``snakesim sweep --json`` prints: the run's metadata, the findings and every row."""
    return {**answer.table.attrs, "findings": answer.findings, "rows": answer.table.to_dict(orient="records")}


def rows(answer: Answer) -> pd.DataFrame:
    """A study's ``summary.csv`` rows (:mod:`snakesim.questions.rows`): every figure of every
    point, the point named by its swept options (``start_coins=3``)."""
    table, axes, spec = answer.table, answer.plan.axes, answer.plan.spec
    point = [", ".join(f"{a}={v}" for a, v in zip(axes, values, strict=True))
             for values in table[axes].itertuples(index=False)]  # fmt: skip
    units = [unit_of(spec, metric, figure(metric).kind) for metric in table["metric"]]
    out = table.drop(columns=axes).assign(rules=point, unit=units, games=answer.plan.budget.games)
    return tidy(KIND, out)


# ---------------------------------------------------------------------------- in words
def sweep_findings(table: pd.DataFrame, axis: str, unit: str = "turns", matters: Mapping | None = None) -> list[str]:
    """A sweep (``snakesim.analysis.sweep.sweep``) in words, for each player count: how the
    average length (in ``unit``), the first player's chance and the lead changes move from the first value
    of ``axis`` to the last, against the smallest difference that matters: a move that matters
    (the two ends' difference, its interval from theirs, lies beyond the margin), one too small
    to notice (it lies inside), or one these games cannot tell."""
    from snakesim.analysis.verdicts import margin_for

    out = []
    for players, rows in table.groupby("players"):
        first, last = rows[axis].iloc[0], rows[axis].iloc[-1]
        span = f"as {axis} goes from {first} to {last}"
        for metric, what in (
            ("length", f"the average game ({unit})"),
            ("win_rate.0", "the first player's chance of winning"),
            ("lead_changes", "the lead changes a game"),
        ):
            line = rows[rows["metric"] == metric]
            if line.empty:
                continue
            a, b = line.iloc[0], line.iloc[-1]
            rate = metric == "win_rate.0"
            places = points(a["low"], a["high"]) if rate else decimals(a["high"] - a["low"])
            show = (lambda x, p=places: percent(x, max(1, p))) if rate else (lambda x, p=places: number(x, p))
            if metric == "length" and (line["high"] - line["low"]).max() < SAME and np.ptp(line["value"]) < SAME:
                out.append(f"{players} players: every game lasts {number(a['value'], 0)} {unit} at every point.")
            elif np.ptp(line["value"].to_numpy(dtype=float)) < SAME:
                out.append(f"{players} players: {what} is {show(a['value'])} at every point.")
            else:
                m = margin_for(metric, matters).of(a["value"])
                d = b["value"] - a["value"]
                half = math.hypot((a["high"] - a["low"]) / 2, (b["high"] - b["low"]) / 2)  # (two separate runs)
                said = verdict(d - half, d + half, m)
                ends = (f"from {show(a['value'])} [{show(a['low'])}, {show(a['high'])}] to {show(b['value'])} "
                        f"[{show(b['low'])}, {show(b['high'])}] {span}")  # fmt: skip
                size = f"{100 * m:g} percentage point{'s' if m != 0.01 else ''}" if rate else plain(m)
                if said == MATTERS:
                    out.append(f"{players} players: {what} goes {ends}.")
                elif said == NEGLIGIBLE:
                    out.append(
                        f"{players} players: {what} stays between {show(line['value'].min())} and "
                        f"{show(line['value'].max())} {span}: the two ends differ by less than {size}, too little "
                        "to notice."
                    )
                else:
                    out.append(f"{players} players: {what} goes {ends}; these games cannot tell whether by as much as "
                               f"matters ({size}).")  # fmt: skip
    return out
