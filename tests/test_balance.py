"""balance and tune: known answers (a game unbalanced on purpose, a symmetric seat, a target
read off the game itself), verdicts that say when a handicap cannot fix a game, the search's
common random numbers, and bad input."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import snakesim
import snakesim.analysis.balance as balance_module
from snakesim.analysis.balance import as_good_as, clearly_better, moves, seat_rates, two_step_moves
from snakesim.analysis.search import SameGames, check_metric, metric_value
from snakesim.core.errors import InputError
from snakesim.games import get_game
from tests.test_cli import invoke

SMALL = {"games": 10_000, "max_games": 80_000, "confirm_games": 40_000}


def test_same_games_extends_without_changing_a_game():
    spec = get_game("rainbow")
    rules = spec.rules()
    search = SameGames(spec, 3, seed=7, first=100, seats=("greedy",) * 3)
    part = search.games(rules, 300)["winner"].copy()
    whole = search.games(rules, 1000)
    direct = snakesim.simulate("rainbow", 3, 1000, seed=7, first=100)
    assert np.array_equal(whole["winner"][:300], part) and np.array_equal(whole["winner"], direct["winner"])
    assert np.array_equal(whole["length"], direct["length"]) and search.played == 1000


def test_moves_stay_in_range_and_the_same_games_are_never_clearly_better():
    assert moves((3, 3), 3, 4) == [(4, 3), (3, 4)]
    assert sorted(moves((5, 5, 5), 0, 9)) == sorted(
        {(6, 5, 5), (5, 6, 6), (4, 5, 5), (5, 4, 4), (5, 6, 5), (6, 5, 6), (5, 4, 5), (4, 5, 4), (5, 5, 6),
         (6, 6, 5), (5, 5, 4), (4, 4, 5)}
    )  # fmt: skip
    rng = np.random.default_rng(1)
    wins = rng.integers(0, 3, 5000)[:, None] == np.arange(3)[None, :]
    a, b = seat_rates((1, 1, 1), wins), seat_rates((2, 1, 1), wins)
    assert not clearly_better(a, b, 1) and not clearly_better(b, a, 1)
    assert abs(a.deviation.sum()) < 1e-12 and np.all(a.half > 0)


def test_two_step_moves_and_candidates_as_good():
    assert sorted(two_step_moves((3, 3), 2, 4)) == [(2, 2), (2, 4), (4, 2), (4, 4)]  # (not (3, 3) or one step)
    assert all(max(abs(a - b) for a, b in zip(m, (5, 5, 5), strict=True)) <= 2 for m in two_step_moves((5, 5, 5), 0, 9))
    rng = np.random.default_rng(2)
    seat = rng.integers(0, 3, 20_000)
    even = seat_rates((1, 1, 1), seat[:, None] == np.arange(3)[None, :])
    tilted = np.where(rng.random(20_000) < 0.1, 0, seat)  # seat 0 also wins a tenth of the others' games
    lopsided = seat_rates((2, 1, 1), tilted[:, None] == np.arange(3)[None, :])
    noisy = seat_rates((1, 2, 1), np.roll(seat, 1)[:, None] == np.arange(3)[None, :])  # as even, other luck
    assert [ev.values for ev in as_good_as(even, [lopsided, noisy])] == [(1, 2, 1)]


def test_the_answer_is_the_best_candidate_on_the_last_games():
    # The search moves only on a clear win; the answer is the best by estimate of every
    # candidate played on its last games, and the runner-up is confirmed too.
    fix = snakesim.balance("fortune", 3, "start_coins", settings=["start_coins=[20,17,20]"], games=5000,
                           max_games=20_000, confirm_games=10_000)  # fmt: skip
    last = fix.path[fix.path["games"] == fix.summary["search"]["games_per_candidate"]]
    assert fix.summary["recommended"]["imbalance"] == pytest.approx(last["imbalance"].min(), rel=1e-12)
    assert fix.summary["runner_up"] is not None and fix.summary["runner_up"]["values"] != fix.values
    assert all(c["imbalance"] >= fix.summary["recommended"]["imbalance"] for c in fix.summary["as_good"])


@pytest.mark.slow
def test_balance_of_hisss_start_points_ends_within_tolerance():
    # The case: the search stood on [0, 2, 1, 1] while [0, 2, 2, 1] was ahead in every
    # round; [0, 2, 2, 1] keeps every seat within the point on fresh games.
    fix = snakesim.balance("hisss", 4, "start_points")
    assert fix.values == [0, 2, 2, 1] and fix.status == "balanced", fix.message
    assert fix.summary["fresh_max_deviation"] < 0.01


def test_balance_undoes_a_handicap_given_on_purpose():
    # Fortune's seats are within a point of each other with equal starts; seat 2 starting 4
    # coins short loses far more often. The fix must give seat 2 the others' start again: the
    # answer (the best by estimate) or one as good as it is an equal start (a shift is allowed).
    fix = snakesim.balance("fortune", 4, "start_coins", settings=["start_coins=[20,20,16,20]"], **SMALL)
    assert fix.base == [20, 20, 16, 20]
    answers = [fix.values] + [c["values"] for c in fix.summary["as_good"]]
    assert any(len(set(v)) == 1 for v in answers), answers
    assert max(fix.values) - min(fix.values) <= 1 and fix.values[2] >= 19, fix.values
    # (within a point on the search's games, which chose it; the fresh games cannot show it: not "balanced")
    assert fix.status == "within tolerance by estimate" and "search's games, which chose it" in fix.message
    assert "fresh games this answer leaves the fourth player 1.2 percentage points off" in fix.message, fix.message
    assert fix.summary["runner_up"]["values"] != fix.values and len(fix.summary["runner_up"]["win_rate"]) == 4
    before, after = fix.summary["before"], fix.summary["after"]
    assert before["win_rate"][2] < 0.21 and before["balance_p"] < 1e-10
    # (the best by estimate of many candidates is a little lucky: on fresh games, within 2 points)
    assert max(abs(r - 0.25) for r in after["win_rate"]) < 0.02 and after["balance_p"] > before["balance_p"]
    assert fix.path["moved"].sum() >= 2 and set(fix.confirmed["rules"]) == {"before", "after"}
    assert fix.summary["confirm"]["first"] == fix.summary["search"]["games_per_candidate"]  # fresh games


def test_balance_says_when_the_handicap_is_too_coarse(monkeypatch):
    # Rainbow's first seat wins ~30% of 4-player games; one card of hand size moves a seat by
    # about 4 points, so half a point cannot be reached.
    real, screened = balance_module.two_step_moves, []
    monkeypatch.setattr(balance_module, "two_step_moves", lambda v, lo, hi: screened.append(v) or real(v, lo, hi))
    fix = snakesim.balance(
        "rainbow", 4, "hand_size", tolerance=0.005, games=5000, max_games=20_000, confirm_games=20_000
    )
    # Every single step was surely worse, so two-step moves were screened before stopping and
    # the most promising played on the last games.
    last = fix.path[fix.path["games"] == fix.path["games"].max()]
    two_steps = set(real(screened[-1], *fix.summary["range"]))
    assert screened and sum(tuple(v) in two_steps for v in last["values"]) >= balance_module.TWO_STEP_FINALISTS
    # (the fresh games show a seat surely beyond half a point: not balanced, the search's own
    # "cannot balance" and why, too coarse, said after it as its own)
    assert fix.status == "not balanced" and fix.summary["search"]["status"] == "cannot balance", fix.message
    assert "the search, on its own games: " in fix.message and "too coarse" in fix.message, fix.message
    assert fix.values[0] > min(fix.values[1:]), fix.values  # the first seat holds more cards
    assert fix.summary["after"]["gap"][0] < fix.summary["before"]["gap"][0] / 2
    assert all(e is not None and abs(e) > 0.02 for e in fix.summary["step_effect"])


def test_tune_finds_the_symmetric_value_and_a_target_read_off_the_game():
    # Two seats with the same rules: seat 1 wins half the games when it starts with seat 0's
    # 20 coins, so tuning seat 1's start for a win rate of 0.5 must land next to 20.
    r = snakesim.tune("fortune", 2, "win_rate.1=0.5", "start_coins.1=5:35", **SMALL)
    assert r.best in (19, 20, 21) and r.status in ("met", "nearest"), r.message
    assert r.summary["interval"][0] is not None and r.summary["interval"][0] <= 21 and r.summary["interval"][1] >= 19
    # The runner-up (the next nearest on the search's games) is confirmed on the same fresh games.
    runner_up = r.summary["runner_up"]
    assert runner_up["value"] != r.best and abs(runner_up["value"] - r.best) <= 2, runner_up
    assert runner_up["ci"][0] <= runner_up["metric"] <= runner_up["ci"][1] and r.best not in r.summary["as_good"]
    # "Values played" counts each value once, however many rounds played it (it said 18 for a
    # range of 11 values), and every value shown beside the answer was played.
    search, shown = r.summary["search"], {n["value"] for n in r.summary["neighbours"]}
    values = set(r.path["value"]) | shown
    assert search["values_played"] == len(values) <= 35 - 5 + 1 and search["rounds"] == len(r.path)
    # The median length at 13 coins, from other games (seed 2), is the target: the answer is 13.
    median = metric_value(SameGames(get_game("fortune"), 4, 2).games(get_game("fortune").rules(start_coins=13), 20_000),
                          "length.median")[0]  # fmt: skip
    r = snakesim.tune("fortune", 4, f"length.median={median}", "start_coins=5:40", **SMALL)
    assert r.best == 13, (median, r.message)
    assert list(r.answer["value"][~r.answer["fresh"]]) == [12, 13, 14] or 13 in list(r.answer["value"])


def test_tune_says_when_a_target_is_out_of_reach():
    r = snakesim.tune(
        "fortune", 4, "length.median=3", "start_coins=5:40", games=2000, max_games=2000, confirm_games=2000
    )
    assert r.status == "out of reach" and r.best == 5 and "out of reach" in r.message


def test_balance_and_tune_json():
    out = invoke("balance", "fortune", "-p", 3, "--handicap", "start_coins", "--set", "start_coins=[20,17,20]",
                 "-n", 5000, "--max-games", 20_000, "--confirm-games", 10_000, "--json")  # fmt: skip
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert len(data["values"]) == 3 and len(data["win_rate"]) == 3 and len(data["win_ci"]) == 3
    assert data["policies"] == [] and data["level"] == 0.95  # (Fortune's players make no choices)
    assert data["values"][0] == data["values"][2] and data["before"]["win_rate"][1] < data["after"]["win_rate"][1]
    assert data["path"][0]["values"] == [20, 17, 20]
    # The text says which rules it balanced (--set), and its distances are in percentage points
    # (a Hisss designer read "within 1 point" as game points, and missed the --set).
    text = invoke("balance", "fortune", "-p", 3, "--handicap", "start_coins", "--set", "start_coins=[20,17,20]",
                  "-n", 5000, "--max-games", 20_000, "--confirm-games", 10_000).stdout  # fmt: skip
    assert "(3 players, standard with start_coins=[20,17,20], seed 1)" in text
    assert "percentage point" in text and " points" not in text.replace("percentage points", "")
    out = invoke("tune", "fortune", "--target", "length.mean=80", "--vary", "start_coins=5:40", "-n", 2000,
                 "--max-games", 8000, "--confirm-games", 2000, "--json")  # fmt: skip
    data = json.loads(out.stdout)
    assert data["policies"] == [] and data["level"] == 0.95
    assert 5 <= data["value"] <= 40 and data["metric"]["ci"][0] <= data["metric"]["value"] <= data["metric"]["ci"][1]
    text = invoke("tune", "fortune", "--target", "length.mean=80", "--vary", "start_coins=5:40", "-n", 2000,
                  "--max-games", 8000, "--confirm-games", 2000).stdout  # fmt: skip
    assert "<- best" in text and "confirmed on 2,000 fresh games" in text


@pytest.mark.parametrize(
    "args,message",
    [
        (["balance", "fortune", "--handicap", "snakes"], "--handicap: 'snakes' is not a per-seat option of fortune"),
        (["balance", "fortune", "--handicap", "start_coins", "--tolerance", "0"], "--tolerance: expected a win-rate"),
        (["balance", "fortune", "--handicap", "start_coins", "--range", "30:10"], "--range: expected 1 <= LOW < HIGH"),
        (["balance", "fortune", "--handicap", "start_coins", "--range", "1:5"], "--range: the starting values"),
        (["balance", "fortune", "--handicap", "start_coins", "-n", 10], "--games: expected an integer from 100"),
        (["balance", "rainbow", "--handicap", "hand_size", "-n", 1000, "--max-games", 500], "--max-games"),
        (["tune", "fortune", "--target", "speed=3", "--vary", "start_coins=5:40"], "--target: unknown metric 'speed'"),
        (
            ["tune", "fortune", "--target", "length.mean", "--vary", "start_coins=5:40"],
            "--target: expected METRIC=VALUE",
        ),
        (["tune", "fortune", "--target", "win_rate.7=0.2", "--vary", "start_coins=5:40"], "a seat from 0 to 3"),
        (["tune", "fortune", "--target", "means.gold_0=1", "--vary", "start_coins=5:40"], "unknown column 'gold_0'"),
        (["tune", "fortune", "--target", "length.mean=9", "--vary", "nope=1:3"], "--vary: expected NAME=LOW:HIGH"),
        (["tune", "fortune", "--target", "length.mean=9", "--vary", "start_coins.9=1:3"], "from 0 to 3"),
        (["tune", "fortune", "--target", "length.mean=9", "--vary", "start_coins=0:3"], "--vary: expected 1 <= LOW"),
        (["tune", "rainbow", "--target", "length.mean=9", "--vary", "hand_size=5:40"], "hand_size: dealing"),
    ],
)
def test_bad_input_is_one_line(args, message):
    r = invoke(*args)
    assert r.exit_code == 2 and r.stdout == "", r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr


def test_plots_are_written(tmp_path):
    small = ["-n", 1000, "--max-games", 2000, "--confirm-games", 1000]
    r = invoke("balance", "fortune", "-p", 3, "--handicap", "start_coins", *small, "--plot", tmp_path / "b.png")
    assert r.exit_code == 0, r.stderr
    r = invoke("tune", "fortune", "--target", "length.mean=50", "--vary", "start_coins=5:20", *small,
               "--plot", tmp_path / "t.png")  # fmt: skip
    assert r.exit_code == 0, r.stderr
    assert [(tmp_path / n).read_bytes()[:4] for n in ("b.png", "t.png")] == [b"\x89PNG"] * 2
    r = invoke("balance", "fortune", "--handicap", "start_coins", "--plot", tmp_path / "b.txt")
    assert r.exit_code == 2 and "--plot: expected a file ending in .png" in r.stderr
    assert not (tmp_path / "b.txt").exists()


def test_the_tune_band_is_solved_exactly_between_integers():
    # The case: 12 coins give a median of 54 [53, 54], 13 give 61 [61, 61]; a target
    # of 60 is met at 12 + 6/7, on the band's edge, which a grid over 5..40 stepped over.
    from snakesim.analysis.tune import _band_segment, _interpolate

    assert _band_segment(53, 61, 54, 61, 60) == pytest.approx((6 / 7, 7 / 8), abs=1e-12)
    assert _band_segment(53, 61, 54, 61, 70) is None
    estimate, interval = _interpolate({11: (47, 47, 47), 12: (54, 53, 54), 13: (61, 61, 61), 14: (69, 68, 69)}, 60)
    assert estimate == pytest.approx(12 + 6 / 7, abs=1e-12)
    assert interval == pytest.approx([12 + 6 / 7, 12.875], abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(0, 5), st.floats(0, 5)), min_size=2, max_size=5),
       st.floats(0, 1))  # fmt: skip
def test_the_tune_band_holds_its_estimate(points, where):
    # Any intervals that hold their estimates, any target between two of them: the band
    # (without the final guard) holds the interpolated value, up to rounding.
    from snakesim.analysis.tune import _band, _interpolate

    figures = {x: (v, v - below, v + above) for x, (v, below, above) in enumerate(points)}
    values = [v for v, _, _ in figures.values()]
    goal = min(max(min(values) + where * (max(values) - min(values)), min(values)), max(values))  # (rounding)
    estimate, interval = _interpolate(figures, goal)
    assert estimate is not None or min(values) == max(values)
    if estimate is not None:
        band = _band(sorted(figures), [f[1] for f in figures.values()], [f[2] for f in figures.values()], goal)
        assert band is not None and band[0] - 1e-9 <= estimate <= band[1] + 1e-9, (band, estimate)
        assert interval[0] <= estimate <= interval[1]


@pytest.mark.parametrize(
    "target,vary",
    [
        ("length.mean=100", "start_coins=5:40"),
        ("length.median=60", "start_coins=5:40"),
        ("length.p95=200", "start_coins=5:40"),
        ("win_rate.1=0.3", "start_coins.1=5:35"),
        ("means.max_cup=30", "start_coins=5:40"),
        ("unfinished_rate=0.05", "turn_cap=50:400"),
    ],
)
def test_every_kind_of_tune_target_gets_an_interval_holding_its_estimate(target, vary):
    r = snakesim.tune("fortune", 3, target, vary, games=2000, max_games=8000, confirm_games=2000)
    low, high = r.summary["interval"]
    assert r.summary["estimate"] is not None and low is not None, r.summary  # (each target is inside its range)
    assert low <= r.summary["estimate"] <= high, (target, r.summary)


def test_a_game_feel_target_plays_its_games_with_feel_and_is_met():
    # Hisss's lead changes grow with points_per_snake (1.27 at 0 to 1.43 at 10 with 4 players):
    # 1.35 lies between, and the answer's interval on fresh games must hold what it reports.
    r = snakesim.tune("hisss", 4, "lead_changes.mean=1.35", "points_per_snake=0:10", games=4000, max_games=16000,
                      confirm_games=4000)  # fmt: skip
    assert r.status in ("met", "nearest") and 1 <= r.best <= 5, r.message
    fresh = r.answer[r.answer["fresh"]].iloc[0]
    assert fresh["low"] <= fresh["metric"] <= fresh["high"] and abs(fresh["metric"] - 1.35) < 0.06


def test_feel_metrics_count_the_games_their_definitions_count():
    columns = {
        "winner": np.array([0, 1, -1, 2, 0]),
        "lead_changes": np.array([2, 0, 3, 1, 4]),
        "decided": np.array([0.5, 1.0, np.nan, 0.25, 0.75]),
        "comeback": np.array([1, 0, -1, 0, 1]),
        "leader_q2": np.array([0, 2, 1, -1, 0]),
    }
    assert metric_value(columns, "lead_changes.mean")[0] == pytest.approx(2.0, abs=1e-12)  # every game
    assert metric_value(columns, "decided.mean")[0] == pytest.approx(0.625, abs=1e-12)  # the 4 won games
    assert metric_value(columns, "comeback.share")[0] == pytest.approx(0.5, abs=1e-12)  # 2 of 4 won games
    assert metric_value(columns, "comeback_rate") == metric_value(columns, "comeback.share")  # (0.1's spelling)
    # A sole leader at half time in games 0, 1, 2, 4, of which game 2 is a draw: the leader
    # wins games 0 and 4 of the 3 won games with a leader (a draw has no winner to be the leader).
    share, low, high = metric_value(columns, "leader_wins_q2.share")
    assert share == pytest.approx(2 / 3, abs=1e-12) and low < 2 / 3 < high


@pytest.mark.parametrize(
    "game,target,message",
    [
        ("fortune", "tie_break.share=0.1", "tie_break.share: fortune does not have this figure"),
        ("fortune", "tie_break_rate=0.1", "tie_break.share: fortune does not have this figure"),  # (0.1's name)
        ("hisss", "out_share.mean=0.1", "out_share.mean: hisss does not have this figure"),
        ("hisss", "lead_change.mean=1", "unknown metric 'lead_change.mean'"),
        ("hisss", "comeback.mean=0.3", "comeback.mean: comeback is a rate; its target is comeback.share"),
    ],
)
def test_feel_targets_a_game_does_not_have_are_refused(game, target, message):
    with pytest.raises(InputError, match=message):
        check_metric(get_game(game), 4, target.partition("=")[0])


def test_balance_over_several_player_counts(monkeypatch):
    args = ["balance", "fortune", "-p", "2,3", "--handicap", "start_coins", "-n", 400, "--max-games", 800,
            "--confirm-games", 400]  # fmt: skip
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    assert "(2 players, standard, seed 1)" in r.output and "(3 players, standard, seed 1)" in r.output
    assert r.output.count("In words") == 2
    s = json.loads(invoke(*args, "--json").stdout)
    assert [x["players"] for x in s] == [2, 3] and all(x["findings"] for x in s)
    # A count the game refuses stops the command before any game.
    monkeypatch.setattr(balance_module, "balance", lambda *a, **k: pytest.fail("a game was played"))
    r = invoke("balance", "fortune", "-p", "2,9", "--handicap", "start_coins")
    assert r.exit_code == 2 and "players: expected an integer from 2 to 8, got 9" in r.output


def _fresh(deviation: list[float], half: float) -> balance_module.SeatRates:
    """An answer's seats on fresh games: each deviation from the mean seat with one half-width."""
    d = np.array(deviation)
    return balance_module.SeatRates((9, 8, 8, 8), 100_000, 0.25 + d, d, np.full(d.size, half), float(d @ d),
                                    np.zeros(1))  # fmt: skip


