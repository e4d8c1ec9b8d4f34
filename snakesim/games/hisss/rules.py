"""Hisss's rules and variants (seeds 000, 002, 003; docs/games/hisss.md).

The deck is data: a head and a tail count per colour (and for the rainbow joker), and a
middle-section count per pair of colours. The default is the published 50 cards; the two
pairs that close the ring (BLUE-PURPLE and RED-PURPLE) are an assumption of ours.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import ClassVar

import numpy as np

from snakesim.core.errors import InputError
from snakesim.core.feel import feel_option
from snakesim.core.rules import Bool, Choice, Counts, Int, PerSeat, Rules, Variant, Words, option, seat_values

COLOURS = ("RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "PURPLE")  # the ring, in order
SHORT = "ROYGBP"
N_COLOURS = len(COLOURS)
END_KEYS = (*COLOURS, "RAINBOW")  # heads and tails: one per colour, and the joker
# Middle sections are named by their two colours in ring order: RED-ORANGE, ..., RED-PURPLE.
PAIRS = tuple((a, b) for a, b in combinations_with_replacement(range(N_COLOURS), 2))
PAIR_KEYS = tuple(f"{COLOURS[a]}-{COLOURS[b]}" for a, b in PAIRS)
RING_PAIRS = {f"{COLOURS[min(i, (i + 1) % 6)]}-{COLOURS[max(i, (i + 1) % 6)]}" for i in range(N_COLOURS)}

# End codes: an open end shows a colour 0..5, or any colour (WILD: a lone rainbow piece).
WILD, HEAD, TAIL = N_COLOURS, N_COLOURS + 1, N_COLOURS + 2

# Card types: heads 0..6 (6 = rainbow), tails 7..13 (13 = rainbow), then one per middle pair.
N_END_TYPES = len(END_KEYS)
FIRST_MIDDLE = 2 * N_END_TYPES
N_TYPES = FIRST_MIDDLE + len(PAIRS)
KIND_HEAD, KIND_TAIL, KIND_MIDDLE = range(3)
EXTEND, CAP, JOIN = range(3)  # kinds of placement (see reference.py)

WILD_CAPS = ("none", "heads", "tails", "both")
TIE_BREAKS = ("longest", "snakes", "cards", "none")
MAX_CARDS = 200
OUTCOMES = ("win", "draw")
WIN, DRAW = range(2)
POLICIES = ("random", "greedy", "expert", "oracle")
RANDOM, GREEDY, EXPERT, ORACLE = range(4)  # oracle: the expert shown every hidden card (a yardstick)


def card_kind(t: int) -> int:
    """KIND_HEAD, KIND_TAIL or KIND_MIDDLE for card type ``t``."""
    return KIND_HEAD if t < N_END_TYPES else KIND_TAIL if t < FIRST_MIDDLE else KIND_MIDDLE


def card_colours(t: int) -> tuple[int, int]:
    """The colours a card type shows: a middle's two; a head's or tail's one, twice (WILD for rainbow)."""
    if t >= FIRST_MIDDLE:
        return PAIRS[t - FIRST_MIDDLE]
    c = t % N_END_TYPES
    return (WILD, WILD) if c == N_COLOURS else (c, c)


def card_name(t: int) -> str:
    """A short name: ``H:R`` a red head, ``T:*`` the rainbow tail, ``R-O`` a middle section."""
    a, b = card_colours(t)
    if t >= FIRST_MIDDLE:
        return f"{SHORT[a]}-{SHORT[b]}"
    return f"{'H' if t < N_END_TYPES else 'T'}:{'*' if a == WILD else SHORT[a]}"


