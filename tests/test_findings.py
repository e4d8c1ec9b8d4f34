"""Findings in words, on made-up comparisons and summaries: a clear change, no change, a change
in one seat only, a metric that never varies; and the numbers' units and decimals."""

import math

import pandas as pd
import pytest

from snakesim.analysis.compare import COLUMNS
from snakesim.analysis.verdicts import add_verdicts
from snakesim.analysis.words import decimals, p_text
from snakesim.core.arms import Budget, RuleSource
from snakesim.core.figures import BY_ID
from snakesim.games import get_game
from snakesim.questions.balance import balance_findings
from snakesim.questions.claims import check
from snakesim.questions.compare import compare_findings, constant_sentence
from snakesim.questions.design import design_findings
from snakesim.questions.run import findings as run_findings
from snakesim.questions.skill import skill_findings
from snakesim.questions.sweep import sweep_findings
from snakesim.questions.tune import tune_findings

FORTUNE, HISSS = get_game("fortune"), get_game("hisss")
NAN = math.nan


def row(variant, metric, kind, value, low, high, diff=NAN, lo=NAN, hi=NAN, p=NAN, level=0.95, unit="cards drawn"):
    out = dict(zip(COLUMNS, [variant, metric, kind, value, low, high, diff, lo, hi, p, p, "paired t", level,
                             NAN, NAN, NAN], strict=True))  # fmt: skip
    out["label"] = BY_ID[metric.partition(".")[0]].label.format(seat=metric.partition(".")[2], length=unit)
    out["unit"] = unit
    return out


def table(length_after, seats_after, draw_after=(0.0, 0.0, 0.0, 1.0), length_unit="cards drawn", games=20_000):
    """Two arms of a 2-player game: the baseline's length 100 [98, 102] and seats 50% / 50%;
    the other arm's given as (value, diff, diff_low, diff_high, p) tuples; with the verdicts
    of the default margins (1 percentage point a seat, 5% of the length) for ``games`` games."""
    rows = [row("a", "length", "mean", 100.0, 98.0, 102.0, unit=length_unit)]
    v, d, lo, hi, p = length_after
    rows.append(row("b", "length", "mean", v, v - 2, v + 2, d, lo, hi, p, 0.99, unit=length_unit))
    for s, (v, d, lo, hi, p) in enumerate(seats_after):
        rows.append(row("a", f"win_rate.{s}", "rate", 0.5, 0.49, 0.51))
        rows.append(row("b", f"win_rate.{s}", "rate", v, v - 0.01, v + 0.01, d, lo, hi, p, 0.975))
    rows.append(row("a", "draw", "rate", 0.0, 0.0, 0.0))
    v, d, lo, hi = draw_after[0], draw_after[0], draw_after[1], draw_after[2]
    rows.append(row("b", "draw", "rate", v, v, v, d, lo, hi, draw_after[3]))
    out = pd.DataFrame(rows, columns=[*COLUMNS, "label", "unit"])
    add_verdicts(out, games)
    return out


def texts(findings, arm="b"):
    return [f["text"] for f in findings if f["arm"] == arm]


def test_a_change_that_matters_leads_and_the_rest_is_gathered():
    t = table((160.0, 60.0, 57.0, 63.0, 1e-40), [(0.5, 0.0, -0.004, 0.004, 0.9), (0.5, 0.0, -0.004, 0.004, 0.9)],
              games=200_000)  # fmt: skip
    said = texts(compare_findings(t, FORTUNE, 2, 200_000))
    assert said[0] == (
        "This rule set changes what you would notice at the table: games get 60% longer; nothing else changes by as "
        "much as matters."
    )
    assert said[1] == "Games get 60% longer: 100 -> 160 cards drawn on average (+60 [+57, +63] cards drawn)."
    assert said[2] == (
        "Too small to notice: every seat's chance of winning (by less than 1 percentage point). Changes this small "
        "may be there, but no player would feel them."
    )
    assert len(said) == 3


def test_a_change_too_small_to_notice_is_negligible_whether_detected_or_not():
    # Both seats move (the intervals leave out 0), but by less than a point: nothing to notice.
    t = table((100.5, 0.5, 0.2, 0.8, 1e-5), [(0.503, 0.003, 0.001, 0.005, 1e-4), (0.497, -0.003, -0.005, -0.001, 1e-4)],
              games=500_000)  # fmt: skip
    said = texts(compare_findings(t, FORTUNE, 2, 500_000))
    assert said[0] == "This rule set changes nothing you would notice at the table."
    assert said[1].startswith("Too small to notice: every seat's chance of winning (by less than 1 percentage "
                              "point); the game's length (by less than 5% of it, that is 5 cards drawn).")  # fmt: skip
    assert not any("longer" in s or "shorter" in s or "more often" in s for s in said)


def test_an_interval_across_the_margin_is_undecided_and_says_the_games_that_would_settle_it():
    t = table((100.5, 0.5, -1.2, 2.2, 0.6), [(0.5, 0.002, -0.011, 0.015, 0.8), (0.5, -0.002, -0.015, 0.011, 0.8)])
    said = texts(compare_findings(t, FORTUNE, 2, 20_000))
    assert said[0] == (
        "This rule set changes nothing you would notice that these 20,000 games can show; one thing is not settled yet "
        "(below)."
    )
    # Seat 1: -0.2 [-1.5, +1.1] points against 1 point: a half-width 1.3 over a distance 0.8,
    # so about 20,000 x (1.3 / 0.8)^2 x 1.1 = 58,094 games, in thousands up.
    assert said[-1] == (
        "Not settled by 20,000 games: every seat's chance of winning (what matters: 1 percentage point). About "
        "59,000 games per rule set would settle them."
    )
    rows = t.set_index(["variant", "metric"])
    assert rows.loc[("b", "win_rate.1"), "settle_games"] == 59_000
    assert rows.loc[("b", "length"), "verdict"] == "negligible"


def test_a_change_in_one_seat_only_names_that_seat_and_keeps_the_others():
    t = table((100.0, 0.0, -1.0, 1.0, 1.0), [(0.53, 0.03, 0.015, 0.05, 1e-4), (0.47, -0.004, -0.008, 0.0, 0.3)])
    said = texts(compare_findings(t, FORTUNE, 2, 20_000))
    assert said[0] == (
        "This rule set changes what you would notice at the table: the first player wins more often; nothing else "
        "changes by as much as matters."
    )
    assert "The first player wins 3 percentage points more often: 50% -> 53% (+3 [+2, +5] percentage points)." in said
    assert said[2].startswith(
        "Too small to notice: the second player's chance of winning (by less than 1 percentage point); "
    )
    assert not any(s.startswith("The second player wins") for s in said)


def test_a_constant_metric_is_said_once_for_every_arm():
    t = table((49.0, 0.0, 0.0, 0.0, 1.0), [(0.5, 0.0, -0.01, 0.01, 1.0)] * 2, length_unit="turns")
    t.loc[t["metric"] == "length", ["value", "low", "high"]] = 49.0
    t.loc[t["metric"] == "draw", "high"] = [0.00077, 0.00076]  # (no draw in 5,000 games: Wilson's upper end)
    findings = compare_findings(t, HISSS, 2, 5_000)
    once = texts(findings, None)
    assert once == ["Every 2-player Hisss game lasts 49 turns under every rule set compared.",
                    "None of the 5,000 2-player Hisss games each rule set played ended in a draw: draws are at most "
                    "0.08% of games, 95% sure."]  # fmt: skip
    t.loc[t["metric"] == "draw", "high"] = 0.0  # (an interval that reaches nowhere: the games alone are said)
    assert texts(compare_findings(t, HISSS, 2, 5_000), None)[1] == (
        "None of the 5,000 2-player Hisss games each rule set played ended in a draw."
    )
    assert not any("length" in s.lower() for s in texts(findings))


