"""Rainbow's rules and variants (seed 004, second part; docs/games/rainbow.md).

Rainbow is a shedding game on Fortune's deck. The colour of each symbol is an assumption of
ours, so the colours and the counts are deck data (``--deck my_deck.toml``, or
``--set colours.SUNS=RED``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from snakesim.core.errors import InputError
from snakesim.core.feel import feel_option
from snakesim.core.rules import (
    NAME,
    Choice,
    Counts,
    Int,
    Named,
    PerSeat,
    Rules,
    Spec,
    Table,
    Variant,
    Words,
    option,
    parse_value,
    seat_text,
    seat_values,
)
from snakesim.games.fortune.rules import Card

SYMBOLS = tuple(c.name for c in Card)
COLOURS = ("RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "VIOLET")  # the cycle, in order
DEFAULT_COLOURS = {
    "LEAVES": "GREEN",
    "POPPIES": "RED",
    "ORCHIDS": "VIOLET",
    "FOUNTAIN": "BLUE",
    "SUNS": "ORANGE",
    "STARS": "YELLOW",
    "HEARTS": "RED",
    "RAIN": "BLUE",
    "CROSSES": "VIOLET",
    "RIVER": "BLUE",
    "SNAKE": "GREEN",
}
DEFAULT_COUNTS = {s: (2 if s == "SNAKE" else 5) for s in SYMBOLS}

OUTCOMES = ("win", "blocked win", "blocked draw", "unfinished")
WIN, BLOCKED_WIN, BLOCKED_DRAW, UNFINISHED = range(4)
POLICIES = ("random", "greedy", "expert", "oracle")
RANDOM, GREEDY, EXPERT, ORACLE = range(4)  # oracle: the expert shown every hidden card (a yardstick)


ANY = "ANY"  # in a wild card's follow list: any card may follow it
DIRECTIONS = ("forward", "backward", "both")
SAME_COLOUR = ("other-symbol", "any", "never")
DRAW_PLAY = ("may", "must", "never")
MAY, MUST, NEVER = range(3)


@dataclass(frozen=True)
class Pairs(Spec):
    """A list of two-name lists: ``[["POPPIES", "ORCHIDS"]]``."""

    def check(self, field, value):
        if isinstance(value, tuple):
            value = list(value)
        if not isinstance(value, list):
            raise InputError(field, f"expected {self.describe()}, got {value!r}")
        return tuple(Words(2, 2).check(f"{field}[{i}]", pair) for i, pair in enumerate(value))

    def parse(self, field, text):
        return self.check(field, parse_value(field, text))

    def describe(self):
        return 'a list of symbol pairs, e.g. [["POPPIES", "ORCHIDS"]]'

    def plain(self, value):
        return [list(p) for p in value]


@dataclass(frozen=True)
class FollowLists(Named):
    """For each wild symbol, what may follow it (symbols, colours, or ANY; [] the ordinary rule)."""

    def item(self) -> Spec:
        return Words(0, 64)


@dataclass(frozen=True)
class ColourNames(Table):
    """A colour name for each symbol (the names are the cycle's: checked against it)."""

    def item(self) -> Spec:
        return Word()


@dataclass(frozen=True)
class Word(Spec):
    """One name of capital letters."""

    def check(self, field, value):
        if not isinstance(value, str) or not NAME.match(value):
            raise InputError(field, f"expected a name of capital letters (e.g. RED), got {value!r}")
        return value

    def parse(self, field, text):
        return self.check(field, text.strip())

    def describe(self):
        return "a colour of the cycle"


@dataclass(frozen=True)
class RainbowRules(Rules):
    """The options of one Rainbow game. Construct with keywords; every value is checked.

    The follow relation (which card may go on which) is data: the colour ``cycle`` and its
    ``direction``, the ``same_colour`` rule, extra ``pairs`` and ``wild`` symbols with what
    must follow them. :meth:`can_play` reads them; both engines use it.
    """

    hand_size: int | tuple = option(
        7, PerSeat(1, 100), "cards dealt to each player; a list gives each seat its own (a handicap)"
    )
    cycle: tuple = option(COLOURS, Words(2, 32), "the colour cycle, in order (a card may go on the colour before it)")
    direction: str = option(
        "forward", Choice(DIRECTIONS), "which way the cycle runs: the next colour, the previous one, or both"
    )
    same_colour: str = option(
        "other-symbol",
        Choice(SAME_COLOUR),
        "a card of the same colour may follow if it is another symbol, any symbol, or never",
    )
    pairs: tuple = option((), Pairs(), "extra pairs of symbols that may follow each other, both ways")
    wild: tuple = option(
        (),
        FollowLists(()),
        "wild symbols: go on any card; the list says what may follow one (symbols, colours, ANY; [] the ordinary rule)",
    )
    draw_play: str = option(
        "may", Choice(DRAW_PLAY), "a player who draws a playable card may play it (policy decides), must, or never"
    )
    turn_cap: int = option(10_000, Int(1, 100_000_000), "turns before a game is recorded as unfinished")
    feel: bool = feel_option()
    deck: tuple = option(
        tuple(DEFAULT_COUNTS.items()),
        Counts(SYMBOLS, 0, 10_000),
        "cards of each symbol (an assumption: 5 each, 2 SNAKE)",
    )
    colours: tuple = option(
        tuple(DEFAULT_COLOURS.items()),
        ColourNames(SYMBOLS),
        "the colour of each symbol, one of the cycle's (an assumption; see docs/games/rainbow.md)",
    )

    DECK_FIELDS = ("deck", "colours")
    VARIANTS: ClassVar[dict[str, Variant]] = {
        "standard": Variant("the original rules, as written: same colour and another symbol, or the next colour"),
        "wild-snake": Variant(
            "house rule: the SNAKE is wild; LEAVES or a BLUE card must follow it",
            {"wild": {"SNAKE": ["LEAVES", "BLUE"]}},
        ),
        "poppies-orchids": Variant(
            "house rule: POPPIES and ORCHIDS are compatible", {"pairs": [["POPPIES", "ORCHIDS"]]}
        ),
        "both": Variant("both house rules", {"wild": {"SNAKE": ["LEAVES", "BLUE"]}, "pairs": [["POPPIES", "ORCHIDS"]]}),
    }

    def check(self) -> None:
        if self.deck_size() < 2:
            raise InputError("deck", "the deck needs at least 2 cards")
        for symbol, colour in self.colours:
            if colour not in self.cycle:
                raise InputError(f"colours.{symbol}", f"expected one of the cycle's colours: {', '.join(self.cycle)}")
        for i, pair in enumerate(self.pairs):
            for name in pair:
                if name not in SYMBOLS:
                    raise InputError(f"pairs[{i}]", f"unknown symbol {name!r}; expected {', '.join(SYMBOLS)}")
        for symbol, follow in self.wild:
            if symbol not in SYMBOLS:
                raise InputError(f"wild.{symbol}", f"unknown symbol; expected one of {', '.join(SYMBOLS)}")
            for name in follow:
                if name not in SYMBOLS and name not in self.cycle and name != ANY:
                    raise InputError(f"wild.{symbol}", f"{name!r} is not a symbol, a colour of the cycle, or ANY")

    def deck_size(self) -> int:
        return sum(n for _, n in self.deck)

    def deck_cards(self) -> np.ndarray:
        """The deck in canonical order (symbol by symbol) as card codes."""
        return np.repeat(np.arange(len(SYMBOLS), dtype=np.int8), [n for _, n in self.deck])

    def colour_of(self, card: int) -> int:
        """The position of ``card``'s colour in the cycle."""
        return self.cycle.index(self.colours[card][1])

    def wild_symbols(self) -> list[int]:
        """The codes of the wild symbols."""
        return [SYMBOLS.index(s) for s, _ in self.wild]

    def can_play(self, card: int, top: int) -> bool:
        """May ``card`` be played on ``top``? (docs/games/rainbow.md, 'Which card may follow')"""
        follow = dict(self.wild).get(SYMBOLS[top])
        if follow:  # what must follow a wild card
            return ANY in follow or SYMBOLS[card] in follow or self.colours[card][1] in follow
        if SYMBOLS[card] in dict(self.wild):
            return True  # a wild card goes on any card
        if any({SYMBOLS[card], SYMBOLS[top]} == set(p) for p in self.pairs):
            return True
        c, t, m = self.colour_of(card), self.colour_of(top), len(self.cycle)
        if c == t:
            return self.same_colour == "any" or (self.same_colour == "other-symbol" and card != top)
        forward, backward = c == (t + 1) % m, c == (t - 1) % m
        return (
            forward
            if self.direction == "forward"
            else backward
            if self.direction == "backward"
            else forward or backward
        )

    def legal_table(self) -> np.ndarray:
        """``table[top, card]``: whether ``card`` may be played on ``top`` (for the kernel)."""
        n = len(SYMBOLS)
        return np.array([[self.can_play(c, t) for c in range(n)] for t in range(n)], dtype=np.bool_)


def check_setup(rules: RainbowRules, players: int) -> None:
    """Raise InputError unless the deck holds ``hand_size`` cards for each of ``players``."""
    need = sum(seat_values(rules.hand_size, players))
    if need > rules.deck_size():
        raise InputError(
            "hand_size",
            f"dealing {seat_text(rules.hand_size)} cards to {players} players needs {need} cards; "
            f"the deck has {rules.deck_size()}",
        )
