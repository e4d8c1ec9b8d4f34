"""Balance, asked once: the per-seat values of a handicap that give every seat the same chance.

``snakesim balance``, ``snakesim.balance``, a study's ``[[balance]]`` section and the
workbench's balance panel each turn what they were given into one :class:`Plan` (:func:`ask`
checks it, with one error text for every door), play it (:func:`play`) and show a view of its
:class:`Answer`: :func:`summary` is what ``--json`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from snakesim.analysis.balance import balance, check_balance, check_novices
from snakesim.analysis.words import points
from snakesim.core.arms import Arm, Budget, RuleSource
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Rules
from snakesim.questions.base import Question, budget_json, identity, rule_set, spec_of
from snakesim.questions.rows import seat_rows, tidy

if TYPE_CHECKING:
    import pandas as pd

    from snakesim.analysis.balance import BalanceResult

KIND = "balance"


@dataclass(frozen=True)
class Plan(Question):
    """Every input a balance search's answer depends on, checked (build one with :func:`ask`):
    the rule set (its ``label``, ``rules`` and each seat's player), the per-seat option to set
    seat by seat (``handicap``), how far a seat may stay from the average seat (``tolerance``),
    the values a seat may get (``value_range``, None: around the starting values), the games
    (``budget``: each candidate's first round, the most a candidate gets, the fresh games) and
    the novices' mistake rate to check the answer with (None: no check)."""

    players: int
    label: str
    rules: Rules
    seats: tuple[str, ...]
    handicap: str
    budget: Budget
    tolerance: float = 0.01
    value_range: str | None = None
    novices: float | None = None

    def key(self) -> str:
        """The question's identity: 16 hex digits of SHA-256 of its canonical JSON (the rule set
        by its complete rules' hash), equal for the same question from any door."""
        return identity(KIND, game=self.game, players=self.players, label=self.label, rules=self.rules.rules_hash(),
                        seats=list(self.seats), handicap=self.handicap, budget=budget_json(self.budget),
                        tolerance=self.tolerance, range=self.value_range, novices=self.novices)  # fmt: skip


def ask(
    game: str | GameSpec,
    players: int,
    handicap: str,
    budget: Budget,
    source: RuleSource | Arm = RuleSource(),
    *,
    tolerance: float = 0.01,
    value_range: str | None = None,
    novices: float | None = None,
) -> Plan:
    """A balance search's plan, checked completely before any game is played.

    ``source`` is where the rules and players come from (as ``snakesim run`` takes them), or a
    rule set already built (an :class:`~snakesim.core.arms.Arm`, the workbench's). InputError
    naming the field otherwise.
    """
    spec = spec_of(game)
    label, rules, seats = rule_set(spec, players, budget.seed, source)
    check_balance(spec, rules, players, handicap, budget, tolerance=tolerance, value_range=value_range)
    return Plan(spec.name, players, label, rules, tuple(seats), handicap=handicap, budget=budget, tolerance=tolerance,
                value_range=value_range, novices=check_novices(spec, novices))  # fmt: skip


@dataclass(frozen=True)
class Answer:
    """A played balance search: the analysis's result (values, status, message, the path and
    the fresh games) and its findings in words."""

    plan: Plan
    result: BalanceResult = field(repr=False)
    findings: list[str]


def play(plan: Plan, *, backend=None, progress: bool = False, kept=None) -> Answer:
    """Search the handicap on the same games for every candidate and confirm it on fresh ones."""
    result = balance(plan.spec, plan.rules, plan.players, plan.handicap, plan.seats, budget=plan.budget,
                     tolerance=plan.tolerance, value_range=plan.value_range, backend=backend, progress=progress,
                     novices=plan.novices, kept=kept)  # fmt: skip
    return Answer(plan, result, balance_findings(result.summary))


def summary(answer: Answer) -> dict:
    """What ``snakesim balance --json`` prints: the search's summary, the rule set's label, the
    findings and every candidate tried."""
    result = answer.result
    return {**result.summary, "variant": answer.plan.label, "findings": answer.findings,
            "path": result.path.to_dict(orient="records")}  # fmt: skip


def rows(answer: Answer) -> pd.DataFrame:
    """A study's ``summary.csv`` rows (:mod:`snakesim.questions.rows`): each seat's win rate,
    the seat balance test and the largest seat gap on the fresh games, as written and with the
    recommended handicap (and with novices where they were checked), then each candidate the
    search played with its seats' win rates on the search's games."""
    import pandas as pd

    from snakesim.core.figures import BY_ID
    from snakesim.core.rules import inline

    s, plan = answer.result.summary, answer.plan
    balanced, gap = BY_ID["seat_balance"], BY_ID["seat_gap"]

    def rules(values) -> dict:
        return {"rules": f"{plan.handicap}={inline(list(values))}",
                "rules_hash": plan.rules.updated({plan.handicap: list(values)}).rules_hash()}  # fmt: skip

    def fresh(checked: dict, lineup: str) -> list[dict]:
        out = []
        for status, values, c in (("as written", s["base"], checked["before"]), ("recommended", s["values"],
                                                                                   checked["after"])):  # fmt: skip
            row = {**rules(values), "lineup": lineup, "games": c["games"], "fresh": True, "status": status}
            out += [{**row, **seat} for seat in seat_rows(c["win_rate"], c["win_ci"])]
            out.append({**row, "metric": balanced.id, "label": balanced.label, "value": c["balance_p"],
                        "unit": "p-value"})  # fmt: skip
            out.append({**row, "metric": gap.id, "label": gap.label, "value": c["gap"][0], "low": c["gap"][1],
                        "high": c["gap"][2], "unit": "fraction"})  # fmt: skip
        return out

    found = fresh(s, "") + (fresh(s["novices"], "novices") if s["novices"] is not None else [])
    for step in answer.result.path.itertuples():
        row = {**rules(step.values), "games": step.games, "fresh": False, "status": "candidate"}
        found += [{**row, **seat} for seat in seat_rows([getattr(step, f"win_{k}") for k in range(plan.players)])]
    return tidy(KIND, pd.DataFrame(found).assign(players=plan.players))


# ---------------------------------------------------------------------------- in words
def _gap(c: dict) -> str:
    g, lo, hi = c["gap"]
    places = max(1, points(lo, hi))
    return f"{100 * g:.{places}f} [{100 * lo:.{places}f}, {100 * hi:.{places}f}] percentage points"


def balance_findings(s: dict) -> list[str]:
    """A balance search (``BalanceResult.summary``) in words: what to play, and what the fresh
    games show. The seats are called fair within the tolerance only when the fresh games show
    every seat within it of the average seat at once (``status`` balanced); otherwise the
    sentence says how close the handicap came. Chances are in percentage points, never plain
    points, which a handicap such as ``start_points`` counts in."""
    option, values, base = s["handicap"], s["values"], s["base"]
    before, after = s["before"]["gap"], s["after"]["gap"]
    tolerance = f"{100 * s['tolerance']:g} percentage point{'' if s['tolerance'] == 0.01 else 's'}"
    out = []
    if list(values) == list(base):
        out.append(f"Keep {option} as it is ({_inline(base)}): no handicap found evens the seats further.")
    elif len(set(values)) == 1 and len(set(base)) == 1:
        out.append(f"The search recommends {option} = {_inline(values)} instead of {_inline(base)}: the same for "
                   "every seat, a change of the game rather than a handicap between the seats.")  # fmt: skip
    else:
        out.append(f"The search recommends {option} = {_inline(values)} instead of {_inline(base)}.")
    fresh = (
        f"On {s['confirm']['games']:,} fresh games the largest gap between two seats' chances of winning goes from "
        f"{_gap(s['before'])} to {_gap(s['after'])}"
    )
    unshown = (
        f"these games do not show every seat within {tolerance} of the average seat's chance (the furthest is "
        f"{100 * s['fresh_max_deviation']:.1f} percentage points off by estimate)"
    )
    if after[1] > before[2]:
        out.append(fresh + ": the handicap makes the seats less even there, so keep the rules as they are.")
    elif s["status"] == "not balanced":  # (settled on the fresh games: more games would not change it)
        off = (f"a seat stays surely more than {tolerance} off the average seat's chance "
               f"({100 * s['fresh_max_deviation']:.1f} percentage points by estimate): not fair within that "
               "tolerance")  # fmt: skip
        closer = ": the handicap brings the seats closer, but " if after[2] < before[1] else ": "
        out.append(fresh + closer + off + ".")
    elif s["status"] == "within tolerance by estimate" and (s.get("search") or {}).get("status") == "balanced":
        out.append(fresh + f": the search's games show every seat within {tolerance}, but {unshown}; more fresh games "
                   "(--confirm-games) would tell.")  # fmt: skip
    elif s["status"] == "balanced":
        out.append(fresh + f": every seat is within {tolerance} of the average seat's chance, fair within that "
                   "tolerance.")  # fmt: skip
    elif after[2] < before[1]:
        out.append(fresh + f": the handicap brings the seats closer, but {unshown}; more games would tell.")
    elif list(values) != list(base):
        out.append(fresh + f": a difference these games cannot tell from noise, so keep the rules as they are; "
                   f"{unshown}.")  # fmt: skip
    else:
        out.append(fresh + f"; {unshown}.")
    search = s.get("search") or {}
    if s["status"] != "balanced" and search.get("status") == "undecided":  # (the search's own open question)
        out.append(f"Whether other values of {option} could meet the tolerance, {search['games_per_candidate']:,} "
                   "games per candidate could not tell (raise --max-games).")  # fmt: skip
    if s.get("novices") is not None:
        n = s["novices"]
        word = "holds" if n["holds"] else "does not hold"
        out.append(
            f"With novice players the handicap {word}: largest gap {_gap(n['before'])} before, "
            f"{_gap(n['after'])} after."
        )
    return out


def _inline(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]" if isinstance(values, list | tuple) else str(values)
