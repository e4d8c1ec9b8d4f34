"""Per-seat play policies: named rules for choosing among legal moves, with a parameter.

A game with choices lists its policy names in ``GameSpec.policies``; a policy's code for the
kernel is its position there. Both engines implement every policy and consume the random
stream in the same order, so they still play the identical game.

A seat's policy is written ``NAME`` or ``NAME:PARAM``:

- ``greedy:0.25`` (any policy in :data:`MISTAKE_POLICIES`): a *mistake rate*. Before each
  decision the seat draws one number; with that probability it makes a uniformly random legal
  move (the ``random`` policy's move), else its own. ``greedy:0`` is plain ``greedy``, which
  draws nothing extra.
- ``expert:64`` (any policy in :data:`LOOKAHEAD_POLICIES`): the number of playouts per legal
  move of a flat Monte Carlo look-ahead (see each game's kernel); bare ``expert`` means
  ``expert:64``. The look-ahead starts from greedy's move and plays another only when its
  imagined games show it better beyond their noise (:func:`beats_greedy`).

The kernels take the seats as a table (:func:`policy_table`): one row per seat of
``(code, mistake threshold, playouts)``, the threshold being the mistake rate in units of
``2**-32`` so that one 32-bit draw decides.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from snakesim.core.defaults import DEFAULT_PLAYOUTS, MAX_PLAYOUTS
from snakesim.core.errors import InputError
from snakesim.core.jit import njit
from snakesim.core.registry import GameSpec
from snakesim.core.rng import MAX_BOUND, below

MISTAKE_POLICIES = ("greedy", "friendly")  # their parameter is a mistake rate
LOOKAHEAD_POLICIES = ("expert", "oracle")  # their parameter is a number of playouts
RANDOM_CODE = 0  # every game with choices lists "random" first
CODE, MISTAKE, PLAYOUTS = range(3)  # the columns of a policy table
# The look-ahead policies' playouts draw from this lane of the game (snakesim.core.rng.seed_lane),
# so that thinking never shifts the game's own stream (Sssnake's die is lane 1).
LOOKAHEAD_LANE = 2


def parse_policy(spec: GameSpec, text: str) -> str:
    """Check one seat's policy ``NAME`` or ``NAME:PARAM`` and return its canonical spelling.

    ``greedy:0`` becomes ``greedy`` and bare ``expert`` becomes ``expert:64``, so that two
    spellings of one player are one label in tables and comparisons.
    """
    if not isinstance(text, str):
        raise InputError("policy", f"expected a policy name such as 'greedy' or 'greedy:0.25', got {text!r}")
    name, colon, param = text.strip().partition(":")
    if name not in spec.policies:
        raise InputError("policy", f"unknown policy {name!r}; expected one of {', '.join(spec.policies)}")
    if name in LOOKAHEAD_POLICIES:
        if not colon:
            return f"{name}:{DEFAULT_PLAYOUTS}"
        if not param.strip().isdigit() or not 1 <= int(param) <= MAX_PLAYOUTS:
            raise InputError(
                "policy", f"{name}:K takes a number of playouts K from 1 to {MAX_PLAYOUTS}, got {text.strip()!r}"
            )
        return f"{name}:{int(param)}"
    if not colon:
        return name
    if name not in MISTAKE_POLICIES:
        raise InputError("policy", f"{name} takes no parameter, got {text.strip()!r}")
    try:
        rate = float(param)
    except ValueError:
        rate = -1.0
    if not 0.0 <= rate <= 1.0:  # also rejects nan
        raise InputError("policy", f"{name}:RATE takes a mistake rate from 0 to 1, got {text.strip()!r}")
    return name if rate == 0 else f"{name}:{rate:g}"


# How each kind of player plays, in one line each: the workbench's legend and the commands' --help.
# (A look-ahead's line names its playouts: bare expert is expert:64.)
_THINKS = "plays each allowed move out in {k} imagined games and keeps the best"
POLICY_WORDS = {
    "random": "picks any allowed move at random, as a very young player might",
    "greedy": "takes the move that looks best right now, without thinking ahead (a careful player; the default)",
    "friendly": "plays its own snake as greedy does, but helps its neighbour's snake instead of hindering it",
    "expert": "thinks ahead: " + _THINKS + "; slow",
    "oracle": "thinks ahead as expert does, but sees every hidden card: a yardstick, not a fair player",
}


def player_words(text: str) -> str:
    """How one seat's player plays, in one line, from its canonical spelling
    (:func:`parse_policy`): ``greedy:0.3`` -> a careful player who makes a random move 30% of
    the time; ``expert:16`` -> thinks ahead: plays each allowed move out in 16 imagined games..."""
    name, _, param = text.partition(":")
    if param and name in MISTAKE_POLICIES:
        who = "a careful player" if name == "greedy" else f"a {name} player"
        return f"{who} who makes a random move {100 * float(param):g}% of the time"
    if name in LOOKAHEAD_POLICIES and param == "1":  # (a single imagined game never beats greedy: see beats_greedy)
        return "plays as greedy does: one imagined game a move can never show another move better"
    return POLICY_WORDS.get(name, name).format(k=param or DEFAULT_PLAYOUTS)


def spelled_players(spellings: Sequence[str]) -> list[str]:
    """How each player spelled with a parameter among ``spellings`` plays, once each in order
    of appearance (``expert:64: thinks ahead: plays each allowed move out in 64 imagined
    games...``): the lines a command prints under its players, where ``expert:64`` alone said
    nothing of what 64 counts."""
    return [f"{text}: {player_words(text)}" for text in dict.fromkeys(spellings) if ":" in text]


def policies_help(names: Sequence[str]) -> list[tuple[str, str]]:
    """The kinds of player among ``names`` (a game's policies), one line each as ``(spelling,
    how it plays)``; then the novice's spelling where a policy takes a mistake rate."""
    lines = [(name, player_words(name) + (f" ({name}:K: K games a move, at least 2 to depart from greedy's)"
                                          if name in LOOKAHEAD_POLICIES else "")) for name in names]  # fmt: skip
    mistakes = [n for n in names if n in MISTAKE_POLICIES]
    if mistakes:
        words = player_words(mistakes[0] + ":0.3").replace("30%", "RATE (0 to 1)")
        lines.append((f"{mistakes[0]}:RATE", f"{words}; {mistakes[0]}:0.3 is a novice"))
    return lines


