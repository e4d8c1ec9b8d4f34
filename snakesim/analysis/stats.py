"""Statistics computed from a results table: every rate with an interval.

Wilson score intervals for proportions (the formula of
``scipy.stats.binomtest(...).proportion_ci(method="wilson")``) and Student-t intervals for
means. scipy is imported where it is used. A run's summary needs only two quantiles: the
normal one from the standard library (``statistics.NormalDist``), Student's t from
``scipy.special.stdtrit`` or, from 999 degrees of freedom (a 1,000-game run's mean) up, from
the first terms of its expansion around the normal quantile (Abramowitz and Stegun 26.7.5),
which agree with scipy to 1e-12 there (tests/test_stats.py): importing ``scipy.special``
would cost every run 30 ms.
"""

from __future__ import annotations

import math
import warnings
from statistics import NormalDist
from typing import TYPE_CHECKING

import numpy as np

from snakesim.core.columns import winners
from snakesim.core.tally import (
    Tally,
    censored_histogram,
    km_histogram_quantile,
    length_histogram,
    merge,
    tally_table,
)

if TYPE_CHECKING:
    import pandas as pd

    from snakesim.core.registry import GameSpec

LEVEL = 0.95
SLICE = 1 << 20  # rows of a table tallied at a time
# The run metadata a summary repeats (from a table's attrs, or a run's metadata).
SUMMARY_META = ("game", "variant", "rules_hash", "options", "policies", "players", "seed")


def wilson(successes: int, trials: int, level: float = LEVEL) -> tuple[float, float]:
    """Wilson score interval for a proportion.

    Parameters
    ----------
    successes, trials : int
        Counts, ``0 <= successes <= trials``, ``trials >= 1``.
    level : float
        Confidence level.

    Returns
    -------
    (low, high) : tuple of float
    """
    k, n = int(successes), int(trials)
    if not 0 <= k <= n or n < 1:
        raise ValueError(f"expected 0 <= successes <= trials and trials >= 1, got {k} of {n}")
    # Newcombe (1998), as scipy.stats.binomtest's proportion_ci computes it
    p, z = k / n, normal_quantile(0.5 + 0.5 * level)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * np.sqrt(4 * n * p * (1 - p) + z**2)
    return (0.0 if k == 0 else float(center - delta)), (1.0 if k == n else float(center + delta))


def normal_quantile(q: float) -> float:
    """The ``q`` quantile of the standard normal distribution, ``0 < q < 1``."""
    return NormalDist().inv_cdf(q)


# Where the expansion below stands in for scipy (from a 1,000-game run's mean length up):
# tested to a relative 1e-12 there.
T_EXPANSION_DF = 999
T_EXPANSION_Q = 1e-4


