"""Rules as data: defaults, variants, --set strings, TOML files, and every kind of bad value."""

import pytest

from snakesim.core.errors import InputError
from snakesim.games.fortune.rules import FortuneRules


def test_defaults_follow_rules_md():
    r = FortuneRules()
    assert (r.start_coins, r.snakes, r.turn_cap) == (20, 2, 10_000)
    assert r.effect(6) == [{"take": 3, "from": "left"}, {"skip": "left"}]  # HEARTS
    assert r.effect(8) == [{"give_each": 1, "shortfall": "clockwise", "rejoin": False}]  # CROSSES
    assert r.deck_size() == 52
    cards = r.deck_cards()
    assert len(cards) == 52 and (cards == 10).sum() == 2


CROSSES = {"give_each": 1, "shortfall": "clockwise", "rejoin": False}


@pytest.mark.parametrize(
    "variant,changes",
    [
        ("one-snake", {"snakes": 1}),
        (
            "rejoin",
            {
                "effects": {
                    "CROSSES": [{**CROSSES, "rejoin": True}],
                    "RIVER": [{"give": 3, "to": "right", "rejoin": True}],
                }
            },
        ),
        ("crosses-to-cup", {"effects": {"CROSSES": [{**CROSSES, "shortfall": "cup"}]}}),
    ],
)
def test_variants_are_presets_of_the_tables(variant, changes):
    assert FortuneRules.variant(variant).changes() == changes


def test_settings_parse_each_kind():
    r = FortuneRules().with_settings(
        [
            "start_coins=7",
            'effects.HEARTS=[{take = 2, from = "left"}]',
            "deck.RAIN=2",
            "deck.SUNS=0",
            "deck.GOLD=1",
            "effects.GOLD=[{take_cup = 'half'}]",
        ]
    )
    assert r.start_coins == 7 and r.effect(6) == [{"take": 2, "from": "left"}]
    assert dict(r.deck)["RAIN"] == 2 and dict(r.deck)["SUNS"] == 0 and dict(r.deck)["LEAVES"] == 5
    assert r.deck_size() == 52 - 3 - 5 + 1 and r.symbols()[11] == "GOLD" and r.counts()[11] == 1
    assert r.changes() == {
        "start_coins": 7,
        "deck": {"SUNS": 0, "RAIN": 2, "GOLD": 1},
        "effects": {"HEARTS": [{"take": 2, "from": "left"}], "GOLD": [{"take_cup": "half"}]},
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
        (["deck.RAIN=-1"], "deck.RAIN", "integer from 0 to 10,000"),
        (["deck.dragon=1"], "deck.dragon", "capital letters"),
        (["deck.DRAGON=1"], "deck.DRAGON", "needs an entry in effects too"),
        (["effects.DRAGON=[]"], "effects.DRAGON", "needs a count too"),
        (["effects.HEARTS=take"], "effects.HEARTS", "expected a TOML value"),
        (["effects.HEARTS=3"], "effects.HEARTS", "expected a list of up to 8 primitives"),
        (["effects.HEARTS=[{steal = 3}]"], "effects.HEARTS[0]", "exactly one of cup, all_cup"),
        (["effects.HEARTS=[{take = 3, cup = 1}]"], "effects.HEARTS[0]", "exactly one of"),
        (["effects.HEARTS=[{take = 3, to = 'left'}]"], "effects.HEARTS[0].to", "take takes from"),
        (["effects.HEARTS=[{take = 3, from = 'up'}]"], "effects.HEARTS[0].from", "left, right"),
        (["effects.HEARTS=[{take = -3}]"], "effects.HEARTS[0].take", "integer from 0"),
        (["effects.SNAKE=[{take_cup = 'most'}]"], "effects.SNAKE[0].take_cup", '"all", "half" or a number of coins'),
        (["effects.RIVER=[{give = 3, rejoin = 'yes'}]"], "effects.RIVER[0].rejoin", "true or false"),
        (["effects.RAIN=[{cup = 1}, 2]"], "effects.RAIN[1]", "expected a table"),
        (["effects.RAIN=[" + ", ".join(["{cup = 1}"] * 9) + "]"], "effects.RAIN", "at most 8"),
        (["deck=3"], "deck", "or set one entry as deck.KEY=VALUE"),
        (["deck={RAIN = -1}"], "deck.RAIN", "integer from 0"),
        (["start_coins"], "--set", "NAME=VALUE"),
        (["turn_cap=0"], "turn_cap", "integer from 1"),
        (["start_coins=[20, 0]"], "start_coins[1]", "integer from 1 to 1,000,000"),
        (["start_coins=[20, x]"], "start_coins", "or a list of one per seat"),
        (["start_coins=[]"], "start_coins", "got 0 values"),
        (["start_coins=[20, true]"], "start_coins[1]", "integer"),
    ],
)
def test_bad_settings_name_the_field(settings, field, words):
    with pytest.raises(InputError) as err:
        FortuneRules().with_settings(settings)
    assert err.value.field == field and words in str(err.value)


def test_per_seat_values_must_match_the_seats(tmp_path):
    from snakesim.games import get_game

    spec, rules = get_game("fortune"), FortuneRules().with_settings(["start_coins=[20, 20, 21]"])
    assert rules.start_coins == (20, 20, 21) and rules.to_dict()["start_coins"] == [20, 20, 21]
    (tmp_path / "r.toml").write_text(rules.to_toml())
    assert FortuneRules.from_toml(tmp_path / "r.toml")[1] == rules
    spec.check(rules, 3)
    with pytest.raises(InputError, match=r"start_coins: expected one value per seat \(4 values\)"):
        spec.check(rules, 4)


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
    with pytest.raises(InputError, match=r"effects\.RAIN"):
        FortuneRules().updated({"effects": {"RAIN": {"cup": 1}}})
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
        ("[effects]\nRIVER = [{give = 3, rejoin = 1}]", r"effects.RIVER\[0\].rejoin: expected true or false"),
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


def test_a_per_seat_list_may_be_typed_without_its_brackets():
    """A family typed "12, 12, 12, 12" for one value a seat, as the help says, and was refused:
    the brackets are optional now, in the workbench's field and in --set alike."""
    from snakesim.games.fortune.rules import FortuneRules

    assert FortuneRules().with_settings(["start_coins=12, 12, 13, 13"]).start_coins == (12, 12, 13, 13)
    assert FortuneRules().with_settings(["start_coins=[12, 12, 13, 13]"]).start_coins == (12, 12, 13, 13)
    with pytest.raises(InputError, match=r"or a list of one per seat \(20, 20, 21, 21\), got '12, x'"):
        FortuneRules().with_settings(["start_coins=12, x"])


def test_every_per_seat_options_example_is_one_it_takes():
    """``variants sssnake`` gave head_start (0 to 10) the example 20, 20, 21, 21, which it refused."""
    import re

    from snakesim.core.rules import PerSeat
    from snakesim.games import GAMES

    seen = 0
    for spec in GAMES.values():
        for name, f in spec.rules.specs().items():
            one = f.metadata["spec"]
            if isinstance(one, PerSeat):
                example = re.search(r"a list of one per seat \(([^)]*)\)", one.describe()).group(1)
                assert spec.rules().with_settings([f"{name}={example}"]) is not None, (spec.name, name)
                seen += 1
    assert seen >= 3  # (Fortune's start_coins, Rainbow's hand_size, Sssnake's head_start, ...)
    assert "(0, 0, 1, 1)" in GAMES["sssnake"].rules.specs()["head_start"].metadata["spec"].describe()
