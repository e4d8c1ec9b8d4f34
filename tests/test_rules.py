"""Rules as data: defaults, variants, --set strings, TOML files, and every kind of bad value."""

import pytest

from snakesim.core.errors import InputError
from snakesim.games.fortune.rules import FortuneRules


def test_defaults_follow_rules_md():
    r = FortuneRules()
    assert (r.start_coins, r.snakes, r.rejoin, r.crosses_shortfall, r.turn_cap) == (
        20,
        2,
        False,
        "clockwise",
        10_000,
    )
    assert r.deck_size() == 52
    cards = r.deck_cards()
    assert len(cards) == 52 and (cards == 10).sum() == 2


@pytest.mark.parametrize(
    "variant,field,value",
    [
        ("one-snake", "snakes", 1),
        ("rejoin", "rejoin", True),
        ("crosses-to-cup", "crosses_shortfall", "cup"),
    ],
)
def test_variants(variant, field, value):
    r = FortuneRules.variant(variant)
    assert getattr(r, field) == value
    assert r.changes() == {field: value}


def test_settings_parse_each_kind():
    r = FortuneRules().with_settings(
        ["start_coins=7", "rejoin=yes", "crosses_shortfall=cup", "deck.RAIN=2", "deck.SUNS=0"]
    )
    assert r.start_coins == 7 and r.rejoin is True and r.crosses_shortfall == "cup"
    assert dict(r.deck)["RAIN"] == 2 and dict(r.deck)["SUNS"] == 0 and dict(r.deck)["LEAVES"] == 5
    assert r.deck_size() == 52 - 3 - 5
    assert r.changes() == {
        "start_coins": 7,
        "rejoin": True,
        "crosses_shortfall": "cup",
        "deck": {"SUNS": 0, "RAIN": 2},
    }


def test_rules_are_frozen_and_hashable():
    r = FortuneRules()
    with pytest.raises(AttributeError):
        r.start_coins = 3
    assert hash(r) == hash(FortuneRules()) and r == FortuneRules()


@pytest.mark.parametrize(
    "settings,field,words",
    [
        (["nope=1"], "nope", "unknown option"),
        (["start_coins=abc"], "start_coins", "integer from 1"),
        (["start_coins=0"], "start_coins", "integer from 1"),
        (["start_coins=1.5"], "start_coins", "integer"),
        (["rejoin=maybe"], "rejoin", "true or false"),
        (["crosses_shortfall=left"], "crosses_shortfall", "clockwise, cup"),
        (["deck.RAIN=-1"], "deck.RAIN", "integer from 0 to 10,000"),
        (["deck.DRAGON=1"], "deck.DRAGON", "unknown key"),
        (["deck=3"], "deck", "one entry at a time"),
        (["start_coins"], "--set", "NAME=VALUE"),
        (["turn_cap=0"], "turn_cap", "integer from 1"),
    ],
)
def test_bad_settings_name_the_field(settings, field, words):
    with pytest.raises(InputError) as err:
        FortuneRules().with_settings(settings)
    assert err.value.field == field and words in str(err.value)


def test_empty_deck_is_refused():
    zeros = [f"deck.{s}=0" for s, _ in FortuneRules().deck] + ["snakes=0"]
    with pytest.raises(InputError, match="deck: the deck has no cards"):
        FortuneRules().with_settings(zeros)


def test_unknown_variant():
    with pytest.raises(InputError, match="variant: unknown variant 'two-snakes'; expected one of standard"):
        FortuneRules.variant("two-snakes")


def test_wrong_python_types_are_refused():
    with pytest.raises(InputError, match="start_coins"):
        FortuneRules(start_coins="20")
    with pytest.raises(InputError, match="rejoin"):
        FortuneRules(rejoin=1)
    with pytest.raises(InputError, match="start_coins"):
        FortuneRules(start_coins=True)


def test_toml_file(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('variant = "one-snake"\nstart_coins = 12\n[deck]\nRAIN = 1\n')
    variant, r = FortuneRules.from_toml(path)
    assert variant == "one-snake" and r.snakes == 1 and r.start_coins == 12 and dict(r.deck)["RAIN"] == 1


@pytest.mark.parametrize(
    "text,words",
    [
        ("start_coins = ", "not valid TOML"),
        ("start_coins = 'ten'", "start_coins: expected an integer"),
        ("rejoin = 1", "rejoin: expected true or false"),
        ("[deck]\nRAIN = 'x'", "deck.RAIN: expected an integer"),
        ("colour = 'red'", "colour: unknown option"),
        ("variant = 3", "variant: expected a variant name"),
    ],
)
def test_bad_toml(tmp_path, text, words):
    path = tmp_path / "r.toml"
    path.write_text(text)
    with pytest.raises(InputError, match=words):
        FortuneRules.from_toml(path)


def test_missing_toml(tmp_path):
    with pytest.raises(InputError, match="cannot read rules file"):
        FortuneRules.from_toml(tmp_path / "absent.toml")
