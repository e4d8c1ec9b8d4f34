"""What the workbench gives to keep: a study TOML that reproduces the page with ``snakesim
study``, and a run's report as one self-contained HTML file with the same charts."""

from __future__ import annotations

import time

from snakesim import __version__
from snakesim.core.rules import inline
from snakesim.report.page import charts_html, markdown_table, page
from snakesim.workbench.jobs import Job


def study_toml(plan: dict) -> str:
    """A study file (``docs/studies.md``) that plays the page's request: the same game,
    players, seed and games, each arm's rules as the option settings that make them."""
    spec, players, request = plan["spec"], plan["players"], plan["request"]
    kind = request.get("kind", "compare")
    question = (
        f"What do these rules do to a {players}-player game of {spec.name.title()}?"
        if kind == "compare"
        else f"Which {plan.get('handicap')} per seat gives every seat of a {players}-player game the same chance?"
    )
    lines = [
        f"# Made by the snakesim {__version__} workbench on {time.strftime('%Y-%m-%d')}; run it with",
        f"#   snakesim study {spec.name}-study.toml",
        f"title = {inline(spec.name.title() + f': {players} players, from the workbench')}",
        f"question = {inline(question)}",
        f"game = {inline(spec.name)}",
        f"seed = {plan['seed']}",
        "",
    ]
    feel = ["feel=true"] if plan["shared"].options else []
    if kind == "compare":
        lines += ["[[compare]]", f'title = "{players} players"', f"players = {players}",
                  f"games = {plan['games']}"]  # fmt: skip
        if feel:
            lines.append(f"set = {inline(feel)}")
        for arm in plan["tables"]:
            lines += ["", "[[compare.arms]]", f"name = {inline(arm['name'])}"]
            if arm["set"]:
                lines.append(f"set = {inline(arm['set'])}")
            if arm.get("policies"):
                lines.append(f"policies = {inline(arm['policies'])}")
    else:
        arm, games = plan["tables"][0], plan["games"]
        heading = f"Balance {plan['handicap']}, {players} players"
        lines += ["[[balance]]", f"title = {inline(heading)}",
                  f"players = {players}", f"games = {games}", f"max_games = {4 * games}",
                  f"confirm_games = {5 * games}", f"handicap = {inline(plan['handicap'])}",
                  f"tolerance = {plan['tolerance']}"]  # fmt: skip
        if arm["set"] or feel:
            lines.append(f"set = {inline(arm['set'] + feel)}")
        if arm.get("policies"):
            lines.append(f"policies = {inline(arm['policies'])}")
    return "\n".join(lines) + "\n"


def report_html(job: Job) -> str:
    """A finished run as one HTML file: what was played, the findings, the table and the
    interactive charts, and the command that gives the same figures."""
    from markdown_it import MarkdownIt

    request, result = job.request, job.result
    title = f"{request['game'].title()}, {request.get('players')} players: what the rules do"
    md = MarkdownIt("commonmark").enable("table")
    parts = [f"# {title}", "", f"Made by the snakesim {__version__} workbench, {time.strftime('%Y-%m-%d %H:%M')}.", ""]
    games = request.get("games")
    parts.append(f"Seed {request.get('seed', 1)}, {games:,} games" + (" per arm" if job.kind == "compare" else "")
                 + "; every arm plays the same games (game i is dealt from the same shuffle in each).")  # fmt: skip
    parts += ["", "## What it means", ""]
    parts += [f"- **{f['arm']}**: {f['text']}" if f.get("arm") else f"- {f['text']}" for f in result["findings"]]
    if result.get("rows"):  # (one row per metric, one column per arm, as a study's report shows them)
        import pandas as pd

        rows = pd.DataFrame(result["rows"])
        rows["cell"] = [v + (f"; {d}" if d else "") for v, d in zip(rows["value"], rows["diff"], strict=True)]
        wide = rows.pivot_table(index="metric", columns="arm", values="cell", aggfunc="first", sort=False).fillna("")
        wide.columns.name = None
        parts += ["", "## The figures", "", markdown_table(wide.reset_index().rename(columns={"metric": "what"}))]
    parts += ["", "## Charts", "", "CHARTS", "", "## The same on the command line", ""]
    parts += ["Save each arm's rules from the workbench as LABEL.toml, then:", "", f"    {result['command']}", ""]
    body = md.render("\n".join(parts)).replace("<p>CHARTS</p>", charts_html(result["charts"]))
    return page(title, body)
