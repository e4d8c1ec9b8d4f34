"""Skill, asked once: is the game luck or skill? One odd player among a field, on the same games.

``snakesim skill``, ``snakesim.skill`` and a study's ``[[skill]]`` section each turn what they
were given into one :class:`Plan` (:func:`ask` checks it, with one error text for every door),
play it (:func:`play`) and show a view of its :class:`Answer`: :func:`summary` is what
``--json`` prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from snakesim.analysis.skill import check_skill, skill, skill_differences
from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE, Margin, margin_for, verdict
from snakesim.analysis.words import ALPHA, fixed, p_text, percent, points, signed
from snakesim.core.arms import Budget, RuleSource, resolve_run
from snakesim.core.errors import InputError
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Rules
from snakesim.questions.base import Matters, Question, budget_json, identity, margins, margins_json, spec_of
from snakesim.questions.rows import tidy

if TYPE_CHECKING:
    import pandas as pd

    from snakesim.analysis.skill import SkillResult

KIND = "skill"
BETWEEN = "between arms"  # (the findings' key for what the rule sets change against the first)


@dataclass(frozen=True)
class Plan(Question):
    """Every input a skill measure's answer depends on, checked (build one with :func:`ask`):
    the player ``counts``, the rule sets (``arms``: label and rules, the first the baseline),
    the games (``budget``: games per line-up and count, and the seed), the expert's and the
    oracle's ``playouts``, the ``novice``'s mistake rate and what matters by figure."""

    counts: tuple[int, ...]
    arms: tuple[tuple[str, Rules], ...]
    budget: Budget
    playouts: int
    novice: float
    matters: Matters = ()

    def key(self) -> str:
        """The question's identity: 16 hex digits of SHA-256 of its canonical JSON (each rule
        set by its complete rules' hash), equal for the same question from any door."""
        return identity(KIND, game=self.game, counts=list(self.counts), budget=budget_json(self.budget),
                        arms=[[label, rules.rules_hash()] for label, rules in self.arms], playouts=self.playouts,
                        novice=self.novice, matters=margins_json(self.matters))  # fmt: skip


def ask(
    game: str | GameSpec,
    counts: Sequence[int],
    budget: Budget,
    sources: Iterable[RuleSource] = (RuleSource(),),
    *,
    playouts: int,
    novice: float,
    matters: Mapping[str, Margin] | str | Sequence[str] | None = None,
) -> Plan:
    """A skill measure's plan, checked completely before any game is played: each rule set from
    its source (as ``snakesim run`` takes one; the seats' players are the measure's own), each
    with its own label. InputError naming the field otherwise."""
    spec = spec_of(game)
    counts = tuple(counts)
    arms: dict[str, Rules] = {}
    for source in sources:
        label, rules, _ = resolve_run(spec, counts[0], Budget(1, budget.seed), source)
        if label in arms:
            raise InputError("--variant", f"{label!r} is given twice; each arm needs its own name")
        check_skill(spec, rules, list(counts), budget.games, playouts, novice=novice)
        arms[label] = rules
    return Plan(
        spec.name,
        counts,
        tuple(arms.items()),
        budget,
        playouts=playouts,
        novice=novice,
        matters=margins(matters),
    )


@dataclass(frozen=True)
class Answer:
    """A played skill measure: each rule set's result (every line-up's win rate and edge, the
    skill share by player count), how each rule set changes the edges against the first (None
    with one rule set), and the findings in words by rule set (and ``between arms``)."""

    plan: Plan
    results: dict[str, SkillResult] = field(repr=False)
    differences: pd.DataFrame | None = field(repr=False)
    findings: dict[str, list[str]]


def play(plan: Plan, *, backend=None, progress: bool = False) -> Answer:
    """Play every line-up of every rule set on the same games."""
    spec, by_figure = plan.spec, dict(plan.matters)
    margin = margin_for("win_rate", by_figure).amount
    results = {label: skill(spec, rules, list(plan.counts), plan.budget, playouts=plan.playouts, novice=plan.novice,
                            margin=margin, backend=backend, progress=progress)
               for label, rules in plan.arms}  # fmt: skip
    differences = skill_differences(results) if len(results) > 1 else None
    findings = {label: skill_findings(r.table, r.shares, matters=by_figure) for label, r in results.items()}
    if differences is not None:
        findings[BETWEEN] = skill_difference_findings(differences)
    return Answer(plan, results, differences, findings)


