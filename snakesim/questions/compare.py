"""The comparison, asked once: rule sets side by side on the same games.

The command line (``snakesim compare``), the API (``snakesim.compare``), a study's
``[[compare]]`` section and the workbench's comparison panel each turn what they were given into
one :class:`Plan` (:func:`ask` checks it, with one error text for every door), play it
(:func:`play`) and show a view of its :class:`Answer`: :func:`summary` is what ``--json``
prints. The same question from any door is the same plan, with the same :meth:`Plan.key`.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from snakesim.analysis.compare import check_budget, check_precise, compare_variants
from snakesim.analysis.findings import compare_findings
from snakesim.analysis.stats import LEVEL
from snakesim.analysis.verdicts import Margin, settle_plan
from snakesim.core.arms import Arm, Budget, RuleSource, build_arms
from snakesim.core.registry import GameSpec
from snakesim.questions.base import Matters, Question, budget_json, identity, margins, margins_json, spec_of
from snakesim.questions.rows import tidy

if TYPE_CHECKING:
    import pandas as pd

KIND = "compare"


@dataclass(frozen=True)
class Plan(Question):
    """Every input a comparison's answer depends on, checked (build one with :func:`ask`).

    ``arms`` are the rule sets, the first the baseline, each with its label, rules and players
    (:class:`snakesim.core.arms.Arm`); every arm plays the ``budget``'s games. ``matters`` are
    the smallest differences that matter by figure (the registry's for the others), sorted by
    figure; ``precise`` the rows a run with ``budget.precision`` watches.
    """

    players: int
    arms: tuple[Arm, ...]
    budget: Budget
    matters: Matters = ()
    precise: tuple[str, ...] = ("rates",)

    @property
    def margins(self) -> dict[str, Margin]:
        """What matters by figure id, as the analyses take it."""
        return dict(self.matters)

    def key(self) -> str:
        """The question's identity: 16 hex digits of SHA-256 of its canonical JSON (each rule
        set by its label, its complete rules' hash and its players, not by the variant it was
        built from), equal for the same question from any door and on every machine."""
        return identity(KIND, game=self.game, players=self.players, budget=budget_json(self.budget),
                        arms=[[a.label, a.rules.rules_hash(), list(a.seats)] for a in self.arms],
                        matters=margins_json(self.matters), precise=list(self.precise))  # fmt: skip


def ask(
    game: str | GameSpec,
    players: int,
    arms: Iterable[str | Mapping[str, Any] | Arm],
    budget: Budget,
    shared: RuleSource = RuleSource(),
    *,
    matters: Mapping[str, Margin] | str | Sequence[str] | None = None,
    precise: Sequence[str] = ("rates",),
    where: str = "--variant",
) -> Plan:
    """A comparison's plan, checked completely before any game is played.

    ``arms`` as :func:`snakesim.core.arms.build_arms` takes them (variant names, rules files,
    ``LABEL=BASE,NAME=VALUE,...`` texts, arm tables, or arms already built); ``shared`` applies
    to every arm after its own rules; ``matters`` is margins by figure or ``--matters`` texts.
    InputError naming the field otherwise (``where``: how this door names the arms).
    """
    spec = spec_of(game)
    built = tuple(build_arms(spec, players, budget, arms, shared, where=where))
    check_budget(budget)
    precise = check_precise(precise)
    if budget.precision is None:  # (the rows are watched only then: not part of the question otherwise)
        precise = ("rates",)
    return Plan(spec.name, players, built, budget, matters=margins(matters), precise=precise)


@dataclass(frozen=True)
class Answer:
    """A played comparison: the tidy ``table`` (one row per rule set and figure, with its
    interval, paired difference and verdict), each rule set's per-game ``tables``, the games
    each played (more than asked when it stopped by precision), the findings in words, and how
    to ``settle`` what is undecided (None when nothing is)."""

    plan: Plan
    table: pd.DataFrame = field(repr=False)
    tables: dict[str, pd.DataFrame] = field(repr=False)
    games: int
    findings: list[dict]
    settle: dict | None

    @property
    def stopping(self) -> dict | None:
        """With ``budget.precision``: the anytime-valid stopping's games, widths and intervals."""
        return self.table.attrs.get("stopping")


def play(plan: Plan, *, backend=None, threads: int | None = None, progress: bool = False) -> Answer:
    """Play every rule set of ``plan`` on the same games and compare them."""
    spec = plan.spec
    table, tables = compare_variants(spec, plan.players, plan.arms, plan.budget, threads=threads, progress=progress,
                                     backend=backend, precise=plan.precise, matters=plan.margins)  # fmt: skip
    stopping = table.attrs.get("stopping")
    games = stopping["games"] if stopping else plan.budget.games
    findings = compare_findings(table, spec, plan.players, games)
    return Answer(plan, table, tables, games=games, findings=findings, settle=settle_plan(table, games))


def summary(answer: Answer, again: Sequence[str] | None = None) -> dict:
    """What ``snakesim compare --json`` prints: the question, each rule set's options, rules
    hash and players, the findings, how to settle what is undecided and every row. With
    ``again`` (the command line that asks this question), ``settle`` carries the command that
    settles it."""
    plan, runs = answer.plan, answer.table.attrs["runs"]
    out = {"game": plan.game, "players": plan.players, "games": plan.budget.games, "seed": plan.budget.seed,
           "variants": list(runs)}  # fmt: skip
    out["options"] = {name: run["options"] for name, run in runs.items()}
    out["rules_hash"] = {name: run["rules_hash"] for name, run in runs.items()}
    out["policies"] = {name: run["policies"] for name, run in runs.items()}  # (by seat; empty: no choices)
    out["level"] = LEVEL  # (the values' intervals; each difference's is its row's diff_level)
    if answer.stopping:
        out.update(games=answer.games, stopping=answer.stopping)
    settle = None if answer.settle is None else dict(answer.settle)
    if settle is not None and again is not None:
        settle["command"] = settle_command(settle, again, answer.games)
    out.update(findings=answer.findings, settle=settle, rows=answer.table.to_dict(orient="records"))
    return out


def settle_command(settle: dict, again: Sequence[str], games: int) -> str:
    """The command line that settles what a comparison left undecided: ``again`` (the command
    that asks it) with the games, or the anytime-valid precision, that :func:`settle_plan` says."""
    if settle["precision"] is not None:
        more = ["-n", str(games), "--precision", f"{settle['precision']:g}", "--precise", "differences",
                "--max-games", str(settle["max_games"])]  # fmt: skip
    else:
        more = ["-n", str(settle["games"])]
    return shlex.join([*again, *more])


def rows(answer: Answer) -> pd.DataFrame:
    """A study's ``summary.csv`` rows (:mod:`snakesim.questions.rows`): each rule set's figures
    with their intervals, and each one's paired difference from the first with its verdict."""
    table = answer.table
    out = table.drop(columns="kind").rename(columns={"variant": "rules"})
    out = out.assign(rules_hash=out["rules"].map(table.attrs["rules_hash"]), players=answer.plan.players,
                     games=answer.games)  # fmt: skip
    return tidy(KIND, out)
