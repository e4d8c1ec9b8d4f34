"""Studies: a question, the runs that answer it, and a report people read.

A study is a TOML file of a title, a question, a game and a seed, and ``[[compare]]``,
``[[sweep]]``, ``[[balance]]``, ``[[tune]]``, ``[[design]]`` and ``[[skill]]`` sections; docs/studies.md
documents every key with an example (the ``*_TYPES`` tables below are what is checked).

:func:`run_study` checks the whole file before playing anything, runs it, and writes
``report.md``, a self-contained ``report.html`` (the Markdown rendered, figures embedded), the
PNG figures and ``summary.csv`` (every number of the report, tidy) into one folder. Each
section's numbers are said in words too (each kind's findings, ``snakesim.questions``). Each comparison
draws the win rate by seat, the survival curves of game length (when it varies), the
distribution of scores and the game feel (when recorded); each sweep draws its metrics
against the swept value; each balance section its win rates before and after on fresh games,
each tune section the metric against the value, each design section every rule set's figures
for its first two targets, each skill section every line-up's edge.
"""

from __future__ import annotations

import base64
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from snakesim import __version__
from snakesim.analysis.design import DESIGN
from snakesim.analysis.design_space import Target
from snakesim.analysis.skill import NOVICE
from snakesim.analysis.sweep import parse_axes, parse_players
from snakesim.analysis.verdicts import margins_allowed, parse_matters
from snakesim.analysis.words import listed, p_text
from snakesim.core.arms import Arm, Budget, RuleSource, resolve_run
from snakesim.core.backends import ThreadsBackend
from snakesim.core.errors import InputError
from snakesim.core.figures import BY_ID
from snakesim.core.files import check_writable, current_umask, fsync_path
from snakesim.core.policies import DEFAULT_PLAYOUTS
from snakesim.core.rng import MAX_SEED
from snakesim.core.rules import Int, describe_changes, inline, read_toml
from snakesim.games import get_game
from snakesim.questions import DESCRIBED_GAMES, described
from snakesim.questions import balance as balance_question
from snakesim.questions import compare as compare_question
from snakesim.questions import design as design_question
from snakesim.questions import skill as skill_question
from snakesim.questions import sweep as sweep_question
from snakesim.questions import tune as tune_question
from snakesim.questions.compare import hidden_metrics, row_text
from snakesim.questions.rows import summary_table, tidy
from snakesim.report.charts import comparison_charts as comparison_charts_data
from snakesim.report.figures import (
    balance_figure,
    comparison_figures,
    design_figure,
    skill_figure,
    sweep_figure,
    tune_figure,
)
from snakesim.report.page import charts_html, markdown_table, page

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Section:
    """One part of a report: a title, a note on what was run, a table, figure files."""

    title: str
    note: str
    table: pd.DataFrame
    figures: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)  # the section's numbers in words
    charts: list[dict] = field(default_factory=list)  # drawn in report.html in place of `charted` figures


HOW_TO_READ = (
    "Differences come from paired runs (game i dealt from the same keyed shuffle in every arm; the gain that "
    "bought is measured, not assumed). * marks p < 0.05 after Holm's correction; a difference's interval is drawn "
    "at its Holm step's level, so it excludes 0 exactly when starred; other intervals are 95%."
)

# Each section's keys and the types they take; ``str | int`` where either reads well.
STUDY_TYPES = {
    "title": str,
    "question": str,
    "game": str,
    "seed": int,
    "conclusion": str,
    "matters": (str, list),
}  # (and each kind of section of kinds(): a list of tables)
COMPARE_TYPES = {
    "title": str,
    "players": int,
    "games": int,
    "variants": list,
    "arms": list,
    "set": list,
    "policy": str,
    "policies": list,
    "matters": (str, list),
    "claims": dict,  # what the conclusion says of each rule set, checked against the verdicts
}
# An arm of a comparison: any rule set (snakesim.core.arms), with its own policies if it likes.
ARM_TYPES = {
    "name": str,
    "variant": str,
    "rules": str,
    "options": dict,
    "set": list,
    "policy": str,
    "policies": list,
}
SWEEP_TYPES = {"title": str, "players": (str, int), "games": int, "set": list, "variant": str, "policy": str}
# A search (balance or tune): the rules it starts from, and the command's own options.
SEARCH_TYPES = {
    "title": str,
    "players": int,
    "games": int,
    "max_games": int,
    "confirm_games": int,
    "variant": str,
    "set": list,
    "policy": str,
    "policies": list,
}
BALANCE_TYPES = {**SEARCH_TYPES, "handicap": str, "tolerance": (float, int), "range": str, "novices": (float, int)}
SKILL_TYPES = {
    "title": str,
    "players": (str, int),
    "games": int,
    "playouts": int,
    "novice": (float, int),
    "variant": str,
    "set": list,
}
TUNE_TYPES = {**SEARCH_TYPES, "target": str, "vary": str}
DESIGN_TYPES = {
    "title": str,
    "players": int,
    "games": int,
    "budget": int,
    "confirm_games": int,
    "variant": str,
    "set": list,
    "policy": str,
    "policies": list,
    "vary": list,
    "targets": list,
    "prefer": str,
    "matters": (str, list),
}
REQUIRED = {"study": ("title", "question", "game"), "arm": ("name",)}


