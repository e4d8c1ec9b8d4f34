"""Design search: the rule sets that meet every one of a designer's targets at once.

Every candidate (a rule set the ``--vary`` dimensions span: ``design_space``) plays the same
games, game ``i`` of the seed for every one (common random numbers, as ``tune`` and
``balance``), in rounds: the first round's games for all, then twice as many for those still
undecided. After each round each candidate's figures get intervals that stay valid however
often they are looked at (confidence sequences), and each target is called:

- **misses** when the interval lies wholly outside the target widened by the difference that
  matters (the figure's ``matters``, or ``--matters``): the rule set misses it by more than a
  player would notice, and plays no more games;
- **meets** when the interval lies inside the widened target and the estimate inside the
  target itself;
- **near** when the interval lies inside the widened target but the estimate outside the
  target: off it, by less than anyone would notice;
- **edge** when the interval crosses the widened target's edge but is narrower than what
  matters: off the target by about as much as matters, which more games would hardly settle
  (this caps the games any rule set can take: an exhaustive grid at the same precision plays
  every rule set that long);
- **undecided** otherwise: its interval crosses the widened target's edge, and it plays on.

A rule set that meets every target is an answer. With ``--prefer`` an answer is dropped
(beaten) once its interval for that figure lies beyond the best answer's by more than what
matters; answers whose interval is still wider than what matters play on. The search stops
when nothing is left undecided or the next round would pass the budget. The best answers
(five at most; the nearest miss when there are none) are then played on fresh games, which
the search never saw, and each target checked again there.

Why the answer's error rate holds despite the search: the intervals of the rounds are
confidence sequences (Howard et al. 2021's normal-mixture boundary, used as the ``z`` of each
figure's usual interval: Wilson for a rate, Student for a mean, Kaplan-Meier for a length
quantile; valid asymptotically, Waudby-Smith et al. 2021), so looking after every round and
stopping when they decide costs nothing; their level is split over every candidate and target
(Bonferroni), so with probability at least 95% no rule set is dropped for a miss it does not
have. The fresh games are independent of every choice the search made, so the confirmation's
intervals (fixed-size, Bonferroni over the answers and targets confirmed) hold as they would
for rule sets named in advance: choosing what to confirm cannot bias what the fresh games show.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.design_space import (
    MAX_CANDIDATES,
    MAX_SPACE,
    Candidate,
    Dimension,
    Prefer,
    Space,
    Target,
    candidates,
    check_size,
)
from snakesim.analysis.search import SameGames, held, metric_value, win_matrix
from snakesim.analysis.stats import LEVEL, normal_mixture_half_width, seat_gap
from snakesim.core import compiling
from snakesim.core.arms import Budget, RuleSource
from snakesim.core.errors import InputError
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

MEETS, NEAR, EDGE, MISSES, UNDECIDED, BEATEN = "meets", "near", "edge", "misses", "undecided", "beaten"
STATUSES = (MEETS, NEAR, EDGE, MISSES, UNDECIDED, BEATEN)
MAX_CONFIRM = 5  # answers confirmed on fresh games
MIN_TRIALS = 20  # rule sets a sampled search tries at the least
DESIGN = Budget(2_000, max_games=2_000_000)  # the first round's games a candidate, and the most in all


def anytime_level(games: int, alpha: float, games_opt: int) -> float:
    """The level of a fixed-size interval whose ``z`` is the two-sided normal-mixture boundary
    after ``games`` games (:func:`~snakesim.analysis.stats.normal_mixture_half_width` for a
    unit standard deviation, times the root of the games): such intervals, taken after any
    number of rounds, all hold at once with probability about ``1 - alpha``."""
    z = normal_mixture_half_width(games, 1.0, alpha, games_opt) * math.sqrt(games)
    if math.erfc(z / math.sqrt(2.0)) < 1e-15:  # (a level a float cannot tell from 1: the intervals would be too narrow)
        raise InputError("--budget", f"{games:,} games a rule set need intervals surer than a number can hold; "
                         "give fewer rule sets, targets or games")  # fmt: skip
    return math.erf(z / math.sqrt(2.0))


def figure_value(columns: dict[str, np.ndarray], target: Target, players: int, level: float):
    """A target's figure over per-game columns, with its interval at ``level``: ``(v, lo, hi)``."""
    if target.metric == "seat_gap":
        wins = win_matrix(columns, players)
        return seat_gap(wins.sum(axis=0), len(wins), level)
    return metric_value(columns, target.metric, level)