def t_quantile(q: float, df: int) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom.

    From ``scipy.special.stdtrit``; for ``df >= 999`` (and ``1e-4 <= q <= 1 - 1e-4``) from the
    expansion of the t quantile in powers of ``1/df`` around the normal quantile ``x``
    (Abramowitz and Stegun 26.7.5, terms to ``df**-4``), whose next term is below 1e-13 there.
    """
    if df < T_EXPANSION_DF or not T_EXPANSION_Q <= q <= 1 - T_EXPANSION_Q:
        from scipy.special import stdtrit

        return float(stdtrit(df, q))
    x = normal_quantile(q)
    x2 = x * x
    g1 = (x2 + 1) * x / 4
    g2 = ((5 * x2 + 16) * x2 + 3) * x / 96
    g3 = (((3 * x2 + 19) * x2 + 17) * x2 - 15) * x / 384
    g4 = ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) * x / 92160
    return x + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df


def mean_interval(values: np.ndarray, level: float = LEVEL) -> tuple[float, float, float]:
    """The mean of ``values`` and its Student-t interval: ``(mean, low, high)``."""
    values = np.asarray(values, dtype=np.float64)
    mean = float(values.mean())
    if values.size < 2:
        return mean, mean, mean
    half = t_quantile(0.5 + level / 2, values.size - 1) * values.std(ddof=1) / np.sqrt(values.size)
    return mean, mean - float(half), mean + float(half)


def players_of(df: pd.DataFrame) -> int:
    """Number of seats of a table: from its metadata, else from its per-seat ``NAME_k`` columns."""
    if "players" in df.attrs:
        return int(df.attrs["players"])
    seat_cols = [c for c in df.columns if c.rsplit("_", 1)[-1].isdigit()]
    return 1 + max(int(c.rsplit("_", 1)[1]) for c in seat_cols)


def summarize(df: pd.DataFrame, level: float = LEVEL, spec: GameSpec | None = None) -> dict:
    """Summarise a results table: :func:`summary_of` its tally (see ``snakesim.core.tally``).

    With the game's ``spec`` its own columns are summed too (score means); the caller, which
    knows the game, passes it: the analysis never looks a game up."""
    players = players_of(df)
    winner = winners(df)
    outcome = df["outcome"]
    if spec is not None:
        # Tallied a slice at a time: the sums need 64-bit copies of the columns, which for a
        # whole 10**7-game table would take more memory than the table itself.
        t = merge(tally_table(spec, df.iloc[i : i + SLICE], players) for i in range(0, max(len(df), 1), SLICE))
        meta = {k: df.attrs[k] for k in SUMMARY_META if k in df.attrs}
        return summary_of(t, [str(c) for c in outcome.cat.categories], {**meta, "players": players}, level)
    t = Tally(
        games=len(df),
        outcomes=np.bincount(outcome.cat.codes.to_numpy(), minlength=len(outcome.cat.categories)).tolist(),
        wins=np.bincount(winner[winner >= 0].astype(np.int64), minlength=players).tolist(),
        lengths=length_histogram(df["length"].to_numpy()),
        censored=censored_histogram(outcome.cat.codes.to_numpy(), df["length"].to_numpy(), outcome.cat.categories),
    )
    meta = {k: df.attrs[k] for k in SUMMARY_META if k in df.attrs}
    return summary_of(t, [str(c) for c in outcome.cat.categories], {**meta, "players": players}, level)


def summary_of(t: Tally, outcome_labels, meta: dict, level: float = LEVEL) -> dict:
    """The summary of a run from its tally.

    Returns
    -------
    dict
        ``meta`` (game, variant, options, policies, players, seed) and: ``games``;
        ``win_rate`` and ``win_ci`` per seat (any outcome with a winner); ``draw_rate``,
        ``draw_ci`` (every outcome whose label ends in "draw"); ``unfinished_rate``,
        ``unfinished_ci``; ``outcomes``, each outcome label's ``count, rate, ci``; ``length``
        with ``mean, mean_ci, min, max, median, p95``, the last two the first lengths by which
        half and 95% of the games have ended. Rates are over all games. When some games are
        unfinished (stopped at the turn cap), ``length`` also says ``unfinished`` (their
        count), the median and 95th percentile come from the Kaplan-Meier curve with those
        games censored (``inf`` where the curve never falls that far), and the mean, which
        counts them at the cap, is a lower bound (``mean_is_lower_bound``). ``means``: the
        mean of every other column (each seat's score, the game's own counts).
    """
    n = t.games
    outcomes = {
        label: {"count": int(k), "rate": k / n, "ci": list(wilson(k, n, level))}
        for label, k in zip(outcome_labels, t.outcomes, strict=True)
    }
    draws = sum(v["count"] for label, v in outcomes.items() if label.endswith("draw"))
    unfinished = outcomes.get("unfinished", {"count": 0})["count"]
    # The length's mean and t interval from exact integer sums.
    counted = [(int(v), int(k)) for v, k in t.lengths.items()]  # Python ints: no overflow
    total = sum(v * k for v, k in counted)
    squares = sum(v * v * k for v, k in counted)
    length = _sum_interval(total, squares, n, level)
    mean, (low, high) = length["mean"], length["ci"]
    return {
        **meta,
        "games": n,
        "level": level,
        "win_rate": [float(w / n) for w in t.wins],
        "win_ci": [list(wilson(w, n, level)) for w in t.wins],
        "draw_rate": draws / n,
        "draw_ci": list(wilson(draws, n, level)),
        "unfinished_rate": unfinished / n,
        "unfinished_ci": list(wilson(unfinished, n, level)),
        "outcomes": outcomes,
        "length": _length_summary(t, mean, low, high),
        # Every other column's mean over all games: scores (cards_0, coins_2, ...) and counts.
        "means": {name: total / n for name, total in t.sums.items() if not name.startswith("feel.")},
        **({"feel": feel_summary(t.sums, t.squares, level)} if "feel.games" in t.sums else {}),
    }


def _sum_interval(total: int, squares: int, n: int, level: float, scale: float = 1.0) -> dict:
    """Mean and t interval of ``n`` values from their exact sum and sum of squares."""
    if n == 0:
        return {"mean": float("nan"), "ci": [float("nan"), float("nan")], "games": 0}
    mean = total / n / scale
    half = 0.0
    if n > 1:
        sd = np.sqrt(max(n * squares - total * total, 0) / (n * (n - 1))) / scale
        half = float(t_quantile(0.5 + level / 2, n - 1) * sd / np.sqrt(n))
    return {"mean": mean, "ci": [mean - half, mean + half], "games": n}


def _share(k: int, n: int, level: float) -> dict:
    if n == 0:
        return {"rate": float("nan"), "ci": [float("nan"), float("nan")], "games": 0}
    return {"rate": k / n, "ci": list(wilson(k, n, level)), "games": n}


def feel_summary(sums: dict, squares: dict, level: float = LEVEL) -> dict:
    """The game-feel figures of a run (``snakesim.core.figures.SUMMARISED``) from its tally's
    ``feel.*`` sums.

    Returns
    -------
    dict
        By figure id, over the games each counts (``games``): a rate's ``rate`` with its Wilson
        interval (``ci``), a mean's ``mean`` with its t interval, at ``level``.
    """
    from snakesim.core.figures import SUMMARISED, scale_of

    out = {}
    for f in SUMMARISED:
        key = f"feel.{f.id}"
        if f"{key}.games" not in sums:  # (a figure this game does not have)
            continue
        n = sums[f"{key}.games"]
        if f.kind == "rate":
            out[f.id] = _share(sums[key], n, level)
        else:
            out[f.id] = _sum_interval(sums[key], squares[key], n, level, scale_of(f))
    return out


def _length_summary(t: Tally, mean: float, low: float, high: float) -> dict:
    # The median and 95th percentile: the first length by which that share of the games has
    # ended, a whole number of turns some game lasted (numpy's "inverted_cdf"; an interpolated
    # 52.05 turns means nothing at a table), from the Kaplan-Meier curve, which with no game
    # unfinished is the plain share of games over by then.
    out = {
        "mean": mean,
        "mean_ci": [low, high],
        "min": min(t.lengths),
        "max": max(t.lengths),
        "median": km_histogram_quantile(t.lengths, t.censored, 0.5),
        "p95": km_histogram_quantile(t.lengths, t.censored, 0.95),
    }
    unfinished = sum(t.censored.values())
    if not unfinished:
        return out
    return {
        **out,
        "mean_ci": [low, float("inf")],  # the unfinished games would have gone on: no upper bound
        "unfinished": unfinished,
        "mean_is_lower_bound": True,
        "quantiles": "kaplan-meier",
    }


# Below this many discordant games a binary metric's difference is tested exactly (McNemar's
# test as a binomial on the discordant games); from it on, the paired t is accurate and used.
EXACT_BELOW = 100


def paired_binary_difference(
    a: np.ndarray, b: np.ndarray, level: float = LEVEL
) -> tuple[float, float, float, float, str]:
    """Mean of ``a - b`` for 0/1 per-game values, its interval and two-sided p-value, and the test.

    With fewer than :data:`EXACT_BELOW` discordant games (a 1 where b is 0, or the reverse)
    the test is McNemar's exact test: the discordant games split as a fair coin would under no
    difference; its p-value is the central two-sided binomial one. Its interval is the
    Clopper-Pearson interval of the split mapped onto the difference, joined with Tango's score
    interval (:func:`tango_interval`): the first holds the number of discordant games fixed, so
    alone it shrinks to the estimate on rare events (and to [0, 0] with none), where the second
    keeps its coverage. The joined interval excludes 0 exactly when p < 1 - level (Tango's
    excludes 0 wherever the exact one does). With more, the paired t of :func:`paired_difference`.

    Returns ``(difference, low, high, p_value, test)``, test ``"exact McNemar"`` or ``"paired t"``.
    """
    from scipy import stats

    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    n = a.size
    up, down = int(np.sum(a & ~b)), int(np.sum(~a & b))
    discordant = up + down
    if discordant >= EXACT_BELOW:
        return (*paired_difference(a, b, level), "paired t")
    low, high = tango_interval(up, down, n, level)
    if discordant == 0:
        return 0.0, low, high, 1.0, "exact McNemar"
    p = min(1.0, 2 * min(stats.binom.cdf(up, discordant, 0.5), stats.binom.sf(up - 1, discordant, 0.5)))
    ci = stats.binomtest(up, discordant).proportion_ci(level, method="exact")
    scale = discordant / n
    low, high = min(low, scale * (2 * ci.low - 1)), max(high, scale * (2 * ci.high - 1))
    return (up - down) / n, low, high, float(p), "exact McNemar"


def tango_interval(up: int, down: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    """Tango's score interval (1998) for a paired difference of two rates: ``up`` games where
    only the first is 1, ``down`` where only the second is, of ``n``; every difference whose
    score test ``|T(d)| <= z`` keeps it. The number of discordant games is random in it, so it
    keeps its coverage when they are few or none ([-z^2 / (n + z^2), +z^2 / (n + z^2)] with
    none): 95-100% of simulated cases at rates from 1e-5 to 1e-2 (tests/test_compare.py)."""
    from scipy import optimize, stats

    z = float(stats.norm.ppf(0.5 + level / 2))

    def score(d: float) -> float:
        num = up - down - n * d
        if num == 0:
            return 0.0
        w = -up - down + (2 * n - up + down) * d
        q = (math.sqrt(max(w * w + 8 * n * down * d * (1 - d), 0.0)) - w) / (4 * n)
        v = n * (2 * q + d * (1 - d))
        return num / math.sqrt(v) if v > 0 else math.copysign(math.inf, num)

    est, edge = (up - down) / n, 1 - 1e-12
    low = -edge if score(-edge) <= z else optimize.brentq(lambda d: score(d) - z, -edge, est)
    high = edge if score(edge) >= -z else optimize.brentq(lambda d: score(d) + z, est, edge)
    return float(low), float(high)


def paired_difference(a: np.ndarray, b: np.ndarray, level: float = LEVEL) -> tuple[float, float, float, float]:
    """Mean of ``a - b`` over paired games, its Student-t interval and two-sided p-value.

    Returns ``(difference, low, high, p_value)``. When every pair is equal the difference is
    exactly 0 with p-value 1 (common random numbers make identical variants agree game by
    game).
    """
    from scipy import stats

    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if d.size > 1 else 0.0
    if sd == 0.0:
        return mean, mean, mean, 1.0 if mean == 0.0 else 0.0
    se = sd / np.sqrt(d.size)
    half = t_quantile(0.5 + level / 2, d.size - 1) * se
    p = float(2 * stats.t.sf(abs(mean) / se, d.size - 1))
    return mean, mean - half, mean + half, p


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error control).

    scipy offers only the Benjamini-Hochberg adjustment; Holm's is a few lines: the k-th
    smallest of m p-values is multiplied by ``m - k + 1``, then made non-decreasing.
    """
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    m = p.size
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out


