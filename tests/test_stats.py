"""Intervals against hand-computed values."""

import numpy as np
import pandas as pd
import pytest

from snakesim.analysis.stats import mean_interval, normal_quantile, summarize, t_quantile, wilson


def test_wilson_hand_computed():
    # 5 of 10 at 95%: centre 0.5, half-width z*sqrt(0.025 + z^2/400)/(1 + z^2/10) = 0.263406.
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.236594, abs=1e-6)
    assert high == pytest.approx(0.763406, abs=1e-6)
    # 0 of 10: lower bound 0, upper z^2/10 / (1 + z^2/10) = 0.277533.
    low, high = wilson(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12)
    assert high == pytest.approx(0.277533, abs=1e-6)


def test_mean_interval_hand_computed():
    # 1..5: mean 3, s = 1.5811, t(0.975, 4) = 2.776445, half-width 1.963243.
    mean, low, high = mean_interval(np.array([1, 2, 3, 4, 5]))
    assert mean == 3
    assert low == pytest.approx(3 - 1.963243, abs=1e-5)
    assert high == pytest.approx(3 + 1.963243, abs=1e-5)


@pytest.mark.parametrize("q", [0.5001, 0.75, 0.9, 0.95, 0.975, 0.995, 0.9995, 0.9999, 0.0001, 0.025])
def test_quantiles_without_scipy_agree_with_scipy(q):
    from scipy.special import ndtri, stdtrit

    assert normal_quantile(q) == pytest.approx(float(ndtri(q)), rel=1e-14, abs=1e-14)
    # the expansion stands in for stdtrit from 999 degrees of freedom up
    for df in (999, 1000, 1001, 1500, 4000, 10**4, 123_457, 10**6, 10**9, 10**13):
        assert t_quantile(q, df) == pytest.approx(float(stdtrit(df, q)), rel=1e-12)
    # and below (or out in the tails) scipy answers
    for df in (1, 2, 5, 30, 998):
        assert t_quantile(q, df) == pytest.approx(float(stdtrit(df, q)), rel=1e-14)
    assert t_quantile(1e-6, 10**6) == pytest.approx(float(stdtrit(10**6, 1e-6)), rel=1e-14)


def test_summarize_counts_from_table():
    df = pd.DataFrame(
        {
            "outcome": pd.Categorical.from_codes([0, 0, 0, 1, 2], categories=["win", "draw", "unfinished"]),
            "winner": np.array([0, 1, 0, -1, -1], dtype=np.int8),
            "length": np.array([10, 20, 30, 40, 100]),
        }
    )
    df.attrs["players"] = 3
    s = summarize(df)
    assert s["win_rate"] == pytest.approx([0.4, 0.2, 0.0], abs=1e-12)
    assert s["draw_rate"] == pytest.approx(0.2, abs=1e-12) and s["unfinished_rate"] == pytest.approx(0.2, abs=1e-12)
    assert s["length"]["median"] == pytest.approx(30, abs=1e-9) and s["length"]["max"] == 100
    assert s["length"]["mean"] == pytest.approx(40, abs=1e-9)
    assert s["win_ci"][2][0] == pytest.approx(0.0, abs=1e-12) and s["win_ci"][2][1] > 0.3


def test_summarize_tallies_a_table_a_slice_at_a_time(monkeypatch):
    # The sums of a long table are taken in slices (to bound memory): the same summary.
    import snakesim
    from snakesim.analysis import stats

    df = snakesim.simulate("fortune", players=3, games=5000, seed=4)
    whole = summarize(df)
    monkeypatch.setattr(stats, "SLICE", 777)  # 7 slices, the last one short
    sliced = summarize(df)
    counts = {k: v["count"] for k, v in whole["outcomes"].items()}
    assert {k: v["count"] for k, v in sliced["outcomes"].items()} == counts
    assert sliced["means"] == pytest.approx(whole["means"], rel=1e-12)
    for key in ("mean", "median", "max"):
        assert sliced["length"][key] == pytest.approx(whole["length"][key], rel=1e-12)
    assert sliced["win_rate"] == pytest.approx(whole["win_rate"], rel=1e-12)


