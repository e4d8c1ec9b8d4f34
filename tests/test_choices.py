"""Every choice tested on its own, at its edges: the design search's best answer and the answers
it drops (both directions of --prefer, the best anywhere in the list), a value exactly on a
target's edge for <=, >= and = targets, balance's ``within`` and ``beyond`` with their
intervals and its statuses, and the difference that matters reached through every path (the
registry, --matters, a study's matters) for every kind of target.

Numbers here are sums of powers of two where an edge is tested, so that "exactly on the edge"
is exact in floating point too."""

import json
import math
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from snakesim.analysis.balance import SeatRates, _novice_check, _verdict, balance, check_novices, points
from snakesim.analysis.design import (
    BEATEN,
    EDGE,
    MAX_CONFIRM,
    MEETS,
    MISSES,
    NEAR,
    SETTLED,
    UNDECIDED,
    UNPLAYABLE,
    Entry,
    _confirm,
    _distance,
    _drop_beaten,
    _plays_on,
    _ranked,
    _rows,
    _slack,
    anytime_level,
    call,
    compete,
    design,
    overall,
    pareto,
    sample,
)
from snakesim.analysis.design_space import Candidate, Dimension, Prefer, Space, Target, parse_prefer, parse_target
from snakesim.analysis.verdicts import Margin, margin_for, parse_matters
from snakesim.cli import cli
from snakesim.core.arms import Budget, RuleSource
from snakesim.core.backends import ThreadsBackend
from snakesim.core.errors import InputError
from snakesim.core.figures import BY_ID, FIGURES, targets
from snakesim.games import GAMES, get_game
from snakesim.questions.tune import _target_margin

FORTUNE, HISSS = get_game("fortune"), get_game("hisss")


# ---------------------------------------------------------------------------- the design search's best answer


def answer(label, value, half=0.125):
    return Entry(candidate=None, label=label, status=MEETS, prefer=(value, value - half, value + half))


def prefer(way: str, matters: float = 0.25) -> Prefer:
    return Prefer(Target("lead_changes.mean", ">=", 1.0), way, Margin(matters))


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0)])
@pytest.mark.parametrize(("way", "best", "kept", "far"), [("lower", 1.0, 1.5, 2.0), ("higher", 2.0, 1.5, 1.0)])
def test_the_best_answer_is_the_best_wherever_it_stands_in_the_list(order, way, best, kept, far):
    # lower is better: the best 1.0 [0.875, 1.125]; kept, 1.5 [1.375, 1.625], starts 0.25 beyond
    # the best's worst end (exactly what matters: kept); far, 2.0, starts 0.75 beyond it (beaten);
    # higher is better: the same, mirrored.
    entries = [answer("best", best), answer("kept", kept), answer("far", far)]
    chosen = [entries[k] for k in order]
    _drop_beaten(chosen, prefer(way))
    assert [e.status for e in entries] == [MEETS, MEETS, BEATEN]


def test_an_answer_just_past_what_matters_from_the_best_is_beaten_and_one_on_it_is_not():
    on_edge, past = answer("on", 1.5), answer("past", 1.5 + 2**-20)
    _drop_beaten([answer("best", 1.0), on_edge, past], prefer("lower"))
    assert (on_edge.status, past.status) == (MEETS, BEATEN)
    on_edge, past = answer("on", 0.5), answer("past", 0.5 - 2**-20)
    _drop_beaten([answer("best", 1.0), on_edge, past], prefer("higher"))
    assert (on_edge.status, past.status) == (MEETS, BEATEN)


def test_what_matters_is_taken_around_the_best_answers_value():
    # A relative margin: 25% of the best's value (2.0 -> 0.5), not of another answer's.
    relative = Prefer(Target("length.mean", ">=", 1.0), "lower", Margin(0.25, relative=True))
    best, kept, far = answer("best", 2.0), answer("kept", 2.75), answer("far", 3.0)
    _drop_beaten([far, kept, best], relative)  # kept starts at 2.625 - 2.125 = 0.5: on the edge
    assert (best.status, kept.status, far.status) == (MEETS, MEETS, BEATEN)


def test_only_answers_can_be_beaten_and_one_answer_never_is():
    lone = answer("lone", 5.0)
    other = Entry(candidate=None, label="undecided", status=UNDECIDED, prefer=(0.0, -0.125, 0.125))
    _drop_beaten([other, lone], prefer("lower"))
    assert (lone.status, other.status) == (MEETS, UNDECIDED)
    near = Entry(candidate=None, label="near", status=NEAR, prefer=(9.0, 8.875, 9.125))
    _drop_beaten([answer("a", 1.0), answer("b", 1.0), near], prefer("lower"))
    assert near.status == NEAR


def test_of_two_answers_the_worse_is_beaten():
    best, far = answer("best", 1.0), answer("far", 2.0)
    _drop_beaten([far, best], prefer("lower"))
    assert (best.status, far.status) == (MEETS, BEATEN)


def test_the_best_is_chosen_by_its_estimate_not_by_an_end_of_its_interval():
    # narrow's estimate is the lowest, wide's interval reaches lowest: narrow is the best, and
    # far lies more than what matters beyond narrow's worst end (not beyond wide's).
    narrow = Entry(candidate=None, label="narrow", status=MEETS, prefer=(1.0, 0.9375, 1.0625))
    wide = Entry(candidate=None, label="wide", status=MEETS, prefer=(1.125, 0.5, 1.75))
    far = answer("far", 2.0)
    _drop_beaten([wide, far, narrow], prefer("lower"))
    assert (narrow.status, wide.status, far.status) == (MEETS, MEETS, BEATEN)
    narrow = Entry(candidate=None, label="narrow", status=MEETS, prefer=(2.0, 1.9375, 2.0625))
    wide = Entry(candidate=None, label="wide", status=MEETS, prefer=(1.875, 1.25, 2.5))
    far = answer("far", 1.0)
    _drop_beaten([wide, far, narrow], prefer("higher"))
    assert (narrow.status, wide.status, far.status) == (MEETS, MEETS, BEATEN)


def gaps_entry(label, *values):
    """A rule set whose estimates are ``values``, one a target (each ``<= 0``: the estimate is
    its shortfall)."""
    return Entry(candidate=None, label=label, status=MISSES, figures=[(v, v - 0.125, v + 0.125) for v in values])


ZERO = (Target("a.mean", "<=", 0.0), Target("b.mean", "<=", 0.0))


