"""What the page asks the workbench to play, checked completely before any game is played,
and what each run sends back.

Every request names its ``kind`` (a panel of ``snakesim.workbench.panels``: ``compare`` or
``balance``), the ``game``, ``players``, ``seed``, ``feel`` and ``lineup`` (the baseline's
players, one policy per seat; null: the game's default player in every seat), and the rule
sets its panel plays; a rule set takes the line-up unless it names ``policies`` of its own.
``feel`` decides the game-feel figures for every rule set (a rules text's own ``feel`` is
left out: the page has one switch). The panel checks the rest and plays it.
"""

from __future__ import annotations

import os
from typing import Any

from snakesim.core.arms import Budget, RuleSource, build_arms
from snakesim.core.errors import InputError
from snakesim.core.rng import MAX_SEED
from snakesim.core.rules import Int
from snakesim.games import get_game
from snakesim.workbench.forms import check_policies
from snakesim.workbench.jobs import Job, Limits
from snakesim.workbench.panels import DEFAULT, panel
from snakesim.workbench.plans import RunPlan
from snakesim.workbench.rulesets import arm_table, arms_played, file_name


def check_request(request: Any, limits: Limits) -> tuple[Job, RunPlan]:
    """Check a run request completely; return its job (with its total of games, 0 when not
    known ahead) and what the run needs. InputError naming the field otherwise."""
    if not isinstance(request, dict):
        raise InputError("request", "expected a JSON object")
    kind = panel(request.get("kind", DEFAULT))
    if not isinstance(request.get("game"), str):
        raise InputError("game", "expected a game's name")
    spec = get_game(request["game"])
    players = spec.check_players(request.get("players", spec.min_players))
    seed = Int(0, MAX_SEED).check("seed", request.get("seed", 1))
    feel = request.get("feel", True)
    if not isinstance(feel, bool):
        raise InputError("feel", f"expected true or false, got {feel!r}")
    lineup = check_policies(spec, players, request.get("lineup"), "lineup")
    shared = RuleSource(options={"feel": feel})
    asked, games = kind.rule_sets(request, limits)
    tables = [arm_table(spec, players, a, k, lineup) for k, a in enumerate(asked)]
    arms = build_arms(spec, players, Budget(games, seed), tables, shared, where="arms")
    plan = RunPlan(
        kind,
        spec,
        players,
        games,
        seed,
        arms=arms,
        tables=tables,
        shared=shared,
        lineup=lineup,
        request=request,
        limits=limits,
    )
    total = kind.complete(plan)
    what = f"{spec.name.capitalize()}, {players} players: {kind.describe(request)}"
    return Job(kind.KIND, request, total, what=what, plan=plan), plan


def play(job: Job, plan: RunPlan, catalogue: str | os.PathLike | None = None, fresh: bool = False,
         warming=None) -> dict:  # fmt: skip
    """Play a checked request (``check_request``) for ``job``; return what the page shows:
    the panel's result, each rule set as played and the command line that gives the same. A
    search takes the games earlier searches kept in ``catalogue`` (its path; None: the
    default's), unless ``fresh``, and keeps those it plays there. Where the background process
    ``warming`` (``snakesim.games.warm.Background``) is compiling this game's engine, the run
    waits for it (and for no other game), then loads it from the cache; likewise for the engine
    of players who think ahead, where a seat does."""
    from snakesim.core import compiling
    from snakesim.core.policies import encode_policies
    from snakesim.core.progress import seconds_per_game
    from snakesim.workbench.answers import opened
    from snakesim.workbench.jobs import WatchedBackend

    spec, players, seed, kind = plan.spec, plan.players, plan.seed, plan.kind

    def notice(line: str) -> None:
        with job.lock:
            job.state, job.message = "compiling", line

    arms_codes = [encode_policies(spec, arm.seats) if arm.seats else None for arm in plan.arms]
    for thinks in sorted({compiling.thinks_ahead(spec, codes) for codes in arms_codes}):
        if warming is not None and warming.compiling(spec.name, thinks):
            what = " for players who think ahead" if thinks else ""
            notice(f"getting the {spec.title.split(':')[0]} engine{what} ready for this computer: it is compiling in "
                   "the background (started with the workbench), and this run starts once it is ready")  # fmt: skip
            warming.wait(spec.name, job.cancel, thinks=thinks)
    parts = []
    for arm, codes in zip(plan.arms, arms_codes, strict=True):  # the kernels loaded or compiled first, the page told
        compiling.prepare(spec, arm.rules, players, seed, codes, notice=notice)
        if kind.COUNTS_WORK and job.total:  # what a game of this arm costs, for a bar that counts work
            parts.append((plan.games, seconds_per_game(spec, arm.rules, players, seed, plan.games, codes=codes)))
    with job.lock:
        job.state, job.message, job.parts = "playing", "", parts
    with opened(catalogue) as plan.kept:  # (opened on the run's own thread: SQLite's connections stay on theirs)
        plan.kept.reuse = not fresh
        result = kind.play(plan, WatchedBackend(job))
    return {**result, "arms": arms_played(plan), "command": command(plan)}


def command(plan: RunPlan) -> str:
    """The command line that gives the same figures, with each arm's rules saved as
    ``LABEL.toml`` (the page's "rules" download)."""
    import shlex

    spec, kind = plan.spec, plan.kind
    if not getattr(kind, "COMMAND", True):  # (a kind with no command of its own)
        return ""
    parts = ["snakesim", kind.KIND, spec.name, "-p", str(plan.players), "--seed", str(plan.seed),
             "-n", str(plan.games)]  # fmt: skip
    lineup = list(plan.lineup)
    if lineup and lineup != [spec.default_policy] * len(lineup):
        parts += ["--policies", ",".join(lineup)]
    for arm in plan.arms:
        text = f"{arm.label}={file_name(arm.label)}"
        if list(arm.seats) != lineup:
            text += ",policies=" + "/".join(arm.seats)
        parts += ["-v", text]
    if not plan.feel:
        parts += ["--set", "feel=false"]
    parts += kind.command_args(plan)
    return " ".join(shlex.quote(p) for p in parts)
