"""Intervals against hand-computed values."""

import numpy as np
import pandas as pd
import pytest

from snakesim.core.stats import mean_interval, summarize, wilson


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
    assert s["win_rate"] == [0.4, 0.2, 0.0]
    assert s["draw_rate"] == 0.2 and s["unfinished_rate"] == 0.2
    assert s["length"]["median"] == 30 and s["length"]["max"] == 100 and s["length"]["mean"] == 40
    assert s["win_ci"][2][0] == pytest.approx(0.0, abs=1e-12) and s["win_ci"][2][1] > 0.3