@pytest.mark.parametrize(
    ("gaps", "competing"),
    [
        ([(1.0, 0.0), (0.0, 1.0)], True),  # one nearer the first target, the other nearer the second
        ([(0.0, 0.0), (1.0, 1.0)], False),  # one nearer both: no trade-off
        ([(1.0, 1.0), (1.0, 0.0)], False),  # level on one, nearer on the other: no trade-off
        ([(0.5, 0.5), (0.5, 0.5)], False),  # ties only
        ([(2.0, 0.0), (1.0, 1.0), (0.0, 2.0)], True),
    ],
)
def test_targets_compete_only_when_each_rule_set_is_nearer_one_target(gaps, competing):
    front = [gaps_entry(f"r{k}", *g) for k, g in enumerate(gaps)]
    assert compete(front, ZERO) is competing


def test_the_trade_off_set_drops_a_rule_set_another_beats_on_every_target():
    a, b, c, d = (
        gaps_entry("a", 1.0, 0.0),
        gaps_entry("b", 0.0, 1.0),
        gaps_entry("c", 1.0, 1.0),
        gaps_entry("d", 1.0, 0.0),
    )
    assert [e.label for e in pareto([a, b, c, d], ZERO)] == ["a", "b", "d"]  # c: beaten by a; a and d level
    unplayed = Entry(candidate=None, label="unplayed", status=UNDECIDED)
    assert [e.label for e in pareto([unplayed, c], ZERO)] == ["c"]


# ---------------------------------------------------------------------------- a sampled search's choices


def toy_space():
    """A Fortune space of 180 rule sets, built without playing a game: start_coins (an integer
    range) by snakes (a choice of three); the toy distance asks for 40 coins and two snakes."""
    dims = (Dimension("start_coins", tuple(range(1, 61))), Dimension("snakes", (1, 2, 3)))
    return Space(FORTUNE, RuleSource(), 3, dims)


def toy_distance(candidate):
    coins, snakes = candidate.values
    return abs(coins - 40) / 4 + (snakes != 2)


def test_a_sampled_search_is_seeded_and_each_seed_samples_its_own_rule_sets():
    first, _ = sample(toy_space(), toy_distance, 30, seed=7)
    again, _ = sample(toy_space(), toy_distance, 30, seed=7)
    other, _ = sample(toy_space(), toy_distance, 30, seed=8)
    assert [c.values for c in first] == [c.values for c in again]
    assert [c.values for c in first] != [c.values for c in other]
    assert len(first) == 30 and len({c.values for c in first}) == 30  # distinct, as many as asked


def test_a_sampled_search_comes_near_the_rule_sets_the_distance_asks_for():
    found, skipped = sample(toy_space(), toy_distance, 80, seed=3)
    assert not skipped
    best = min(toy_distance(c) for c in found)
    assert best <= 0.5  # start_coins within 2 of 40 with two snakes, among 180 rule sets
    late = [toy_distance(c) for c in found[-20:]]
    early = [toy_distance(c) for c in found[:20]]
    assert sum(late) < sum(early)  # (TPE learns: its later proposals are nearer)


def test_a_sampled_search_stops_when_every_rule_set_has_been_tried():
    small = Space(FORTUNE, RuleSource(), 3, (Dimension("start_coins", (10, 11)), Dimension("snakes", (1, 2))))
    found, _ = sample(small, toy_distance, 50, seed=1)
    assert sorted(c.values for c in found) == [(10, 1), (10, 2), (11, 1), (11, 2)]


def test_a_sampled_search_names_the_rule_sets_it_cannot_play():
    # deck.RAIN=0 with every other deck count 0 cannot deal: each unplayable rule set is named
    space = Space(
        FORTUNE, RuleSource(), 3, (Dimension("start_coins", tuple(range(0, 40))), Dimension("snakes", (1, 2)))
    )
    found, skipped = sample(space, toy_distance, 60, seed=2)
    assert found and all(c.values[0] >= 1 for c in found)
    assert skipped and all(label.startswith("start_coins=0, snakes=") for label, _ in skipped)
    assert all(why for _, why in skipped)


SAMPLED = ("design", "fortune", "--vary", "start_coins=5:60", "--vary", "snakes=0:9", "--target",
           "length.median=45+-5", "--target", "out_share.mean<=0.25", "-n", "100", "--budget", "20000", "-t", "1",
           "--json")  # fmt: skip


def sampled_design(seed: int) -> dict:
    r = CliRunner().invoke(cli, [*SAMPLED, "-s", str(seed)])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_a_sampled_design_spends_its_budget_as_its_rules_say_the_same_each_time():
    s, again, other = sampled_design(3), sampled_design(3), sampled_design(4)
    assert s["answers"] == again["answers"] and s["counts"] == again["counts"]
    assert [r["label"] for r in s["rule_sets"]] != [r["label"] for r in other["rule_sets"]]  # each seed its own
    search = s["search"]
    assert search["space"] == 56 * 10 and search["first_round"] == 100 and search["budget"] == 20_000
    # five answers confirmed on five first rounds each are held back; each rule set sampled gets
    # two first rounds of the rest: (20,000 - 2,500) // 200
    assert search["rule_sets"] == search["sampled"]["rule_sets"] == 87
    assert sum(s["counts"].values()) == 87
    assert search["most_games_a_rule_set"] == 100 * 2 ** (search["rounds"] - 1)
    assert search["games_played"] <= search["games_in_all"] <= 20_000
    assert search["race_alpha_each"] == pytest.approx(0.05 / (87 * 2), rel=1e-9)  # over rule sets and targets
    targets = {t["metric"]: Target.of(t) for t in s["targets"]}
    assert s["answers"]
    for a in s["answers"]:
        for metric, f in a["figures"].items():
            low, high = targets[metric].region
            assert low <= f["value"] <= high, (a["label"], metric)
    # (the first five answers are confirmed on fresh games, MAX_CONFIRM; any after them are not)
    assert [("confirmed" in a) for a in s["answers"]] == [k < MAX_CONFIRM for k in range(len(s["answers"]))]


# ---------------------------------------------------------------------------- a value on a target's edge

EDGE_CASES = [
    # (op, value, tolerance): the target's region is its value's one side, or value +- tolerance
    ("<=", 0.5, 0.0),
    (">=", 0.5, 0.0),
    ("=", 0.5, 0.25),
]


@pytest.mark.parametrize(("op", "value", "tolerance"), EDGE_CASES)
def test_a_value_exactly_on_a_targets_edge_meets_it(op, value, tolerance):
    t = Target("lead_changes.mean", op, value, tolerance=tolerance, margin=0.25)
    low, high = t.region
    for edge in (low, high):
        if math.isfinite(edge):
            assert call(t, edge, edge - 0.0625, edge + 0.0625) == MEETS
            assert t.shortfall(edge) == 0.0