def test_paired_difference_hand_computed():
    from snakesim.analysis.stats import paired_difference

    # Differences 1, 0, 1, 0: mean 0.5, s = 0.57735, se = 0.288675, t(0.975, 3) = 3.182446.
    diff, low, high, p = paired_difference(np.array([1, 1, 1, 0]), np.array([0, 1, 0, 0]))
    assert diff == pytest.approx(0.5, abs=1e-12)
    assert low == pytest.approx(0.5 - 0.918693, abs=1e-5) and high == pytest.approx(0.5 + 0.918693, abs=1e-5)
    assert p == pytest.approx(0.18161, abs=1e-4)  # two-sided t = 1.7321 on 3 df
    assert paired_difference(np.array([1, 0, 1]), np.array([1, 0, 1])) == pytest.approx((0.0, 0.0, 0.0, 1.0), abs=1e-12)


def test_paired_interval_covers_a_known_difference():
    from snakesim.analysis.stats import paired_difference

    # 400 simulated experiments with a true difference of 0.05 in a paired binary metric:
    # the 95% interval should cover it about 95% of the time (a broken interval does not).
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(400):
        base = rng.random(2000) < 0.3
        flip = rng.random(2000) < 0.1  # the variant changes 10% of games...
        variant = np.where(flip, rng.random(2000) < 0.8, base)  # ...to a 0.8 chance of success
        truth = 0.1 * (0.8 - 0.3)
        _, low, high, _ = paired_difference(variant, base)
        covered += low <= truth <= high
    assert 0.92 <= covered / 400 <= 0.98


def test_holm_hand_computed():
    from snakesim.analysis.stats import holm

    # p = 0.01, 0.04, 0.03, 0.005 (m = 4): sorted 0.005*4, 0.01*3, 0.03*2, 0.04*1 = 0.02, 0.03,
    # 0.06, 0.04 -> made non-decreasing: 0.02, 0.03, 0.06, 0.06.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])


def test_kaplan_meier_hand_computed():
    from snakesim.analysis.stats import km_quantile

    # Lengths 1, 2, 3 (unfinished), 4, 5: survival 0.8, 0.6, 0.6, 0.3, 0: the median is 4,
    # where the plain median of the recorded lengths would say 3.
    lengths, censored = np.array([1, 2, 3, 4, 5]), np.array([False, False, True, False, False])
    value, low, high = km_quantile(lengths, censored, 0.5)
    assert value == 4 and low <= 4 <= high
    # Without censoring it is the ordinary median.
    assert km_quantile(lengths, np.zeros(5, bool), 0.5)[0] == 3
    # Every game lasts exactly 49 turns (Hisss): no uncertainty at all.
    assert km_quantile(np.full(100, 49), np.zeros(100, bool), 0.5) == (49, 49, 49)
    # Half the games never end: the median is not reached.
    assert km_quantile(np.array([1, 2, 9, 9]), np.array([False, False, True, True]), 0.95)[0] == float("inf")


def test_seat_gap_interval():
    from snakesim.analysis.stats import seat_gap

    gap, low, high = seat_gap(np.array([2600, 2400, 2500, 2500]), 10_000)
    assert gap == pytest.approx(0.02) and low <= gap < high
    # Hand check: the widest pair is 0.26 vs 0.24, z = norm(1 - 0.05/12) = 2.638,
    # sd = sqrt((0.5 - 0.0004) / 10000) = 0.007068: [0.02 - 0.01865, 0.02 + 0.01865].
    assert low == pytest.approx(0.02 - 2.6383 * 0.0070682, abs=1e-4)
    assert high == pytest.approx(0.02 + 2.6383 * 0.0070682, abs=1e-4)


@pytest.mark.parametrize(
    "probabilities,seats",
    [([0.25] * 4, 4), ([0.28, 0.25, 0.24, 0.23], 4), ([0.2, 0.2, 0.2, 0.2, 0.2], 4), ([0.5, 0.5], 2)],
    ids=["equal", "unequal", "one-game-in-five-drawn", "two-seats"],
)
def test_seat_gap_coverage_on_simulated_multinomials(probabilities, seats):
    # The old percentile bootstrap covered an equal game's gap (0) in 0% of 600 cases. A
    # share past the seats is the games nobody won.
    from snakesim.analysis.stats import seat_gap

    rng = np.random.default_rng(17)
    probabilities = np.array(probabilities)
    truth = probabilities[:seats].max() - probabilities[:seats].min()
    games, covered, trials = 4000, 0, 600
    for _ in range(trials):
        counts = rng.multinomial(games, probabilities)
        _, low, high = seat_gap(counts[:seats], games)
        covered += low <= truth <= high
    assert covered / trials >= 0.94, covered / trials
