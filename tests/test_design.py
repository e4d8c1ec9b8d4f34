"""Design search (issue 45): the rule sets that meet every target at once."""

import json
import math

import pytest
from click.testing import CliRunner

from snakesim.analysis.design import (
    BEATEN,
    EDGE,
    MAX_CONFIRM,
    MEETS,
    MISSES,
    NEAR,
    UNDECIDED,
    Entry,
    _drop_beaten,
    _holding_first,
    _nearest,
    anytime_level,
    call,
    design,
    pareto,
)
from snakesim.analysis.design_space import (
    Dimension,
    Space,
    Target,
    check_size,
    parse_prefer,
    parse_question,
    parse_target,
    parse_vary,
)
from snakesim.analysis.verdicts import parse_matters
from snakesim.cli import cli
from snakesim.core.arms import Budget, RuleSource, resolve_rules
from snakesim.core.errors import InputError
from snakesim.games import get_game
from snakesim.questions.design import design_findings

FORTUNE = get_game("fortune")
QUESTION = ("--vary", "start_coins=8:14", "--vary", "variant=standard,rejoin", "--target", "length.median=45+-6",
            "--target", "out_share.mean<=0.22", "-n", "1000")  # fmt: skip


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_target_is_called_against_the_target_widened_by_what_matters():
    t = Target("out_share.mean", "<=", 0.22, margin=0.03)  # widened: up to 0.25
    assert call(t, 0.20, 0.19, 0.21) == MEETS
    assert call(t, 0.23, 0.22, 0.24) == NEAR  # off the target, by less than matters
    assert call(t, 0.27, 0.255, 0.285) == MISSES  # every value in the interval beyond 0.25
    assert call(t, 0.24, 0.23, 0.26) == UNDECIDED  # the interval crosses 0.25
    assert call(t, 0.25, 0.24, 0.26) == EDGE  # crosses it, narrower than what matters: about that far off
    assert call(t, math.nan, math.nan, math.nan) == UNDECIDED
    band = Target("length.median", "=", 60, tolerance=8, margin=3)  # widened: 49 to 71
    assert band.region == (52, 68) and band.widened == (49, 71)
    assert call(band, 48, 45, 48.9) == MISSES and call(band, 50, 49, 51) == NEAR and call(band, 55, 53, 57) == MEETS
    assert band.shortfall(75) == 7 and band.shortfall(60) == 0


def test_the_anytime_level_is_above_the_fixed_one_and_surer_for_more_looks():
    fixed = 1 - 0.05
    first = anytime_level(2_000, 0.05, 8_000)
    assert first > fixed
    # (in z, tightest at the games it is tuned for, and wider far from them either way)
    assert anytime_level(8_000, 0.05, 8_000) < first < anytime_level(2_048_000, 0.05, 8_000)
    assert anytime_level(2_000, 0.05 / 100, 8_000) > first  # split over 100 looks: surer each


def test_targets_and_dimensions_parse_with_their_units():
    rules = resolve_rules(FORTUNE)[1]
    gap = parse_target(FORTUNE, 4, "seat_gap<=1")
    assert gap.value == pytest.approx(0.01) and gap.margin == pytest.approx(0.01) and gap.show(gap.value) == "1 point"
    share = parse_target(FORTUNE, 4, "out_share.mean<=25%")  # (a share in percent, or as a fraction)
    assert share.value == pytest.approx(0.25) and share.text == "out_share.mean <= 25%"
    assert parse_target(FORTUNE, 4, "out_share.mean<=0.25").text == "out_share.mean <= 0.25"
    band = parse_target(FORTUNE, 4, "length.median=60+-8")
    assert band.region == (52, 68) and band.margin == pytest.approx(3.0)  # 5% of 60
    assert parse_target(FORTUNE, 4, "comeback.share>=0.35").feel
    assert parse_vary(FORTUNE, rules, 4, "start_coins=8:10").values == (8, 9, 10)
    assert parse_vary(FORTUNE, rules, 4, "deck.RAIN=0,5").values == (0, 5)
    assert parse_vary(FORTUNE, rules, 4, "start_coins.3=18:19").values == (18, 19)
    assert parse_vary(FORTUNE, rules, 4, "variant=standard,rejoin").values == ("standard", "rejoin")
    assert parse_vary(get_game("rainbow"), resolve_rules(get_game("rainbow"))[1], 4, "direction=all").values
    p = parse_prefer(FORTUNE, 4, "length.median", None)
    assert p.way == "lower" and p.margin(100) == pytest.approx(5.0)