@pytest.mark.parametrize(("op", "value", "tolerance"), EDGE_CASES)
def test_a_value_just_past_a_targets_edge_is_near_not_meeting(op, value, tolerance):
    t = Target("lead_changes.mean", op, value, tolerance=tolerance, margin=0.25)
    low, high = t.region
    step = 2**-20
    for edge, past in ((low, low - step), (high, high + step)):
        if math.isfinite(edge):
            assert call(t, past, past - 0.0625, past + 0.0625) == NEAR
            assert t.shortfall(past) == pytest.approx(step, abs=1e-15)


@pytest.mark.parametrize(("op", "value", "tolerance"), EDGE_CASES)
def test_an_interval_ending_exactly_on_the_widened_edge_stays_within_it(op, value, tolerance):
    t = Target("lead_changes.mean", op, value, tolerance=tolerance, margin=0.25)
    wide_low, wide_high = t.widened
    if math.isfinite(wide_high):
        assert call(t, wide_high - 0.125, wide_high - 0.25, wide_high) == NEAR
        # an interval starting exactly on the widened edge does not surely miss: about that far off
        assert call(t, wide_high + 0.0625, wide_high, wide_high + 0.125) == EDGE
        assert call(t, wide_high + 0.25, wide_high + 2**-20, wide_high + 0.5) == MISSES
        assert call(t, wide_high, wide_high - 0.25, wide_high + 0.25) == UNDECIDED  # as wide as what matters
    if math.isfinite(wide_low):
        assert call(t, wide_low + 0.125, wide_low, wide_low + 0.25) == NEAR
        assert call(t, wide_low - 0.0625, wide_low - 0.125, wide_low) == EDGE
        assert call(t, wide_low - 0.25, wide_low - 0.5, wide_low - 2**-20) == MISSES


def test_a_rule_sets_status_is_its_worst_call():
    assert overall([MEETS, MEETS]) == MEETS
    assert overall([MEETS, NEAR]) == NEAR
    assert overall([NEAR, EDGE, MEETS]) == EDGE
    assert overall([EDGE, UNDECIDED, NEAR]) == UNDECIDED
    assert overall([UNDECIDED, MISSES, MEETS]) == MISSES
    assert overall([]) == MEETS


# ---------------------------------------------------------------------------- balance: within, beyond, status


def seats(deviation, half, values=(10, 10, 10), games=8_000):
    deviation, half = np.array(deviation, float), np.array(half, float)
    return SeatRates(values, games, 1 / 3 + deviation, deviation, half, float(deviation @ deviation), np.zeros(1))


@pytest.mark.parametrize(
    ("deviation", "half", "within", "beyond"),
    [
        ([0.125, -0.125, 0.0], [0.125, 0.125, 0.125], True, False),  # every interval ends exactly on +-0.25
        ([0.125, -0.125, 0.0], [0.125 + 2**-20, 0.0, 0.0], False, False),  # one a hair past it
        ([0.0625, 0.0, -0.0625], [0.25, 0.0, 0.0], False, False),  # estimates inside, an interval not
        ([0.375, -0.1875, -0.1875], [0.125, 0.0, 0.0], False, False),  # an interval starting on the edge
        ([0.375 + 2**-20, -0.1875, -0.1875], [0.125, 0.0, 0.0], False, True),  # surely off
        ([-0.5, 0.25, 0.25], [0.125, 0.125, 0.125], False, True),  # off below
        ([0.3, -0.15, -0.15], [0.125, 0.125, 0.125], False, False),  # estimate off, not surely
    ],
)
def test_within_and_beyond_read_the_intervals_not_the_estimates(deviation, half, within, beyond):
    rates = seats(deviation, half)
    assert rates.within(0.25) is within
    assert rates.beyond(0.25) is beyond


def test_balances_status_follows_the_intervals():
    one = [0.0625, 0.0625, 0.0625]
    within = seats([0.125, -0.0625, -0.0625], [0.0625] * 3)
    status, message = _verdict(within, 0.25, "start_coins", 5, 30, [None] * 3, settled=False)
    assert status == "balanced" and "every seat within 25 percentage points" in message
    by_estimate = seats([0.125, -0.0625, -0.0625], [0.25] * 3)
    status, message = _verdict(by_estimate, 0.25, "start_coins", 5, 30, [None] * 3, settled=False)
    assert status == "within tolerance by estimate" and "cannot show it" in message
    off = seats([0.5, -0.25, -0.25], one)
    status, message = _verdict(off, 0.25, "start_coins", 5, 30, [None] * 3, settled=False)
    assert status == "cannot balance" and "no values of start_coins from 5 to 30" in message
    undecided = seats([0.3, -0.15, -0.15], [0.125] * 3)
    status, message = _verdict(undecided, 0.25, "start_coins", 5, 30, [None] * 3, settled=False)
    assert status == "undecided" and "cannot tell whether the tolerance can be met" in message
    status, message = _verdict(undecided, 0.25, "start_coins", 5, 30, [None] * 3, settled=True)
    assert status == "cannot balance" and "every step of start_coins from [10, 10, 10] is surely worse" in message
    # a step that moves a seat by more than what is left says so
    status, message = _verdict(off, 0.25, "start_coins", 5, 30, [0.75, None, -0.75], settled=False)
    assert "too coarse to close what is left" in message and "75 percentage points" in message
    status, message = _verdict(off, 0.25, "start_coins", 5, 30, [0.125, None, 0.125], settled=False)
    assert "too coarse" not in message
    # Undecided with coarse steps: more games can tell whether the closest is within the
    # tolerance, not make a step finer; said in that order, never as two contradicting advices.
    status, message = _verdict(undecided, 0.25, "start_coins", 5, 30, [0.75, None, -0.75], settled=False)
    assert status == "undecided" and "cannot tell whether the tolerance can be met" not in message
    assert message.endswith("too coarse to close what is left, so a value closer still may not exist; whether this "
                            "one is within 25 percentage points, 8,000 games per candidate cannot tell (raise "
                            "--max-games)")  # fmt: skip