def call(target: Target, value: float, low: float, high: float) -> str:
    """One target's call for an estimate and its interval (see the module docstring)."""
    if value != value or low != low or high != high:
        return UNDECIDED
    wide_low, wide_high = target.widened
    if high < wide_low or low > wide_high:
        return MISSES
    if wide_low <= low and high <= wide_high:
        region_low, region_high = target.region
        return MEETS if region_low <= value <= region_high else NEAR
    return EDGE if high - low < target.margin else UNDECIDED


def overall(calls: list[str]) -> str:
    """A rule set's status from its targets' calls."""
    if MISSES in calls:
        return MISSES
    for status in (UNDECIDED, EDGE, NEAR):
        if status in calls:
            return status
    return MEETS


@dataclass
class Entry:
    """A candidate in the search: its games so far, each target's figure and call, its status,
    and the ``--prefer`` figure."""

    candidate: Candidate
    label: str
    games: int = 0
    figures: list = field(default_factory=list)
    calls: list = field(default_factory=list)
    status: str = UNDECIDED
    prefer: tuple | None = None


@dataclass
class DesignResult:
    """What :func:`design` found: ``summary`` (the JSON answer: ``answers``, ``nearest``,
    ``pareto``, ``search``) and ``table`` (one row per rule set: its options, status, games and
    each target's figure with its interval); ``dims`` and ``candidates``, the rule sets played."""

    summary: dict
    table: pd.DataFrame
    dims: tuple[Dimension, ...] = ()
    candidates: list[Candidate] = field(default_factory=list)