def summary(answer: Answer) -> dict:
    """What ``snakesim skill --json`` prints: one rule set's summary, findings and line-ups, or
    with several every rule set's, the findings by rule set and the differences."""
    if answer.differences is None:
        label, result = next(iter(answer.results.items()))
        return {**result.summary, "variant": label, "findings": answer.findings[label],
                "lineups": result.table.to_dict(orient="records")}  # fmt: skip
    arms = {name: {**r.summary, "lineups": r.table.to_dict(orient="records")} for name, r in answer.results.items()}
    return {"game": answer.plan.game, "variants": list(answer.results), "arms": arms, "findings": answer.findings,
            "differences": answer.differences.to_dict(orient="records")}  # fmt: skip


# A skill measure's own figures, in a study's rows: (id, words, unit).
WIN_RATE = ("win_rate", "the odd player's win rate, at each seat in turn", "fraction")
EDGE = ("edge", "the odd player's win rate minus a field player's at the same seats", "fraction")
SHARE = ("skill_share", "the expert's edge as a share of what seeing every card is worth", "fraction")
RELATIVE = (
    ("basic_edge", "careful play's edge among random players, relative to its fair share", "fair shares"),
    ("relative_edge", "the expert's edge among careful players, relative to its fair share", "fair shares"),
)


def rows(answer: Answer) -> pd.DataFrame:
    """A study's ``summary.csv`` rows (:mod:`snakesim.questions.rows`), rule set by rule set:
    each line-up's win rate and edge with their intervals, then by player count the skill share
    (its verdict in ``status``) and the relative edges (where the game has them: not NaN)."""
    import pandas as pd

    found = []
    for label, result in answer.results.items():
        for r in result.table.itertuples():
            row = {"rules": label, "players": r.players, "lineup": f"{r.player} among {r.field}", "games": r.games}
            found.append({**row, **_figure(WIN_RATE), "value": r.win_rate, "low": r.win_low, "high": r.win_high})
            if r.player != r.field:
                found.append({**row, **_figure(EDGE), "value": r.edge, "low": r.edge_low, "high": r.edge_high,
                              "p_value": r.edge_p})  # fmt: skip
        for r in result.shares.to_dict("records"):
            row = {"rules": label, "players": r["players"], "games": answer.plan.budget.games}
            found.append({**row, **_figure(SHARE), "value": r.get("skill_share"), "low": r.get("low"),
                          "high": r.get("high"), "status": r["verdict"]})  # fmt: skip
            found += [{**row, **_figure(f), "value": r[f[0]]} for f in RELATIVE if r.get(f[0]) == r.get(f[0])]
    return tidy(KIND, pd.DataFrame(found))


def _figure(f: tuple[str, str, str]) -> dict:
    metric, label, unit = f
    return {"metric": metric, "label": label, "unit": unit}


# ---------------------------------------------------------------------------- in words
# A skill line-up (field, odd player's kind) in words: the player, and what its edge measures.
LINEUP_WORDS = {
    ("random", "greedy"): ("one careful player among random ones", "careful play among random players"),
    ("greedy", "random"): ("one random player among careful ones", "random play among careful players"),
    ("greedy", "expert"): ("one player who thinks ahead among careful ones", "thinking ahead among careful players"),
    ("greedy", "oracle"): (
        "one player who sees every card among careful ones",
        "seeing every card among careful players",
    ),
    ("greedy", "novice"): ("one novice among careful players", "a novice's mistakes among careful players"),
}


