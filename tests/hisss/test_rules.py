"""Hisss's deck data and options: the published deck, and what a deck file may not do."""

import pytest

from snakesim.core.errors import InputError
from snakesim.games.hisss.rules import (
    FIRST_MIDDLE,
    N_TYPES,
    PAIR_KEYS,
    HisssRules,
    card_colours,
    card_kind,
    card_name,
)


def test_published_deck():
    r = HisssRules()
    assert r.deck_size() == 50
    counts = r.type_counts()
    assert sum(counts[:FIRST_MIDDLE]) == 14  # a head and a tail of 6 colours, and the rainbow pair
    middles = {k: n for k, n in r.middles if n}
    assert middles == {
        "RED-ORANGE": 6,
        "ORANGE-YELLOW": 6,
        "YELLOW-GREEN": 6,
        "GREEN-BLUE": 6,
        "BLUE-PURPLE": 6,
        "RED-PURPLE": 6,
    }


def test_card_types_are_named_consistently():
    names = [card_name(t) for t in range(N_TYPES)]
    assert names[0] == "H:R" and names[6] == "H:*" and names[7] == "T:R" and names[13] == "T:*"
    assert names[FIRST_MIDDLE] == "R-R" and names[FIRST_MIDDLE + PAIR_KEYS.index("RED-ORANGE")] == "R-O"
    assert len(set(names)) == N_TYPES
    assert {card_kind(t) for t in range(N_TYPES)} == {0, 1, 2}
    assert card_colours(6) == (6, 6)  # the rainbow head shows any colour


def test_deck_file(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text("[middles]\nRED-PURPLE = 0\nRED-RED = 2\n[heads]\nRAINBOW = 0\n")
    r = HisssRules().with_deck_file(path)
    assert r.deck_size() == 50 - 6 + 2 - 1


@pytest.mark.parametrize(
    "settings,words",
    [
        (["middles.RED-PINK=3"], "middles.RED-PINK: unknown key; expected one of RED-RED"),
        (["heads.RED=-1"], "heads.RED: expected an integer from 0 to 100"),
        (
            [f"heads.{k}=0" for k in ("RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "PURPLE", "RAINBOW")],
            "heads: the deck needs at least one head",
        ),
        (
            [f"tails.{k}=0" for k in ("RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "PURPLE", "RAINBOW")],
            "tails: the deck needs at least one tail",
        ),
        ([f"middles.{k}=100" for k in PAIR_KEYS[:3]], "deck: at most 200 cards"),
        (["tie_break=oldest"], "tie_break: expected one of longest, snakes, cards, none"),
        (['wild_colours=["PINK"]'], "wild_colours: unknown colour 'PINK'"),
        (["wild_colours=RED"], "wild_colours: expected a TOML value"),
        (["ring_reach=4"], "ring_reach: expected an integer from 0 to 3"),
        (["wild_caps=all"], "wild_caps: expected one of none, heads, tails, both"),
        (["points_per_snake=-1"], "points_per_snake: expected an integer from 0"),
    ],
)
def test_bad_decks_and_options(settings, words):
    with pytest.raises(InputError, match=words):
        HisssRules().with_settings(settings)
