"""Fortune's rules and variants (seed 004, first part; docs/games/fortune.md).

What each symbol does is data: ``effects`` gives every symbol a short list of primitives
(pay the cup, take from a neighbour, everyone pays the cup, ...), which the reference engine
and the kernel both carry out. The seed's cards are the default; the named variants are
presets that change a few entries; a house rule is a TOML table such as

    [effects]
    HEARTS = [{take = 2, from = "left"}]        # takes 2 and does not skip
    SNAKE = [{take_cup = "half"}]

New symbols are allowed: give them a count in ``deck`` and an entry in ``effects``.

The deck counts are an assumption of ours (the seed only says "two SNAKE cards"): five of each
of the ten other symbols, changeable per symbol (``--set deck.RAIN=3``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar

import numpy as np

from snakesim.core.errors import InputError
from snakesim.core.feel import feel_option
from snakesim.core.rules import (
    Int,
    Named,
    NamedCounts,
    PerSeat,
    Rules,
    Spec,
    Variant,
    check_paired,
    option,
    parse_value,
)


class Card(IntEnum):
    """The seed's eleven symbols; the integer is the card's code in the kernel's arrays.

    Symbols a user adds get the codes after these, in the order of their names.
    """

    LEAVES = 0
    POPPIES = 1
    ORCHIDS = 2
    FOUNTAIN = 3
    SUNS = 4
    STARS = 5
    HEARTS = 6
    RAIN = 7
    CROSSES = 8
    RIVER = 9
    SNAKE = 10


SYMBOLS = tuple(c.name for c in Card)
# The symbols whose count is a deck entry; SNAKE's count is the seed's own `snakes` option.
DECK_SYMBOLS = tuple(c.name for c in Card if c is not Card.SNAKE)

OUTCOMES = ("win", "draw", "unfinished")
WIN, DRAW, UNFINISHED = range(3)

# ---------------------------------------------------------------------------- primitives
# Each primitive is one verb with an amount, and the modifiers it takes: name -> (allowed
# values, default). Its code in the kernel's op table is its position here.
SIDES = ("left", "right")
CUP_SHARES = ("all", "half")  # or N coins: take_cup's amount in the op table (0 for a share)
SHORTFALLS = ("clockwise", "cup")
PRIMITIVES: dict[str, tuple[str, dict[str, tuple[Any, Any]]]] = {
    "cup": ("the drawer puts N coins in the cup", {}),
    "all_cup": ("every player in the game puts N in the cup, the drawer first, then clockwise", {}),
    "others_cup": ("every other player in the game puts N in the cup, clockwise from the left", {}),
    "take": ("the drawer takes N from a neighbour", {"from": (SIDES, "left")}),
    "collect": ("the drawer takes N from every other player in the game, clockwise from the left", {}),
    "give": ("the drawer gives N to a neighbour", {"to": (SIDES, "right"), "rejoin": (bool, False)}),
    "give_each": (
        "the drawer gives N to every other player, clockwise from the left",
        {"shortfall": (SHORTFALLS, "clockwise"), "rejoin": (bool, False)},
    ),
    "take_cup": (
        "the drawer takes the cup (all), half of it rounded down (half), or N coins from it (all of it if fewer)",
        {},
    ),
    "skip": ("a neighbour (left or right) skips their next turn", {}),
}
VERBS = tuple(PRIMITIVES)
CUP, ALL_CUP, OTHERS_CUP, TAKE, COLLECT, GIVE, GIVE_EACH, TAKE_CUP, SKIP = range(len(VERBS))
MAX_AMOUNT = 250_000  # below 2**18: the kernel packs a primitive in a signed 32-bit word
MAX_PRIMITIVES = 8
MAX_SYMBOLS = 64  # card codes are int8 in the kernel


def _amount_spec(verb: str) -> tuple:
    """What the verb's own value may be."""
    if verb == "take_cup":
        return CUP_SHARES
    if verb == "skip":
        return SIDES
    return (0, MAX_AMOUNT)


