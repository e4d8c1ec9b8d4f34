"""Common random numbers for searches: every candidate rule set plays the same games.

``balance`` and ``tune`` try many rule sets. Each is played on games ``first, first+1, ...``
of one seed, so two candidates differ by their rules and not by their luck, and a search
compares them with paired statistics. :class:`SameGames` plays each rule set's games once
and keeps their per-game results; asking for more games plays only the new ones.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.stats import LEVEL, km_quantile, mean_interval, wilson
from snakesim.core.errors import InputError
from snakesim.core.progress import progress_bar
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Int, Rules
from snakesim.core.runner import DEFAULT_CHUNK, play_blocks

if TYPE_CHECKING:
    pass


# The games a search may play for one candidate, and the most it may ask for in all.
MAX_SEARCH_GAMES = 10_000_000


def _columns(spec: GameSpec, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """What a search keeps of a block: the integer columns as the table names them (per seat,
    ``coins_0`` ...), and the outcome as flags."""
    out = {name: columns[name] for name in ("winner", "length", *spec.game_columns)}
    for name in spec.seat_columns:
        out.update({f"{name}_{seat}": columns[name][:, seat] for seat in range(columns[name].shape[1])})
    labels = np.array(spec.outcomes)
    outcome = labels[columns["outcome"]]
    out["draw"] = np.char.endswith(outcome, "draw")
    out["unfinished"] = outcome == "unfinished"
    return out


@dataclass
class SameGames:
    """Games ``first ..`` of ``seed`` under any rules, each rule set's games played once.

    ``games(rules, count)`` returns the per-game columns of the first ``count`` games
    (``winner``, ``length``, the game's own columns, and ``draw``/``unfinished`` flags).
    ``played`` counts every game played so far.
    """

    spec: GameSpec
    players: int
    seed: int
    first: int = 0
    seats: tuple[str, ...] = ()
    backend: object = None
    progress: bool = False
    played: int = 0
    _cache: dict = field(default_factory=dict)
    _bar: object = None

    def games(self, rules: Rules, count: int) -> dict[str, np.ndarray]:
        have = self._cache.get(rules)
        done = 0 if have is None else len(have["winner"])
        if done < count:
            if self._bar is None:
                self._bar = progress_bar(None, self.progress, desc=f"{self.spec.name} search")
            blocks = play_blocks(
                self.spec, rules, self.players, count - done, self.seed, self.first + done, DEFAULT_CHUNK,
                False, self.seats, self.backend, keep=lambda columns, start: _columns(self.spec, columns),
            )  # fmt: skip
            parts = ([have] if have is not None else []) + blocks
            have = {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
            self._cache[rules] = have
            self.played += count - done
            self._bar.update(count - done)
        return {name: values[:count] for name, values in have.items()}

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


@contextmanager
def held(backend):
    """Enter ``backend`` for the whole block (a Dask cluster then serves every candidate)."""
    if backend is None:
        yield
        return
    with backend:
        yield


def win_matrix(columns: dict[str, np.ndarray], players: int) -> np.ndarray:
    """Per-game win flags, one column per seat (a draw is a row of zeros)."""
    return columns["winner"][:, None] == np.arange(players)[None, :]


def check_range(field_name: str, text: str, low: int, high: int) -> tuple[int, int]:
    """``LOW:HIGH`` inside ``[low, high]``, as two ints; InputError naming ``field_name``."""
    parts = str(text).split(":")
    try:
        a, b = (int(p.replace("_", "")) for p in parts) if len(parts) == 2 else (None, None)
    except ValueError:
        a = b = None
    if a is None or b is None:
        raise InputError(field_name, f"expected LOW:HIGH with integers, got {text!r}")
    if not low <= a < b <= high:
        raise InputError(field_name, f"expected {low:,} <= LOW < HIGH <= {high:,}, got {text!r}")
    return a, b


def check_budget(games: int, max_games: int, confirm_games: int | None) -> None:
    """The search's game counts: ``--games`` per candidate to start, at most ``--max-games``."""
    Int(100, MAX_SEARCH_GAMES).check("--games", games)
    Int(games, MAX_SEARCH_GAMES).check("--max-games", max_games)  # at least --games
    if confirm_games is not None:
        Int(100, MAX_SEARCH_GAMES).check("--confirm-games", confirm_games)


# ---------------------------------------------------------------------------- metrics
# The game-feel figures (snakesim.core.feel) as run summarises them: a search for one plays
# its games with feel = true. Their definitions and denominators: FEEL_METRICS' comments.
FEEL_METRICS = (
    "lead_changes.mean",  # lead changes per game
    "decided.mean",  # share of the game after which the winner leads alone for good (won games)
    "deficit.mean",  # the winner's worst deficit (won games)
    "comeback_rate",  # won games whose winner was behind at half time
    "tie_break_rate",  # won games decided by the tie-break
    "leader_wins.q1", "leader_wins.q2", "leader_wins.q3",  # games with a sole leader then: it wins
    "out_share.mean",  # (Fortune) the share of seat-steps spent out of the game
)  # fmt: skip
METRIC_WORDS = (
    "length.mean, length.median, length.p95, draw_rate, unfinished_rate, win_rate.SEAT, means.COLUMN, "
    + ", ".join(FEEL_METRICS)
)


def needs_feel(metric: str) -> bool:
    """Whether ``metric`` is a game-feel figure, which the games record only with ``feel = true``."""
    return metric in FEEL_METRICS


def check_metric(spec: GameSpec, players: int, metric: str) -> str:
    """``metric`` if it names a summary metric of this game, else InputError listing them."""
    name, _, part = metric.partition(".")
    if metric in ("length.mean", "length.median", "length.p95", "draw_rate", "unfinished_rate"):
        return metric
    if needs_feel(metric):
        if metric == "out_share.mean" and "out_share" not in spec.game_columns:
            raise InputError("--target", f"out_share.mean: {spec.name} records no time out of the game")
        if metric == "tie_break_rate" and not spec.tie_break:
            raise InputError("--target", f"tie_break_rate: {spec.name} has no tie-break")
        return metric
    if name == "win_rate" and part.isdigit() and int(part) < players:
        return metric
    columns = [f"{c}_{s}" for c in spec.seat_columns for s in range(players)] + list(spec.game_columns)
    if name == "means" and part in columns:
        return metric
    if name == "means":
        raise InputError("--target", f"unknown column {part!r}; expected one of {', '.join(columns)}")
    if name == "win_rate":
        raise InputError("--target", f"expected win_rate.SEAT with a seat from 0 to {players - 1}, got {metric!r}")
    raise InputError("--target", f"unknown metric {metric!r}; expected one of {METRIC_WORDS}")


def metric_value(columns: dict[str, np.ndarray], metric: str, level: float = LEVEL) -> tuple[float, float, float]:
    """A summary metric of per-game columns with its interval: ``(value, low, high)``.

    Rates have Wilson intervals, means Student-t intervals, quantiles of the length the
    Kaplan-Meier curve's (unfinished games censored), as in ``snakesim run``'s summary.
    """
    name, _, part = metric.partition(".")
    games = len(columns["winner"])
    if metric in ("length.median", "length.p95"):
        return km_quantile(columns["length"], columns["unfinished"], 0.5 if part == "median" else 0.95, level)
    if metric == "length.mean":
        return mean_interval(columns["length"], level)
    if name in ("draw_rate", "unfinished_rate", "win_rate"):
        hits = columns[name.removesuffix("_rate")] if name != "win_rate" else columns["winner"] == int(part)
        k = int(np.sum(hits))
        return k / games, *wilson(k, games, level)
    if needs_feel(metric):
        return _feel_value(columns, name, part, level)
    return mean_interval(columns[part], level)


def _feel_value(columns, name: str, part: str, level: float) -> tuple[float, float, float]:
    """A game-feel figure with its interval, over the games its definition counts."""
    won = columns["winner"] >= 0
    if name in ("lead_changes", "out_share"):
        return mean_interval(columns[name], level)
    if name in ("decided", "deficit"):
        return mean_interval(columns[name][won], level) if won.any() else (np.nan, np.nan, np.nan)
    if name == "leader_wins":
        leader = columns[f"leader_{part}"]
        counted, hits = leader >= 0, (leader >= 0) & (leader == columns["winner"])
    else:  # comeback_rate, tie_break_rate
        counted, hits = won, won & (columns[name.removesuffix("_rate")] == 1)
    n, k = int(np.sum(counted)), int(np.sum(hits))
    if n == 0:
        return np.nan, np.nan, np.nan
    return k / n, *wilson(k, n, level)
