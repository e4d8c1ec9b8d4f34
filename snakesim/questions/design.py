"""A design search, asked once: the rule sets that meet every target at once.

``snakesim design``, ``snakesim.design``, a study's ``[[design]]`` section and the workbench's
design panel each turn what they were given into one :class:`Plan` (:func:`ask` checks it,
with one error text for every door), play it (:func:`play`) and show a view of its
:class:`Answer`: :func:`summary` is what ``--json`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING

from snakesim.analysis.design import design
from snakesim.analysis.design_space import Dimension, Prefer, Target, parse_question
from snakesim.analysis.findings import design_findings
from snakesim.analysis.verdicts import Margin
from snakesim.core.arms import Arm, Budget, RuleSource, resolve_rules
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Rules
from snakesim.questions.base import Question, budget_json, identity, margins, rule_set, spec_of
from snakesim.questions.rows import target_words, tidy

if TYPE_CHECKING:
    import pandas as pd

    from snakesim.analysis.design import DesignResult

KIND = "design"


@dataclass(frozen=True, eq=False)
class Plan(Question):
    """Every input a design search's answer depends on, checked (build one with :func:`ask`):
    where each rule set starts (``source``, or the ``base`` rules given whole, the workbench's),
    the rule set's ``label`` and ``rules``, each seat's player, what may change (``dims``), what
    must hold (``targets``), the figure that ranks the answers (``prefer``) and the games
    (``budget``: each rule set's first round, the most in all, the fresh games).

    Two plans are equal when their :meth:`key` is (a rules file is read into the rules it
    gives, so the key is of what is played, not of where it was written).
    """

    players: int
    label: str
    rules: Rules
    seats: tuple[str, ...]
    dims: tuple[Dimension, ...]
    targets: tuple[Target, ...]
    budget: Budget
    prefer: Prefer | None = None
    source: RuleSource = RuleSource()
    base: Rules | None = None

    def _starts(self) -> list:
        """Each varied variant's starting rules, by hash (the rules a search builds its rule sets
        from when ``variant`` is one of the dimensions)."""
        varied = next((d for d in self.dims if d.name == "variant"), None)
        if varied is None:
            return []
        if self.base is not None:
            starts = {
                v: resolve_rules(self.spec, RuleSource(v, options={"feel": self.base.feel}))[1] for v in varied.values
            }
        else:
            starts = {v: resolve_rules(self.spec, replace(self.source, variant=v))[1] for v in varied.values}
        return [[v, rules.rules_hash()] for v, rules in starts.items()]

    def key(self) -> str:
        """The question's identity: 16 hex digits of SHA-256 of its canonical JSON, equal for
        the same question from any door."""
        prefer = None if self.prefer is None else [asdict(self.prefer.target), self.prefer.way,
                                                   asdict(self.prefer.matters)]  # fmt: skip
        return identity(KIND, game=self.game, players=self.players, label=self.label, rules=self.rules.rules_hash(),
                        seats=list(self.seats), dims=[[d.name, [d.text(v) for v in d.values]] for d in self.dims],
                        targets=[asdict(t) for t in self.targets], prefer=prefer, budget=budget_json(self.budget),
                        variants=self._starts())  # fmt: skip

    def __eq__(self, other) -> bool:
        return isinstance(other, Plan) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())


def ask(
    game: str | GameSpec,
    players: int,
    vary: str | Sequence[str],
    targets: str | Sequence[str],
    budget: Budget,
    *,
    source: RuleSource | Arm = RuleSource(),
    prefer: str | None = None,
    matters: Mapping[str, Margin] | str | Sequence[str] | None = None,
) -> Plan:
    """A design search's plan, checked completely before any game is played: the rules and
    players from ``source`` (as ``snakesim run`` takes them), or a rule set already built (an
    :class:`~snakesim.core.arms.Arm`: its rules are the start, given whole); the ``--vary``,
    ``--target`` and ``--prefer`` texts; ``matters`` (margins by figure, or ``--matters``
    texts). InputError naming the field otherwise."""
    spec = spec_of(game)
    label, rules, seats = rule_set(spec, players, budget.seed, source)
    # (a rule set given whole is where each rule set starts; else where its rules come from)
    base, start = (rules, RuleSource()) if isinstance(source, Arm) else (None, source)
    dims, goals, ranked = parse_question(spec, rules, players, vary=vary, targets=targets, prefer=prefer,
                                         matters=dict(margins(matters)))  # fmt: skip
    return Plan(
        spec.name,
        players,
        label,
        rules,
        tuple(seats),
        dims=dims,
        targets=goals,
        budget=budget,
        prefer=ranked,
        source=start,
        base=base,
    )


@dataclass(frozen=True)
class Answer:
    """A played design search: the analysis's result (the summary: answers, nearest misses,
    the trade-off set, the search; one row per rule set played) and its findings in words."""

    plan: Plan
    result: DesignResult = field(repr=False)
    findings: list[str]


def play(plan: Plan, *, backend=None, progress: bool = False) -> Answer:
    """Search the rule sets the dimensions span, racing them on the same games, and confirm the
    answers on fresh games."""
    spec = plan.spec
    result = design(spec, plan.source, plan.players, plan.dims, plan.targets, seats=plan.seats, prefer=plan.prefer,
                    budget=plan.budget, backend=backend, progress=progress, base=plan.base)  # fmt: skip
    return Answer(plan, result, design_findings(result.summary, spec))


def summary(answer: Answer) -> dict:
    """What ``snakesim design --json`` prints: the search's summary, the rule set's label, the
    findings and every rule set played."""
    result = answer.result
    return {**result.summary, "variant": answer.plan.label, "findings": answer.findings,
            "rule_sets": result.table.to_dict("records")}  # fmt: skip


def rows(answer: Answer) -> pd.DataFrame:
    """A study's ``summary.csv`` rows (:mod:`snakesim.questions.rows`): every target's figure of
    every rule set played, with its status, then of each answer (or nearest miss) on the fresh
    games that confirmed it."""
    import pandas as pd

    s, plan, table = answer.result.summary, answer.plan, answer.result.table
    found = []
    for t in s["targets"]:
        metric = t["metric"]
        label, unit = target_words(plan.spec, metric)
        found += [{"rules": r["label"], "status": r["status"], "games": r["games"], "fresh": False, "metric": metric,
                   "label": label, "unit": unit, "value": r[metric], "low": r[f"{metric}_low"],
                   "high": r[f"{metric}_high"]} for r in table.to_dict("records")]  # fmt: skip
        for a in s["answers"] or s["nearest"]:
            c = a.get("confirmed")
            if c:
                figure = c["figures"][metric]
                found.append({"rules": a["label"], "rules_hash": a["rules_hash"], "status": a["status"],
                              "games": c["games"], "fresh": True, "metric": metric, "label": label, "unit": unit,
                              "value": figure["value"], "low": figure["ci"][0], "high": figure["ci"][1]})  # fmt: skip
    return tidy(KIND, pd.DataFrame(found).assign(players=plan.players))