def test_numbers_carry_the_decimals_their_interval_needs():
    assert decimals(4.0) == 0 and decimals(0.26) == 2 and decimals(0.03) == 2 and decimals(0.026) == 3
    assert decimals(24.0) == 0 and decimals(0.0) == 0 and decimals(float("nan")) == 0
    assert p_text(0.0) == "< 1e-300" and p_text(3.6e-195) == "3.6e-195" and p_text(0.31) == "0.31"


def summary(win_rate, draws=0, mean=(50.0, 49.0, 51.0), median=45, p95=95, mx=200, games=20_000):
    from snakesim.analysis.stats import wilson

    wins = [round(r * games) for r in win_rate]
    return {
        "games": games,
        "players": len(win_rate),
        "level": 0.95,
        "win_rate": list(win_rate),
        "win_ci": [list(wilson(k, games)) for k in wins],
        "outcomes": {"draw": {"count": draws, "rate": draws / games, "ci": list(wilson(draws, games))}},
        "length": {"mean": mean[0], "mean_ci": [mean[1], mean[2]], "median": median, "p95": p95, "max": mx},
    }


def test_a_run_says_whether_a_seat_is_favoured_only_when_it_is():
    even = run_findings(summary([0.25, 0.251, 0.249, 0.25]), FORTUNE)
    assert even[0].startswith("No seat is favoured by as much as matters: every seat wins between 24.9% and 25.1%")
    # Too few games to tell a point from nothing: no claim either way.
    few = run_findings(summary([0.25, 0.27, 0.24, 0.24], games=2_000), FORTUNE)
    assert few[0].startswith("No seat is measurably favoured: every seat wins between 24.0% and 27.0%")
    # A gap the games detect but nobody would notice is said so, never "not equal".
    small = run_findings(summary([0.254, 0.247, 0.249, 0.25], games=500_000), FORTUNE)
    assert small[0].startswith("The seats differ a little: the first player wins most often, 25.40% [25.28%, 25.52%]")
    assert small[0].endswith("every seat is within 1 percentage point of an equal share, too little to notice.")
    uneven = run_findings(summary([0.29, 0.22, 0.24, 0.25]), FORTUNE)
    assert uneven[0].startswith(
        "The seats are not equal: the first player wins most often, 29.0% [28.4%, 29.6%] of games"
    )
    assert "the second player least, 22.0%" in uneven[0]
    # The first clearly ahead, the rest close together: "least" only by estimate (a designer read
    # "the fourth player least, 22.4% [20.7%, 24.3%]" beside three seats within a point of it).
    close = run_findings(summary([0.303, 0.236, 0.237, 0.224], games=2_000), FORTUNE)
    assert "the first player wins most often, 30.3%" in close[0]
    assert "the fourth player least by estimate, 22.4%" in close[0]
    # Games nobody won: the equal share is of the games somebody won (24.8%, not 25%: a designer asked).
    drawn = run_findings(summary([0.29, 0.22, 0.24, 0.24]), FORTUNE)
    assert "where an equal share of the games somebody won would be 24.8%." in drawn[0]
    assert "an equal share would be 25.0%" in uneven[0]
    assert uneven[1] == (
        "A game lasts 50.0 cards drawn on average [49.0, 51.0]; half are over by 45 and one in twenty lasts 95 or more."
    )
    constant = run_findings(summary([0.5, 0.49], draws=200, mean=(49.0, 49.0, 49.0), median=49, p95=49, mx=49), HISSS)
    assert constant[1] == "Every 2-player Hisss game lasts 49 turns."
    assert constant[2] == "1.00% of games are drawn [0.87%, 1.15%]."


@pytest.mark.parametrize("game", ["fortune", "hisss"])
def test_real_comparisons_get_findings_in_json_and_on_screen(game):
    from click.testing import CliRunner

    from snakesim.cli import cli

    variants = list(get_game(game).rules.VARIANTS)[:2]
    args = ["compare", game, "-p", "2", "-n", "2000", "-v", variants[0], "-v", variants[1]]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0 and "In words (numbers in [brackets]: 95% intervals" in r.output
    import json

    s = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert s["findings"] and all(set(f) == {"arm", "text", "claims"} for f in s["findings"])
    rows = pd.DataFrame(s["rows"]).astype({"diff_low": float, "diff_high": float})
    assert (
        check([c for f in s["findings"] for c in f["claims"]], rows) == []
    )  # (each sentence's claims hold, as printed)
    assert any(f["arm"] == variants[1] for f in s["findings"])
    # Every row has a margin and a verdict; a difference's verdict is one of three.
    assert all("margin" in r and "verdict" in r for r in s["rows"])
    verdicts = {r["verdict"] for r in s["rows"] if r["variant"] == variants[1] and r["diff"] is not None}
    assert verdicts and verdicts <= {"matters", "negligible", "undecided"}


def balance_summary(before, after, values=(6, 7, 9), base=(6, 6, 6), status="undecided", worst=0.012):
    seat = {"win_rate": [0.33] * 3, "win_ci": [[0.32, 0.34]] * 3, "balance_p": 0.5}
    fresh = {"before": {**seat, "gap": list(before)}, "after": {**seat, "gap": list(after)}}
    return {"handicap": "start_coins", "values": list(values), "base": list(base), "confirm": {"games": 100_000},
            **fresh, "novices": None, "tolerance": 0.01, "status": status, "fresh_max_deviation": worst}  # fmt: skip


def test_balance_findings_say_whether_fresh_games_bear_the_handicap_out():
    worse = balance_findings(balance_summary((0.006, 0.0, 0.011), (0.018, 0.012, 0.024)))
    assert worse[0] == "The search recommends start_coins = [6, 7, 9] instead of [6, 6, 6]."
    assert worse[1].endswith("from 0.6 [0.0, 1.1] percentage points to 1.8 [1.2, 2.4] percentage points: the "
                             "handicap makes the seats less even there, so keep the rules as they are.")  # fmt: skip
    fair = balance_findings(balance_summary((0.08, 0.07, 0.09), (0.01, 0.0, 0.02), status="balanced", worst=0.004))
    assert fair[1].endswith(
        ": every seat is within 1 percentage point of the average seat's chance, fair within that tolerance."
    )
    unclear = balance_findings(balance_summary((0.02, 0.01, 0.03), (0.015, 0.005, 0.025)))
    assert unclear[1].endswith(
        ": a difference these games cannot tell from noise, so keep the rules as they are; "
        "these games do not show every seat within 1 percentage point of the average seat's "
        "chance (the furthest is 1.2 percentage points off by estimate)."
    )
    # A recommendation that moves every seat alike says so: it is no handicap between the seats.
    alike = balance_findings(balance_summary((0.02, 0.01, 0.03), (0.015, 0.005, 0.025), values=(7, 7, 7)))
    assert alike[0].endswith(
        "instead of [6, 6, 6]: the same for every seat, a change of the game rather than a handicap between the seats."
    )
    kept = balance_findings(balance_summary((0.02, 0.01, 0.03), (0.02, 0.01, 0.03), values=(6, 6, 6)))
    assert kept[0].startswith("Keep start_coins as it is ([6, 6, 6])")


def test_a_handicap_is_called_fair_only_when_the_fresh_games_show_it():
    """The page once said "the handicap evens the seats" at a gap of 1.4 [0.8, 2.0] points with
    "fair within 1": closer is not fair. Only the fresh games' verdict (status balanced: every
    seat within the tolerance of the average seat, at once) may say fair."""
    closer = balance_findings(balance_summary((0.054, 0.048, 0.061), (0.014, 0.008, 0.020), worst=0.009))
    assert closer[1].endswith(
        ": the handicap brings the seats closer, but these games do not show every seat within 1 percentage point of "
        "the average seat's chance (the furthest is 0.9 percentage points off by estimate); more games would tell."
    )
    assert not any("evens" in s or "fair within that tolerance." in s for s in closer)
    # Chances are always "percentage points", never bare "points" (a handicap may count game points).
    assert all(" points" not in s.replace("percentage points", "") for s in closer)