def design(
    spec: GameSpec,
    source: RuleSource,
    players: int,
    dims: tuple[Dimension, ...],
    targets: tuple[Target, ...],
    seats: tuple[str, ...] = (),
    *,
    prefer: Prefer | None = None,
    budget: Budget = DESIGN,
    level: float = LEVEL,
    backend=None,
    progress: bool = False,
    racing: bool = True,
    confirm: bool = True,
    base: Rules | None = None,
    kept=None,
) -> DesignResult:
    """Find the rule sets the dimensions span that meet every target (see the module docstring).

    Parameters
    ----------
    spec, source, players, seats
        The game, where its rules come from (each candidate starts there, or from the variant
        it names), the number of seats and each seat's policy.
    dims, targets
        What may change (``design_space.parse_vary``) and what must be reached
        (``design_space.parse_target``).
    prefer
        A figure and ``lower`` or ``higher`` (``design_space.parse_prefer``): ranks the answers
        and drops those beaten on it.
    budget
        ``games``: each candidate's first round; ``max_games``: the most games in all, the
        confirmation included; ``confirm_games``: each answer's fresh games (default: as many
        as it played in the search, at least five first rounds); ``seed``, ``first``.
    racing
        False plays every candidate ``budget.games`` games in one round and calls each target
        on fixed-size intervals (the exhaustive grid the benchmark compares with).
    confirm
        False skips the fresh games.
    base
        The rules to start from, given whole (the workbench's rule set); else ``source``'s.
    kept
        A catalogue (:class:`snakesim.questions.catalogue.Catalogue`): each rule set's games
        kept there by an earlier search are taken instead of played, and the games played are
        kept (:class:`~snakesim.analysis.search.SameGames`).

    Returns
    -------
    DesignResult
    """
    import pandas as pd

    started, compiled = time.perf_counter(), compiling.spent()
    feel = any(t.feel for t in targets) or (prefer is not None and prefer.target.feel)
    space = Space(spec, source, players, dims, feel=feel, base=base)
    sampled, trials, reserve = search_size(space, budget, racing=racing, confirm=confirm)
    first_round, total = budget.games, budget.most
    looks = len(targets) + (prefer is not None)
    alpha = (1.0 - level) / (trials * looks)
    rounds = 0
    with held(backend):
        search = SameGames(
            spec, players, budget.seed, budget.first, seats, backend=backend, progress=progress, kept=kept
        )
        if sampled:
            at = anytime_level(first_round, alpha, 4 * first_round)

            def distance(c: Candidate) -> float:
                columns = search.games(c.rules, first_round)
                return sum(t.shortfall(figure_value(columns, t, players, at)[0]) / (t.margin or 1.0) for t in targets)

            cands, skipped = sample(space, distance, trials, budget.seed)
        else:
            cands, skipped = candidates(space)
        # (a sampled rule set has played its first round already: the games are kept)
        entries = [Entry(c, c.label(dims), games=first_round if sampled else 0) for c in cands]
        n = first_round
        while True:
            active = [e for e in entries if _plays_on(e, prefer)]
            if not active or search.played + sum(n - e.games for e in active) + reserve > total:
                break
            rounds += 1
            at = anytime_level(n, alpha, 4 * first_round) if racing else 1.0 - alpha
            for e in active:
                columns = search.games(e.candidate.rules, n)
                e.games = n
                e.figures = [figure_value(columns, t, players, at) for t in targets]
                e.calls = [call(t, *f) for t, f in zip(targets, e.figures, strict=True)]
                e.status = overall(e.calls)
                if prefer is not None:
                    e.prefer = figure_value(columns, prefer.target, players, at)
            if prefer is not None:
                _drop_beaten(entries, prefer)
            if not racing:
                break
            n *= 2
        search.close()
        answers = _ranked([e for e in entries if e.status == MEETS], targets, prefer)
        nearest = _nearest(entries, targets)[: 1 if not answers else 0]
        confirmed, stored = [], search.stored
        if confirm and (answers or nearest):
            chosen = (answers or nearest)[:MAX_CONFIRM]
            confirmed, fresh_stored = _confirm(spec, players, seats, chosen, targets, budget=budget,
                                               played=search.played, after=max(e.games for e in entries),
                                               level=level, backend=backend, progress=progress, kept=kept)  # fmt: skip
            answers = _holding_first(answers, confirmed)
            stored += fresh_stored
    played = search.played + sum(c["games"] for c in confirmed)
    summary = _summary(
        spec, players, dims, targets, prefer=prefer, entries=entries,
        answers=answers, nearest=nearest, confirmed=confirmed, skipped=skipped,
        search={"rule_sets": len(entries), "unplayable": len(skipped), "rounds": rounds, "first_round": first_round,
                "games_played": search.played, "games_in_all": played, "games_from_catalogue": stored, "budget": total,
                "most_games_a_rule_set": max(e.games for e in entries), "seed": budget.seed, "first": budget.first,
                "racing": racing, "level": level, "race_alpha_each": alpha, "space": space.size,
                "sampled": {"sampler": "Optuna TPE", "rule_sets": len(entries)} if sampled else None,
                "elapsed_s": time.perf_counter() - started - (compiling.spent() - compiled)},
        seats=seats,
    )  # fmt: skip
    return DesignResult(summary, pd.DataFrame(_rows(entries, dims, targets)), dims, cands)


