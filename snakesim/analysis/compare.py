"""Compare rule variants honestly: common random numbers, paired intervals, Holm correction.

Every variant plays games ``0 .. n-1`` of the same seed. Game ``i`` is dealt from the same
keyed shuffle in each (a variant with a card removed deals the other cards in the same order;
see ``snakesim.core.rng``) and its policies draw from the same stream, so the variants are
compared game by game (paired). How much that helps depends on the game: a rule that changes
play early makes the games drift apart, and the pairing then gains little. Each difference
therefore reports its pairing gain: the paired interval's width against the width
independent runs would give, and the games per arm that saved. Identical variants give a
difference of exactly zero.

Each metric is a per-game quantity (a win by seat k, a draw, the length, ...); its rate or
mean comes with an interval (Wilson for proportions, Student-t for means), and each variant's
difference from the first (the baseline) with a paired Student-t interval and p-value. The
p-values of all comparisons made are adjusted together by Holm's method.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from snakesim.analysis.stats import (
    LEVEL,
    betting_pieces,
    betting_sequence,
    mean_interval,
    normal_mixture_half_width,
    players_of,
    wilson,
)
from snakesim.analysis.verdicts import Margin, add_verdicts
from snakesim.core.arms import Budget, RuleSource, build_arms
from snakesim.core.backends import ThreadsBackend
from snakesim.core.defaults import PRECISE
from snakesim.core.errors import InputError
from snakesim.core.figures import COMPARED, figure, games_of, recorded_in
from snakesim.core.figures import label as figure_label
from snakesim.core.registry import GameSpec
from snakesim.core.runner import simulate_spec
from snakesim.core.tally import table_columns

if TYPE_CHECKING:
    import pandas as pd


COLUMNS = [
    "variant", "metric", "kind", "value", "low", "high", "diff", "diff_low", "diff_high", "p_value", "p_holm",
    "test", "diff_level", "unpaired_width", "pairing_ratio", "games_saved",
]  # fmt: skip


def per_game_metrics(
    spec: GameSpec, df: pd.DataFrame, players: int, score_label: str | None = None
) -> dict[str, tuple[str, np.ndarray]]:
    """The per-game quantities compared, by row id (``snakesim.core.figures``): ``(kind,
    values)``, kind "rate" or "mean", one value a game.

    Every figure of the registry that a comparison pairs (``figures.COMPARED``) and this game
    has, the game-feel ones where the games recorded them; each over every game, so that every
    arm's values stay paired game by game (a game without a winner counts as decided only at
    the end, with no comeback). The winning margin counts what the rule set scores
    (``GameSpec.scores``), named ``score_label`` when given (arms that score different things
    share one name), and is not paired where they differ (kind ``own``)."""
    scored = spec.scores(df, players)
    games = games_of(spec, table_columns(spec, df, players), players, scored)
    metrics = {}
    for f in COMPARED:
        if not f.exists(spec) or not recorded_in(f, games) or (f.id == "tie_break" and scored is None):
            continue
        if f.per_seat:
            metrics.update({f.row(s): (f.kind, f.values(games, s)) for s in range(players)})
        else:
            metrics[f.id] = (f.kind, f.values(games))
    margin = winning_margin(spec, scored)
    if margin is not None:
        # (arms that score different things: each arm's margin on its own, no difference taken)
        metrics["margin"] = ("own" if score_label == OWN_SCORE else "mean", margin[1])
    return metrics


OWN_SCORE = "each rule set's own score"


def winning_margin(spec: GameSpec, scored) -> tuple[str, np.ndarray] | None:
    """Decisiveness: how far the best score is ahead of the second best in each game, from
    ``spec.scores``'s ``(label, values)``; None where the rules score nothing, or where the
    winner is the last player left (Fortune: the next seat has nothing then, and the "margin"
    would only count the coins still out of the cup)."""
    if scored is None or spec.out_column is not None:
        return None
    label, values = scored
    values = np.sort(values, axis=1)
    return label, values[:, -1] - values[:, -2]


def score_word(spec: GameSpec, tables: dict[str, pd.DataFrame], players: int) -> str:
    """What the arms' margin counts: what they all score, or :data:`OWN_SCORE` where they differ."""
    labels = {scored[0] for df in tables.values() if (scored := spec.scores(df, players)) is not None}
    return labels.pop() if len(labels) == 1 else OWN_SCORE


