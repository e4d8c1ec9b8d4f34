"""The reference engine and the kernel play the identical game, for every variant and policy mix."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakesim.games.hisss import kernel, reference
from snakesim.games.hisss.rules import COLOURS, END_KEYS, GREEDY, PAIR_KEYS, RANDOM, TIE_BREAKS, WILD_CAPS, HisssRules
from tests.identity import MIXES, assert_identical, sizes

GAMES_PER_CASE = sizes(1_000, 10_000)
PLAYER_COUNTS = (2, 3, 4, 5)


@pytest.mark.parametrize("games", GAMES_PER_CASE)
@pytest.mark.parametrize("mix", list(MIXES))
@pytest.mark.parametrize("variant", list(HisssRules.VARIANTS))
def test_reference_and_kernel_identical(variant, mix, games):
    # 1,000 games for each variant and policy mix (10,000 in make test-all), spread over 2 to 5 players.
    for players in PLAYER_COUNTS:
        count = games // len(PLAYER_COUNTS)
        assert_identical(
            kernel,
            reference,
            HisssRules.variant(variant).updated({"feel": True}),  # (off: the start points below)
            players,
            500 + players,
            players * 10**5,
            count,
            MIXES[mix](players),
        )


@pytest.mark.parametrize("players", (2, 3, 5))
def test_identical_with_start_points_per_seat(players):
    rules = HisssRules.variant("most-snakes").updated({"start_points": [(2 * s) % 3 for s in range(players)]})
    assert_identical(kernel, reference, rules, players, 3, 0, 200, [s % 2 for s in range(players)])


@st.composite
def random_setups(draw):
    heads = {k: draw(st.integers(0, 2)) for k in END_KEYS}
    tails = {k: draw(st.integers(0, 2)) for k in END_KEYS}
    heads["RAINBOW"] += sum(heads.values()) == 0
    tails["RAINBOW"] += sum(tails.values()) == 0
    middles = {k: draw(st.integers(0, 3)) for k in PAIR_KEYS}
    rules = HisssRules(
        heads=heads,
        tails=tails,
        middles=middles,
        ring_reach=draw(st.integers(0, 3)),
        wild_colours=draw(st.lists(st.sampled_from(COLOURS), max_size=2, unique=True)),
        wild_caps=draw(st.sampled_from(WILD_CAPS)),
        claim_joined=draw(st.booleans()),
        points_per_card=draw(st.integers(0, 3)),
        points_per_snake=draw(st.integers(0, 5)),
        points_per_longest=draw(st.integers(0, 2)),
        tie_break=draw(st.sampled_from(TIE_BREAKS)),
    )
    players = draw(st.integers(2, 6))
    start = draw(st.integers(0, 3) | st.lists(st.integers(0, 6), min_size=players, max_size=players))
    rules = rules.updated({"start_points": start})  # one for all, or each seat its own
    return rules, players, draw(st.lists(st.sampled_from([RANDOM, GREEDY]), min_size=players, max_size=players))


@settings(max_examples=50, deadline=None)
@given(setup=random_setups(), seed=st.integers(0, 2**63 - 1))
def test_identical_under_random_decks(setup, seed):
    rules, players, policies = setup
    assert_identical(kernel, reference, rules, players, seed, seed % 991, 8, policies)
