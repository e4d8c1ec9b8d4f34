"""Is the game luck or skill? One player of another kind among a field, on the same games.

For each player count the same games (the same deals, the same seat for the odd player) are
played with several line-ups, each a *player* among a *field* of one policy:

- ``greedy`` among ``random`` (does knowing what to do matter?), against ``random`` among
  ``random``;
- a novice (``greedy:0.3``), an ``expert:K`` (who looks ahead) and an ``oracle:K`` (the
  expert shown every hidden card) among ``greedy``, against ``greedy`` among ``greedy``.

The odd player sits at each seat in turn (game ``i`` of a player count puts it at seat
``i // per_seat``), so seat advantages cancel. Its *edge* is its win rate minus the win rate
of a field player at the same seats in the same games (the fair share), with a paired
interval. The **skill share** is the expert's edge over the oracle's: the part of what
perfect information would be worth that thinking ahead captures (delta-method interval).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.stats import LEVEL, paired_difference, wilson
from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE
from snakesim.analysis.verdicts import verdict as judged
from snakesim.core import compiling
from snakesim.core.arms import Budget
from snakesim.core.defaults import NOVICE
from snakesim.core.errors import InputError
from snakesim.core.policies import (
    DEFAULT_PLAYOUTS,
    LOOKAHEAD_POLICIES,
    MAX_PLAYOUTS,
    MISTAKE_POLICIES,
    encode_policies,
    parse_policy,
)
from snakesim.core.progress import seconds_per_game, work_bar
from snakesim.core.registry import GameSpec
from snakesim.core.rng import MAX_SEED
from snakesim.core.rules import Int, Rules
from snakesim.core.runner import play_blocks

if TYPE_CHECKING:
    import pandas as pd


TABLE_COLUMNS = ("players", "field", "player", "games", "win_rate", "win_low", "win_high", "fair_share", "edge",
                 "edge_low", "edge_high", "edge_p")  # fmt: skip
SHARE_COLUMNS = ("players", "expert_edge", "oracle_edge", "skill_share", "low", "high", "basic_edge",
                 "relative_edge", "verdict")  # fmt: skip
PURE_LUCK = "pure luck: the players make no decisions, the deal decides every game"
MAX_SKILL_GAMES = 10_000_000
# How far above its fair share an expert among careful players wins (relative), and what that says.
VERDICTS = (
    (0.10, "mostly luck among careful players: thinking ahead changes little"),
    (0.25, "mostly luck among careful players, with some room for thinking ahead"),
    (0.50, "luck and skill both matter: thinking ahead pays"),
    (float("inf"), "a game of skill: thinking ahead pays a lot"),
)
# The first band's words where the expert's edge is small but its interval lies wholly beyond what
# matters (a headline "changes little" beside an edge of +2.8 [+1.5, +4.0] points read as false).
SMALL_EDGE = "mostly luck among careful players, though thinking ahead gives a small edge that matters"
SMALL_LOSS = "mostly luck among careful players, and thinking ahead does worse than careful play here"
# Added to a stronger band's words where the edge's interval does not settle that it matters.
UNSETTLED = ", by estimate: these games cannot tell whether the edge is as large as matters"


@dataclass
class SkillResult:
    """What :func:`skill` measured.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per player count and line-up: ``players, field, player, games, win_rate,
        win_low, win_high, fair_share, edge, edge_low, edge_high, edge_p``.
    shares : pandas.DataFrame
        One row per player count: ``players, expert_edge, oracle_edge, skill_share, low,
        high, basic_edge, relative_edge, verdict``: ``basic_edge`` is greedy's edge among random
        players relative to their fair share, ``relative_edge`` the expert's among greedy ones
        (NaN, like the share, for a game without look-ahead).
    summary : dict
        The ``--json`` object.
    """

    table: pd.DataFrame
    shares: pd.DataFrame
    summary: dict
    wins: dict = dataclass_field(default_factory=dict)  # (players, field, player) -> per game, did the odd player win


def lineups(spec: GameSpec, playouts: int, novice: float) -> list[tuple[str, str]]:
    """The (field, player) pairs measured for ``spec``; the field's own pair is its baseline."""
    out = [("random", "random"), ("random", "greedy"), ("greedy", "greedy")]
    if novice > 0:
        out.append(("greedy", parse_policy(spec, f"greedy:{novice}")))
    if "expert" in spec.policies:
        out += [("greedy", f"expert:{playouts}"), ("greedy", f"oracle:{playouts}")]
    return out


def check_skill(spec: GameSpec, rules: Rules, players: list[int], games: int, playouts: int, novice: float) -> None:
    """Raise InputError for anything :func:`skill` cannot do, before a game is played."""
    Int(1, MAX_SKILL_GAMES).check("--games", games)
    Int(1, MAX_PLAYOUTS).check("--playouts", playouts)
    if isinstance(novice, bool) or not isinstance(novice, int | float) or not 0 <= novice <= 1:
        raise InputError("--novice", f"expected a mistake rate from 0 to 1, got {novice!r}")
    for n in players:
        spec.check(rules, n)
        if games < n:
            raise InputError("--games", f"expected at least one game per seat ({n}), got {games}")


