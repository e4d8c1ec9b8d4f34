"""What a reader is told is what the numbers say: censored lengths in `run`, full precision
in JSON, the same defaults in the API and on the command line, score means in every summary."""

import json

import pytest
from click.testing import CliRunner

import snakesim
from snakesim.cli import cli
from snakesim.core.tally import km_histogram_quantile


def invoke(*args):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r


def test_kaplan_meier_from_histograms_by_hand():
    # Lengths 10, 20, 30 ended; two games stopped at 40 (censored). S falls to 4/5 at 10,
    # 3/5 at 20, 2/5 at 30, then stays: the median is 30 and the 95th percentile is never reached.
    lengths, censored = {10: 1, 20: 1, 30: 1, 40: 2}, {40: 2}
    assert km_histogram_quantile(lengths, censored, 0.5) == 30
    assert km_histogram_quantile(lengths, censored, 0.2) == 10
    assert km_histogram_quantile(lengths, censored, 0.95) == float("inf")
    # A game censored early leaves fewer at risk: 10 (censored), 20, 30 ended: S = 1/2 at 20.
    assert km_histogram_quantile({10: 1, 20: 1, 30: 1}, {10: 1}, 0.5) == 20


def test_run_censors_unfinished_games_like_compare():
    args = ["fortune", "-p", 4, "-n", 4000, "--set", "turn_cap=150"]
    text = invoke("run", *args).stdout
    assert "mean at least" in text and "games unfinished at the cap" in text and "95th percentile not reached" in text
    s = json.loads(invoke("run", *args, "--json").stdout)
    length = s["length"]
    assert length["mean_is_lower_bound"] is True and length["p95"] is None and length["mean_ci"][1] is None
    table = json.loads(invoke("compare", *args, "-v", "standard", "--json").stdout)["rows"]
    km = {r["metric"]: r["value"] for r in table}
    assert length["median"] == km["length_median"]
    assert km["length_p95"] is None  # infinity is not JSON: null
    assert length["unfinished"] == round(s["unfinished_rate"] * 4000) > 0


def test_json_keeps_full_precision():
    # Rainbow's first seat wins clearly more often: the seat-balance p-value is tiny.
    rows = json.loads(invoke("compare", "rainbow", "-n", 20_000, "-v", "standard", "--json").stdout)["rows"]
    p = next(r["value"] for r in rows if r["metric"] == "seat_balance")
    table = snakesim.compare("rainbow", 4, 20_000, ["standard"])
    expected = table.loc[table["metric"] == "seat_balance", "value"].iloc[0]
    assert 0 < p < 1e-10 and p == pytest.approx(expected, rel=1e-12)  # it printed 0.0 once


def test_the_api_plays_the_commands_games():
    # The same defaults (seed 1): the API and the command line give the same numbers.
    s = json.loads(invoke("run", "rainbow", "-p", 3, "-n", 3000, "--json").stdout)
    df = snakesim.simulate("rainbow", players=3, games=3000)
    assert df.attrs["seed"] == s["seed"] == 1
    assert snakesim.summarize(df)["value"].tolist()[:3] == pytest.approx(s["win_rate"], abs=1e-12)


@pytest.mark.parametrize("game,column", [("hisss", "cards_0"), ("fortune", "coins_3"), ("sssnake", "missing_1")])
def test_every_summary_carries_its_score_means(game, column):
    s = json.loads(invoke("run", game, "-p", 4, "-n", 500, "--json").stdout)
    df = snakesim.simulate(game, players=4, games=500)
    assert s["means"][column] == pytest.approx(df[column].mean(), abs=1e-9)