@pytest.mark.parametrize(
    ("before", "after", "holds", "words"),
    [
        ((0.0625, 0.03125, 0.09375), (0.015625, 0.0, 0.03125 - 2**-20), True, "clearly still helps"),  # apart
        ((0.0625, 0.03125, 0.09375), (0.015625, 0.0, 0.03125), True, "still helps"),  # the intervals touch
        ((0.0625, 0.03125, 0.09375), (0.015625, 0.0, 0.0625), True, "still helps"),  # they overlap
        ((0.0625, 0.03125, 0.09375), (0.0625, 0.0, 0.09375), False, "no longer helps"),  # a gap as large
        ((0.0625, 0.03125, 0.09375), (0.125, 0.09375, 0.15625), False, "no longer helps"),  # larger
    ],
)
def test_a_handicap_with_novices_helps_only_while_it_narrows_the_largest_gap(before, after, holds, words):
    check = _novice_check(0.25, ["novice", "novice", "random"], {"gap": before}, {"gap": after}, "start_coins", [9, 10])
    assert check["holds"] is holds
    gaps = f"the largest seat gap is {points(after[0])} with it against {points(before[0])} without"
    assert check["message"] == f"with novice players (novice, random) start_coins = [9, 10] {words}: {gaps}"


# ---------------------------------------------------------------------------- what matters, by every path

# The registry's smallest differences that matter, written here by hand: (amount, relative).
REGISTRY = {
    "win_rate": (0.01, False), "draw": (0.01, False), "unfinished": (0.01, False),
    "first_player_advantage": (0.01, False), "length": (0.05, True), "lead_changes": (0.5, False),
    "decided": (0.03, False), "comeback": (0.03, False), "last_tenth": (0.03, False), "deficit": (0.1, True),
    "leads_alone_q1": (0.03, False), "leads_alone_q2": (0.03, False), "leads_alone_q3": (0.03, False),
    "leader_wins_q1": (0.03, False), "leader_wins_q2": (0.03, False), "leader_wins_q3": (0.03, False),
    "out_share": (0.03, False), "tie_break": (0.03, False), "margin": (0.1, True), "length_median": (0.05, True),
    "length_p95": (0.05, True), "seat_gap": (0.01, False),
}  # fmt: skip


def test_the_registry_margins_are_the_reviewed_ones():
    assert {f.id: (f.matters, f.relative) for f in FIGURES if f.matters is not None} == REGISTRY


def every_target(spec, players):
    """Every kind of target a design takes in this game: each figure's, a seat's, the gap."""
    return [*targets(spec), f"win_rate.{players - 1}", "seat_gap"]


def target_text(spec, metric):
    # a share's target at one half keeps the registry's margin (none is squeezed near 0 or 1)
    f = BY_ID.get(metric.partition(".")[0])
    share = metric.startswith("win_rate.") or (f is not None and f.kind != "quantile" and f.percent)
    return f"{metric}<={'0.5' if share else '40'}"


def own_row(metric):
    """The registry row a target's margin comes from, worked out here."""
    if metric == "seat_gap" or metric.startswith("win_rate."):
        return "win_rate"
    return {"length.mean": "length", "length.median": "length_median", "length.p95": "length_p95"}.get(
        metric, metric.partition(".")[0]
    )


@pytest.mark.parametrize("game", list(GAMES))
def test_every_targets_default_margin_is_its_own_figures(game):
    spec = GAMES[game]
    for metric in every_target(spec, 3):
        t = parse_target(spec, 3, target_text(spec, metric))
        amount, relative = REGISTRY[own_row(metric)]
        expected = amount * (40 if relative else 1)
        assert t.margin == pytest.approx(expected, rel=1e-12), metric


def distinct_matters():
    """A different margin for every figure that has one: ``--matters`` text and each figure's
    margin it gives (percentage points for a figure in percent, else the figure's own unit)."""
    texts, margins = [], {}
    for k, f in enumerate(f for f in FIGURES if f.matters is not None):
        number = round(1.5 + k / 8, 3)
        texts.append(f"{f.id}={number}")
        margins[f.id] = number / 100 if f.percent else number
    return ",".join(texts), margins


@pytest.mark.parametrize("game", list(GAMES))
def test_every_targets_margin_from_matters_is_its_own_figures(game):
    spec = GAMES[game]
    text, margins = distinct_matters()
    matters = parse_matters(text)
    for metric in every_target(spec, 3):
        t = parse_target(spec, 3, target_text(spec, metric), matters)
        assert t.margin == pytest.approx(margins[own_row(metric)], rel=1e-12), metric
        p = parse_prefer(spec, 3, metric, matters)
        assert p.margin(40.0) == pytest.approx(margins[own_row(metric)], rel=1e-12), metric
        assert margin_for(metric, matters).amount == pytest.approx(margins[metric.partition(".")[0]], rel=1e-12)


def test_a_length_margin_given_once_covers_its_median_and_95th_percentile():
    matters = parse_matters("length=10%")
    for metric in ("length.mean", "length.median", "length.p95"):
        assert parse_target(FORTUNE, 3, f"{metric}=40+-4", matters).margin == pytest.approx(4.0, rel=1e-12)
    assert parse_target(FORTUNE, 3, "length.median=40+-4").margin == pytest.approx(2.0, rel=1e-12)


def test_a_tunes_target_margin_is_its_own_figures_by_every_path():
    text, margins = distinct_matters()
    matters = parse_matters(text)
    for metric, value in (("lead_changes.mean", 6.0), ("length.median", 40.0), ("draw.share", 0.5),
                          ("win_rate.2", 0.25), ("out_share.mean", 0.25)):  # fmt: skip
        s = {"target": {"metric": metric, "value": value}}
        amount, relative = REGISTRY[own_row(metric)]
        own = amount * (value if relative else 1)
        assert _target_margin(s, None).of(value) == pytest.approx(own, rel=1e-12), metric
        assert _target_margin(s, matters).of(value) == pytest.approx(margins[own_row(metric)], rel=1e-12), metric
    assert _target_margin({"target": {"metric": "means.coins_0", "value": 3.0}}, matters) is None


def design_json(*extra, tmp_path=None):
    r = CliRunner().invoke(cli, ["design", "hisss", "-p", "3", "--vary", "points_per_snake=0,1", "--target",
                                 "lead_changes.mean<=9", "--target", "length.mean=40+-10", "-n", "300", "--budget",
                                 "6000", "-s", "2", "-t", "1", "--json", *extra])  # fmt: skip
    assert r.exit_code == 0, r.output
    return {t["metric"]: t["margin"] for t in json.loads(r.stdout)["targets"]}


