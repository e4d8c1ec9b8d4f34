"""What the workbench gives to keep: a study TOML that plays the page's runs again with
``snakesim study``, and the page's report as one self-contained HTML file with the same
findings and charts, what each rule set changes and who plays it. Each panel
(``snakesim.workbench.panels``) writes its own section of both."""

from __future__ import annotations

import time

from snakesim import __version__
from snakesim.core.errors import InputError
from snakesim.core.rules import inline
from snakesim.report.page import charts_html, page
from snakesim.workbench.jobs import Job
from snakesim.workbench.panels import every


def _asked() -> str:
    kinds = [p.NOUN for p in every().values()]
    return "give " + ", ".join(f"a {k}" for k in kinds[:-1]) + f" or a {kinds[-1]}, or several"


def study_toml(plans: dict[str, dict]) -> str:
    """A study file (``docs/studies.md``) that plays the page's requests again: each kind's
    plan (``runs.check_request``'s) with the same game, players, seed and games, each rule set
    as the option settings that make it."""
    shown = [(p, plans[k]) for k, p in every().items() if plans.get(k) is not None]
    if not shown:
        raise InputError("study", _asked())
    games = {plan.spec.name for _, plan in shown}
    if len(games) > 1:
        raise InputError("study", f"a study is of one game, got {', '.join(sorted(games))}")
    seeds = {plan.seed for _, plan in shown}
    if len(seeds) > 1:
        played = ", ".join(map(str, sorted(seeds)))
        raise InputError("seed", f"the page's runs were played with different seeds ({played}); play one again "
                         "with the page's seed")  # fmt: skip
    first_panel, first = shown[0]
    spec, players = first.spec, first.players
    lines = [
        f"# Made by the snakesim {__version__} workbench on {time.strftime('%Y-%m-%d')}; run it with",
        f"#   snakesim study {spec.name}-study.toml",
        f"title = {inline(spec.name.title() + f': {players} players, from the workbench')}",
        f"question = {inline(first_panel.question(first))}",
        f"game = {inline(spec.name)}",
        f"seed = {first.seed}",
    ]
    for kind, plan in shown:
        lines += ["", *kind.study(plan)]
    return "\n".join(lines) + "\n"


def report_html(jobs: dict[str, Job]) -> str:
    """The page's finished runs (by kind) as one HTML file: what was played (each rule set's
    changes and players), the findings, the charts, every figure, and the commands that give
    the same figures."""
    from markdown_it import MarkdownIt

    shown = [(p, jobs[k]) for k, p in every().items() if jobs.get(k) is not None]
    request = shown[0][1].request
    title = f"{request['game'].title()}, {request.get('players')} players: what the rules do"
    md = MarkdownIt("commonmark").enable("table")
    parts = [f"# {title}", "", f"Made by the snakesim {__version__} workbench, {time.strftime('%Y-%m-%d %H:%M')}.", ""]
    charts = {}
    for k, (kind, job) in enumerate(shown):
        section, charts[kind.KIND] = kind.report(job, arms_shown=k > 0)
        parts += section
    parts += ["", "## The same on the command line", "", "Save each rule set's rules from the workbench as "
              "LABEL.toml (its TOML button), then:", ""]  # fmt: skip
    parts += [f"    {job.result['command']}" for _, job in shown]
    body = md.render("\n".join(parts))
    for key, drawn in charts.items():
        body = body.replace(f"<p>CHARTS-{key}</p>", charts_html(drawn))
    return page(title, body)