def test_tune_findings_say_the_value_and_whether_fresh_games_hold_the_target():
    s = {"vary": {"option": "start_coins", "seat": None, "range": [5, 40]}, "status": "met", "best": 13,
         "target": {"metric": "length.median", "value": 60.0}, "estimate": 12.86,
         "metric": {"value": 61.0, "ci": [60.0, 61.0], "games": 100_000}}  # fmt: skip
    said = tune_findings(s, unit="cards drawn")
    assert said == [
        "For the median game length of 60, play start_coins = 13: it gives 61 [60, 61] on 100,000 fresh games, which "
        "meets the target: what it gives lies within 3 cards drawn of it (5% of the target, the smallest difference "
        "that matters), closer than anyone would notice."
    ]  # (no neighbours given: nothing said of values between)
    # The margin is the target figure's: 5% of the target for the length; 65 [64, 66] misses it.
    s["metric"] = {"value": 65.0, "ci": [64.0, 66.0], "games": 100_000}
    assert tune_findings(s)[0].endswith(
        "which misses the target by more than matters: by more than 3 (5% of the target, the smallest difference that "
        "matters)."
    )
    s["metric"] = {"value": 62.0, "ci": [61.0, 64.0], "games": 100_000}
    assert tune_findings(s)[0].endswith(
        "close to the target; these games cannot tell whether it lies within 3 of it (5% of the target, the smallest "
        "difference that matters)."
    )
    s.update(status="out of reach", best=5, estimate=None, target={"metric": "win_rate.1", "value": 0.9})
    s["metric"] = {"value": 0.52, "ci": [0.51, 0.53], "games": 100_000}
    assert tune_findings(s, unit="fraction") == [
        "No value of start_coins from 5 to 40 brings the second player's win rate to 90.0%; the nearest is 5: it gives "
        "52.0% [51.0%, 53.0%] on 100,000 fresh games, which misses the target by more than matters: by more than 1 "
        "percentage point (the smallest difference that matters)."
    ]


def test_tune_findings_name_the_two_whole_values_the_target_lies_between():
    """They said "Between whole values the target lies at start_coins = 12.86": a value nobody
    can play, said more exactly than a median of whole cards allows. Now the two values and what
    each gives, and the nearer only where the intervals show it."""
    s = {"vary": {"option": "start_coins", "seat": None, "range": [5, 40]}, "status": "nearest", "best": 13,
         "target": {"metric": "length.median", "value": 60.0}, "estimate": 12.86,
         "metric": {"value": 61.0, "ci": [60.0, 61.0], "games": 100_000},
         "neighbours": [{"value": 14, "metric": 69.0, "ci": [68.0, 69.0]},
                        {"value": 12, "metric": 54.0, "ci": [53.0, 54.0]},
                        {"value": 13, "metric": 61.0, "ci": [61.0, 61.0]},
                        {"value": 11, "metric": 47.0, "ci": [47.0, 47.0]}]}  # fmt: skip
    said = tune_findings(s)
    assert said[1] == ("On the search's games 60 lies between start_coins = 12 (54 [53, 54]) and 13 (61 [61, 61]), "
                       "nearer 13; start_coins takes whole values only.")  # fmt: skip
    assert not any("12.86" in line for line in said)
    # Intervals that overlap in distance: neither is said to be nearer.
    s["neighbours"][1] = {"value": 12, "metric": 58.0, "ci": [57.0, 59.0]}
    assert tune_findings(s)[1].endswith("(58 [57, 59]) and 13 (61 [61, 61]); start_coins takes whole values only.")
    # A value that gives the target itself: nothing lies between.
    s["neighbours"][1] = {"value": 12, "metric": 60.0, "ci": [59.0, 61.0]}
    assert len(tune_findings(s)) == 1
    # Falling figures (more coins, fewer lead changes) are read the same way.
    s.update(target={"metric": "length.mean", "value": 50.0})
    s["neighbours"] = [{"value": 3, "metric": 55.0, "ci": [54.0, 56.0]}, {"value": 4, "metric": 45.0,
                       "ci": [44.0, 46.0]}]  # fmt: skip
    assert "60.0 lies" not in (said := tune_findings(s)[1])
    assert "50.0 lies between start_coins = 3 (55.0 [54.0, 56.0]) and 4 (45.0 [44.0, 46.0]); start_coins" in said


def test_tune_findings_never_say_a_target_is_met_where_fresh_games_put_it_outside_the_interval():
    """The command said "the target is outside the interval" above findings that said "which
    meets the target" (lead changes 1.391 [1.386, 1.397] for a target of 1.4): off the target
    for sure, and off it by less than matters, is not meeting it."""
    s = {"vary": {"option": "points_per_snake", "seat": None, "range": [0, 10]}, "status": "nearest", "best": 5,
         "target": {"metric": "lead_changes.mean", "value": 1.4}, "estimate": 5.46,
         "metric": {"value": 1.3912, "ci": [1.3855, 1.3969], "games": 160_000}}  # fmt: skip
    said = tune_findings(s)[0]
    assert "meets" not in said
    assert said.endswith("not exactly the target (it lies outside the interval) but within 0.5 of it (the smallest "
                         "difference that matters), closer than anyone would notice.")  # fmt: skip
    s["status"] = "out of reach"  # (the nearest end of the range: judged the same way)
    assert tune_findings(s)[0].endswith("but within 0.5 of it (the smallest difference that matters), closer than "
                                        "anyone would notice.")  # fmt: skip


def test_sweep_findings_say_a_trend_only_beyond_the_noise():
    rows = []
    for x, (length, low, high) in zip((5, 10, 15), ((17.0, 16.5, 17.5), (44.0, 43.0, 45.0), (89.0, 87.0, 91.0)),
                                      strict=True):  # fmt: skip
        rows.append({"players": 4, "start_coins": x, "metric": "length", "value": length, "low": low, "high": high})
        rows.append({"players": 4, "start_coins": x, "metric": "win_rate.0", "value": 0.25 + 0.002 * (x % 2),
                     "low": 0.24, "high": 0.26})  # fmt: skip
    said = sweep_findings(pd.DataFrame(rows), "start_coins", "cards drawn")
    assert said[0] == (
        "4 players: the average game (cards drawn) goes from 17.0 [16.5, 17.5] to 89.0 [87.0, 91.0] as start_coins "
        "goes from 5 to 15."
    )
    # Ends 2 points wide each: their difference could reach the point that matters, or not.
    assert said[1] == ("4 players: the first player's chance of winning goes from 25.2% [24.0%, 26.0%] to 25.2% "
                       "[24.0%, 26.0%] as start_coins goes from 5 to 15; these games cannot tell whether by as much "
                       "as matters (1 percentage point).")  # fmt: skip
    narrow = pd.DataFrame(rows).assign(low=lambda d: d["value"] - 0.002, high=lambda d: d["value"] + 0.002)
    narrow.loc[narrow["metric"] == "length", ["low", "high"]] = [[16.5, 17.5], [43.0, 45.0], [89.0, 91.0]]
    assert sweep_findings(narrow, "start_coins", "cards drawn")[1] == (
        "4 players: the first player's chance of winning stays between 25.0% and 25.2% as start_coins goes from 5 to "
        "15: the two ends differ by less than 1 percentage point, too little to notice."
    )