def test_a_designs_margins_by_the_command_line_the_registry_and_a_study(tmp_path):
    assert design_json() == pytest.approx({"lead_changes.mean": 0.5, "length.mean": 2.0}, rel=1e-12)
    given = design_json("--matters", "lead_changes=0.75,length=10%")
    assert given == pytest.approx({"lead_changes.mean": 0.75, "length.mean": 4.0}, rel=1e-12)
    # A study's matters reaches its design section, and the section's own overrides it.
    study = tmp_path / "s.toml"
    study.write_text(
        'title = "margins"\nquestion = "q?"\ngame = "hisss"\nseed = 2\nmatters = "lead_changes=0.75,length=10%"\n\n'
        '[[design]]\ntitle = "d"\nplayers = 3\nvary = ["points_per_snake=0,1"]\n'
        'targets = ["lead_changes.mean<=9", "length.mean=40+-10"]\ngames = 300\nbudget = 6000\nmatters = "length=20%"\n'
    )
    # (the report does not print margins: the study's plan of its section is what it plays)
    from snakesim.report.study import load_study, plan_section

    data = load_study(study)
    plan = plan_section(HISSS, "design", data["design"][0], seed=2, matters=parse_matters(data.get("matters")))
    margins = {t.metric: t.margin for t in plan.targets}
    assert margins == pytest.approx({"lead_changes.mean": 0.75, "length.mean": 8.0}, rel=1e-12)
    plan = plan_section(HISSS, "design", {**data["design"][0], "matters": None}, seed=2)
    assert {t.metric: t.margin for t in plan.targets} == pytest.approx({"lead_changes.mean": 0.5, "length.mean": 2.0})


# ---------------------------------------------------------------------------- the searches' players and backend


class Recording(ThreadsBackend):
    """Threads, counting what it is asked: how often it is entered, every block, and how deep
    in ``with`` blocks each block is played (2: inside a search that holds it for all its runs)."""

    def __init__(self):
        super().__init__(threads=1)
        self.entered, self.blocks, self.depth, self.depths = 0, 0, 0, set()

    def __enter__(self):
        super().__enter__()
        self.entered += 1
        self.depth += 1
        return self

    def __exit__(self, *exc):
        self.depth -= 1
        super().__exit__(*exc)

    def map(self, task, blocks, args):
        self.blocks += len(blocks)
        self.depths.add(self.depth)
        yield from super().map(task, blocks, args)


HISSS_RULES = HISSS.rules()


def test_a_balance_search_plays_on_the_backend_it_is_given_with_the_players_it_is_given():
    random_seats = ("random", "random", "random")
    budget = Budget(300, 2, max_games=600, confirm_games=300)
    backend = Recording()
    mine = balance(HISSS, HISSS_RULES, 3, "start_points", random_seats, budget=budget, backend=backend)
    assert backend.entered >= 1 and backend.blocks >= 2  # the search's games and the fresh ones, on it
    greedy = balance(HISSS, HISSS_RULES, 3, "start_points", budget=budget)
    assert mine.summary["before"]["win_rate"] != greedy.summary["before"]["win_rate"]  # random players, not greedy
    same = balance(HISSS, HISSS_RULES, 3, "start_points", random_seats, budget=budget)
    assert mine.summary["before"] == same.summary["before"] and mine.values == same.values


def test_a_design_search_plays_on_the_backend_it_is_given_with_the_players_it_is_given():
    dims = (Dimension("points_per_snake", (0, 1)),)
    targets = (parse_target(HISSS, 3, "lead_changes.mean<=9"),)
    budget = Budget(200, 2, max_games=4000, confirm_games=200)
    backend = Recording()
    mine = design(HISSS, RuleSource(), 3, dims, targets, ("random", "random", "random"), budget=budget,
                  backend=backend)  # fmt: skip
    assert backend.entered >= 1 and backend.blocks >= 2
    greedy = design(HISSS, RuleSource(), 3, dims, targets, budget=budget)
    assert mine.table["lead_changes.mean"].tolist() != greedy.table["lead_changes.mean"].tolist()


# ---------------------------------------------------------------------------- the sampler, scripted


class ScriptedTrial:
    """An Optuna trial that proposes the next rule set of a script, recording how it was asked."""

    def __init__(self, proposal: dict, asked: list):
        self.proposal, self.asked = proposal, asked

    def suggest_int(self, name, low, high):
        self.asked.append(("int", name, low, high))
        return self.proposal[name]

    def suggest_categorical(self, name, choices):
        self.asked.append(("choice", name, list(choices)))
        return self.proposal[name]  # (a choice's position)


class ScriptedOptuna:
    """The parts of optuna that ``sample`` uses, proposing ``script`` in order (then its last
    proposal again) and recording the sampler's settings and every value told."""

    WARNING = 30

    def __init__(self, script: list[dict]):
        self.script, self.asks, self.told, self.asked, self.settings = list(script), 0, [], [], {}
        self.logging = self
        self.samplers = self

    def set_verbosity(self, level):
        self.settings["verbosity"] = level

    def TPESampler(self, **settings):
        self.settings["sampler"] = settings
        return "tpe"

    def create_study(self, **settings):
        self.settings["study"] = settings
        return self

    def ask(self):
        proposal = self.script[min(self.asks, len(self.script) - 1)]
        self.asks += 1
        return ScriptedTrial(proposal, self.asked)

    def tell(self, trial, value):
        self.told.append(value)


def scripted(monkeypatch, script: list[dict]) -> ScriptedOptuna:
    fake = ScriptedOptuna(script)
    monkeypatch.setitem(sys.modules, "optuna", fake)
    return fake


def coins(*values: int) -> list[dict]:
    return [{"start_coins": v, "snakes": 1} for v in values]


def test_the_sampler_is_seeded_multivariate_minimising_with_a_quarter_of_its_trials_at_random(monkeypatch):
    fake = scripted(monkeypatch, coins(*range(1, 61)))
    sample(toy_space(), toy_distance, 30, seed=2**32 + 5)
    assert fake.settings["sampler"] == {"seed": 5, "multivariate": True, "n_startup_trials": 7}  # 30 // 4
    assert fake.settings["study"] == {"direction": "minimize", "sampler": "tpe"}
    assert fake.settings["verbosity"] == fake.WARNING
    fake = scripted(monkeypatch, [{"start_coins": v} for v in range(1, 301)])
    sample(Space(FORTUNE, RuleSource(), 3, (Dimension("start_coins", tuple(range(1, 301))),)), lambda c: 0.0, 200,
           seed=1)  # fmt: skip
    assert fake.settings["sampler"]["n_startup_trials"] == 40  # (at most 40)