@dataclass(frozen=True)
class Effect(Spec):
    """A symbol's effect: a list of at most 8 primitives, each a table of one verb and its
    modifiers, e.g. ``[{take = 3, from = "left"}, {skip = "left"}]``.

    Stored as a tuple of primitives, each a tuple of ``(key, value)`` pairs: the verb first,
    then every modifier it takes (defaults filled in), so equal effects are equal values.
    """

    def check(self, field, value):
        if isinstance(value, tuple):  # the stored form, re-checked by dataclasses.replace
            value = [dict(p) for p in value]
        if not isinstance(value, list):
            raise InputError(field, f"expected {self.describe()}, got {value!r}")
        if len(value) > MAX_PRIMITIVES:
            raise InputError(field, f"at most {MAX_PRIMITIVES} primitives, got {len(value)}")
        return tuple(self._primitive(f"{field}[{i}]", p) for i, p in enumerate(value))

    def _primitive(self, field: str, p) -> tuple:
        if not isinstance(p, Mapping):
            raise InputError(field, f'expected a table such as {{take = 3, from = "left"}}, got {p!r}')
        verbs = [k for k in p if k in PRIMITIVES]
        if len(verbs) != 1:
            raise InputError(
                field, f"expected exactly one of {', '.join(VERBS)}, got {', '.join(map(str, p)) or 'none'}"
            )
        verb = verbs[0]
        modifiers = PRIMITIVES[verb][1]
        for key in p:
            if key != verb and key not in modifiers:
                allowed = ", ".join(modifiers) or "nothing else"
                raise InputError(f"{field}.{key}", f"{verb} takes {allowed}")
        if verb == "take_cup":  # all, half, or N coins from the cup
            value = p[verb]
            number = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_AMOUNT
            if value not in CUP_SHARES and not number:
                raise InputError(f"{field}.{verb}", f'expected "all", "half" or a number of coins from 1 to '
                                 f"{MAX_AMOUNT:,}, got {value!r}")  # fmt: skip
            out = [(verb, value)]
        else:
            out = [(verb, _check_value(f"{field}.{verb}", _amount_spec(verb), p[verb]))]
        for key, (allowed, default) in modifiers.items():
            out.append((key, _check_value(f"{field}.{key}", allowed, p.get(key, default))))
        return tuple(out)

    def parse(self, field, text):
        return self.check(field, parse_value(field, text))

    def describe(self):
        def one(verb):
            value = _amount_spec(verb)
            words = ["N"] if isinstance(value[0], int) else ["|".join(value) + ("|N" if verb == "take_cup" else "")]
            mods = [f"{k} = {'true|false' if a is bool else '|'.join(a)}" for k, (a, _) in PRIMITIVES[verb][1].items()]
            return "{" + ", ".join([f"{verb} = {words[0]}", *mods]) + "}"

        return "a list of up to 8 primitives: " + "; ".join(one(v) for v in VERBS)

    def plain(self, value):
        return [dict(p) for p in value]


def _check_value(field: str, allowed, value):
    if allowed is bool:
        if not isinstance(value, bool):
            raise InputError(field, f"expected true or false, got {value!r}")
        return value
    if isinstance(allowed[0], str):
        if value not in allowed:
            raise InputError(field, f"expected one of {', '.join(allowed)}, got {value!r}")
        return value
    return Int(*allowed).check(field, value)


@dataclass(frozen=True)
class Effects(Named):
    """An :class:`Effect` for each symbol (the seed's eleven, and any new ones)."""

    def item(self) -> Spec:
        return Effect()


SEED_EFFECTS = {
    "LEAVES": [{"cup": 1}],
    "POPPIES": [{"cup": 2}],
    "ORCHIDS": [{"cup": 3}],
    "FOUNTAIN": [{"all_cup": 1}],
    "SUNS": [{"take": 1, "from": "left"}],
    "STARS": [{"take": 2, "from": "left"}],
    "HEARTS": [{"take": 3, "from": "left"}, {"skip": "left"}],
    "RAIN": [{"collect": 1}],
    "CROSSES": [{"give_each": 1}],
    "RIVER": [{"give": 3, "to": "right"}],
    "SNAKE": [{"take_cup": "all"}],
}