def test_a_share_target_near_0_or_100_percent_gets_a_margin_on_its_own_scale():
    """The registry's 3 points around ``tie_break.share<=2%`` would call a rule set at 2.8% near
    the target (off by less than matters): there what matters is a quarter of the target's
    distance from 0% (half a point), unless --matters says otherwise."""
    hisss = get_game("hisss")
    small = parse_target(hisss, 4, "tie_break.share<=2%")
    assert small.margin == pytest.approx(0.005) and small.widened[1] == pytest.approx(0.025)
    assert call(small, 0.028, 0.026, 0.030) == MISSES
    assert parse_target(hisss, 4, "tie_break.share<=0").margin == pytest.approx(0.001)
    assert parse_target(FORTUNE, 4, "win_rate.0>=0.97").margin == pytest.approx(0.0075)  # (near 100%: 3 points off)
    assert parse_target(hisss, 4, "tie_break.share<=0.3").margin == pytest.approx(0.03)  # (mid-range: the registry's)
    assert parse_target(FORTUNE, 4, "out_share.mean<=0.22").margin == pytest.approx(0.03)
    mine = parse_target(hisss, 4, "tie_break.share<=2%", parse_matters("tie_break=3"))
    assert mine.margin == pytest.approx(0.03)  # (the user's own margin stands)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--vary", "coins=1:3", "--target", "length.median=60+-8"), "--vary: unknown option 'coins'"),
        (("--vary", "start_coins=8", "--target", "length.median=60+-8"), "give at least two values"),
        (("--vary", "snakes=x,y", "--target", "length.median=60+-8"), "snakes: expected an integer"),
        (("--vary", "variant=standard,nope", "--target", "length.median=60"), "--vary: unknown variant 'nope'"),
        (("--vary", "snakes=1:2", "--target", "length.median<=60+-8"), "a tolerance (+-) goes with = only"),
        (("--vary", "snakes=1:2", "--target", "length"), "--target: expected FIGURE<=V"),
        (("--vary", "snakes=1:2", "--target", "speed.mean<=3"), "--target: unknown metric 'speed.mean'"),
        (("--vary", "snakes=1:2", "--target", "seat_gap<=200"), "--target: 'seat_gap<=200': seat_gap is in"),
        (("--vary", "snakes=1:2", "--target", "out_share.mean<=25"), "is a share from 0 to 1: write 0.25 or 25%"),
        (("--vary", "snakes=1:2", "--target", "length.medain=60"), "did you mean length.median?"),
        (("--vary", "snakes=1:2", "--target", "draw.share<=0.1", "--prefer", "lenght.mean"), "--prefer: unknown"),
        (("--vary", "snakes=1:2", "--vary", "snakes=3,4", "--target", "draw.share<=0.1"), "snakes is varied twice"),
        (("--vary", "snakes=1:2", "--target", "draw.share<=0.1", "--prefer", "length.mean=up"), "--prefer:"),
        (
            (
                *(
                    x
                    for k in "LEAVES POPPIES ORCHIDS FOUNTAIN SUNS STARS".split()
                    for x in ("--vary", f"deck.{k}=0:199")
                ),
                "--target",
                "draw.share<=0.1",
            ),
            "can be searched: narrow a range",
        ),
        (("--vary", "snakes=1:2", "--target", "draw.share<=0.1", "--budget", "3000"), "--budget: 2 rule sets x"),
        # (each said what is wrong in words a designer had to puzzle over)
        (("--vary", "start_coins.5=10:12", "--target", "length.median=60"), "start_coins's seat is from 0 to 3"),
        (("--vary", "snakes.1=1:2", "--target", "length.median=60"), "snakes is not one"),
        (("--vary", "start_coins=20:10", "--target", "length.median=60"), "(LOW first: 10:20)"),
        (("--vary", "start_coins=8:12:2", "--target", "length.median=60"), "a range takes no step here"),
        (("--vary", "snakes=1:2", "--target", "length.median=>60"), "'length.median=>60': write length.median>=60"),
    ],
)
def test_bad_design_input_is_one_line_and_exit_2(args, words, tmp_path):
    r = invoke("design", "fortune", *args, "--out", tmp_path / "answers")
    assert r.exit_code == 2, r.output
    assert words in r.output and "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "answers").exists()  # nothing written