def skill_findings(table: pd.DataFrame, shares: pd.DataFrame, matters: Mapping | None = None) -> list[str]:
    """A skill measurement (``SkillResult``) in words: each player count's verdict, then each odd
    player's edge in percentage points over a field player at the same seats (paired 95% intervals),
    called a change only where it is as large as matters (the win rate's margin, 1 percentage point
    unless ``matters`` says otherwise), about as often where it is smaller, and undecided else."""
    from snakesim.analysis.verdicts import margin_for

    margin = margin_for("win_rate", matters).amount
    out = []
    words = {lineup: who for lineup, (who, _) in LINEUP_WORDS.items()}
    for row in shares.itertuples():
        lines = table[(table["players"] == row.players) & (table["player"] != table["field"])]
        text = f"{row.players} players: {row.verdict}"
        if row.skill_share == row.skill_share:
            text += (
                f"; thinking ahead captures {percent(row.skill_share, 0)} [{percent(row.low, 0)}, "
                f"{percent(row.high, 0)}] of what seeing every card is worth"
            )
        out.append(text + ".")
        for r in lines.itertuples():
            who = words.get((r.field.partition(":")[0], _kind(r.player)))
            if who is None:
                continue
            places = max(1, points(r.edge_low, r.edge_high))
            ci = signed(r.edge, r.edge_low, r.edge_high, places, 100)
            said = verdict(r.edge_low, r.edge_high, margin)
            size = f"{100 * margin:g} percentage point" + ("" if margin == 0.01 else "s")
            word = "more" if r.edge > 0 else "less"
            if said == MATTERS:
                text = (f"{who.capitalize()} wins {100 * abs(r.edge):.{places}f} percentage points {word} often than a "
                        f"field player at the same seats ({ci} percentage points)")  # fmt: skip
            elif said == NEGLIGIBLE:
                text = (f"{who.capitalize()} wins about as often as a field player at the same seats, within {size} "
                        f"({ci} percentage points)")  # fmt: skip
            elif r.edge_low <= 0 <= r.edge_high:  # (not even its direction is shown)
                text = (f"{who.capitalize()} wins {100 * abs(r.edge):.{places}f} percentage points {word} often than a "
                        f"field player at the same seats by estimate ({ci} percentage points), but these games cannot "
                        f"tell whether it wins {word} often at all, nor by as much as matters ({size})")  # fmt: skip
            else:
                text = (f"{who.capitalize()} wins {100 * abs(r.edge):.{places}f} percentage points {word} often than a "
                        f"field player at the same seats ({ci} percentage points), but these games cannot tell "
                        f"whether by as much as matters ({size})")  # fmt: skip
            # (the field player's share is its own win rate in those seats, not an equal share)
            out.append(f"{text}: {percent(r.win_rate, places)} of games, where a field player in its seats wins "
                       f"{percent(r.fair_share, places)}.")  # fmt: skip
    return out


def skill_difference_findings(differences: pd.DataFrame) -> list[str]:
    """How each rule set changes what playing well is worth against the first rule set
    (``skill.skill_differences``): a change only where its Holm-adjusted test finds it."""
    words = {lineup: what for lineup, (_, what) in LINEUP_WORDS.items()}
    out = []
    for (arm, n), rows in differences.groupby(["arm", "players"], sort=False):
        moved = []
        for r in rows.itertuples():
            what = words.get((r.field.partition(":")[0], _kind(r.player)))
            if what is None:
                continue
            places = max(1, points(r.diff_low, r.diff_high))
            change = (
                f"{fixed(100 * r.base_edge, places, True)} -> {fixed(100 * r.edge, places, True)} percentage points "
                f"({signed(r.diff, r.diff_low, r.diff_high, places, 100)}, Holm p {p_text(r.p_holm)})"
            )  # fmt: skip
            if r.p_holm < ALPHA:
                moved.append(f"{what} is worth {'more' if r.diff > 0 else 'less'}: {change}")
            else:
                moved.append(f"{what}: no change found, {change}")
        if moved:
            out.append(f"{arm}, {n} players: " + "; ".join(moved) + ".")
    return out


def _kind(player: str) -> str:
    name, _, rate = player.partition(":")
    return "novice" if name == "greedy" and rate else name
