"""How often the verdicts err, measured on real comparisons of real games (``make test-all``).

Each run is a comparison (``compare_variants``, what ``snakesim compare`` and
``snakesim.compare`` play) of 4-player Rainbow with greedy players, on a seed of its own: the
first rule set against three others whose true difference in one figure is known. The test
reads the verdict compare itself gives that figure, and checks how it got there: its margin,
the level of its Holm step (a family of 39 differences: 13 figures by 3 rule sets) and the
interval there. From the same games it recomputes the difference's interval, with the function
compare uses, at every level compare draws (95%, then 1 - 0.05/k up to 1 - 0.05/39 = 99.87%),
each called as ``verdicts.verdict`` calls it.

The true differences, built rather than assumed:

- **none**: every seat makes a random move once in a billion decisions (``greedy:1e-9``).
  Whether to err is one draw before each decision, which shifts every later draw of the game's
  stream (greedy's tie-breaks, the draw-or-play coin), so the games part from the first rule
  set's after a move or two (their pairing is about as loose as the others'), while the two
  rule sets differ in distribution by at most the chance of one such mistake in a game: at most
  one decision a turn, about 50 turns, below one game in ten million.
- **the margin** and **twice the margin**: novices, making a random move at a rate found once:
  seat 0's alone for a seat's win rate (seat 0 wins 1 and 2 points less), every seat's for the
  mean length (games 5% and 10% longer). The test measures each difference again on all its
  games together (10 million games a rule set for the win rate, 4 million for the length) and
  fails unless its 99% interval lies within a tenth of the margin of the one intended.

What the verdicts must do:

- none, with enough games: ``negligible`` in at least 95% of runs and ``matters`` in none, at
  compare's own level and at every level;
- twice the margin, with enough games: ``matters`` in at least 95% of runs and ``negligible`` in
  none, at compare's own level and at every level;
- the margin, whatever the games: ``matters`` in at most 5% of runs, and ``negligible`` in at
  most 5% (the difference is neither beyond the margin nor inside it; each wrong call is one side
  of an interval, 2.5% of runs at 95% and fewer at the stricter levels).

A seat's win rate (margin 1 percentage point): 100 runs of 100,000 games per rule set, enough.
Each run's games are also judged ten at a time (games 0 to 9,999, 10,000 to 19,999, ...: what a
comparison of 10,000 games from there plays), too few to settle it: 1,000 runs where the margin
is held to 5% at every level (a hundred runs are too few to hold a 2.5% share to 5%; theirs is
held at compare's own level), and where none and twice the margin may be called the wrong way
round in at most one run in 200. The mean length (margin 5% of the first rule set's): 400 runs
of 10,000 games, enough, every rule held at every level. ``docs/what-matters.md`` gives the
shares this test measures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pytest

from snakesim.analysis.compare import arm_metrics, compare_variants
from snakesim.analysis.stats import normal_quantile, paired_binary_difference, paired_difference
from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE, UNDECIDED, verdict
from snakesim.core.arms import Budget
from snakesim.games import get_game

pytestmark = pytest.mark.slow

GAME, PLAYERS, ALPHA = "rainbow", 4, 0.05
# The margins as docs/what-matters.md gives them (not read from the registry: a wrong default
# there must fail here).
WIN_MARGIN, LENGTH_SHARE = 0.01, 0.05
FAMILY = 39  # the differences of a comparison's Holm family: 13 figures by 3 rule sets
LADDER = [1 - ALPHA / k for k in range(FAMILY, 0, -1)]  # every level compare draws, strictest first
FIRST = "greedy=standard,policy=greedy"
SAME = "same=standard,policy=greedy:1e-9"  # no true difference, by construction
TRUTH_LEVEL, TRUTH_SLACK = 0.99, 0.1  # a true difference: its 99% interval within a tenth of the margin
RARELY = 0.005  # the wrong way round with too few games: at most one run in 200


@dataclass(frozen=True)
class Family:
    """Runs of one comparison: its figure's row ``metric`` and the smallest difference that
    matters in it (``margin``; with ``relative`` a share of the first rule set's value),
    ``games`` per rule set on each of ``seeds``, and its rule sets after the first: label ->
    (arm, true difference in margins). With ``blocks``, each run's games are also judged as that
    many runs of fewer games."""

    metric: str
    margin: float
    relative: bool
    games: int
    seeds: range
    arms: dict[str, tuple[str, int]]
    blocks: int = 1

    def margin_of(self, first) -> float:
        """The margin in the figure's terms, on these games of the first rule set."""
        return self.margin * float(np.mean(first)) if self.relative else self.margin


WIN = Family(
    "win_rate.0",
    WIN_MARGIN,
    False,
    100_000,
    range(10_001, 10_101),
    {
        "same": (SAME, 0),
        "novice-1": ("novice-1=standard,policies=greedy:0.165/greedy/greedy/greedy", -1),
        "novice-2": ("novice-2=standard,policies=greedy:0.326/greedy/greedy/greedy", -2),
    },
    blocks=10,
)
LENGTH = Family(
    "length",
    LENGTH_SHARE,
    True,
    10_000,
    range(20_001, 20_401),
    {
        "same": (SAME, 0),
        "novices-5": ("novices-5=standard,policy=greedy:0.2", 1),
        "novices-10": ("novices-10=standard,policy=greedy:0.3585", 2),
    },
)


@dataclass
class Tally:
    """What the runs of one rule set said: compare's own verdicts, the verdicts at each level of
    :data:`LADDER` on each run's games and on each of its blocks, what compare did that it
    should not have, and the sums of the per-game differences (and of the first rule set's
    values) over every game: the true difference."""

    own: Counter = field(default_factory=Counter)
    at: list = field(default_factory=lambda: [Counter() for _ in LADDER])
    blocks: list = field(default_factory=lambda: [Counter() for _ in LADDER])
    wrong: list = field(default_factory=list)
    sums: np.ndarray = field(default_factory=lambda: np.zeros(4))  # games, sum, sum of squares, first's sum


def holm_family(metrics: dict) -> list[tuple[str, str]]:
    """The differences a comparison's Holm family holds, as compare documents it: every
    difference from the first rule set that is not zero in every game, less the exact multiples
    of another of the same rule set (the first player's edge, seat 0's wins here)."""
    names = list(metrics)
    family = []
    for name in names[1:]:
        shapes = []
        for metric, (kind, base) in metrics[names[0]].items():
            if kind not in ("rate", "mean"):
                continue
            d = np.asarray(metrics[name][metric][1], np.float64) - base
            scale = np.abs(d).max()
            if scale > 0 and not any(np.array_equal(d / scale, s) for s in shapes):
                shapes.append(d / scale)
                family.append((name, metric))
    return family


def holm_levels(p_values, p: float) -> set[float]:
    """The level Holm's step-down gives a difference of p-value ``p`` among ``p_values``: the
    k-th smallest of m is tested at alpha / (m - k + 1), and after the first step that fails,
    every later difference at that step's level (more than one level where p-values tie)."""
    ordered = sorted(p_values)
    levels, rejecting = set(), True
    for k, q in enumerate(ordered):
        if rejecting:
            step = ALPHA / (len(ordered) - k)
            rejecting = q <= step
        if q == p:
            levels.add(1 - step)
    return levels


def interval(kind: str, values, base, level: float) -> tuple[float, float]:
    """A paired difference's interval at ``level``, by the function compare takes for ``kind``."""
    if kind == "rate":
        return paired_binary_difference(values, base, level)[1:3]
    return paired_difference(values, base, level)[1:3]


def judge(tally: Tally, seed: int, row, kind: str, values, base, margin: float, p_values) -> None:
    """Check compare's own verdict: its margin, its level (its Holm step's) and its interval
    (the one recomputed at that level), and the verdict on it."""
    close = [level for level in holm_levels(p_values, row["p_value"]) if abs(level - row["diff_level"]) < 1e-12]
    low, high = interval(kind, values, base, row["diff_level"])
    if not close:
        tally.wrong.append(f"seed {seed}: drawn at {row['diff_level']}, not at its Holm step's level")
    elif not np.isclose(row["margin"], margin, rtol=1e-12, atol=0):
        tally.wrong.append(f"seed {seed}: a margin of {row['margin']}, not {margin}")
    elif not np.allclose([row["diff_low"], row["diff_high"]], [low, high], rtol=1e-9, atol=0):
        tally.wrong.append(f"seed {seed}: an interval {row['diff_low']}..{row['diff_high']}, not {low}..{high}")
    elif verdict(low, high, margin) != row["verdict"]:
        tally.wrong.append(f"seed {seed}: called {row['verdict']}")


def play(family: Family) -> dict[str, Tally]:
    """Every run of ``family``, tallied by rule set."""
    spec = get_game(GAME)
    arms = [FIRST] + [arm for arm, _ in family.arms.values()]
    tallies = {label: Tally() for label in family.arms}
    size = family.games // family.blocks
    for seed in family.seeds:
        table, tables = compare_variants(spec, PLAYERS, arms, Budget(family.games, seed))
        metrics = arm_metrics(spec, tables, PLAYERS)
        members = holm_family(metrics)
        p_values = table.set_index(["variant", "metric"]).loc[members, "p_value"]
        strictest = table["diff_level"].max()
        kind, base = metrics[next(iter(metrics))][family.metric]
        margin = family.margin_of(base)
        for label, tally in tallies.items():
            if len(members) != FAMILY or abs(strictest - LADDER[0]) > 1e-12:
                tally.wrong.append(f"seed {seed}: a family of {len(members)}, the strictest level {strictest}")
            row = table[(table["variant"] == label) & (table["metric"] == family.metric)].iloc[0]
            values = metrics[label][family.metric][1]
            tally.own[row["verdict"]] += 1
            judge(tally, seed, row, kind, values, base, margin, p_values)
            for i, level in enumerate(LADDER):
                tally.at[i][verdict(*interval(kind, values, base, level), margin)] += 1
                for b in range(0, family.games, size) if family.blocks > 1 else ():
                    part, part_base = values[b : b + size], base[b : b + size]
                    called = verdict(*interval(kind, part, part_base, level), family.margin_of(part_base))
                    tally.blocks[i][called] += 1
            d = np.asarray(values, np.float64) - base
            tally.sums += [d.size, d.sum(), d @ d, float(np.sum(base))]
    return tallies


def true_difference(family: Family, tally: Tally) -> tuple[float, float, float]:
    """The difference over every game of every run, and its :data:`TRUTH_LEVEL` interval (for
    the length, as a share of the first rule set's mean)."""
    n, total, squares, first = tally.sums
    mean = total / n
    half = normal_quantile(0.5 + TRUTH_LEVEL / 2) * np.sqrt((squares / n - mean**2) / n)
    scale = first / n if family.relative else 1.0
    return mean / scale, (mean - half) / scale, (mean + half) / scale


def share(counts: Counter, said: str) -> float:
    return counts[said] / sum(counts.values())


def failures(family: Family, tallies: dict[str, Tally]) -> list[str]:
    """Every way the runs missed what the verdicts promise (empty: none)."""
    out = []
    for label, tally in tallies.items():
        size, margin = family.arms[label][1], family.margin
        value, low, high = true_difference(family, tally)
        if not (size - TRUTH_SLACK) * margin <= low <= high <= (size + TRUTH_SLACK) * margin:
            out.append(f"{label}: the true difference is {value:.5f} [{low:.5f}, {high:.5f}], not {size * margin}")
        out += [f"{label}: {wrong}" for wrong in tally.wrong[:3]]
        own = [("compare's own level", tally.own)]
        levels = [(f"{level:.2%}", counts) for level, counts in zip(LADDER, tally.at, strict=True)]
        fewer = [(f"{level:.2%} on {family.games // family.blocks:,} games", counts)
                 for level, counts in zip(LADDER, tally.blocks, strict=True) if family.blocks > 1]  # fmt: skip
        enough = own + levels
        if size == 0:
            out += misses(label, enough, NEGLIGIBLE, at_least=0.95) + misses(label, enough, MATTERS, at_most=0)
            out += misses(label, fewer, MATTERS, at_most=RARELY)
        elif abs(size) == 2:
            out += misses(label, enough, MATTERS, at_least=0.95) + misses(label, enough, NEGLIGIBLE, at_most=0)
            out += misses(label, fewer, NEGLIGIBLE, at_most=RARELY)
        else:  # (each level on the many runs: the thousand shorter ones where there are)
            judged = own + (fewer or levels)
            out += misses(label, judged, MATTERS, at_most=0.05) + misses(label, judged, NEGLIGIBLE, at_most=0.05)
    return out


def misses(label: str, runs: list, said: str, at_least: float = 0.0, at_most: float = 1.0) -> list[str]:
    """Where the share of runs called ``said`` is not within ``[at_least, at_most]``."""
    return [f"{label} at {where}: {said} in {share(counts, said):.2%} of {sum(counts.values())} runs "
            f"({dict(counts)}), expected {at_least:.0%} to {at_most:.1%}"
            for where, counts in runs if not at_least <= share(counts, said) <= at_most]  # fmt: skip


def report(family: Family, tallies: dict[str, Tally]) -> str:
    """The shares of runs that docs/what-matters.md gives (printed with ``-s``)."""
    lines = []
    for label, tally in tallies.items():
        value, low, high = true_difference(family, tally)
        rows = [("own", tally.own, family.games), ("95%", tally.at[-1], family.games),
                (f"{LADDER[0]:.2%}", tally.at[0], family.games)]  # fmt: skip
        if family.blocks > 1:
            rows += [(f"{level:.2%}", tally.blocks[i], family.games // family.blocks) for i, level in
                     ((len(LADDER) - 1, LADDER[-1]), (0, LADDER[0]))]  # fmt: skip
        for where, counts, games in rows:
            shares = ", ".join(f"{said} {share(counts, said):.1%}" for said in (MATTERS, NEGLIGIBLE, UNDECIDED))
            lines.append(f"{family.metric} {label} (true {value:+.5f} [{low:+.5f}, {high:+.5f}]) {games:,} games "
                         f"x {sum(counts.values())}, {where}: {shares}")  # fmt: skip
    return "\n".join(lines)


def test_a_seats_win_rate_is_called_right_at_every_level():
    tallies = play(WIN)
    print(report(WIN, tallies))
    assert failures(WIN, tallies) == []


def test_the_mean_length_is_called_right_at_every_level():
    tallies = play(LENGTH)
    print(report(LENGTH, tallies))
    assert failures(LENGTH, tallies) == []