def _type_name(kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {str: "a string", int: "an integer", float: "a number", list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _check_section(where: str, data, types: dict, required: tuple[str, ...]) -> None:
    """Every key known, of its type, the required ones present; lists of strings hold strings."""
    if not isinstance(data, dict):
        raise InputError(where, f"expected a table ([[{where.split('[')[0]}]]), got {data!r}")
    for key, value in data.items():
        if key not in types:
            raise InputError(f"{where}.{key}", f"unknown key; expected one of {', '.join(sorted(types))}")
        kind = types[key]
        if isinstance(value, bool) or not isinstance(value, kind):
            raise InputError(f"{where}.{key}", f"expected {_type_name(kind)}, got {value!r}")
        if kind is list and key not in (*kinds(), "arms"):
            for item in value:
                if not isinstance(item, str):
                    raise InputError(f"{where}.{key}", f"expected a list of strings, got {item!r} in it")
            if not value:
                raise InputError(f"{where}.{key}", "expected at least one entry")
    for key in required:
        if key not in data:
            raise InputError(f"{where}.{key}", "missing")
    if "games" in data and data["games"] < 1:
        raise InputError(f"{where}.games", f"expected an integer of at least 1, got {data['games']}")
    if "seed" in data:
        Int(0, MAX_SEED).check(f"{where}.seed", data["seed"])


def load_study(path: str | Path) -> dict:
    """Read and check a study file completely: every key's name and type, game counts of at
    least 1, and at least one section (each run's rules are then checked by :func:`run_study`,
    still before any game is played)."""
    data = read_toml(path, "study file")
    sections = kinds()
    _check_section("study", data, {**STUDY_TYPES, **dict.fromkeys(sections, list)}, REQUIRED["study"])
    if not any(data.get(kind) for kind in sections):
        *others, last = (f"[[{kind}]]" for kind in sections)
        raise InputError("study", f"give at least one {', '.join(others)} or {last} section")
    parse_matters(data.get("matters"), "matters")
    for kind, section_kind in sections.items():
        for k, section in enumerate(data.get(kind, [])):
            where = f"{kind}[{k}]"
            _check_section(where, section, section_kind.types, section_kind.required)
            if "matters" in section_kind.types:
                parse_matters(section.get("matters"), f"{where}.matters")
            if section_kind.check is not None:
                section_kind.check(where, section)
    return data


def _check_compare(where: str, section: dict) -> None:
    """A [[compare]] section's arms, each a table of its own, and its claims."""
    for j, arm in enumerate(section.get("arms", [])):
        _check_section(f"{where}.arms[{j}]", arm, ARM_TYPES, REQUIRED["arm"])
    _check_claims(f"{where}.claims", section.get("claims", {}))


def _claim(said) -> tuple[bool, list[str], list[str]]:
    """A claim as ``(nothing, matters, not_matters)``."""
    if said == "nothing":
        return True, [], []
    if isinstance(said, list):
        return False, said, []
    return False, said.get("matters", []), said.get("not", [])


def _check_claims(where: str, claims: dict) -> None:
    """A comparison's claims, by rule set label: ``"nothing"`` (the conclusion says it changes
    nothing that matters), a list of figure ids (it says these change by as much as matters),
    or a table ``{matters = [...], not = [...]}`` (and that these do not)."""
    allowed = 'expected "nothing", a list of figure ids, or {matters = [...], not = [...]}'
    for label, said in claims.items():
        ok = said == "nothing" or isinstance(said, list) or (isinstance(said, dict) and set(said) <= {"matters", "not"})
        if not ok:
            raise InputError(f"{where}.{label}", f"{allowed}, got {said!r}")
        _, matters, nots = _claim(said)
        for name in [*matters, *nots]:
            if not isinstance(name, str) or name not in BY_ID or BY_ID[name].matters is None:
                raise InputError(f"{where}.{label}", f"unknown figure {name!r}; expected one of {margins_allowed()}")


def _claim_words(label: str, said) -> str:
    nothing, matters, nots = _claim(said)
    if nothing:
        return f"{label} changes nothing that matters"
    words = [f"{label} changes {listed(matters)} by as much as matters"] if matters else []
    if nots:
        words.append(f"{'' if matters else label + ' '}does not change {listed(nots)} by as much")
    return ", and ".join(words)


def check_claims(table, claims: dict) -> list[str]:
    """What a comparison's claims (``claims`` of a ``[[compare]]`` section) say that its
    verdicts (``table``: its rows in a study's summary) do not bear out, one line each (empty:
    every claim holds). A rule set said to change "nothing" must have no ``matters`` verdict; a
    figure said to change must have ``matters`` (for a figure by seat, on some seat); a figure
    said not to must have none."""
    out = []
    for label, said in claims.items():
        rows = table[table["rules"] == label]
        if rows.empty:
            out.append(f"{label}: no such rule set in this comparison")
            continue
        mattering = sorted({m.partition(".")[0] for m in rows.loc[rows["verdict"] == "matters", "metric"]})
        nothing, matters, nots = _claim(said)
        if nothing and mattering:
            out.append(f"{label}: said to change nothing that matters, but {', '.join(mattering)} changes by as much "
                       "as matters")  # fmt: skip
        for name in matters:
            if name not in mattering:
                verdicts = sorted(set(rows.loc[rows["metric"].str.partition(".")[0] == name, "verdict"]))
                out.append(f"{label}: said to change {name}, but its verdict is {' / '.join(verdicts) or 'missing'}")
        out += [f"{label}: said not to change {name}, but it changes by as much as matters" for name in nots
                if name in mattering]  # fmt: skip
    return out


def run_study(path: str | Path, out_dir: str | Path, scale: float = 1.0, progress: bool = False, backend=None,
              kept=None) -> Path:  # fmt: skip
    """Run a study and write its report folder; return the folder.

    ``scale`` multiplies every game count (a quick look at a study: ``scale=0.01``).
    ``backend`` plays the games (numba threads here if None; one Dask cluster serves them all).
    ``kept``, a catalogue (:class:`snakesim.questions.catalogue.Catalogue`), gives its balance,
    tune and design sections the games earlier searches kept there, and keeps theirs.
    The whole file, every run's rules and the report folder are checked before a game is
    played. The report is written into a temporary folder beside ``out_dir`` and swapped in
    at the end, so a failure (a full disk, an interrupt) leaves the previous report whole.
    """
    study = load_study(path)
    spec = get_game(study["game"])
    seed = study.get("seed", 1)
    folder = Path(path).parent  # an arm's rules file is named relative to the study file
    margins = parse_matters(study.get("matters"), "matters")
    plans = [(kind, k, s, section.plan(spec, s, seed=seed, scale=scale, k=k, folder=folder, matters=margins))
             for kind, section in kinds().items() for k, s in enumerate(study.get(kind, []))]  # fmt: skip
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError("--out", f"{str(out_dir)!r} is a file; the report needs a folder")
    check_writable(out_dir.absolute().parent, "--out")
    out_dir.absolute().parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp", dir=out_dir.absolute().parent))
    try:
        command = f"snakesim study {Path(path).as_posix()} --out {out_dir.as_posix()}" + (
            f" --scale {scale:g}" if scale != 1 else ""
        )
        _write_report(study, spec, seed, plans, work, command=command, progress=progress, backend=backend, kept=kept)
        _swap_in(work, out_dir)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return out_dir


def _write_report(study, spec, seed, plans, out_dir: Path, command: str, progress, backend, kept) -> None:
    """Play every planned section and write the report's files into ``out_dir``; ``command``
    is the whole command that regenerates the report."""

    sections, rows = [], []
    with backend or ThreadsBackend() as engine:
        for kind, k, section, plan in plans:
            name = f"{kind}-{k + 1}"
            note, shown, table, figures, findings, charts = kinds()[kind].write(
                plan, section, seed=seed, engine=engine, progress=progress, name=name, out_dir=out_dir, kept=kept
            )
            sections.append(Section(section.get("title", name), note, shown, figures, findings, charts=charts))
            rows.append(table.assign(section=name))
    summary_table(rows).to_csv(out_dir / "summary.csv", index=False)
    header = {
        "game": spec.name,
        "version": __version__,
        "command": command,
    }
    (out_dir / "report.md").write_text(_markdown(study, header, sections), encoding="utf-8")
    (out_dir / "report.html").write_text(_html(study, header, sections, out_dir), encoding="utf-8")


def _swap_in(work: Path, out_dir: Path) -> None:
    """Replace ``out_dir`` by the finished folder ``work``: the old report moves aside, the new
    one takes its name, the old one is removed; if the second rename fails, the old returns."""
    os.chmod(work, 0o777 & ~current_umask())  # mkdtemp makes 0700; give the folder the usual mode
    for file in work.iterdir():
        fsync_path(file)
    if not out_dir.exists():
        os.replace(work, out_dir)
        return
    old = out_dir.with_name(f".{out_dir.name}.{os.getpid()}.old")
    os.replace(out_dir, old)
    try:
        os.replace(work, out_dir)
    except BaseException:
        os.replace(old, out_dir)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _compare_section(plan: compare_question.Plan, section, *, seed, engine, progress, name, out_dir, kept=None):
    """Run a [[compare]] section: its note (with its claims checked), shown table, tidy table,
    figures, findings and charts."""
    answer = compare_question.play(plan, backend=engine, progress=progress)
    spec, table, tables, players, games = plan.spec, answer.table, answer.tables, plan.players, answer.games
    rows = compare_question.rows(answer)
    broken = check_claims(rows, section.get("claims", {}))
    if broken:  # (the report says so, and the command warns: a conclusion the games contradict)
        print(f"snakesim study: {name}: the study's claims do not hold: {'; '.join(broken)}", file=sys.stderr)
    figures = comparison_figures(spec, players, table, tables, out_dir, prefix=f"{name}-",
                                 win_title=section.get("title", ""), dpi=100)  # fmt: skip
    note = f"{players} players, {games:,} games per rule set, seed {seed}; " + "; ".join(
        f"**{arm.label}**: {_describe(arm.rules, arm.seats)}" for arm in plan.arms
    )
    if section.get("claims"):
        held = "; ".join(_claim_words(label, said) for label, said in section["claims"].items())
        note += (
            f". **The conclusion's claims do not hold here**: {'; '.join(broken)}"
            if broken
            else f". The conclusion's claims hold: {held}"
        )
    findings = [f"{f['arm']}: {f['text']}" if f["arm"] else f["text"] for f in answer.findings]
    charts = comparison_charts_data(spec, players, table, tables)
    return note, _compare_view(table), rows, figures, findings, charts


def _sweep_section(plan: sweep_question.Plan, section, *, seed, engine, progress, name, out_dir, kept=None):
    """Run a [[sweep]] section: its note, every figure by point (wide), the tidy table, the
    figure and the findings along the first swept option."""
    answer = sweep_question.play(plan, progress=progress, backend=engine)
    table, axes = answer.table, plan.axes
    sweep_figure(table, axes[0], title=section.get("title", "")).savefig(out_dir / f"{name}.png", dpi=100)
    points = f"{plan.budget.games:,} games per point, seed {seed}"
    note = f"players {section['players']}, {', '.join(plan.settings)}; {points}"
    shown = table.pivot_table(index=["players", *axes], columns="label", values="value", sort=False).reset_index()
    shown.columns.name = "metric"
    return note, shown, sweep_question.rows(answer), [f"{name}.png"], answer.findings, []


def _plan_compare(spec, section, *, seed, scale, k, folder, matters) -> compare_question.Plan:
    """A [[compare]] section's question, checked: its arms as tables (``[[compare.arms]]``, a
    rules file named relative to the study's ``folder``) or ``variants`` crossed with
    ``policies``; what matters is the study's, then the section's own."""
    where = f"compare[{k}]"
    players = section["players"]
    budget = Budget(max(1, round(section["games"] * scale)), seed)
    margins = {**matters, **parse_matters(section.get("matters"))}
    if "arms" in section:
        for key in ("variants", "policies"):
            if key in section:
                raise InputError(f"{where}.{key}", "give the arms as [[compare.arms]] tables, or variants, not both")
        tables = [{**arm, "rules": str(folder / arm["rules"])} if "rules" in arm else arm for arm in section["arms"]]
        shared = RuleSource(settings=section.get("set", ()), policy=section.get("policy"))
        return compare_question.ask(spec, players, tables, budget, shared, matters=margins, where=f"{where}.arms")
    variants = section.get("variants", ["standard"])
    policy_sets = section.get("policies", [section.get("policy")])
    settings = section.get("set", [])
    if len(variants) > 1 and len(policy_sets) > 1:
        raise InputError(f"{where}.policies", "compare several variants or several policy sets, not both")
    arms = []
    for variant in variants:
        for seats_text in policy_sets:
            # "greedy" is one policy for every seat; "greedy,random,..." one per seat.
            one, per_seat = (seats_text, None) if seats_text and "," not in seats_text else (None, seats_text)
            source = RuleSource(variant, settings=settings, policy=one, policies=per_seat)
            name, rules, seats = resolve_run(spec, players, budget, source)
            label = name if len(policy_sets) == 1 else (seats_text or "default policies")
            arms.append(Arm(label, name, rules, seats))
    return compare_question.ask(spec, players, arms, budget, matters=margins, where=where)


def _plan_sweep(spec, section, *, seed, scale, k, folder, matters) -> sweep_question.Plan:
    """Check a [[sweep]] section completely into its question (``matters``: the study's)."""
    where = f"sweep[{k}]"
    players = parse_players(str(section["players"]))
    settings = section["set"]
    if not parse_axes(settings)[1]:
        raise InputError(f"{where}.set", "nothing is swept: give NAME=LOW:HIGH:STEP or NAME=A,B,...")
    games = max(1, round(section["games"] * scale))
    source = RuleSource(section.get("variant"), policy=section.get("policy"))
    return sweep_question.ask(spec, players, settings, Budget(games, seed), source, matters=matters)


def _search_start(section, seed, scale) -> tuple[Budget, RuleSource]:
    """A [[balance]] or [[tune]] section's games (scaled) and where its rules come from."""
    games = max(100, round(section.get("games", 20_000) * scale))
    max_games = max(games, round(section.get("max_games", 320_000) * scale))
    confirm = max(100, round(section["confirm_games"] * scale)) if "confirm_games" in section else None
    source = RuleSource(section.get("variant"), settings=section.get("set", ()), policy=section.get("policy"),
                        policies=section.get("policies"))  # fmt: skip
    return Budget(games, seed, max_games=max_games, confirm_games=confirm), source


def _plan_balance(spec, section, *, seed, scale, k, folder, matters) -> balance_question.Plan:
    """Check a [[balance]] section completely into its question."""
    budget, source = _search_start(section, seed, scale)
    try:
        return balance_question.ask(spec, section["players"], section["handicap"], budget, source,
                                    tolerance=section.get("tolerance", 0.01), value_range=section.get("range"),
                                    novices=section.get("novices"))  # fmt: skip
    except InputError as err:
        raise InputError(f"balance[{k}]: {err.field.lstrip('-')}", err.message) from None


def _plan_tune(spec, section, *, seed, scale, k, folder, matters) -> tune_question.Plan:
    """Check a [[tune]] section completely into its question (``matters``: the study's)."""
    budget, source = _search_start(section, seed, scale)
    try:
        return tune_question.ask(spec, section["players"], section["target"], section["vary"], budget, source=source,
                                 matters=matters)  # fmt: skip
    except InputError as err:
        raise InputError(f"tune[{k}]: {err.field.lstrip('-')}", err.message) from None


def _searched(plan) -> str:
    """What a search (balance, tune) plays, for its note: the players, the rule set, the policies."""
    return f"{plan.players} players, {plan.label}" + (f", policies {','.join(plan.seats)}" if plan.seats else "")


def _balance_section(plan: balance_question.Plan, section, *, seed, engine, progress, name, out_dir, kept=None):
    """Run a [[balance]] section: its note, shown table, tidy table, figures and findings."""
    where = _searched(plan)
    answer = balance_question.play(plan, backend=engine, progress=progress, kept=kept)
    result = answer.result
    s = result.summary
    note = (
        f"{where}; {s['search']['candidates']} candidates on the same games (up to "
        f"{s['search']['games_per_candidate']:,} each), confirmed on {s['confirm']['games']:,} fresh games. "
        f"**{s['status']}**: {result.message}. Recommended: `{s['handicap']} = {inline(result.values)}` "
        f"(from {inline(result.base)})."
    )
    if s["novices"] is not None:
        note += f" Novices, on the same fresh games: **{'holds' if s['novices']['holds'] else 'does not hold'}**"
        note += f": {s['novices']['message']}."
    balance_figure(result, section.get("title", name)).savefig(out_dir / f"{name}.png", dpi=100)
    return note, _balance_view(s), balance_question.rows(answer), [f"{name}.png"], answer.findings, []


def _tune_section(plan: tune_question.Plan, section, *, seed, engine, progress, name, out_dir, kept=None):
    """Run a [[tune]] section: its note, shown table, tidy table, figures and findings."""
    where = _searched(plan)
    answer = tune_question.play(plan, backend=engine, progress=progress, kept=kept)
    result = answer.result
    s = result.summary
    note = (
        f"{where}; {s['search']['values_played']} values played on the same games (up to "
        f"{s['search']['games_per_value']:,} each). **{s['status']}**: {result.message}"
        + (f"; interpolated {s['estimate']:.2f}" if s["estimate"] is not None else "")
        + f". On {s['metric']['games']:,} fresh games: {s['target']['metric']} {s['metric']['value']:.4g} "
        f"[{s['metric']['ci'][0]:.4g}, {s['metric']['ci'][1]:.4g}]."
    )
    tune_figure(result.path, s["target"]["value"], s["vary"]["option"], s["target"]["metric"],
                section.get("title", "")).savefig(out_dir / f"{name}.png", dpi=100)  # fmt: skip
    # (the answer's "value" is the option's and its "metric" the target's: shown named as they are)
    option, target = s["vary"]["option"], s["target"]["metric"]
    if s["vary"]["seat"] is not None:
        option += f".{s['vary']['seat']}"
    shown = result.answer.rename(columns={"value": option, "metric": target})
    return note, shown, tune_question.rows(answer), [f"{name}.png"], answer.findings, []


def _balance_view(s: dict) -> pd.DataFrame:
    """Each seat's win rate before and after on the fresh games, the balance test and the gap."""
    import pandas as pd

    def cell(c, k):
        return f"{100 * c['win_rate'][k]:.2f}% [{100 * c['win_ci'][k][0]:.2f}%, {100 * c['win_ci'][k][1]:.2f}%]"

    wins, balanced, gap = (BY_ID[k] for k in ("win_rate", "seat_balance", "seat_gap"))
    rows = [[wins.label.format(seat=k), cell(s["before"], k), cell(s["after"], k)] for k in range(len(s["values"]))]
    rows.append([balanced.label, p_text(s["before"]["balance_p"]), p_text(s["after"]["balance_p"])])
    gaps = [f"{100 * c['gap'][0]:.2f} pp [{100 * c['gap'][1]:.2f}, {100 * c['gap'][2]:.2f}]" for c in
            (s["before"], s["after"])]  # fmt: skip
    rows.append([gap.label, *gaps])
    if s["novices"] is not None:
        novices = s["novices"]
        rows += [[f"novices: {wins.label.format(seat=k)}", cell(novices["before"], k), cell(novices["after"], k)]
                 for k in range(len(s["values"]))]  # fmt: skip
        rows.append([f"novices: {gap.label}", *(f"{100 * c['gap'][0]:.2f} pp [{100 * c['gap'][1]:.2f}, "
                     f"{100 * c['gap'][2]:.2f}]" for c in (novices["before"], novices["after"]))])  # fmt: skip
    return pd.DataFrame(rows, columns=["metric", f"before: {inline(s['base'])}", f"after: {inline(s['values'])}"])


def _plan_design(spec, section, *, seed, scale, k, folder, matters) -> design_question.Plan:
    """Check a [[design]] section completely into its question (``matters``: the study's, which
    the section's own override figure by figure)."""
    where = f"design[{k}]"
    players = section["players"]
    games = max(100, round(section.get("games", DESIGN.games) * scale))
    most = max(games, round(section.get("budget", DESIGN.most) * scale))
    confirm = max(100, round(section["confirm_games"] * scale)) if "confirm_games" in section else None
    try:
        source = RuleSource(section.get("variant"), settings=section.get("set", ()), policy=section.get("policy"),
                            policies=section.get("policies"))  # fmt: skip
        margins = {**matters, **parse_matters(section.get("matters"))}
        return design_question.ask(spec, players, section["vary"], section["targets"],
                                   Budget(games, seed, max_games=most, confirm_games=confirm), source=source,
                                   prefer=section.get("prefer"), matters=margins)  # fmt: skip
    except InputError as err:
        raise InputError(f"{where}: {err.field.lstrip('-')}", err.message) from None


def _design_section(plan: design_question.Plan, section, *, seed, engine, progress, name, out_dir, kept=None):
    """Run a [[design]] section: its note, the answers (or the nearest miss) with their figures
    on fresh games, every rule set played (tidy), the figure and the findings."""
    import pandas as pd

    answer = design_question.play(plan, backend=engine, progress=progress, kept=kept)
    result, spec, players, dims = answer.result, plan.spec, plan.players, plan.dims
    s = result.summary
    search = s["search"]
    sampled = f" of {search['space']:,} (sampled)" if search["sampled"] else ""
    note = (
        f"{players} players; varied {', '.join(d.name for d in dims)}; targets "
        + "; ".join(f"`{t['text']}`" for t in s["targets"])
        + f". {search['rule_sets']} rule sets{sampled} on the same games, {search['games_played']:,} games in "
        f"{search['rounds']} round{'s' if search['rounds'] != 1 else ''}; **{s['counts']['meets']} "
        f"meet{'s' if s['counts']['meets'] == 1 else ''} every target**"
        + ("; the first: " + ", ".join("`" + a["label"] + "`" for a in s["answers"][:3]) if s["answers"] else "")
        + "."
    )
    rows = []
    for a in s["answers"] or s["nearest"]:
        c = a.get("confirmed") or {}
        row = {"rule set": a["label"], "status": a["status"], "games": a["games"]}
        for t in s["targets"]:
            row[t["metric"]] = Target.of(t).interval(c.get("figures", a["figures"])[t["metric"]])
        row["fresh games"] = c.get("games", 0)
        row["holds on fresh games"] = "yes" if c.get("holds") else "no"
        rows.append(row)
    shown = pd.DataFrame(rows)
    design_figure(result.table, s, spec.title).savefig(out_dir / f"{name}.png", dpi=100)
    return note, shown, design_question.rows(answer), [f"{name}.png"], answer.findings, []


def _plan_skill(spec, section, *, seed, scale, k, folder, matters) -> skill_question.Plan:
    """Check a [[skill]] section completely into its question (``matters``: the study's)."""
    where = f"skill[{k}]"
    games = max(10, round(section.get("games", 4_000) * scale))
    try:
        players = parse_players(str(section["players"]))
        source = RuleSource(section.get("variant"), settings=section.get("set", ()))
        return skill_question.ask(spec, players, Budget(games, seed), [source],
                                  playouts=section.get("playouts", DEFAULT_PLAYOUTS),
                                  novice=section.get("novice", NOVICE), matters=matters)  # fmt: skip
    except InputError as err:
        raise InputError(f"{where}: {err.field.lstrip('-')}", err.message) from None


def _skill_section(plan: skill_question.Plan, section, *, seed, engine, progress, name, out_dir, kept=None):
    """Run a [[skill]] section: its note (the verdict in words), shown table, tidy table, figures, findings."""
    answer = skill_question.play(plan, backend=engine, progress=progress)
    ((label, result),) = answer.results.items()
    budget, playouts, novice = plan.budget, plan.playouts, plan.novice
    if result.table.empty:
        verdict = f"{label}: {result.shares['verdict'].iloc[0]}."
        return verdict, result.shares[["players", "verdict"]], skill_question.rows(answer), [], [], []
    words = []
    for row in result.shares.itertuples():
        share = (f"the expert gets {100 * row.skill_share:.0f}% [{100 * row.low:.0f}%, {100 * row.high:.0f}%] of "
                 "what seeing every card is worth" if row.skill_share == row.skill_share else "")  # fmt: skip
        basic = (
            f"careful play among random players wins {100 * row.basic_edge:.0f}% more games than random play "
            "(relative to its equal share)"
        )
        words.append(f"{row.players} players: **{row.verdict}**" + (f" ({share}); {basic}" if share else f"; {basic}"))
    note = (
        f"{label}; {budget.games:,} games per line-up and player count, the odd player at each seat in turn, the same "
        f"games for every line-up; expert and oracle with {playouts} playouts per move, a novice errs "
        f"{novice:.0%} of the time. Edge: the odd player's win rate minus a field player's at the same seats "
        "(paired 95% interval). " + "; ".join(words) + "."
    )
    shown = result.table.assign(
        wins=[f"{100 * r.win_rate:.2f}% [{100 * r.win_low:.2f}%, {100 * r.win_high:.2f}%]"
              for r in result.table.itertuples()],
        edge=[f"{100 * r.edge:+.2f} pp [{100 * r.edge_low:+.2f}, {100 * r.edge_high:+.2f}]" if r.player != r.field
              else "" for r in result.table.itertuples()],
    )[["players", "field", "player", "wins", "edge"]]  # fmt: skip
    skill_figure(result.table, "one odd player among a field: its edge, 95% intervals").savefig(
        out_dir / f"{name}.png", dpi=100
    )
    return note, shown, skill_question.rows(answer), [f"{name}.png"], answer.findings[label], []


def _describe(rules, seats) -> str:
    text = describe_changes(rules.changes())
    return text + (f", policies {','.join(seats)}" if seats else "") + f" (rules {rules.rules_hash()})"


def _compare_view(table: pd.DataFrame) -> pd.DataFrame:
    """One row per metric, one column per arm: value [interval], and the difference, in the
    units ``snakesim compare`` prints; the metrics that never vary are left to the findings."""

    def cell(r):
        value, diff = row_text(r)
        return value + (f"; {diff}" if diff else "")

    shown = table[~table["metric"].isin(hidden_metrics(table))]
    view = shown.assign(cell=shown.apply(cell, axis=1))
    wide = view.pivot_table(index="label", columns="variant", values="cell", aggfunc="first", sort=False)
    wide.columns.name = None  # else the HTML table grows an empty "variant" header cell
    return wide.reset_index().rename(columns={"label": "metric"})


def _markdown(study, header, sections) -> str:
    lines = [f"# {study['title']}", "", f"**Question.** {study['question']}", ""]
    lines += ["## What it means for choosing house rules", ""]
    if study.get("conclusion"):
        lines += [study["conclusion"].strip(), ""]
    else:  # the numbers in words, section by section, until someone writes a conclusion
        for s in sections:
            lines += [f"**{s.title}**", "", *(f"- {f}" for f in s.findings), ""]
    for s in sections:
        lines += [f"## {s.title}", "", s.note, ""]
        if s.findings:
            lines += ["In words:", "", *(f"- {f}" for f in s.findings), ""]
        lines += [markdown_table(s.table), ""]
        for name in s.figures:  # (each its own paragraph, so report.html can put a chart in its place)
            lines += [f"![{name}]({name})", ""]
    lines += [
        "## Regenerate",
        "",
        f"`{header['command']}` with snakesim {header['version']}. {HOW_TO_READ}",
        "",
    ]
    return "\n".join(lines)


def _html(study, header, sections, out_dir: Path) -> str:
    """The report as one self-contained page: the Markdown report rendered by a CommonMark
    parser (tables on), a comparison's charts drawn in the page (hover for a value and its
    interval, click an arm to hide it) in place of their PNG figures, every other figure
    embedded as data, long titles and tables wrapping."""
    from markdown_it import MarkdownIt

    drawn = []
    for k, s in enumerate(sections):
        figures = s.figures
        if s.charts:
            figures = [f"CHARTS-{k}"] + [f for f in s.figures if not charted(f, s.charts)]
        drawn.append(Section(s.title, s.note, s.table, figures, s.findings, charts=s.charts))
    body = MarkdownIt("commonmark").enable("table").render(_markdown(study, header, drawn))
    for k, s in enumerate(drawn):
        body = body.replace(f'<p><img src="CHARTS-{k}" alt="CHARTS-{k}" /></p>', charts_html(s.charts))
        for name in s.figures:
            if not name.startswith("CHARTS-"):
                data = base64.b64encode((out_dir / name).read_bytes()).decode()
                body = body.replace(f'src="{name}"', f'src="data:image/png;base64,{data}"')
    return page(study["title"], body)


# The figures a comparison's interactive charts replace in report.html (report.md keeps them).
CHARTED = ("-win-rates.png", "-length.png", "-feel.png")


def charted(figure: str, charts: list[dict]) -> bool:
    """Whether report.html draws a comparison's ``figure`` as one of its interactive ``charts``
    instead: win rates, length and feel always; the scores figure where it shows when players
    go out (the "out" chart)."""
    return figure.endswith(CHARTED) or (figure.endswith("-scores.png") and any(c["id"] == "out" for c in charts))


@dataclass(frozen=True)
class SectionKind:
    """A kind of study section: its keys and the types they take, the keys it needs, how a
    section becomes its question (``plan``: checked, before any game of the study is played),
    how the question played becomes the report's section (``write``: its note, shown table,
    tidy table, figures, findings and charts) and any check of its own (``check``)."""

    types: dict
    required: tuple[str, ...]
    plan: Callable
    write: Callable
    check: Callable | None = None


# The kinds of section, in the order a report shows them; a new kind is one line here.
KINDS = {
    "compare": SectionKind(COMPARE_TYPES, ("players", "games"), _plan_compare, _compare_section, _check_compare),
    "sweep": SectionKind(SWEEP_TYPES, ("players", "games", "set"), _plan_sweep, _sweep_section),
    "balance": SectionKind(BALANCE_TYPES, ("players", "handicap"), _plan_balance, _balance_section),
    "tune": SectionKind(TUNE_TYPES, ("players", "target", "vary"), _plan_tune, _tune_section),
    "design": SectionKind(DESIGN_TYPES, ("players", "vary", "targets"), _plan_design, _design_section),
    "skill": SectionKind(SKILL_TYPES, ("players",), _plan_skill, _skill_section),
}


def plan_section(spec, kind: str, section: dict, *, seed: int = 1, scale: float = 1.0, k: int = 0,
                 folder: Path = Path("."), matters=None):  # fmt: skip
    """A study section of ``kind`` checked into its question, as :func:`run_study` plans it
    (``matters``: the study's margins by figure)."""
    return kinds()[kind].plan(spec, section, seed=seed, scale=scale, k=k, folder=folder, matters=matters or {})


def _described_kind(module) -> SectionKind:
    """The section of a kind of question that describes itself (``snakesim.questions``): its
    keys are the rule set's (``variant``, ``set``, ``policy`` or ``policies``), ``players``,
    ``games`` and the kind's own ``FIELDS``; it is asked through the kind's ``ask`` and shows
    its findings and its rows."""
    types = {"title": str, "players": int, "games": int, "variant": str, "set": list, "policy": str,
             "policies": (str, list), **{name: kind for name, (kind, _) in module.FIELDS.items()}}  # fmt: skip

    def plan(spec, section, *, seed, scale, k, folder, matters):
        budget = Budget(max(1, round(section.get("games", DESCRIBED_GAMES) * scale)), seed)
        source = RuleSource(section.get("variant"), settings=section.get("set", ()), policy=section.get("policy"),
                            policies=section.get("policies"))  # fmt: skip
        fields = {name: section.get(name, default) for name, (_, default) in module.FIELDS.items()}
        try:
            return module.ask(spec, section["players"], budget, source=source, **fields)
        except InputError as err:
            raise InputError(f"{module.KIND}[{k}]: {err.field.lstrip('-')}", err.message) from None

    def write(plan, section, *, seed, engine, progress, name, out_dir, kept=None):
        answer = module.play(plan, backend=engine, progress=progress)
        shown = module.rows(answer)
        note = f"{module.TITLE}: {plan.players} players, {plan.budget.games:,} games, seed {seed}"
        return note, shown, tidy(module.KIND, shown), [], list(answer.findings), []

    return SectionKind(types, ("players",), plan, write)


def kinds() -> dict[str, SectionKind]:
    """Every kind of section a study takes: those of KINDS, then each kind of question that
    describes itself (``snakesim.questions.described``), in that order."""
    return {**KINDS, **{kind: _described_kind(m) for kind, m in described().items() if kind not in KINDS}}
