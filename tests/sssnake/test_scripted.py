"""The die's flow on scripted stocks and a fixed die, with outcomes worked out by hand.

On the start board (7 missing) a curve at either end saves a card (6 missing, 4 ways) and a
straight costs one (8 missing, 2 ways): see test_search.py for the geometry.
"""

import numpy as np
import pytest

from snakesim.core.rng import Stream
from snakesim.games.sssnake import kernel, reference
from snakesim.games.sssnake.reference import SssnakeGame
from snakesim.games.sssnake.rules import (
    CURVE,
    FRIENDLY,
    GREEDY,
    JOINED,
    RANDOM,
    STOCK_DRAW,
    STOCK_WIN,
    STRAIGHT,
    SssnakeRules,
)
from tests.identity import same
from tests.sssnake.boards import AROUND, board

ONLY = {1: {"1": 1, "2": 0, "3": 0}, 2: {"1": 0, "2": 1, "3": 0}, 3: {"1": 0, "2": 0, "3": 1}}
# Walls straight ahead of both ends: no straight fits this board.
NO_STRAIGHT = [(-2, 0), (3, 1)]


def both(face, stock, policies, players=2, seed=0, **options):
    """Play a scripted game in both engines; they must agree. Returns the record."""
    rules = SssnakeRules(die=ONLY[face], **options)
    record, _ = reference.play(rules, players, seed, 0, policies=policies, deck=stock)
    out = kernel.play_block(rules, players, seed, 0, 1, policies=np.array(policies, np.int8), deck=stock)
    for key, value in record.items():
        assert same(value, out[key][0]), key
    return record


@pytest.mark.parametrize("seed", range(5))
def test_die_one_puts_the_card_on_the_left_neighbour(seed):
    r = both(1, [STRAIGHT], [GREEDY, GREEDY], seed=seed)
    assert r["placed"] == [0, 1] and r["spite"] == [0, 1] and r["missing"] == [7, 8]
    assert (r["outcome"], r["winner"], r["length"], r["stock_left"]) == (STOCK_WIN, 0, 1, 0)


@pytest.mark.parametrize("policy,missing", [(GREEDY, 8), (FRIENDLY, 4)])
def test_spite_chooses_the_worst_place_and_friendly_the_best(policy, missing):
    # Seat 1's snake of test_search.AROUND misses 5. A curve there: head east or tail north
    # save a card (4); tail south sends the tail away (8). Greedy spites, friendly helps.
    g = SssnakeGame(SssnakeRules(die=ONLY[1]), 2, [policy, GREEDY], Stream(0, 0), deck=[CURVE])
    g.boards[1] = board(moves=AROUND)
    assert sorted(o.missing for o in g.boards[1].options(CURVE)) == [4, 4, 8]
    g.turn(0)
    assert g.boards[1].missing() == missing and g.spite == [0, 1]


def test_two_straights_on_each_other_make_a_draw():
    # Seat 0 then seat 1 roll a 1: a straight on each snake, 8 and 8 missing.
    r = both(1, [STRAIGHT, STRAIGHT], [GREEDY, GREEDY])
    assert r["missing"] == [8, 8] and (r["outcome"], r["winner"]) == (STOCK_DRAW, -1)


def test_die_one_card_that_fits_nowhere_comes_home_or_leaves():
    g = SssnakeGame(SssnakeRules(die=ONLY[1]), 2, [GREEDY, GREEDY], Stream(0, 0), deck=[STRAIGHT])
    g.boards[1] = board(walls=NO_STRAIGHT)
    g.turn(0)
    assert [b.placed for b in g.boards] == [1, 0] and g.spite == [0, 0] and g.discarded == 0
    g = SssnakeGame(SssnakeRules(die=ONLY[1]), 2, [GREEDY, GREEDY], Stream(0, 0), deck=[STRAIGHT])
    g.boards = [board(walls=NO_STRAIGHT), board(walls=NO_STRAIGHT)]
    g.turn(0)
    assert [b.placed for b in g.boards] == [0, 0] and g.discarded == 1


