"""Every figure snakesim reports, named once: the registry that every layer reads.

A figure is a quantity every game has (a seat's win, the game's length, how often the lead
changed hands). Its entry says all the rest of snakesim needs to know about it:

- ``id``: the stable snake_case name, the key in JSON, CSV and Parquet, in study files, in
  ``tune`` targets (``ID.STAT``) and in the workbench's link;
- ``label``: its words in a comparison's rows, ``line`` its words in a summary's rows (a run's,
  a balance's), ``short`` as a sweep's column;
- ``kind``: ``rate`` (yes or no in each game: a share with a Wilson interval), ``mean`` (a
  number each game: a mean with a t interval), ``quantile`` or ``test`` (a p-value);
- ``unit``: ``share`` (a share of the game, shown in percent), ``points`` (a difference of
  rates, in percentage points), ``length`` or ``standing`` (the game's own units), or a word;
- ``words``: for the findings, what it counts and the sentences' openings for more and fewer;
  ``topic`` the figure in a list of what a rule set changes ("draws");
- ``feel``: whether the games record it only with ``feel = true``; ``applies``: the games it
  exists in;
- ``values``: how it is read off a block of games (every game, so that the games of two rule
  sets stay paired in a comparison), and ``counted``: the games it is about, which a run's
  summary, a table's null and a search count (a comeback is about the games somebody won);
- ``matters``: the smallest difference a player would notice at the table, in the figure's own
  terms (a fraction for a rate or a share: 0.01 is one percentage point), or with
  ``relative`` a share of the first rule set's value (0.05: 5% of its mean length); the
  findings call a change that matters, negligible or undecided against it
  (``snakesim.analysis.verdicts``; ``docs/what-matters.md`` says why each default).

A new figure is one entry here: a run's summary and its JSON, comparisons, findings, sweeps,
``tune`` targets, reports and the workbench all take it from this list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from snakesim.core.feel import FIXED, QUARTER_NAMES, QUARTERS

if TYPE_CHECKING:
    from snakesim.core.registry import GameSpec


@dataclass(frozen=True)
class Games:
    """A block of games as the figures read them: each column of the kernel's (the game's own
    and ``NAME_k`` for each seat, with -1 or NaN where a value does not apply), ``winner``,
    ``length``, ``draw`` and ``unfinished`` flags, the number of ``players``, and where known
    what each seat scored (``scores``, ``(label, values)``: ``GameSpec.scores``)."""

    columns: dict[str, np.ndarray]
    players: int
    scores: tuple[str, np.ndarray] | None = None

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    @property
    def won(self) -> np.ndarray:
        return self.columns["winner"] >= 0

    @property
    def recorded(self) -> bool:
        """Whether the games recorded the game feel (``feel = true``)."""
        return "lead_changes" in self.columns and bool((self.columns["lead_changes"] >= 0).any())


@dataclass(frozen=True)
class Figure:
    """One figure; see the module's docstring for each field."""

    id: str
    label: str
    kind: str
    about: str
    values: Callable[..., np.ndarray] | None = None  # (games) -> one value a game; (games, seat) per seat
    counted: Callable[[Games], np.ndarray] | None = None  # the games it is about (None: every game)
    line: str = ""
    unit: str = ""
    words: tuple[str, str, str] | None = None  # (what it counts, more, fewer)
    feel: bool = False
    applies: Callable[[GameSpec], bool] | None = None
    per_seat: bool = False
    noun: str = ""  # the figure in a sentence, as a target ("the share of drawn games")
    topic: str = ""  # the figure in a list of what a rule set changes ("draws"; the label where empty)
    compared: bool = True  # a row of every comparison, paired game by game
    swept: bool = True  # (of those compared) a figure of every sweep point, seat 0's for a figure by seat
    short: str = ""  # its words as a sweep's column (the label where empty)
    summarised: bool = False  # in a run's game-feel summary, tallied from the games' feel record
    matters: float | None = None  # the smallest difference that matters (None: not a difference to judge)
    relative: bool = False  # matters is a share of the first rule set's value

    def exists(self, spec: GameSpec) -> bool:
        """Whether the game has this figure at all."""
        return self.applies is None or bool(self.applies(spec))

    @property
    def summary_words(self) -> str:
        """Its words in a summary's rows."""
        return self.line or self.label

    def text(self, spec: GameSpec, seat: int | None = None, score: str = "") -> str:
        """The label filled in: ``length (cards drawn)``, ``seat 2 wins``, ``margin (points)``."""
        return self.label.format(seat=seat, length=spec.length_unit, standing=spec.standing_unit, score=score)

    @property
    def heading(self) -> str:
        """Its words as a column's heading (a sweep's table)."""
        return self.short or self.label

    def row(self, seat: int | None = None) -> str:
        """The id of a comparison's row: the figure's, with the seat for a figure by seat."""
        return f"{self.id}.{seat}" if self.per_seat else self.id

    @property
    def percent(self) -> bool:
        """Whether it is shown in percent: a share of games, or of a game."""
        return self.kind == "rate" or self.unit in ("share", "points")


