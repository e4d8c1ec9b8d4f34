"""How often the verdicts err, by simulation with fixed seeds (``make test-all``).

Each run draws the per-game values of two paired rule sets with a known true difference, takes
the comparison's own paired interval at the level of a Holm family's first step (20 figures:
99.75%, the strictest level a comparison draws), and calls it as ``verdicts.verdict`` does:

- a true difference of zero, with enough games: ``negligible`` in at least 95% of runs;
- half the margin: ``matters`` in at most 5% of runs, whatever the games;
- twice the margin, with enough games: ``matters`` in at least 95% of runs.

"Enough" for the default margins: 100,000 games per rule set for a seat's win rate (1
percentage point, a 25% chance, the two rule sets' games independent: the worst case, since
common random numbers only narrow the interval), and 10,000 for the mean length (5% of it, a
spread of 0.6 times the mean, about Fortune's). ``docs/what-matters.md`` quotes these figures.
"""

import numpy as np
import pytest

from snakesim.analysis.stats import paired_binary_difference, paired_difference
from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE, verdict
from snakesim.core.figures import BY_ID

pytestmark = pytest.mark.slow

LEVEL = 1 - 0.05 / 20  # (Holm's first step in a family of 20 figures)
RUNS = 400
WIN_MARGIN = BY_ID["win_rate"].matters
LENGTH_SHARE = BY_ID["length"].matters


def win_rate_verdicts(true_difference: float, games: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(RUNS):
        base = rng.random(games) < 0.25
        other = rng.random(games) < 0.25 + true_difference
        _, low, high, _, _ = paired_binary_difference(other, base, LEVEL)
        out.append(verdict(low, high, WIN_MARGIN))
    return out


def length_verdicts(true_share: float, games: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    mean, spread, out = 150.0, 90.0, []
    for _ in range(RUNS):
        base = rng.normal(mean, spread, games)
        other = rng.normal(mean * (1 + true_share), spread, games)
        _, low, high, _ = paired_difference(other, base, LEVEL)
        out.append(verdict(low, high, LENGTH_SHARE * mean))
    return out


def share(verdicts: list[str], said: str) -> float:
    return verdicts.count(said) / len(verdicts)


def test_no_true_difference_is_called_negligible_once_the_games_are_enough():
    assert share(win_rate_verdicts(0.0, 100_000, seed=1), NEGLIGIBLE) >= 0.95
    assert share(length_verdicts(0.0, 10_000, seed=2), NEGLIGIBLE) >= 0.95
    # With too few games the interval is wider than the margin: never negligible, never matters.
    few = win_rate_verdicts(0.0, 5_000, seed=3)
    assert share(few, NEGLIGIBLE) == 0 and share(few, MATTERS) == 0


@pytest.mark.parametrize("games", [20_000, 100_000, 400_000])
def test_half_the_margin_is_called_matters_at_most_one_run_in_twenty(games):
    assert share(win_rate_verdicts(WIN_MARGIN / 2, games, seed=games), MATTERS) <= 0.05
    assert share(length_verdicts(LENGTH_SHARE / 2, games // 10, seed=games + 1), MATTERS) <= 0.05


def test_twice_the_margin_is_called_matters_once_the_games_are_enough():
    assert share(win_rate_verdicts(2 * WIN_MARGIN, 100_000, seed=4), MATTERS) >= 0.95
    assert share(length_verdicts(2 * LENGTH_SHARE, 10_000, seed=5), MATTERS) >= 0.95
