"""A design search, asked once: the rule sets that meet every target at once.

``snakesim design``, ``snakesim.design``, a study's ``[[design]]`` section and the workbench's
design panel each turn what they were given into one :class:`Plan` (:func:`ask` checks it,
with one error text for every door), play it (:func:`play`) and show a view of its
:class:`Answer`: :func:`summary` is what ``--json`` prints.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.design import design, search_size
from snakesim.analysis.design_space import Dimension, Prefer, Space, Target, is_share, parse_question
from snakesim.analysis.verdicts import Margin
from snakesim.analysis.words import SAME, decimals, fixed, metric_words, number, points, rate_ci
from snakesim.core.arms import Arm, Budget, RuleSource, resolve_rules
from snakesim.core.figures import target_figure
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
    search_size(Space(spec, start, players, dims, base=base), budget)  # (its games, before any is played)
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


def play(plan: Plan, *, backend=None, progress: bool = False, kept=None) -> Answer:
    """Search the rule sets the dimensions span, racing them on the same games, and confirm the
    answers on fresh games."""
    spec = plan.spec
    result = design(spec, plan.source, plan.players, plan.dims, plan.targets, seats=plan.seats, prefer=plan.prefer,
                    budget=plan.budget, backend=backend, progress=progress, base=plan.base, kept=kept)  # fmt: skip
    return Answer(plan, result, design_findings(result.summary, spec, result.table))


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


# ---------------------------------------------------------------------------- in words
def design_findings(s: dict, spec, table: pd.DataFrame | None = None) -> list[str]:
    """A design search (``DesignResult.summary``) in words: the rule sets that meet every
    target and what fresh games show for the best, or the nearest miss and by how much; the
    near misses, the undecided, and the games the racing saved. With the rule sets played
    (``table``), a target no option varied moves at all is said first (Hisss's length under
    ``ring_reach``: a miss "about 9 off" beside equal bars read as if closer values could
    reach it)."""
    targets = s["targets"]
    out = []
    played = table[table["games"] > 0] if table is not None else None
    for t in targets if played is not None and len(played) > 1 else []:
        values = played[t["metric"]].to_numpy(dtype=float)
        if np.isfinite(values).all() and np.ptp(values) < SAME:
            out.append(f"None of the options varied moves {_target_words(t)}: it is {values[0]:g} in every rule set "
                       f"played ({len(played)}), so no value of them reaches {t['text']}.")  # fmt: skip
    answers, c, search = s["answers"], s["counts"], s["search"]
    if answers:
        names = "; ".join(a["label"] for a in answers[:3]) + (
            f" and {len(answers) - 3} more" if len(answers) > 3 else ""
        )
        out.append(f"{len(answers)} rule set{'s' if len(answers) > 1 else ''} meet{'' if len(answers) > 1 else 's'} "
                   f"every target: {names}.")  # fmt: skip
        best = answers[0]
        slipped = [a["label"] for a in answers if a.get("confirmed") and not a["confirmed"]["holds"]]
        said = (
            "the surest (the furthest inside the targets)"
            if s["prefer"] is None
            else f"the best on {metric_words(s['prefer']['metric'])}"
        )
        if slipped and best.get("confirmed", {}).get("holds"):
            said = said.replace("the surest", "the surest of those that hold on fresh games").replace(
                "the best on", "the best of those that hold on fresh games on"
            )
        conf = best.get("confirmed")
        lead = f"Of them, {said} is {best['label']}: on" if len(answers) > 1 else "On"
        if conf is not None:
            figures = ", ".join(f"{_target_words(t)} {_target_value(t, conf['figures'][t['metric']])}" for t in targets)
            crosses = any(_crosses(t, conf["figures"][t["metric"]]["ci"]) for t in targets)
            held = (
                "every target holds there"
                + (" (each estimate on its target, each interval within what matters of it)" if crosses else "")
                if conf["holds"]
                else "but not every target holds there: "
                + ", ".join(_target_words(t) for t in targets if conf["calls"][t["metric"]] != "meets")
            )
            out.append(f"{lead} {conf['games']:,} fresh games {figures}; {held}.")
        if slipped:
            land = "lands" if len(slipped) == 1 else "land"
            out.append(f"On fresh games {len(slipped)} of the {len(answers)} {land} off a target "
                       f"({'; '.join(slipped)}): by less than matters where called near; prefer the answers that "
                       "hold there.")  # fmt: skip
    else:
        out.append("No rule set meets every target.")
        for a in s["nearest"]:
            misses = "; ".join(f"{_target_words(t)} is {_target_value(t, a['figures'][t['metric']])}, "
                               f"about {shortfall_words(t, m['by'])} off {t['text']}"
                               for m in a["misses"] for t in targets if t["metric"] == m["metric"])  # fmt: skip
            # (the search's games: its fresh games' figures, in the table, differ a little)
            where = " on the search's games" if misses else ""
            out.append(f"The nearest is {a['label']}{where}: "
                       f"{misses or 'it is within what matters of every target'}.")  # fmt: skip
        if len(s["pareto"]) > 1:
            out.append(
                f"The targets compete: {len(s['pareto'])} rule sets each come nearer one target only by going "
                f"further from another ({'; '.join(s['pareto'][:4])}{' ...' if len(s['pareto']) > 4 else ''})."
            )
    # (with no answer the nearest miss may be near itself: "more" leaves it out)
    near = c["near"] - (not answers and bool(s["nearest"]) and s["nearest"][0]["status"] == "near")
    if near:
        out.append(f"{near} more rule set{'s come' if near > 1 else ' comes'} within what matters of every "
                   "target without being on all of them.")  # fmt: skip
    if c["edge"]:
        sit = "s sit" if c["edge"] > 1 else " sits"
        named = s.get("edge") or []
        which = f" ({'; '.join(named)})" if named and len(named) == c["edge"] else ""
        out.append(f"{c['edge']} rule set{sit} at the edge of a target{which}: off it by about as much as matters, "
                   "which more games would hardly settle.")  # fmt: skip
    if c["undecided"]:
        out.append(f"{c['undecided']} rule set{'s' if c['undecided'] > 1 else ''} stayed undecided when the budget ran "
                   "out; more games in all (--budget) would settle them.")  # fmt: skip
    grid = search["rule_sets"] * search["most_games_a_rule_set"]
    fresh = search["games_in_all"] - search["games_played"]
    if search["racing"] and search["games_played"] < grid:
        out.append(
            f"The search played {search['games_played']:,} games"
            + (f" and {fresh:,} fresh ones to confirm" if fresh else "")
            + f"; giving every rule set as many games as the most-played one needed would have taken {grid:,}."
        )
    return out


def _crosses(t: dict, ci) -> bool:
    """Whether an interval reaches past a design target's edge (a family read "[1.1, 2.4] ...
    holds" against "at most 2" as a contradiction)."""
    low, high = Target.of(t).region
    return ci[0] < low or ci[1] > high


