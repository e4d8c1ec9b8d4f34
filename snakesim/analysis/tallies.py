"""A comparison's exact, mergeable tallies: what its rows are computed from.

Every per-game value a comparison uses becomes an integer on a fixed scale of its figure (1 for
a 0/1 rate, a length, a count or a margin; the players for the first player's edge, which is
``[winner == 0] - won / players``; 2**60 for a share of a game, exact for every double from
2**-8 up and otherwise rounded the same way for the same game). The tallies are sums of those
integers, of their squares and of the rule sets' paired differences, in Python integers: adding
two blocks' tallies gives the tally of their games whatever the split, so games 0 to 2n-1
played at once and games 0 to n-1 kept plus n to 2n-1 played later give the same integers, and
so the same rows, bit for bit. Each row's statistic is computed once from the integers (an
integer divided by an integer is correctly rounded).

A tally: ``{"players", "score", "arms": {name: {"games", "wins", "lengths", "censored",
"metrics": {row: [kind, scale, [n, sum, sum of squares]]}, "meta"}}, "pairs": {name: {"rows":
{row: {"d": [n, sum, squares], "up", "down"}}, "gram": {"i|j": sum of d_i d_j}}}}``, the pairs
each rule set after the first against the first. :func:`dumps` and :func:`loads` write it as
JSON, in order (the first rule set is the baseline; the rows keep the registry's order).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.stats import (
    EXACT_BELOW,
    LEVEL,
    holm,
    km_quantile,
    players_of,
    seat_balance,
    seat_gap,
    t_quantile,
    tango_interval,
    wilson,
)
from snakesim.core.columns import winners
from snakesim.core.tally import censored_histogram, length_histogram

if TYPE_CHECKING:
    import pandas as pd

    from snakesim.core.registry import GameSpec

SHARE = 1 << 60  # a share of a game in [0, 1], in units of 2**-60
CHUNK = 1 << 20  # games per int64 partial sum (21-bit limb products summed: 2**20 of them fit)
NAN_ROW = (np.nan,) * 4


# ---------------------------------------------------------------------------- exact sums
def isum(values: np.ndarray) -> int:
    """The exact sum of int64 ``values`` (|v| < 2**62) as a Python int."""
    v = np.asarray(values, dtype=np.int64)
    high, low = v >> 31, v & ((1 << 31) - 1)
    return sum((int(high[i : i + CHUNK].sum()) << 31) + int(low[i : i + CHUNK].sum())
               for i in range(0, max(v.size, 1), CHUNK))  # fmt: skip


def idot(a: np.ndarray, b: np.ndarray) -> int:
    """The exact sum of ``a * b`` for int64 values (|v| < 2**62): 21-bit limbs, int64 partial sums
    (one product a game where both are below 2**21, as wins, lengths and counts are)."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    if not a.size:
        return 0
    small = 1 << 21
    if -small < a.min() and a.max() < small and -small < b.min() and b.max() < small:  # (products < 2**42)
        return sum(int(np.dot(a[i : i + CHUNK], b[i : i + CHUNK])) for i in range(0, a.size, CHUNK))
    mask = (1 << 21) - 1
    la, lb = (a >> 42, (a >> 21) & mask, a & mask), (b >> 42, (b >> 21) & mask, b & mask)
    total = 0
    for i in range(0, max(a.size, 1), CHUNK):
        part = slice(i, i + CHUNK)
        for x in range(3):
            for y in range(3):
                total += int(np.dot(la[x][part], lb[y][part])) << (21 * ((2 - x) + (2 - y)))
    return total


def exact(row: str, values: np.ndarray, players: int) -> tuple[np.ndarray, int]:
    """A row's per-game values as integers and their scale (a value is the integer / scale)."""
    values = np.asarray(values)
    if values.dtype == bool or values.dtype.kind in "iu":
        return values.astype(np.int64), 1
    if row == "first_player_advantage":  # ([winner == 0] - won / players) * players: an integer
        return np.rint(values * players).astype(np.int64), players
    if values.size and not ((values >= 0) & (values <= 1)).all():
        raise ValueError(f"{row}: a share of a game must lie from 0 to 1")
    return np.rint(values * SHARE).astype(np.int64), SHARE


def moments(ints: np.ndarray) -> list[int]:
    """``[n, sum, sum of squares]`` of integers: exact, mergeable by adding."""
    return [int(ints.size), isum(ints), idot(ints, ints)]