@pytest.mark.parametrize("game", ["fortune", "rainbow", "hisss", "sssnake"])
def test_no_comparison_prints_a_row_that_never_varies(game):
    # Every variant of every game, at the fewest and the most players: a metric whose every arm
    # reads "v [v, v]" with the same v (49 turns in every 2-player Hisss game, no draw ever) is
    # said once in words, not printed as rows.
    import re

    from click.testing import CliRunner

    from snakesim.cli import cli

    spec = get_game(game)
    for players in (spec.min_players, min(spec.max_players, 5)):
        args = ["compare", game, "-p", players, "-n", 150 if game == "sssnake" else 600, "--set", "feel=true"]
        for v in spec.rules.VARIANTS:
            args += ["-v", v]
        r = CliRunner().invoke(cli, [str(a) for a in args])
        assert r.exit_code == 0, r.output
        table = r.output.split("\n\n")[1]  # (between the heading and the findings)
        blocks = re.split(r"\n(?=\S)", table)
        for block in blocks:
            rows = block.splitlines()[1:]
            same = [re.search(r"\s(\S+) \[\1, \1\]", row) for row in rows]
            assert not (rows and all(same) and len({m.group(1) for m in same}) == 1), block


def test_no_number_prints_as_minus_zero():
    from snakesim.analysis.words import fixed, percent, signed

    assert percent(-0.00004, 1) == "0.0%" and percent(-0.004, 0) == "0%" and percent(-0.0004, 2) == "-0.04%"
    assert fixed(-0.04, 1, True) == "+0.0" and fixed(-1234.5, 0) == "-1,234" and fixed(0.04, 1, True) == "+0.0"
    assert signed(-0.0002, -0.004, 0.0031, 1, 100) == "+0.0 [-0.4, +0.3]"


def test_a_quantile_never_reached_reads_so():
    from snakesim.questions.compare import row_text

    r = row("a", "length_p95", "quantile", math.inf, math.inf, math.inf)
    assert row_text(r) == ("not reached", "")
    r = row("a", "length_median", "quantile", 88.0, 86.0, 91.0)
    assert row_text(r) == ("88 [86, 91]", "")


def test_many_seats_that_move_are_said_in_one_sentence():
    moves = [(0.53, 0.03, 0.015, 0.05, 1e-4), (0.45, -0.05, -0.07, -0.03, 1e-6), (0.52, 0.02, 0.012, 0.035, 1e-3)]
    t = table((100.0, 0.0, -1.0, 1.0, 1.0), moves)
    said = texts(compare_findings(t, FORTUNE, 3, 20_000))
    assert said[0].startswith(
        "This rule set changes what you would notice at the table: the seats' chances of winning move;"
    )
    seats = [s for s in said[1:] if "player" in s.lower() and not s.startswith("Too small")]
    assert len(seats) == 1
    assert seats[0].startswith("3 players' chances move: the second player 50.0% -> 45.0% (-5.0 [-7.0, -3.0])")
    assert "the first player 50.0% -> 53.0% (+3.0 [+1.5, +5.0])" in seats[0] and seats[0].endswith("percentage points.")


# ---------------------------------------------------------------------------- who plays


@pytest.fixture(scope="module")
def child_among_careful_players():
    """Rainbow, 3 players, a child playing at random in seat 1: the seed's game and wild-snake."""
    from snakesim.analysis.compare import compare_variants

    spec = get_game("rainbow")
    return compare_variants(
        spec, 3, ["standard", "wild-snake"], Budget(3000, 4), RuleSource(policies="greedy,random,greedy")
    )


def test_a_mixed_lineup_names_its_players_and_answers_for_the_child(child_among_careful_players):
    from snakesim.analysis.words import percent, points
    from snakesim.questions.compare import hidden_metrics
    from snakesim.report.charts import comparison_charts

    table, tables = child_among_careful_players
    spec = get_game("rainbow")
    said = compare_findings(table, spec, 3, 3000)
    rows = table.set_index(["variant", "metric"])
    child = rows.loc[("standard", "win_rate.1")]
    places = max(1, points(child["low"], child["high"]))
    # The baseline's sentence gives the child's chance with its interval and a fair share.
    base = texts(said, "standard")[0]
    assert base.startswith(
        f"The second player (random) wins {percent(child['value'], places)} [{percent(child['low'], places)}, "
        f"{percent(child['high'], places)}] of games"
    )
    wins = sum(rows.loc[("standard", f"win_rate.{s}")]["value"] for s in range(3))
    assert f"a fair share being {percent(wins / 3, places)}" in base and "the first and third players (greedy)" in base
    # The other rule set's sentence says the child's chance there and its change.
    head, other = texts(said, "wild-snake")[:2]
    assert head.startswith("This rule set changes")
    assert other.startswith("The second player (random) wins") and "with standard" in other
    verdict = rows.loc[("wild-snake", "win_rate.1"), "verdict"]
    words = {"matters": "a change that matters", "negligible": "too small to notice", "undecided": "not settled"}
    assert f"percentage points: {words[verdict]}), a fair share" in other
    assert not any(f["text"].startswith("These rule sets differ") for f in said)
    assert not any(s.startswith("Seat ") for s in texts(said, "wild-snake"))  # (seats are named by their players)
    # A first-player advantage would mix the seat with the child's play: left out.
    assert "first_player_advantage" in hidden_metrics(table)
    wins_chart = comparison_charts(spec, 3, table, tables)[0]
    assert [p[0] for p in wins_chart["series"][0]["points"]] == [
        "first (greedy)",
        "second (random)",
        "third (greedy)",
    ]
    assert "second (random)" in wins_chart["summary"]


def test_rule_sets_with_different_players_say_so_first():
    from snakesim.analysis.compare import compare_variants

    spec = get_game("rainbow")
    table, _ = compare_variants(spec, 3, ["standard", "ws=wild-snake,policies=greedy/greedy/greedy"], Budget(1000, 4),
                                RuleSource(policies="greedy,random,greedy"))  # fmt: skip
    first = compare_findings(table, spec, 3, 1000)[0]
    assert first == {"arm": None, "text": "These rule sets differ in who plays as well as in the rules (standard: "
                     "greedy, random, greedy; ws: greedy, greedy, greedy), so each difference below mixes the rules "
                     "with the change of players.", "claims": []}  # fmt: skip
    # The same rules with other players: a comparison of the players, said so.
    table, _ = compare_variants(spec, 3, ["standard", "child=standard,policies=greedy/random/greedy"], Budget(1000, 4))
    assert compare_findings(table, spec, 3, 1000)[0]["text"] == (
        "These rule sets have the same rules and differ only in who plays (standard: greedy, greedy, greedy; child: "
        "greedy, random, greedy): each difference below is the players'."
    )


def test_each_rule_sets_own_constant_length_is_said_once_and_never_charted():
    """Hisss deals every card: 49 turns in every game, 50 with one more head. Said once; no
    "49 -> 49 turns (+0 [+0, +0])", no length rows, no length chart."""
    from snakesim.analysis.compare import compare_variants
    from snakesim.questions.compare import hidden_metrics
    from snakesim.report.charts import comparison_charts

    arms = ["standard", "more=standard,points_per_snake=2", "r2=standard,heads.RAINBOW=2"]
    table, tables = compare_variants(HISSS, 3, arms, Budget(600, 2))
    said = compare_findings(table, HISSS, 3, 600)
    assert {"arm": None, "text": "Every 3-player Hisss game lasts 49 turns under standard and more, and 50 turns "
            "under r2.", "claims": []} in said  # fmt: skip
    assert not any("->" in f["text"] and "turns" in f["text"] for f in said)
    assert {m for m in table["metric"] if m.startswith("length")} <= hidden_metrics(table)
    assert "length" not in [c["id"] for c in comparison_charts(HISSS, 3, table, tables)]


def test_one_rule_set_alone_says_who_wins_and_how_long():
    from snakesim.analysis.compare import compare_variants

    table, _ = compare_variants(FORTUNE, 4, ["standard"], Budget(2000, 3))
    said = [f["text"] for f in compare_findings(table, FORTUNE, 4, 2000)]
    assert any(s.startswith(("No seat is", "The seats are not equal", "The seats differ a little")) for s in said)
    assert any(s.startswith("A game lasts ") and "cards drawn on average" in s for s in said)


