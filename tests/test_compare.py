"""Variant comparison: common random numbers really pair the games; every game works."""

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

import snakesim
from snakesim.cli import cli
from snakesim.core.arms import Budget
from snakesim.core.errors import InputError
from snakesim.games import GAMES


def test_identical_variants_differ_by_exactly_zero():
    # one-snake with snakes=2 is the standard game: on the same games every difference is 0.
    table = snakesim.compare("fortune", 3, 4000, ["standard", "one-snake"], seed=5, snakes=2)
    diffs = table.dropna(subset=["diff"])
    assert len(diffs) > 5
    assert (diffs["diff"] == 0).all() and (diffs["p_value"] == 1).all()
    # (a rate's interval does not shrink to [0, 0] on no discordant game: the games agree, which
    # 4,000 of them cannot show of every game; a mean's every paired difference is 0 there)
    assert (diffs["diff_low"] <= 0).all() and (diffs["diff_high"] >= 0).all()
    assert (diffs.loc[diffs["kind"] == "mean", ["diff_low", "diff_high"]] == 0).all().all()
    assert (diffs.loc[diffs["kind"] == "rate", "diff_high"] > 0).all()


def test_a_real_effect_is_found():
    table = snakesim.compare("fortune", 4, 20_000, ["standard", "one-snake"], seed=3)
    length = table[(table["metric"] == "length") & (table["variant"] == "one-snake")].iloc[0]
    assert length["diff_high"] < 0 and length["p_holm"] < 1e-6


def test_pairing_gain_is_measured_not_claimed():
    from snakesim.analysis.tallies import moments
    from snakesim.analysis.tallies import pairing_gain as from_moments

    def pairing_gain(a, b):  # (values in thousandths, as a tally keeps them: exact integers)
        x, y = np.rint(a * 1000).astype(np.int64), np.rint(b * 1000).astype(np.int64)
        return from_moments(moments(x), moments(y), moments(x - y), 1000, 0.95)

    rng = np.random.default_rng(4)
    a, b = rng.normal(size=20_000), rng.normal(size=20_000)
    unpaired, ratio, saved = pairing_gain(a, b)
    # Independent samples: no gain, and the unpaired width is 2 t sqrt(2 / n).
    assert ratio == pytest.approx(1.0, abs=0.03) and unpaired == pytest.approx(2 * 1.96 * np.sqrt(2 / 20_000), rel=0.03)
    # Strongly correlated samples: the paired width is sqrt(1 - rho) of the unpaired one.
    c = 0.9 * a + np.sqrt(1 - 0.81) * rng.normal(size=20_000)
    _, ratio, saved = pairing_gain(a, c)
    assert ratio == pytest.approx(np.sqrt(1 - 0.9), abs=0.02) and saved == pytest.approx(20_000 * 9, rel=0.1)


def test_the_deal_pairs_the_games_and_the_comparison_says_how_much():
    # POPPIES on ORCHIDS changes play only when the two meet: games stay alike long enough for
    # the pairing to narrow the length's interval by a fifth. The ratio is reported per row.
    table = snakesim.compare("rainbow", 4, 20_000, ["standard", "poppies-orchids"], seed=3)
    row = table[(table["metric"] == "length") & (table["variant"] == "poppies-orchids")].iloc[0]
    assert row["pairing_ratio"] < 0.85 and row["games_saved"] > 5_000
    r = CliRunner().invoke(cli, ["compare", "rainbow", "-n", 2000, "-v", "standard", "-v", "poppies-orchids"])
    assert r.exit_code == 0 and "pairing x0." in r.stdout


def test_holm_adjusts_every_comparison():
    table = snakesim.compare("rainbow", 3, 3000, ["standard", "wild-snake", "poppies-orchids"], seed=2)
    tested = table.dropna(subset=["p_value"])
    assert (tested["p_holm"] >= tested["p_value"]).all()
    assert table[table["p_value"].isna()]["p_holm"].isna().all()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_compares(game):
    variants = list(GAMES[game].rules.VARIANTS)[:2]
    table = snakesim.compare(game, 3, 1500, variants, seed=1)
    assert set(table["variant"]) == set(variants)
    assert {"win_rate.0", "draw", "first_player_advantage", "seat_balance", "seat_gap"} <= set(table["metric"])
    assert table["value"].notna().all()
    feel = {
        "lead_changes",
        "comeback",
        "decided",
        *(f"leads_alone_q{k}" for k in (1, 2, 3)),
    }
    # By default ("won on the tie-break" only in the game that has one); none with feel = false.
    assert feel <= set(table["metric"])
    assert ("tie_break" in set(table["metric"])) == (game == "hisss")
    table = snakesim.compare(game, 3, 300, variants, seed=1, settings=["feel=false"])
    assert not feel & set(table["metric"])