def test_design_answers_hold_on_fresh_games_and_its_files_give_the_same_rules(tmp_path):
    r = invoke("design", "fortune", *QUESTION, "--json", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    targets = {t["metric"]: t for t in s["targets"]}
    assert s["answers"], s["counts"]
    search_end = s["search"]["most_games_a_rule_set"]
    for a in s["answers"]:
        assert a["status"] == MEETS and a["confirmed"]["holds"]
        assert a["confirmed"]["first"] == search_end  # fresh: after every game the search played
        for metric, f in a["confirmed"]["figures"].items():
            t = Target(metric, targets[metric]["op"], targets[metric]["value"], targets[metric]["tolerance"],
                       targets[metric]["margin"])  # fmt: skip
            low, high = t.widened
            assert low <= f["ci"][0] and f["ci"][1] <= high and t.shortfall(f["value"]) == 0
        # The rules file plays the same rule set (the same hash) in `run`.
        ran = invoke("run", "fortune", "--rules", a["file"], "-n", 200, "--json")
        assert ran.exit_code == 0, ran.output
        assert json.loads(ran.stdout)["rules_hash"] == a["rules_hash"]
    rows = {row["label"]: row for row in s["rule_sets"]}
    assert len(rows) == 14 and sum(s["counts"].values()) == 14
    for row in rows.values():  # a rule set dropped as a miss lies beyond a widened target
        if row["status"] == MISSES:
            assert any(row[f"{m}_high"] < targets[m]["value"] - targets[m]["tolerance"] - targets[m]["margin"]
                       or row[f"{m}_low"] > targets[m]["value"] + targets[m]["tolerance"] + targets[m]["margin"]
                       for m in targets)  # fmt: skip
    text = invoke("design", "fortune", *QUESTION)
    assert "meet every target" in text.stdout and "fresh: holds" in text.stdout and "In words" in text.stdout


def test_racing_and_the_exhaustive_grid_agree_on_the_same_games():
    rules = resolve_rules(FORTUNE)[1]
    dims = tuple(parse_vary(FORTUNE, rules, 4, v) for v in ("start_coins=8:14", "variant=standard,rejoin"))
    targets = tuple(parse_target(FORTUNE, 4, t) for t in ("length.median=45+-6", "out_share.mean<=0.22"))
    race = design(FORTUNE, RuleSource(), 4, dims, targets, budget=Budget(1_000, 3, max_games=10**8), confirm=False)
    most = race.summary["search"]["most_games_a_rule_set"]
    grid = design(FORTUNE, RuleSource(), 4, dims, targets, budget=Budget(most, 3, max_games=10**9), racing=False,
                  confirm=False)  # fmt: skip
    assert race.summary["search"]["games_played"] < grid.summary["search"]["games_played"] / 2
    status = dict(zip(grid.table["label"], grid.table["status"], strict=True))
    for label, said in zip(race.table["label"], race.table["status"], strict=True):
        assert {said, status[label]} != {MEETS, MISSES}, label  # never an answer in one and a miss in the other
    assert {a["label"] for a in race.summary["answers"]} == {a["label"] for a in grid.summary["answers"]}


def test_nothing_meets_gives_the_nearest_miss_and_what_it_misses_by(tmp_path):
    r = invoke("design", "fortune", "--vary", "start_coins=8:10", "--target", "length.median=200+-5", "-n", 500,
               "--json", "--plot", tmp_path / "d.png")  # fmt: skip
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert s["answers"] == [] and s["nearest"][0]["label"] == "start_coins=10"
    miss = s["nearest"][0]["misses"][0]
    assert miss["metric"] == "length.median" and miss["by"] == pytest.approx(195 - miss["value"])
    assert any("No rule set meets every target" in f for f in s["findings"])
    # (its figures are the search's: the fresh games' in the table differ a little)
    assert any(f.startswith("The nearest is start_coins=10 on the search's games: ") for f in s["findings"])
    assert (tmp_path / "d.png").stat().st_size > 10_000


def _entry(label, status, figures=(), prefer=None):
    e = Entry(candidate=None, label=label, figures=list(figures), status=status, prefer=prefer)
    return e


def test_an_answer_clearly_worse_on_the_preferred_figure_is_beaten():
    prefer = parse_prefer(FORTUNE, 4, "out_share.mean", None)  # lower; what matters: 0.03
    best = _entry("a", MEETS, prefer=(0.10, 0.09, 0.11))
    close = _entry("b", MEETS, prefer=(0.14, 0.13, 0.15))  # 0.13 - 0.11 = 0.02: not clearly worse
    far = _entry("c", MEETS, prefer=(0.20, 0.19, 0.21))  # 0.19 - 0.11 = 0.08
    _drop_beaten([best, close, far], prefer)
    assert (best.status, close.status, far.status) == (MEETS, MEETS, BEATEN)


def test_the_first_answer_holds_on_fresh_games_where_any_does():
    """A Hisss search ranked first (and wrote as answer-1.toml) the one answer of three that
    landed off the tie-break target on fresh games, then told the user to prefer the others.
    The answers that hold come first now, each group in its rank, and the words say so."""
    ranked = [_entry(label, MEETS) for label in ("slips", "holds", "unconfirmed", "also holds")]
    confirmed = [{"label": "slips", "holds": False}, {"label": "holds", "holds": True},
                 {"label": "also holds", "holds": True}]  # fmt: skip
    assert [e.label for e in _holding_first(ranked, confirmed)] == ["holds", "also holds", "unconfirmed", "slips"]
    t = {
        "metric": "tie_break.share",
        "op": "<=",
        "value": 0.02,
        "tolerance": 0.0,
        "margin": 0.005,
        "unit": "%",
        "text": "tie_break.share <= 2%",
        "scale": 100.0,
    }
    fresh = {"games": 32_000, "figures": {"tie_break.share": {"value": 0.018, "ci": [0.016, 0.02]}}}
    answers = [
        {"label": "holds", "confirmed": {**fresh, "holds": True, "calls": {"tie_break.share": MEETS}}},
        {"label": "slips", "confirmed": {**fresh, "holds": False, "calls": {"tie_break.share": NEAR}}},
    ]
    s = {"targets": [t], "answers": answers, "prefer": None, "nearest": [], "pareto": [],
         "counts": {"near": 0, "edge": 0, "undecided": 0},
         "search": {"racing": False, "rule_sets": 2, "most_games_a_rule_set": 1, "games_played": 2,
                    "games_in_all": 2}}  # fmt: skip
    said = design_findings(s, FORTUNE)
    assert said[1].startswith("Of them, the surest of those that hold on fresh games (the furthest inside the targets) "
                              "is holds:")  # fmt: skip
    assert said[2].startswith("On fresh games 1 of the 2 lands off a target (slips)")
    # One answer is not "the surest of them"; an interval past the target's edge is said to be
    # within what matters (a family read "1.7 points [1.1, 2.4] ... holds" as a contradiction).
    answers[0]["confirmed"]["figures"] = {"tie_break.share": {"value": 0.019, "ci": [0.015, 0.023]}}
    s.update(answers=answers[:1])
    said = design_findings(s, FORTUNE)
    assert said[1].startswith("On 32,000 fresh games the share of games won on the tie-break 1.9%")
    assert said[1].endswith("every target holds there (each estimate on its target, each interval within what "
                            "matters of it).")  # fmt: skip
    # With no answer, the nearest miss is not counted again among the near ones.
    s.update(
        answers=[],
        counts={"near": 3, "edge": 0, "undecided": 0},
        nearest=[{"label": "n", "status": NEAR, "misses": [], "figures": {}}],
    )
    assert "2 more rule sets come within what matters of every target" in " ".join(design_findings(s, FORTUNE))


def test_the_near_table_says_when_it_shows_only_the_nearest():
    """ "15 near" above a table of 5 rows read as a miscount: the table says it shows the 5
    nearest of 15, and they are the nearest (the least summed shortfall), not the first five."""
    from snakesim.cli.design import format_design

    t = {
        "metric": "length.mean",
        "op": "<=",
        "value": 50.0,
        "tolerance": 0.0,
        "text": "length.mean <= 50",
        "margin": 2.5,
        "unit": "",
        "scale": 1.0,
    }
    cell = {"length.mean": {"value": 51.0, "ci": [50.5, 51.5]}}
    answer = {"label": "a", "figures": {"length.mean": {"value": 49.0, "ci": [48.0, 50.0]}}, "games": 2_000}
    s = {"targets": [t], "answers": [answer], "nearest": [], "near": [{"label": f"n{k}", "figures": cell}
         for k in range(5)], "pareto": [], "unplayable": [], "prefer": None,
         "counts": {"meets": 1, "near": 15, "edge": 0, "misses": 0, "beaten": 0, "undecided": 0},
         "search": {"rule_sets": 16, "sampled": None, "space": 16, "rounds": 1, "first_round": 2_000,
                    "most_games_a_rule_set": 2_000, "games_played": 32_000, "games_in_all": 32_000,
                    "elapsed_s": 0.1}}  # fmt: skip
    assert "(the search's games; the 5 nearest of 15)" in format_design(s, "Fortune", 4, "standard", 1)
    far, near = _entry("far", NEAR, [(52.4, 52.2, 52.5)]), _entry("near", NEAR, [(50.2, 50.1, 50.3)])
    target = Target("length.mean", "<=", 50, margin=2.5)
    assert [e.label for e in _nearest([far, near], (target,))] == ["near", "far"]
    # A share's shortfall is in percentage points in the table as in the words (the table said
    # "by about 0.9663%" above words saying "about 0.97 percentage points").
    share = {"metric": "tie_break.share", "op": "<=", "value": 0.02, "tolerance": 0.0, "text": "tie_break.share <= 2%",
             "margin": 0.005, "unit": "%", "scale": 100.0}  # fmt: skip
    miss = {"label": "m", "games": 2_000, "figures": {"tie_break.share": {"value": 0.0297, "ci": [0.026, 0.034]}},
            "misses": [{"metric": "tie_break.share", "by": 0.0097, "value": 0.0297, "ci": [0.026, 0.034]}]}  # fmt: skip
    s.update(targets=[share], answers=[], nearest=[miss], near=[], counts={**s["counts"], "meets": 0, "near": 0})
    assert "off tie_break.share <= 2% by about 0.97 percentage points on the search's games: 2.97% [2.6, 3.4]" in (
        format_design(s, "Hisss", 4, "standard", 1)
    )


def test_the_trade_off_set_keeps_only_rule_sets_no_other_beats_on_every_target():
    targets = (Target("length.mean", "<=", 50, margin=2), Target("out_share.mean", "<=", 0.2, margin=0.03))
    a = _entry("a", MISSES, [(60, 59, 61), (0.15, 0.14, 0.16)])  # misses length only
    b = _entry("b", MISSES, [(45, 44, 46), (0.30, 0.29, 0.31)])  # misses the share only
    c = _entry("c", MISSES, [(70, 69, 71), (0.30, 0.29, 0.31)])  # worse than both on each
    assert [e.label for e in pareto([a, b, c], targets)] == ["a", "b"]


@pytest.mark.slow  # (tests/test_choices.py samples a smaller budget in the default run)
def test_a_space_too_large_to_play_whole_is_sampled_the_same_way_each_time():
    args = ("design", "fortune", "--vary", "start_coins=5:60", "--vary", "snakes=0:9", "--target",
            "length.median=45+-5", "--target", "out_share.mean<=0.25", "-n", 200, "--budget", 100_000,
            "--json")  # fmt: skip
    first, again = invoke(*args), invoke(*args)
    assert first.exit_code == 0, first.output
    s = json.loads(first.stdout)
    assert s["search"]["space"] == 560 and s["search"]["sampled"]["rule_sets"] <= (100_000 - 5_000) // 400
    assert s["search"]["games_in_all"] <= 100_000
    confirmed = [a["confirmed"] for a in s["answers"] if "confirmed" in a]  # (the first MAX_CONFIRM answers)
    assert s["answers"] and len(confirmed) == min(MAX_CONFIRM, len(s["answers"]))
    assert all(c["holds"] for c in confirmed)
    assert json.loads(again.stdout)["answers"] == s["answers"]  # seeded: the same rule sets, the same games


def test_a_design_section_of_a_study_reports_its_answers(tmp_path):
    study = tmp_path / "design.toml"
    study.write_text(
        'title = "Shorter Fortune"\nquestion = "Which coins give about 45 cards?"\ngame = "fortune"\n\n'
        '[[design]]\nplayers = 4\nvary = ["start_coins=8:14", "variant=standard,rejoin"]\n'
        'targets = ["length.median=45+-6", "out_share.mean<=0.22"]\ngames = 1000\n'
    )
    r = invoke("study", study, "--out", tmp_path / "report")
    assert r.exit_code == 0, r.output
    report = (tmp_path / "report" / "report.md").read_text()
    assert "meet every target" in report and "design-1.png" in report and "holds on fresh games" in report
    assert (tmp_path / "report" / "design-1.png").stat().st_size > 10_000
    study.write_text(study.read_text().replace("games = 1000", 'games = 1000\ntarget = "x"'))
    bad = invoke("study", study, "--out", tmp_path / "again")
    assert bad.exit_code == 2 and "design[0].target: unknown key" in bad.output
    assert not (tmp_path / "again").exists()


def test_the_python_api_gives_the_commands_answers():
    import snakesim

    found = snakesim.design("fortune", 4, vary=["start_coins=8:14", "variant=standard,rejoin"],
                            targets=["length.median=45+-6", "out_share.mean<=0.22"], games=1000, seed=1)  # fmt: skip
    r = invoke("design", "fortune", *QUESTION, "--json")
    assert [a["label"] for a in found.summary["answers"]] == [a["label"] for a in json.loads(r.stdout)["answers"]]
    assert set(found.table["status"]) <= {MEETS, NEAR, EDGE, MISSES, UNDECIDED} and len(found.table) == 14
    with pytest.raises(snakesim.InputError, match="--target: give at least one"):
        snakesim.design("fortune", 4, vary="snakes=1:2", targets=[])


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("--vary", "start_coins=10,10"), "--vary: start_coins: a value is given twice in [10, 10]"),
        (("--vary", "start_coins=10"), "--vary: start_coins: give at least two values to choose between"),
        (("--vary", "start_coins=10,12", "--vary", "start_coins=14,16"), "--vary: start_coins is varied twice"),
        (("--vary", "start_coins=10,12", "--vary", "snakes=1,2", "--vary", "start_coins=14,16", "--vary", "snakes=2,3"),
         "--vary: start_coins is varied twice"),  # (the first of two options given twice)
        (("--vary", "start_coins=10,12", "--prefer", "a b"),
         "--prefer: expected METRIC, METRIC=lower or METRIC=higher (e.g. out_share.mean=lower), got 'a b'"),
        (("--vary", "start_coins=10,12", "--prefer", "=lower"),
         "--prefer: expected METRIC, METRIC=lower or METRIC=higher (e.g. out_share.mean=lower), got '=lower'"),
        (("--vary", "start_coins=10,12", "--prefer", "win_rate.7=higher"),
         "--prefer: expected win_rate.SEAT with a seat from 0 to 2, got 'win_rate.7'"),
        (("--vary", "start_coins=10,12", "--prefer", "out_share.mean=sideways"),
         "--prefer: expected METRIC=lower or METRIC=higher, got 'out_share.mean=sideways'"),
        (("--vary", "start_coins=10,12", "--prefer", "nosuch.mean"), "--prefer: unknown metric 'nosuch.mean'; expected "
         "one of length.mean, length.median, length.p95, draw.share, unfinished.share, lead_changes.mean, "
         "decided.mean, comeback.share, last_tenth.share, deficit.mean, leads_alone_q1.share, leads_alone_q2.share, "
         "leads_alone_q3.share, leader_wins_q1.share, leader_wins_q2.share, leader_wins_q3.share, out_share.mean, "
         "win_rate.SEAT, means.COLUMN"),
        (("--vary", "nosuch=1,2"),
         "--vary: unknown option 'nosuch'; expected one of variant, start_coins, snakes, turn_cap, deck, effects"),
    ],
)  # fmt: skip
def test_bad_design_input_is_said_in_exactly_one_line_naming_its_field(args, line):
    r = invoke("design", "fortune", "-p", 3, "-n", 100, "-t", 1, "--target", "length.median<=50", *args)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"snakesim: error: {line}\n"


