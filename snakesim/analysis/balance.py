"""Balance: the per-seat values of a handicap that give every seat the same chance to win.

A handicap is a per-seat option (``start_coins``, ``hand_size``, ``start_points``,
``head_start``). The search starts from the rules' own values and moves one step at a time:
one seat's value up or down, or every other seat's. Every candidate plays the same games
(:class:`~snakesim.analysis.search.SameGames`), and a move is taken only when it lowers the
imbalance ``sum((rate_k - mean rate)**2)`` by more than its paired noise allows (a one-sided
test at the confidence level, Bonferroni over the moves tried). When no move is clearly
better the search plays twice the games and looks again, until every seat's deviation from
the mean rate has an interval inside ``±tolerance`` (simultaneous over the seats), or the
budget is spent. Before it stops without a clear step (at the budget, or when every single
step is surely worse), two-step moves are screened on the first games and the three most
promising played on the last; it moves if one of them is clearly better.

Since the search moves only on a clear win, where it stops need not be the best it saw: the
answer is the best by estimate of every candidate played on the search's last games, and
the candidates it is not clearly better than (paired, Bonferroni over them all) are named as
as good. The answer and the runner-up are then played on fresh games, with the starting
values on the same fresh games for the before-and-after comparison; when the fresh games show
every seat inside the tolerance (simultaneous intervals), the verdict says so.

Equal chances mean equal win rates among the seats: with draws in the game every seat's
target is ``(1 - draw rate) / n``, not ``1/n``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.search import SEARCH, SameGames, check_budget, check_range, held, win_matrix
from snakesim.analysis.skill import novice_seats
from snakesim.analysis.stats import LEVEL, seat_balance, seat_gap, wilson
from snakesim.analysis.words import seat_player
from snakesim.core import compiling
from snakesim.core.arms import Budget
from snakesim.core.errors import InputError
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Rules, seat_values

if TYPE_CHECKING:
    import pandas as pd


MAX_MOVES = 500  # a guard: every move lowers the imbalance, so a search ends long before
TWO_STEP_FINALISTS = 3  # two-step moves screened on the first games, then played on the last


@dataclass(frozen=True)
class SeatRates:
    """One candidate on ``games`` games: each seat's win rate, its deviation from the mean
    seat's and that deviation's simultaneous half-width, the imbalance (sum of squared
    deviations) and each game's influence on it (for paired differences)."""

    values: tuple[int, ...]
    games: int
    rates: np.ndarray
    deviation: np.ndarray
    half: np.ndarray
    imbalance: float
    influence: np.ndarray

    def within(self, tolerance: float) -> bool:
        """Every seat's deviation interval lies inside ``±tolerance``."""
        return bool(np.all(np.abs(self.deviation) + self.half <= tolerance))

    def beyond(self, tolerance: float) -> bool:
        """Some seat's deviation is surely larger than ``tolerance``."""
        return bool(np.any(np.abs(self.deviation) - self.half > tolerance))


def seat_rates(values: tuple[int, ...], wins: np.ndarray, level: float = LEVEL) -> SeatRates:
    """:class:`SeatRates` from per-game win flags ``wins`` (games x seats)."""
    from scipy import stats

    games, n = wins.shape
    x = wins.astype(np.float64)
    y = x - x.mean(axis=1, keepdims=True)  # each game's part of each seat's deviation
    deviation = y.mean(axis=0)
    z = stats.norm.ppf(1 - (1 - level) / (2 * n))
    half = z * y.std(axis=0, ddof=1) / np.sqrt(games)
    # d(imbalance)/d(rate_k) = 2 * deviation_k, so a game's influence is 2 * deviation . wins.
    return SeatRates(
        values,
        games,
        x.mean(axis=0),
        deviation,
        half,
        imbalance=float(deviation @ deviation),
        influence=2 * x @ deviation,
    )


