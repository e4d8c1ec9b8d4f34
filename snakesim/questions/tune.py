"""Tune, asked once: the value of one integer option that brings a figure to a target.

``snakesim tune``, ``snakesim.tune`` and a study's ``[[tune]]`` section each turn what they were
given into one :class:`Plan` (:func:`ask` checks it, with one error text for every door), play
it (:func:`play`) and show a view of its :class:`Answer`: :func:`summary` is what ``--json``
prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from snakesim.analysis.tune import check_tune, tune
from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE, Margin, verdict
from snakesim.analysis.words import in_percent, metric_words, plain, seat_player, shown_as
from snakesim.core.arms import Budget, RuleSource
from snakesim.core.figures import target_figure
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Rules
from snakesim.questions.base import Matters, Question, budget_json, identity, margins, margins_json, rule_set, spec_of
from snakesim.questions.rows import target_words, tidy

if TYPE_CHECKING:
    import pandas as pd

    from snakesim.analysis.tune import TuneResult

KIND = "tune"


@dataclass(frozen=True)
class Plan(Question):
    """Every input a tune's answer depends on, checked (build one with :func:`ask`): the rule
    set (its ``label``, ``rules`` and each seat's player), the ``target`` (``METRIC=VALUE``),
    the option to ``vary`` (``NAME=LOW:HIGH``), the games (``budget``) and what matters around
    the target by figure (``matters``, sorted; the registry's for the others)."""

    players: int
    label: str
    rules: Rules
    seats: tuple[str, ...]
    target: str
    vary: str
    budget: Budget
    matters: Matters = ()

    def key(self) -> str:
        """The question's identity: 16 hex digits of SHA-256 of its canonical JSON (the rule set
        by its complete rules' hash), equal for the same question from any door."""
        return identity(KIND, game=self.game, players=self.players, label=self.label, rules=self.rules.rules_hash(),
                        seats=list(self.seats), target=self.target, vary=self.vary, budget=budget_json(self.budget),
                        matters=margins_json(self.matters))  # fmt: skip


def ask(
    game: str | GameSpec,
    players: int,
    target: str,
    vary: str,
    budget: Budget,
    *,
    source: RuleSource = RuleSource(),
    matters: Mapping[str, Margin] | str | Sequence[str] | None = None,
) -> Plan:
    """A tune's plan, checked completely before any game is played: the rules and players from
    ``source`` (as ``snakesim run`` takes them), the target and the option, the budget and what
    matters (margins by figure, or ``--matters`` texts). InputError naming the field otherwise."""
    spec = spec_of(game)
    label, rules, seats = rule_set(spec, players, budget.seed, source)
    check_tune(spec, rules, players, target, vary, budget=budget)
    return Plan(
        spec.name,
        players,
        label,
        rules,
        tuple(seats),
        target=target,
        vary=vary,
        budget=budget,
        matters=margins(matters),
    )


@dataclass(frozen=True)
class Answer:
    """A played tune: the analysis's result (the best value, status, message, the path and the
    answer on fresh games) and its findings in words."""

    plan: Plan
    result: TuneResult = field(repr=False)
    findings: list[str]


def play(plan: Plan, *, backend=None, progress: bool = False, kept=None) -> Answer:
    """Bisect the option's range on the same games for every value, then play the best on fresh
    games."""
    result = tune(plan.spec, plan.rules, plan.players, plan.target, plan.vary, seats=plan.seats, budget=plan.budget,
                  backend=backend, progress=progress, kept=kept)  # fmt: skip
    unit = target_words(plan.spec, result.summary["target"]["metric"])[1]
    return Answer(plan, result, tune_findings(result.summary, matters=dict(plan.matters), unit=unit))


def summary(answer: Answer) -> dict:
    """What ``snakesim tune --json`` prints: the search's summary, the rule set's label, the
    findings and every value played."""
    result = answer.result
    return {**result.summary, "variant": answer.plan.label, "findings": answer.findings,
            "path": result.path.to_dict(orient="records")}  # fmt: skip


def rows(answer: Answer) -> pd.DataFrame:
    """A study's ``summary.csv`` rows (:mod:`snakesim.questions.rows`): the target's figure at
    each value played on the search's games, then at the answer on fresh games."""
    s, plan = answer.result.summary, answer.plan
    option, metric = s["vary"]["option"], s["target"]["metric"]
    if s["vary"]["seat"] is not None:
        option += f".{s['vary']['seat']}"
    table, (label, unit) = answer.result.answer, target_words(plan.spec, metric)
    out = table.rename(columns={"value": "setting", "metric": "value"}).assign(
        rules=[f"{option}={v}" for v in table["value"]],
        status=["answer" if fresh else "candidate" for fresh in table["fresh"]],
        metric=metric, label=label, unit=unit, players=plan.players,
    ).drop(columns="setting")  # fmt: skip
    return tidy(KIND, out)


# ---------------------------------------------------------------------------- in words
def tune_findings(s: dict, matters: Mapping | None = None, unit: str = "") -> list[str]:
    """A tune search (``TuneResult.summary``) in words: the value to play and what fresh games
    show, whether that meets the target within what matters (``matters``: the margins by
    figure, the registry's where it says nothing; ``unit``: the figure's, as
    :func:`snakesim.questions.rows.target_words` gives it), and, where the target falls between
    two whole values, those two and what each gives."""
    seat, option = s["vary"]["seat"], s["vary"]["option"]
    whom = f" for {seat_player(seat)}" if seat is not None else ""  # (a per-seat option: one seat's value)
    words, goal = metric_words(s["target"]["metric"]), s["target"]["value"]
    m = s["metric"]
    lo, hi = m["ci"]
    show = shown_as(s["target"]["metric"], lo, hi)
    got = f"{show(m['value'])} [{show(lo)}, {show(hi)}] on {m['games']:,} fresh games"
    meets = _meets(s, matters, unit)
    if s["status"] == "out of reach":
        return [
            f"No value of {option}{whom} from {s['vary']['range'][0]} to {s['vary']['range'][1]} brings {words} "
            f"to {show(goal)}; the nearest is {s['best']}: it gives {got}, {meets}."
        ]
    out = [f"For {words} of {show(goal)}, play {option} = {s['best']}{whom}: it gives {got}, {meets}."]
    between = _between(s.get("neighbours") or [], goal)
    if between is not None:
        (a, va, ca), (b, vb, cb), nearer = between
        side = f", nearer {nearer}" if nearer is not None else ""
        narrower = min((ca, cb), key=lambda ci: ci[1] - ci[0])  # (their own digits: the search's games)
        show = shown_as(s["target"]["metric"], *narrower)
        out.append(
            f"On the search's games {show(goal)} lies between {option} = {a} ({show(va)} [{show(ca[0])}, "
            f"{show(ca[1])}]) and {b} ({show(vb)} [{show(cb[0])}, {show(cb[1])}]){whom}{side}; {option} takes whole "
            "values only."
        )
    return out


def _between(neighbours: list[dict], goal: float) -> tuple | None:
    """The two neighbouring whole values whose figures (on the search's games) lie on either
    side of ``goal``, each as ``(value, figure, interval)``, and the one nearer ``goal`` where
    their intervals say so (every point of one nearer than every point of the other), else None
    in its place; None when no two do (one of them gives ``goal`` itself)."""
    rows = sorted(neighbours, key=lambda n: n["value"])
    for left, right in pairwise(rows):
        if min(left["metric"], right["metric"]) < goal < max(left["metric"], right["metric"]):
            near = {}
            for n in (left, right):
                lo, hi = n["ci"]
                near[n["value"]] = (0.0 if lo <= goal <= hi else min(abs(lo - goal), abs(hi - goal)),
                                    max(abs(lo - goal), abs(hi - goal)))  # fmt: skip
            a, b = left["value"], right["value"]
            nearer = a if near[a][1] < near[b][0] else b if near[b][1] < near[a][0] else None
            return (a, left["metric"], left["ci"]), (b, right["metric"], right["ci"]), nearer
    return None


def _meets(s: dict, matters: Mapping | None, unit: str = "") -> str:
    """Whether a tune's answer meets its target: its interval on the fresh games within what
    matters of the target (the target figure's margin; a share of the target for a relative
    one, a percentage point for a seat's win rate, any --matters given), beyond it, or neither.
    The margin is said with its unit and where it comes from."""
    goal, (lo, hi) = s["target"]["value"], s["metric"]["ci"]
    margin = _target_margin(s, matters)
    if margin is None:
        return "which holds the target" if lo <= goal <= hi else "close to the target but not on it"
    m = margin.of(goal)
    said = verdict(lo - goal, hi - goal, m)
    if in_percent(s["target"]["metric"]):
        size = f"{100 * m:.3g} percentage point{'' if f'{100 * m:.3g}' == '1' else 's'}"  # (not "1.0%" of it)
    else:
        size = plain(m) + (f" {unit}" if unit and unit != "fraction" else "")
    basis = f"{100 * margin.amount:g}% of the target, " if margin.relative else ""
    why = f"({basis}the smallest difference that matters)"
    if said == NEGLIGIBLE and lo <= goal <= hi:
        return f"which meets the target: what it gives lies within {size} of it {why}, closer than anyone would notice"
    if said == NEGLIGIBLE:  # (sure it is off the target, and sure it is off by less than matters)
        return (f"not exactly the target (it lies outside the interval) but within {size} of it {why}, closer than "
                "anyone would notice")  # fmt: skip
    if said == MATTERS:
        return f"which misses the target by more than matters: by more than {size} {why}"
    return f"close to the target; these games cannot tell whether it lies within {size} of it {why}"


def _target_margin(s: dict, matters: Mapping | None) -> Margin | None:
    """The smallest difference that matters around a tune's target (None: the figure has none)."""
    from snakesim.analysis.verdicts import margin_for

    metric = s["target"]["metric"]
    f = target_figure(metric)
    row = "win_rate" if metric.startswith("win_rate.") else f.id if f is not None else None
    if row is None:
        return None
    return margin_for(row, matters)