def policy_parameters(spec: GameSpec) -> str:
    """How this game's policies take a parameter, in words (for ``snakesim variants``)."""
    lines = []
    mistakes = [p for p in spec.policies if p in MISTAKE_POLICIES]
    if mistakes:
        lines.append(
            f"  {'/'.join(mistakes)}:RATE  a mistake rate from 0 to 1: with that probability a decision is a uniformly"
            f" random legal move (a novice: {mistakes[0]}:0.3)"
        )
    lookahead = [p for p in spec.policies if p in LOOKAHEAD_POLICIES]
    if lookahead:
        lines.append(
            f"  {'/'.join(lookahead)}:K  look ahead with K playouts per legal move (1 to {MAX_PLAYOUTS}, default"
            f" {DEFAULT_PLAYOUTS}; with 1 it always keeps greedy's move); oracle sees every hidden card, a yardstick"
            " rather than a fair player"
        )
    return "\n".join(lines)


def resolve_policies(
    spec: GameSpec, players: int, policy: str | None = None, policies: str | Sequence[str] | None = None
) -> tuple[str, ...]:
    """The policy of each seat, checked and canonically spelled (:func:`parse_policy`).

    Parameters
    ----------
    spec : GameSpec
        The game.
    players : int
        Number of seats.
    policy : str, optional
        One policy for every seat (``--policy``).
    policies : str or sequence of str, optional
        One policy per seat, as a list or a comma-separated string (``--policies``).

    Returns
    -------
    tuple of str
        One policy per seat; empty for a game without choices.
    """
    if not spec.policies:
        if policy or policies:
            field = "--policy" if policy else "--policies"
            raise InputError(field, f"{spec.name} has no player choices, so it takes no policies")
        return ()
    if policy and policies:
        raise InputError("--policies", "give either --policy (all seats) or --policies (one per seat), not both")
    if policies:
        names = [p.strip() for p in policies.split(",")] if isinstance(policies, str) else list(policies)
        if len(names) != players:
            raise InputError(
                "--policies", f"expected {players} names (one per seat, comma-separated), got {len(names)}"
            )
    else:
        names = [policy or spec.default_policy] * players
    return tuple(parse_policy(spec, name) for name in names)