def test_the_sampler_asks_an_integer_range_as_an_integer_and_anything_else_as_a_choice(monkeypatch):
    fake = scripted(monkeypatch, [{"start_coins": 12, "snakes": 2, "turn_cap": 1}])
    dims = (Dimension("start_coins", tuple(range(10, 20))), Dimension("snakes", (1, 3, 2)),
            Dimension("turn_cap", (300, 9)))  # fmt: skip
    space = Space(FORTUNE, RuleSource(), 3, dims)
    found, _ = sample(space, lambda c: 0.0, 1, seed=1)
    asked = [("int", "start_coins", 10, 19), ("choice", "snakes", [0, 1, 2]), ("choice", "turn_cap", [0, 1])]
    assert fake.asked == asked
    assert found[0].values == (12, 2, 9)  # (the choices' positions, read back as values)
    fake = scripted(monkeypatch, [{"variant": 1, "feel": 0}])
    bools = (Dimension("variant", ("standard", "rejoin")), Dimension("feel", (False, True)))
    found, _ = sample(Space(FORTUNE, RuleSource(), 3, bools), lambda c: 0.0, 1, seed=1)
    assert fake.asked == [("choice", "variant", [0, 1]), ("choice", "feel", [0, 1])]
    assert found[0].values == ("rejoin", False)


def test_the_sampler_stops_after_so_many_proposals_in_a_row_of_rule_sets_it_has_tried(monkeypatch):
    fake = scripted(monkeypatch, coins(1, 2, 2, 3))  # then 3 again and again
    found, _ = sample(toy_space(), toy_distance, 50, seed=1)
    assert [c.values[0] for c in found] == [1, 2, 3]
    # one repeat of 2 (the count starts again at a new rule set), then SETTLED repeats of 3
    assert fake.asks == 4 + SETTLED
    first, second, third = (toy_distance(c) for c in found)
    assert fake.told == [first, second, second, third] + [third] * SETTLED


def test_the_sampler_asks_at_most_twice_its_trials(monkeypatch):
    # each new rule set followed by two repeats: never SETTLED in a row, 1 new in 3
    script = [p for v in range(1, 60) for p in coins(v, v, v)]
    fake = scripted(monkeypatch, script)
    found, _ = sample(toy_space(), toy_distance, 12, seed=1)
    assert fake.asks == 24 and [c.values[0] for c in found] == list(range(1, 9))


def test_the_sampler_is_told_a_large_distance_for_a_rule_set_that_cannot_be_played(monkeypatch):
    fake = scripted(monkeypatch, coins(0, 5))
    space = Space(FORTUNE, RuleSource(), 3, (Dimension("start_coins", tuple(range(0, 40))), Dimension("snakes", (1,))))
    found, skipped = sample(space, toy_distance, 2, seed=1)
    assert fake.told == [UNPLAYABLE, toy_distance(found[0])] and UNPLAYABLE == 1e9
    assert [label for label, _ in skipped] == ["start_coins=0, snakes=1"]
    fake = scripted(monkeypatch, coins(0))
    with pytest.raises(InputError) as err:
        sample(space, toy_distance, 3, seed=1)
    why = skipped[0][1]
    assert str(err.value) == f"--vary: no rule set sampled can be played (start_coins=0, snakes=1: {why})"


# ---------------------------------------------------------------------------- a design search's budget

COINS = (Dimension("start_coins", (8, 9)),)
SIX_HUNDRED = (Dimension("start_coins", tuple(range(1, 61))), Dimension("snakes", tuple(range(10))))
LONG = (parse_target(FORTUNE, 3, "length.median<=200"),)


@pytest.mark.parametrize(
    ("dims", "confirm", "most", "line"),
    [  # whole: 2 rule sets x 100 games, and 5 first rounds of fresh games for each answer (at most 5)
        (COINS, True, 1199, "2 rule sets x 100 games in the first round (and their confirmation) need at least 1,200 "
         "games; got 1,199"),
        (COINS, False, 199, "2 rule sets x 100 games in the first round need at least 200 games; got 199"),
        # sampled: at least 20 rule sets, two first rounds each, after the 5 answers' confirmation
        (SIX_HUNDRED, True, 6499, "19 rule sets x 100 games in the first round (and their confirmation) need at least "
         "6,500 games; got 6,499"),
        (SIX_HUNDRED, False, 3999, "19 rule sets x 100 games in the first round need at least 4,000 games; got 3,999"),
    ],
)  # fmt: skip
def test_a_design_budget_one_game_short_says_what_it_needs(dims, confirm, most, line):
    with pytest.raises(InputError) as err:
        design(FORTUNE, RuleSource(), 3, dims, LONG, budget=Budget(100, 1, max_games=most), confirm=confirm)
    assert str(err.value) == f"--budget: {line}"


def test_a_design_budget_of_exactly_what_it_needs_is_enough():
    whole = design(FORTUNE, RuleSource(), 3, COINS, LONG, budget=Budget(100, 1, max_games=1200))
    assert whole.summary["search"]["games_in_all"] <= 1200 and whole.summary["search"]["sampled"] is None
    assert [bool(a.get("confirmed")) for a in whole.summary["answers"]] == [True, True]
    bare = design(FORTUNE, RuleSource(), 3, COINS, LONG, budget=Budget(100, 1, max_games=200), confirm=False)
    assert bare.summary["search"]["games_in_all"] == 200
    assert [bool(a.get("confirmed")) for a in bare.summary["answers"]] == [False, False]
    sampled = design(FORTUNE, RuleSource(), 3, SIX_HUNDRED, LONG, budget=Budget(100, 1, max_games=4000),
                     confirm=False)  # fmt: skip
    assert sampled.summary["search"]["sampled"] == {"sampler": "Optuna TPE", "rule_sets": 20}
    assert sampled.summary["search"]["games_in_all"] <= 4000


def test_a_space_of_exactly_the_most_rule_sets_played_whole_is_played_whole(monkeypatch):
    import snakesim.analysis.design as design_module

    monkeypatch.setattr(design_module, "MAX_CANDIDATES", 2)  # (the two rule sets of COINS)
    whole = design(FORTUNE, RuleSource(), 3, COINS, LONG, budget=Budget(100, 1, max_games=200), confirm=False)
    assert whole.summary["search"]["sampled"] is None and whole.summary["search"]["rule_sets"] == 2


def test_a_design_records_the_game_feel_when_a_target_or_the_preferred_figure_needs_it():
    plain = RuleSource(settings=("feel=false",))
    feel_target = (parse_target(FORTUNE, 3, "lead_changes.mean<=50"),)
    found = design(FORTUNE, plain, 3, COINS, feel_target, budget=Budget(100, 1, max_games=200), confirm=False)
    assert all(c.rules.feel for c in found.candidates)
    ranked = parse_prefer(FORTUNE, 3, "lead_changes.mean")
    found = design(FORTUNE, plain, 3, COINS, LONG, prefer=ranked, budget=Budget(100, 1, max_games=400), confirm=False)
    assert all(c.rules.feel for c in found.candidates)
    found = design(FORTUNE, plain, 3, COINS, LONG, budget=Budget(100, 1, max_games=200), confirm=False)
    assert not any(c.rules.feel for c in found.candidates)  # (nothing needs it: left off as asked)


