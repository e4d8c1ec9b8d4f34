"""What the workbench gives to keep: a study TOML that plays the page's comparison and its
balance again with ``snakesim study``, and the page's report as one self-contained HTML file
with the same findings and charts, what each rule set changes and who plays it."""

from __future__ import annotations

import time

from snakesim import __version__
from snakesim.core.errors import InputError
from snakesim.core.policies import player_words
from snakesim.core.rules import inline
from snakesim.report.page import charts_html, markdown_table, page
from snakesim.workbench.jobs import Job


def study_toml(compare: dict | None = None, balance: dict | None = None) -> str:
    """A study file (``docs/studies.md``) that plays the page's requests again: the comparison
    (``runs.check_request``'s plan) and the balance, with the same game, players, seed and
    games, each rule set as the option settings that make it."""
    plans = [p for p in (compare, balance) if p is not None]
    if not plans:
        raise InputError("study", "give a comparison, a balance or both")
    seeds = {p["seed"] for p in plans}
    if len(seeds) > 1:
        raise InputError("seed", "the comparison and the balance were played with different seeds "
                         f"({', '.join(map(str, sorted(seeds)))}); play one again with the page's seed")  # fmt: skip
    first = plans[0]
    spec, players = first["spec"], first["players"]
    question = (
        f"What do these rules do to a {players}-player game of {spec.name.title()}?"
        if compare is not None
        else f"Which {balance['handicap']} per seat gives every seat of a {players}-player game the same chance?"
    )
    lines = [
        f"# Made by the snakesim {__version__} workbench on {time.strftime('%Y-%m-%d')}; run it with",
        f"#   snakesim study {spec.name}-study.toml",
        f"title = {inline(spec.name.title() + f': {players} players, from the workbench')}",
        f"question = {inline(question)}",
        f"game = {inline(spec.name)}",
        f"seed = {first['seed']}",
    ]
    if compare is not None:
        lines += ["", *_compare_section(compare)]
    if balance is not None:
        lines += ["", *_balance_section(balance)]
    return "\n".join(lines) + "\n"


def _feel(plan: dict) -> list[str]:
    return ["feel=true"] if plan["shared"].options.get("feel") else []


def _compare_section(plan: dict) -> list[str]:
    players, lineup = plan["players"], list(plan["lineup"])
    lines = ["[[compare]]", f'title = "{players} players"', f"players = {players}", f"games = {plan['games']}"]
    if _feel(plan):
        lines.append(f"set = {inline(_feel(plan))}")
    if lineup:
        lines.append(f"policies = {inline(lineup)}")
    for arm in plan["tables"]:
        lines += ["", "[[compare.arms]]", f"name = {inline(arm['name'])}"]
        if arm["set"]:
            lines.append(f"set = {inline(arm['set'])}")
        if arm.get("policies") and list(arm["policies"]) != lineup:
            lines.append(f"policies = {inline(arm['policies'])}")
    return lines


def _balance_section(plan: dict) -> list[str]:
    arm, games, players = plan["tables"][0], plan["games"], plan["players"]
    heading = f"Balance {plan['handicap']} of {arm['name']}, {players} players"
    lines = ["[[balance]]", f"title = {inline(heading)}",
             f"players = {players}", f"games = {games}", f"max_games = {4 * games}",
             f"confirm_games = {5 * games}", f"handicap = {inline(plan['handicap'])}",
             f"tolerance = {plan['tolerance']}"]  # fmt: skip
    if arm["set"] or _feel(plan):
        lines.append(f"set = {inline(arm['set'] + _feel(plan))}")
    if arm.get("policies"):
        lines.append(f"policies = {inline(arm['policies'])}")
    return lines


