"""Hisss's exact solver: a hand-computed 3-card game, and the kernel's Monte Carlo within 4
standard errors of it for small decks and several policy mixes."""

import numpy as np
import pytest

from snakesim.core.errors import InputError
from snakesim.games.hisss import kernel
from snakesim.games.hisss.exact import solve_hisss
from snakesim.games.hisss.rules import END_KEYS, GREEDY, PAIR_KEYS, RANDOM, HisssRules
from tests.identity import assert_matches_exact


def deck(heads=(), tails=(), middles=(), **options):
    """Rules with only the named cards: colours of heads and tails, middle pair names."""
    return HisssRules(
        heads={k: heads.count(k) for k in END_KEYS},
        tails={k: tails.count(k) for k in END_KEYS},
        middles={k: middles.count(k) for k in PAIR_KEYS},
        **options,
    )


THREE = deck(heads=["RED"], tails=["ORANGE"], middles=["RED-ORANGE"])


@pytest.mark.parametrize("policies,seat1", [([RANDOM, RANDOM], 7 / 9), ([RANDOM, GREEDY], 1.0)])
def test_hand_computed_three_cards(policies, seat1):
    # A red head H, a red-orange middle M and an orange tail T; one is turned up, seat 0 and
    # seat 1 draw the other two. In 4 of the 6 orders seat 1's card completes the snake. In
    # the 2 orders where H and T lie alone and seat 1 draws M, it can extend H, extend T, or
    # join them and take all three: random joins 1 time in 3, greedy always. Seat 0 never wins.
    s = solve_hisss(THREE, 2, policies=policies)
    assert s.outcomes.get(("win", 1), 0) == pytest.approx(seat1, abs=1e-12)
    assert s.outcomes.get(("win", 0), 0) == pytest.approx(0, abs=1e-12)
    assert s.outcomes.get("draw", 0) == pytest.approx(1 - seat1, abs=1e-12)
    # Every state can reach an end, so the solver reports ``never`` as exactly 0 by construction.
    assert s.expected_length == pytest.approx(2, abs=1e-12) and s.never == 0.0


def test_refuses_the_full_deck_at_once():
    with pytest.raises(InputError, match=r"exact: this deck needs at least 1,927,561,216 states"):
        solve_hisss(HisssRules(), 2)


def test_start_points_per_seat():
    # THREE with seat 0 starting on 3 points: when seat 1 takes the snake (7/9 under random play)
    # it ties on 3 points and wins the tie on the longest snake (3 cards to none); otherwise
    # nobody takes anything and seat 0 wins on its start. With 4 points seat 0 always wins.
    s = solve_hisss(THREE.updated({"start_points": [3, 0]}), 2, policies=[RANDOM, RANDOM])
    assert s.outcomes.get(("win", 1), 0) == pytest.approx(7 / 9, abs=1e-12)
    assert s.outcomes.get(("win", 0), 0) == pytest.approx(2 / 9, abs=1e-12)
    s = solve_hisss(THREE.updated({"start_points": [4, 0]}), 2, policies=[RANDOM, RANDOM])
    assert s.outcomes.get(("win", 0), 0) == pytest.approx(1.0, abs=1e-12)


SMALL = deck(
    heads=["RED", "ORANGE", "RAINBOW"],
    tails=["RED", "ORANGE"],
    middles=["RED-ORANGE", "RED-ORANGE", "ORANGE-YELLOW", "RED-PURPLE"],
)
CASES = {
    "2p random": (SMALL, [RANDOM, RANDOM]),
    "3p greedy vs random": (SMALL, [GREEDY, RANDOM, GREEDY]),
    "2p claim-joined": (SMALL.updated({"claim_joined": True}), [RANDOM, GREEDY]),
    "2p most snakes": (SMALL.updated({"points_per_card": 0, "points_per_snake": 1}), [GREEDY, GREEDY]),
    "2p house scoring": (
        SMALL.updated({"points_per_snake": 2, "points_per_longest": 1, "tie_break": "none", "ring_reach": 1}),
        [RANDOM, GREEDY],
    ),
    "2p start points": (SMALL.updated({"start_points": [0, 2]}), [GREEDY, RANDOM]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_monte_carlo_agrees_with_the_exact_answer(name):
    rules, policies = CASES[name]
    players = len(policies)
    s = solve_hisss(rules, players, policies=policies)
    assert sum(s.outcomes.values()) == pytest.approx(1.0, abs=1e-12)
    games = 300_000
    out = kernel.play_block(rules, players, 99, 0, games, policies=np.array(policies, np.int8))
    assert_matches_exact(out, s, players)
