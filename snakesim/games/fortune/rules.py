"""Fortune's rules and variants (seed 004, first part; docs/games/fortune.md).

The deck counts are an assumption of ours (the seed only says "two SNAKE cards"): five of each
of the ten other symbols. They are data here, changeable per symbol (``--set deck.RAIN=3``)
or from a TOML rules file with a ``[deck]`` table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

import numpy as np

from snakesim.core.errors import InputError
from snakesim.core.rules import Bool, Choice, Counts, Int, Rules, Variant, option


class Card(IntEnum):
    """The eleven symbols; the integer is the card's code in the kernel's arrays."""

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


# The symbols whose count is a deck entry; SNAKE's count is the seed's own `snakes` option.
DECK_SYMBOLS = tuple(c.name for c in Card if c is not Card.SNAKE)

OUTCOMES = ("win", "draw", "unfinished")
WIN, DRAW, UNFINISHED = range(3)


@dataclass(frozen=True)
class FortuneRules(Rules):
    """The options of one Fortune game. Construct with keywords; every value is checked."""

    start_coins: int = option(20, Int(1, 1_000_000), "coins each player starts with")
    snakes: int = option(2, Int(0, 10_000), "SNAKE cards in the deck (the seed: 2, or 1 for a greater challenge)")
    rejoin: bool = option(
        False,
        Bool(),
        "CROSSES and RIVER give to players who are out too, bringing them back in",
    )
    crosses_shortfall: str = option(
        "clockwise",
        Choice(("clockwise", "cup")),
        "a CROSSES drawer short of coins: give clockwise until they run out, or put them all in the cup",
    )
    turn_cap: int = option(10_000, Int(1, 100_000_000), "cards drawn before a game is recorded as unfinished")
    deck: tuple = option(
        tuple((s, 5) for s in DECK_SYMBOLS),
        Counts(DECK_SYMBOLS, 0, 10_000),
        "cards of each symbol besides SNAKE (an assumption: 5 each)",
    )

    DECK_FIELDS = ("deck", "snakes")
    VARIANTS: ClassVar[dict[str, Variant]] = {
        "standard": Variant("the seed's original game: 20 coins, two SNAKE cards"),
        "one-snake": Variant("one SNAKE card removed, 'for a greater challenge'", {"snakes": 1}),
        "rejoin": Variant("players who are out come back when CROSSES or RIVER gives them coins", {"rejoin": True}),
        "crosses-to-cup": Variant(
            "a CROSSES drawer who cannot give everyone a coin puts all their coins in the cup",
            {"crosses_shortfall": "cup"},
        ),
    }

    def check(self) -> None:
        if self.deck_size() < 1:
            raise InputError(
                "deck",
                "the deck has no cards; give at least one symbol (or snakes) a count above 0",
            )

    def deck_size(self) -> int:
        """Number of cards in the deck, SNAKE cards included."""
        return sum(n for _, n in self.deck) + self.snakes

    def deck_cards(self) -> np.ndarray:
        """The deck in canonical order (symbol by symbol) as card codes, before any shuffle."""
        counts = [dict(self.deck).get(c.name, 0) for c in Card]
        counts[Card.SNAKE] = self.snakes
        return np.repeat(np.arange(len(Card), dtype=np.int8), counts)
