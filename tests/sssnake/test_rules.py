"""Sssnake's options: the defaults of rules.md section 4, and what a bad value is told."""

import pytest

from snakesim.core.errors import InputError
from snakesim.games.sssnake.rules import CROSS, CURVE, DOUBLE, STRAIGHT, SssnakeRules, exits, free_path

N, E, S, W = range(4)


def test_defaults_are_rules_md():
    r = SssnakeRules()
    assert r.deck_size() == 120
    assert dict(r.deck) == {"STRAIGHT": 60, "CURVE": 48, "CROSS": 8, "DOUBLE": 4}
    assert list(r.die_faces()) == [0, 0, 1, 1, 2, 2]  # mark codes: "1", "2", "3"
    assert [a["draw"] for _, a in r.action_list()] == [1, 2, 3]
    assert r.head_end() == (-1, 0, W) and r.tail_end() == (2, 1, E)


def test_variants_change_only_the_die():
    assert list(SssnakeRules.variant("fewer-ones").die_faces()) == [0, 1, 1, 2, 2, 2]
    assert list(SssnakeRules.variant("no-ones").die_faces()) == [1, 1, 1, 2, 2, 2]
    assert SssnakeRules.variant("no-ones").changes() == {"die": {"1": 0, "2": 3, "3": 3}}


def test_card_rotations():
    assert exits(STRAIGHT, E) == [E] and exits(CROSS, N) == [N]
    assert exits(CURVE, E) == [N, S] and exits(DOUBLE, W) == [N, S]
    assert free_path(CROSS, E, E) == (N, S)
    # Entering moving east (by the west edge) and turning north: the curve S-E stays free.
    assert free_path(DOUBLE, E, N) == (E, S)
    assert free_path(STRAIGHT, E, E) is None and free_path(CURVE, E, N) is None


@pytest.mark.parametrize(
    "settings,field,words",
    [
        (["head_side=east"], "head_side", "outer side"),
        (["head_x=2"], "head_x", "0 to 1"),
        (["block_width=1", "tail_x=0", "tail_y=0", "tail_side=west", "head_y=0"], "tail_side", "same side"),
        (["die.1=0", "die.2=0", "die.3=0"], "die", "at least one face"),
        (["deck.STRAIGHT=0", "deck.CURVE=0", "deck.CROSS=0", "deck.DOUBLE=0"], "deck", "at least one"),
        (["deck.CURVE=400"], "deck", "at most 400"),
        (["deck.SPIRAL=3"], "deck.SPIRAL", "unknown key"),
        (["die.4=1"], "die.4", "needs an entry in faces too"),
        (["faces.4={draw = 4, give = 1}"], "faces.4", "needs a count too"),
        (['faces.1={draw = 2, give = 1, placer = "giver"}'], "faces.1.give", "give must be 2"),
        (["faces.2={draw = 2, give = 2}"], "faces.2.give", "below 2"),
        (["faces.2={draw = 11, give = 1}"], "faces.2.draw", "1 to 10"),
        (['faces.2={draw = 2, give = 1, to = "across"}'], "faces.2.to", "left, right"),
        (["faces.2={draw = 2, keep = 1}"], "faces.2.keep", "unknown key"),
        (["faces.2=3"], "faces.2", "expected a table"),
        (["tail_side=up"], "tail_side", "one of north, east, south, west"),
        (["block_height=7"], "block_height", "1 to 6"),
    ],
)
def test_bad_values_name_the_field(settings, field, words):
    with pytest.raises(InputError) as err:
        SssnakeRules().with_settings(settings)
    assert err.value.field == field and words in str(err.value)


def test_deck_file(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text("[deck]\nCROSS = 20\n")
    assert SssnakeRules().with_deck_file(path).deck_size() == 132
    path.write_text("[die]\n1 = 3\n")
    with pytest.raises(InputError, match="not deck data"):
        SssnakeRules().with_deck_file(path)