@pytest.mark.parametrize("order", [[CURVE, STRAIGHT], [STRAIGHT, CURVE]])
def test_die_two_keeps_the_better_card_and_gives_the_other(order):
    r = both(2, order, [GREEDY, GREEDY])
    # Greedy keeps the curve (6 missing), gives the straight; the neighbour must place it (8).
    assert r["placed"] == [1, 1] and r["missing"] == [6, 8] and r["spite"] == [0, 0]
    assert (r["outcome"], r["winner"], r["length"]) == (STOCK_WIN, 0, 1)


def test_die_three_keeps_two_and_gives_one():
    r = both(3, [STRAIGHT, CURVE, CURVE], [GREEDY, GREEDY])
    # Two curves, one at each end (or both at one): 7 -> 6 -> 5; the straight goes left.
    assert r["placed"] == [2, 1] and r["missing"] == [5, 8]


def test_a_gift_that_fits_nowhere_comes_back_or_leaves():
    g = SssnakeGame(SssnakeRules(die=ONLY[2]), 2, [GREEDY, GREEDY], Stream(0, 0), deck=[CURVE, STRAIGHT])
    g.boards[1] = board(walls=NO_STRAIGHT)
    g.turn(0)
    # Seat 0 keeps the curve; seat 1 cannot take the straight, so seat 0 must place it too.
    assert [b.placed for b in g.boards] == [2, 0] and g.discarded == 0
    assert g.boards[0].missing() in (7, 5)  # the straight undoes the curve's gain, or not
    # Two straights: the kept one fits nowhere and leaves; the gift comes back and leaves too.
    g = SssnakeGame(SssnakeRules(die=ONLY[2]), 2, [GREEDY, GREEDY], Stream(0, 0), deck=[STRAIGHT, STRAIGHT])
    g.boards = [board(walls=NO_STRAIGHT), board(walls=NO_STRAIGHT)]
    g.turn(0)
    assert [b.placed for b in g.boards] == [0, 0] and g.discarded == 2


def test_random_gives_either_card():
    gifts = {both(2, [CURVE, STRAIGHT], [RANDOM, GREEDY], seed=s)["missing"][1] for s in range(40)}
    assert gifts == {6, 8}  # the neighbour got the curve in some games, the straight in others


def test_short_stock_draws_what_is_left():
    r = both(3, [CURVE], [GREEDY, GREEDY])  # a 3 with one card left: keep it
    assert r["placed"] == [1, 0] and r["stock_left"] == 0 and r["length"] == 1


def test_joining_wins_at_once():
    out = kernel.play_block(SssnakeRules(), 2, 1, 0, 300, policies=np.array([FRIENDLY, FRIENDLY], np.int8))
    joined = out["outcome"] == JOINED
    assert joined.mean() > 0.9
    rows = np.nonzero(joined)[0]
    winners = out["winner"][rows]
    assert (out["missing"][rows, winners] == 0).all()
    assert (out["missing"][rows, 1 - winners] > 0).all()


def test_curves_alone_never_join_the_default_snake():
    # Parity: with only turns, the moves alternate vertical and horizontal, so reaching the
    # tail (2 east, 1 south of the head's first cell) would need an even and an odd number of
    # vertical steps at once. The stock always runs out.
    rules = SssnakeRules(deck={"STRAIGHT": 0, "CURVE": 40, "CROSS": 0, "DOUBLE": 0})
    out = kernel.play_block(rules, 2, 1, 0, 200, policies=np.array([FRIENDLY, FRIENDLY], np.int8))
    assert (out["outcome"] != JOINED).all() and (out["missing"] % 2 == 1).all()


def play_with(die, faces, stock, policies, players=2, seed=0):
    """Play a scripted game under a home-made die in both engines; they must agree."""
    rules = SssnakeRules().updated({"die": die, "faces": faces})
    record, log = reference.play(rules, players, seed, 0, policies=policies, deck=stock, trace=True)
    out = kernel.play_block(rules, players, seed, 0, 1, policies=np.array(policies, np.int8), deck=stock)
    for key, value in record.items():
        assert same(value, out[key][0]), key
    return record, log


def test_a_one_that_gives_two_cards():
    # House rule: the die's 1 draws two cards and both go onto the left neighbour's snake,
    # placed by the roller. Greedy (spite) puts each straight where it costs most: 8, then 9.
    die = {"1": 1, "2": 0, "3": 0}
    r, _ = play_with(die, {"1": {"draw": 2, "give": 2, "placer": "giver"}}, [STRAIGHT, STRAIGHT], [GREEDY, GREEDY])
    assert r["placed"] == [0, 2] and r["spite"] == [0, 2] and r["length"] == 1


