"""The reference engine and the kernel play the identical game, for every variant and policy mix."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakesim.games.rainbow import kernel, reference
from snakesim.games.rainbow.rules import (
    COLOURS,
    DIRECTIONS,
    DRAW_PLAY,
    GREEDY,
    RANDOM,
    SAME_COLOUR,
    SYMBOLS,
    RainbowRules,
    check_setup,
)
from tests.identity import MIXES, assert_identical, sizes

GAMES_PER_CASE = sizes(1_000, 10_000)
PLAYER_COUNTS = (2, 3, 4, 5, 6)


@pytest.mark.parametrize("games", GAMES_PER_CASE)
@pytest.mark.parametrize("mix", list(MIXES))
@pytest.mark.parametrize("variant", list(RainbowRules.VARIANTS))
def test_reference_and_kernel_identical(variant, mix, games):
    # 1,000 games for each variant and policy mix (10,000 in make test-all), spread over 2 to 6 players.
    for players in PLAYER_COUNTS:
        count = games // len(PLAYER_COUNTS)
        assert_identical(
            kernel,
            reference,
            RainbowRules.variant(variant).updated({"feel": True}),  # (off: the random rules below)
            players,
            77 + players,
            players * 10**5,
            count,
            MIXES[mix](players),
        )


@pytest.mark.parametrize("players", (2, 4, 6))
def test_identical_with_hand_size_per_seat(players):
    hands = [3 + (5 * s) % 7 for s in range(players)]  # 3, 8, 6, 4, 9, 7
    rules = RainbowRules.variant("wild-snake").updated({"hand_size": hands})
    assert_identical(kernel, reference, rules, players, 11, 0, 200, [s % 2 for s in range(players)])


@st.composite
def random_setups(draw):
    deck = {s: draw(st.integers(0, 5)) for s in SYMBOLS}
    players = draw(st.integers(2, 6))
    hand_size = draw(st.integers(1, 8) | st.lists(st.integers(1, 8), min_size=players, max_size=players))
    dealt = hand_size * players if isinstance(hand_size, int) else sum(hand_size)
    if sum(deck.values()) < max(2, dealt):
        deck["LEAVES"] += dealt + 2
    cycle = draw(st.lists(st.sampled_from(COLOURS), min_size=2, max_size=6, unique=True))
    symbol = st.sampled_from(SYMBOLS)
    follow = st.lists(st.sampled_from([*SYMBOLS, *cycle, "ANY"]), max_size=3, unique=True)
    rules = RainbowRules(
        hand_size=hand_size,
        cycle=cycle,
        direction=draw(st.sampled_from(DIRECTIONS)),
        same_colour=draw(st.sampled_from(SAME_COLOUR)),
        pairs=draw(st.lists(st.lists(symbol, min_size=2, max_size=2, unique=True), max_size=3)),
        wild=draw(st.dictionaries(symbol, follow, max_size=3)),
        draw_play=draw(st.sampled_from(DRAW_PLAY)),
        turn_cap=draw(st.integers(1, 300)),
        feel=draw(st.booleans()),
        deck=deck,
        colours={s: draw(st.sampled_from(cycle)) for s in SYMBOLS},
    )
    check_setup(rules, players)
    return rules, players, draw(st.lists(st.sampled_from([RANDOM, GREEDY]), min_size=players, max_size=players))


@settings(max_examples=60, deadline=None)
@given(setup=random_setups(), seed=st.integers(0, 2**63 - 1))
def test_identical_under_random_rules_decks_and_colours(setup, seed):
    # Hands of one size for all, or one per seat.
    rules, players, policies = setup
    assert_identical(kernel, reference, rules, players, seed, seed % 997, 10, policies)