def seat_balance(wins: np.ndarray) -> float:
    """Chi-square p-value of the seats' win counts against equal shares (1.0 if no wins)."""
    from scipy import stats

    wins = np.asarray(wins)
    return float(stats.chisquare(wins).pvalue) if wins.sum() > 0 else 1.0


def km_quantile(lengths, censored, q: float, level: float = LEVEL) -> tuple[float, float, float]:
    """Game length by which a fraction ``q`` of games have ended, from the Kaplan-Meier curve.

    Unfinished games (``censored``) count as still going at their recorded length. The
    interval inverts scipy's log-log confidence band of the survival curve; where the band is
    undefined (the curve at 0 or 1: every game ended, or none yet) the curve itself is used.
    ``inf`` where the curve never gets that low.

    Returns ``(value, low, high)``.
    """
    from scipy import stats

    lengths = np.asarray(lengths, dtype=np.float64)
    censored = np.asarray(censored, dtype=bool)
    result = stats.ecdf(stats.CensoredData(uncensored=lengths[~censored], right=lengths[censored]))
    times = result.sf.quantiles
    target = 1.0 - q + 1e-12

    def first_below(prob):
        hits = np.flatnonzero(prob <= target)
        return float(times[hits[0]]) if hits.size else float("inf")

    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # "undefined at some observations"
        band = result.sf.confidence_interval(level, method="log-log")
    curve = result.sf.probabilities
    low = np.where(np.isnan(band.low.probabilities), curve, band.low.probabilities)
    high = np.where(np.isnan(band.high.probabilities), curve, band.high.probabilities)
    return first_below(curve), first_below(low), first_below(high)


