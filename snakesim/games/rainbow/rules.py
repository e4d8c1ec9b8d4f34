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
from snakesim.core.rules import Bool, Counts, Int, Labels, Rules, Variant, option
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
POLICIES = ("random", "greedy")
RANDOM, GREEDY = range(2)


@dataclass(frozen=True)
class RainbowRules(Rules):
    """The options of one Rainbow game. Construct with keywords; every value is checked."""

    hand_size: int = option(7, Int(1, 100), "cards dealt to each player")
    wild_snake: bool = option(
        False, Bool(), "a SNAKE may be played on any card; the card on a SNAKE must be LEAVES or BLUE"
    )
    poppies_orchids: bool = option(False, Bool(), "POPPIES and ORCHIDS may also be played on each other")
    turn_cap: int = option(10_000, Int(1, 100_000_000), "turns before a game is recorded as unfinished")
    deck: tuple = option(
        tuple(DEFAULT_COUNTS.items()),
        Counts(SYMBOLS, 0, 10_000),
        "cards of each symbol (an assumption: 5 each, 2 SNAKE)",
    )
    colours: tuple = option(
        tuple(DEFAULT_COLOURS.items()),
        Labels(SYMBOLS, COLOURS),
        "the colour of each symbol (an assumption; see docs/games/rainbow.md)",
    )

    DECK_FIELDS = ("deck", "colours")
    VARIANTS: ClassVar[dict[str, Variant]] = {
        "standard": Variant("the seed's game: same colour and another symbol, or the next colour"),
        "wild-snake": Variant(
            "house rule: the SNAKE is wild; LEAVES or a BLUE card must follow it", {"wild_snake": True}
        ),
        "poppies-orchids": Variant("house rule: POPPIES and ORCHIDS are compatible", {"poppies_orchids": True}),
        "both": Variant("both house rules", {"wild_snake": True, "poppies_orchids": True}),
    }

    def check(self) -> None:
        if self.deck_size() < 2:
            raise InputError("deck", "the deck needs at least 2 cards")

    def deck_size(self) -> int:
        return sum(n for _, n in self.deck)

    def deck_cards(self) -> np.ndarray:
        """The deck in canonical order (symbol by symbol) as card codes."""
        return np.repeat(np.arange(len(SYMBOLS), dtype=np.int8), [n for _, n in self.deck])

    def colour_of(self, card: int) -> int:
        """The position of ``card``'s colour in the cycle."""
        return COLOURS.index(self.colours[card][1])

    def can_play(self, card: int, top: int) -> bool:
        """May ``card`` be played on ``top``? (docs/games/rainbow.md)"""
        if self.wild_snake and top == Card.SNAKE:
            # Once the snake is played, the next player must play LEAVES or a BLUE card.
            return card == Card.LEAVES or COLOURS[self.colour_of(card)] == "BLUE"
        if self.wild_snake and card == Card.SNAKE:
            return True  # the wild snake goes on any card
        if self.poppies_orchids and {card, top} == {Card.POPPIES, Card.ORCHIDS}:
            return True
        same_colour = self.colour_of(card) == self.colour_of(top)
        next_colour = self.colour_of(card) == (self.colour_of(top) + 1) % len(COLOURS)
        return (same_colour and card != top) or next_colour

    def legal_table(self) -> np.ndarray:
        """``table[top, card]``: whether ``card`` may be played on ``top`` (for the kernel)."""
        n = len(SYMBOLS)
        return np.array([[self.can_play(c, t) for c in range(n)] for t in range(n)], dtype=np.bool_)


def check_setup(rules: RainbowRules, players: int) -> None:
    """Raise InputError unless the deck holds ``hand_size`` cards for each of ``players``."""
    if rules.hand_size * players > rules.deck_size():
        raise InputError(
            "hand_size",
            f"dealing {rules.hand_size} cards to {players} players needs {rules.hand_size * players} cards; "
            f"the deck has {rules.deck_size()}",
        )
