"""Exact answers for small pure-chance games, as absorbing Markov chains.

A game supplies its start state and a ``step(state)`` function listing where a state goes:
``(probability, next_state, cost)`` to another state, or ``(probability, outcome, cost)`` to
an end (an outcome is any hashable label that is not a state, wrapped in :class:`End`).
``cost`` is what the move adds to the game's length (1 for a card drawn, 0 for a skipped
turn).

:func:`solve` enumerates the reachable states, then solves the linear systems
``(I - Q) x = R`` (probability of each outcome) and ``(I - Q) t = c`` (expected length).
States from which no outcome can be reached (a game that can cycle forever) are set apart
first: their probability mass is reported as ``never`` and the expected length is then
infinite. When every state can reach an end, ``never`` is exactly 0.0 by construction (a
finite chain whose states can all be absorbed is absorbed with probability 1).

A direct sparse LU of ``I - Q`` fills in badly when a game can return to early states (a
reshuffle). Instead ``Q`` is split, in the order states were discovered, into its forward
part ``U`` (triangular: solved exactly by a natural-order LU with no fill-in) and the few
backward edges ``L``, and ``x = (I - U)^-1 (R + L x)`` is iterated to convergence. This is a
regular splitting of an absorbing chain, so it always converges; the rate is the chance that
a game comes back through a backward edge.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

import numpy as np

from snakesim.core.errors import InputError

DEFAULT_MAX_STATES = 2_000_000  # states a solve may enumerate before it refuses


@dataclass(frozen=True)
class End:
    """An absorbing outcome, e.g. ``End(("win", 1))`` or ``End("draw")``."""

    label: Hashable


@dataclass(frozen=True)
class Solution:
    """The exact answer: outcome probabilities, the chance of never ending, expected length."""

    outcomes: dict[Hashable, float]
    never: float
    expected_length: float
    states: int


def solve(
    start: Hashable,
    step: Callable[[Hashable], Iterable[tuple[float, Hashable, int]]],
    max_states: int,
) -> Solution:
    """Solve the chain from ``start``.

    Raises
    ------
    InputError
        If more than ``max_states`` states are reachable.
    """
    from scipy import sparse
    from scipy.sparse.linalg import splu

    index = {start: 0}
    order = [start]
    rows, cols, vals = [], [], []  # Q: transient -> transient
    ends: dict[Hashable, list[tuple[int, float]]] = {}  # R, column by outcome
    cost = []
    i = 0
    while i < len(order):
        state = order[i]
        expected_cost = 0.0
        for p, nxt, c in step(state):
            expected_cost += p * c
            if isinstance(nxt, End):
                ends.setdefault(nxt.label, []).append((i, p))
                continue
            j = index.get(nxt)
            if j is None:
                if len(order) >= max_states:
                    raise InputError(
                        "exact",
                        f"more than {max_states:,} reachable states; use fewer cards or coins, or raise --max-states",
                    )
                j = index[nxt] = len(order)
                order.append(nxt)
            rows.append(i)
            cols.append(j)
            vals.append(p)
        cost.append(expected_cost)
        i += 1
    n = len(order)
    q = sparse.csr_matrix((vals, (rows, cols)), shape=(n, n))
    labels = list(ends)
    r = np.zeros((n, len(labels)))
    for k, label in enumerate(labels):
        for state, p in ends[label]:
            r[state, k] += p
    # States that can reach an end: walk the transition graph backwards from the ends.
    can_end = r.sum(axis=1) > 0
    back = q.T.tocsr()
    frontier = list(np.flatnonzero(can_end))
    while frontier:
        nxt = []
        for s in frontier:
            for t in back.indices[back.indptr[s] : back.indptr[s + 1]]:
                if not can_end[t]:
                    can_end[t] = True
                    nxt.append(t)
        frontier = nxt
    live = np.flatnonzero(can_end)
    if not can_end[0]:
        return Solution({label: 0.0 for label in labels}, 1.0, float("inf"), n)
    q_live = q[live][:, live].tocsr()
    forward = sparse.triu(q_live, k=0, format="csc")
    backward = sparse.tril(q_live, k=-1, format="csr")
    lu = splu((sparse.identity(len(live), format="csc") - forward).tocsc(), permc_spec="NATURAL")
    x = _iterate(lu, backward, r[live])
    outcomes = {label: float(x[0, k]) for k, label in enumerate(labels)}  # state 0 is the start
    # Every enumerated state is reachable from the start with positive probability, so the
    # game can run forever exactly when some state cannot reach an end. Deciding that on the
    # graph, not from ``1 - sum(outcomes)``, makes ``never`` exactly 0.0 (and the length
    # finite) whatever the last bits of the solve are on this machine's linear algebra.
    if can_end.all():
        never = 0.0
        expected = float(_iterate(lu, backward, np.asarray(cost)[live, None])[0, 0])
    else:
        never = min(1.0, max(0.0, 1.0 - sum(outcomes.values())))
        expected = float("inf")
    return Solution(outcomes, never, expected, n)


def _iterate(lu, backward, rhs, tol=1e-15, max_rounds=1_000_000):
    """Solve ``(I - U - L) x = rhs`` given the LU of ``I - U`` and ``L`` (``backward``)."""
    if rhs.shape[1] == 0:
        return rhs
    x = lu.solve(rhs)
    for _ in range(max_rounds):
        nxt = lu.solve(rhs + backward @ x)
        if np.max(np.abs(nxt - x)) <= tol * max(1.0, float(np.max(np.abs(nxt)))):
            return nxt
        x = nxt
    raise InputError("exact", f"the solution did not converge in {max_rounds:,} rounds")