def seat_gap(wins, games: int, level: float = LEVEL) -> tuple[float, float, float]:
    """The largest difference between two seats' win rates, with an interval of honest coverage.

    The gap is the largest of the pairwise differences ``|p_i - p_j|``. Each pairwise
    difference gets a Wald interval for a multinomial difference (variance
    ``(p_i + p_j - (p_i - p_j)**2) / games``), made simultaneous over all ``n(n-1)/2`` pairs by
    Bonferroni. When every true difference lies in its interval (probability at least
    ``level``), the true gap lies between the largest lower bound of ``|p_i - p_j|`` (0 when an
    interval spans 0) and the largest upper bound: so the interval covers the gap whether the
    seats are equal (where a bootstrap of max - min never reaches 0 and covered nothing) or not.

    Returns ``(gap, low, high)``.
    """
    from scipy import stats

    rates = np.asarray(wins, dtype=np.float64) / games
    n = rates.size
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if not pairs:
        return 0.0, 0.0, 0.0
    z = float(stats.norm.ppf(1 - (1 - level) / (2 * len(pairs))))
    low = high = 0.0
    for i, j in pairs:
        d = rates[i] - rates[j]
        half = z * np.sqrt(max(rates[i] + rates[j] - d * d, 0.0) / games)
        lo, hi = abs(d) - half, abs(d) + half
        low, high = max(low, lo), max(high, hi)
    return float(rates.max() - rates.min()), float(max(low, 0.0)), float(high)


