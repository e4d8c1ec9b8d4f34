"""Hand-made Sssnake boards for the tests, and the same boards as the kernel's arrays."""

import numpy as np

from snakesim.games.sssnake import kernel
from snakesim.games.sssnake.reference import BLOCK, HEAD, Board
from snakesim.games.sssnake.rules import CURVE, STRAIGHT, SssnakeRules

SIDE, ORIGIN = 40, 20  # the kernel grid used for hand-made boards
N, E, S, W = range(4)

# The head runs west, north, east along y = -2 and down into (0,-1): cell P = (-1,-1) is
# then walled in on three sides (west (-2,-1), north (-1,-2), south (-1,0)).
AROUND = [
    (STRAIGHT, HEAD, W),  # (-1,0)
    (CURVE, HEAD, N),  # (-2,0)
    (STRAIGHT, HEAD, N),  # (-2,-1)
    (CURVE, HEAD, E),  # (-2,-2)
    (STRAIGHT, HEAD, E),  # (-1,-2)
    (CURVE, HEAD, S),  # (0,-2); the head now points south into (0,-1)
]


def board(rules=None, moves=(), walls=()):
    """A board after ``moves`` (``(card, end, direction)``, placed without any legality check)
    and with extra occupied ``walls`` cells."""
    b = Board(rules or SssnakeRules())
    for card, end, f in moves:
        b.place(card, end, f)
    for x, y in walls:
        b.cells[(x, y)] = (BLOCK, [])
        b.box = [min(b.box[0], x), max(b.box[1], x), min(b.box[2], y), max(b.box[3], y)]
    return b


def kernel_arrays(b):
    """``(occupied, free, ends, box)`` of board ``b`` in kernel form (grid SIDE square)."""
    occupied = np.zeros(SIDE * SIDE, np.int8)
    free = np.zeros(SIDE * SIDE, np.int8)
    for x, y in b.cells:
        occupied[(y + ORIGIN) * SIDE + x + ORIGIN] = 1
    for (x, y), (e1, e2) in b.free.items():
        free[(y + ORIGIN) * SIDE + x + ORIGIN] = (1 << e1) | (1 << e2)
    ends = np.array([[x + ORIGIN, y + ORIGIN, d] for x, y, d in b.ends], np.int64)
    box = np.array([b.box[0] + ORIGIN, b.box[1] + ORIGIN, b.box[2] + ORIGIN, b.box[3] + ORIGIN], np.int64)
    return occupied, free, ends, box


def kernel_search_scratch():
    cells = SIDE * SIDE
    return (
        np.zeros(cells, np.int32),
        np.empty(cells, np.int32),
        np.empty((cells, 2), np.int32),
        np.zeros(1, np.int64),
        np.empty((64, 4), np.int64),
        np.empty(1, np.int8),
        np.empty((kernel.MASK_ROWS, kernel.MASK_WORDS), np.uint64),
    )