def test_a_design_starts_from_the_rules_it_is_given_whole():
    base = FORTUNE.rules.variant("standard").updated({"turn_cap": 300})
    found = design(FORTUNE, RuleSource(), 3, COINS, LONG, budget=Budget(100, 1, max_games=200), confirm=False,
                   base=base)  # fmt: skip
    assert [c.rules.turn_cap for c in found.candidates] == [300, 300]


def watch_games(monkeypatch, module) -> list:
    """Every set of games ``module`` makes (``SameGames``), as ``(seats, backend, progress)``."""
    made = []

    class Watched(module.SameGames):
        def __init__(self, spec, players, seed, first, seats, *, backend, progress, kept=None):
            made.append((seats, backend, progress))
            super().__init__(spec, players, seed, first, seats, backend=backend, progress=progress, kept=kept)

    monkeypatch.setattr(module, "SameGames", Watched)
    return made


def test_a_design_plays_every_game_on_its_backend_with_its_players_and_progress_as_asked(monkeypatch):
    import snakesim.analysis.design as design_module

    made = watch_games(monkeypatch, design_module)
    backend, seats = Recording(), ("random", "greedy", "random")
    dims, targets = (Dimension("points_per_snake", (0, 1)),), (parse_target(HISSS, 3, "length.median<=500"),)
    design(HISSS, RuleSource(), 3, dims, targets, seats, budget=Budget(100, 1, max_games=1200), backend=backend,
           progress=True)  # fmt: skip
    assert made == [(seats, backend, True), (seats, backend, True)]  # the search, then the fresh games
    assert backend.depths == {2}  # (every block played while the search holds the backend)
    made.clear()
    design(HISSS, RuleSource(), 3, dims, targets, budget=Budget(100, 1, max_games=1200))
    assert [(b, p) for _, b, p in made] == [(None, False), (None, False)]  # (no progress unless asked)


# ---------------------------------------------------------------------------- a design search's small steps


def test_an_anytime_level_is_never_one_a_float_cannot_tell_from_one():
    raised = []
    for k in range(2, 40):
        try:
            level = anytime_level(1000, 10.0**-k, 4000)
        except InputError as err:
            raised.append(str(err))
            continue
        assert 1.0 - level >= 1e-15 * 0.99, k  # (else its intervals would be narrower than the games allow)
    assert raised and raised[0] == ("--budget: 1,000 games a rule set need intervals surer than a number can hold; "
                                    "give fewer rule sets, targets or games")  # fmt: skip


@pytest.mark.parametrize("figure", [(math.nan, 0.1, 0.2), (0.15, math.nan, 0.2), (0.15, 0.1, math.nan)])
def test_a_target_is_undecided_on_a_figure_without_a_value_or_an_interval(figure):
    assert call(Target("draw.share", "<=", 0.5, margin=0.01), *figure) == UNDECIDED


def preferred(value, low, high, label="a") -> Entry:
    return Entry(None, label, status=MEETS, prefer=(value, low, high))


def test_an_answer_plays_on_while_its_preferred_figure_is_wider_than_what_matters():
    ranked = Prefer(Target("length.mean", ">=", 1.0, margin=1.0), "lower", Margin(1.0))
    assert _plays_on(preferred(10.0, 9.5, 10.5), ranked) is False  # exactly as wide as what matters
    assert _plays_on(preferred(10.0, 9.5, 10.5 + 2**-20), ranked) is True
    assert _plays_on(Entry(None, "u", status=MEETS), ranked) is False  # (no preferred figure yet)
    assert _plays_on(preferred(10.0, 0.0, 20.0), None) is False  # (nothing preferred: an answer is done)


def test_answers_are_ranked_by_the_estimate_of_the_preferred_figure():
    ranked = Prefer(Target("length.mean", ">=", 1.0, margin=1.0), "lower", Margin(1.0))
    wide, narrow = preferred(10.0, 2.0, 18.0, "wide"), preferred(9.0, 8.5, 9.5, "narrow")
    assert [e.label for e in _ranked([wide, narrow], (), ranked)] == ["narrow", "wide"]


def test_slack_and_distance_are_in_units_of_what_matters():
    half, none = Target("length.mean", "<=", 40.0, margin=0.5), Target("length.mean", ">=", 10.0, margin=0.0)
    e = Entry(None, "e", figures=[(39.0, 0, 0), (13.0, 0, 0)])
    assert _slack(e, (half, none)) == 2.0  # 1 / 0.5 inside the first, 3 inside the second
    e = Entry(None, "e", figures=[(39.0, 0, 0), (11.5, 0, 0)])
    assert _slack(e, (half, none)) == 1.5  # (no margin: in the figure's own unit)
    far = Entry(None, "f", figures=[(41.0, 0, 0), (9.0, 0, 0)])
    assert _distance(far, (half, none)) == 2.0 + 1.0


def test_a_rule_set_not_played_has_no_figures_in_its_row():
    (row,) = _rows([Entry(Candidate((8,), None), "start_coins=8")], COINS, LONG)
    assert row["label"] == "start_coins=8" and row["start_coins"] == 8 and row["games"] == 0
    assert all(math.isnan(row[k]) for k in ("length.median", "length.median_low", "length.median_high"))


@pytest.mark.parametrize(
    ("most", "played", "games"),
    [  # each answer's fresh games: its own games (at least five first rounds, at least two), within what is left
        (4000, 1600, 800),  # its 800 games fit: 2,400 left for 2
        (2601, 1600, 500),  # 1,001 left for 2: 500 each
        (2000, 1600, 200),  # 400 left for 2: still two first rounds each
        (2100, 1600, 250),
    ],
)
def test_answers_are_confirmed_on_as_many_fresh_games_as_they_played_within_the_budget(most, played, games):
    rules = FORTUNE.rules.variant("standard")
    chosen = [Entry(Candidate((8,), rules.updated({"start_coins": 8})), "a", games=800),
              Entry(Candidate((9,), rules.updated({"start_coins": 9})), "b", games=800)]  # fmt: skip
    out, _ = _confirm(FORTUNE, 3, (), chosen, LONG, budget=Budget(100, 1, max_games=most), played=played, after=800,
                      level=0.95, backend=None, progress=False)  # fmt: skip
    assert [c["games"] for c in out] == [games, games] and [c["first"] for c in out] == [
        800,
        800,
    ]  # (past the games 0..799 played)
    assert out[0]["level"] == pytest.approx(1 - 0.05 / 2, rel=1e-12)