@dataclass(frozen=True)
class HisssRules(Rules):
    """The options of one Hisss game. Construct with keywords; every value is checked."""

    heads: tuple = option(tuple((k, 1) for k in END_KEYS), Counts(END_KEYS, 0, 100), "head cards of each colour")
    tails: tuple = option(tuple((k, 1) for k in END_KEYS), Counts(END_KEYS, 0, 100), "tail cards of each colour")
    middles: tuple = option(
        tuple((k, 6 if k in RING_PAIRS else 0) for k in PAIR_KEYS),
        Counts(PAIR_KEYS, 0, 100),
        "middle sections of each pair of colours (6 of each ring neighbour; BLUE-PURPLE and RED-PURPLE assumed)",
    )
    ring_reach: int = option(
        0, Int(0, 3), "a card side fits an open end this many steps away around the colour ring (0: same colour only)"
    )
    wild_colours: tuple = option((), Words(0, N_COLOURS), "colours that match every colour, on cards and on open ends")
    wild_caps: str = option(
        "none", Choice(WILD_CAPS), "heads, tails or both fit any open end, like the rainbow pieces (none: by colour)"
    )
    claim_joined: bool = option(
        False, Bool(), "joining two snakes claims the joined snake even when it is incomplete (seeds 000/003 literally)"
    )
    points_per_card: int = option(1, Int(0, 1000), "points for each card of each snake taken")
    points_per_snake: int = option(0, Int(0, 1000), "points for each snake taken")
    points_per_longest: int = option(0, Int(0, 1000), "points for each card of a player's longest snake taken")
    start_points: int | tuple = option(
        0, PerSeat(0, 1000), "points each seat starts with, as if already taken; a list gives each seat its own"
    )
    tie_break: str = option(
        "longest",
        Choice(TIE_BREAKS),
        "who wins a tie on points: longest snake taken, most snakes, most cards, or none",
    )
    feel: bool = feel_option()

    DECK_FIELDS = ("heads", "tails", "middles")
    VARIANTS: ClassVar[dict[str, Variant]] = {
        "standard": Variant("the published game: take the snakes you complete; most cards wins"),
        "claim-joined": Variant("a join claims the combined snake even if incomplete", {"claim_joined": True}),
        "most-snakes": Variant(
            "most snakes taken wins (ties: longest snake)", {"points_per_card": 0, "points_per_snake": 1}
        ),
    }

    def check(self) -> None:
        for colour in self.wild_colours:
            if colour not in COLOURS:
                raise InputError("wild_colours", f"unknown colour {colour!r}; expected some of {', '.join(COLOURS)}")
        if sum(n for _, n in self.heads) < 1:
            raise InputError("heads", "the deck needs at least one head")
        if sum(n for _, n in self.tails) < 1:
            raise InputError("tails", "the deck needs at least one tail")
        if self.deck_size() > MAX_CARDS:
            # The kernel lists every placement of a card: joins grow with the square of the deck.
            raise InputError(
                "deck", f"at most {MAX_CARDS} cards in all (heads, tails and middles), got {self.deck_size()}"
            )

    def type_counts(self) -> list[int]:
        """Cards of each type, by type code."""
        return [n for _, n in self.heads] + [n for _, n in self.tails] + [n for _, n in self.middles]

    def deck_size(self) -> int:
        return sum(self.type_counts())

    def deck_cards(self) -> np.ndarray:
        """The deck in canonical order (type by type) as card-type codes."""
        return np.repeat(np.arange(N_TYPES, dtype=np.int8), self.type_counts())

    def colours_of(self, t: int) -> tuple[int, int]:
        """The colours card type ``t`` shows under these rules: :func:`card_colours`, with the
        heads or tails that ``wild_caps`` names shown as any colour (WILD)."""
        kind = card_kind(t)
        if (kind == KIND_HEAD and self.wild_caps in ("heads", "both")) or (
            kind == KIND_TAIL and self.wild_caps in ("tails", "both")
        ):
            return WILD, WILD
        return card_colours(t)

    def fit_table(self) -> np.ndarray:
        """``fit[end, colour]``: does an open ``end`` (a colour, WILD, or HEAD/TAIL: never)
        take a card side of ``colour`` (a colour or WILD)?"""
        fit = np.zeros((TAIL + 1, WILD + 1), np.bool_)
        wild = [COLOURS.index(c) for c in self.wild_colours]
        for end in range(WILD + 1):
            for colour in range(WILD + 1):
                if end == WILD or colour == WILD or end in wild or colour in wild:
                    fit[end, colour] = True
                else:
                    steps = (colour - end) % N_COLOURS
                    fit[end, colour] = min(steps, N_COLOURS - steps) <= self.ring_reach
        return fit

    def points(self, cards: int, snakes: int, longest: int, start: int = 0) -> int:
        """A seat's score from what it took and the points it started with."""
        return start + cards * self.points_per_card + snakes * self.points_per_snake + longest * self.points_per_longest

    def rank(self, cards: int, snakes: int, longest: int, start: int = 0) -> tuple[int, int]:
        """What decides the winner: points, then the tie-break (0 for ``none``)."""
        second = {"longest": longest, "snakes": snakes, "cards": cards, "none": 0}[self.tie_break]
        return self.points(cards, snakes, longest, start), second

    def starts(self, players: int) -> list[int]:
        """Each seat's starting points (``start_points``)."""
        return seat_values(self.start_points, players)


def score_of(options: dict, table, players: int):
    """What a rule set scores, per seat and game (``GameSpec.score_of``): its points, named by
    what they count when that is one thing ("cards", "snakes"), else "points"."""
    rules = HisssRules().updated(options)
    columns = {k: table[[f"{k}_{s}" for s in range(players)]].to_numpy() for k in ("cards", "snakes", "longest")}
    starts = np.array(rules.starts(players))[None, :]
    values = rules.points(columns["cards"], columns["snakes"], columns["longest"], starts)
    weights = (rules.points_per_card, rules.points_per_snake, rules.points_per_longest)
    label = {(1, 0, 0): "cards", (0, 1, 0): "snakes"}.get(weights, "points") if not starts.any() else "points"
    return label, values
