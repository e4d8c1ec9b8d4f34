"""Common random numbers for searches: every candidate rule set plays the same games.

``balance`` and ``tune`` try many rule sets. Each is played on games ``first, first+1, ...``
of one seed, so two candidates differ by their rules and not by their luck, and a search
compares them with paired statistics. :class:`SameGames` plays each rule set's games once
and keeps their per-game results; asking for more games plays only the new ones.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.stats import LEVEL, km_quantile, mean_interval, wilson
from snakesim.core import compiling
from snakesim.core.arms import Budget
from snakesim.core.defaults import MAX_GAMES
from snakesim.core.errors import InputError
from snakesim.core.figures import OLD_NAMES, Games, games_of, target_figure, target_name, targets
from snakesim.core.progress import progress_bar
from snakesim.core.registry import GameSpec
from snakesim.core.rng import MAX_SEED
from snakesim.core.rules import Int, Rules
from snakesim.core.runner import play_blocks

if TYPE_CHECKING:
    pass


# A search's games are kept in a catalogue only where reading them back beats playing them
# again by far: where its median rule set took WORTH times what reading its games back takes
# (about READ_FIXED a rule set and READ_A_GAME a game; writing them costs about as much), its
# compiling left out. Fortune's, Rainbow's and Hisss's games without look-ahead (0.6-2 us a
# game) are played again; Sssnake's (about 30 us) and look-ahead players' (milliseconds) kept.
READ_FIXED, READ_A_GAME, WORTH = 3e-3, 0.5e-6, 4.0


def worth_keeping(seconds: float, games: int) -> bool:
    """Whether ``games`` games that took ``seconds`` to play are worth keeping to read back."""
    return seconds >= WORTH * (READ_FIXED + READ_A_GAME * games)


# The games a search may play for one candidate, and the most it may ask for in all.
MAX_SEARCH_GAMES = 10_000_000
SEARCH = Budget(20_000, max_games=320_000)  # a balance or tune search's games, unless told


def _columns(spec: GameSpec, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """What a search keeps of a block: the columns as the figures read them (per seat
    ``coins_0`` ..., the outcome as flags: ``snakesim.core.figures.games_of``)."""
    return games_of(spec, columns).columns


@dataclass
class SameGames:
    """Games ``first ..`` of ``seed`` under any rules, each rule set's games played once.

    ``games(rules, count)`` returns the per-game columns of the first ``count`` games
    (``winner``, ``length``, the game's own columns, and ``draw``/``unfinished`` flags).
    ``played`` counts every game the search has used so far (what its budget counts).

    With a catalogue (``kept``: :class:`snakesim.questions.catalogue.Catalogue`), a rule set's
    games that an earlier search kept there are taken instead of played (``stored`` counts
    those used: the games saved), and :meth:`close` keeps the games played where they were slow
    enough to be worth keeping (:func:`worth_keeping`, for at least half its rule sets). The
    answer is the same either way: game i of seed s is always the same game.
    """

    spec: GameSpec
    players: int
    seed: int
    first: int = 0
    seats: tuple[str, ...] = ()
    backend: object = None
    progress: bool = False
    kept: object = None
    played: int = 0
    stored: int = 0
    _cache: dict = field(default_factory=dict)
    _used: dict = field(default_factory=dict)  # (games asked of each rule set so far)
    _from_kept: dict = field(default_factory=dict)  # (games the catalogue gave each rule set)
    _seconds: dict = field(default_factory=dict)  # (each rule set's playing time, compiling left out)
    _bar: object = None

    def _about(self, rules: Rules) -> dict:
        return {"game": self.spec.name, "players": self.players, "seed": self.seed, "first": self.first,
                "seats": list(self.seats), "rules": rules.rules_hash()}  # fmt: skip

    def games(self, rules: Rules, count: int) -> dict[str, np.ndarray]:
        have = self._cache.get(rules)
        if have is None and self.kept is not None:
            have = self.kept.searched(self._about(rules))
            if have is not None:
                self._cache[rules] = have
                self._from_kept[rules] = len(have["winner"])
        used = self._used.get(rules, 0)
        if count > used:
            self.played += count - used
            self.stored += max(0, min(count, self._from_kept.get(rules, 0)) - used)
            self._used[rules] = count
        done = 0 if have is None else len(have["winner"])
        if done < count:
            if self._bar is None:  # (the kernel first, so that a compile is said in a terminal before the bar)
                from snakesim.core.policies import encode_policies

                codes = encode_policies(self.spec, self.seats) if self.seats else None
                compiling.prepare(self.spec, rules, self.players, self.seed, codes, notice=self.progress)
                self._bar = progress_bar(None, self.progress, desc=f"{self.spec.name} search")
            started, compiled = time.perf_counter(), compiling.spent()
            blocks = play_blocks(
                self.spec, rules, self.players, Budget(count - done, self.seed, self.first + done), policies=self.seats,
                backend=self.backend, keep=lambda columns, start: _columns(self.spec, columns),
            )  # fmt: skip
            spent = time.perf_counter() - started - (compiling.spent() - compiled)
            self._seconds[rules] = self._seconds.get(rules, 0.0) + spent
            parts = ([have] if have is not None else []) + blocks
            have = {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
            self._cache[rules] = have
            self._bar.update(count - done)
        return {name: values[:count] for name, values in have.items()}

    def close(self) -> None:
        """Close the progress bar, and keep in the catalogue the games played (where there is one)."""
        if self._bar is not None:
            self._bar.close()
        if self.kept is not None:
            self.kept.taken += self.stored
            new = {r: len(columns["winner"]) - self._from_kept.get(r, 0) for r, columns in self._cache.items()}
            new = {r: n for r, n in new.items() if n > 0}
            # (where at least half the rule sets are worth it: the first one played also loads the kernels)
            worth = [worth_keeping(self._seconds.get(r, 0.0), n) for r, n in new.items()]
            if new and 2 * sum(worth) >= len(worth):
                self.kept.keep_searched([(self._about(r), self._cache[r]) for r in new])


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
        step = " (a range takes no step here: every value from LOW to HIGH is played)" if len(parts) == 3 else ""
        raise InputError(field_name, f"expected LOW:HIGH with integers, got {text!r}{step}")
    if not low <= a < b <= high:
        turned = f" (LOW first: {b}:{a})" if low <= b < a <= high else ""
        raise InputError(field_name, f"expected {low:,} <= LOW < HIGH <= {high:,}, got {text!r}{turned}")
    return a, b


def check_budget(budget: Budget) -> None:
    """The search's game counts: ``--games`` per candidate to start, at most ``--max-games``;
    and its seed and first game."""
    Int(100, MAX_SEARCH_GAMES).check("--games", budget.games)
    Int(budget.games, MAX_SEARCH_GAMES).check("--max-games", budget.most)  # at least --games
    if budget.confirm_games is not None:
        Int(100, MAX_SEARCH_GAMES).check("--confirm-games", budget.confirm_games)
    Int(0, MAX_SEED).check("--seed", budget.seed)
    Int(0, MAX_GAMES).check("first", budget.first)


# ---------------------------------------------------------------------------- metrics
# A search's target is a figure of the registry (``snakesim.core.figures``) and its statistic:
# ``ID.share`` for a rate, ``ID.mean`` for a mean, ``length.median`` ..., ``win_rate.SEAT`` and
# ``means.COLUMN``. A search for a game-feel figure plays its games with feel = true.


def needs_feel(metric: str) -> bool:
    """Whether ``metric`` is a game-feel figure, which the games record only with ``feel = true``."""
    f = target_figure(metric)
    return f is not None and f.feel


def check_metric(spec: GameSpec, players: int, metric: str) -> str:
    """``metric`` in its spelling today (``comeback_rate`` -> ``comeback.share``) if it names a
    target of this game, else InputError listing them."""
    metric = OLD_NAMES.get(metric, metric)
    name, _, part = metric.partition(".")
    if metric in targets(spec):
        return metric
    f = target_figure(metric)
    if f is not None and not f.exists(spec):
        raise InputError("--target", f"{metric}: {spec.name} does not have this figure ({f.about})")
    if f is not None and f.values is not None and metric != target_name(f):
        import difflib

        close = difflib.get_close_matches(metric, targets(spec), n=1, cutoff=0.85)
        if close and close[0] != target_name(f):  # (a misspelt length.median, say)
            raise InputError("--target", f"unknown target {metric!r}; did you mean {close[0]}?")
        raise InputError("--target", f"{metric}: {f.id} is a {f.kind}; its target is {target_name(f)}")
    if name == "win_rate" and part.isdigit() and int(part) < players:
        return metric
    columns = [f"{c}_{s}" for c in spec.seat_columns for s in range(players)] + list(spec.game_columns)
    if name == "means" and part in columns:
        return metric
    if name == "means":
        raise InputError("--target", f"unknown column {part!r}; expected one of {', '.join(columns)}")
    if name == "win_rate":
        raise InputError("--target", f"expected win_rate.SEAT with a seat from 0 to {players - 1}, got {metric!r}")
    words = ", ".join([*targets(spec), "win_rate.SEAT", "means.COLUMN"])
    raise InputError("--target", f"unknown metric {metric!r}; expected one of {words}")


def metric_value(columns: dict[str, np.ndarray], metric: str, level: float = LEVEL) -> tuple[float, float, float]:
    """A target's value over per-game columns (a :class:`SameGames` block), with its interval:
    ``(value, low, high)``, over the games its figure counts.

    Rates have Wilson intervals, means Student-t intervals, quantiles of the length the
    Kaplan-Meier curve's (unfinished games censored), as in ``snakesim run``'s summary.
    """
    metric = OLD_NAMES.get(metric, metric)
    name, _, part = metric.partition(".")
    games = Games(columns, players=0)
    if metric in ("length.median", "length.p95"):
        return km_quantile(columns["length"], columns["unfinished"], 0.5 if part == "median" else 0.95, level)
    if name == "win_rate":
        hits = columns["winner"] == int(part)
        return float(np.mean(hits)), *wilson(int(np.sum(hits)), len(hits), level)
    if name == "means":
        return mean_interval(columns[part], level)
    f = target_figure(metric)
    counted = f.counted(games) if f.counted is not None else np.ones(len(columns["winner"]), bool)
    values = np.asarray(f.values(games))[counted]
    if values.size == 0:
        return np.nan, np.nan, np.nan
    if f.kind == "rate":
        k = int(np.count_nonzero(values))
        return k / values.size, *wilson(k, values.size, level)
    return mean_interval(values, level)