def test_prefer_higher_and_prefer_with_what_matters():
    higher = parse_prefer(FORTUNE, 3, "out_share.mean=higher", None)
    assert (higher.way, higher.sign, higher.margin(0.5)) == ("higher", -1.0, pytest.approx(0.03))
    given = parse_prefer(FORTUNE, 3, "lead_changes.mean", parse_matters("lead_changes=0.75"))
    assert (given.way, given.sign, given.margin(10.0)) == ("lower", 1.0, pytest.approx(0.75))
    assert given.target.margin == pytest.approx(0.75)  # (its figure, as a target, carries the same margin)
    _, _, asked = parse_question(FORTUNE, FORTUNE.rules.variant("standard"), 3, vary="start_coins=8,9",
                                 targets="length.median<=60", prefer="lead_changes.mean",
                                 matters=parse_matters("lead_changes=0.75"))  # fmt: skip
    assert asked == given
    column = parse_prefer(FORTUNE, 3, "means.max_cup", None)  # (no registered margin: 5% of the best's value)
    assert column.matters.relative and column.margin(40.0) == pytest.approx(2.0)


def test_a_targets_values_as_the_user_writes_them():
    share = Target("out_share.mean", "<=", 0.22, margin=0.03, scale=100.0, unit="%")
    assert share.show(0.2) == "20%" and share.show(0.2, unit=False) == "20"
    assert share.interval({"value": 0.2, "ci": [0.15, 0.25]}) == "20% [15, 25]"
    gap = Target("seat_gap", "<=", 0.01, margin=0.01, scale=100.0, unit=" points")
    assert gap.show(0.01) == "1 point" and gap.show(0.02) == "2 points"
    plain = Target("length.mean", "<=", 40.0, margin=2.0)
    assert plain.show(12345.6) == "12,346" and plain.show(9999.4) == "9999" and plain.show(1.0) == "1"
    assert plain.show(math.inf) == "never" and plain.show(-math.inf) == "-" and plain.show(math.nan) == "-"
    back = Target.of({"metric": "seat_gap", "op": "<=", "value": 0.01, "tolerance": 0.0, "margin": 0.01,
                      "scale": 100.0, "unit": " points"})  # fmt: skip
    assert back == gap
    assert Target.of({"metric": "length.mean", "op": "<=", "value": 40.0, "tolerance": 0.0, "margin": 2.0,
                      "scale": 1.0}) == plain  # fmt: skip