# (functions of the games and the quarter, bound with partial: their bodies run when the
# figures are read, not when the registry is built)
def _winner_leads_alone(g: Games, k: int) -> np.ndarray:
    return g.won & (g[f"leader_q{k}"] == g["winner"])


def _leader_wins(g: Games, k: int) -> np.ndarray:
    return g[f"leader_q{k}"] == g["winner"]


def _led(g: Games, k: int) -> np.ndarray:
    # (won games only: a draw has no winner, so "the leader wins" is a question of won games, as
    # the winner's other figures are)
    return g.won & (g[f"leader_q{k}"] >= 0)


def _tie_break(g: Games) -> np.ndarray:
    """Won on the tie-break: the winner was level with another seat on what the rules score
    (read off the final scores, so a comparison needs no feel = true; where only the kernel's
    columns are known, the feel column, which agrees game for game)."""
    if g.scores is None:
        return g["tie_break"] == 1
    values = g.scores[1]
    level = (values == values.max(axis=1, keepdims=True)).sum(axis=1) > 1
    return g.won & level


def _has_tie_break(spec) -> bool:
    return spec.tie_break


def _has_out(spec) -> bool:
    return spec.out_column is not None


FIGURES: tuple[Figure, ...] = (
    Figure("win_rate", "seat {seat} wins", "rate", "the share of games this seat wins", per_seat=True, matters=0.01,
           values=lambda g, seat: g["winner"] == seat),
    Figure("draw", "draw", "rate", "the share of games nobody wins", noun="the share of drawn games", matters=0.01,
           values=lambda g: g["draw"], topic="draws"),
    Figure("unfinished", "unfinished", "rate", "the share of games stopped at the turn cap",
           noun="the share of unfinished games", matters=0.01, values=lambda g: g["unfinished"],
           topic="games reaching the turn cap"),
    Figure("first_player_advantage", "first-player advantage", "mean",
           "seat 0's wins above a fair share of the games somebody won", unit="points", matters=0.01,
           values=lambda g: (g["winner"] == 0) - g.won / g.players, topic="the first player's edge"),
    Figure("length", "length ({length})", "mean", "how long a game lasts, in the game's own unit", unit="length",
           short="length", noun="the average game length", matters=0.05, relative=True,
           values=lambda g: g["length"], topic="the game's length"),
    Figure("lead_changes", "lead changes", "mean",
           "steps at which one seat leads alone and it is not the seat that last led alone",
           line="lead changes per game", noun="lead changes a game", feel=True, summarised=True, matters=0.5,
           words=("lead changes a game", "The lead changes hands more often", "The lead changes hands less often"),
           values=lambda g: g["lead_changes"], topic="how often the lead changes hands"),
    Figure("decided", "winner leads for good after (share of the game)", "mean",
           "how far into the game the winner takes the lead alone for good (won games; 1.0: only at the end)",
           line="the winner leads for good after", short="winner leads for good after", unit="share", feel=True,
           summarised=True, counted=lambda g: g.won, noun="the point from which the winner leads for good",
           matters=0.03,
           words=("of the way in", "The winner takes the lead for good later",
                  "The winner takes the lead for good earlier"),
           values=lambda g: np.where(np.isnan(g["decided"]), 1.0, g["decided"]),
           topic="how late the winner takes the lead for good"),
    Figure("comeback", "comeback (winner behind at half time)", "rate",
           "won games whose winner was behind at half time", line="the winner was behind at half time",
           short="comeback", feel=True, summarised=True, counted=lambda g: g.won, matters=0.03,
           noun="the share of winners behind at half time",
           words=("of games won from behind at half time", "More winners come from behind",
                  "Fewer winners come from behind"),
           values=lambda g: g["comeback"] == 1, topic="comebacks from behind at half time"),
    Figure("last_tenth", "winner takes the lead for good only in the last tenth", "rate",
           "won games whose winner takes the lead alone for good only in the last tenth of the game (decided at 0.9 "
           "or later): games that stay open to the end", line="the winner leads for good only in the last tenth",
           short="decided in the last tenth", noun="the share of won games decided only in the last tenth",
           feel=True, summarised=True, counted=lambda g: g.won, matters=0.03,
           words=("of games decided only in the last tenth", "More games stay open to the last tenth",
                  "Fewer games stay open to the last tenth"),
           values=lambda g: g.won & (np.nan_to_num(g["decided"], nan=0.0) >= 0.9),
           topic="games decided only in the last tenth"),
    Figure("deficit", "the winner's worst deficit", "mean",
           "the largest gap between the winner and the top seat at any step (won games)",
           line="the winner's worst deficit ({standing})", feel=True, counted=lambda g: g.won, compared=False,
           summarised=True, noun="the winner's worst deficit", matters=0.1, relative=True,
           values=lambda g: g["deficit"]),
    *(Figure(f"leads_alone_q{k}", f"the winner already leads alone {when} of the way in", "rate",
             f"games whose winner already leads alone {when} of the way in", feel=True, swept=k == 2, matters=0.03,
             short="winner leads alone at half time" if k == 2 else "", values=partial(_winner_leads_alone, k=k),
             topic=f"winners already alone in front {said}",
             words=(f"of games whose winner already leads alone {said}", f"More winners already lead alone {said}",
                    f"Fewer winners already lead alone {said}"))
      for k, when, said in zip(QUARTERS, QUARTER_NAMES, ("a quarter of the way in", "half-way",
                                                          "three quarters of the way in"), strict=True)),
    # ("the seat alone in front", not "the leader": beside "the winner already leads alone ..." of compare a
    # designer read the two as one figure; these count only the games with one seat in front then)
    *(Figure(f"leader_wins_q{k}", f"the seat alone in front {when} of the way in wins", "rate",
             f"won games with one seat alone in front {when} of the way in that this seat goes on to win",
             feel=True,
             counted=partial(_led, k=k), compared=False, summarised=True, values=partial(_leader_wins, k=k),
             matters=0.03, noun=f"how often the seat alone in front {where} wins")
      for k, when, where in zip(QUARTERS, QUARTER_NAMES, ("a quarter of the way in", "half-way",
                                                          "three quarters of the way in"), strict=True)),
    Figure("out_share", "time seats spend out of the game", "mean",
           "the share of the game a seat spends with nothing, out of play (Fortune)", unit="share", feel=True,
           summarised=True, short="time out of the game", applies=_has_out, matters=0.03,
           noun="the share of the game players spend out",
           words=("of the game spent out", "Players who are out wait longer", "Players who are out wait less"),
           values=lambda g: g["out_share"], topic="the time players spend out"),
    Figure("tie_break", "won on the tie-break", "rate", "won games whose winner was level with another seat on "
           "what the rules score, chosen by the tie-break", applies=_has_tie_break,
           counted=lambda g: g.won, summarised=True, swept=False, noun="the share of games won on the tie-break",
           matters=0.03,
           words=("of games won on the tie-break", "The tie-break decides more games",
                  "The tie-break decides fewer games"),
           values=_tie_break, topic="games won on the tie-break"),
    Figure("margin", "margin ({score})", "mean", "how far the winner ends ahead of the next seat, in what the rules "
           "score", noun="the winner's lead over the next seat", matters=0.1, relative=True,
           topic="the winner's lead over the next seat"),
    Figure("length_median", "length median (Kaplan-Meier)", "quantile",
           "the length by which half the games are over (unfinished games counted fairly)", unit="length",
           noun="the median game length", matters=0.05, relative=True),
    Figure("length_p95", "length 95th percentile (Kaplan-Meier)", "quantile",
           "the length by which 95% of the games are over", unit="length",
           noun="the length one game in twenty reaches", matters=0.05, relative=True),
    Figure("seat_balance", "seat balance p", "test",
           "the chance of seats this uneven if every seat were equal, a chi-square test",
           line="seat balance (chi-square p)"),
    Figure("seat_gap", "largest seat gap", "rate", "the largest difference between two seats' chances of winning",
           unit="points", matters=0.01),
)  # fmt: skip
BY_ID = {f.id: f for f in FIGURES}
# The figures every comparison plays off its games, paired game by game, in the order a person
# asks about them; and the game-feel figures a run's summary tallies.
COMPARED = tuple(f for f in FIGURES if f.values is not None and f.compared)
SUMMARISED = tuple(f for f in FIGURES if f.summarised)