def report_html(compare: Job | None, balance: Job | None = None) -> str:
    """The page's finished runs as one HTML file: what was played (each rule set's changes and
    players), the findings, the charts, every figure, the fair handicap, and the commands that
    give the same figures."""
    from markdown_it import MarkdownIt

    first = compare or balance
    request = first.request
    title = f"{request['game'].title()}, {request.get('players')} players: what the rules do"
    md = MarkdownIt("commonmark").enable("table")
    parts = [f"# {title}", "", f"Made by the snakesim {__version__} workbench, {time.strftime('%Y-%m-%d %H:%M')}.", ""]
    charts = {}
    if compare is not None:
        result = compare.result
        parts.append(f"Seed {request.get('seed', 1)}, {request.get('games'):,} games for each rule set; every rule set "
                     "plays the same games (game i is dealt from the same shuffle in each), so the differences are "
                     "the rules'. Numbers in [brackets] are the range the true figure lies in, 95% sure (surer where "
                     "several figures are compared at once).")  # fmt: skip
        parts += ["", "## The rule sets", "", *_arms_text(result["arms"]), "", "## What the rules do", ""]
        parts += _findings_text(result["findings"])
        parts += ["", "CHARTS-compare", ""]
        charts["compare"] = result["charts"]
        if result.get("rows"):  # (one row per metric, one column per rule set, as a study's report shows them)
            import pandas as pd

            rows = pd.DataFrame(result["rows"])
            rows["cell"] = [v + (f"; {d}" if d else "") for v, d in zip(rows["value"], rows["diff"], strict=True)]
            wide = rows.pivot_table(index="label", columns="arm", values="cell", aggfunc="first", sort=False)
            wide = wide.fillna("")
            wide.columns.name = None
            parts += ["", "## Every figure", "", DETAILS_NOTE, "",
                      markdown_table(wide.reset_index().rename(columns={"label": "what"}))]  # fmt: skip
    if balance is not None:
        result = balance.result
        r = balance.request
        parts += ["", "## A fair handicap", "",
                  f"{result['handicap']} per seat for **{r['arm']['name']}**, fair meaning every seat within "
                  f"{100 * result['tolerance']:g} percentage points of the average seat's chance; "
                  f"{r['games']:,} games per try, then fresh games.", ""]  # fmt: skip
        if compare is None:
            parts += [*_arms_text(result["arms"]), ""]
        parts += [*_findings_text(result["findings"]), "", "CHARTS-balance", ""]
        charts["balance"] = result["charts"]
    parts += ["", "## The same on the command line", "", "Save each rule set's rules from the workbench as "
              "LABEL.toml (its TOML button), then:", ""]  # fmt: skip
    parts += [f"    {job.result['command']}" for job in (compare, balance) if job is not None]
    body = md.render("\n".join(parts))
    for key, shown in charts.items():
        body = body.replace(f"<p>CHARTS-{key}</p>", charts_html(shown))
    return page(title, body)


DETAILS_NOTE = (
    "For the statistically minded. Each value has its 95% interval; each difference from the first rule set is "
    "paired game by game, its interval drawn at the level of its step of Holm's correction for comparing many "
    "figures at once (p(Holm) is its adjusted p-value, * below 0.05); pairing xR: the paired interval is R times "
    "as wide as two separate runs' would be; pp: percentage points; Kaplan-Meier: the length by which a share "
    "of the games is over, counting unfinished games fairly; seat balance p: the chance of seats this uneven if "
    "every seat were equal."
)


def _arms_text(arms: list[dict]) -> list[str]:
    """Each rule set as a list item: what it changes from the seed's game and who plays it;
    then how each kind of player plays."""
    out = []
    for k, a in enumerate(arms):
        changes = f"`{a['summary']}`" if a["changes"] else "the seed's rules, unchanged"
        who = ", ".join(f"seat {s} {p}" for s, p in enumerate(a["policies"]))
        line = f"- **{a['name']}**{' (the baseline)' if k == 0 else ''}: {changes}"
        if who:
            line += f"; players: {who}" + (" (its own)" if a.get("own_players") else "")
        out.append(line)
    kinds = sorted({p for a in arms for p in a["policies"]})
    if kinds:
        out += ["", "Who plays: " + "; ".join(f"**{p}** {player_words(p)}" for p in kinds) + "."]
    return out


def _findings_text(findings: list[dict]) -> list[str]:
    return [f"- **{f['arm']}**: {f['text']}" if f.get("arm") else f"- {f['text']}" for f in findings]