def test_a_fair_share_with_draws_says_what_it_is_a_share_of():
    from snakesim.analysis.compare import compare_variants

    table, _ = compare_variants(HISSS, 3, ["standard"], Budget(2000, 5), RuleSource(policies="greedy,greedy,random"))
    said = compare_findings(table, HISSS, 3, 2000)[-1]["text"]  # (after the draws' sentence)
    drawn = table[(table["variant"] == "standard") & (table["metric"] == "draw")]["value"].iloc[0]
    assert drawn > 0 and said.startswith("The third player (random) wins ")
    assert "(a third of the games somebody won)" in said


@pytest.mark.parametrize("game", ["fortune", "rainbow", "hisss", "sssnake"])
def test_a_comparisons_findings_speak_a_familys_words(game):
    """No "arm", "Holm", "pairing", "pp", "Kaplan-Meier" or "p" in what a family reads: the
    statistics stay in the table, the JSON and the details view. Each rule set after the first
    leads with its headline."""
    import re

    from snakesim.analysis.compare import compare_variants

    spec = get_game(game)
    variants = list(spec.rules.VARIANTS)[:3]
    table, _ = compare_variants(spec, 3, variants, Budget(1500, 2), RuleSource(options={"feel": True}))
    said = compare_findings(table, spec, 3, 1500)
    for f in said:
        assert not re.search(r"(?<![\w-])(arms?|Holm|pairing|pp|Kaplan-Meier|p)(?![\w-])", f["text"]), f["text"]
    for arm in variants[1:]:
        head = next(f["text"] for f in said if f["arm"] == arm)
        assert head.startswith("This rule set changes "), head


def test_the_issues_comparison_says_crosses_to_cup_changes_nothing_and_one_snake_shortens_games():
    """The comparison issue 43 opened with: 50,000 games, feel on. crosses-to-cup's four
    detectable but tiny changes are one line, nothing you would notice; one-snake's shorter
    games matter; every row of the JSON has a margin and a verdict."""
    import json

    from click.testing import CliRunner

    from snakesim.cli import cli

    args = ["compare", "fortune", "-p", "4", "-n", "50000", "-v", "standard", "-v", "crosses-to-cup", "-v",
            "one-snake", "--set", "feel=true", "--json"]  # fmt: skip
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    s = json.loads(out.output)
    said = {arm: [f["text"] for f in s["findings"] if f["arm"] == arm] for arm in ("crosses-to-cup", "one-snake")}
    assert said["crosses-to-cup"][0] == "This rule set changes nothing you would notice at the table."
    assert said["crosses-to-cup"][1].startswith("Too small to notice: every seat's chance of winning")
    assert said["one-snake"][0].startswith("This rule set changes what you would notice at the table: ")
    assert "games get a third shorter" in said["one-snake"][0]
    rows = {(r["variant"], r["metric"]): r for r in s["rows"]}
    assert all(r["margin"] is not None or r["verdict"] == "not compared" for r in s["rows"])
    assert rows["one-snake", "length"]["verdict"] == "matters"
    assert rows["crosses-to-cup", "length"]["verdict"] == "negligible"
    assert rows["standard", "length"]["verdict"] == "baseline"
    assert rows["crosses-to-cup", "length"]["margin"] == pytest.approx(0.05 * rows["standard", "length"]["value"])
    # What is not settled comes with the command that settles it, the anytime-valid way for rates.
    command = s["settle"]["command"]
    assert command.startswith("snakesim compare fortune -p 4 --seed 1 -v standard -v crosses-to-cup -v one-snake")
    assert "--precision" in command and "--precise differences" in command and s["settle"]["games"] > 50_000


def test_a_change_for_the_child_that_matters_is_in_the_headline():
    """Where a seat holds another kind of player, its chance has a sentence of its own; a change
    there that matters still leads the rule set's findings."""
    t = table((100.0, 0.0, -1.0, 1.0, 1.0), [(0.5, 0.0, -0.004, 0.004, 0.9), (0.47, -0.03, -0.045, -0.015, 1e-5)])
    lineup = ("greedy", "random")
    said = texts(compare_findings(t, FORTUNE, 2, 20_000, seats={"a": lineup, "b": lineup}))
    assert said[0] == (
        "This rule set changes what you would notice at the table: the second player (random) wins less often; "
        "nothing else changes by as much as matters."
    )
    assert "the second player (random) wins 47.0% [46.0%, 48.0%]" in said[1] and "a change that matters" in said[1]
    assert not any(s.startswith("Too small") and "second player" in s for s in said)


def test_skill_findings_name_the_field_players_own_share_not_an_equal_one():
    """ "19.7% of games, an equal share being 23.1%" gave a field player's win rate in the odd
    player's seats as an equal share (a designer computed 24.8%), and an undecided edge read
    "cannot tell whether by as much as matters (1) at the same seats (+0.9 ...)"."""
    shares = pd.DataFrame([{"players": 4, "verdict": "mostly luck", "skill_share": float("nan")}])
    row = {"players": 4, "field": "greedy", "player": "novice:0.3", "games": 8_000, "win_rate": 0.197,
           "fair_share": 0.231, "edge": -0.009, "edge_low": -0.02, "edge_high": -0.001}  # fmt: skip
    said = skill_findings(pd.DataFrame([row]), shares)
    assert said[1] == ("One novice among careful players wins 0.9 percentage points less often than a field player at "
                       "the same seats (-0.9 [-2.0, -0.1] percentage points), but these games cannot tell whether by "
                       "as much as matters (1 percentage point): 19.7% of games, where a field player in its seats "
                       "wins 23.1%.")  # fmt: skip
    # An interval across 0: not even the direction is shown, and it is said so (a designer read
    # "wins 1.5 percentage points more often" beside [-0.3, +3.2]).
    row.update(player="expert:16", edge=0.015, edge_low=-0.003, edge_high=0.032, win_rate=0.341, fair_share=0.327)
    said = skill_findings(pd.DataFrame([row]), shares)
    assert said[1] == ("One player who thinks ahead among careful ones wins 1.5 percentage points more often than a "
                       "field player at the same seats by estimate (+1.5 [-0.3, +3.2] percentage points), but these "
                       "games cannot tell whether it wins more often at all, nor by as much as matters (1 percentage "
                       "point): 34.1% of games, where a field player in its seats wins 32.7%.")  # fmt: skip
    # A share whose interval starts just below 0 is never written "-0%".
    shares = pd.DataFrame([{"players": 4, "verdict": "mostly luck", "skill_share": 0.06, "low": -0.004, "high": 0.11}])
    assert skill_findings(pd.DataFrame([row]), shares)[0].endswith("captures 6% [0%, 11%] of what seeing every card is "
                                                                   "worth.")  # fmt: skip


# ---------------------------------------------------------------------------- a design search in words


def _target(metric, op, value, margin, scale=1.0, unit=""):
    from snakesim.analysis.design_space import Target

    t = Target(metric, op, value, margin=margin, scale=scale, unit=unit)
    return {"metric": metric, "op": op, "value": value, "tolerance": 0.0, "margin": margin, "scale": scale,
            "unit": unit, "text": t.text}  # fmt: skip


DESIGN_TARGETS = [_target("lead_changes.mean", "<=", 4.0, 0.5), _target("seat_gap", "<=", 0.05, 0.01, 100.0, " points")]
CALLED_NEAR = {"lead_changes.mean": "near", "seat_gap": "meets"}


def _answer(label, holds=None, lead=(3.0, 2.5, 3.5), calls=None, status=None, misses=None):
    figures = {"lead_changes.mean": {"value": lead[0], "ci": list(lead[1:])},
               "seat_gap": {"value": 0.02, "ci": [0.0, 0.04]}}  # fmt: skip
    a = {"label": label, "figures": figures}
    if holds is not None:
        a["confirmed"] = {"holds": holds, "games": 1000, "figures": figures,
                          "calls": calls or dict.fromkeys(figures, "meets")}  # fmt: skip
    if status is not None:
        a["status"], a["misses"] = status, misses or []
    return a