def search_size(space: Space, budget: Budget, *, racing: bool = True, confirm: bool = True) -> tuple[bool, int, int]:
    """How a search of ``space`` within ``budget`` goes, checked before any game is played:
    whether it samples the space (too large to play whole), how many rule sets it tries, and
    the games it keeps for the confirmation. InputError naming ``--vary`` (a space too large)
    or ``--budget`` (too few games for every rule set's first round and its confirmation)."""
    check_size(space, MAX_SPACE if racing else MAX_CANDIDATES)
    first_round, total = budget.games, budget.most
    sampled = space.size > MAX_CANDIDATES
    reserve = 0 if not confirm else min(space.size, MAX_CONFIRM) * 5 * first_round
    trials = min(MAX_CANDIDATES, (total - reserve) // (2 * first_round)) if sampled else space.size
    if (sampled and trials < MIN_TRIALS) or (not sampled and space.size * first_round + reserve > total):
        need = (MIN_TRIALS * 2 if sampled else space.size) * first_round + reserve
        raise InputError("--budget", f"{trials if sampled else space.size} rule sets x {first_round:,} games in the "
                         f"first round{' (and their confirmation)' if confirm else ''} need at least {need:,} games; "
                         f"got {total:,}")  # fmt: skip
    return sampled, trials, reserve


def sample(space: Space, distance, trials: int, seed: int) -> tuple[list[Candidate], list[tuple[str, str]]]:
    """Up to ``trials`` distinct rule sets of a space too large to play whole, chosen by
    Optuna's TPE sampler (seeded: the same rule sets every time) to bring ``distance`` (the sum
    of a rule set's shortfalls from the targets on its first round of games, each over what
    matters) to 0; and those that cannot be played, with why. It stops early once TPE keeps
    proposing rule sets it has tried (:data:`SETTLED` in a row). An integer range is sampled as
    an integer, so that TPE can learn which part of it comes nearer; any other dimension as a
    choice."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed % 2**32, multivariate=True, n_startup_trials=min(40, trials // 4))
    study = optuna.create_study(direction="minimize", sampler=sampler)
    seen: dict[tuple, float] = {}
    out, skipped = [], []
    again = 0  # proposals in a row of a rule set already tried: TPE has settled
    for _ in range(2 * trials):
        if len(seen) >= trials or again >= SETTLED:
            break
        trial = study.ask()
        values = tuple(_suggest(trial, d) for d in space.dims)
        again = again + 1 if values in seen else 0
        if values not in seen:
            built = space.build(values)
            if isinstance(built, str):
                skipped.append((space.label(values), built))
                seen[values] = UNPLAYABLE
            else:
                out.append(built)
                seen[values] = distance(built)
        study.tell(trial, seen[values])
    if not out:
        raise InputError("--vary", f"no rule set sampled can be played ({skipped[0][0]}: {skipped[0][1]})")
    return out, skipped


UNPLAYABLE = 1e9  # the distance told to the sampler for a rule set that cannot be played
SETTLED = 30  # proposals in a row of rule sets already tried, after which sampling stops


def _suggest(trial, d: Dimension):
    """One dimension's value for an Optuna trial: an integer range as an integer."""
    values = d.values
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values) and list(values) == list(
        range(values[0], values[0] + len(values))
    ):
        return trial.suggest_int(d.name, values[0], values[-1])
    return values[trial.suggest_categorical(d.name, list(range(len(values))))]


def _plays_on(e: Entry, prefer: Prefer | None) -> bool:
    """Whether a candidate gets the next round: undecided, or an answer whose ``--prefer``
    interval is still wider than what matters."""
    if e.status == UNDECIDED:
        return True
    if e.status != MEETS or prefer is None or e.prefer is None:
        return False
    value, low, high = e.prefer
    return high - low > prefer.margin(value)


def _drop_beaten(entries: list[Entry], prefer: Prefer) -> None:
    """Mark the answers whose ``--prefer`` interval lies beyond the best answer's by more than
    what matters as beaten."""
    answers = [e for e in entries if e.status == MEETS and e.prefer is not None]
    if len(answers) < 2:
        return
    best = min(answers, key=lambda e: prefer.sign * e.prefer[0])
    bound = best.prefer[2] if prefer.way == "lower" else best.prefer[1]  # the best's worst end
    margin = prefer.margin(best.prefer[0])
    for e in answers:
        near_end = e.prefer[1] if prefer.way == "lower" else e.prefer[2]
        if e is not best and prefer.sign * (near_end - bound) > margin:
            e.status = BEATEN


