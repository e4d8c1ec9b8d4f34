"""The reference-vs-kernel identity check every game's tests use."""

import numpy as np

# Policy mixes for games with choices, by number of seats (codes: 0 random, 1 greedy).
MIXES = {
    "all-random": lambda n: [0] * n,
    "all-greedy": lambda n: [1] * n,
    "greedy-vs-random": lambda n: [1] + [0] * (n - 1),
}


def assert_identical(kernel, reference, rules, players, seed, first, count, policies=None):
    """Play games ``first .. first+count-1`` with both engines; every column must agree."""
    codes = None if policies is None else np.array(policies, np.int8)
    out = kernel.play_block(rules, players, seed, first, count, policies=codes)
    for row in range(count):
        record, _ = reference.play(rules, players, seed, first + row, policies=policies)
        for key, value in record.items():
            assert np.array_equal(np.asarray(value), out[key][row]), (
                f"{key} differs in game {first + row} (seed {seed}, {players} players, policies {policies}): "
                f"reference {value}, kernel {out[key][row]}"
            )