# ---------------------------------------------------------------------------- tallying games
def tally_tables(spec: GameSpec, tables: dict[str, pd.DataFrame]) -> dict:
    """The tally of the same games under each rule set (``tables``: results tables by name, the
    first the baseline, each of the same game indices)."""
    from snakesim.analysis.compare import arm_metrics, score_word

    names = list(tables)
    players = players_of(tables[names[0]])
    metrics = arm_metrics(spec, tables, players)
    ints = {name: {row: (kind, *exact(row, v, players)) for row, (kind, v) in ms.items()}
            for name, ms in metrics.items()}  # fmt: skip
    out = {"players": players, "score": score_word(spec, tables, players), "arms": {}, "pairs": {}}
    for name, df in tables.items():
        winner = winners(df)
        lengths = df["length"].to_numpy()
        out["arms"][name] = {
            "games": len(df),
            "wins": np.bincount(winner[winner >= 0].astype(np.int64), minlength=players).tolist(),
            "lengths": length_histogram(lengths),
            "censored": censored_histogram(df["outcome"].cat.codes.to_numpy(), lengths, df["outcome"].cat.categories),
            "metrics": {row: [kind, scale, moments(v)] for row, (kind, v, scale) in ints[name].items()},
            "meta": _meta(df),
        }
    base = names[0]
    compared = [row for row, (kind, _, _) in ints[base].items() if kind != "own"]
    for name in names[1:]:
        d = {row: ints[name][row][1] - ints[base][row][1] for row in compared}
        rows = {}
        for row in compared:
            entry = {"d": moments(d[row])}
            if ints[name][row][0] == "rate":
                a, b = ints[name][row][1].astype(bool), ints[base][row][1].astype(bool)
                entry["up"], entry["down"] = int(np.count_nonzero(a & ~b)), int(np.count_nonzero(~a & b))
            rows[row] = entry
        out["pairs"][name] = {"rows": rows, "gram": _gram(compared, d)}
    return out


def _gram(compared: list[str], d: dict[str, np.ndarray]) -> dict[str, int]:
    """The sums of products of the differences that may be exactly proportional (Holm's twins:
    by Cauchy-Schwarz's equality on exact sums): only rows nonzero in the same games can be, so
    only theirs are summed (every pair's cost four times the rest of the tally). A pair missing
    from a block's is not proportional there, so not in the merged games either (:func:`merge`)."""
    groups: dict[bytes, list[str]] = {}
    for row in compared:
        groups.setdefault(np.packbits(d[row] != 0).tobytes(), []).append(row)
    return {f"{i}|{j}": idot(d[i], d[j]) for rows in groups.values() for k, i in enumerate(rows) for j in rows[k + 1 :]}


def _meta(df: pd.DataFrame) -> dict:
    """What a comparison's attrs carry of a rule set's table: its players, rules' hash and options."""
    return {"policies": list(df.attrs.get("policies") or ()), "rules_hash": df.attrs.get("rules_hash"),
            "options": df.attrs.get("options")}  # fmt: skip


def merge(first: dict, then: dict) -> dict:
    """The tally of both tallies' games (the same rule sets, each block's own games)."""
    add = lambda p, q: [a + b for a, b in zip(p, q, strict=True)]  # noqa: E731
    out = {"players": first["players"], "score": first["score"], "arms": {}, "pairs": {}}
    for name, a in first["arms"].items():
        b = then["arms"][name]
        out["arms"][name] = {
            "games": a["games"] + b["games"], "wins": add(a["wins"], b["wins"]),
            "lengths": _added(a["lengths"], b["lengths"]), "censored": _added(a["censored"], b["censored"]),
            "metrics": {row: [kind, scale, add(m, b["metrics"][row][2])]
                        for row, (kind, scale, m) in a["metrics"].items()},
            "meta": a["meta"],
        }  # fmt: skip
    for name, p in first["pairs"].items():
        q = then["pairs"][name]
        rows = {row: {k: add(v, q["rows"][row][k]) if isinstance(v, list) else v + q["rows"][row][k]
                      for k, v in e.items()} for row, e in p["rows"].items()}  # fmt: skip
        gram = {k: v + q["gram"][k] for k, v in p["gram"].items() if k in q["gram"]}  # (see _gram)
        out["pairs"][name] = {"rows": rows, "gram": gram}
    return out