def test_a_gift_to_the_right_and_a_new_mark():
    # Three players; a new mark "G" (the only face): draw 2, give 1 to the RIGHT neighbour.
    # Seat 0 keeps the curve (6 missing) and gives the straight to seat 2, who must place it.
    die = {"1": 0, "2": 0, "3": 0, "G": 1}
    faces = {"G": {"draw": 2, "give": 1, "to": "right"}}
    r, log = play_with(die, faces, [CURVE, STRAIGHT], [GREEDY] * 3, players=3)
    assert r["placed"] == [1, 0, 1] and r["missing"] == [6, 7, 8]
    assert any("seat 0 rolls G" in line for line in log)
    assert any("seat 0 will give STRAIGHT to seat 2" in line for line in log)


def test_keeping_everything():
    # A mark that draws 2 and gives nothing: both cards go on one's own snake.
    r, _ = play_with({"1": 0, "2": 1, "3": 0}, {"2": {"draw": 2, "give": 0}}, [CURVE, CURVE], [GREEDY, GREEDY])
    assert r["placed"] == [2, 0] and r["spite"] == [0, 0]


def test_head_start_per_seat():
    # Seat 1 starts with one card: the first CURVE (7 -> 6 missing). Then seat 0 rolls a 2,
    # keeps the other CURVE (6) and gives the STRAIGHT, which seat 1 must place; every place
    # for it leads an end away (7; without the head start it would have been 8). The stock is
    # out after one turn: seat 0 wins on 6 against 7.
    r = both(2, [CURVE, CURVE, STRAIGHT], [GREEDY, GREEDY], head_start=[0, 1])
    assert r["placed"] == [1, 2] and r["missing"] == [6, 7] and r["length"] == 1 and r["stock_left"] == 0
    assert (r["outcome"], r["winner"]) == (STOCK_WIN, 0)


def test_the_feel_figures_of_a_comeback_by_hand():
    # Die 1 only: each turn's card goes onto the left neighbour's snake, where greedy puts it
    # worst. Cards missing after steps 0..4 (the trace's lines): 7 7; 7 6 (a curve on seat
    # 1); 8 6 (a straight on seat 0); 8 9 (a curve sends seat 1's end away); 7 9. The stock
    # is out: seat 0 wins with the fewer missing. Sole leaders: none, 1, 1, 0, 0: one lead
    # change, seat 0 leads for good from step 3 of 4; behind at half time (step 2: 8 against
    # 6), 2 behind at worst; the leaders at steps 1, 2, 3 are seats 1, 1, 0.
    stock = [CURVE, STRAIGHT, CURVE, CURVE]
    r = both(1, stock, [GREEDY, GREEDY], feel=True)
    assert (r["outcome"], r["winner"], r["length"], r["missing"]) == (STOCK_WIN, 0, 4, [7, 9])
    assert r["lead_changes"] == 1 and r["decided"] == pytest.approx(0.75, abs=1e-12) and r["tie_break"] == 0
    assert r["comeback"] == 1 and r["deficit"] == 2
    assert (r["leader_q1"], r["leader_q2"], r["leader_q3"]) == (1, 1, 0)
    _, log = reference.play(SssnakeRules(die=ONLY[1], feel=True), 2, 0, 0, policies=[GREEDY, GREEDY], deck=stock,
                            trace=True)  # fmt: skip
    steps = [line.strip() for line in log if line.strip().startswith("cards missing")]
    assert steps == [
        "cards missing 7 7: no sole leader",
        "cards missing 7 6: seat 1 leads",
        "cards missing 8 6: seat 1 leads",
        "cards missing 8 9: seat 0 leads",
        "cards missing 7 9: seat 0 leads",
    ]


def test_without_feel_the_figures_are_not_recorded():
    r = both(1, [CURVE, STRAIGHT, CURVE, CURVE], [GREEDY, GREEDY], feel=False)
    assert r["lead_changes"] == -1 and r["comeback"] == -1 and r["decided"] != r["decided"]  # (NaN)