def _ranked(answers: list[Entry], targets: tuple[Target, ...], prefer) -> list[Entry]:
    """Answers best first: by the ``--prefer`` figure, else the surest first (the furthest
    inside its closest target's edge, in units of that target's difference that matters)."""
    if prefer is not None:
        return sorted(answers, key=lambda e: (prefer.sign * e.prefer[0], e.label))
    return sorted(answers, key=lambda e: (-_slack(e, targets), e.label))


def _holding_first(answers: list[Entry], confirmed: list[dict]) -> list[Entry]:
    """The answers that hold on fresh games first, then those not confirmed, then those that
    landed off a target there, each group in its rank: the first answer (the one a user
    takes, and ``answer-1.toml``) is then never one that fresh games put off a target while
    another held."""
    holds = {c["label"]: c["holds"] for c in confirmed}
    group = {True: 0, None: 1, False: 2}
    return sorted(answers, key=lambda e: group[holds.get(e.label)])


def _slack(e: Entry, targets: tuple[Target, ...]) -> float:
    """How far a rule set's estimates lie inside its targets: the least, over the targets, of
    the distance to the nearer edge over what matters."""
    out = math.inf
    for t, (value, _, _) in zip(targets, e.figures, strict=True):
        low, high = t.region
        out = min(out, min(value - low, high - value) / (t.margin or 1.0))
    return out


NEARNESS = {NEAR: 0, EDGE: 1, UNDECIDED: 2, BEATEN: 3, MISSES: 4}  # (how near a status is to an answer)


def _nearest(entries: list[Entry], targets: tuple[Target, ...]) -> list[Entry]:
    """Every rule set played that is not an answer, nearest to meeting every target first: a
    near one before one at the edge, one undecided, one that misses; then by the sum of its
    shortfalls, each in units of its target's difference that matters."""
    return sorted((e for e in entries if e.figures and e.status != MEETS),
                  key=lambda e: (NEARNESS[e.status], _distance(e, targets), e.label))  # fmt: skip


def _distance(e: Entry, targets: tuple[Target, ...]) -> float:
    return sum(t.shortfall(f[0]) / (t.margin or 1.0) for t, f in zip(targets, e.figures, strict=True))


def pareto(entries: list[Entry], targets: tuple[Target, ...]) -> list[Entry]:
    """The rule sets no other beats on every target's shortfall at once (the trade-off when the
    targets compete): for each, no other misses every target by as little or less and one by
    less."""
    played = [e for e in entries if e.figures]
    gaps = {id(e): [t.shortfall(f[0]) for t, f in zip(targets, e.figures, strict=True)] for e in played}

    def dominated(a):
        return any(
            all(x <= y for x, y in zip(gaps[id(b)], gaps[id(a)], strict=True)) and gaps[id(b)] != gaps[id(a)]
            for b in played
        )

    return [e for e in played if not dominated(e)]


def compete(front: list[Entry], targets: tuple[Target, ...]) -> bool:
    """Whether a trade-off set shows targets competing: one rule set of it nearer one target
    and another nearer another (not only ties)."""
    gaps = [[t.shortfall(f[0]) for t, f in zip(targets, e.figures, strict=True)] for e in front]
    return any(a[i] < b[i] and b[j] < a[j] for a in gaps for b in gaps for i in range(len(targets))
               for j in range(len(targets)))  # fmt: skip


