"""A run's summary as mergeable integer sums, so that blocks of games played anywhere can be
added up in any grouping and still give exactly the summary of one table.

A :class:`Tally` holds, for a block of games: the game count; the count of each outcome; the
wins of each seat; a histogram of lengths; and the sum and sum of squares of every other
integer column. Adding tallies is exact integer arithmetic (Python ints, no overflow), so the
merge order cannot change a result. :func:`summary_of` turns a tally into the summary the CLI
prints; :func:`snakesim.analysis.stats.summarize` is the same function applied to a table's tally,
so a summary-only run and a full-table run of the same games print the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from snakesim.core import feel
from snakesim.core.columns import kernel_values, table_nulls
from snakesim.core.figures import tally as tally_figures
from snakesim.core.registry import GameSpec


@dataclass
class Tally:
    """Integer sums over a block of games (see the module docstring).

    ``lengths`` is a sparse histogram, ``{length: games}``: its size is the number of distinct
    lengths, bounded by the games counted whatever the turn cap (a dense one would hold one
    entry per possible length, 10**8 of them for a game capped at 10**8 turns).
    """

    games: int
    outcomes: list[int]  # count per outcome code
    wins: list[int]  # wins per seat
    lengths: dict[int, int]  # sparse histogram: games of each length seen
    sums: dict[str, int] = field(default_factory=dict)  # per other column ("cards_0", "completed")
    squares: dict[str, int] = field(default_factory=dict)
    censored: dict[int, int] = field(default_factory=dict)  # sparse histogram of unfinished games' lengths

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.games + other.games,
            [a + b for a, b in zip(self.outcomes, other.outcomes, strict=True)],
            [a + b for a, b in zip(self.wins, other.wins, strict=True)],
            _add_histograms(self.lengths, other.lengths),
            _add_sums(self.sums, other.sums),
            squares=_add_sums(self.squares, other.squares),
            censored=_add_histograms(self.censored, other.censored),
        )

    def to_dict(self) -> dict:
        """Plain JSON types; the histograms as sorted ``[length, games]`` pairs."""
        out = {k: getattr(self, k) for k in ("games", "outcomes", "wins", "sums", "squares")}
        pairs = lambda h: [[int(v), int(k)] for v, k in sorted(h.items())]  # noqa: E731
        return {**out, "lengths": pairs(self.lengths), "censored": pairs(self.censored)}

    @classmethod
    def from_dict(cls, data: dict) -> Tally:
        histogram = lambda pairs: {int(v): int(k) for v, k in pairs}  # noqa: E731
        return cls(**{**data, "lengths": histogram(data["lengths"]), "censored": histogram(data["censored"])})


def _add_sums(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    """Sums by name; a name one block lacks counts 0 there (a block without feel figures)."""
    return {k: a.get(k, 0) + b.get(k, 0) for k in {**a, **b}}


def _add_histograms(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out = dict(a)
    for value, count in b.items():
        out[value] = out.get(value, 0) + count
    return dict(sorted(out.items()))


def length_histogram(lengths: np.ndarray) -> dict[int, int]:
    """The sparse histogram ``{length: games}`` of an array of lengths (Python ints)."""
    values, counts = np.unique(np.asarray(lengths, dtype=np.int64), return_counts=True)
    return dict(zip(values.tolist(), counts.tolist(), strict=True))


def _ints(values: np.ndarray) -> int:
    return int(np.sum(values, dtype=np.int64))


def tally_columns(spec: GameSpec, columns: dict[str, np.ndarray], players: int) -> Tally:
    """The tally of a block of games, from a kernel's column arrays."""
    winner = columns["winner"]
    sums, squares = {}, {}
    for name in spec.seat_columns:
        for seat in range(players):
            values = columns[name][:, seat].astype(np.int64)
            sums[f"{name}_{seat}"] = _ints(values)
            squares[f"{name}_{seat}"] = _ints(values * values)
    for name in spec.game_columns:
        if name in feel.NAMES:
            continue  # (tallied below, over the games each figure is about)
        values = columns[name].astype(np.int64)
        sums[name] = _ints(values)
        squares[name] = _ints(values * values)
    feel_sums, feel_squares = tally_figures(spec, columns, players)
    sums.update(feel_sums)
    squares.update(feel_squares)
    return Tally(
        games=len(winner),
        outcomes=np.bincount(columns["outcome"].astype(np.int64), minlength=len(spec.outcomes)).tolist(),
        wins=np.bincount(winner[winner >= 0].astype(np.int64), minlength=players).tolist(),
        lengths=length_histogram(columns["length"]),
        sums=sums,
        squares=squares,
        censored=censored_histogram(columns["outcome"], columns["length"], spec.outcomes),
    )