SEARCH_UNDECIDED = "the closest found ... cannot tell whether the tolerance can be met (raise --max-games)"


@pytest.mark.parametrize(
    ("searched", "deviation", "half", "status", "words"),
    [
        # the Rainbow: a seat 1.6 points off, its interval [1.3, 1.9] wholly beyond 1 point, on fresh
        # games; the search could not tell whether other values can do it: that is said as the search's own
        ("undecided", [0.016, -0.006, -0.005, -0.005], 0.003, "not balanced",
         "hand_size = [9, 8, 8, 8] leaves the first player 1.6 percentage points off the mean seat on 100,000 fresh "
         "games, surely more than 1 percentage point; the search, on its own games: " + SEARCH_UNDECIDED),
        ("cannot balance", [0.016, -0.006, -0.005, -0.005], 0.003, "not balanced",
         "hand_size = [9, 8, 8, 8] leaves the first player 1.6 percentage points off the mean seat on 100,000 fresh "
         "games, surely more than 1 percentage point; the search, on its own games: no values found"),
        # the Hisss: balanced on the search's games, which chose it; 4,000 fresh games cannot show it
        ("balanced", [0.0008, -0.0004, -0.0004, 0.0], 0.02, "within tolerance by estimate",
         "hand_size = [9, 8, 8, 8] puts every seat within 1 percentage point of the mean seat on the search's games, "
         "which chose it; on 100,000 fresh games this answer leaves the first player 0.08 percentage points off by "
         "estimate, too few games to show every seat within 1 percentage point"),
        ("undecided", [0.004, -0.002, -0.001, -0.001], 0.002, "balanced",
         "hand_size = [9, 8, 8, 8] puts every seat within 1 percentage point of the mean seat on 100,000 fresh games "
         "(simultaneous 95% intervals; largest deviation 0.4 percentage points)"),
        ("undecided", [0.012, -0.004, -0.004, -0.004], 0.004, "undecided",
         SEARCH_UNDECIDED + "; on 100,000 fresh games this answer leaves the first player 1.2 percentage points off"),
    ],
)  # fmt: skip
def test_the_answers_status_is_the_fresh_games_and_the_search_speaks_for_itself(searched, deviation, half, status,
                                                                                  words):  # fmt: skip
    said = SEARCH_UNDECIDED if searched == "undecided" else "no values found" if searched == "cannot balance" else ""
    got = balance_module._answer(searched, said, _fresh(deviation, half), tolerance=0.01, handicap="hand_size",
                                 games=100_000, level=0.95)  # fmt: skip
    assert got == (status, words)


