"""The design panel: one rule set to start from, the options to vary and the targets to meet;
``design`` plays every combination on the same games, drops what misses by more than matters,
and confirms the answers on fresh games, exactly as ``snakesim design`` does.

Its request::

    {"kind": "design", "game": "fortune", "players": 4, "games": 2000, "seed": 1, "feel": true,
     "lineup": null, "arm": {"name": "standard", "toml": "", "policies": null},
     "vary": ["start_coins=8:20", "snakes=1:2"], "targets": ["length.median=60+-8"],
     "prefer": null, "budget": 1000000}

``games`` is each rule set's first round; ``budget`` the most games in all (at most the
page's limit). A ``variant=...`` dimension starts each rule set from that named variant's own
rules; every other dimension changes the chosen rule set.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from snakesim.core.arms import Budget, RuleSource
from snakesim.core.errors import InputError
from snakesim.core.rules import Int, inline
from snakesim.workbench.answers import saved

if TYPE_CHECKING:
    from snakesim.workbench.plans import RunPlan

KIND = "design"
NOUN = "design search"
SCRIPT = "panel-design.js"
COUNTS_WORK = False  # (a search: its games are not known ahead)
MOST_LINES = 6  # options to vary, and targets, a request may give
MOST_BARS = 8  # rule sets a one-target chart shows (a phone has room for about that many)
MOST_POINTS = 200  # rule sets a two-target chart draws (past them, a phone's plane is a blot)
MOST_NAMED = 3  # answers its summary names with their figures


def rule_sets(request: dict, limits) -> tuple[list[Any], int]:
    """The one rule set to start from, and each rule set's games in the first round."""
    games = Int(100, max(100, limits.max_games // 20)).check("games", request.get("games", 2_000))
    return [request.get("arm")], games


def _lines(request: dict, key: str) -> list[str]:
    """A request's list of texts (one a line on the page), at most :data:`MOST_LINES`."""
    lines = request.get(key)
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        raise InputError(key, "expected a list of texts, one a line")
    lines = [x.strip() for x in lines if x.strip()]
    if len(lines) > MOST_LINES:
        raise InputError(key, f"at most {MOST_LINES}, got {len(lines)}")
    return lines


def complete(plan: RunPlan) -> int:
    """The options to vary, the targets and the budget, checked as ``snakesim design`` checks
    them (named as the page names them); a search's games are not known ahead (0)."""
    from snakesim.analysis.design_space import MAX_SPACE, Space, check_size
    from snakesim.questions import design as question

    spec, request, players, limits = plan.spec, plan.request, plan.players, plan.limits
    budget = Int(plan.games * 2, limits.max_games).check("budget", request.get("budget", limits.max_games))
    prefer = request.get("prefer") or None
    if prefer is not None and not isinstance(prefer, str):
        raise InputError("prefer", "expected a figure's name, or nothing")
    try:
        asked = question.ask(spec, players, _lines(request, "vary"), _lines(request, "targets"),
                             Budget(plan.games, plan.seed, max_games=budget), source=plan.arms[0],
                             prefer=prefer)  # fmt: skip
        check_size(Space(spec, RuleSource(), players, asked.dims), MAX_SPACE)
    except InputError as err:  # (named as the page names them, not as command-line options)
        field = err.field.lstrip("-")
        raise InputError({"target": "targets"}.get(field, field), err.message) from None
    plan.question, plan.prefer_text = asked, prefer
    return 0


def describe(request: dict) -> str:
    """What a run of this panel plays, in words: the rule set it starts from and its targets."""
    return f"rule sets from {(request.get('arm') or {}).get('name', 'a rule set')} that meet every target"


def play(plan: RunPlan, backend) -> dict:
    """Search; the findings, each answer (or the nearest miss) with its figures and its rules
    as TOML (for the page to add as a rule set), and a chart of every rule set's figures."""
    from snakesim.questions import design as question

    asked = plan.question
    answer = question.play(asked, backend=backend, kept=plan.kept)
    result = answer.result
    s = result.summary
    rules = {c.label(result.dims): c.rules for c in result.candidates}
    answers = [_answer(a, s["targets"], rules[a["label"]], name=_name(a, k))
               for k, a in enumerate(s["answers"] or s["nearest"], start=1)]  # fmt: skip
    return {
        "players": asked.players,
        "findings": [{"arm": None, "text": t} for t in answer.findings] + saved(result.summary),
        "answers": answers,
        "met": bool(s["answers"]),
        "counts": s["counts"],
        "targets": [t["text"] for t in s["targets"]],
        "charts": [_chart(s, result.table, result.dims)],
    }


def _answer(a: dict, targets: list[dict], rules, name: str) -> dict:
    """An answer as the page lists it: its label, the name it takes as a rule set, each
    target's figure on the fresh games (or, where it was not checked on them, the search's),
    whether it holds there (None: not checked), the games, and its rules as TOML."""
    from snakesim.analysis.design_space import Target

    c = a.get("confirmed")
    figures = (c or a)["figures"]
    cells = [f"{t['metric']} {Target.of(t).interval(figures[t['metric']])}" for t in targets]
    return {"label": a["label"], "name": name, "options": a["options"], "figures": cells,
            "holds": None if c is None else bool(c["holds"]), "games": (c or a)["games"],
            "toml": rules.to_toml()}  # fmt: skip


def _name(a: dict, k: int) -> str:
    """A rule set's name on the page (letters, digits, spaces and - _ . + ( ), at most
    :data:`~snakesim.workbench.rulesets.MAX_NAME`): its values (``start_coins 13 snakes 2
    rejoin``), else ``answer K``."""
    from snakesim.workbench.rulesets import MAX_NAME

    parts = [str(v) if name == "variant" else f"{name} {str(v).lower()}" for name, v in a["options"].items()]
    text = re.sub(r"[^\w .+()-]", " ", " ".join(parts)).strip()
    return text if text and len(text) <= MAX_NAME else f"answer {k}"


def _chart(s: dict, table, dims) -> dict:
    """The search's chart: with two targets or more, the plane of the first two (every rule set
    played a point with its intervals both ways, the region that meets both shaded, the answers
    or the nearest miss marked and numbered as the page lists them); with one, bars. Either way
    the summary says of a target no option varied moves that it is the same in every rule set
    (Hisss's length under ring_reach: 49 in every one, which a picture alone leaves to guess)."""
    played = table[table["games"] > 0].copy()
    unmoved = _unmoved(s["targets"], played)
    out = _plane(s, played) if len(s["targets"]) > 1 else _bars(s, played, dims)
    if unmoved:  # (said over the chart as well: a column of points at one value reads as chance)
        out["summary"] = " ".join(unmoved) + " " + out["summary"]
        out["notes"] = unmoved
    return out


def _unmoved(targets: list[dict], played) -> list[str]:
    """A sentence for each target whose value is the same in every rule set played (as the
    findings' "None of the options varied moves ..." finds it)."""
    import numpy as np

    from snakesim.analysis.design_space import Target
    from snakesim.analysis.words import SAME

    out = []
    for t in targets if len(played) > 1 else []:
        values = played[t["metric"]].to_numpy(dtype=float)
        if np.isfinite(values).all() and np.ptp(values) < SAME:
            out.append(f"{t['metric']} is {Target.of(t).show(values[0])} in every rule set played ({len(played)}): "
                       f"no option varied moves it.")  # fmt: skip
    return out


def _plane(s: dict, played) -> dict:
    """The first two targets' plane (as :func:`~snakesim.report.figures.design_figure` draws it):
    each rule set played a point at its two figures on the search's games, each with its
    interval, scaled as the targets are written; the region that meets both (``None``: a side
    open to the chart's edge); each point's class: ``answer`` (numbered in the order the page
    lists them), ``nearest`` (the nearest miss the words name, numbered, when nothing meets
    every target), ``trade-off`` (no other rule set nearer both targets), ``other``. The points
    come in the order the arrow keys step through them: the answers first, then by how far each
    lies from the region. Past :data:`MOST_POINTS` rule sets, the answers, the nearest miss, the
    trade-off and those nearest the region are kept, and the summary says how many of how many."""
    import math

    from snakesim.analysis.design_space import Target
    from snakesim.report.charts import chart

    tx, ty = s["targets"][:2]
    targets = [Target.of(tx), Target.of(ty)]
    answers = [a["label"] for a in s["answers"]]
    nearest = [] if answers else [a["label"] for a in s["nearest"]]
    numbered = {label: k for k, label in enumerate(answers or nearest, start=1)}
    front = set(s.get("pareto") or []) - set(answers) - set(nearest)  # (the diamonds)
    kind = {
        **dict.fromkeys(front, "trade-off"),
        **dict.fromkeys(nearest, "nearest"),
        **dict.fromkeys(answers, "answer"),
    }
    rank = {"answer": 0, "nearest": 1, "trade-off": 2, "other": 3}

    def far(r) -> float:  # (from the region, in units of each target's difference that matters)
        return sum(t.shortfall(r[t.metric]) / (t.margin or 1.0) for t in targets)

    drawable = [r for _, r in played.iterrows() if all(math.isfinite(r[t.metric]) for t in targets)]
    rows = sorted(drawable, key=lambda r: (rank[kind.get(r["label"], "other")],
                                           numbered.get(r["label"], 0), far(r)))  # fmt: skip
    kept = [r for r in rows if r["label"] in kind]
    rows = kept + [r for r in rows if r["label"] not in kind][: max(0, MOST_POINTS - len(kept))]

    def scaled(t: Target, v) -> float | None:
        return t.scale * float(v) if math.isfinite(v) else None

    points = []
    for r in rows:
        label, point = r["label"], {"label": r["label"], "class": kind.get(r["label"], "other")}
        if label in numbered:
            point["number"] = numbered[label]
        for axis, t in zip("xy", targets, strict=True):
            point |= {axis: scaled(t, r[t.metric]), f"{axis}_low": scaled(t, r[f"{t.metric}_low"]),
                      f"{axis}_high": scaled(t, r[f"{t.metric}_high"])}  # fmt: skip
        points.append(point)
    region = {axis: [t.scale * x if math.isfinite(x) else None for x in t.region]
              for axis, t in zip("xy", targets, strict=True)}  # fmt: skip

    def named(label: str) -> str:
        r = played.loc[played["label"] == label].iloc[0]
        figures = ", ".join(f"{t.metric} {_figure(t, r[t.metric], r[f'{t.metric}_low'], r[f'{t.metric}_high'])}"
                            for t in targets)  # fmt: skip
        return f"{numbered[label]}: {label} ({figures})"

    marked = answers or nearest
    listed = "; ".join(named(label) for label in marked[:MOST_NAMED])
    listed += f"; and {len(marked) - MOST_NAMED} more" if len(marked) > MOST_NAMED else ""
    words = [
        f"Each rule set played is a point: {tx['metric']} across, {ty['metric']} up, with its intervals on the "
        f"search's games both ways; shaded, the region that meets both targets ({tx['text']}; {ty['text']})."
    ]
    if answers:
        words.append(f"The rule set{'s' if len(answers) > 1 else ''} that meet{'' if len(answers) > 1 else 's'} "
                     f"every target (large circles, numbered as listed): {listed}.")  # fmt: skip
    elif nearest:
        words.append(f"No rule set meets every target; the nearest miss (a triangle, numbered): {listed}.")
    else:
        words.append("No rule set meets every target.")
    if front:
        many = len(front) > 1
        words.append(f"Diamonds: {len(front)} {'more rule sets' if many else 'more rule set'} on the trade-off (no "
                     f"rule set is nearer both targets than {'they are' if many else 'it is'}).")  # fmt: skip
    if len(points) < len(played):
        left = len(played) - len(drawable)
        words.append(f"{len(points):,} of the {len(played):,} rule sets played are shown: "
                     + ("the answers and " if answers else "") + "those nearest the shaded region"
                     + (f" ({left} with no value to draw)" if left else "") + ".")  # fmt: skip
    if len(s["targets"]) > 2:
        rest = "; ".join(t["text"] for t in s["targets"][2:])
        words.append(f"Not drawn: {rest} (an answer meets it too).")

    def axis(t: Target) -> str:
        low, high = t.region
        said = {"<=": f"at most {t.show(high)}", ">=": f"at least {t.show(low)}"}.get(
            t.op, f"{t.show(low)} to {t.show(high)}"
        )
        return f"{t.metric} (target: {said})"

    out = chart("design", f"Each rule set on the two targets: {tx['metric']} and {ty['metric']}", "plane",
                axis(targets[0]), axis(targets[1]), percent=False, series=[], summary=" ".join(words))  # fmt: skip
    out |= {"points": points, "region": region, "x_name": tx["metric"], "y_name": ty["metric"],
            "x_unit": tx.get("unit", ""), "y_unit": ty.get("unit", "")}  # fmt: skip
    return out


def _figure(t, value: float, low: float, high: float) -> str:
    """A figure and its interval as the chart's readout shows it: to the decimals the interval's
    width shows (``0.209 [0.201, 0.217]``, ``4 points [0, 18]``), the unit once."""
    import math

    from snakesim.analysis.words import decimals, fixed

    k = t.scale
    if not (math.isfinite(low) and math.isfinite(high)) or not high > low:
        shown = t.show(value)
        return shown + (f" [{t.show(low, False)}, {t.show(high, False)}]" if math.isfinite(low + high) else "")
    p = decimals(k * (high - low))
    text = fixed(k * value, p)
    unit = " point" if t.unit == " points" and text == "1" else t.unit
    return f"{text}{unit} [{fixed(k * low, p)}, {fixed(k * high, p)}]"


def _bars(s: dict, played, dims) -> dict:
    """The answers and the rule sets nearest them on the target (the search's one target),
    eight at most, as bars in the order of the options varied, numbered (answers starred), each
    number's values in the summary and the tooltip, with the target's edges dashed.

    A family could not read it when it showed twelve rule sets' full names (two or three
    labels fitted), in no order, and always the first target."""
    from snakesim.analysis.design_space import Target
    from snakesim.report.charts import chart

    targets = [Target.of(t) for t in s["targets"]]
    off = [sum(t.shortfall(v) > 0 for v in played[t.metric]) for t in targets]
    k = off.index(max(off))  # (ties: the first)
    t, target = s["targets"][k], targets[k]
    answers = {a["label"] for a in s["answers"]}
    # (the answers first, or with none the nearest misses the findings name: a chart once left
    # out the rule set the words recommended)
    first = answers or {a["label"] for a in s["nearest"]}
    played["order"] = [(label not in first, target.shortfall(v)) for label, v in
                       zip(played["label"], played[t["metric"]], strict=True)]  # fmt: skip
    shown = played.sort_values("order").head(MOST_BARS).sort_index()  # (the space's order)
    scale = t["scale"]
    metric, low, high = t["metric"], f"{t['metric']}_low", f"{t['metric']}_high"
    names = [d.name for d in dims]

    def short(r) -> str:
        values = ", ".join(str(r[n]).lower() if str(r[n]) in ("True", "False") else str(r[n]) for n in names)
        return values + (" (meets)" if r["label"] in answers else " (nearest)" if r["label"] in first else "")

    # Numbered bars, each number's rule set in the summary and the tooltip: even values alone
    # fitted only two labels of eight on a phone.
    rows = list(shown.iterrows())
    names_shown = [short(r) for _, r in rows]
    points = [[f"{j}" + ("*" if r["label"] in answers else ""), scale * r[metric], scale * r[low], scale * r[high]]
              for j, (_, r) in enumerate(rows, start=1)]  # fmt: skip
    edges = [x for x in target.region if abs(x) != float("inf")]
    guides = [{"value": scale * x, "label": f"target {t['op'] if t['op'] != '=' else 'edge'} {target.show(x)}"}
              for x in edges]  # fmt: skip
    key = "; ".join(f"{j}: {n}" for j, n in enumerate(names_shown, start=1))
    summary = (f"{t['metric']} of each rule set with its interval on the search's games (the target: {t['text']}, "
               f"dashed): the rule sets that meet every target (marked *) and those nearest this target, "
               f"{len(points)} of {len(played)}, in the order of {', '.join(names)}. {key}.")  # fmt: skip
    out = chart("design", f"{t['metric']}: the answers and the rule sets nearest the target", "bars",
                "rule set, numbered below (* meets every target)", t["metric"], percent=False,
                series=[{"name": f"{t['metric']} (search's games)", "points": points}], summary=summary)  # fmt: skip
    out["guides"] = guides
    out["names"] = [f"{j}: {n}" for j, n in enumerate(names_shown, start=1)]  # (the tooltip's title)
    return out


def command_args(plan: RunPlan) -> list[str]:
    """The options of its command line past the common ones (game, players, seed, rule sets)."""
    args = [x for text in plan.request["vary"] if text.strip() for x in ("--vary", text.strip())]
    args += [x for text in plan.request["targets"] if text.strip() for x in ("--target", text.strip())]
    if plan.prefer_text:
        args += ["--prefer", plan.prefer_text]
    return [*args, "--budget", str(plan.question.budget.most)]


def question(plan: RunPlan) -> str:
    """The question a study file of this run asks, in a sentence."""
    return f"Which rule sets meet {'; '.join(t.text for t in plan.question.targets)} at once?"


def study(plan: RunPlan) -> list[str]:
    """A study's ``[[design]]`` section: the rule set as its settings, what varies, the
    targets and the budget."""
    arm, players, budget = plan.tables[0], plan.players, plan.question.budget
    vary = [x.strip() for x in plan.request["vary"] if x.strip()]
    targets = [x.strip() for x in plan.request["targets"] if x.strip()]
    heading = "Rule sets from " + arm["name"] + " that meet every target"
    lines = ["[[design]]", f"title = {inline(heading)}",
             f"players = {players}", f"games = {budget.games}", f"budget = {budget.most}",
             f"vary = {inline(vary)}", f"targets = {inline(targets)}"]  # fmt: skip
    if plan.prefer_text:
        lines.append(f"prefer = {inline(plan.prefer_text)}")
    feel = [] if plan.shared.options.get("feel", True) else ["feel=false"]
    if arm["set"] or feel:
        lines.append(f"set = {inline(arm['set'] + feel)}")
    if arm.get("policies"):
        lines.append(f"policies = {inline(arm['policies'])}")
    return lines


def report(job, arms_shown: bool) -> tuple[list[str], list[dict]]:
    """The report's design search: the targets, the rule set it started from (unless shown
    already), the answers, the findings and the chart."""
    from snakesim.workbench.rulesets import arms_text, findings_text

    result, request = job.result, job.request
    parts = ["## Rule sets that meet every target", "",
             f"From **{request['arm']['name']}**, varying {', '.join(request['vary'])}; targets: "
             f"{'; '.join(result['targets'])}.", ""]  # fmt: skip
    if not arms_shown:
        parts += [*arms_text(result["arms"]), ""]
    said = "answers" if result["met"] else "the nearest miss"
    checked = {None: "on the search's games; not checked on fresh games", True: "on fresh games: holds",
               False: "on fresh games: does not hold"}  # fmt: skip
    parts += [f"{said.capitalize()}, {result['players']} players:", ""]
    parts += [
        f"{k}. {a['label']}: {', '.join(a['figures'])} ({a['games']:,} games {checked[a['holds']]})"
        for k, a in enumerate(result["answers"], start=1)
    ]  # (numbered as the chart numbers them)
    parts += ["", *findings_text(result["findings"]), "", f"CHARTS-{KIND}", ""]
    return parts, result["charts"]