def test_every_row_names_its_unit():
    table = snakesim.compare("fortune", 3, 300, ["standard", "one-snake"], seed=1, settings=["feel=true"])
    units = dict(zip(table["metric"], table["unit"], strict=False))
    assert units["win_rate.0"] == units["out_share"] == "fraction"
    assert units["length"] == "cards drawn" and units["seat_balance"] == "p-value"
    assert units["lead_changes"] == "lead changes"
    hisss = snakesim.compare("hisss", 3, 300, ["standard"], seed=1)
    assert dict(zip(hisss["metric"], hisss["unit"], strict=False))["margin"] == "cards"


def test_no_margin_where_the_winner_is_the_last_player_left():
    """In Fortune the next seat has nothing at the end: a "margin" would only count the coins
    still out of the cup, so it is not reported."""
    table = snakesim.compare("fortune", 3, 300, ["standard", "one-snake"], seed=1)
    assert not any(m.startswith("margin") for m in table["metric"])


def test_the_winner_known_rows_count_games_whose_winner_leads_alone_then():
    table = snakesim.compare("hisss", 4, 3000, ["standard"], seed=5, settings=["feel=true"])
    df = snakesim.simulate("hisss", 4, 3000, seed=5, settings=["feel=true"])
    row = table.set_index("metric").loc["leads_alone_q2"]
    expected = (df["leader_q2"] == df["winner"]).fillna(False).mean()  # (over every game: no leader, null)
    assert row["value"] == pytest.approx(expected, abs=1e-12)
    assert 0.2 < row["value"] < 0.8 and row["low"] < row["value"] < row["high"]


def test_the_feel_figures_compare_paired():
    table = snakesim.compare("fortune", 4, 2000, ["standard", "one-snake"], seed=3, settings=["feel=true"])
    rows = table.set_index(["variant", "metric"])
    changes = rows.loc[("one-snake", "lead_changes")]
    assert changes["value"] > 0 and changes["low"] <= changes["value"] <= changes["high"]
    assert changes["diff_low"] <= changes["diff"] <= changes["diff_high"] and np.isfinite(changes["p_holm"])
    out = rows.loc[("standard", "out_share")]
    assert 0 < out["value"] < 1


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"variants": ["standard", "standard"]}, "--variant"),
        ({"variants": ["standard", "nope"]}, "variant"),
        ({"variants": []}, "--variant"),
    ],
)
def test_bad_variants_are_refused_before_playing(kwargs, field):
    with pytest.raises(InputError) as err:
        snakesim.compare("fortune", 4, 10, **kwargs)
    assert err.value.field == field


def test_cli_compare_text_and_json():
    runner = CliRunner()
    r = runner.invoke(cli, ["compare", "fortune", "-p", "3", "-n", "3000", "-v", "standard", "-v", "one-snake"])
    assert r.exit_code == 0, r.output
    assert "baseline: standard" in r.stdout and "length (cards drawn)" in r.stdout and "p(Holm)" in r.stdout
    # Every assumption is printed: the values' level, and each difference's own (Holm) level.
    assert "values with their 95% intervals" in r.stdout and "players in turn order" not in r.stdout  # (no choices)
    levels = re.findall(r"\] at (\d+(?:\.\d+)?)%  p\(Holm\)", r.stdout)
    assert len(levels) >= 5 and all(95 <= float(x) < 100 for x in levels), levels
    mix = ["-v", "standard", "-v", "mix=standard,policy=random"]
    r = runner.invoke(cli, ["compare", "rainbow", "-p", "2", "-n", "500", *mix])
    assert "players in turn order, seat 0 first: standard: greedy, greedy; mix: random, random" in r.stdout, r.stdout
    r = runner.invoke(
        cli, ["compare", "hisss", "-p", "3", "-n", "2000", "-v", "standard", "-v", "claim-joined", "--json"]
    )
    s = json.loads(r.stdout)
    assert s["variants"] == ["standard", "claim-joined"] and s["options"]["claim-joined"]["claim_joined"] is True
    assert s["level"] == 0.95 and s["policies"] == {"standard": ["greedy"] * 3, "claim-joined": ["greedy"] * 3}
    assert {row["metric"] for row in s["rows"]} >= {"win_rate.0", "margin"}
    r = runner.invoke(cli, ["compare", "fortune", "-v", "standard", "-v", "nope"])
    assert r.exit_code == 2 and "variant: unknown variant 'nope'" in r.stderr