def test_a_settled_failure_is_not_said_to_need_more_games():
    """The answer surely misses the tolerance on fresh games: its words say so and never "more games would
    tell"; the search's own open question (other values) is a sentence apart."""
    from snakesim.questions.balance import balance_findings

    s = {"handicap": "hand_size", "values": [9, 8, 8, 8], "base": [7, 7, 7, 7], "tolerance": 0.01,
         "status": "not balanced", "fresh_max_deviation": 0.016, "confirm": {"games": 100_000},
         "before": {"gap": (0.075, 0.069, 0.081)}, "after": {"gap": (0.029, 0.023, 0.035)},
         "search": {"status": "undecided", "games_per_candidate": 40_000}, "novices": None}  # fmt: skip
    said = balance_findings(s)
    assert said[1] == (
        "On 100,000 fresh games the largest gap between two seats' chances of winning goes from 7.5 [6.9, 8.1] "
        "percentage points to 2.9 [2.3, 3.5] percentage points: the handicap brings the seats closer, but a seat "
        "stays surely more than 1 percentage point off the average seat's chance (1.6 percentage points by "
        "estimate): not fair within that tolerance."
    )
    assert said[2] == ("Whether other values of hand_size could meet the tolerance, 40,000 games per candidate could "
                       "not tell (raise --max-games).")  # fmt: skip
    assert not any("more games would tell" in line for line in said)