def _design(answers=(), nearest=(), pareto=(), prefer=None, edge_names=None, fresh=0, racing=True, **counts):
    c = {"meets": len(answers), "near": 0, "edge": 0, "misses": 0, "undecided": 0, "beaten": 0, **counts}
    search = {"rule_sets": 10, "most_games_a_rule_set": 200, "games_in_all": 900 + fresh, "games_played": 900,
              "racing": racing}  # fmt: skip
    s = {"targets": DESIGN_TARGETS, "answers": list(answers), "nearest": list(nearest), "pareto": list(pareto),
         "prefer": prefer, "counts": c, "search": search}  # fmt: skip
    if edge_names is not None:
        s["edge"] = edge_names
    return s


PLAYED = ("The search played 900 games; giving every rule set as many games as the most-played one needed would have "
          "taken 2,000.")  # fmt: skip


def test_a_design_with_many_answers_some_slipping_on_fresh_games_in_words():
    s = _design([_answer("a", True), _answer("b"), _answer("c", False, calls=CALLED_NEAR), _answer("d", False),
                 _answer("e")], near=2, edge=2, undecided=1, edge_names=["x", "y"])  # fmt: skip
    assert design_findings(s, FORTUNE) == [
        "5 rule sets meet every target: a; b; c and 2 more.",
        "Of them, the surest of those that hold on fresh games (the furthest inside the targets) is a: on 1,000 fresh "
        "games lead changes a game 3.0 [2.5, 3.5], the largest gap between two seats' win rates 2.0 points [0.0, "
        "4.0]; every target holds there.",
        "On fresh games 2 of the 5 land off a target (c; d): by less than matters where called near; prefer the "
        "answers that hold there.",
        "2 more rule sets come within what matters of every target without being on all of them.",
        "2 rule sets sit at the edge of a target (x; y): off it by about as much as matters, which more games would "
        "hardly settle.",
        "1 rule set stayed undecided when the budget ran out; more games in all (--budget) would settle them.",
        PLAYED,
    ]


def test_one_answer_that_slips_names_the_target_it_leaves():
    s = _design([_answer("a", False, lead=(4.25, 3.875, 4.625), calls=CALLED_NEAR)], edge_names=["x", "y"],
                prefer={"metric": "lead_changes.mean", "way": "lower"}, fresh=1000, undecided=3, edge=1)  # fmt: skip
    assert design_findings(s, FORTUNE) == [
        "1 rule set meets every target: a.",
        "On 1,000 fresh games lead changes a game 4.2 [3.9, 4.6], the largest gap between two seats' win rates 2.0 "
        "points [0.0, 4.0]; but not every target holds there: lead changes a game.",
        "On fresh games 1 of the 1 lands off a target (a): by less than matters where called near; prefer the "
        "answers that hold there.",
        "1 rule set sits at the edge of a target: off it by about as much as matters, which more games would hardly "
        "settle.",  # (two named for one: the names are left out)
        "3 rule sets stayed undecided when the budget ran out; more games in all (--budget) would settle them.",
        "The search played 900 games and 1,000 fresh ones to confirm; giving every rule set as many games as the "
        "most-played one needed would have taken 2,000.",
    ]


def test_the_preferred_best_that_holds_while_another_slips():
    s = _design([_answer("a", True, lead=(3.75, 3.5, 4.25)), _answer("b", False, calls=CALLED_NEAR)],
                prefer={"metric": "lead_changes.mean", "way": "lower"})  # fmt: skip
    assert design_findings(s, FORTUNE) == [
        "2 rule sets meet every target: a; b.",
        "Of them, the best of those that hold on fresh games on lead changes a game is a: on 1,000 fresh games lead "
        "changes a game 3.8 [3.5, 4.2], the largest gap between two seats' win rates 2.0 points [0.0, 4.0]; every "
        "target holds there (each estimate on its target, each interval within what matters of it).",
        "On fresh games 1 of the 2 lands off a target (b): by less than matters where called near; prefer the "
        "answers that hold there.",
        PLAYED,
    ]


def test_no_answer_the_nearest_miss_and_targets_that_compete_in_words():
    misses = [{"metric": "lead_changes.mean", "by": 1.0}, {"metric": "seat_gap", "by": 0.03}]
    nearest = _answer("n", lead=(5.0, 4.5, 5.5), status="near", misses=misses)
    nearest["figures"]["seat_gap"] = {"value": 0.08, "ci": [0.06, 0.10]}
    s = _design([], [nearest], ["p1", "p2", "p3", "p4", "p5", "p6"], near=1, racing=False)
    assert design_findings(s, FORTUNE) == [
        "No rule set meets every target.",
        "The nearest is n on the search's games: lead changes a game is 5.0 [4.5, 5.5], about 1 off "
        "lead_changes.mean <= 4; the largest gap between two seats' win rates is 8.0 points [6.0, 10.0], about 3 "
        "points off seat_gap <= 5 points.",
        "The targets compete: 6 rule sets each come nearer one target only by going further from another (p1; p2; "
        "p3; p4 ...).",
    ]  # (the one near rule set is the nearest itself; a search that did not race saved nothing)
    within = _answer("m", status="near")
    s = _design([], [within], ["p1"], near=3, edge=1)
    assert design_findings(s, FORTUNE) == [
        "No rule set meets every target.",
        "The nearest is m: it is within what matters of every target.",
        "2 more rule sets come within what matters of every target without being on all of them.",
        "1 rule set sits at the edge of a target: off it by about as much as matters, which more games would hardly "
        "settle.",
        PLAYED,
    ]


# ---------------------------------------------------------------------------- skill under two rule sets


def test_what_skill_is_worth_under_another_rule_set_in_words():
    from snakesim.questions.skill import skill_difference_findings

    def row(arm, players, field, player, edge, base, low, high, p):
        return {"players": players, "field": field, "player": player, "arm": arm, "edge": edge, "base_edge": base,
                "diff": edge - base, "diff_low": low, "diff_high": high, "p_value": p, "p_holm": p}  # fmt: skip

    differences = pd.DataFrame([
        row("b", 4, "greedy", "expert:64", 0.0625, 0.0, 0.03125, 0.09375, 0.001),  # worth more, surely
        row("b", 4, "greedy", "oracle:64", 0.1, 0.2, -0.15, -0.05, 0.01),  # worth less, surely
        row("b", 4, "greedy", "greedy:0.3", -0.05, -0.04, -0.03, 0.01, 0.05),  # p = alpha: no change found
        row("b", 4, "random", "random", 0.0, 0.0, 0.0, 0.0, 1.0),  # the field's own line: no words, skipped
        row("b", 3, "random", "greedy", 0.25, 0.2, 0.0, 0.1, 0.2),
        row("a", 3, "random", "greedy", 0.25, 0.2, 0.0, 0.1, 0.2),
    ])  # fmt: skip
    assert skill_difference_findings(differences) == [
        "b, 4 players: thinking ahead among careful players is worth more: +0.0 -> +6.2 percentage points (+6.2 "
        "[+3.1, +9.4], Holm p 0.001); seeing every card among careful players is worth less: +20.0 -> +10.0 "
        "percentage points (-10.0 [-15.0, -5.0], Holm p 0.01); a novice's mistakes among careful players: no change "
        "found, -4.0 -> -5.0 percentage points (-1.0 [-3.0, +1.0], Holm p 0.05).",
        "b, 3 players: careful play among random players: no change found, +20.0 -> +25.0 percentage points (+5.0 "
        "[+0.0, +10.0], Holm p 0.2).",
        "a, 3 players: careful play among random players: no change found, +20.0 -> +25.0 percentage points (+5.0 "
        "[+0.0, +10.0], Holm p 0.2).",
    ]  # (in the order the rows come, each rule set and player count once; the field's own line has no words)


