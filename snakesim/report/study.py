"""Studies: a question, the runs that answer it, and a report people read.

A study is a TOML file::

    title = "Fortune: one snake or two?"
    question = "What do the seed's house rules do to a 4-player game?"
    game = "fortune"
    seed = 1
    conclusion = "What the numbers mean for a person choosing house rules."

    [[compare]]                     # arms: variants, or (with one variant) policy sets
    title = "The house rules"
    players = 4
    games = 200000
    variants = ["standard", "one-snake", "rejoin"]
    set = ["start_coins=20"]        # optional, for every arm
    policies = ["greedy", "greedy,random,random,random"]   # optional

    [[sweep]]
    title = "Starting coins"
    players = "2..6"
    set = ["start_coins=5:40:5"]
    games = 20000

:func:`run_study` checks the whole file before playing anything, runs it, and writes
``report.md``, a self-contained ``report.html`` (figures embedded), the PNG figures and
``summary.csv`` (every number of the report, tidy) into one folder. Each comparison draws
the win rate by seat, the survival curves of game length and the distribution of scores;
each sweep draws its metrics against the swept value.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from snakesim import __version__
from snakesim.core.backends import ThreadsBackend
from snakesim.core.compare import compare_tables
from snakesim.core.errors import InputError
from snakesim.core.rules import describe_changes, read_toml
from snakesim.core.runner import DEFAULT_CHUNK, resolve_run, simulate_spec
from snakesim.core.sweep import parse_axes, parse_players, sweep
from snakesim.games import get_game
from snakesim.report.figures import scores_figure, survival_figure, sweep_figure, win_rates_figure

STUDY_KEYS = {"title", "question", "game", "seed", "conclusion", "compare", "sweep"}
COMPARE_KEYS = {"title", "players", "games", "variants", "set", "policy", "policies"}
SWEEP_KEYS = {"title", "players", "games", "set", "variant", "policy"}


@dataclass
class Section:
    """One part of a report: a title, a note on what was run, a table, figure files."""

    title: str
    note: str
    table: pd.DataFrame
    figures: list[str] = field(default_factory=list)


def _check_keys(where: str, data: dict, allowed: set[str]) -> None:
    for key in data:
        if key not in allowed:
            raise InputError(f"{where}.{key}", f"unknown key; expected one of {', '.join(sorted(allowed))}")


def _get(where: str, data: dict, key: str, kind, default=None):
    value = data.get(key, default)
    if value is None:
        raise InputError(f"{where}.{key}", "missing")
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise InputError(f"{where}.{key}", f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def load_study(path: str | Path) -> dict:
    """Read and check a study file (keys and types; the runs are checked by :func:`run_study`)."""
    data = read_toml(path, "study file")
    _check_keys("study", data, STUDY_KEYS)
    for key in ("title", "question", "game"):
        _get("study", data, key, str)
    _get("study", data, "seed", int, 1)
    if not data.get("compare") and not data.get("sweep"):
        raise InputError("study", "give at least one [[compare]] or [[sweep]] section")
    for kind, keys in (("compare", COMPARE_KEYS), ("sweep", SWEEP_KEYS)):
        for k, section in enumerate(data.get(kind, [])):
            _check_keys(f"{kind}[{k}]", section, keys)
    return data


def run_study(path: str | Path, out_dir: str | Path, scale: float = 1.0, progress: bool = False, backend=None) -> Path:
    """Run a study and write its report folder; return the folder.

    ``scale`` multiplies every game count (a quick look at a study: ``scale=0.01``).
    ``backend`` plays the games (numba threads here if None; one Dask cluster serves them all).
    """
    study = load_study(path)
    spec = get_game(study["game"])
    seed = study.get("seed", 1)
    plans = [("compare", k, s, _plan_compare(spec, s, seed, scale, k)) for k, s in enumerate(study.get("compare", []))]
    plans += [("sweep", k, s, _plan_sweep(s, scale, k)) for k, s in enumerate(study.get("sweep", []))]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    sections, tidy = [], []
    with backend or ThreadsBackend() as engine:
        for kind, k, section, plan in plans:
            name = f"{kind}-{k + 1}"
            if kind == "compare":
                arms, games, players = plan
                tables = {
                    label: simulate_spec(
                        spec, rules, players, games, seed, variant, 0, None, DEFAULT_CHUNK, progress, seats, engine
                    )
                    for label, variant, rules, seats in arms
                }
                table = compare_tables(spec, tables)
                win_rates_figure(table, section.get("title", "")).savefig(out_dir / f"{name}-win-rates.png", dpi=100)
                survival_figure(tables, spec.length_unit).savefig(out_dir / f"{name}-length.png", dpi=100)
                figures = [f"{name}-win-rates.png", f"{name}-length.png"]
                if spec.score is not None:
                    scores_figure(tables, spec.score[0], players).savefig(out_dir / f"{name}-scores.png", dpi=100)
                    figures.append(f"{name}-scores.png")
                note = f"{players} players, {games:,} games per arm, seed {seed}; " + "; ".join(
                    f"**{label}**: {_describe(rules, seats)}" for label, _, rules, seats in arms
                )
                shown = _compare_view(table)
            else:
                players, settings, games, axes = plan
                variant, policy = section.get("variant"), section.get("policy")
                table = sweep(spec, players, settings, games, seed, variant, policy, progress=progress, backend=engine)
                x = axes[0]
                sweep_figure(table, x, title=section.get("title", "")).savefig(out_dir / f"{name}.png", dpi=100)
                figures = [f"{name}.png"]
                note = f"players {section['players']}, {', '.join(settings)}; {games:,} games per point, seed {seed}"
                shown = table.pivot_table(
                    index=["players", *axes], columns="metric", values="value", sort=False
                ).reset_index()
            sections.append(Section(section.get("title", name), note, shown, figures))
            tidy.append(table.assign(section=name))
    pd.concat(tidy, ignore_index=True).to_csv(out_dir / "summary.csv", index=False)
    header = {
        "game": spec.name,
        "version": __version__,
        "command": f"snakesim study {Path(path).as_posix()}" + (f" --scale {scale:g}" if scale != 1 else ""),
    }
    (out_dir / "report.md").write_text(_markdown(study, header, sections), encoding="utf-8")
    (out_dir / "report.html").write_text(_html(study, header, sections, out_dir), encoding="utf-8")
    return out_dir


def _plan_compare(spec, section, seed, scale, k):
    where = f"compare[{k}]"
    players = _get(where, section, "players", int)
    games = max(1, round(_get(where, section, "games", int) * scale))
    variants = _get(where, section, "variants", list, ["standard"])
    policy_sets = _get(where, section, "policies", list, [section.get("policy")])
    settings = _get(where, section, "set", list, [])
    if len(variants) > 1 and len(policy_sets) > 1:
        raise InputError(f"{where}.policies", "compare several variants or several policy sets, not both")
    arms = []
    for variant in variants:
        for seats_text in policy_sets:
            # "greedy" is one policy for every seat; "greedy,random,..." one per seat.
            one, per_seat = (seats_text, None) if seats_text and "," not in seats_text else (None, seats_text)
            name, rules, seats = resolve_run(
                spec, players, games, seed, 0, variant, None, settings, None, None, one, per_seat
            )
            label = name if len(policy_sets) == 1 else (seats_text or "default policies")
            arms.append((label, name, rules, seats))
    return arms, games, players


def _plan_sweep(section, scale, k):
    where = f"sweep[{k}]"
    players = parse_players(str(_get(where, section, "players", (str, int))))
    settings = _get(where, section, "set", list)
    axes = list(parse_axes(settings)[1])
    if not axes:
        raise InputError(f"{where}.set", "nothing is swept: give NAME=LOW:HIGH:STEP or NAME=A,B,...")
    games = max(1, round(_get(where, section, "games", int) * scale))
    return players, settings, games, axes


def _describe(rules, seats) -> str:
    text = describe_changes(rules.changes())
    return text + (f", policies {','.join(seats)}" if seats else "")


def _compare_view(table: pd.DataFrame) -> pd.DataFrame:
    """One row per metric, one column per arm: value [interval], and the difference."""

    def cell(r):
        if r["kind"] == "test":
            return f"{r['value']:.3g}"
        fmt = (lambda v: f"{100 * v:.2f}%") if r["kind"] == "rate" else (lambda v: f"{v:,.2f}")
        text = fmt(r["value"]) + (f" [{fmt(r['low'])}, {fmt(r['high'])}]" if r["low"] == r["low"] else "")
        if r["diff"] == r["diff"]:
            d = f"{100 * r['diff']:+.2f} pp" if r["kind"] == "rate" else f"{r['diff']:+,.2f}"
            text += f"; {d}, p(Holm) {r['p_holm']:.2g}" + (" *" if r["p_holm"] < 0.05 else "")
        return text

    view = table.assign(cell=table.apply(cell, axis=1))
    wide = view.pivot_table(index="metric", columns="variant", values="cell", aggfunc="first", sort=False)
    wide.columns.name = None  # else the HTML table grows an empty "variant" header cell
    return wide.reset_index()


def _markdown(study, header, sections) -> str:
    lines = [f"# {study['title']}", "", f"**Question.** {study['question']}", ""]
    if study.get("conclusion"):
        lines += ["## What it means for choosing house rules", "", study["conclusion"].strip(), ""]
    for s in sections:
        lines += [f"## {s.title}", "", s.note, "", _markdown_table(s.table), ""]
        lines += [f"![{name}]({name})" for name in s.figures] + [""]
    lines += [
        "## Regenerate",
        "",
        f"`{header['command']}` with snakesim {header['version']}. Differences come from paired runs "
        "(game i dealt alike in every arm); * marks p < 0.05 after Holm's correction; intervals are 95%.",
        "",
    ]
    return "\n".join(lines)


def _markdown_table(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in df.itertuples(index=False):
        out.append("| " + " | ".join(_plain(v) for v in row) + " |")
    return "\n".join(out)


def _plain(v) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def _html(study, header, sections, out_dir: Path) -> str:
    esc = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{esc(study['title'])}</title>",
        "<style>body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;font-size:.85em}td,th{border:1px solid #ccc;padding:.2em .5em}"
        "img{max-width:100%}</style></head><body>",
        f"<h1>{esc(study['title'])}</h1><p><b>Question.</b> {esc(study['question'])}</p>",
    ]
    if study.get("conclusion"):
        parts.append(f"<h2>What it means for choosing house rules</h2><p>{esc(study['conclusion'].strip())}</p>")
    for s in sections:
        parts.append(f"<h2>{esc(s.title)}</h2><p>{esc(s.note).replace('**', '')}</p>")
        parts.append(s.table.to_html(index=False, float_format=_plain, border=0))
        for name in s.figures:
            data = base64.b64encode((out_dir / name).read_bytes()).decode()
            img = f"<img src='data:image/png;base64,{data}' alt='{esc(name)}'>"
            parts.append(f"<figure>{img}<figcaption>{esc(name)}</figcaption></figure>")
    parts.append(
        f"<h2>Regenerate</h2><p><code>{esc(header['command'])}</code> with snakesim {esc(header['version'])}. "
        "Differences come from paired runs (game i dealt alike in every arm); * marks p &lt; 0.05 after Holm's "
        "correction; intervals are 95%.</p></body></html>"
    )
    return "\n".join(parts)