def figure(row: str) -> Figure:
    """The figure of a comparison's row id (``win_rate.2`` -> win_rate); KeyError if none."""
    return BY_ID[row.partition(".")[0]]


def seat_of(row: str) -> int | None:
    """The seat of a row of a figure by seat (``win_rate.2`` -> 2), else None."""
    _, _, seat = row.partition(".")
    return int(seat) if seat.isdigit() else None


def label(row: str, spec: GameSpec, score: str = "") -> str:
    """A comparison row's words: ``seat 2 wins``, ``length (turns)``."""
    return figure(row).text(spec, seat_of(row), score)


def games_of(spec: GameSpec, columns: dict[str, np.ndarray], players: int | None = None, scores=None) -> Games:
    """A block's kernel columns (``spec.play_block``'s, or ``table_columns``') as :class:`Games`:
    per-seat columns one a seat (``coins_0`` ...) and the outcome as ``draw``/``unfinished`` flags
    (``players``: by default the per-seat columns' width)."""
    if players is None:
        players = columns[spec.seat_columns[0]].shape[1] if spec.seat_columns else 0
    flat: dict[str, Any] = {name: np.asarray(columns[name]) for name in ("winner", "length", *spec.game_columns)
                            if name in columns}  # fmt: skip
    for name in spec.seat_columns:
        flat.update({f"{name}_{seat}": columns[name][:, seat] for seat in range(columns[name].shape[1])})
    outcome = np.array(spec.outcomes)[columns["outcome"]]
    flat["draw"] = np.char.endswith(outcome, "draw")
    flat["unfinished"] = outcome == "unfinished"
    return Games(flat, players, scores)