# ---------------------------------------------------------------------------- the small words, at their edges


def test_a_relative_change_in_words():
    from snakesim.questions.compare import _how_much

    assert [_how_much(x) for x in (1 / 3, -0.335, 0.25, 0.2, 2 / 3, 0.5)] == [
        "a third", "a third", "a quarter", "a fifth", "two thirds", "50%"]  # fmt: skip
    assert [_how_much(x) for x in (0.32, 0.01, 0.009, -0.0125, 0.0)] == ["32%", "1%", "0.9%", "1%", "0.0%"]


def test_values_inline_and_a_targets_words():
    from snakesim.analysis.words import metric_words
    from snakesim.questions.balance import _inline

    assert (_inline([9, 8, 8]), _inline((1, 2)), _inline(5)) == ("[9, 8, 8]", "[1, 2]", "5")
    assert metric_words("win_rate.2") == "the third player's win rate"
    assert metric_words("means.max_cup") == "the average max_cup"
    assert metric_words("length.median") == "the median game length"
    assert metric_words("draw_rate") == "the share of drawn games"  # (an old spelling)
    assert metric_words("seat_balance.p") == "seat_balance.p"  # (a figure without a noun: its name)
    assert metric_words("nosuch.mean") == "nosuch.mean"


@pytest.mark.parametrize(
    ("op", "value", "tolerance", "ci", "crosses"),
    [
        ("<=", 2.0, 0.0, (1.0, 2.0), False),  # ending exactly on the edge
        ("<=", 2.0, 0.0, (1.0, 2.5), True),
        (">=", 2.0, 0.0, (2.0, 3.0), False),
        (">=", 2.0, 0.0, (1.5, 3.0), True),
        ("=", 60.0, 8.0, (52.0, 68.0), False),
        ("=", 60.0, 8.0, (51.5, 60.0), True),
        ("=", 60.0, 8.0, (60.0, 68.5), True),
    ],
)
def test_an_interval_reaching_past_a_targets_edge(op, value, tolerance, ci, crosses):
    from snakesim.questions.design import _crosses

    t = {"metric": "length.mean", "op": op, "value": value, "tolerance": tolerance, "margin": 1.0, "scale": 1.0}
    assert _crosses(t, ci) is crosses


@pytest.mark.parametrize(
    ("metric", "goal", "ci", "said"),
    [
        ("means.max_cup", 30.0, (29.0, 31.0), "which holds the target"),
        ("means.max_cup", 30.0, (30.0, 31.0), "which holds the target"),  # (the goal on an end of the interval)
        ("means.max_cup", 30.0, (29.0, 30.0), "which holds the target"),
        ("means.max_cup", 30.0, (29.0, 29.5), "close to the target but not on it"),
        ("lead_changes.mean", 6.0, (5.875, 6.125), "which meets the target: what it gives lies within 0.5 lead changes "
         "of it (the smallest difference that matters), closer than anyone would notice"),
        ("lead_changes.mean", 6.0, (6.0, 6.25), "which meets the target: what it gives lies within 0.5 lead changes of "
         "it (the smallest difference that matters), closer than anyone would notice"),
        ("lead_changes.mean", 6.0, (6.125, 6.25), "not exactly the target (it lies outside the interval) but within "
         "0.5 lead changes of it (the smallest difference that matters), closer than anyone would notice"),
        ("lead_changes.mean", 6.0, (7.0, 7.5), "which misses the target by more than matters: by more than 0.5 lead "
         "changes (the smallest difference that matters)"),
        ("lead_changes.mean", 6.0, (6.25, 7.0), "close to the target; these games cannot tell whether it lies within "
         "0.5 lead changes of it (the smallest difference that matters)"),
    ],
)  # fmt: skip
def test_whether_a_tunes_answer_meets_its_target_in_words(metric, goal, ci, said):
    """A designer asked where the "0.5" came from: the margin is said with its unit and source."""
    from snakesim.questions.tune import _meets

    s = {"target": {"metric": metric, "value": goal}, "metric": {"ci": list(ci)}}
    assert _meets(s, None, unit="lead changes") == said


def _balanced(values, base, before, after, status="undecided", tolerance=0.01, novices=None):
    s = {"handicap": "start_points", "values": values, "base": base, "before": {"gap": before},
         "after": {"gap": after}, "tolerance": tolerance, "status": status, "confirm": {"games": 4000},
         "fresh_max_deviation": 0.0125}  # fmt: skip
    if novices is not None:
        s["novices"] = novices
    return balance_findings(s)


def test_balance_in_words_each_way_its_fresh_games_can_go():
    gap = (0.05, 0.03, 0.07)
    assert _balanced([1, 0, 0], [0, 0, 0], gap, (0.09, 0.08, 0.10)) == [
        "The search recommends start_points = [1, 0, 0] instead of [0, 0, 0].",
        "On 4,000 fresh games the largest gap between two seats' chances of winning goes from 5.0 [3.0, 7.0] "
        "percentage points to 9.0 [8.0, 10.0] percentage points: the handicap makes the seats less even there, so "
        "keep the rules as they are.",
    ]
    # (an interval starting exactly where the other ends is not surely apart: not less even)
    said = _balanced([1, 0, 0], [0, 0, 0], gap, (0.08, 0.07, 0.09), status="balanced", tolerance=0.02)[1]
    assert said.endswith(
        ": every seat is within 2 percentage points of the average seat's chance, fair within that tolerance."
    )
    said = _balanced([1, 0, 0], [0, 0, 0], gap, (0.08, 0.07 + 1e-9, 0.09), status="balanced")[1]
    assert said.endswith("less even there, so keep the rules as they are.")
    said = _balanced([1, 0, 0], [0, 0, 0], gap, (0.01, 0.0, 0.02))[1]
    assert said.endswith(": the handicap brings the seats closer, but these games do not show every seat within 1 "
                         "percentage point of the average seat's chance (the furthest is 1.2 percentage points off by "
                         "estimate); more games would tell.")  # fmt: skip
    said = _balanced([1, 0, 0], [0, 0, 0], gap, (0.02, 0.0, 0.03))[1]  # (ending exactly where the other starts)
    assert said.endswith(": a difference these games cannot tell from noise, so keep the rules as they are; these "
                         "games do not show every seat within 1 percentage point of the average seat's chance (the "
                         "furthest is 1.2 percentage points off by estimate).")  # fmt: skip
    kept = _balanced([0, 0, 0], [0, 0, 0], gap, gap, tolerance=0.005)
    assert kept[0] == "Keep start_points as it is ([0, 0, 0]): no handicap found evens the seats further."
    assert kept[1].endswith("; these games do not show every seat within 0.5 percentage points of the average "
                            "seat's chance (the furthest is 1.2 percentage points off by estimate).")  # fmt: skip
    same = _balanced([2, 2, 2], [0, 0, 0], gap, gap)[0]
    assert same == ("The search recommends start_points = [2, 2, 2] instead of [0, 0, 0]: the same for every seat, a "
                    "change of the game rather than a handicap between the seats.")  # fmt: skip


def test_balance_with_novices_in_words():
    novices = {"holds": False, "before": {"gap": (0.04, 0.02, 0.06)}, "after": {"gap": (0.05, 0.03, 0.07)}}
    said = _balanced([1, 0, 0], [0, 0, 0], (0.05, 0.03, 0.07), (0.02, 0.0, 0.04), novices=novices)
    assert said[-1] == ("With novice players the handicap does not hold: largest gap 4.0 [2.0, 6.0] percentage points "
                        "before, 5.0 [3.0, 7.0] percentage points after.")  # fmt: skip
    said = _balanced([1, 0, 0], [0, 0, 0], (0.05, 0.03, 0.07), (0.02, 0.0, 0.04), novices={**novices, "holds": True})
    assert said[-1].startswith("With novice players the handicap holds: largest gap")


