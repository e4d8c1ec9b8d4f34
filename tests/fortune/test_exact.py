"""The exact solver against hand-computed tiny games, and the kernel's Monte Carlo against
the exact solver (within 4 standard errors, fixed seeds)."""

import numpy as np
import pytest

from snakesim.core.errors import InputError
from snakesim.games.fortune import kernel
from snakesim.games.fortune.exact import solve_fortune, state_bound
from snakesim.games.fortune.rules import DECK_SYMBOLS, UNFINISHED, FortuneRules
from tests.identity import assert_matches_exact


def rules_with(cards, variant="standard", **options):
    """Rules whose deck holds exactly ``cards`` (a symbol -> count mapping; SNAKE included)."""
    deck = {s: cards.get(s, 0) for s in DECK_SYMBOLS}
    return FortuneRules.variant(variant).updated({"deck": deck, "snakes": cards.get("SNAKE", 0), **options})


@pytest.mark.parametrize(
    "cards,coins,wins,draw,length",
    [
        # LEAVES first (1/2): seat 0 pays its coin and is out, 1 card. SNAKE first (1/2): the
        # cup is empty, then seat 1 draws LEAVES and is out, 2 cards. Mean length 1.5.
        ({"LEAVES": 1, "SNAKE": 1}, 1, [0.5, 0.5], 0.0, 1.5),
        # SUNS first: seat 0 takes seat 1's coin and wins; LEAVES first: seat 0 is out.
        ({"SUNS": 1, "LEAVES": 1}, 1, [0.5, 0.5], 0.0, 1.0),
        # FOUNTAIN puts both players out at once: always a draw.
        ({"FOUNTAIN": 1}, 1, [0.0, 0.0], 1.0, 1.0),
        # Two LEAVES: whoever draws first... seat 0 always does, and is out.
        ({"LEAVES": 2}, 1, [0.0, 1.0], 0.0, 1.0),
        # POPPIES with 3 coins each: 3,3 -> 1,3 -> 1,1 -> out, 1 -> seat 0 out at card 3.
        ({"POPPIES": 1}, 3, [0.0, 1.0], 0.0, 3.0),
        # The same with seat 0 given 5 coins: 5,3 -> 3,3 -> 3,1 -> 1,1 -> 1,out: seat 0 wins at card 4.
        ({"POPPIES": 1}, [5, 3], [1.0, 0.0], 0.0, 4.0),
    ],
)
def test_hand_computed_two_card_games(cards, coins, wins, draw, length):
    s = solve_fortune(rules_with(cards, start_coins=coins), 2)
    assert [s.outcomes.get(("win", k), 0.0) for k in (0, 1)] == pytest.approx(wins, abs=1e-12)
    assert s.outcomes.get("draw", 0.0) == pytest.approx(draw, abs=1e-12)
    assert s.expected_length == pytest.approx(length, abs=1e-12) and s.never == 0.0


def test_a_game_that_can_never_end():
    # SUNS alone, 2 coins each: seat 0 takes one (3, 1), seat 1 takes it back (2, 2), forever.
    s = solve_fortune(rules_with({"SUNS": 1}, start_coins=2), 2)
    # No state can reach an end: the solver returns 1.0 and inf by construction, not by a solve.
    assert s.never == 1.0 and s.expected_length == float("inf") and not s.outcomes
    # The kernel agrees: every game hits the turn cap.
    out = kernel.play_block(rules_with({"SUNS": 1}, start_coins=2, turn_cap=50), 2, 1, 0, 100)
    assert (out["outcome"] == UNFINISHED).all()


def test_too_large_is_refused_with_the_state_count():
    rules = FortuneRules(start_coins=5)
    with pytest.raises(InputError, match=r"exact: this configuration may need up to [\d,]+ states \(52 cards"):
        solve_fortune(rules, 4)
    assert state_bound(rules, 4) > 10**12


SMALL = {
    "mixed 2p": (
        rules_with(
            {"LEAVES": 1, "SUNS": 1, "HEARTS": 2, "RAIN": 1, "CROSSES": 1, "RIVER": 1, "SNAKE": 1}, start_coins=3
        ),
        2,
    ),
    "fountain 3p": (rules_with({"FOUNTAIN": 2, "STARS": 1, "RIVER": 1, "SNAKE": 1, "ORCHIDS": 1}, start_coins=2), 3),
    "rejoin 3p": (rules_with({"CROSSES": 2, "RIVER": 2, "POPPIES": 2, "SNAKE": 1}, start_coins=2, variant="rejoin"), 3),
    "house rules 3p": (
        rules_with(
            {"HEARTS": 2, "RAIN": 1, "LEAVES": 1, "SNAKE": 2},
            start_coins=2,
            effects={"SNAKE": [{"take_cup": "half"}], "HEARTS": [{"take": 1, "from": "right"}, {"skip": "left"}]},
        ),
        3,
    ),
    "crosses to cup 4p": (
        rules_with({"CROSSES": 2, "SUNS": 1, "LEAVES": 2, "SNAKE": 1}, start_coins=2, variant="crosses-to-cup"),
        4,
    ),
}


@pytest.mark.parametrize("name", list(SMALL))
def test_probabilities_sum_to_one(name):
    rules, players = SMALL[name]
    s = solve_fortune(rules, players)
    assert sum(s.outcomes.values()) + s.never == pytest.approx(1.0, abs=1e-12)
    assert all(0 <= p <= 1 for p in s.outcomes.values())


@pytest.mark.parametrize("name", list(SMALL))
def test_monte_carlo_agrees_with_the_exact_answer(name):
    rules, players = SMALL[name]
    s = solve_fortune(rules, players)
    assert s.never < 1e-12
    games = 300_000
    out = kernel.play_block(rules, players, 2024, 0, games)
    assert (out["outcome"] != UNFINISHED).all()
    assert_matches_exact(out, s, players)  # no unfinished games, so winner < 0 means a draw
    lengths = out["length"].astype(float)
    assert abs(lengths.mean() - s.expected_length) <= 4 * lengths.std() / np.sqrt(games)