def _added(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return dict(sorted(out.items()))


def dumps(tally: dict) -> str:
    """A tally as canonical JSON (a histogram as ``[[length, games], ...]``)."""

    def plain(o):
        if isinstance(o, dict) and o and all(isinstance(k, int) for k in o):
            return {"histogram": [[k, v] for k, v in o.items()]}
        if isinstance(o, dict):
            return {k: plain(v) for k, v in o.items()}
        if isinstance(o, list):
            return [plain(v) for v in o]
        return o

    return json.dumps(plain(tally), separators=(",", ":"))  # (in order: the rule sets' and the rows')


def loads(text: str) -> dict:
    """A tally from :func:`dumps`'s JSON (its arms and pairs in their order: the first the baseline)."""

    def back(o):
        if isinstance(o, dict) and set(o) == {"histogram"}:
            return {int(k): int(v) for k, v in o["histogram"]}
        if isinstance(o, dict):
            return {k: back(v) for k, v in o.items()}
        if isinstance(o, list):
            return [back(v) for v in o]
        return o

    return back(json.loads(text))


# ---------------------------------------------------------------------------- rows from a tally
def _mean_sd(m: list[int], scale: int) -> tuple[float, float]:
    n, total, squares = m
    mean = total / (n * scale)
    sd = math.sqrt((n * squares - total * total) / (n * (n - 1) * scale * scale)) if n > 1 else 0.0
    return mean, sd


def mean_interval(m: list[int], scale: int, level: float) -> tuple[float, float, float]:
    """:func:`snakesim.analysis.stats.mean_interval` from exact moments."""
    mean, sd = _mean_sd(m, scale)
    if m[0] < 2:
        return mean, mean, mean
    half = float(t_quantile(0.5 + level / 2, m[0] - 1) * sd / np.sqrt(m[0]))
    return mean, mean - half, mean + half


def paired_difference(m: list[int], scale: int, level: float) -> tuple[float, float, float, float]:
    """:func:`snakesim.analysis.stats.paired_difference` from the differences' exact moments."""
    from scipy import stats

    mean, sd = _mean_sd(m, scale)
    if sd == 0.0:
        return mean, mean, mean, 1.0 if mean == 0.0 else 0.0
    se = sd / np.sqrt(m[0])
    half = t_quantile(0.5 + level / 2, m[0] - 1) * se
    return mean, mean - half, mean + half, float(2 * stats.t.sf(abs(mean) / se, m[0] - 1))


def paired_binary_difference(up: int, down: int, n: int, level: float) -> tuple:
    """:func:`snakesim.analysis.stats.paired_binary_difference` from the discordant games."""
    from scipy import stats

    discordant = up + down
    if discordant >= EXACT_BELOW:
        return (*paired_difference([n, up - down, up + down], 1, level), "paired t")
    low, high = tango_interval(up, down, n, level)
    if discordant == 0:
        return 0.0, low, high, 1.0, "exact McNemar"
    p = min(1.0, 2 * min(stats.binom.cdf(up, discordant, 0.5), stats.binom.sf(up - 1, discordant, 0.5)))
    ci = stats.binomtest(up, discordant).proportion_ci(level, method="exact")
    share = discordant / n
    low, high = min(low, share * (2 * ci.low - 1)), max(high, share * (2 * ci.high - 1))
    return (up - down) / n, low, high, float(p), "exact McNemar"


def pairing_gain(a: list[int], b: list[int], d: list[int], scale: int, level: float) -> tuple[float, float, float]:
    """:func:`snakesim.analysis.compare.pairing_gain` from the two arms' and their differences'
    exact moments."""
    from scipy import stats

    n = a[0]
    if n < 2:
        return np.nan, np.nan, np.nan
    variance = lambda m: (m[0] * m[2] - m[1] ** 2) / (m[0] * (m[0] - 1) * scale * scale)  # noqa: E731
    t = float(stats.t.ppf(0.5 + level / 2, 2 * n - 2))
    unpaired = 2 * t * float(np.sqrt((variance(a) + variance(b)) / n))
    if unpaired == 0.0:
        return 0.0, np.nan, 0.0
    paired = 2 * float(stats.t.ppf(0.5 + level / 2, n - 1)) * math.sqrt(variance(d)) / np.sqrt(n)
    ratio = paired / unpaired
    return unpaired, ratio, float(n * (1 / ratio**2 - 1)) if ratio > 0 else float("inf")


def _quantile(lengths: dict, censored: dict, q: float, level: float) -> tuple[float, float, float]:
    """:func:`snakesim.analysis.stats.km_quantile` from the length and censored histograms."""
    values = np.array(list(lengths), dtype=np.int64)
    counts = np.array(list(lengths.values()), dtype=np.int64)
    cut = np.array([censored.get(v, 0) for v in values.tolist()], dtype=np.int64)
    # (each length's unfinished games first, then its finished ones: the order within a length is no matter)
    flags = np.repeat(np.tile([True, False], values.size), np.column_stack([cut, counts - cut]).ravel())
    return km_quantile(np.repeat(values, counts), flags, q, level)


def rows(tally: dict, level: float = LEVEL) -> list[list]:
    """A comparison's rows (``compare.COLUMNS``) from its tally: each rule set's value and
    interval, each difference from the first with its test, Holm-adjusted p-value and the
    interval at its Holm step's level, the pairing's gain; then each rule set's length
    quantiles, seat balance and largest seat gap."""
    arms, pairs = tally["arms"], tally["pairs"]
    names = list(arms)
    base = names[0]
    out, tested = [], []

    def difference(name: str, row: str, kind: str, at: float) -> tuple:
        e, n = pairs[name]["rows"][row], arms[name]["games"]
        if kind == "rate":
            return paired_binary_difference(e["up"], e["down"], n, at)
        return (*paired_difference(e["d"], arms[name]["metrics"][row][1], at), "paired t")

    for row, (kind, _, _) in arms[base]["metrics"].items():
        for name in names:
            _, scale, m = arms[name]["metrics"][row]
            if kind == "rate":
                value, low, high = m[1] / m[0], *wilson(m[1], m[0], level)
            else:
                value, low, high = mean_interval(m, scale, level)
            if name == base or kind == "own":
                out.append([name, row, kind, value, low, high, *NAN_ROW, np.nan, "", *NAN_ROW])
                continue
            diff, diff_low, diff_high, p, test = difference(name, row, kind, level)
            gain = pairing_gain(m, arms[base]["metrics"][row][2], pairs[name]["rows"][row]["d"], scale, level)
            out.append([name, row, kind, value, low, high, diff, diff_low, diff_high, p, np.nan, test, level, *gain])
            tested.append((len(out) - 1, name, row, kind))
    _holm_family(out, tested, pairs, level, difference)
    for name, a in arms.items():
        for row, q in (("length_median", 0.5), ("length_p95", 0.95)):
            out.append([name, row, "quantile", *_quantile(a["lengths"], a["censored"], q, level), *NAN_ROW,
                        np.nan, "", *NAN_ROW])  # fmt: skip
        wins = np.array(a["wins"], dtype=np.int64)
        out.append([name, "seat_balance", "test", seat_balance(wins), np.nan, np.nan, *NAN_ROW, np.nan, "", *NAN_ROW])
        out.append([name, "seat_gap", "rate", *seat_gap(wins, a["games"], level), *NAN_ROW, np.nan, "", *NAN_ROW])
    return out


def _proportional(gram: dict, rows: dict, i: str, j: str) -> bool:
    """Whether rows ``i`` and ``j``'s differences are exactly proportional, the same sign: the
    equality of Cauchy-Schwarz on exact sums."""
    dot = gram.get(f"{i}|{j}", gram.get(f"{j}|{i}"))
    return dot is not None and dot > 0 and dot * dot == rows[i]["d"][2] * rows[j]["d"][2]


def _holm_family(out: list, tested: list, pairs: dict, level: float, difference) -> None:
    """Holm-adjust the differences' p-values and draw each difference's interval at the level of
    the step that decided it, in place (see ``compare._holm_family``): a difference zero in
    every game is left out (p 1), and one exactly proportional to another of its rule set
    (first-player advantage is seat 0's wins when no game is drawn) takes that one's p-value
    and level."""
    alpha = 1 - level
    family, copies = [], {}
    for index, name, row, _ in tested:
        squares = pairs[name]["rows"][row]["d"][2]
        if squares == 0:
            out[index][10] = 1.0  # (nothing to test)
            continue
        gram = pairs[name]["gram"]
        twin = next((j for j, other, r in family if other == name and _proportional(gram, pairs[name]["rows"], row, r)),
                    None)  # fmt: skip
        if twin is not None:
            copies[index] = twin
        else:
            family.append((index, name, row))

    def redraw(index: int, at: float) -> None:
        _, name, row, kind = next(t for t in tested if t[0] == index)
        _, low, high, _, _ = difference(name, row, kind, at)
        out[index][7], out[index][8], out[index][12] = low, high, at

    if family:
        order = sorted(family, key=lambda f: out[f[0]][9])
        adjusted = holm([out[i][9] for i, _, _ in order])
        m, rejecting = len(order), True
        for k, ((index, _, _), p_holm) in enumerate(zip(order, adjusted, strict=True)):
            out[index][10] = float(p_holm)
            if rejecting:
                step = alpha / (m - k)
                rejecting = out[index][9] <= step
            redraw(index, 1 - step)
    for index, twin in copies.items():
        out[index][10] = out[twin][10]
        redraw(index, out[twin][12])
