"""What the page asks the workbench to play, checked completely before any game is played,
and what each run sends back.

A comparison request::

    {"kind": "compare", "game": "rainbow", "players": 3, "games": 100000, "seed": 1,
     "feel": true, "lineup": ["greedy", "random", "greedy"],
     "arms": [{"name": "seed's game", "toml": "...", "policies": null}, ...]}

plays every arm on games ``0 .. games-1`` of ``seed`` through ``compare_variants``, exactly as
``snakesim compare`` does. ``lineup`` is the baseline's players, one policy per seat (null: the
game's default player in every seat); an arm takes it unless it names ``policies`` of its own.
``feel`` decides the game-feel figures for every arm (a rules text's own ``feel`` is left
out: the page has one switch). A balance request names one ``arm``, a per-seat ``handicap``
option, a ``tolerance`` and the games per candidate, and runs ``balance``.
"""

from __future__ import annotations

import re
from typing import Any

from snakesim.core.arms import Budget, RuleSource, build_arms
from snakesim.core.errors import InputError
from snakesim.core.rng import MAX_SEED
from snakesim.core.rules import Int, as_toml, change_settings, describe_changes
from snakesim.games import get_game
from snakesim.workbench.forms import SWITCHES, check_policies, rules_from_text
from snakesim.workbench.jobs import Job, Limits
from snakesim.workbench.keep import DETAILS_NOTE

KINDS = ("compare", "balance")
MAX_NAME = 40
# An arm's label: what the command line's LABEL=... takes without quoting (no = , or quotes).
LABEL = re.compile(rf"^[\w][\w .+()-]{{0,{MAX_NAME - 1}}}$")
LABEL_ALLOWED = f"1 to {MAX_NAME} letters, digits, spaces or - _ . + ( ), starting with a letter or digit"
# A balance plays rounds of candidates, then fresh games: its games per candidate may be at
# most this share of a request's games.
BALANCE_SHARE = 50


def _int(request: dict, key: str, low: int, high: int, default: int | None = None) -> int:
    value = request.get(key, default)
    return Int(low, high).check(key, value)


def check_label(name: Any, where: str = "name") -> str:
    """A rule set's label, stripped; InputError naming ``where`` unless it is 1 to 40 letters,
    digits, spaces or ``- _ . + ( )`` (what the command line's ``LABEL=`` takes unquoted)."""
    if not isinstance(name, str) or not LABEL.match(name.strip()):
        shown = "nothing" if not isinstance(name, str) or not name.strip() else repr(name)
        raise InputError(where, f"expected a label of {LABEL_ALLOWED}, got {shown}")
    return name.strip()


