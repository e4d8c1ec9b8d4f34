"""Sssnake's rules and variants (seed 001; docs/games/sssnake.md).

Nothing public describes the cards' geometry, so the whole model is options: the size of the
large snake card, the cells and sides where the head and the tail leave it, the count of each
part card (deck data) and the die's faces.

Geometry. Each seat's snake lives on its own unbounded square grid. Directions are numbered
N, E, S, W = 0, 1, 2, 3; x grows eastward and y southward. The large card covers the cells
``0 <= x < block_width, 0 <= y < block_height``. An open end is ``(x, y, d)``: it points into
cell ``(x, y)``, moving in direction ``d``, so it enters that cell through edge ``(d + 2) % 4``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from snakesim.core.errors import InputError
from snakesim.core.feel import feel_option
from snakesim.core.rules import (
    Choice,
    Counts,
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

N, E, S, W = range(4)
SIDES = ("north", "east", "south", "west")  # the option words for N, E, S, W
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)

CARD_KEYS = ("STRAIGHT", "CURVE", "CROSS", "DOUBLE")
STRAIGHT, CURVE, CROSS, DOUBLE = range(4)
DICE_LANE = 1  # the die rolls from its own stream (snakesim.core.rng.seed_lane), apart from decisions
DIE_KEYS = ("1", "2", "3")  # the seed die's marks: how many faces show each is `die`
MAX_DRAW = 10
PLACERS = ("giver", "receiver")
TARGETS = ("left", "right")
SEED_FACES = {
    "1": {"draw": 1, "give": 1, "to": "left", "placer": "giver"},  # the card goes onto the neighbour's snake
    "2": {"draw": 2, "give": 1, "to": "left", "placer": "receiver"},  # keep all but one, which the neighbour places
    "3": {"draw": 3, "give": 1, "to": "left", "placer": "receiver"},
}

MAX_CARDS = 400
MAX_BLOCK = 6
OUTCOMES = ("joined", "stock win", "stock draw")
JOINED, STOCK_WIN, STOCK_DRAW = range(3)
POLICIES = ("random", "greedy", "friendly", "expert", "oracle")
RANDOM, GREEDY, FRIENDLY, EXPERT, ORACLE = range(5)  # oracle: the expert shown the stock (a yardstick)
MAX_DECISIONS = 4 * MAX_DRAW + 4  # decisions in one turn: gifts and placements, with a margin


def exits(card: int, d: int) -> list[int]:
    """The directions a card can send an end moving in direction ``d``, in increasing order.

    A straight or a cross carries it straight on; a curve or a double curve turns it left or
    right (the rotations that connect the edge it enters by).
    """
    if card in (STRAIGHT, CROSS):
        return [d]
    return sorted([(d + 1) % 4, (d + 3) % 4])


def free_path(card: int, d: int, f: int) -> tuple[int, int] | None:
    """The edges of the path a card leaves free when the snake enters moving ``d`` and leaves by ``f``.

    A cross leaves its other straight free; a double curve its other curve, which joins the
    two edges the snake does not use. Straights and curves leave nothing.
    """
    if card == CROSS:
        return tuple(sorted(((d + 1) % 4, (d + 3) % 4)))
    if card == DOUBLE:
        return tuple(sorted((d, (f + 2) % 4)))
    return None


@dataclass(frozen=True)
class FaceAction(Spec):
    """What a mark of the die does: ``{draw = 2, give = 1, to = "left", placer = "receiver"}``.

    The roller draws ``draw`` cards. With ``placer = "giver"`` every drawn card goes onto the
    ``to`` neighbour's snake, placed by the roller (so ``give`` must equal ``draw``). With
    ``placer = "receiver"`` the roller keeps at least one: it chooses ``give`` cards (fewer
    than ``draw``) for the neighbour, who places them; the rest go on the roller's own snake.
    """

    KEYS = ("draw", "give", "to", "placer")

    def check(self, field, value):
        if isinstance(value, tuple):
            value = dict(value)
        if not isinstance(value, Mapping):
            raise InputError(field, f"expected {self.describe()}, got {value!r}")
        for key in value:
            if key not in self.KEYS:
                raise InputError(f"{field}.{key}", f"unknown key; expected {', '.join(self.KEYS)}")
        draw = Int(1, MAX_DRAW).check(f"{field}.draw", value.get("draw", 1))
        give = Int(0, MAX_DRAW).check(f"{field}.give", value.get("give", 0))
        to = Choice(TARGETS).check(f"{field}.to", value.get("to", "left"))
        placer = Choice(PLACERS).check(f"{field}.placer", value.get("placer", "receiver"))
        if placer == "giver" and give != draw:
            raise InputError(f"{field}.give", f'placer = "giver" places every drawn card: give must be {draw}')
        if placer == "receiver" and give >= draw:
            raise InputError(f"{field}.give", f"the roller keeps at least one card: give must be below {draw}")
        return (("draw", draw), ("give", give), ("to", to), ("placer", placer))

    def parse(self, field, text):
        return self.check(field, parse_value(field, text))

    def describe(self):
        return 'a table {draw = N, give = G, to = "left" or "right", placer = "giver" or "receiver"}'

    def plain(self, value):
        return dict(value)


@dataclass(frozen=True)
class FaceActions(Named):
    """A :class:`FaceAction` for each mark of the die."""

    def item(self) -> Spec:
        return FaceAction()


@dataclass(frozen=True)
class SssnakeRules(Rules):
    """The options of one Sssnake game. Construct with keywords; every value is checked."""

    block_width: int = option(2, Int(1, MAX_BLOCK), "width of the large snake card, in part-card cells")
    block_height: int = option(2, Int(1, MAX_BLOCK), "height of the large snake card, in part-card cells")
    head_x: int = option(0, Int(0, MAX_BLOCK - 1), "column of the card cell the head leaves from (0 = west)")
    head_y: int = option(0, Int(0, MAX_BLOCK - 1), "row of the card cell the head leaves from (0 = north)")
    head_side: str = option("west", Choice(SIDES), "side of that cell the head leaves by")
    tail_x: int = option(1, Int(0, MAX_BLOCK - 1), "column of the card cell the tail leaves from")
    tail_y: int = option(1, Int(0, MAX_BLOCK - 1), "row of the card cell the tail leaves from")
    tail_side: str = option("east", Choice(SIDES), "side of that cell the tail leaves by")
    deck: tuple = option(
        (("STRAIGHT", 60), ("CURVE", 48), ("CROSS", 8), ("DOUBLE", 4)),
        Counts(CARD_KEYS, 0, MAX_CARDS),
        "part cards of each kind (a cross and a double curve leave a second path free)",
    )
    die: tuple = option(
        (("1", 2), ("2", 2), ("3", 2)),
        NamedCounts(DIE_KEYS, 0, 60),
        "faces of the die showing each mark (1, 2, 3, or a new mark with its action in `faces`)",
    )
    faces: tuple = option(
        tuple(SEED_FACES.items()),
        FaceActions(DIE_KEYS),
        "what each mark does: cards drawn, how many given, to which neighbour, and who places them",
    )

    head_start: int | tuple = option(
        0,
        PerSeat(0, MAX_DRAW),
        "cards each seat draws and places on its own snake before the first roll; a list gives each seat its own",
    )
    feel: bool = feel_option()

    DECK_FIELDS = ("deck",)
    VARIANTS: ClassVar[dict[str, Variant]] = {
        "standard": Variant("the default reading: die 1, 1, 2, 2, 3, 3; 120 part cards"),
        "fewer-ones": Variant("die 1, 2, 2, 3, 3, 3: one face of 1 becomes a 3", {"die": {"1": 1, "2": 2, "3": 3}}),
        "no-ones": Variant(
            "die 2, 2, 2, 3, 3, 3: no 1, so no card is forced onto a neighbour", {"die": {"1": 0, "2": 3, "3": 3}}
        ),
    }

    def check(self) -> None:
        for end in ("head", "tail"):
            x, y, side = getattr(self, f"{end}_x"), getattr(self, f"{end}_y"), getattr(self, f"{end}_side")
            if x >= self.block_width:
                raise InputError(f"{end}_x", f"expected a column from 0 to {self.block_width - 1} (block_width)")
            if y >= self.block_height:
                raise InputError(f"{end}_y", f"expected a row from 0 to {self.block_height - 1} (block_height)")
            d = SIDES.index(side)
            nx, ny = x + DX[d], y + DY[d]
            if 0 <= nx < self.block_width and 0 <= ny < self.block_height:
                raise InputError(f"{end}_side", f"the {end} must leave the card by an outer side, not {side}")
        if (self.head_x, self.head_y, self.head_side) == (self.tail_x, self.tail_y, self.tail_side):
            raise InputError("tail_side", "the head and the tail cannot leave by the same side of the same cell")
        if self.deck_size() < 1:
            raise InputError("deck", "the deck needs at least one part card")
        if self.deck_size() > MAX_CARDS:
            raise InputError("deck", f"at most {MAX_CARDS} part cards, got {self.deck_size()}")
        if sum(n for _, n in self.die) < 1:
            raise InputError("die", "the die needs at least one face")
        check_paired("die", self.die, "faces", self.faces, "mark")

    def deck_size(self) -> int:
        return sum(n for _, n in self.deck)

    def deck_cards(self) -> np.ndarray:
        """The stock in canonical order (kind by kind) as card codes."""
        return np.repeat(np.arange(len(CARD_KEYS), dtype=np.int8), [n for _, n in self.deck])

    def die_faces(self) -> np.ndarray:
        """The die's faces as mark codes (positions in ``faces``), e.g. ``[0, 0, 1, 1, 2, 2]``."""
        counts = dict(self.die)
        return np.repeat(np.arange(len(self.faces), dtype=np.int64), [counts[m] for m, _ in self.faces])

    def face_actions(self) -> np.ndarray:
        """``actions[mark] = (draw, give, to the right, placed by the giver)`` for the kernel."""
        return np.array(
            [(a["draw"], a["give"], a["to"] == "right", a["placer"] == "giver") for _, a in self.action_list()],
            np.int64,
        )

    def action_list(self) -> list[tuple[str, dict]]:
        """Each mark and its action as a plain dict, by mark code."""
        return [(mark, dict(action)) for mark, action in self.faces]

    def head_end(self) -> tuple[int, int, int]:
        """The head's open end at the start: ``(x, y, d)`` of the cell it points into."""
        d = SIDES.index(self.head_side)
        return self.head_x + DX[d], self.head_y + DY[d], d

    def tail_end(self) -> tuple[int, int, int]:
        d = SIDES.index(self.tail_side)
        return self.tail_x + DX[d], self.tail_y + DY[d], d
