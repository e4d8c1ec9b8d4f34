"""Rainbow's legality rules, checked against the rule text, and its deck data."""

import pytest

from snakesim.core.errors import InputError
from snakesim.games.fortune.rules import Card
from snakesim.games.rainbow.rules import RainbowRules, check_setup

LEAVES, POPPIES, ORCHIDS, FOUNTAIN = Card.LEAVES, Card.POPPIES, Card.ORCHIDS, Card.FOUNTAIN
SUNS, STARS, HEARTS, RAIN, CROSSES, RIVER, SNAKE = (
    Card.SUNS, Card.STARS, Card.HEARTS, Card.RAIN, Card.CROSSES, Card.RIVER, Card.SNAKE,
)  # fmt: skip


@pytest.mark.parametrize(
    "card,top,legal",
    [
        (HEARTS, POPPIES, True),  # same colour (RED), different symbol
        (POPPIES, POPPIES, False),  # same symbol
        (SUNS, HEARTS, True),  # next colour: RED > ORANGE
        (HEARTS, SUNS, False),  # the cycle has a direction
        (STARS, SUNS, True),  # ORANGE > YELLOW
        (LEAVES, STARS, True),  # YELLOW > GREEN
        (RAIN, LEAVES, True),  # GREEN > BLUE
        (CROSSES, RIVER, True),  # BLUE > VIOLET
        (HEARTS, ORCHIDS, True),  # VIOLET > RED: the wrap
        (POPPIES, CROSSES, True),  # VIOLET > RED again
        (ORCHIDS, HEARTS, False),  # RED > VIOLET is backwards
        (SUNS, STARS, False),
        (LEAVES, HEARTS, False),  # two steps on
        (RIVER, RAIN, True),  # BLUE, different symbols
        (SNAKE, LEAVES, True),  # without the house rule the SNAKE is an ordinary GREEN card
        (SNAKE, HEARTS, False),
        (LEAVES, SNAKE, True),
        (FOUNTAIN, SNAKE, True),
        (SUNS, SNAKE, False),
        (ORCHIDS, POPPIES, False),  # only with the POPPIES/ORCHIDS house rule
    ],
)
def test_standard_legality(card, top, legal):
    assert RainbowRules().can_play(card, top) is legal


def test_wild_snake():
    r = RainbowRules.variant("wild-snake")
    # A SNAKE may be played on any card...
    assert all(r.can_play(SNAKE, top) for top in Card if top != SNAKE)
    # ...and the card played on a SNAKE must be LEAVES or a BLUE card (so not another SNAKE).
    allowed = {c for c in Card if r.can_play(c, SNAKE)}
    assert allowed == {LEAVES, RAIN, RIVER, FOUNTAIN}
    # Other cards follow the usual rules.
    assert r.can_play(SUNS, HEARTS) and not r.can_play(HEARTS, SUNS)


def test_poppies_orchids_both_ways():
    r = RainbowRules.variant("poppies-orchids")
    assert r.can_play(ORCHIDS, POPPIES) and r.can_play(POPPIES, ORCHIDS)
    assert not RainbowRules().can_play(ORCHIDS, POPPIES)
    assert RainbowRules().can_play(POPPIES, ORCHIDS)  # VIOLET > RED holds anyway


def test_colours_are_data():
    r = RainbowRules().with_settings(["colours.SUNS=RED"])
    assert r.can_play(SUNS, HEARTS)  # now same colour, different symbol
    assert not r.can_play(STARS, SUNS)  # RED > YELLOW is two steps
    assert r.changes() == {"colours": {"SUNS": "RED"}}


def test_legal_table_matches_can_play():
    r = RainbowRules.variant("both")
    table = r.legal_table()
    assert all(table[t, c] == r.can_play(c, t) for t in Card for c in Card)