def _confirm(spec, players, seats, chosen, targets, *, budget, played, after, level, backend, progress,
             kept=None) -> tuple[list[dict], int]:  # fmt: skip
    """Play ``chosen`` on fresh games (from game ``after`` on, past every game the search
    played) and call each target again on fixed-size intervals, Bonferroni over the rule sets
    and targets confirmed; and how many of those games came from the catalogue ``kept``."""
    k = len(chosen)
    first = budget.first + after
    fresh = SameGames(spec, players, budget.seed, first, seats, backend=backend, progress=progress, kept=kept)
    left = budget.most - played
    each = budget.confirm_games or max(
        2 * budget.games, min(max(5 * budget.games, *(e.games for e in chosen)), left // k)
    )
    at = 1.0 - (1.0 - level) / (k * len(targets))
    out = []
    for e in chosen:
        columns = fresh.games(e.candidate.rules, each)
        figures = [figure_value(columns, t, players, at) for t in targets]
        calls = [call(t, *f) for t, f in zip(targets, figures, strict=True)]
        out.append({"label": e.label, "games": each, "first": first, "level": at, "figures": figures, "calls": calls,
                    "holds": all(c == MEETS for c in calls)})  # fmt: skip
    fresh.close()
    return out, fresh.stored


def _figures(targets, figures) -> dict:
    return {t.metric: {"value": f[0], "ci": [f[1], f[2]]} for t, f in zip(targets, figures, strict=True)}


def _summary(spec, players, dims, targets, *, prefer, entries, answers, nearest, confirmed, skipped, search, seats):
    by_label = {c["label"]: c for c in confirmed}

    def described(e: Entry) -> dict:
        c = by_label.get(e.label)
        out = {
            "label": e.label,
            "options": {k: v for k, v in e.candidate.options(dims).items()},
            "rules_hash": e.candidate.rules.rules_hash(),
            "status": e.status,
            "games": e.games,
            "figures": _figures(targets, e.figures),
            "calls": dict(zip((t.metric for t in targets), e.calls, strict=True)),
        }
        if e.prefer is not None:
            out["prefer"] = {"value": e.prefer[0], "ci": [e.prefer[1], e.prefer[2]]}
        if c is not None:
            out["confirmed"] = {"games": c["games"], "first": c["first"], "level": c["level"], "holds": c["holds"],
                                "figures": _figures(targets, c["figures"]),
                                "calls": dict(zip((t.metric for t in targets), c["calls"], strict=True))}  # fmt: skip
        return out

    front = pareto(entries, targets)
    return {
        "game": spec.name,
        "players": players,
        "policies": list(seats),
        "vary": [{"name": d.name, "values": list(d.values)} for d in dims],
        "targets": [
            {
                "metric": t.metric,
                "op": t.op,
                "value": t.value,
                "tolerance": t.tolerance,
                "margin": t.margin,
                "scale": t.scale,
                "unit": t.unit,
                "text": t.text,
            }
            for t in targets
        ],
        "prefer": None if prefer is None else {"metric": prefer.target.metric, "way": prefer.way},
        "answers": [described(e) for e in answers],
        "nearest": [{**described(e), "misses": _misses(e, targets)} for e in nearest],
        "pareto": [e.label for e in front] if not answers and compete(front, targets) else [],
        "near": [described(e) for e in _nearest(entries, targets) if e.status == NEAR][:MAX_CONFIRM],
        "edge": [e.label for e in entries if e.status == EDGE][:MAX_CONFIRM],
        "counts": {s: sum(e.status == s for e in entries) for s in STATUSES},
        "unplayable": [{"label": label, "why": why} for label, why in skipped],
        "search": search,
    }


def _misses(e: Entry, targets) -> list[dict]:
    """The targets a rule set misses and by how much (its estimate's distance from each), with
    the estimate's interval."""
    return [{"metric": t.metric, "by": t.shortfall(f[0]), "value": f[0], "ci": [f[1], f[2]]}
            for t, f in zip(targets, e.figures, strict=True) if t.shortfall(f[0]) > 0]  # fmt: skip


def _rows(entries: list[Entry], dims, targets) -> list[dict]:
    rows = []
    for e in entries:
        row = {"label": e.label, **{d.name: v for d, v in zip(dims, e.candidate.values, strict=True)},
               "status": e.status, "games": e.games}  # fmt: skip
        for t, f in zip(targets, e.figures or [(np.nan,) * 3] * len(targets), strict=True):
            row[t.metric], row[f"{t.metric}_low"], row[f"{t.metric}_high"] = f
        rows.append(row)
    return rows