def clearly_better(new: SeatRates, old: SeatRates, tries: int, level: float = LEVEL) -> bool:
    """``new`` has a lower imbalance than ``old`` on the same games, beyond the paired noise
    (one-sided, Bonferroni over ``tries`` moves)."""
    from scipy import stats

    diff = new.imbalance - old.imbalance
    if diff >= 0:
        return False
    d = new.influence - old.influence
    se = float(d.std(ddof=1)) / np.sqrt(d.size)
    return se == 0.0 or diff < -stats.norm.ppf(1 - (1 - level) / max(tries, 1)) * se


def two_step_moves(values: tuple[int, ...], low: int, high: int) -> list[tuple[int, ...]]:
    """Two steps from ``values`` (:func:`moves` of a move) that no single step reaches."""
    near = set(moves(values, low, high)) | {values}
    out = dict.fromkeys(m2 for m in moves(values, low, high) for m2 in moves(m, low, high) if m2 not in near)
    return list(out)


def as_good_as(best: SeatRates, others: list[SeatRates], level: float = LEVEL) -> list[SeatRates]:
    """The candidates that ``best`` (played on the same games) is not clearly better than:
    paired one-sided tests, Bonferroni over all of them."""
    return [ev for ev in others if not clearly_better(best, ev, len(others), level)]


def moves(values: tuple[int, ...], low: int, high: int) -> list[tuple[int, ...]]:
    """One step from ``values``: a seat's value up or down, or every other seat's; within range."""
    n = len(values)
    out = []
    for s in range(n):
        for step in (1, -1):
            one = tuple(v + step * (k == s) for k, v in enumerate(values))
            others = tuple(v + step * (k != s) for k, v in enumerate(values))
            out += [one, others] if n > 2 else [one]
    seen = set()
    return [m for m in out if all(low <= v <= high for v in m) and not (m in seen or seen.add(m))]


@dataclass
class BalanceResult:
    """What :func:`balance` found: the recommended ``values`` (one per seat), the ``status``
    (``balanced``, ``within tolerance by estimate``, ``cannot balance``, ``undecided``) and a
    ``message`` in words; ``path`` (every candidate tried: games, values, each seat's win
    rate, the largest deviation, the imbalance, whether the search moved there) and
    ``confirmed`` (fresh games: each seat's win rate and interval before and after); the
    seat-balance tests in ``summary``."""

    values: list[int]
    base: list[int]
    status: str
    message: str
    path: pd.DataFrame
    confirmed: pd.DataFrame
    summary: dict = field(default_factory=dict)


