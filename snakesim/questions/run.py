"""A run, asked once: many games of one rule set, summarised.

``snakesim run`` and ``snakesim.simulate`` turn what they were given into one :class:`Plan`
(:func:`ask` checks it, with one error text for both), play it (:func:`play`) and show a view of
its :class:`Answer`: :func:`summary` is what ``run --json`` prints, :func:`findings` its words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from snakesim.analysis.stats import SUMMARY_META, summarize, summary_of
from snakesim.analysis.words import SAME, decimals, handicaps, number, percent, points, seat_sentence
from snakesim.core.arms import Arm, Budget, RuleSource, check_run
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Rules
from snakesim.core.runner import run_metadata, simulate_spec, tally_spec
from snakesim.questions.base import Question, budget_json, identity, rule_set, spec_of
from snakesim.questions.compare import mixed, set_apart
from snakesim.questions.rows import seat_rows, tidy

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

    from snakesim.core.store import RunStore

KIND = "run"


@dataclass(frozen=True)
class Plan(Question):
    """Every input a run's answer depends on, checked (build one with :func:`ask`): the players,
    the rule set (its ``label``, ``rules`` and each seat's player) and the games (``budget``:
    its block size changes no game)."""

    players: int
    label: str
    rules: Rules
    seats: tuple[str, ...]
    budget: Budget

    def key(self) -> str:
        """The question's identity: 16 hex digits of SHA-256 of its canonical JSON (the rule set
        by its complete rules' hash), equal for the same question from any door."""
        return identity(KIND, game=self.game, players=self.players, label=self.label, rules=self.rules.rules_hash(),
                        seats=list(self.seats), budget=budget_json(self.budget))  # fmt: skip

    def metadata(self) -> dict:
        """The run's metadata, as every table and run folder records it."""
        return run_metadata(self.spec, self.label, self.rules, self.players, self.budget, policies=self.seats)


def ask(game: str | GameSpec, players: int, budget: Budget, source: RuleSource | Arm = RuleSource()) -> Plan:
    """A run's plan, checked completely before any game is played: the rules and players from
    ``source`` (as ``snakesim run`` takes them), or a rule set already built (an
    :class:`~snakesim.core.arms.Arm`). InputError naming the field otherwise."""
    spec = spec_of(game)
    label, rules, seats = rule_set(spec, players, budget.seed, source)
    check_run(spec, rules, players, budget)  # (its games, seed and first game)
    return Plan(spec.name, players, label, rules, tuple(seats), budget=budget)


@dataclass(frozen=True)
class Answer:
    """A played run: its summary (:func:`snakesim.analysis.stats.summary_of`), its per-game
    table where it was kept (None otherwise), its findings in words and the games read back from
    a run folder instead of played (``resumed``)."""

    plan: Plan
    summary: dict
    table: pd.DataFrame | None = field(repr=False)
    findings: list[str]
    resumed: int = 0


def play(plan: Plan, *, backend=None, threads: int | None = None, progress: bool = False, table: bool = False,
         store: RunStore | None = None, summary_only: bool = False) -> Answer:  # fmt: skip
    """Play the run. With ``table`` the per-game table is kept (and summarised); else only the
    mergeable sums are kept in memory, whatever the run's size. ``store`` (a run folder) keeps
    every finished block, so the same plan resumes an interrupted run: per-game tables, or with
    ``summary_only`` only their sums."""
    spec, budget = plan.spec, plan.budget
    if table:
        df = games(plan, backend=backend, threads=threads, progress=progress, store=store)
        summary = summarize(df, spec=spec)
    else:
        df = None
        tally = tally_spec(spec, plan.rules, plan.players, budget, progress=progress, policies=plan.seats,
                           backend=backend, store=store, tables=store is not None and not summary_only)  # fmt: skip
        meta = plan.metadata()
        summary = summary_of(tally, list(spec.outcomes), {k: meta[k] for k in SUMMARY_META})
    resumed = store.resumed_games if store is not None else 0
    apart = set_apart(plan.seats, handicaps(plan.rules.to_dict(), spec))
    return Answer(plan, summary, df, findings(summary, spec, apart, lineup=mixed(plan.seats)), resumed=resumed)


def games(plan: Plan, *, backend=None, threads: int | None = None, progress: bool = False,
          store: RunStore | None = None) -> pd.DataFrame:  # fmt: skip
    """The run's per-game table (its metadata in ``attrs``), played: what ``snakesim.simulate``
    returns."""
    return simulate_spec(plan.spec, plan.rules, plan.players, plan.budget, plan.label, threads=threads,
                         progress=progress, policies=plan.seats, backend=backend, store=store)  # fmt: skip


def summary(answer: Answer) -> dict:
    """What ``snakesim run --json`` prints of the answer: the summary and the findings."""
    return {**answer.summary, "findings": answer.findings}