def test_precision_adds_blocks_until_the_intervals_are_narrow_enough():
    table = snakesim.compare("fortune", 2, 2000, ["standard", "rejoin"], seed=4, precision=0.01)
    stop = table.attrs["stopping"]
    assert stop["reached"] and stop["games"] % 2000 == 0 and stop["games"] > 2000
    wins = table[table["metric"].str.startswith("win_rate.")]
    assert len(wins) == 4 and ((wins["high"] - wins["low"]) / 2).max() <= 0.01
    # The blocks are the next game indices: the result equals one run of as many games.
    once = snakesim.compare("fortune", 2, stop["games"], ["standard", "rejoin"], seed=4)
    assert np.allclose(once["value"], table["value"]) and np.allclose(once["diff"], table["diff"], equal_nan=True)


def test_precision_stops_at_the_cap():
    table = snakesim.compare("fortune", 3, 1000, ["standard"], seed=4, precision=0.0001, max_games=3000)
    assert table.attrs["stopping"] == {**table.attrs["stopping"], "games": 3000, "reached": False}


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"precision": 0.0}, "--precision"),
        ({"precision": -1.0}, "--precision"),
        ({"precision": 0.01, "max_games": 10}, "--max-games"),
    ],
)
def test_bad_precision(kwargs, field):
    with pytest.raises(InputError) as err:
        snakesim.compare("fortune", 3, 1000, ["standard"], **kwargs)
    assert err.value.field == field


def test_figures_of_a_comparison(tmp_path):
    from snakesim.analysis.compare import compare_variants
    from snakesim.report.figures import survival_figure, win_rates_figure

    table, tables = compare_variants(GAMES["rainbow"], 3, ["standard", "wild-snake"], Budget(2000, 1))
    fig = win_rates_figure(table)
    ax = fig.axes[0]
    assert len(ax.containers) == 2  # one error-bar set per variant
    assert [t.get_text() for t in ax.get_xticklabels()] == ["first player", "second player", "third player"]
    fig = survival_figure(tables)
    assert len(fig.axes[0].lines) == 2
    # Each curve starts at 1 and falls to 0: every game ended.
    for line in fig.axes[0].lines:
        y = line.get_ydata()
        assert y[0] <= 1 and y[-1] == 0 and (np.diff(y) <= 0).all()