def tally(spec: GameSpec, columns: dict[str, np.ndarray], players: int) -> tuple[dict[str, int], dict[str, int]]:
    """Integer sums (and sums of squares) of a block's summarised figures, to be merged exactly
    with other blocks' (``snakesim.core.tally``): ``feel.games``, the games that recorded the
    game feel, and for each figure ``feel.ID``, its values summed over the games it counts (the
    games that say yes, for a rate; a share of the game in 1/:data:`FIXED`), with
    ``feel.ID.games``, how many games it counts. Empty when the block did not record the feel."""
    games = games_of(spec, columns, players)
    if not games.recorded:
        return {}, {}
    sums, squares = {"feel.games": len(games["winner"])}, {}
    for f in SUMMARISED:
        if not f.exists(spec):
            continue
        counted = f.counted(games) if f.counted is not None else np.ones(len(games["winner"]), bool)
        values = np.asarray(f.values(games))[counted]
        key = f"feel.{f.id}"
        sums[f"{key}.games"] = int(counted.sum())
        if f.kind == "rate":
            sums[key] = int(np.count_nonzero(values))
            continue
        ints = np.round(values * FIXED).astype(np.int64) if values.dtype.kind == "f" else values.astype(np.int64)
        sums[key] = int(np.sum(ints, dtype=np.int64))
        squares[key] = int(np.sum(ints * ints, dtype=np.int64))
    return sums, squares


def scale_of(f: Figure) -> int:
    """What a summarised figure's sums count in: 1/:data:`FIXED` for a share of the game."""
    return FIXED if f.unit == "share" else 1


# ---------------------------------------------------------------------------- targets
# A target (``tune --target``) is a figure and its statistic: ``ID.share`` for a rate,
# ``ID.mean`` for a mean, the length's ``length.mean``, ``length.median`` and ``length.p95``, a
# seat's ``win_rate.SEAT``, and ``means.COLUMN`` for any column of the table.
LENGTH_STATS = {"length.mean": "length", "length.median": "length_median", "length.p95": "length_p95"}
OLD_NAMES = {  # the targets' spellings before the registry (snakesim 0.1), still understood
    "draw_rate": "draw.share", "unfinished_rate": "unfinished.share", "comeback_rate": "comeback.share",
    "tie_break_rate": "tie_break.share", "leader_wins.q1": "leader_wins_q1.share",
    "leader_wins.q2": "leader_wins_q2.share", "leader_wins.q3": "leader_wins_q3.share",
}  # fmt: skip


def target_name(f: Figure) -> str:
    """A figure's target: ``ID.share`` for a rate, ``ID.mean`` for a mean."""
    return f"{f.id}.{'share' if f.kind == 'rate' else 'mean'}"


def targets(spec: GameSpec | None = None) -> list[str]:
    """Every target this game's figures offer (every game's, without ``spec``), besides
    ``win_rate.SEAT`` and ``means.COLUMN``."""
    out = list(LENGTH_STATS)
    out += [target_name(f) for f in FIGURES if f.values is not None and not f.per_seat and f.id != "length"
            and (spec is None or f.exists(spec)) and f.id != "first_player_advantage"]  # fmt: skip
    return out


def target_figure(metric: str) -> Figure | None:
    """The figure a target names (None for ``win_rate.SEAT`` and ``means.COLUMN``)."""
    metric = OLD_NAMES.get(metric, metric)
    if metric in LENGTH_STATS:
        return BY_ID[LENGTH_STATS[metric]]
    name, _, _ = metric.partition(".")
    return BY_ID.get(name) if name not in ("win_rate", "means") else None


def recorded_in(figure: Figure, games: Games) -> bool:
    """Whether ``games`` hold ``figure``: the feel figures only where the games recorded them."""
    return not figure.feel or games.recorded