CONSTANT = [  # (figure, its one value, players, rule sets compared, its words) -> the sentence, by hand
    ("length", 42.0, 3, 1, "", "Every 3-player Fortune game lasts 42 cards drawn."),
    ("length", 42.0, 3, 2, "", "Every 3-player Fortune game lasts 42 cards drawn under every rule set compared."),
    # (a rate seen never or always: said of these games, with how far its interval reaches)
    ("draw", 0.0, 4, 1, "", "None of these 20,000 4-player Fortune games ended in a draw: draws are at most 0.018% "
     "of games, 95% sure."),
    ("draw", 0.0, 4, 2, "", "None of the 20,000 4-player Fortune games each rule set played ended in a draw: draws "
     "are at most 0.018% of games, 95% sure."),
    ("draw", 1.0, 4, 2, "", "Every one of the 20,000 4-player Fortune games each rule set played ended in a draw: "
     "draws are at least 99.982% of games, 95% sure."),
    ("unfinished", 0.0, 4, 1, "", ""),
    ("tie_break", 0.0, 3, 1, "the tie-break decides", "The tie-break decided none of these 20,000 3-player Fortune "
     "games: it decides at most 0.018% of won games, 95% sure."),
    ("tie_break", 0.0, 3, 2, "the tie-break decides", "The tie-break decided none of the 20,000 3-player Fortune "
     "games each rule set played: it decides at most 0.018% of won games, 95% sure."),
    ("tie_break", 0.25, 3, 1, "the tie-break decides", "The tie-break decides: 25.0%."),
    ("margin", 3.0, 3, 1, "margin", "The winner always ends 3 coins ahead of the next seat."),
    ("margin", 3.0, 3, 2, "margin",
     "The winner always ends 3 coins ahead of the next seat under every rule set compared."),
    ("comeback", 1.0, 3, 1, "a comeback", "A comeback: always in these 20,000 3-player Fortune games, at least "
     "99.982% of won games, 95% sure."),
    ("comeback", 0.0, 3, 1, "a comeback", "A comeback: never in these 20,000 3-player Fortune games, at most 0.018% "
     "of won games, 95% sure."),
    ("comeback", 0.1234, 3, 2, "a comeback", "A comeback: 12.3% under every rule set compared."),
    ("lead_changes", 2.0, 3, 1, "lead changes per game", "Lead changes per game is 2.00 in every game."),
    ("lead_changes", 2.345, 3, 2, "lead changes per game",
     "Lead changes per game is 2.35 in every game under every rule set compared."),
]  # fmt: skip


@pytest.mark.parametrize(("row", "value", "players", "arms", "label", "sentence"), CONSTANT)
def test_a_figure_that_never_varies_is_said_once(row, value, players, arms, label, sentence):
    # (the margin's unit is the row's, what the rules score: never read out of its label)
    bound = 0.00018 if value == 0 else 0.99982  # (the furthest the rows' 95% intervals reach)
    said = constant_sentence(row, value, get_game("fortune"), players, arms, label=label, unit="coins", games=20_000,
                             bound=bound)  # fmt: skip
    assert said == sentence


def test_a_rate_never_seen_is_said_of_the_games_played_with_how_far_its_interval_reaches():
    """Zero draws in 5,000 games are no rule that no game ends in a draw (a longer run has one):
    the sentence says what these games show and the interval's upper end, the rows' own."""
    from snakesim.analysis.words import percent, points
    from snakesim.questions import compare as question

    answer = question.play(question.ask("fortune", 4, ["standard", "crosses-to-cup"], Budget(5_000, 11)))
    draws = answer.table[answer.table["metric"] == "draw"]
    assert (draws["value"] == 0).all()
    high = draws["high"].max()
    said = [f["text"] for f in answer.findings if "in a draw" in f["text"]]
    assert said == [f"None of the 5,000 4-player Fortune games each rule set played ended in a draw: draws are at most "
                    f"{percent(high, points(0.0, high))} of games, 95% sure."]  # fmt: skip
    assert not any("No 4-player" in f["text"] or "never" in f["text"] for f in answer.findings)


def test_a_seats_player_is_named_by_its_kind_not_its_settings():
    """A family read "The expert:64 player in seat 1 wins ..."."""
    from snakesim.questions.compare import seat_name

    lineup = ("greedy", "expert:64", "greedy:0.3", "random")
    assert [seat_name(k, lineup) for k in range(4)] == [
        "the first player (greedy)", "the second player (expert)", "the third player (novice)",
        "the fourth player (random)"]  # fmt: skip
    assert seat_name(1, ("greedy", "greedy")) == "the second player"


# ---------------------------------------------------------------------------- seats as players say them


def test_seats_are_named_as_players_count_them():
    from snakesim.analysis.words import ordinal, seat_players, seat_whose

    assert [ordinal(s) for s in (0, 1, 2, 9, 10)] == ["first", "second", "third", "tenth", "11th"]
    assert seat_players([0, 2]) == "the first and third players" and seat_whose([3]) == "the fourth player's"
    assert seat_whose([0, 1, 3]) == "the first, second and fourth players'"


def test_a_handicap_sets_its_seats_apart_in_words():
    from snakesim.analysis.words import handicaps

    assert handicaps({"start_coins": [20, 20, 24, 20]}, FORTUNE) == {2: "start_coins 24, the others 20"}
    # No value the most common: every seat with its own; one value for all (a list or not): none.
    assert handicaps({"start_coins": [20, 22, 24]}, FORTUNE) == {
        0: "start_coins 20", 1: "start_coins 22", 2: "start_coins 24"}  # fmt: skip
    assert handicaps({"start_coins": [20, 20, 20]}, FORTUNE) == {} == handicaps({"start_coins": 20}, FORTUNE)
    assert handicaps({"snakes": [1, 2]}, FORTUNE) == {}  # (not a per-seat option)


@pytest.fixture(scope="module")
def child_with_extra_coins():
    """Fortune, 4 players, the third with 4 coins more than the others (the workbench's case:
    the summary spoke only of the first player's edge)."""
    from snakesim.analysis.compare import compare_variants

    return compare_variants(FORTUNE, 4, ["standard", "child=standard,start_coins=[20,20,24,20]"], Budget(4000, 1),
                            RuleSource())  # fmt: skip


def test_a_handicapped_seat_is_named_with_its_handicap_and_a_fair_share(child_with_extra_coins):
    table = child_with_extra_coins[0]
    said = compare_findings(table, FORTUNE, 4, 4000)
    child = [f for f in said if f["arm"] == "child" and f["text"].startswith("The third player (start_coins 24")]
    assert len(child) == 1, [f["text"] for f in said]
    text, r = child[0]["text"], table.set_index(["variant", "metric"]).loc[("child", "win_rate.2")]
    assert text.startswith("The third player (start_coins 24, the others 20) wins ")
    assert ", a fair share being 25.0%; the first, second and fourth players win " in text
    assert f"{100 * r['value']:.1f}%" in text and "with standard" in text
    assert [c["metric"] for c in child[0]["claims"]] == ["win_rate.2"] and child[0]["claims"][0]["says"] == r["verdict"]
    assert check([c for f in said for c in f["claims"]], table) == []
    # The other sentences leave the third player to that one.
    assert not any("the third player" in f["text"] for f in said if f is not child[0] and f["arm"] == "child"
                   and not f["text"].startswith("This rule set"))  # fmt: skip


def test_a_run_names_the_handicapped_seat():
    from snakesim.questions import run as question

    plan = question.ask("fortune", 4, Budget(4000, 1), RuleSource(settings=("start_coins=[20,20,24,20]",)))
    said = question.play(plan).findings[0]
    assert "the third player (start_coins 24, the others 20) wins most often" in said