def skill(
    spec: GameSpec,
    rules: Rules,
    players: list[int],
    budget: Budget = Budget(4_000),
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    novice: float = NOVICE,
    level: float = LEVEL,
    margin: float = 0.01,
    backend=None,
    progress: bool = False,
) -> SkillResult:
    """Measure how much playing well matters (see the module docstring).

    Parameters
    ----------
    spec, rules : GameSpec, Rules
        The game (one with choices) and its rules.
    players : list of int
        The player counts.
    budget : Budget
        ``games`` per line-up and player count (rounded down to a multiple of the count);
        every line-up plays games ``first ..`` of ``seed``.
    playouts : int
        The expert's and the oracle's K.
    novice : float
        The novice's mistake rate (0: no novice line-up).
    margin : float
        The smallest edge in a seat's chance that matters (the win rate's): the verdict in
        words never calls an edge whose interval lies beyond it small, nor one it does not
        settle large.

    Returns
    -------
    SkillResult
    """
    import pandas as pd

    started, compiled = time.perf_counter(), compiling.spent()
    games, seed, first = budget.games, budget.seed, budget.first
    check_skill(spec, rules, players, games, playouts, novice=novice)
    Int(0, MAX_SEED).check("--seed", seed)
    pairs = lineups(spec, playouts, novice) if spec.policies else []
    rows, shares, kept = [], [], {}
    # Each line-up's games weigh what they cost, seat by seat, so the bar's time left holds
    # although an expert's game costs hundreds of greedy ones (measured only for a bar).
    cost = {(n, pair): _cost(spec, rules, n, pair, Budget(games // n, seed, first)) if progress else (1,) * n
            for n in players for pair in pairs}  # fmt: skip
    total = sum(sum(seats) * (games // n) for (n, _), seats in cost.items())
    with work_bar(total, progress, desc=f"{spec.name} skill") as bar:
        for n in players:
            per = games // n
            wins = {
                pair: _odd_seat_wins(
                    spec, rules, n, pair, Budget(per, seed, first), backend=backend, bar=bar, cost=cost[n, pair]
                )
                for pair in pairs
            }
            kept.update({(n, *pair): w for pair, w in wins.items()})
            for field, player in pairs:
                w = wins[(field, player)]
                base = wins[(field, field)]
                low, high = wilson(int(w.sum()), w.size, level)
                edge = paired_difference(w, base, level) if player != field else (0.0, 0.0, 0.0, 1.0)
                rows.append(
                    {"players": n, "field": field, "player": player, "games": int(w.size),
                     "win_rate": float(w.mean()), "win_low": low, "win_high": high,
                     "fair_share": float(base.mean()), "edge": edge[0], "edge_low": edge[1], "edge_high": edge[2],
                     "edge_p": edge[3]}
                )  # fmt: skip
            shares.append(_share(wins, n, playouts, level, margin) if pairs else {"players": n, "verdict": PURE_LUCK})
    table, shares = pd.DataFrame(rows, columns=TABLE_COLUMNS), pd.DataFrame(shares, columns=SHARE_COLUMNS)
    summary = {
        "game": spec.name,
        "rules_hash": rules.rules_hash(),
        "seed": seed,
        "first": first,
        "games": games,
        "playouts": playouts,
        "novice": novice,
        "level": level,
        "lineups": table.to_dict(orient="records"),
        "skill": shares.astype(object).where(shares.notna(), None).to_dict(orient="records"),
        "elapsed_s": time.perf_counter() - started - (compiling.spent() - compiled),  # (compiling left out)
    }
    return SkillResult(table, shares, summary, kept)


def skill_differences(results: dict[str, SkillResult], level: float = LEVEL) -> pd.DataFrame:
    """How each rule set changes what playing well is worth: for every player count and
    line-up, each arm's edge minus the first arm's, on the same games (every arm's line-ups
    play games ``first ..`` of one seed), with a paired interval and a Holm-adjusted p-value
    over every difference of the table.

    Returns
    -------
    pandas.DataFrame
        ``players, field, player, arm, edge, base_edge, diff, diff_low, diff_high, p_value, p_holm``.
    """
    import pandas as pd

    from snakesim.analysis.stats import holm

    names = list(results)
    base = results[names[0]]
    rows = []
    for name in names[1:]:
        other = results[name]
        for (n, field, player), w in other.wins.items():
            if player == field or (n, field, player) not in base.wins:
                continue
            mine = w.astype(np.float64) - other.wins[(n, field, field)]
            theirs = base.wins[(n, field, player)].astype(np.float64) - base.wins[(n, field, field)]
            diff, low, high, p = paired_difference(mine, theirs, level)
            rows.append({"players": n, "field": field, "player": player, "arm": name, "edge": float(mine.mean()),
                         "base_edge": float(theirs.mean()), "diff": diff, "diff_low": low, "diff_high": high,
                         "p_value": p})  # fmt: skip
    out = pd.DataFrame(rows, columns=["players", "field", "player", "arm", "edge", "base_edge", "diff", "diff_low",
                                      "diff_high", "p_value"])  # fmt: skip
    out["p_holm"] = holm(out["p_value"].to_numpy()) if len(out) else []
    return out


def _seats(n: int, field: str, player: str, seat: int) -> tuple[str, ...]:
    return tuple(player if s == seat else field for s in range(n))


def _cost(spec, rules, n, pair, budget) -> tuple[int, ...]:
    """Nanoseconds per game of the line-up ``pair`` (field, player) with the odd player at each
    seat (a look-ahead player's game can cost twice as much from the first seat as from the
    others), from a few of those games; each kernel is loaded first, so a compile is announced
    here, before the bar. Whole units, so that the bar's updates add up to its total exactly."""
    (field, player), seed, per = pair, budget.seed, budget.games
    seconds = []
    thinks = player.partition(":")[0] in LOOKAHEAD_POLICIES
    for seat in range(n if thinks else 1):  # (a cheap line-up: one seat is plenty)
        codes = encode_policies(spec, _seats(n, field, player, seat))
        compiling.prepare(spec, rules, n, seed, codes, notice=True)
        seconds.append(seconds_per_game(spec, rules, n, seed, budget.first + seat * per, codes=codes))
    return tuple(max(1, round(1e9 * seconds[seat % len(seconds)])) for seat in range(n))


def _odd_seat_wins(spec, rules, n, pair, budget, *, backend, bar, cost) -> np.ndarray:
    """Per game, whether the odd player of ``pair`` (field, player) won: the budget's games with
    it at each seat in turn."""
    (field, player), per, out = pair, budget.games, []
    for seat in range(n):
        blocks = play_blocks(
            spec, rules, n, replace(budget, first=budget.first + seat * per), policies=_seats(n, field, player, seat),
            backend=backend, keep=lambda columns, start: columns["winner"],
            on_games=lambda games, weight=cost[seat]: bar.update(games * weight),
        )  # fmt: skip
        out.append(np.concatenate(blocks) == seat)
    return np.concatenate(out)


def _share(wins: dict, n: int, playouts: int, level: float, margin: float) -> dict:
    """The skill share at ``n`` players and the verdict in words (``margin``: the smallest
    edge that matters)."""
    from scipy import stats

    base = wins[("greedy", "greedy")].astype(np.float64)
    fair = base.mean()
    expert = wins.get(("greedy", f"expert:{playouts}"))
    oracle = wins.get(("greedy", f"oracle:{playouts}"))
    row = {"players": n, "expert_edge": np.nan, "oracle_edge": np.nan, "skill_share": np.nan, "low": np.nan,
           "high": np.nan}  # fmt: skip
    edge = (np.nan, np.nan)
    if expert is not None:
        edge = paired_difference(expert, base, level)[1:3]  # (the line-up's own interval, as the table gives it)
        x, y = expert - base, oracle - base
        row["expert_edge"], row["oracle_edge"] = float(x.mean()), float(y.mean())
        if y.mean() > 0:
            ratio = x.mean() / y.mean()
            se = np.std(x - ratio * y, ddof=1) / (np.sqrt(x.size) * y.mean())
            z = stats.norm.ppf(0.5 + level / 2)
            row.update(skill_share=float(ratio), low=float(ratio - z * se), high=float(ratio + z * se))
    random_fair = wins[("random", "random")].mean()
    row["basic_edge"] = (
        float((wins[("random", "greedy")].mean() - random_fair) / random_fair) if random_fair else np.nan
    )
    row["relative_edge"] = float(row["expert_edge"] / fair) if fair > 0 else np.nan
    row["verdict"] = verdict(row["relative_edge"], *edge, margin=margin)
    return row


def verdict(relative_edge: float, low: float = np.nan, high: float = np.nan, margin: float = 0.01) -> str:
    """Luck or skill, in words, from how far above its fair share an expert among careful
    (greedy) players wins, relative to that share (NaN: not measured), held to the expert's
    edge and its interval (``low``, ``high``) against the smallest edge that ``margin`` says
    matters: never "changes little" of an edge wholly beyond it or not settled within it, never
    "pays" of one it does not settle."""
    if np.isnan(relative_edge):
        return "not measured: this game has no look-ahead player"
    words = next((w for bound, w in VERDICTS if relative_edge < bound), VERDICTS[-1][1])
    if np.isnan(low):
        return words
    said = judged(low, high, margin)
    if words == VERDICTS[0][1]:  # ("changes little" only of an edge settled small: +1.5 [-0.3, +3.2] is not)
        if said == MATTERS:
            return SMALL_EDGE if low > 0 else SMALL_LOSS
        return words if said == NEGLIGIBLE else words + UNSETTLED
    return words if said == MATTERS and low > 0 else words + UNSETTLED


def novice_seats(spec: GameSpec, seats: tuple[str, ...], players: int, rate: float = NOVICE) -> tuple[str, ...]:
    """The same seats as novices: each policy that takes a mistake rate gets ``rate``."""
    seats = seats or (spec.default_policy,) * players
    return tuple(parse_policy(spec, f"{s.partition(':')[0]}:{rate}") if s.partition(":")[0] in MISTAKE_POLICIES
                 else s for s in seats)  # fmt: skip
