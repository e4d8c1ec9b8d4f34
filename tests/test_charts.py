"""The data the interactive charts draw (snakesim.report.charts): every point is the value
the tables give, with its interval."""

import numpy as np
import pytest

from snakesim.analysis.compare import compare_variants
from snakesim.analysis.stats import mean_interval, wilson
from snakesim.core.arms import Budget, RuleSource
from snakesim.games import get_game
from snakesim.report.charts import comparison_charts, spread_chart

FORTUNE = get_game("fortune")


@pytest.fixture(scope="module")
def fortune():
    table, tables = compare_variants(
        FORTUNE, 4, ["standard", "one-snake"], Budget(3000, 2), RuleSource(options={"feel": True})
    )
    return table, tables, {c["id"]: c for c in comparison_charts(FORTUNE, 4, table, tables)}


def test_win_rates_are_the_comparisons_rows(fortune):
    table, _, charts = fortune
    rows = table.set_index(["variant", "metric"])
    for series in charts["win-rates"]["series"]:
        assert [p[0] for p in series["points"]] == ["first", "second", "third", "fourth"]
        for seat, (_, value, low, high) in enumerate(series["points"]):
            row = f"win_rate.{seat}"
            assert [value, low, high] == list(rows.loc[(series["name"], row), ["value", "low", "high"]])


def test_lengths_are_shares_of_games_with_their_intervals(fortune):
    _, tables, charts = fortune
    for series in charts["length"]["series"]:
        lengths = tables[series["name"]]["length"].to_numpy()
        shares = [p[1] for p in series["points"]]
        assert sum(shares) == pytest.approx(1, abs=1e-12) and len(shares) <= 41
        first, share, low, high = series["points"][0]
        start, stop = (int(x) for x in str(first).split("-"))
        hits = int(((lengths >= start) & (lengths <= stop)).sum())
        assert share == pytest.approx(hits / len(lengths), abs=1e-15)
        assert (low, high) == pytest.approx(wilson(hits, len(lengths)), abs=1e-15)
        # The long tail is one last point, named so.
        last = series["points"][-1][0]
        assert str(last).endswith("+") and series["points"][-1][1] == pytest.approx(
            (lengths >= int(str(last)[:-1])).mean(), abs=1e-15
        )
    assert "the last point: every game of" in charts["length"]["x_label"]


def test_when_players_go_out(fortune):
    _, tables, charts = fortune
    for series in charts["out"]["series"]:
        out = tables[series["name"]][[f"out_at_{s}" for s in range(4)]].to_numpy(dtype=float, na_value=np.inf)
        second = np.sort(out, axis=1)[:, 1]  # (never out: null in the table, last here)
        second = second[np.isfinite(second)]
        name, value, low, high = series["points"][1]
        assert name == "2nd out"
        assert (value, low, high) == pytest.approx(mean_interval(second), rel=1e-12)
    assert charts["out"]["percent"] is False and [p[0] for p in charts["out"]["series"][0]["points"]] == [
        "1st out", "2nd out", "3rd out",
    ]  # fmt: skip


def test_the_winner_is_known_by_the_end_of_every_won_game(fortune):
    charts = fortune[2]
    for series in charts["known"]["series"]:
        assert series["points"][0][0] == "0%" and series["points"][-1][0] == "100%"
        assert series["points"][-1][1] == 1.0
        values = [p[1] for p in series["points"]]
        assert values == sorted(values)  # (a share that can only grow as the game goes on)
    # Its half-way share is not the words' "already lead alone half-way" (a family read 4% against
    # 21%): the summary says which winners it leaves out.
    assert "in front half-way who loses the lead later is not counted here" in charts["known"]["summary"]


def test_charts_only_where_they_say_something():
    plain = RuleSource(options={"feel": False})
    table, tables = compare_variants(get_game("hisss"), 3, ["standard"], Budget(500, 1), plain)
    ids = [c["id"] for c in comparison_charts(get_game("hisss"), 3, table, tables)]
    # Every 3-player Hisss game lasts as long (no length chart); no feel recorded; nobody goes out.
    assert ids == ["win-rates", "margin"]
    one = spread_chart("x", "t", "v", {"a": np.array([3, 3, 4])})
    assert [p[:2] for p in one["series"][0]["points"]] == [[3, pytest.approx(2 / 3)], [4, pytest.approx(1 / 3)]]