def check_request(request: Any, limits: Limits) -> tuple[Job, dict]:
    """Check a run request completely; return its job (with its total of games) and what the
    run needs. InputError naming the field otherwise."""
    if not isinstance(request, dict):
        raise InputError("request", "expected a JSON object")
    kind = request.get("kind", "compare")
    if kind not in KINDS:
        raise InputError("kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    if not isinstance(request.get("game"), str):
        raise InputError("game", "expected a game's name")
    spec = get_game(request["game"])
    players = spec.check_players(request.get("players", spec.min_players))
    seed = _int(request, "seed", 0, MAX_SEED, 1)
    feel = request.get("feel", False)
    if not isinstance(feel, bool):
        raise InputError("feel", f"expected true or false, got {feel!r}")
    lineup = check_policies(spec, players, request.get("lineup"), "lineup")
    shared = RuleSource(options={"feel": feel})
    if kind == "compare":
        arms_in = request.get("arms")
        if not isinstance(arms_in, list) or not 1 <= len(arms_in) <= limits.max_arms:
            raise InputError("arms", f"expected a list of 1 to {limits.max_arms} rule sets")
        most = limits.max_games // len(arms_in)
        if most < 1:
            raise InputError("arms", f"this server plays at most {limits.max_games:,} games per request")
        games = _int(request, "games", 1, most, 100_000)
    else:
        arms_in = [request.get("arm")]
        games = _int(request, "games", 100, max(100, limits.max_games // BALANCE_SHARE), 20_000)
    tables = [_arm(spec, players, a, k, lineup) for k, a in enumerate(arms_in)]
    arms = build_arms(spec, players, Budget(games, seed), tables, shared, where="arms")
    plan = {"spec": spec, "players": players, "games": games, "seed": seed, "arms": arms, "tables": tables,
            "shared": shared, "lineup": lineup, "request": request}  # fmt: skip
    if kind == "compare":
        return Job(kind, request, games * len(arms)), plan
    from snakesim.analysis.balance import check_balance

    handicap = request.get("handicap")
    if not isinstance(handicap, str):
        raise InputError("handicap", f"expected one of {', '.join(spec.rules.per_seat_options())}")
    tolerance = request.get("tolerance", 0.01)
    try:
        budget = Budget(games, seed, max_games=4 * games, confirm_games=5 * games)
        check_balance(spec, arms[0].rules, players, handicap, budget, tolerance=tolerance)
    except InputError as err:  # (named as the page names them, not as command-line options)
        raise InputError(err.field.lstrip("-"), err.message) from None
    plan.update(handicap=handicap, tolerance=tolerance, budget=budget)
    return Job(kind, request, 0), plan


def _arm(spec, players: int, arm: Any, k: int, lineup: list[str]) -> dict:
    """An arm of the page as ``snakesim.core.arms`` takes it: a label, the rules' options and
    the seats' policies (the line-up's unless the arm has its own)."""
    where = f"arms[{k}]"
    if not isinstance(arm, dict):
        raise InputError(where, "expected a rule set: {name, toml, policies}")
    name = check_label(arm.get("name"), f"{where}.name")
    try:
        rules = rules_from_text(spec, arm.get("toml", ""))
        own = arm.get("policies")
        seats = lineup if own is None else check_policies(spec, players, own)
    except InputError as err:
        raise InputError(f"{name}: {err.field}", err.message) from None
    out = {"name": name, "set": change_settings(rules.changes())}
    if seats:
        out["policies"] = seats
    return out


def play(job: Job, plan: dict) -> dict:
    """Play a checked request (``check_request``) for ``job``; return what the page shows."""
    from snakesim.core import compiling
    from snakesim.core.policies import encode_policies
    from snakesim.core.progress import seconds_per_game
    from snakesim.workbench.jobs import WatchedBackend

    spec, players, seed = plan["spec"], plan["players"], plan["seed"]

    def notice(line: str) -> None:
        with job.lock:
            job.state, job.message = "compiling", line

    parts = []
    for arm in plan["arms"]:  # the kernels loaded or compiled first, and the page told
        codes = encode_policies(spec, arm.seats) if arm.seats else None
        compiling.prepare(spec, arm.rules, players, seed, codes, notice=notice)
        if job.kind == "compare":  # what a game of this arm costs, for a bar that counts work
            parts.append((plan["games"], seconds_per_game(spec, arm.rules, players, seed, plan["games"], codes=codes)))
    with job.lock:
        job.state, job.message, job.parts = "playing", "", parts
    backend = WatchedBackend(job)
    if job.kind == "compare":
        return _compare(plan, backend)
    return _balance(plan, backend)


def arms_played(plan: dict) -> list[dict]:
    """Each rule set as the page, the report and the study name it: its label, what it changes
    from the seed's game (as TOML and in a line), its hash and its players."""
    lineup = list(plan["lineup"])
    out = []
    for a in plan["arms"]:
        changes = {k: v for k, v in a.rules.changes().items() if k not in SWITCHES}
        out.append({"name": a.label, "rules_hash": a.rules.rules_hash(), "policies": list(a.seats),
                    "own_players": list(a.seats) != lineup, "changes": as_toml(changes) if changes else "",
                    "summary": describe_changes(changes)})  # fmt: skip
    return out


def _compare(plan: dict, backend) -> dict:
    from snakesim.analysis.compare import compare_variants
    from snakesim.analysis.findings import ALPHA, compare_findings, hidden_metrics, row_text
    from snakesim.report.charts import comparison_charts

    spec, players, games = plan["spec"], plan["players"], plan["games"]
    budget = Budget(games, plan["seed"])
    table, tables = compare_variants(spec, players, plan["tables"], budget, plan["shared"], backend=backend)
    shown = table[~table["metric"].isin(hidden_metrics(table))]
    rows = []
    for r in shown.to_dict(orient="records"):
        value, diff = row_text(r)
        rows.append({"arm": r["variant"], "metric": r["metric"], "label": r["label"], "value": value, "diff": diff,
                     "significant": bool(r["p_holm"] == r["p_holm"] and r["p_holm"] < ALPHA)})  # fmt: skip
    return {
        "findings": compare_findings(table, spec, players, games),
        "rows": rows,
        "charts": comparison_charts(spec, players, table, tables),
        "arms": arms_played(plan),
        "command": command(plan),
        "details_note": DETAILS_NOTE,
    }


def _balance(plan: dict, backend) -> dict:
    from snakesim.analysis.balance import balance
    from snakesim.analysis.findings import balance_findings
    from snakesim.report.charts import balance_chart

    arm = plan["arms"][0]
    result = balance(plan["spec"], arm.rules, plan["players"], plan["handicap"], arm.seats, budget=plan["budget"],
                     tolerance=plan["tolerance"], backend=backend)  # fmt: skip
    return {
        "findings": [{"arm": None, "text": t} for t in balance_findings(result.summary)],
        "status": result.status,
        "message": result.message,
        "values": list(result.values),
        "base": list(result.base),
        "handicap": plan["handicap"],
        "tolerance": plan["tolerance"],
        "charts": [balance_chart(result, plan["handicap"])],
        "arms": arms_played(plan),
        "command": command(plan),
    }


def command(plan: dict) -> str:
    """The command line that gives the same figures, with each arm's rules saved as
    ``LABEL.toml`` (the page's "rules" download)."""
    import shlex

    spec, request = plan["spec"], plan["request"]
    parts = ["snakesim", request.get("kind", "compare"), spec.name, "-p", str(plan["players"]), "--seed",
             str(plan["seed"]), "-n", str(plan["games"])]  # fmt: skip
    lineup = list(plan["lineup"])
    if lineup and lineup != [spec.default_policy] * len(lineup):
        parts += ["--policies", ",".join(lineup)]
    for arm in plan["arms"]:
        text = f"{arm.label}={file_name(arm.label)}"
        if list(arm.seats) != lineup:
            text += ",policies=" + "/".join(arm.seats)
        parts += ["-v", text]
    balance = request.get("kind") == "balance"
    if plan["shared"].options.get("feel"):
        parts += ["--set", "feel=true"]
    if balance:
        parts += ["--handicap", plan["handicap"], "--tolerance", str(plan["tolerance"])]
        parts += ["--max-games", str(4 * plan["games"]), "--confirm-games", str(5 * plan["games"])]
    return " ".join(shlex.quote(p) for p in parts)


def file_name(label: str) -> str:
    """The file a label's rules download as: letters, digits, - and _ kept, the rest -."""
    return (re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-") or "rules") + ".toml"