def check_balance(
    spec: GameSpec,
    rules: Rules,
    players: int,
    handicap: str,
    budget: Budget,
    *,
    tolerance: float = 0.01,
    value_range: str | None = None,
) -> tuple[tuple[int, ...], int, int]:
    """Check a balance search's settings before any game is played; return the starting
    values and the range ``(base, low, high)``; InputError naming the field otherwise."""
    options = rules.per_seat_options()
    if handicap not in options:
        allowed = ", ".join(options) or "none"
        raise InputError(
            "--handicap", f"{handicap!r} is not a per-seat option of {spec.name}; expected one of {allowed}"
        )
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance < 0.5:
        raise InputError(
            "--tolerance",
            f"expected a win-rate distance between 0 and 0.5 (0.01 = 1 percentage point), got {tolerance!r}",
        )
    check_budget(budget)
    spec.check(rules, players)
    base = tuple(seat_values(getattr(rules, handicap), players))
    option = options[handicap]
    if value_range is None:
        span = max(3, max(base) // 2)
        low, high = max(option.low, min(base) - span), min(option.high, max(base) + span)
    else:
        low, high = check_range("--range", value_range, option.low, option.high)
        if not all(low <= v <= high for v in base):
            raise InputError("--range", f"the starting values {list(base)} lie outside {value_range}")
    return base, low, high


def balance(
    spec: GameSpec,
    rules: Rules,
    players: int,
    handicap: str,
    seats: tuple[str, ...] = (),
    *,
    budget: Budget = SEARCH,
    tolerance: float = 0.01,
    value_range: str | None = None,
    level: float = LEVEL,
    backend=None,
    progress: bool = False,
    novices: float | None = None,
    kept=None,
) -> BalanceResult:
    """Find the per-seat values of ``handicap`` that bring every seat's win rate closest to
    the mean seat's, within ``tolerance`` where it can (see the module docstring).

    Parameters
    ----------
    spec, rules, players, seats
        The game, the rules to start from (their handicap values are the starting point),
        the number of seats and each seat's policy.
    handicap : str
        A per-seat option of the game (``rules.per_seat_options()``).
    tolerance : float
        The largest acceptable distance of a seat's win rate from the mean seat's.
    value_range : str, optional
        ``LOW:HIGH``, the values a seat may get; default: the starting values plus or minus
        ``max(3, value // 2)``, inside what the option allows.
    budget : Budget
        ``games`` per candidate to start with and ``max_games``, the most the search may
        double to (default 20,000 and 320,000); ``confirm_games`` fresh games for the
        confirmation (default: as many as the search's last round, at least 100,000), which
        follow the search's games, so none was seen by the search; the search plays games
        ``first ..`` of ``seed``.
    novices : float, optional
        Also play the confirmation's fresh games with every seat's policy given this mistake
        rate (``greedy`` becomes ``greedy:0.3``), before and after: does the answer still
        hold when the players make mistakes? (``summary["novices"]``; games with choices only.)

    Returns
    -------
    BalanceResult
    """
    import pandas as pd

    started, compiled = time.perf_counter(), compiling.spent()
    base, low, high = check_balance(
        spec, rules, players, handicap, budget, tolerance=tolerance, value_range=value_range
    )
    games, max_games, confirm_games = budget.games, budget.most, budget.confirm_games
    seed, first = budget.seed, budget.first

    def rules_of(values):
        return rules.updated({handicap: list(values)})

    def playable(values):
        try:
            spec.check(rules_of(values), players)
        except InputError:  # a deal larger than the deck, say: not a candidate
            return False
        return True

    with held(backend):  # one cluster for the whole search, when the backend is Dask
        search = SameGames(spec, players, seed, first, seats, backend=backend, progress=progress, kept=kept)
        path: list[dict] = []

        def rate(values, count):
            return seat_rates(values, win_matrix(search.games(rules_of(values), count), players), level)

        def note(ev, moved):
            path.append(
                {"games": ev.games, "values": list(ev.values), **{f"win_{k}": r for k, r in enumerate(ev.rates)},
                 "max_deviation": float(np.abs(ev.deviation).max()), "imbalance": ev.imbalance, "moved": moved}
            )  # fmt: skip

        count, current = games, base
        now = rate(current, count)
        note(now, True)
        settled = False  # every move from here was surely worse: only the answer's figures need more games
        two_steps_tried = False
        for _ in range(MAX_MOVES):
            tried = [] if settled else [rate(m, count) for m in moves(current, low, high) if playable(m)]
            for ev in tried:
                note(ev, False)
            best = min(tried, key=lambda ev: ev.imbalance, default=None)
            if best is not None and clearly_better(best, now, len(tried), level):
                current, now = best.values, best
                path[-len(tried) + tried.index(best)]["moved"] = True
                continue
            if now.within(tolerance):
                break
            settled = settled or (bool(tried) and all(clearly_better(now, ev, len(tried), level) for ev in tried))
            stopping = count >= max_games or (settled and now.beyond(tolerance))  # (then more games change nothing)
            if stopping and not two_steps_tried:
                # No single step is better: before stopping, screen the two-step moves on the
                # first games, play the most promising on these, and move if one is clearly better.
                two_steps_tried = True
                screened = [rate(m, games) for m in two_step_moves(current, low, high) if playable(m)]
                finalists = sorted(screened, key=lambda ev: ev.imbalance)[:TWO_STEP_FINALISTS]
                far = [rate(ev.values, count) for ev in finalists]
                for ev in far:
                    note(ev, False)
                best = min(far, key=lambda ev: ev.imbalance, default=None)
                if best is not None and clearly_better(best, now, len(screened), level):
                    current, now, settled = best.values, best, False
                    path[-len(far) + far.index(best)]["moved"] = True
                    continue
            if stopping:
                break
            count = min(2 * count, max_games)
            now = rate(current, count)
            note(now, True)
        # The answer: the best by estimate of every candidate played on the search's last games
        # (the search moves only on a clear win, so where it stopped need not be the best it
        # saw), with those it is not clearly better than, and the runner-up.
        last = sorted({tuple(p["values"]) for p in path if p["games"] == count} | {current})
        final = sorted((rate(v, count) for v in last), key=lambda ev: (ev.imbalance, ev.values))
        settled = settled and final[0].values == current  # (known only where the search stood)
        now, current = final[0], final[0].values
        ties = as_good_as(now, final[1:], level)
        runner_up = final[1] if len(final) > 1 else None
        search.close()
        step = _step_effects(path, current, players)
        status, message = _verdict(now, tolerance, handicap, low, high, step=step, settled=settled)
        searched = {"status": status, "message": message}  # (the search's own verdict, on its games)

        confirm = confirm_games or max(count, 100_000)
        fresh = SameGames(spec, players, seed, first + count, seats, backend=backend, progress=progress, kept=kept)
        before = _confirmed(fresh.games(rules_of(base), confirm), players, level)
        after_games = fresh.games(rules_of(current), confirm)
        after = _confirmed(after_games, players, level)
        second = None
        if runner_up is not None:
            second = {"values": list(runner_up.values),
                      **_confirmed(fresh.games(rules_of(runner_up.values), confirm), players, level)}  # fmt: skip
        fresh.close()
        on_fresh = seat_rates(current, win_matrix(after_games, players), level)
        fresh_worst = float(np.abs(on_fresh.deviation).max())
        status, message = _answer(status, message, on_fresh, tolerance=tolerance, handicap=handicap, games=confirm,
                                  level=level)  # fmt: skip
        novice, stored = None, search.stored + fresh.stored
        if novices is not None and spec.policies:
            with_mistakes = novice_seats(spec, seats, players, novices)
            mistakes = SameGames(
                spec, players, seed, first + count, with_mistakes, backend=backend, progress=progress, kept=kept
            )
            novice = _novice_check(
                novices, with_mistakes, _confirmed(mistakes.games(rules_of(base), confirm), players, level),
                _confirmed(mistakes.games(rules_of(current), confirm), players, level), handicap, values=current,
            )  # fmt: skip
            mistakes.close()
            stored += mistakes.stored
    confirmed = pd.DataFrame(
        [{"rules": label, "seat": k, "win_rate": r, "low": lo, "high": hi}
         for label, c in (("before", before), ("after", after))
         for k, (r, (lo, hi)) in enumerate(zip(c["win_rate"], c["win_ci"], strict=True))]
    )  # fmt: skip
    summary = {
        "game": spec.name,
        "players": players,
        "rules_hash": rules.rules_hash(),
        "handicap": handicap,
        "base": list(base),
        "values": list(current),
        "range": [low, high],
        "tolerance": tolerance,
        "policies": list(seats),  # (each seat's player; empty for a game without choices)
        "level": level,
        "status": status,
        "message": message,
        "step_effect": step,
        "search": {"games_per_candidate": count, "candidates": len(path), "games_played": search.played, "seed": seed,
                   "first": first, **searched, "games_from_catalogue": stored},
        "confirm": {"first": first + count, "games": confirm, "games_played": fresh.played},
        "novices": novice,
        "as_good": [{"values": list(ev.values), "imbalance": ev.imbalance,
                     "max_deviation": float(np.abs(ev.deviation).max())} for ev in ties],
        "recommended": {"values": list(current), "imbalance": now.imbalance,
                        "max_deviation": float(np.abs(now.deviation).max()), "games": now.games},
        "runner_up": second,
        "fresh_max_deviation": fresh_worst,
        "win_rate": after["win_rate"],
        "win_ci": after["win_ci"],
        "before": before,
        "after": after,
        "elapsed_s": time.perf_counter() - started - (compiling.spent() - compiled),  # (compiling left out)
    }  # fmt: skip
    return BalanceResult(
        list(current), list(base), status, message, pd.DataFrame(path), confirmed=confirmed, summary=summary
    )


def _step_effects(path: list[dict], values: tuple[int, ...], players: int) -> list[float | None]:
    """For each seat, how much one step up of its own value moved its win rate, on the most
    games on which both were played (None where that step was never tried)."""
    played = {(p["games"], tuple(p["values"])): p for p in path}
    out: list[float | None] = []
    for s in range(players):
        up = tuple(v + (k == s) for k, v in enumerate(values))
        both = [g for g, v in played if v == values and (g, up) in played]
        out.append(played[(max(both), up)][f"win_{s}"] - played[(max(both), values)][f"win_{s}"] if both else None)
    return out


def points(x: float) -> str:
    """A win-rate distance in percentage points, in words: ``1 percentage point``, ``0.25
    percentage points`` (never bare points: a handicap may count game points)."""
    return f"{x * 100:.2g} percentage point" + ("" if f"{x * 100:.2g}" == "1" else "s")


def _answer(searched: str, said: str, fresh: SeatRates, *, tolerance: float, handicap: str, games: int,
            level: float) -> tuple[str, str]:  # fmt: skip
    """The answer's status and message, decided on the fresh games (the verdict that counts: games
    the search never saw), from the search's own (``searched``, ``said``): **balanced** where they
    show every seat within the tolerance; where some seat is surely beyond it, **not balanced**,
    whatever the search found or could not tell about other values (its words follow, said as
    its own); otherwise the search's status, but never "balanced" (its games chose the answer):
    **within tolerance by estimate**."""
    worst = float(np.abs(fresh.deviation).max())
    furthest = seat_player(int(np.argmax(np.abs(fresh.deviation))))  # (named: "a seat" hid which)
    values = list(fresh.values)
    if fresh.within(tolerance):
        return "balanced", (
            f"{handicap} = {values} puts every seat within {points(tolerance)} of the mean seat on {games:,} fresh "
            f"games (simultaneous {level:.0%} intervals; largest deviation {points(worst)})"
        )
    if fresh.beyond(tolerance):  # (settled: more games would not change it, whatever the search found)
        return "not balanced", (
            f"{handicap} = {values} leaves {furthest} {points(worst)} off the mean seat on {games:,} fresh games, "
            f"surely more than {points(tolerance)}; the search, on its own games: {said}"
        )
    shown = f"; on {games:,} fresh games this answer leaves {furthest} {points(worst)} off"
    # (within the tolerance by estimate, yet "0.08 off, which they cannot show inside 1 point" read as a contradiction)
    shown += f" by estimate, too few games to show every seat within {points(tolerance)}" if worst <= tolerance else ""
    if searched == "balanced":
        return "within tolerance by estimate", (
            f"{handicap} = {values} puts every seat within {points(tolerance)} of the mean seat on the search's games, "
            "which chose it" + shown
        )
    return searched, said + shown


def _verdict(
    now: SeatRates, tolerance: float, handicap: str, low: int, high: int, step, settled: bool
) -> tuple[str, str]:
    """The search's status and its message, from the answer's figures and whether every move
    from it was surely worse (``settled``)."""
    worst = float(np.abs(now.deviation).max())
    furthest = seat_player(int(np.argmax(np.abs(now.deviation))))
    where = f"every seat within {points(tolerance)} of the mean seat"
    if now.within(tolerance):
        return "balanced", f"{handicap} = {list(now.values)} puts {where} ({now.games:,} games per candidate)"
    steps = [abs(s) for s in step if s is not None]
    coarse = (
        f"; one step of {handicap} moves a seat's win rate by about {points(np.mean(steps))}, "
        "too coarse to close what is left"
        if steps and np.mean(steps) > worst else ""
    )  # fmt: skip
    if settled and not now.beyond(tolerance):
        return "cannot balance", (
            f"every step of {handicap} from {list(now.values)} is surely worse, and it leaves {furthest} "
            f"{points(worst)} off (within {points(tolerance)} or not: {now.games:,} games cannot tell){coarse}"
        )
    if now.beyond(tolerance):
        return "cannot balance", (
            f"no values of {handicap} from {low} to {high} found by the search put {where}: the closest, "
            f"{list(now.values)}, leaves {furthest} {points(worst)} off{coarse}"
        )
    if worst <= tolerance:
        return "within tolerance by estimate", (
            f"{handicap} = {list(now.values)} puts {where} by estimate ({points(worst)} at most), "
            f"but {now.games:,} games per candidate cannot show it; raise --max-games to be sure"
        )
    if coarse:  # ("cannot tell (raise --max-games)" then "too coarse to close" read as a contradiction)
        return "undecided", (
            f"the closest found, {handicap} = {list(now.values)}, leaves {furthest} {points(worst)} off{coarse}, so "
            f"a value closer still may not exist; whether this one is within {points(tolerance)}, {now.games:,} games "
            "per candidate cannot tell (raise --max-games)"
        )
    return "undecided", (
        f"the closest found, {handicap} = {list(now.values)}, leaves {furthest} {points(worst)} off; "
        f"{now.games:,} games per candidate cannot tell whether the tolerance can be met (raise --max-games)"
    )


def check_novices(spec: GameSpec, rate: float | None) -> float | None:
    """A --novices rate: from 0 to 1, for a game with choices."""
    if rate is None:
        return None
    if not spec.policies:
        raise InputError("--novices", f"{spec.name} has no player choices, so its players make no mistakes")
    if not 0 <= rate <= 1:
        raise InputError("--novices", f"expected a mistake rate from 0 to 1, got {rate!r}")
    return rate


def _novice_check(rate, seats, before, after, handicap, values) -> dict:
    """Whether the answer still evens the seats when every player makes mistakes: it holds if
    the largest seat gap is smaller with it than without it (clearly so if the intervals of
    the two gaps do not overlap)."""
    (gap_before, low_before, _), (gap_after, _, high_after) = before["gap"], after["gap"]
    holds = gap_after < gap_before
    how = "clearly " if high_after < low_before else ""
    message = (
        f"with novice players ({', '.join(dict.fromkeys(seats))}) {handicap} = {list(values)} "
        + (f"{how}still helps" if holds else "no longer helps")
        + f": the largest seat gap is {points(gap_after)} with it against {points(gap_before)} without"
    )
    return {"rate": rate, "seats": list(seats), "before": before, "after": after, "holds": holds, "message": message}


def _confirmed(columns: dict[str, np.ndarray], players: int, level: float) -> dict:
    """Each seat's win rate with its interval, the chi-square p of equal seats and the largest
    seat gap, on one set of games."""
    winner = columns["winner"]
    games = len(winner)
    wins = np.bincount(winner[winner >= 0].astype(np.int64), minlength=players)
    return {
        "games": games,
        "win_rate": [float(w / games) for w in wins],
        "win_ci": [list(wilson(int(w), games, level)) for w in wins],
        "draw_rate": float(np.mean(winner < 0)),
        "balance_p": seat_balance(wins),
        "gap": list(seat_gap(wins, games, level)),
    }