@dataclass(frozen=True)
class FortuneRules(Rules):
    """The options of one Fortune game. Construct with keywords; every value is checked."""

    start_coins: int | tuple = option(
        20, PerSeat(1, 1_000_000), "coins each player starts with; a list gives each seat its own (a handicap)"
    )
    snakes: int = option(2, Int(0, 10_000), "SNAKE cards in the deck (the seed: 2, or 1 for a greater challenge)")
    turn_cap: int = option(10_000, Int(1, 100_000_000), "cards drawn before a game is recorded as unfinished")
    feel: bool = feel_option()
    deck: tuple = option(
        tuple((s, 5) for s in DECK_SYMBOLS),
        NamedCounts(DECK_SYMBOLS, 0, 10_000),
        "cards of each symbol besides SNAKE (an assumption: 5 each); a new NAME adds a symbol",
    )
    effects: tuple = option(
        tuple(SEED_EFFECTS.items()),
        Effects(SYMBOLS),
        "what each symbol does: a list of primitives (docs/games/fortune.md, 'Card effects')",
    )

    DECK_FIELDS = ("deck", "snakes")
    VARIANTS: ClassVar[dict[str, Variant]] = {
        "standard": Variant("the original rules, as written: 20 coins, two SNAKE cards"),
        "one-snake": Variant("one SNAKE card removed, 'for a greater challenge'", {"snakes": 1}),
        "rejoin": Variant(
            "players who are out come back when CROSSES or RIVER gives them coins",
            {"effects": {"CROSSES": [{"give_each": 1, "rejoin": True}], "RIVER": [{"give": 3, "rejoin": True}]}},
        ),
        "crosses-to-cup": Variant(
            "a CROSSES drawer who cannot give everyone a coin puts all their coins in the cup",
            {"effects": {"CROSSES": [{"give_each": 1, "shortfall": "cup"}]}},
        ),
    }

    def check(self) -> None:
        check_paired("deck", self.deck, "effects", self.effects, "symbol", implied=("SNAKE",))
        if len(self.effects) > MAX_SYMBOLS:
            raise InputError("effects", f"at most {MAX_SYMBOLS} symbols, got {len(self.effects)}")
        if self.deck_size() < 1:
            raise InputError(
                "deck",
                "the deck has no cards; give at least one symbol (or snakes) a count above 0",
            )

    def symbols(self) -> tuple[str, ...]:
        """Every symbol's name, by card code: the seed's eleven, then any new ones."""
        return tuple(name for name, _ in self.effects)

    def counts(self) -> list[int]:
        """Cards of each symbol, by card code."""
        deck = dict(self.deck)
        return [self.snakes if s == "SNAKE" else deck[s] for s in self.symbols()]

    def deck_size(self) -> int:
        """Number of cards in the deck, SNAKE cards included."""
        return sum(n for _, n in self.deck) + self.snakes

    def deck_cards(self) -> np.ndarray:
        """The deck in canonical order (symbol by symbol) as card codes, before any shuffle."""
        return np.repeat(np.arange(len(self.effects), dtype=np.int8), self.counts())

    def effect(self, card: int) -> list[dict]:
        """The primitives of symbol ``card`` as plain dicts, verb first."""
        return [dict(p) for p in self.effects[card][1]]

    def op_table(self) -> np.ndarray:
        """The effects as the kernel's ``ops[card, k] = (verb, amount, side or share, rejoin)``.

        ``ops[card, MAX_PRIMITIVES]`` holds the number of primitives of each card and which
        neighbours in the game they name (bit 0: left, bit 1: right), found once per card.
        """
        ops = np.zeros((len(self.effects), MAX_PRIMITIVES + 1, 4), np.int64)
        for card, (_, effect) in enumerate(self.effects):
            ops[card, MAX_PRIMITIVES, 0] = len(effect)
            for k, p in enumerate(effect):
                verb, value = p[0]
                mods = dict(p[1:])
                if verb == "take_cup" and not isinstance(value, str):
                    amount, side = value, 0  # N coins from the cup
                elif verb in ("take_cup", "skip"):
                    amount, side = 0, (CUP_SHARES if verb == "take_cup" else SIDES).index(value)
                else:
                    amount = value
                    side = SIDES.index(mods.get("from", mods.get("to", "left")))
                    side = SHORTFALLS.index(mods["shortfall"]) if verb == "give_each" else side
                rejoin = mods.get("rejoin", False)
                ops[card, k] = (VERBS.index(verb), amount, side, rejoin)
                if verb in ("take", "skip") or (verb == "give" and not rejoin):
                    ops[card, MAX_PRIMITIVES, 1] |= 1 << side
        return ops