def test_deck_file(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text('[deck]\nSNAKE = 1\nRAIN = 7\n[colours]\nSNAKE = "BLUE"\n')
    r = RainbowRules().with_deck_file(path)
    assert dict(r.deck)["SNAKE"] == 1 and dict(r.deck)["RAIN"] == 7 and dict(r.colours)["SNAKE"] == "BLUE"
    assert r.deck_size() == 52 - 1 + 2


@pytest.mark.parametrize(
    "text,words",
    [
        ('[colours]\nSUNS = "PINK"', "colours.SUNS: expected one of the cycle's colours: RED, ORANGE"),
        ('[colours]\nDRAGON = "RED"', "colours.DRAGON: unknown key"),
        ("[deck]\nRAIN = -1", "deck.RAIN: expected an integer from 0"),
        ("hand_size = 3", "hand_size: not deck data; a deck file may set deck, colours"),
        ("[deck\n", "not valid TOML"),
    ],
)
def test_bad_deck_files(tmp_path, text, words):
    path = tmp_path / "deck.toml"
    path.write_text(text)
    with pytest.raises(InputError, match=words):
        RainbowRules().with_deck_file(path)


def test_deal_must_fit_the_deck():
    check_setup(RainbowRules(), 7)  # 49 of 52 cards
    with pytest.raises(InputError, match="hand_size: dealing 7 cards to 8 players needs 56 cards; the deck has 52"):
        check_setup(RainbowRules(), 8)


def test_the_wild_snakes_follow_up_rule_is_the_ordinary_rule_with_default_colours():
    # docs/games/rainbow.md: with a GREEN SNAKE, "LEAVES or a BLUE card" is what any GREEN card
    # allows; the house rule only adds that a SNAKE may go on anything.
    from snakesim.games.rainbow.rules import SYMBOLS, RainbowRules

    snake = SYMBOLS.index("SNAKE")
    plain, wild = RainbowRules().legal_table(), RainbowRules.variant("wild-snake").legal_table()
    assert (plain[snake] == wild[snake]).all()
    others = [t for t in range(len(SYMBOLS)) if t != snake]  # (not on another SNAKE: see the docs)
    assert wild[others, snake].all() and not plain[others, snake].all()
    recoloured = RainbowRules().with_settings(["colours.SNAKE=RED"])
    wild_recoloured = recoloured.updated({"wild": {"SNAKE": ["LEAVES", "BLUE"]}})
    assert (recoloured.legal_table()[snake] != wild_recoloured.legal_table()[snake]).any()


def test_the_follow_relation_is_data():
    # Backward cycle: a card goes on the colour after its own. ORANGE SUNS on YELLOW STARS.
    back = RainbowRules(direction="backward")
    assert back.can_play(SUNS, STARS) and not back.can_play(STARS, SUNS)
    both = RainbowRules(direction="both")
    assert both.can_play(SUNS, STARS) and both.can_play(STARS, SUNS)
    # Same colour: any symbol, or never.
    assert RainbowRules(same_colour="any").can_play(POPPIES, POPPIES)
    assert not RainbowRules(same_colour="never").can_play(HEARTS, POPPIES)
    # A family's rule: POPPIES may follow any RED or VIOLET card (two pairs by symbol).
    r = RainbowRules(pairs=[["POPPIES", "HEARTS"], ["POPPIES", "ORCHIDS"]])
    assert r.can_play(POPPIES, HEARTS) and r.can_play(ORCHIDS, POPPIES)
    # A shorter cycle of three colours: every symbol recoloured into it.
    three = {s: ("RED", "GREEN", "BLUE")[i % 3] for i, s in enumerate(RainbowRules().to_dict()["colours"])}
    r = RainbowRules(cycle=["RED", "GREEN", "BLUE"], colours=three)
    # LEAVES RED, POPPIES GREEN, ORCHIDS BLUE, FOUNTAIN RED: RED > GREEN > BLUE > RED.
    assert r.can_play(POPPIES, LEAVES) and r.can_play(ORCHIDS, POPPIES) and r.can_play(FOUNTAIN, ORCHIDS)
    assert not r.can_play(LEAVES, POPPIES) and r.can_play(FOUNTAIN, LEAVES)


@pytest.mark.parametrize(
    "options,field,words",
    [
        ({"cycle": ["RED"]}, "cycle", "2 to 32 names"),
        ({"cycle": ["RED", "RED"]}, "cycle", "given twice"),
        ({"colours": {"SUNS": "PINK"}}, "colours.SUNS", "cycle's colours"),
        ({"pairs": [["POPPIES"]]}, "pairs[0]", "2 to 2 names"),
        ({"pairs": [["POPPIES", "DAISIES"]]}, "pairs[0]", "unknown symbol"),
        ({"wild": {"DRAGON": []}}, "wild.DRAGON", "unknown symbol"),
        ({"wild": {"SNAKE": ["PINK"]}}, "wild.SNAKE", "not a symbol, a colour of the cycle, or ANY"),
        ({"direction": "up"}, "direction", "forward, backward, both"),
        ({"draw_play": "always"}, "draw_play", "may, must, never"),
    ],
)
def test_bad_follow_relations_name_the_key(options, field, words):
    with pytest.raises(InputError) as err:
        RainbowRules().updated(options)
    assert err.value.field == field and words in str(err.value)
