"""The reference engine and the kernel play the identical game, for every policy mix and for
random geometries, decks and dice."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from snakesim.games.sssnake import kernel, reference
from snakesim.games.sssnake.rules import CARD_KEYS, FRIENDLY, GREEDY, POLICIES, RANDOM, SIDES, SssnakeRules
from tests.identity import MIXES, assert_identical, sizes

GAMES_PER_MIX = sizes(300, 5_001)
PLAYER_COUNTS = (2, 3, 4)
SSSNAKE_MIXES = {
    **MIXES,
    "friendly-vs-greedy": lambda n: [FRIENDLY] + [GREEDY] * (n - 1),
    "all-friendly": lambda n: [FRIENDLY] * n,
}


@pytest.mark.parametrize("games", GAMES_PER_MIX)
@pytest.mark.parametrize("mix", list(SSSNAKE_MIXES))
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_reference_and_kernel_identical(mix, players, games):
    # 300 games for each policy mix (5,001 in make test-all), a third each with 2, 3 and 4 players.
    count = games // len(PLAYER_COUNTS)
    rules = SssnakeRules(feel=True)
    assert_identical(
        kernel, reference, rules, players, 700 + players, players * 10**5, count, SSSNAKE_MIXES[mix](players)
    )


@pytest.mark.parametrize("variant", [v for v in SssnakeRules.VARIANTS if v != "standard"])
def test_variants_identical(variant):
    assert_identical(kernel, reference, SssnakeRules.variant(variant), 3, 5, 0, 300, [GREEDY, RANDOM, FRIENDLY])


@pytest.mark.parametrize("players", (2, 4))
def test_identical_with_head_start_per_seat(players):
    rules = SssnakeRules.variant("no-ones").updated({"head_start": [s % 3 for s in range(players)], "feel": True})
    assert_identical(kernel, reference, rules, players, 9, 0, 200, [GREEDY, RANDOM, FRIENDLY, GREEDY][:players])


@st.composite
def random_setups(draw):
    width, height = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    ends = []
    for _ in range(2):
        side = draw(st.sampled_from(SIDES))  # a cell on that side of the card, leaving by it
        x = {"east": width - 1, "west": 0}.get(side, draw(st.integers(0, width - 1)))
        y = {"north": 0, "south": height - 1}.get(side, draw(st.integers(0, height - 1)))
        ends.append((x, y, side))
    assume(ends[0] != ends[1])
    deck = {k: draw(st.integers(0, 12)) for k in CARD_KEYS}
    deck["STRAIGHT"] += sum(deck.values()) == 0
    die = {k: draw(st.integers(0, 3)) for k in ("1", "2", "3", "X")}
    die["2"] += sum(die.values()) == 0
    faces = {}
    for mark in die:
        n = draw(st.integers(1, 4))
        if draw(st.booleans()):
            faces[mark] = {"draw": n, "give": n, "to": draw(st.sampled_from(["left", "right"])), "placer": "giver"}
        else:
            faces[mark] = {
                "draw": n,
                "give": draw(st.integers(0, n - 1)),
                "to": draw(st.sampled_from(["left", "right"])),
            }
    (hx, hy, hside), (tx, ty, tside) = ends
    rules = SssnakeRules(
        block_width=width,
        block_height=height,
        head_x=hx,
        head_y=hy,
        head_side=hside,
        tail_x=tx,
        tail_y=ty,
        tail_side=tside,
        deck=deck,
        die=die,
        faces=faces,
    )
    players = draw(st.integers(2, 4))
    start = draw(st.integers(0, 2) | st.lists(st.integers(0, 10), min_size=players, max_size=players))
    # one head start for all, or each seat its own (may join at once)
    rules = rules.updated({"head_start": start, "feel": draw(st.booleans())})
    # The one-step policies (the look-ahead ones have their own identity tests: tests/test_players.py).
    simple = [POLICIES.index(p) for p in ("random", "greedy", "friendly")]
    return rules, players, draw(st.lists(st.sampled_from(simple), min_size=players, max_size=players))


@settings(max_examples=60, deadline=None)
@given(setup=random_setups(), seed=st.integers(0, 2**63 - 1))
def test_identical_under_random_rules(setup, seed):
    rules, players, policies = setup
    assert_identical(kernel, reference, rules, players, seed, seed % 991, 6, policies)