def arm_metrics(spec: GameSpec, tables: dict[str, pd.DataFrame], players: int) -> dict[str, dict]:
    """:func:`per_game_metrics` of every arm, under the same row ids."""
    word = score_word(spec, tables, players)
    return {name: per_game_metrics(spec, df, players, word) for name, df in tables.items()}


def estimate(kind: str, values: np.ndarray, level: float = LEVEL) -> tuple[float, float, float]:
    """A per-game metric's rate (Wilson interval) or mean (Student-t interval)."""
    if kind == "rate":
        return float(np.mean(values)), *wilson(int(np.sum(values)), len(values), level)
    return mean_interval(values, level)  # (a mean, or "own": a mean not compared between arms)


def compare_tables(
    spec: GameSpec,
    tables: dict[str, pd.DataFrame],
    level: float = LEVEL,
    matters: Mapping[str, Margin] | None = None,
) -> pd.DataFrame:
    """Compare runs of the same games under several variants (the first is the baseline).

    Parameters
    ----------
    spec : GameSpec
    tables : dict of str to DataFrame
        Results tables by variant name, each of the same games (same seed, same indices).
    level : float
        Confidence level of every interval.
    matters : mapping of str to Margin, optional
        The smallest differences that matter by figure id (``verdicts.parse_matters``); the
        registry's defaults for the others.

    Returns
    -------
    pandas.DataFrame
        One row per variant and metric: ``value, low, high``; for non-baseline variants
        ``diff, diff_low, diff_high, p_value, p_holm`` against the baseline (NaN otherwise),
        ``test`` (paired t, or exact McNemar for a binary metric with few discordant games),
        ``diff_level`` (the confidence of the difference's interval: the level of the Holm
        step that decided it, so the interval excludes 0 exactly when ``p_holm < 1 - level``)
        and the pairing gain (``unpaired_width, pairing_ratio, games_saved``); ``unit``, what
        the row's numbers count (``fraction`` for rates and shares: JSON and CSV keep them 0 to 1).
        Rows ``length median`` and ``length 95th percentile`` (Kaplan-Meier, unfinished games
        censored), ``seat balance p`` (chi-square test of equal seat shares) and ``largest
        seat gap`` describe each variant on its own. ``attrs["seats"]`` holds each variant's
        policy by seat, ``attrs["rules_hash"]`` its rules' hash and ``attrs["options"]`` its
        options, from its table's metadata (empty or None where unknown; seats are empty for a
        game without choices).
        ``margin``, ``verdict`` and ``settle_games`` say whether each difference matters at
        the table (``snakesim.analysis.verdicts.add_verdicts``).
    """
    from snakesim.analysis.tallies import tally_tables

    return compare_tally(spec, tally_tables(spec, tables), level, matters)


def compare_tally(
    spec: GameSpec, tally: dict, level: float = LEVEL, matters: Mapping[str, Margin] | None = None
) -> pd.DataFrame:
    """:func:`compare_tables` from the games' exact tally (``snakesim.analysis.tallies``): the
    same rows from the tally of the same games, however they were split into blocks."""
    import pandas as pd

    from snakesim.analysis.tallies import rows

    arms = tally["arms"]
    names = list(arms)
    out = pd.DataFrame(rows(tally, level), columns=COLUMNS)
    word = tally["score"]
    out.insert(2, "label", [figure_label(row, spec, word) for row in out["metric"]])
    out["unit"] = [unit_of(spec, metric, kind, word) for metric, kind in zip(out["metric"], out["kind"], strict=True)]
    add_verdicts(out, arms[names[0]]["games"], matters)
    out.attrs["seats"] = {name: tuple(a["meta"]["policies"]) for name, a in arms.items()}
    out.attrs["rules_hash"] = {name: a["meta"]["rules_hash"] for name, a in arms.items()}
    out.attrs["options"] = {name: a["meta"]["options"] for name, a in arms.items()}
    return out


def unit_of(spec: GameSpec, row: str, kind: str, score: str = "") -> str:
    """What a comparison row's numbers count, for JSON and CSV readers: ``fraction`` (0 to 1:
    a rate, a share of the game, or a difference of them), ``p-value``, or the thing counted."""
    f = figure(row)
    if f.percent:
        return "fraction"
    if kind == "test":
        return "p-value"
    if f.unit == "length":
        return spec.length_unit
    if f.id == "margin":
        return score
    return f.label  # (lead changes)