def encode_policies(spec: GameSpec, names: Sequence[str]) -> np.ndarray:
    """Checked policies (:func:`resolve_policies`) as the kernel's table (:func:`policy_table`)."""
    table = np.zeros((len(names), 3), np.int64)
    for seat, text in enumerate(names):
        name, _, param = parse_policy(spec, text).partition(":")
        table[seat, CODE] = spec.policies.index(name)
        if name in LOOKAHEAD_POLICIES:
            table[seat, PLAYOUTS] = int(param)
        elif param:
            table[seat, MISTAKE] = round(float(param) * MAX_BOUND)
    return table


def policy_table(policies, players: int, default: int) -> np.ndarray:
    """The kernels' per-seat table ``(code, mistake threshold, playouts)`` (int64).

    ``policies`` may be such a table, a sequence of plain codes (no mistakes; look-ahead
    policies get :data:`DEFAULT_PLAYOUTS`), or None (``default`` for every seat).
    """
    if policies is None:
        policies = [default] * players
    table = np.asarray(policies, np.int64)
    if table.ndim == 1:
        table = np.stack([table, np.zeros_like(table), np.full_like(table, DEFAULT_PLAYOUTS)], axis=1)
    if table.shape != (players, 3):
        raise ValueError(f"expected one policy per seat ({players}), got shape {table.shape}")
    return np.ascontiguousarray(table)


def thinks_ahead(table: np.ndarray, first_lookahead: int) -> bool:
    """Whether a seat of the policy ``table`` thinks ahead (its code is ``first_lookahead``,
    the game's first look-ahead policy, or above).

    Where none does, the kernels pass None for the look-ahead's scratch, and numba drops the
    look-ahead's branch (``if think is not None``) before compiling: a run of simple players
    never waits for the look-ahead's code, about half of a game's kernel.
    """
    return bool((np.asarray(table)[:, CODE] >= first_lookahead).any())


@njit(forceinline=True)  # asked at every decision
def acting(state, policies, seat):
    """The policy code ``seat`` decides by this time: its own, or with its mistake rate (one
    draw) ``random``. A seat without a mistake rate draws nothing."""
    threshold = policies[seat, MISTAKE]
    if threshold > 0 and below(state, MAX_BOUND) < threshold:
        return RANDOM_CODE
    return policies[seat, CODE]


def beats_greedy(total: int, squares: int, playouts: int) -> bool:
    """Whether a move beats greedy's in a look-ahead: over ``playouts`` imagined games its
    payoffs minus those of greedy's move (on the same deals) sum to ``total``, their squares
    to ``squares``, and the mean difference is above 0 by more than one standard error.

    In integers (``S > 0`` and ``S^2 (K - 1) > Q K - S^2``), so both engines agree exactly; a
    single playout never beats greedy. (One standard error: with two, the expert kept greedy's
    move so often that it gained half as much at K = 64 in Rainbow, and nothing at K = 16.)
    """
    return total > 0 and total * total * (playouts - 1) > squares * playouts - total * total


clearly_beats_greedy = njit(beats_greedy)  # the kernels' copy


@njit
def add_playout(got, g, gain, squares, k):
    """Add one imagined game's payoffs ``got[:k]`` to each move's gain over greedy's move ``g``."""
    for j in range(k):
        gain[j] += got[j] - got[g]
        squares[j] += (got[j] - got[g]) * (got[j] - got[g])


@njit
def pick_over_greedy(gain, squares, g, k, playouts):
    """The look-ahead's move: greedy's ``g`` unless a move beats it beyond the noise
    (:func:`beats_greedy`); then the largest gain, the first on a tie."""
    best = g
    for j in range(k):
        if gain[j] > gain[best] and clearly_beats_greedy(gain[j], squares[j], playouts):
            best = j
    return best


def py_acting(stream, policies, seat: int) -> int:
    """:func:`acting` for the reference engines (``policies`` a :func:`policy_table`)."""
    threshold = int(policies[seat][MISTAKE])
    if threshold > 0 and stream.below(MAX_BOUND) < threshold:
        return RANDOM_CODE
    return int(policies[seat][CODE])


def describe_seats(policies, names: Sequence[str]) -> str:
    """Each seat's policy in words, for traces: ``seat 0 greedy, seat 1 greedy:0.3``."""
    return ", ".join(f"seat {s} {_spelling(row, names)}" for s, row in enumerate(policies))


def _spelling(row, names: Sequence[str]) -> str:
    name = names[int(row[CODE])]
    if name in LOOKAHEAD_POLICIES:
        return f"{name}:{int(row[PLAYOUTS])}"
    return f"{name}:{int(row[MISTAKE]) / MAX_BOUND:g}" if row[MISTAKE] else name