def _target_words(t: dict) -> str:
    if t["metric"] == "seat_gap":
        return "the largest gap between two seats' win rates"
    return metric_words(t["metric"])


def _target_value(t: dict, f: dict) -> str:
    """A target's figure and interval in words: percent for a share, points for the seat gap."""
    x, (lo, hi) = f["value"], f["ci"]
    if t["metric"] == "seat_gap":
        places = max(1, points(lo, hi))
        return f"{fixed(100 * x, places)} points [{fixed(100 * lo, places)}, {fixed(100 * hi, places)}]"
    if is_share(t["metric"]):
        return rate_ci(x, (lo, hi), points(lo, hi))
    if not all(map(math.isfinite, (x, lo, hi))):
        return f"{x:g} [{lo:g}, {hi:g}]"
    f = target_figure(t["metric"])
    places = 0 if f is not None and f.kind == "quantile" else decimals(hi - lo)  # (a quantile: whole steps)
    return f"{number(x, places)} [{number(lo, places)}, {number(hi, places)}]"


def shortfall_words(t: dict, by: float) -> str:
    """How far a design target is missed (``by``, in the metric's terms), in its unit: points
    for the seat gap, percentage points for a share (a difference of shares is no share)."""
    if t["metric"] == "seat_gap":
        return f"{100 * by:.2g} points"
    if is_share(t["metric"]):
        return f"{100 * by:.2g} percentage points"
    return f"{by:.3g}"
