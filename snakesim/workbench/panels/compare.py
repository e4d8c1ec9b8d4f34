"""The comparison panel: every rule set the page lists plays games ``0 .. games-1`` of the
seed through ``compare_variants``, exactly as ``snakesim compare`` does, and the page shows
what each changes from the first.

Its request::

    {"kind": "compare", "game": "rainbow", "players": 3, "games": 100000, "seed": 1,
     "feel": true, "lineup": ["greedy", "random", "greedy"], "matters": "length=3%",
     "arms": [{"name": "original rules", "toml": "...", "policies": null}, ...]}

``matters`` (optional) is the smallest differences that matter, as ``--matters`` takes them.
With ``precision`` (and ``max_games``), the run settles what an earlier one left undecided: it
plays blocks of ``games`` until the rate differences' anytime-valid intervals are that narrow,
as ``compare --precision --precise differences`` does (its result's ``settle`` says how).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from snakesim.analysis.verdicts import parse_matters
from snakesim.core.arms import Budget
from snakesim.core.errors import InputError
from snakesim.core.rules import Int, inline

if TYPE_CHECKING:
    from snakesim.workbench.plans import RunPlan

KIND = "compare"
NOUN = "comparison"
SCRIPT = "panel-compare.js"
COUNTS_WORK = True  # (each rule set's games are known before it plays)

DETAILS_NOTE = (
    "For the statistically minded. Each value has its 95% interval; each difference from the first rule set is "
    "paired game by game, its interval drawn at the level of its step of Holm's correction for comparing many "
    "figures at once (p(Holm) is its adjusted p-value, * below 0.05); pairing xR: the paired interval is R times "
    "as wide as two separate runs' would be; pp: percentage points; Kaplan-Meier: the length by which a share "
    "of the games is over, counting unfinished games fairly; seat balance p: the chance of seats this uneven if "
    "every seat were equal. Each difference ends with its verdict against the smallest difference that matters: "
    "matters (its interval lies beyond it), negligible (inside it) or undecided (across it)."
)


def rule_sets(request: dict, limits) -> tuple[list[Any], int]:
    """The rule sets to compare (1 to ``limits.max_arms``) and the games each plays (so many
    that the request stays within ``limits.max_games``)."""
    arms = request.get("arms")
    if not isinstance(arms, list) or not 1 <= len(arms) <= limits.max_arms:
        raise InputError("arms", f"expected a list of 1 to {limits.max_arms} rule sets")
    most = limits.max_games // len(arms)
    if most < 1:
        raise InputError("arms", f"this server plays at most {limits.max_games:,} games per request")
    return arms, Int(1, most).check("games", request.get("games", 100_000))


def complete(plan: RunPlan) -> int:
    """The comparison's question (``plan.question``): what matters, and the anytime-valid
    stopping of a run that settles an earlier one; every rule set plays the plan's games (not
    known ahead when it stops by precision: 0)."""
    from snakesim.questions import compare as question

    request = plan.request
    matters = request.get("matters") or ""
    if not isinstance(matters, str):
        raise InputError("matters", f"expected text such as 'length=3%,lead_changes=0.25', got {matters!r}")
    margins = parse_matters(matters, "matters")
    plan.matters_text = matters.strip()
    precision, most = request.get("precision"), None
    if precision is not None:
        if isinstance(precision, bool) or not isinstance(precision, int | float) or not 0 < precision < 0.5:
            raise InputError("precision", f"expected a half-width above 0 and below 0.5, got {precision!r}")
        cap = plan.limits.max_games // len(plan.arms)
        most = request.get("max_games")
        most = Int(plan.games, cap).check("max_games", most if most is not None else plan.games)
        precision = float(precision)
    budget = Budget(plan.games, plan.seed, precision=precision, max_games=most)
    plan.question = question.ask(plan.spec, plan.players, plan.arms, budget, matters=margins,
                                    precise=("differences",), where="arms")  # fmt: skip
    return 0 if precision is not None else plan.games * len(plan.arms)


def describe(request: dict) -> str:
    """What a run of this panel plays, in words: the rule sets."""
    arms, games = request.get("arms") or [], request.get("games")
    return f"{len(arms)} rule set{'s' if len(arms) != 1 else ''}, " + (
        f"{games:,} games each" if isinstance(games, int) else "its games"
    )


def play(plan: RunPlan, backend) -> dict:
    """Play the comparison; the findings, every figure a row, the charts and the note on the
    details."""
    from snakesim.analysis.words import ALPHA
    from snakesim.questions import compare as question
    from snakesim.questions.compare import hidden_metrics, row_text
    from snakesim.report.charts import comparison_charts

    answer = question.play(plan.question, backend=backend)
    table = answer.table
    shown = table[~table["metric"].isin(hidden_metrics(table))]
    rows = []
    for r in shown.to_dict(orient="records"):
        value, diff = row_text(r)
        rows.append({"arm": r["variant"], "metric": r["metric"], "label": r["label"], "value": value, "diff": diff,
                     "verdict": r["verdict"],
                     "significant": bool(r["p_holm"] == r["p_holm"] and r["p_holm"] < ALPHA)})  # fmt: skip
    return {
        "findings": answer.findings,
        "rows": rows,
        "charts": comparison_charts(answer.plan.spec, answer.plan.players, table, answer.tables),
        "details_note": DETAILS_NOTE,
        "games": answer.games,
        "settle": answer.settle,
    }


def command_args(plan: RunPlan) -> list[str]:
    """The options of its command line past the common ones (game, players, seed, rule sets)."""
    out = ["--matters", plan.matters_text] if plan.matters_text else []
    budget = plan.question.budget
    if budget.precision is not None:
        out += ["--precision", f"{budget.precision:g}", "--precise", "differences", "--max-games",
                str(budget.max_games)]  # fmt: skip
    return out


def question(plan: RunPlan) -> str:
    """The question a study file of this run asks, in a sentence."""
    return f"What do these rules do to a {plan.players}-player game of {plan.spec.name.title()}?"


def study(plan: RunPlan) -> list[str]:
    """A study's ``[[compare]]`` section: the players, games and line-up, each rule set as
    the settings that make it."""
    players, lineup = plan.players, list(plan.lineup)
    lines = ["[[compare]]", f'title = "{players} players"', f"players = {players}", f"games = {plan.games}"]
    if not plan.feel:
        lines.append(f"set = {inline(['feel=false'])}")
    if lineup:
        lines.append(f"policies = {inline(lineup)}")
    for arm in plan.tables:
        lines += ["", "[[compare.arms]]", f"name = {inline(arm['name'])}"]
        if arm["set"]:
            lines.append(f"set = {inline(arm['set'])}")
        if arm.get("policies") and list(arm["policies"]) != lineup:
            lines.append(f"policies = {inline(arm['policies'])}")
    return lines


def report(job, arms_shown: bool) -> tuple[list[str], list[dict]]:
    """The report's comparison: how it was played, the rule sets, the findings, the charts and
    every figure (a row a figure, a column a rule set)."""
    from snakesim.report.page import markdown_table
    from snakesim.workbench.rulesets import arms_text, findings_text

    result, request = job.result, job.request
    parts = [f"Seed {request.get('seed', 1)}, {request.get('games'):,} games for each rule set; every rule set "
             "plays the same games (game i is dealt from the same shuffle in each), so the differences are "
             "the rules'. Numbers in [brackets] are the range the true figure lies in, 95% sure (surer where "
             "several figures are compared at once).", ""]  # fmt: skip
    parts += ["## The rule sets", "", *arms_text(result["arms"]), "", "## What the rules do", ""]
    parts += [*findings_text(result["findings"]), "", f"CHARTS-{KIND}", ""]
    if result.get("rows"):
        import pandas as pd

        rows = pd.DataFrame(result["rows"])
        rows["cell"] = [v + (f"; {d}" if d else "") for v, d in zip(rows["value"], rows["diff"], strict=True)]
        wide = rows.pivot_table(index="label", columns="arm", values="cell", aggfunc="first", sort=False)
        wide = wide.fillna("")
        wide.columns.name = None
        parts += ["## Every figure", "", DETAILS_NOTE, "",
                  markdown_table(wide.reset_index().rename(columns={"label": "what"})), ""]  # fmt: skip
    return parts, result["charts"]