BETTING_GRID = 4001  # candidate means on [0, 1] (the interval is widened by one step each side)
BETTING_CAP = 0.5  # a bet risks at most half the capital on one game (c of Waudby-Smith & Ramdas)


def betting_pieces(games: int, look: int) -> np.ndarray:
    """Where :func:`betting_sequence` may change its bet, for ``games`` games looked at every
    ``look``: pieces of 100 games at first, then a sixteenth of the games before them, cut at
    every look. The edges depend on the games' positions only, never on their outcomes, and
    are the same at every look, so the bets stay predictable and one sequence is watched.

    Returns
    -------
    numpy.ndarray
        Increasing edges from 0 to ``games``.
    """
    look = max(int(look), 1)
    edges = [0]
    while edges[-1] < games:
        at = edges[-1]
        edges.append(min(games, at + max(100, at // 16), (at // look + 1) * look))
    return np.array(edges)


def betting_sequence(
    counts: np.ndarray, support: np.ndarray, alpha: float, target: float | None = None
) -> tuple[float, float]:
    """A (1 - alpha) confidence *sequence* for the mean of observations in [0, 1], from their
    counts per block: ``counts[b, j]`` observations equal to ``support[j]`` in block ``b``.

    The hedged-capital betting sequence of Waudby-Smith and Ramdas, "Estimating means of
    bounded random variables by betting" (JRSS-B, 2023): for each candidate mean ``m`` a
    gambler bets on "above m" and one on "below m"; their capital is a nonnegative
    martingale when ``m`` is the true mean, so by Ville's inequality it exceeds ``1/alpha``
    with probability at most ``alpha``, at any time. The interval after the last block holds
    the ``m`` whose capital never did, at any block's end (the running intersection), so it
    stays valid however often it was looked at.

    It adapts to the variance. The bet on candidate ``m`` scales with ``1/sqrt(v(m))``, where
    ``v(m)`` is the variance the observations would have if their mean were ``m``: the
    Bernoulli shape ``m (1 - m)`` scaled by how the earlier blocks' sample variance (shrunk
    towards 1/4) compares with it. For a rate this is the likelihood-ratio bet that rejects
    ``m`` soonest, so a rate near 2% gets an interval about as narrow as its own standard
    deviation allows, on both sides (a rare rate's lower candidates vary less than its upper
    ones), not a bound for 50%. A bet is fixed within a block (chosen from the earlier blocks
    only, so it stays predictable), which lets a block be summed from its counts: the caller
    splits the games with :func:`betting_pieces`, small at first, so that the first games'
    bets are not blind. A bet is tuned for the end of the block or, with ``target`` (the
    half-width the run stops at), for the number of games that half-width should take, which
    makes the interval at the stop about 1.3 to 1.4 times the fixed-size one for the same
    games (1.39 = sqrt(2 log(2/alpha)) / z is what a bet tuned for one number of games gives).

    Returns
    -------
    (low, high)
    """
    counts = np.asarray(counts, dtype=np.float64).reshape(-1, len(support))
    support = np.asarray(support, dtype=np.float64)
    m = np.linspace(0.0, 1.0, BETTING_GRID)
    up, down = np.zeros_like(m), np.zeros_like(m)
    alive = np.ones(m.shape, dtype=bool)
    with np.errstate(divide="ignore"):
        cap_up = BETTING_CAP / m  # 1 + bet * (x - m) >= 1 - BETTING_CAP for every x in [0, 1]
        cap_down = BETTING_CAP / (1.0 - m)
    n, total, squares = 0.0, 0.0, 0.0
    threshold, log_half = np.log(1.0 / alpha), np.log(0.5)
    for block in counts:
        size = block.sum()
        if size == 0:
            continue
        mean = (0.5 + total) / (n + 1.0)
        variance = (0.25 + squares - 2.0 * mean * total + n * mean * mean) / (n + 1.0)
        tuned = n + size if target is None else max(n + size, 2.0 * np.log(2.0 / alpha) * variance / target**2)
        shape = variance / (mean * (1.0 - mean))  # 1 for a rate; less when draws count 1/2
        bet = np.sqrt(2.0 * np.log(2.0 / alpha) / (np.maximum(m * (1.0 - m) * shape, 1e-12) * tuned))
        bet_up, bet_down = np.minimum(bet, cap_up), np.minimum(bet, cap_down)
        for x, k in zip(support, block, strict=True):
            if k:
                up += k * np.log1p(bet_up * (x - m))
                down += k * np.log1p(-bet_down * (x - m))
        alive &= np.maximum(up, down) + log_half < threshold  # (hedged: half the capital on each side)
        n, total, squares = n + size, total + float(support @ block), squares + float((support * support) @ block)
    inside = np.flatnonzero(alive)
    if inside.size == 0:  # (every candidate ruled out: the nearest grid points to the sample mean)
        centre = total / max(n, 1.0)
        return float(max(0.0, centre - 1.0 / (BETTING_GRID - 1))), float(min(1.0, centre + 1.0 / (BETTING_GRID - 1)))
    step = 1.0 / (BETTING_GRID - 1)
    return float(max(0.0, m[inside[0]] - step)), float(min(1.0, m[inside[-1]] + step))


def normal_mixture_half_width(games: int, sd: float, alpha: float, games_opt: int) -> float:
    """Half-width of a (1 - alpha) confidence *sequence* for a mean after ``games`` games.

    The two-sided normal-mixture boundary of Howard, Ramdas, McAuliffe and Sekhon,
    "Time-uniform, nonparametric, nonasymptotic confidence sequences" (Annals of Statistics,
    2021): for observations that are ``sd``-sub-Gaussian, the running sum stays within
    ``sqrt((v + rho) log((v + rho) / (rho alpha**2)))`` of its expectation at every ``v = sd**2 t``
    at once with probability at least 1 - alpha, so an interval of this half-width stays valid
    however often it is looked at and whenever the looking stops. ``rho`` makes the boundary
    tightest at ``games_opt`` games (their eq. for the optimal mixing variance).

    A proportion is 1/2-sub-Gaussian and a difference of two proportions 1-sub-Gaussian
    whatever the data (exact, but as wide as a rate of 50% needs: :func:`betting_sequence`
    adapts to the variance, and ``--precision`` uses it for rates); for an unbounded quantity
    (a length) the caller passes the sample standard deviation, which makes the sequence valid
    asymptotically (Waudby-Smith et al.,
    "Time-uniform central limit theory and asymptotic confidence sequences", 2021).
    """
    if games < 1 or sd == 0:
        return 0.0
    v_opt = sd * sd * max(games_opt, 1)
    log_term = 2 * np.log(1 / alpha)
    rho = v_opt / (log_term + np.log(1 + log_term))
    v = sd * sd * games
    return float(np.sqrt((v + rho) * np.log((v + rho) / (rho * alpha * alpha))) / games)