def test_cli_compare_plot(tmp_path):
    out = tmp_path / "figs"
    args = ["compare", "hisss", "-p", "3", "-n", "1500", "-v", "standard", "-v", "most-snakes", "--set", "feel=false"]
    r = CliRunner().invoke(cli, [*args, "--plot", out])
    assert r.exit_code == 0, r.output
    for name in ("win-rates.png", "scores.png"):
        data = (out / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    assert not (out / "feel.png").exists() and "feel.png" not in r.output  # (no feel figures recorded)
    # Every 3-player Hisss game lasts 49 turns: no length figure, the findings say it.
    assert not (out / "length.png").exists() and "lasts 49 turns" in r.output
    r = CliRunner().invoke(cli, ["compare", "fortune", "-p", "3", "-n", "500", "--plot", out / "f"])
    assert r.exit_code == 0 and (out / "f" / "length.png").stat().st_size > 10_000
    args = ["compare", "hisss", "-p", "3", "-n", "1500", "-v", "standard", "-v", "most-snakes"]  # (feel: the default)
    r = CliRunner().invoke(cli, [*args, "--plot", out])
    assert r.exit_code == 0 and "feel.png" in r.output and (out / "feel.png").stat().st_size > 10_000


def test_the_feel_figure_shows_when_the_winner_is_known():
    from snakesim.report.figures import feel_figure

    tables = {v: snakesim.simulate("hisss", 4, 2000, seed=4, variant=v, settings=["feel=true"])
              for v in ("standard", "most-snakes")}  # fmt: skip
    known, changes = feel_figure(tables).axes
    # Per arm: the share of won games already settled, rising from 0 to (nearly) 1, and the
    # leader-then-wins dots; the lead-change shares of each arm add up to 1.
    settled = [line for line in known.lines if line.get_label().endswith("winner leads for good")]
    assert len(settled) == 2
    for line in settled:
        y = line.get_ydata()
        assert y[0] < 0.05 and y[-1] > 0.9 and (np.diff(y) >= 0).all()
    df = tables["standard"]
    won = df[df["winner"] >= 0]
    half = settled[0].get_ydata()[50]
    assert half == pytest.approx((won["decided"] <= 0.5).mean(), abs=1e-12)
    for line in changes.lines:
        assert line.get_ydata().sum() == pytest.approx(1.0, abs=1e-9)


def test_rare_binary_differences_use_mcnemars_exact_test():
    from snakesim.analysis.stats import paired_binary_difference

    # 2 games drawn in one arm, none in the other, all else alike: the paired t said p = 0.157;
    # two discordant games split 2-0 have p = 2 * (1/2)**2 = 0.5.
    a, b = np.zeros(1000, bool), np.zeros(1000, bool)
    a[[3, 7]] = True
    diff, low, high, p, test = paired_binary_difference(a, b)
    assert test == "exact McNemar" and p == pytest.approx(0.5, abs=1e-12) and diff == pytest.approx(0.002)
    assert low < 0 < high
    # 9 of 10 discordant games one way: p = 2 * 11 / 1024; the interval excludes 0 exactly when p < 0.05.
    a, b = np.zeros(1000, bool), np.zeros(1000, bool)
    a[:9], b[9] = True, True
    _, low, high, p, _ = paired_binary_difference(a, b)
    assert p == pytest.approx(22 / 1024, abs=1e-12) and low > 0
    _, low, _, _, _ = paired_binary_difference(a, b, level=1 - p + 1e-9)
    assert low < 0 < p  # at the level of its own p-value, the interval just reaches 0
    # Many discordant games: the paired t, as before.
    rng = np.random.default_rng(1)
    assert paired_binary_difference(rng.random(5000) < 0.3, rng.random(5000) < 0.3)[4] == "paired t"


@pytest.mark.parametrize(
    "game,variants,games,seed",
    [
        # Seed 3: rejoin's seat 3 has p = 0.041 but p(Holm) = 0.33; its unadjusted interval
        # excluded 0 beside no star. Now that interval is drawn at its Holm step's level.
        ("fortune", ["standard", "one-snake", "rejoin"], 20_000, 3),
        ("rainbow", ["standard", "wild-snake", "poppies-orchids"], 30_000, 7),
    ],
)
def test_stars_and_intervals_say_the_same_thing(game, variants, games, seed):
    table = snakesim.compare(game, 4, games, variants, seed=seed)
    diffs = table.dropna(subset=["diff"])
    assert game != "fortune" or ((diffs["p_value"] < 0.05) & (diffs["p_holm"] >= 0.05)).any()  # the case is here
    excludes_zero = (diffs["diff_low"] > 0) | (diffs["diff_high"] < 0)
    starred = diffs["p_holm"] < 0.05
    assert (excludes_zero == starred).all(), diffs[excludes_zero != starred][["variant", "metric", "p_holm"]]
    # Unfinished games never happen at the default cap: an identically zero difference is left
    # out of the family (p_holm 1), so it does not make the others' adjustment harsher.
    unfinished = diffs[diffs["metric"] == "unfinished"]
    assert (unfinished["p_holm"] == 1).all() and (unfinished["diff"] == 0).all()
    family = diffs[(diffs["p_holm"] < 1) | (diffs["p_value"] < 1)]
    assert (family["p_holm"] >= family["p_value"] - 1e-15).all()


def test_a_duplicate_difference_is_not_counted_twice():
    from snakesim.analysis.compare import compare_tables
    from snakesim.games import get_game

    # Two-player Fortune without FOUNTAIN (the only card that can put both out at once): no
    # game is drawn or unfinished, so first-player advantage repeats seat 0's wins.
    no_draws = dict(players=2, games=3000, seed=2, start_coins=3, settings=["deck.FOUNTAIN=0", "feel=false"])
    a = snakesim.simulate("fortune", **no_draws)
    b = snakesim.simulate("fortune", **no_draws, snakes=1)
    assert (a["outcome"] == "win").all() and (b["outcome"] == "win").all()
    table = compare_tables(get_game("fortune"), {"two": a, "one": b}).set_index("metric")
    row = table[table["variant"] == "one"]
    assert row.loc["first_player_advantage", "p_holm"] == row.loc["win_rate.0", "p_holm"]
    tested = row.dropna(subset=["p_value"])
    # The family: seat 0 wins, seat 1 wins, length, margin (seat 1 is seat 0's mirror, but its
    # difference has the other sign, so it counts: only identical differences are merged).
    assert (tested["p_holm"] <= np.minimum(1, tested["p_value"] * 4) + 1e-12).all()


def test_the_margin_counts_what_each_rule_set_scores():
    # Scoring by snakes, the margin is in snakes; beside the card-scoring game each arm keeps
    # its own margin and no difference is taken between a count of cards and one of snakes.
    alone = snakesim.compare("hisss", 4, 2000, ["most-snakes"], seed=2).set_index("metric")
    df = snakesim.simulate("hisss", 4, 2000, seed=2, variant="most-snakes")
    snakes = np.sort(df[[f"snakes_{s}" for s in range(4)]].to_numpy(), axis=1)
    assert alone.loc["margin", "value"] == pytest.approx((snakes[:, -1] - snakes[:, -2]).mean(), abs=1e-12)
    both = snakesim.compare("hisss", 4, 2000, ["standard", "most-snakes"], seed=2)
    rows = both[both["metric"] == "margin"].set_index("variant")
    assert rows.loc["most-snakes", "value"] < 2 < rows.loc["standard", "value"] and rows["diff"].isna().all()


def test_fortunes_score_figure_shows_when_players_go_out():
    from snakesim.games import get_game
    from snakesim.report.figures import scores_figure

    tables = {v: snakesim.simulate("fortune", 4, 1000, seed=3, variant=v) for v in ("standard", "one-snake")}
    ax = scores_figure(tables, get_game("fortune"), 4).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1st out", "2nd out", "3rd out"]
    # The first player out, in the median game, goes before the second, who goes before the third.
    for line in ax.lines[:1]:
        y = line.get_ydata()
        assert y[0] < y[1] < y[2]


def test_compare_over_several_player_counts_in_one_command(monkeypatch):
    args = ["compare", "hisss", "-p", "2,3", "-n", "400", "-v", "standard", "-v", "most-snakes"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert "\n2 players, 400 games per rule set" in r.output and "\n3 players, 400 games per rule set" in r.output
    assert "Every 2-player Hisss game lasts 49 turns" in r.output and "Every 3-player Hisss game" in r.output
    s = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert s["players"] == [2, 3] and {r["players"] for r in s["rows"]} == {2, 3}
    assert {f["players"] for f in s["findings"]} == {2, 3} and set(s["runs"]) == {"2", "3"}
    # A player count the game refuses stops the command before any game, even after good ones.
    import snakesim.analysis.compare as compare_module

    monkeypatch.setattr(compare_module, "compare_variants", lambda *a, **k: pytest.fail("a game was played"))
    r = CliRunner().invoke(cli, ["compare", "hisss", "-p", "2,9", "-n", "100"])
    assert r.exit_code == 2 and "players: expected an integer from 2 to 8, got 9" in r.output


def test_the_tie_break_share_needs_no_feel():
    # Read off the final scores, it equals the feel column's count game for game.
    plain = snakesim.compare("hisss", 4, 3000, ["most-snakes"], seed=6).set_index("metric")
    df = snakesim.simulate("hisss", 4, 3000, seed=6, variant="most-snakes", settings=["feel=true"])
    won_so = (df["tie_break"] == 1).fillna(False).mean()  # (over every game: a drawn game has no tie-break, null)
    assert plain.loc["tie_break", "value"] == pytest.approx(won_so, abs=1e-12)
    assert 0.2 < plain.loc["tie_break", "value"] < 0.5


def test_a_rare_events_difference_keeps_an_interval_around_zero():
    """The exact conditional interval alone holds the discordant games' number fixed: with 3 games
    one way it ended on its estimate (+0.00015 in [-0.000102, +0.00015]), with none it was [0, 0].
    Joined with Tango's score interval it holds 0 strictly inside, and the p-value stays exact."""
    from snakesim.analysis.stats import paired_binary_difference, tango_interval

    z2 = 1.959963984540054**2
    a, b = np.zeros(20_000, bool), np.zeros(20_000, bool)
    diff, low, high, p, test = paired_binary_difference(a, b)
    assert (diff, p, test) == (0.0, 1.0, "exact McNemar")
    assert low == pytest.approx(-z2 / (20_000 + z2), rel=1e-6) and high == pytest.approx(z2 / (20_000 + z2), rel=1e-6)
    a[[5, 50, 500]] = True  # three games drawn in one arm alone
    diff, low, high, p, _ = paired_binary_difference(a, b)
    assert diff == pytest.approx(0.00015) and low < 0 < diff < high and p == pytest.approx(0.25, abs=1e-12)
    tango = tango_interval(3, 0, 20_000)
    assert high == pytest.approx(tango[1], rel=1e-9) and low <= tango[0]  # (the two joined: the wider end each side)


def test_tango_interval_covers_the_true_difference_at_rare_rates():
    """Coverage by simulation: the discordant games drawn at rates from 1e-5 to 1e-2 of 20,000
    games, with no true difference and with one arm's twice the other's."""
    from snakesim.analysis.stats import tango_interval

    rng = np.random.default_rng(7)
    n, reps = 20_000, 400
    for rate in (1e-5, 1e-4, 1e-3, 1e-2):
        for ratio in (1.0, 2.0):
            up, down = rate * ratio / (1 + ratio), rate / (1 + ratio)
            draws = rng.multinomial(n, [up, down, 1 - up - down], size=reps)
            covered = [lo <= up - down <= hi for lo, hi in (tango_interval(u, d, n) for u, d, _ in draws)]
            assert np.mean(covered) >= 0.92, (rate, ratio, np.mean(covered))


@pytest.mark.parametrize("level", [0.95, 0.995])
def test_the_joined_interval_excludes_zero_exactly_when_the_exact_test_rejects(level):
    """Every split of fewer than 100 discordant games of 20,000 (the exact test's range), at the
    ordinary level and a Holm step's: the joined interval excludes 0 iff p < 1 - level."""
    from scipy import stats

    from snakesim.analysis.stats import EXACT_BELOW, tango_interval

    for discordant in range(1, EXACT_BELOW):
        for up in range(discordant + 1):
            p = min(1.0, 2 * min(stats.binom.cdf(up, discordant, 0.5), stats.binom.sf(up - 1, discordant, 0.5)))
            if p < 1 - level:  # (the exact interval excludes 0: Tango's must too, on the same side)
                low, high = tango_interval(up, discordant - up, 20_000, level)
                assert (low > 0) if up * 2 > discordant else (high < 0), (discordant, up, p, low, high)


def test_a_differences_interval_never_rounds_an_end_onto_what_matters_or_onto_0():
    """[+0.4, +3.0] against 3 points that matter was "negligible" in one comparison and
    "undecided" in another (its ends 2.98 and 3.05); an end of -0.4 points showed as "+0"."""
    from snakesim.questions.compare import diff_places

    row = {"diff": 0.017, "diff_low": 0.0042, "diff_high": 0.0298, "margin": 0.03}
    assert diff_places(row, 100) == 2  # (one decimal would show 3.0, on the margin)
    row.update(diff_high=0.0305)
    assert diff_places(row, 100) == 2
    row.update(diff_high=0.0250)
    assert diff_places(row, 100) == 1  # (nothing near a mark: the width's decimals)
    wide = {"diff": 0.01, "diff_low": -0.004, "diff_high": 0.04, "margin": 0.01}
    assert diff_places(wide, 100) == 1  # (-0.4, not "+0")
    # The estimate, against 0: 25.9% -> 25.5% showed as "+0 pp [-3, +2]".
    assert diff_places({"diff": -0.004, "diff_low": -0.03, "diff_high": 0.02, "margin": 0.01}, 100) == 1
    # Exactly on a mark stays as it is; a row without a margin looks only at 0.
    assert diff_places({"diff": 0.5, "diff_low": 0.0, "diff_high": 1.0}, 1) == 1  # (a width of 1: one decimal)
    assert diff_places({"diff": 2.0, "diff_low": 1.0, "diff_high": 5.0, "margin": float("nan")}, 1) == 0