def test_a_design_names_the_rule_sets_it_cannot_play():
    dims = (Dimension("start_coins", (0, 8)),)
    found = design(FORTUNE, RuleSource(), 3, dims, LONG, budget=Budget(100, 1, max_games=200), confirm=False)
    (unplayable,) = found.summary["unplayable"]
    assert list(unplayable) == ["label", "why"] and unplayable["label"] == "start_coins=0"
    assert unplayable["why"].startswith("start_coins: ")


def test_a_balance_search_plays_every_game_on_its_backend_with_its_players_and_progress_as_asked(monkeypatch):
    import snakesim.analysis.balance as balance_module

    made = watch_games(monkeypatch, balance_module)
    backend, seats = Recording(), ("random", "greedy", "random")
    balance(HISSS, HISSS_RULES, 3, "start_points", seats, budget=Budget(300, 2, max_games=600, confirm_games=300),
            backend=backend, progress=True, novices=0.25)  # fmt: skip
    novices = ("random", "greedy:0.25", "random")  # (the greedy player making mistakes; a random one makes none)
    # the search, the fresh games, then the fresh games again with the novices
    assert made == [(seats, backend, True), (seats, backend, True), (novices, backend, True)]
    assert backend.depths == {2}  # (every block played while the search holds the backend)
    made.clear()
    found = balance(FORTUNE, FORTUNE.rules.variant("standard"), 3, "start_coins", budget=Budget(300, 2, max_games=600))
    assert [(b, p) for _, b, p in made] == [(None, False), (None, False)]  # (no progress unless asked)
    assert found.summary["confirm"]["games"] == 100_000  # (no fresh games given: at least 100,000)


def test_a_balance_search_checks_its_tolerance_and_skips_what_cannot_be_dealt():
    with pytest.raises(InputError) as err:
        balance(HISSS, HISSS_RULES, 3, "start_points", budget=Budget(300, 2), tolerance=0.7)
    assert str(err.value).startswith("--tolerance: expected a win-rate distance between 0 and 0.5")
    # From 5 Rainbow hands of 10, four hands of 11 and one of 10 need 54 cards of 52: that step is no
    # candidate (the one-seat steps are), and the search goes on
    rainbow = get_game("rainbow")
    tens = rainbow.rules.variant("standard").updated({"hand_size": 10})
    found = balance(rainbow, tens, 5, "hand_size", budget=Budget(200, 3, max_games=400, confirm_games=200),
                    value_range="8:11")  # fmt: skip
    tried = [tuple(v) for v in found.path["values"]]
    assert (11, 10, 10, 10, 10) in tried and all(sum(v) <= 52 for v in tried)


@pytest.mark.parametrize(("rate", "ok"), [(0.0, True), (1.0, True), (-0.01, False), (1.01, False)])
def test_a_novices_mistake_rate_is_from_0_to_1(rate, ok):
    if ok:
        assert check_novices(HISSS, rate) == rate
    else:
        with pytest.raises(InputError, match="--novices: expected a mistake rate from 0 to 1"):
            check_novices(HISSS, rate)


def test_a_sampled_design_on_seats_win_rates_reads_every_seat():
    gap = (parse_target(FORTUNE, 3, "seat_gap<=50"),)
    found = design(FORTUNE, RuleSource(), 3, SIX_HUNDRED, gap, prefer=parse_prefer(FORTUNE, 3, "win_rate.0=higher"),
                   budget=Budget(100, 1, max_games=4000), confirm=False)  # fmt: skip
    assert found.summary["search"]["sampled"]["rule_sets"] == 20 and found.summary["answers"]
    assert all(0 <= a["prefer"]["value"] <= 1 for a in found.summary["answers"])  # seat 0's win rate


def test_a_balance_search_judges_every_step_at_the_level_it_is_given(monkeypatch):
    import snakesim.analysis.balance as balance_module

    seen = []

    def spied(name, real):
        def spy(*args, **kwargs):
            seen.append((name, kwargs["level"] if "level" in kwargs else args[-1]))
            return real(*args, **kwargs)

        return spy

    for name in ("seat_rates", "clearly_better", "_confirmed"):
        monkeypatch.setattr(balance_module, name, spied(name, getattr(balance_module, name)))
    found = balance(HISSS, HISSS_RULES, 3, "start_points", budget=Budget(300, 2, max_games=600, confirm_games=300),
                    level=0.8, novices=0.3)  # fmt: skip
    assert {name for name, _ in seen} == {"seat_rates", "clearly_better", "_confirmed"}
    assert all(isinstance(level, float) and level == 0.8 for _, level in seen), seen
    assert found.summary["level"] == 0.8


def test_a_balance_search_moves_two_steps_at_once_when_no_single_step_is_clearly_better(monkeypatch):
    import snakesim.analysis.balance as balance_module

    # no single step to take; of the two two-step moves, the even coins are clearly better than 1 against 40 and 40
    monkeypatch.setattr(balance_module, "moves", lambda current, low, high: [])
    monkeypatch.setattr(balance_module, "two_step_moves", lambda current, low, high: [(20, 20, 20), (1, 40, 39)])
    uneven = FORTUNE.rules.variant("standard").updated({"start_coins": (1, 40, 40)})
    found = balance(FORTUNE, uneven, 3, "start_coins", budget=Budget(200, 1, max_games=400, confirm_games=400),
                    value_range="1:40", tolerance=0.001)  # fmt: skip
    # the first round, the doubled one (the most games: stop), then the two-step moves screened and played
    path = [(g, tuple(v), moved) for g, v, moved in found.path[["games", "values", "moved"]].itertuples(index=False)]
    assert path == [(200, (1, 40, 40), True), (400, (1, 40, 40), True), (400, (20, 20, 20), True),
                    (400, (1, 40, 39), False)]  # fmt: skip
    assert found.values == [20, 20, 20] and found.status == "undecided"
    assert found.message.startswith("the closest found, start_coins = [20, 20, 20], leaves the ")


def test_design_help_states_the_rule_a_target_is_met_by():
    """design's --help said "the answer holds at 95%", and a designer read an answer at 68
    [68, 69] for 60+-8 as breaking it; it now states the rule, with its example checked here."""
    from snakesim.cli.design import design_command

    help_text = " ".join(design_command.help.split())
    assert "(60+-8 with 3 cards that matter: the estimate from 52 to 68, the interval from 49 to 71)" in help_text
    t = Target("length.median", "=", 60.0, tolerance=8.0, margin=3.0)
    assert call(t, 68.0, 49.5, 70.5) == MEETS
    assert call(t, 68.5, 67.0, 70.0) != MEETS  # (the estimate outside 52-68)
    assert call(t, 67.0, 48.0, 70.0) != MEETS  # (the interval beyond 49)