def test_a_space_with_no_playable_rule_set_names_the_first_and_why():
    r = invoke("design", "rainbow", "-p", 4, "-n", 100, "-t", 1, "--vary", "hand_size=40,50",
               "--target", "length.median<=50")  # fmt: skip
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == ("snakesim: error: --vary: no rule set the dimensions give can be played (hand_size=40: "
                        "hand_size: dealing 40 cards to 4 players needs 160 cards; the deck has 52)\n")  # fmt: skip


@pytest.mark.parametrize(("field", "key", "texts", "message"), [
    ("--vary", "vary", 5, "expected a list of texts, got 5"),
    ("--vary", "vary", ["start_coins=8,9", 5], "expected a list of texts, got ['start_coins=8,9', 5]"),
    ("--target", "targets", ("  ", ""), "give at least one"),
])  # fmt: skip
def test_a_questions_texts_are_a_list_of_texts(field, key, texts, message):
    asked = {"vary": "start_coins=8,9", "targets": "length.median<=60", key: texts}
    with pytest.raises(InputError) as err:
        parse_question(FORTUNE, FORTUNE.rules.variant("standard"), 3, **asked)
    assert str(err.value) == f"{field}: {message}"


ALLOWED = "variant, start_coins, snakes, turn_cap, deck, effects"