def check_arms(spec: GameSpec, players: int, budget: Budget, variants, shared: RuleSource = RuleSource()) -> None:
    """Check a comparison's arms for ``players`` players (InputError naming the field) without
    playing a game: a command with several player counts checks them all first."""
    build_arms(spec, players, budget, variants, shared)


def compare_variants(
    spec: GameSpec,
    players: int,
    variants: Sequence[str | Mapping[str, Any]],
    budget: Budget,
    shared: RuleSource = RuleSource(),
    *,
    threads: int | None = None,
    progress: bool = False,
    backend=None,
    precise: Sequence[str] = ("rates",),
    matters: Mapping[str, Margin] | None = None,
    with_tally: bool = False,
) -> tuple:
    """Play the budget's games of each arm on the same seed and compare them (``matters``: the
    smallest differences that matter, as :func:`compare_tables` takes them).

    ``variants`` are arms (``snakesim.core.arms``): variant names, rules files, inline
    ``LABEL=BASE,NAME=VALUE,...`` texts, or arm tables. Every arm is checked before any game
    is played; ``shared`` (its files, settings, options and players) applies to every arm (an
    arm's own players win). Returns :func:`compare_tables`'s table (the variants' run
    metadata in ``attrs["runs"]``) and the per-game tables by variant; ``with_tally``, their
    exact tally too (``snakesim.analysis.tallies``: what a longer run of the same games extends).

    With ``budget.precision``, blocks of ``budget.games`` more games (the next indices, so the
    variants stay paired) are added until every row that ``precise`` names (``rates``,
    ``differences``, ``length``) has an anytime-valid interval (:func:`confidence_sequences`)
    of at most that half-width, or ``budget.max_games`` (default 100 blocks) is reached;
    ``attrs["stopping"]`` says which and holds those intervals, which stay valid although the
    run looked after every block (the ordinary intervals of the table do not: stopping when
    they look narrow undercovers); a watched difference's verdict is taken on its
    anytime-valid interval.
    ``backend`` plays the games (``threads`` numba threads here if None); a Dask backend's
    cluster is shared by all the runs.
    """
    from snakesim.analysis.tallies import tally_tables

    games, precision = budget.games, budget.precision
    runs = {arm.label: arm for arm in build_arms(spec, players, budget, variants, shared)}
    cap = check_budget(budget)
    precise = check_precise(precise)
    played, parts = 0, {name: [] for name in runs}
    backend = backend or ThreadsBackend(threads)
    with backend:
        while True:
            block = games if precision is None else min(games, cap - played)
            for name, arm in runs.items():
                part = replace(budget, games=block, first=budget.first + played)
                frame = simulate_spec(spec, arm.rules, players, part, name, threads=threads, progress=progress,
                                      policies=arm.seats, backend=backend)  # fmt: skip
                parts[name].append(frame)
            played += block
            tables = {name: _joined(frames) for name, frames in parts.items()}
            if precision is None:
                tally = tally_tables(spec, tables)
                out = compare_tally(spec, tally, matters=matters)
                break
            sequences = confidence_sequences(spec, tables, precise, games, precision=precision)
            widest = float(sequences["half_width"].max())
            if widest <= precision or played >= cap:
                tally = tally_tables(spec, tables)
                out = compare_tally(spec, tally, matters=matters)
                watched = {(r["variant"], r["metric"].removesuffix(".difference")): (r["low"], r["high"])
                           for r in sequences.to_dict(orient="records")
                           if r["metric"].endswith(".difference")}  # fmt: skip
                add_verdicts(out, played, matters, anytime=watched)
                out.attrs["stopping"] = {
                    "games": played,
                    "widest_half_width": widest,
                    "precision": precision,
                    "reached": widest <= precision,
                    "precise": list(precise),
                    "sequences": sequences.to_dict(orient="records"),
                }
                break
    out.attrs["runs"] = {name: df.attrs for name, df in tables.items()}
    return (out, tables, tally) if with_tally else (out, tables)


def check_budget(budget: Budget) -> int:
    """InputError unless a comparison's ``--precision`` and ``--max-games`` make sense; the most
    games each rule set may play (``max_games``, by default 100 blocks of ``games``)."""
    if budget.precision is not None and not budget.precision > 0:
        raise InputError("--precision", f"expected a half-width above 0, got {budget.precision}")
    cap = budget.max_games if budget.max_games is not None else 100 * budget.games
    if cap < budget.games:
        raise InputError("--max-games", f"expected at least --games ({budget.games:,}), got {cap:,}")
    return cap


