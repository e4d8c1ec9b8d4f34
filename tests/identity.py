"""The reference-vs-kernel identity check every game's tests use."""

import numpy as np
import pytest

from snakesim.core.columns import identical

# Policy mixes for games with choices, by number of seats (codes: 0 random, 1 greedy).
MIXES = {
    "all-random": lambda n: [0] * n,
    "all-greedy": lambda n: [1] * n,
    "greedy-vs-random": lambda n: [1] + [0] * (n - 1),
}


def sizes(fast: int, full: int) -> list:
    """Game counts for an identity test: ``fast`` in the default suite, ``full`` (marked slow)
    in ``make test-all``. Every game, variant and policy mix keeps its fast case."""
    return [pytest.param(fast, id=f"{fast}-games"), pytest.param(full, id=f"{full}-games", marks=pytest.mark.slow)]


same = identical  # (the check `snakesim trace` makes too)


def assert_identical(kernel, reference, rules, players, seed, first, count, policies=None):
    """Play games ``first .. first+count-1`` with both engines; every column must agree."""
    codes = None if policies is None else np.array(policies, np.int64)  # codes, or a policy table
    out = kernel.play_block(rules, players, seed, first, count, policies=codes)
    for row in range(count):
        record, _ = reference.play(rules, players, seed, first + row, policies=policies)
        for key, value in record.items():
            assert same(value, out[key][row]), (
                f"{key} differs in game {first + row} (seed {seed}, {players} players, policies {policies}): "
                f"reference {value}, kernel {out[key][row]}"
            )


def assert_matches_exact(out, solution, players):
    """Every seat's win rate and the draw rate of kernel results ``out`` lie within 4
    standard errors of the exact ``solution`` (snakesim.analysis.markov.Solution)."""
    games = len(out["winner"])
    rates = [(out["winner"] == s).mean() for s in range(players)] + [(out["winner"] < 0).mean()]
    exact = [solution.outcomes.get(("win", s), 0.0) for s in range(players)] + [solution.outcomes.get("draw", 0.0)]
    for label, rate, p in zip([*range(players), "draw"], rates, exact, strict=True):
        assert abs(rate - p) <= 4 * np.sqrt(p * (1 - p) / games) + 1e-12, (label, rate, p)