@pytest.mark.parametrize(
    ("game", "text", "line"),
    [
        ("fortune", "start_coins", f"--vary: expected NAME=LOW:HIGH or NAME=A,B,... with NAME one of {ALLOWED}, got "
         "'start_coins'"),
        ("fortune", "=1,2", f"--vary: expected NAME=LOW:HIGH or NAME=A,B,... with NAME one of {ALLOWED}, got '=1,2'"),
        ("fortune", "start_coins=", f"--vary: expected NAME=LOW:HIGH or NAME=A,B,... with NAME one of {ALLOWED}, got "
         "'start_coins='"),
        ("fortune", "feel=true,false", f"--vary: unknown option 'feel'; expected one of {ALLOWED}"),
        ("fortune", "deck=1,2", "--vary: deck is a table: vary one entry, e.g. deck.LEAVES=A,B"),
        ("fortune", "deck.RAIN=x,2", "deck.RAIN: expected an integer from 0 to 10,000, got 'x'"),
        ("fortune", "start_coins=1:300", "--vary: start_coins=1:300: at most 200 values a dimension"),
        ("fortune", "variant=standard,nosuch",
         "--vary: unknown variant 'nosuch'; expected some of standard, one-snake, rejoin, crosses-to-cup"),
        ("rainbow", "hand_size.3=5,6", "--vary: hand_size.3: hand_size's seat is from 0 to 2 with 3 players"),
        ("fortune", "snakes.1=1,2", "--vary: snakes.1: a seat is given only for a per-seat option; snakes is not one"),
        ("rainbow", "hand_size.1=5,x", "hand_size.1: expected an integer from 1 to 100, got 'x'"),
        ("hisss", "claim_joined=0:1",
         "--vary: claim_joined is not an integer option: give its values as A,B,... (true or false)"),
        ("fortune", "start_coins=a=b", "start_coins: expected an integer from 1 to 1,000,000, got 'a=b'"),
        ("fortune", "start_coins=1:3,5", "start_coins: expected an integer from 1 to 1,000,000, got '1:3'"),
        ("fortune", "start_coins=1:201", "--vary: start_coins=1:201: at most 200 values a dimension"),
        ("fortune", "start_coins=all", "start_coins: expected an integer from 1 to 1,000,000, got 'all'"),
    ],
)  # fmt: skip
def test_a_dimension_that_cannot_be_varied_is_said_in_one_line(game, text, line):
    spec = get_game(game)
    with pytest.raises(InputError) as err:
        parse_vary(spec, spec.rules.variant("standard"), 3, text)
    assert str(err.value) == line