def check_precise(precise) -> tuple[str, ...]:
    precise = tuple(precise)
    for row in precise:
        if row not in PRECISE:
            raise InputError("--precise", f"unknown row kind {row!r}; expected some of {', '.join(PRECISE)}")
    return precise or ("rates",)


def confidence_sequences(
    spec: GameSpec,
    tables: dict[str, pd.DataFrame],
    precise=("rates",),
    games_opt: int = 1000,
    level: float = LEVEL,
    precision: float | None = None,
) -> pd.DataFrame:
    """Anytime-valid intervals for the rows ``--precision`` watches, after the games so far.

    ``precise`` chooses them: ``rates`` (every seat's win rate in every variant) and
    ``differences`` (every paired difference of a rate from the baseline; one that is zero in
    every game needs no pinning), both exact and variance-adaptive
    (:func:`snakesim.analysis.stats.betting_sequence`, its bets changing on pieces of the games
    that grow to the ``games_opt`` the run looks after, and tuned for the half-width
    ``precision``), and ``length`` (each
    variant's mean length, in its own unit: the normal mixture with the sample's standard
    deviation, asymptotic, :func:`snakesim.analysis.stats.normal_mixture_half_width`). Each is
    a confidence sequence, so the interval at whatever block the run stops is still a
    ``level`` interval, however many blocks were looked at; the Bonferroni split over the rows
    makes them hold together.

    Returns
    -------
    pandas.DataFrame
        ``variant, metric, value, low, high, half_width`` (the larger side; symmetric here).
    """
    import pandas as pd

    names = list(tables)
    players = players_of(tables[names[0]])
    metrics = arm_metrics(spec, tables, players)
    rows = []  # (variant, row id, per-game values, kind: rate, difference or mean)
    for name in names:
        if "rates" in precise:
            rows += [(name, f"win_rate.{s}", metrics[name][f"win_rate.{s}"][1], "rate") for s in range(players)]
        if "length" in precise:
            rows.append((name, "length", metrics[name]["length"][1], "mean"))
        if "differences" in precise and name != names[0]:
            for metric, (kind, base) in metrics[names[0]].items():
                if kind == "rate":  # in the unit of --precision: a probability
                    d = metrics[name][metric][1].astype(np.float64) - base.astype(np.float64)
                    rows.append((name, f"{metric}.difference", d, "difference"))
    alpha = (1 - level) / len(rows)
    out = []
    for name, metric, values, kind in rows:
        values = np.asarray(values, dtype=np.float64)
        mean = float(values.mean())
        if kind == "mean" or (kind == "difference" and (values.size < 2 or values.min() == values.max())):
            # (a difference that is zero in every game is structural: nothing to pin)
            sd = 0.0 if values.size < 2 or values.min() == values.max() else float(values.std(ddof=1))
            half = normal_mixture_half_width(values.size, sd, alpha, games_opt)
            low, high = mean - half, mean + half
        else:  # 0/1, or -1/0/1 read as 0, 1/2, 1: counts per block of the run
            x = values if kind == "rate" else (values + 1.0) / 2.0
            support = np.array([0.0, 0.5, 1.0])
            edges = betting_pieces(x.size, games_opt)
            counts = np.array([[np.sum(x[a:b] == s) for s in support] for a, b in itertools.pairwise(edges)])
            scale = 1.0 if kind == "rate" else 2.0
            target = None if precision is None else precision / scale
            low, high = (scale * v - (scale - 1.0) for v in betting_sequence(counts, support, alpha, target))
            half = max(mean - low, high - mean)
        label = figure_label(metric.removesuffix(".difference"), spec) + (" (difference)" * (kind == "difference"))
        out.append({"variant": name, "metric": metric, "label": label, "value": mean, "low": low, "high": high,
                    "half_width": half})  # fmt: skip
    return pd.DataFrame(out)


def _joined(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Blocks of one run as one table (its metadata counting all the games)."""
    import pandas as pd

    if len(frames) == 1:
        return frames[0]
    df = pd.concat(frames, ignore_index=True)
    df.attrs = {**frames[0].attrs, "games": len(df)}
    return df