def rows(answer: Answer) -> pd.DataFrame:
    """The run's rows in the shape every kind's share (:mod:`snakesim.questions.rows`): each
    seat's win rate, the draws, the unfinished games and the mean length, with their intervals."""
    import pandas as pd

    from snakesim.core.figures import BY_ID

    s, plan = answer.summary, answer.plan
    length = BY_ID["length"]
    found = seat_rows(s["win_rate"], s["win_ci"])
    for name in ("draw", "unfinished"):
        low, high = s[f"{name}_ci"]
        found.append({"metric": name, "label": BY_ID[name].label, "value": s[f"{name}_rate"], "low": low, "high": high,
                      "unit": "fraction"})  # fmt: skip
    low, high = s["length"]["mean_ci"]
    found.append({"metric": length.id, "label": length.text(plan.spec, None), "value": s["length"]["mean"], "low": low,
                  "high": high, "unit": plan.spec.length_unit})  # fmt: skip
    out = pd.DataFrame(found).assign(rules=plan.label, rules_hash=plan.rules.rules_hash(), players=plan.players,
                                     games=s["games"])  # fmt: skip
    return tidy(KIND, out)


# ---------------------------------------------------------------------------- in words
def findings(s: dict, spec: GameSpec, apart: Mapping[int, str] | None = None, lineup: bool = False) -> list[str]:
    """The findings of one run's summary (``snakesim.analysis.stats.summary_of``), in words.

    Who wins from which seat (a seat is said to be favoured or behind only when its win rate's
    interval, at the level that holds for every seat at once (Bonferroni), leaves out an equal
    share of the games somebody won), how long a game lasts, draws, and the game-feel figures
    where they were recorded. A seat a handicap or its player sets apart (``apart``,
    :func:`~snakesim.questions.compare.set_apart`) is named with it; with different kinds of player
    (``lineup``) the players' chances are said to differ, not the seats'.
    """
    games, players = s["games"], s["players"]
    game = f"{players}-player {spec.name.capitalize()}"
    out = [seat_sentence(s["win_rate"], s["win_ci"], games, players, s["level"], apart=apart, lineup=lineup)]
    n = s["length"]
    unit = spec.length_unit
    if n["mean_ci"][1] - n["mean_ci"][0] < SAME and n["median"] == n["max"]:
        out.append(f"Every {game} game lasts {number(n['mean'], 0)} {unit}.")
    elif not n.get("mean_is_lower_bound"):
        lp = decimals(n["mean_ci"][1] - n["mean_ci"][0])
        out.append(
            f"A game lasts {number(n['mean'], lp)} {unit} on average [{number(n['mean_ci'][0], lp)}, "
            f"{number(n['mean_ci'][1], lp)}]; half are over by {n['median']:g} and one in twenty lasts "
            f"{n['p95']:g} or more."
        )
    draws = s["outcomes"].get("draw")
    if draws and draws["count"]:
        dp = points(*draws["ci"])
        out.append(
            f"{percent(draws['rate'], dp)} of games are drawn [{percent(draws['ci'][0], dp)}, "
            f"{percent(draws['ci'][1], dp)}]."
        )
    f = s.get("feel")
    if f:
        lead, back, known = f["lead_changes"], f["comeback"], f["leader_wins_q2"]
        lp, bp, kp = decimals(lead["ci"][1] - lead["ci"][0]), points(*back["ci"]), points(*known["ci"])
        text = (
            f"The lead changes hands {number(lead['mean'], lp)} times a game [{number(lead['ci'][0], lp)}, "
            f"{number(lead['ci'][1], lp)}]; {percent(back['rate'], bp)} of winners were behind at half time "
            f"[{percent(back['ci'][0], bp)}, {percent(back['ci'][1], bp)}]"
        )
        if known["games"]:
            text += (
                f"; the seat alone in front half-way goes on to win {percent(known['rate'], kp)} of the time "
                f"[{percent(known['ci'][0], kp)}, {percent(known['ci'][1], kp)}]"
            )
        out.append(text + ".")
        tie = f.get("tie_break")  # (a game with a tie-break only)
        if tie and tie["games"]:
            tp = points(*tie["ci"])
            out.append(
                f"The tie-break chooses the winner in {percent(tie['rate'], tp)} of won games "
                f"[{percent(tie['ci'][0], tp)}, {percent(tie['ci'][1], tp)}]."
            )
        if "out_share" in f:
            o = f["out_share"]
            op = points(*o["ci"])
            if o["ci"][1] <= 0:  # (2 players: a game ends when one goes out)
                out.append("In none of these games does a player sit out waiting for the game to end.")
            else:
                out.append(
                    f"Players who are out spend {percent(o['mean'], op)} of the game waiting "
                    f"[{percent(o['ci'][0], op)}, {percent(o['ci'][1], op)}]."
                )
    return out