@pytest.mark.parametrize(
    ("game", "text", "values"),
    [
        ("fortune", "start_coins=1:200", tuple(range(1, 201))),  # (200 values: the most a dimension takes)
        ("fortune", "start_coins.1=3,4", (3, 4)),  # (seat 1's coins)
        ("fortune", "deck.RAIN=1, 2", (1, 2)),
        ("fortune", "variant=standard, rejoin", ("standard", "rejoin")),
        ("rainbow", "hand_size.2=5,6", (5, 6)),  # (the last seat of three)
        ("rainbow", "hand_size=5:7", (5, 6, 7)),
        ("hisss", "claim_joined=all", (True, False)),
        ("hisss", "tie_break=*", ("longest", "snakes", "cards", "none")),
        ("hisss", "tie_break=all", ("longest", "snakes", "cards", "none")),
    ],
)
def test_a_dimension_takes_its_values_as_written(game, text, values):
    spec = get_game(game)
    dim = parse_vary(spec, spec.rules.variant("standard"), 3, text)
    assert (dim.name, dim.values) == (text.partition("=")[0], values)


@pytest.mark.parametrize(
    ("text", "fields"),
    [  # (op, value, tolerance, margin, scale, feel, unit): each as written, in the figure's own terms
        ("seat_gap<=0.1", ("<=", 0.001, 0.0, 0.01, 100.0, False, " points")),  # the smallest seat gap
        ("seat_gap<=100", ("<=", 1.0, 0.0, 0.01, 100.0, False, " points")),  # the largest
        ("seat_gap=3+-1", ("=", 0.03, 0.01, 0.01, 100.0, False, " points")),
        ("length.median=60+-5", ("=", 60.0, 5.0, 3.0, 1.0, False, "")),
        ("length.median=60 +- 5%", ("=", 60.0, 3.0, 3.0, 1.0, False, "")),  # 5% of 60
        ("length.median=60", ("=", 60.0, 3.0, 3.0, 1.0, False, "")),  # within what matters: 5% of 60
        ("length.median=60+-0", ("=", 60.0, 0.0, 3.0, 1.0, False, "")),
        ("out_share.mean=20%+-2%", ("=", 0.2, 0.02, 0.03, 100.0, True, "%")),  # two points
        ("out_share.mean=0.2+-0.02", ("=", 0.2, 0.02, 0.03, 1.0, True, "")),
        ("out_share.mean=0.2+-2%", ("=", 0.2, 0.02, 0.03, 1.0, True, "")),  # (a share's 2%: two points)
        ("means.max_cup<=40", ("<=", 40.0, 0.0, 2.0, 1.0, False, "")),  # no registered margin: 5% of 40
        ("length.mean<=1_000", ("<=", 1000.0, 0.0, 50.0, 1.0, False, "")),
        ("lead_changes.mean<=3", ("<=", 3.0, 0.0, 0.5, 1.0, True, "")),
        ("draw.share<=1%", ("<=", 0.01, 0.0, 0.0025, 100.0, False, "%")),  # a quarter of its distance from 0
        ("length.p95<=100", ("<=", 100.0, 0.0, 5.0, 1.0, False, "")),
    ],
)
def test_a_target_is_read_as_written(text, fields):
    t = parse_target(FORTUNE, 3, text)
    got = (t.op, t.value, t.tolerance, t.margin, t.scale, t.feel, t.unit)
    assert got[0] == fields[0] and got[4:] == fields[4:]
    assert got[1:4] == pytest.approx(fields[1:4], rel=1e-12, abs=1e-15)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("seat_gap<=0.09", "'seat_gap<=0.09': seat_gap is in percentage points (2: two points), from 0.1 to 100; "
         "below 0.1 no number of games could tell"),
        ("seat_gap<=100.5", "'seat_gap<=100.5': seat_gap is in percentage points (2: two points), from 0.1 to 100; "
         "below 0.1 no number of games could tell"),
        ("length.median=60+--1", "'length.median=60+--1': expected a tolerance of 0 or more"),
        ("length.median=>5", "'length.median=>5': write length.median>=5"),
        ("length.median=<5", "'length.median=<5': write length.median<=5"),
        ("length.median<=60+-5", "'length.median<=60+-5': a tolerance (+-) goes with = only"),
        ("length.median=x5", "expected a number in 'length.median=x5', got 'x5'"),
        ("length.median=+-5", "expected a number in 'length.median=+-5', got '+-5'"),
        ("length.median=60+-x%", "expected a number in 'length.median=60+-x%', got 'x%'"),
    ],
)  # fmt: skip
def test_a_target_that_cannot_be_read_is_said_in_one_line(text, line):
    with pytest.raises(InputError) as err:
        parse_target(FORTUNE, 3, text)
    assert str(err.value) == f"--target: {line}"


