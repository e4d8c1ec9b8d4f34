"""Per-seat play policies: named rules for choosing among legal moves.

A game with choices lists its policy names in ``GameSpec.policies``; a policy's code for the
kernel is its position there. Both engines implement every policy and consume the random
stream in the same order, so they still play the identical game.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from snakesim.core.errors import InputError
from snakesim.core.registry import GameSpec


def resolve_policies(
    spec: GameSpec, players: int, policy: str | None = None, policies: str | Sequence[str] | None = None
) -> tuple[str, ...]:
    """The policy of each seat.

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
        One name per seat; empty for a game without choices.
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
    for name in names:
        if name not in spec.policies:
            raise InputError("policy", f"unknown policy {name!r}; expected one of {', '.join(spec.policies)}")
    return tuple(names)


def encode_policies(spec: GameSpec, names: Sequence[str]) -> np.ndarray:
    """Policy names as the kernel's per-seat codes (int8)."""
    return np.array([spec.policies.index(n) for n in names], dtype=np.int8)


def describe_seats(codes: Sequence[int], names: Sequence[str]) -> str:
    """Each seat's policy in words, for traces: ``seat 0 greedy, seat 1 random``."""
    return ", ".join(f"seat {s} {names[p]}" for s, p in enumerate(codes))