def censored_histogram(outcome_codes, lengths, labels) -> dict[int, int]:
    """The sparse histogram of the lengths of unfinished games (outcome label "unfinished")."""
    if "unfinished" not in labels:
        return {}
    unfinished = np.asarray(outcome_codes) == list(labels).index("unfinished")
    return length_histogram(np.asarray(lengths)[unfinished])


def tally_table(spec: GameSpec, df, players: int) -> Tally:
    """The tally of a block's results table (what :func:`tally_columns` gives for its arrays)."""
    return tally_columns(spec, table_columns(spec, df, players), players)


def table_columns(spec: GameSpec, df, players: int) -> dict[str, np.ndarray]:
    """A results table's columns as the kernel gave them (per-seat columns 2-D): the inverse
    of ``snakesim.core.results.build_table``. Nulls go back to the kernel's -1 or NaN; the
    feel figures of a run without them come back as the kernel writes them then, and a game
    without a tie-break gets back its tie-break column (0 for each won game, -1 otherwise)."""
    dtypes = {name: dtype for name, dtype, _ in spec.columns}
    nulls = table_nulls(spec)
    columns = {
        "outcome": df["outcome"].cat.codes.to_numpy(),
        "winner": kernel_values(df["winner"], dtypes["winner"], nulls["winner"]),
        "length": df["length"].to_numpy(),
    }
    for name in spec.seat_columns:
        columns[name] = np.column_stack([kernel_values(df[f"{name}_{seat}"], dtypes[name], nulls.get(name))
                                         for seat in range(players)])  # fmt: skip
    unrecorded = dict(zip((name for name, _, _ in feel.COLUMNS), feel.NOT_RECORDED, strict=True))
    unrecorded[feel.OUT_SHARE[0]] = np.nan
    for name in spec.game_columns:
        if name in df:
            columns[name] = kernel_values(df[name], dtypes[name], nulls.get(name))
        elif name == "tie_break" and "lead_changes" in df:  # (recorded, not shown: none is won on one)
            columns[name] = np.where(columns["winner"] >= 0, 0, -1).astype(dtypes[name])
        else:
            columns[name] = np.full(len(df), unrecorded[name], dtypes[name])
    return columns


def merge(tallies) -> Tally:
    """The sum of tallies, in the order given."""
    tallies = list(tallies)
    total = tallies[0]
    for t in tallies[1:]:
        total = total + t
    return total


def km_histogram_quantile(lengths: dict[int, int], censored: dict[int, int], q: float) -> float:
    """The length by which a fraction ``q`` of games have ended, from the Kaplan-Meier curve of
    sparse histograms of all games' lengths and of the unfinished (censored) ones' lengths:
    the first length at which the curve falls to ``1 - q``, ``inf`` if it never does. With no
    game unfinished, the first length by which a share ``q`` of the games is over (numpy's
    ``inverted_cdf`` quantile): always a length some game had.

    An unfinished game counts as still going at its recorded length, as in
    :func:`snakesim.analysis.stats.km_quantile` (the same definition, for tables).
    """
    at_risk = sum(lengths.values())
    survival = 1.0
    for value in sorted(lengths):
        ended = lengths[value] - censored.get(value, 0)
        if ended:
            survival *= 1.0 - ended / at_risk
            if survival <= 1.0 - q + 1e-12:
                return float(value)
        at_risk -= lengths[value]
    return float("inf")
