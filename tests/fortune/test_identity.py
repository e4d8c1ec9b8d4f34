"""The reference engine and the kernel play the identical game: every column, every game."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakesim.games.fortune import kernel, reference
from snakesim.games.fortune.rules import DECK_SYMBOLS, FortuneRules
from tests.identity import assert_identical, sizes

GAMES_PER_VARIANT = sizes(1_000, 10_000)
PLAYER_COUNTS = (2, 3, 4, 5, 6)


@pytest.mark.parametrize("games", GAMES_PER_VARIANT)
@pytest.mark.parametrize("variant", list(FortuneRules.VARIANTS))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_reference_and_kernel_identical(variant, players, games):
    # 1,000 games per variant (10,000 in make test-all), spread over 2 to 6 players.
    count = games // len(PLAYER_COUNTS)
    assert_identical(kernel, reference, FortuneRules.variant(variant), players, 2024 + players, players * 10**6, count)


@pytest.mark.parametrize("variant", ["standard", "rejoin"])
@pytest.mark.parametrize("players", (2, 4, 6))
def test_identical_with_start_coins_per_seat(variant, players):
    coins = [1 + (7 * s) % 11 for s in range(players)]  # 1, 8, 4, 11, 7, 3: rich and poor seats
    assert_identical(
        kernel, reference, FortuneRules.variant(variant).updated({"start_coins": coins}), players, 5, 0, 300
    )


@pytest.mark.parametrize("variant", list(FortuneRules.VARIANTS))
@pytest.mark.parametrize("players", (2, 4, 6))
def test_identical_with_the_feel_figures(variant, players):
    rules = FortuneRules.variant(variant).updated({"feel": True})
    assert_identical(kernel, reference, rules, players, 11, players * 1000, 150)


SIDE = st.sampled_from(["left", "right"])
PRIMITIVE = st.one_of(
    st.fixed_dictionaries({"cup": st.integers(0, 4)}),
    st.fixed_dictionaries({"all_cup": st.integers(0, 3)}),
    st.fixed_dictionaries({"others_cup": st.integers(0, 3)}),
    st.fixed_dictionaries({"take": st.integers(0, 4), "from": SIDE}),
    st.fixed_dictionaries({"collect": st.integers(0, 3)}),
    st.fixed_dictionaries({"give": st.integers(0, 4), "to": SIDE, "rejoin": st.booleans()}),
    st.fixed_dictionaries(
        {"give_each": st.integers(0, 3), "shortfall": st.sampled_from(["clockwise", "cup"]), "rejoin": st.booleans()}
    ),
    st.fixed_dictionaries({"take_cup": st.sampled_from(["all", "half"]) | st.integers(1, 6)}),
    st.fixed_dictionaries({"skip": SIDE}),
)
EFFECT = st.lists(PRIMITIVE, max_size=4)


@st.composite
def random_rules(draw):
    """Random decks and random effect tables, new symbols included."""
    deck = {s: draw(st.integers(0, 6)) for s in DECK_SYMBOLS}
    new = draw(st.lists(st.sampled_from(["GOLD", "MOON", "Z_9"]), unique=True, max_size=2))
    deck.update({name: draw(st.integers(0, 4)) for name in new})
    snakes = draw(st.integers(0 if sum(deck.values()) else 1, 3))
    effects = {name: draw(EFFECT) for name in (*deck, "SNAKE") if draw(st.booleans()) or name in new}
    options = {"start_coins": draw(st.integers(1, 25)), "snakes": snakes, "turn_cap": draw(st.integers(1, 400))}
    options["feel"] = draw(st.booleans())
    return FortuneRules().updated({**options, "deck": deck, "effects": effects})


HANDICAP = st.none() | st.lists(st.integers(1, 25), min_size=8, max_size=8)


@settings(max_examples=80, deadline=None)
@given(rules=random_rules(), players=st.integers(2, 8), seed=st.integers(0, 2**63 - 1), handicap=HANDICAP)
def test_identical_under_random_rules(rules, players, seed, handicap):
    if handicap is not None:  # each seat its own start
        rules = rules.updated({"start_coins": handicap[:players]})
    assert_identical(kernel, reference, rules, players, seed, seed % 1000, 15)