def test_a_targets_values_are_shown_as_the_user_reads_them():
    plain = Target("length.mean", "<=", 40.0, margin=2.0)
    assert plain.show(10000.0) == "10,000" and plain.show(9999.5) == "10,000" and plain.show(9999.4) == "9999"
    assert Dimension("claim_joined", (True, False)).text(True) == "true"
    assert Dimension("tie_break", ("Longest", "none")).text("Longest") == "Longest"  # (only true and false lowered)


def test_a_rule_set_of_a_space_sets_a_table_entry_and_one_seats_value():
    space = Space(FORTUNE, RuleSource(), 3, (Dimension("deck.RAIN", (1, 2)), Dimension("start_coins.1", (5, 6))))
    rules = space.build((2, 6)).rules
    assert dict(rules.deck)["RAIN"] == 2 and dict(rules.deck)["LEAVES"] == 5 and rules.start_coins == (20, 6, 20)
    check_size(space, 4)  # (exactly as many rule sets as may be searched)
    with pytest.raises(InputError, match=r"^--vary: 2 x 2 = 4 rule sets; at most 3 can be searched"):
        check_size(space, 3)


def test_a_varied_variant_starts_from_the_rules_the_search_starts_from():
    dims = (Dimension("variant", ("standard", "rejoin")),)
    settings = RuleSource(settings=("start_coins=9", "feel=false"))
    built = Space(FORTUNE, settings, 3, dims).build(("rejoin",)).rules
    assert built == FORTUNE.rules.variant("rejoin").updated({"start_coins": 9, "feel": False})
    assert Space(FORTUNE, settings, 3, (Dimension("start_coins", (8, 9)),)).build((8,)).rules.feel is False
    # given whole (the workbench's rule set), a varied variant starts from that variant, with its feel switch
    whole = FORTUNE.rules.variant("standard").updated({"feel": False, "turn_cap": 300})
    built = Space(FORTUNE, RuleSource(), 3, dims, base=whole).build(("rejoin",)).rules
    assert built == FORTUNE.rules.variant("rejoin").updated({"feel": False})
