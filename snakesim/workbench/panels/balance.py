"""The balance panel: one rule set, a per-seat option (the handicap) and how fair is fair;
``balance`` searches the handicap that gives every seat the same chance, then checks it on
fresh games, exactly as ``snakesim balance`` does.

Its request::

    {"kind": "balance", "game": "fortune", "players": 4, "games": 20000, "seed": 1,
     "feel": false, "lineup": null, "arm": {"name": "standard", "toml": "", "policies": null},
     "handicap": "start_coins", "tolerance": 0.01}

``games`` is the games per try: the search plays up to 4 times as many per candidate, and the
check 5 times as many fresh games, as the command line's ``--max-games`` and
``--confirm-games``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from snakesim.core.arms import Budget
from snakesim.core.errors import InputError
from snakesim.core.rules import Int, inline
from snakesim.workbench.answers import saved

if TYPE_CHECKING:
    from snakesim.workbench.plans import RunPlan

KIND = "balance"
NOUN = "search for a fair handicap"
SCRIPT = "panel-balance.js"
COUNTS_WORK = False  # (a search: its games are not known ahead)
# A balance plays rounds of candidates, then fresh games: its games per try may be at most
# this share of a request's games.
SHARE = 50


def _budget(plan: RunPlan) -> Budget:
    games = plan.games
    return Budget(games, plan.seed, max_games=4 * games, confirm_games=5 * games)


def rule_sets(request: dict, limits) -> tuple[list[Any], int]:
    """The one rule set to balance, and the games per try."""
    games = Int(100, max(100, limits.max_games // SHARE)).check("games", request.get("games", 20_000))
    return [request.get("arm")], games


def complete(plan: RunPlan) -> int:
    """The balance question (``plan.question``): the handicap (a per-seat option of the game)
    and the tolerance, checked as ``balance`` checks them; a search's games are not known ahead
    (0)."""
    from snakesim.questions import balance as question

    spec, request = plan.spec, plan.request
    handicap = request.get("handicap")
    if not isinstance(handicap, str):
        raise InputError("handicap", f"expected one of {', '.join(spec.rules.per_seat_options())}")
    try:
        plan.question = question.ask(spec, plan.players, handicap, _budget(plan), plan.arms[0],
                                        tolerance=request.get("tolerance", 0.01))  # fmt: skip
    except InputError as err:  # (named as the page names them, not as command-line options)
        raise InputError(err.field.lstrip("-"), err.message) from None
    return 0


def describe(request: dict) -> str:
    """What a run of this panel plays, in words: the rule set and handicap."""
    return f"a fair {request.get('handicap')} for {(request.get('arm') or {}).get('name', 'a rule set')}"


def play(plan: RunPlan, backend) -> dict:
    """Search the handicap and check it; the findings, the values found, the chart."""
    from snakesim.questions import balance as question
    from snakesim.report.charts import balance_chart

    asked = plan.question
    answer = question.play(asked, backend=backend, kept=plan.kept)
    result = answer.result
    return {
        "findings": [{"arm": None, "text": t} for t in answer.findings] + saved(result.summary),
        "status": result.status,
        "message": result.message,
        "values": list(result.values),
        "base": list(result.base),
        "handicap": asked.handicap,
        "tolerance": asked.tolerance,
        "charts": [balance_chart(result, asked.handicap)],
        # (the recommended values as a rule set the page can add and compare, whatever the status:
        # a family may want to play it even where it is not fair as asked)
        "toml": asked.rules.updated({asked.handicap: list(result.values)}).to_toml(),
    }


def command_args(plan: RunPlan) -> list[str]:
    """The options of its command line past the common ones (game, players, seed, rule sets)."""
    asked = plan.question
    return ["--handicap", asked.handicap, "--tolerance", str(asked.tolerance),
            "--max-games", str(asked.budget.max_games), "--confirm-games", str(asked.budget.confirm_games)]  # fmt: skip


def question(plan: RunPlan) -> str:
    """The question a study file of this run asks, in a sentence."""
    asked = plan.question
    return f"Which {asked.handicap} per seat gives every seat of a {asked.players}-player game the same chance?"


def study(plan: RunPlan) -> list[str]:
    """A study's ``[[balance]]`` section: the rule set as its settings, the handicap, the
    tolerance and the budget."""
    arm, asked = plan.tables[0], plan.question
    players, budget = asked.players, asked.budget
    heading = f"Balance {asked.handicap} of {arm['name']}, {players} players"
    feel = [] if plan.shared.options.get("feel", True) else ["feel=false"]
    lines = ["[[balance]]", f"title = {inline(heading)}",
             f"players = {players}", f"games = {budget.games}", f"max_games = {budget.max_games}",
             f"confirm_games = {budget.confirm_games}", f"handicap = {inline(asked.handicap)}",
             f"tolerance = {asked.tolerance}"]  # fmt: skip
    if arm["set"] or feel:
        lines.append(f"set = {inline(arm['set'] + feel)}")
    if arm.get("policies"):
        lines.append(f"policies = {inline(arm['policies'])}")
    return lines


def report(job, arms_shown: bool) -> tuple[list[str], list[dict]]:
    """The report's fair handicap: what was balanced and how, the rule set (unless shown
    already), the findings and the chart."""
    from snakesim.workbench.rulesets import arms_text, findings_text

    result, request = job.result, job.request
    parts = ["## A fair handicap", "",
             f"{result['handicap']} per seat for **{request['arm']['name']}**, fair meaning every seat within "
             f"{100 * result['tolerance']:g} percentage points of the average seat's chance; "
             f"{request['games']:,} games per try, then fresh games.", ""]  # fmt: skip
    if not arms_shown:
        parts += [*arms_text(result["arms"]), ""]
    parts += [*findings_text(result["findings"]), "", f"CHARTS-{KIND}", ""]
    return parts, result["charts"]
