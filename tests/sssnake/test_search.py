"""The path search on hand-made boards, checked by hand, in both engines.

Coordinates: x east, y south; the large card covers (0,0)-(1,1); the head starts pointing
west into (-1,0), the tail east into (2,1). Directions N, E, S, W = 0, 1, 2, 3.
"""

import numpy as np
import pytest

from snakesim.games.sssnake import kernel
from snakesim.games.sssnake.reference import HEAD, INF, TAIL
from snakesim.games.sssnake.rules import CROSS, CURVE, DOUBLE, STRAIGHT, SssnakeRules
from tests.sssnake.boards import AROUND, SIDE, board, kernel_arrays, kernel_search_scratch

N, E, S, W = range(4)


def both_missing(b):
    """Cards missing by the reference engine, checked equal to the kernel's search."""
    occupied, free, ends, box = kernel_arrays(b)
    k = kernel._missing(occupied, free, ends, box, SIDE, kernel_search_scratch())
    assert k == b.missing()
    return k


def kernel_options(b, card):
    occupied, free, ends, box = kernel_arrays(b)
    opts, saved = np.empty((12, 4), np.int64), np.empty(10, np.int64)
    cards = np.array([card], np.int8)
    memo = np.full((1, kernel.M_ANSWERS), -1, np.int64)  # nothing remembered yet
    masks, window = np.zeros((1, kernel.MASK_ROWS, kernel.MASK_WORDS), np.uint64), np.full((1, 4), -1, np.int64)
    one = (occupied[None], free[None], ends[None], box[None], np.zeros(1, np.int64), memo, masks, window)  # one seat
    kernel._frame(one, 0, SIDE)  # its bit masks, which the searches of the trial placements use
    k = kernel._options(one, 0, SIDE, cards, 1, opts, kernel_search_scratch(), saved)
    return [(int(o[1]), int(o[2]), int(o[3])) for o in opts[:k]]


def test_start_board_misses_seven_cards():
    assert both_missing(board()) == 7


@pytest.mark.parametrize(
    "geometry,missing",
    [
        ({"block_width": 1, "block_height": 1, "tail_x": 0, "tail_y": 0}, 5),  # around one cell
        ({"head_side": "north"}, 5),  # north from (0,0) to east from (1,1): over the top-right
        ({"block_width": 3, "tail_x": 2}, 8),  # a wider card: one more cell along each long side
    ],
)
def test_other_geometries(geometry, missing):
    assert both_missing(board(SssnakeRules(**geometry))) == missing


def test_a_snake_that_walls_itself_in_is_illegal():
    b = board(moves=AROUND)
    assert b.ends[HEAD] == (0, -1, S)
    assert both_missing(b) == 5  # (0,-1) (1,-1) (2,-1) (2,0) (2,1)
    # A curve turning west would lead the head into (-1,-1), a pocket with no way out: illegal.
    # Turning east is legal (4 missing); a straight runs into the large card: illegal.
    head_options = [(o.end, o.exit, o.missing) for o in b.options(CURVE) if o.end == HEAD]
    assert head_options == [(HEAD, E, 4)]
    assert not [o for o in b.options(STRAIGHT) if o.end == HEAD]
    assert [o for o in kernel_options(b, CURVE) if o[0] == HEAD] == head_options
    trial = board(moves=[*AROUND, (CURVE, HEAD, W)])
    assert both_missing(trial) == INF


def test_a_crossings_free_path_is_a_way_through():
    # The same board with a cross at (-2,-1): its free path (west-east) opens the pocket.
    moves = list(AROUND)
    moves[2] = (CROSS, HEAD, N)
    b = board(moves=moves)
    assert b.free == {(-2, -1): (E, W)}
    head_options = sorted((o.exit, o.missing) for o in b.options(CURVE) if o.end == HEAD)
    # West: (-1,-1), through the cross to (-3,-1), down to (-3,1), east to (-1,1), down to
    # (-1,2), east to (2,2), up to (2,1): 11 cells; the free path itself costs nothing.
    assert head_options == [(E, 4), (W, 11)]
    assert both_missing(board(moves=[*moves, (CURVE, HEAD, W)])) == 11
    assert sorted((f, m) for end, f, m in kernel_options(b, CURVE) if end == HEAD) == head_options


def test_an_end_passes_through_a_free_path_and_uses_it():
    b = board(
        moves=[
            (CROSS, HEAD, W),  # (-1,0): west-east used, north-south free
            (CURVE, HEAD, N),  # (-2,0)
            (CURVE, HEAD, E),  # (-2,-1)
            (CURVE, HEAD, S),  # (-1,-1): points south into the cross, through it, on to (-1,1)
        ]
    )
    assert b.ends[HEAD] == (-1, 1, S)
    assert b.free == {}
    assert b.placed == 4
    assert both_missing(b) == 6  # (-1,1) (-1,2) (0,2) (1,2) (2,2) (2,1)


def test_a_double_curve_leaves_the_other_curve_free():
    b = board(moves=[(DOUBLE, TAIL, N)])  # (2,1): the tail turns west-to-north; south-east stays free
    assert b.free == {(2, 1): (E, S)}
    assert b.ends[TAIL] == (2, 0, N)
    assert both_missing(b) == 6


def test_joining_head_and_tail():
    moves = [
        (CURVE, HEAD, N),  # (-1,0)
        (CURVE, HEAD, E),  # (-1,-1)
        (STRAIGHT, HEAD, E),  # (0,-1)
        (STRAIGHT, HEAD, E),  # (1,-1)
        (CURVE, HEAD, S),  # (2,-1)
        (STRAIGHT, HEAD, S),  # (2,0): the head points south into (2,1), where the tail points east
    ]
    b = board(moves=moves)
    assert both_missing(b) == 1
    # A curve from north to west joins them; the same curve on the tail's end, too.
    joins = [(o.end, o.exit) for o in b.options(CURVE) if o.missing == 0]
    assert joins == [(HEAD, W), (TAIL, N)]
    done = board(moves=[*moves, (CURVE, HEAD, W)])
    assert done.joined() and both_missing(done) == 0
    # A straight would point the head into the tail's target cell and block the tail: illegal.
    assert not [o for o in b.options(STRAIGHT) if o.end == HEAD]


def test_walls_far_away_do_not_matter_but_near_ones_do():
    # Walls beyond the one-cell margin cannot shorten or lengthen a path; a wall on every
    # shortest path lengthens it.
    assert both_missing(board(walls=[(-1, -3), (5, 5)])) == 7
    assert both_missing(board(walls=[(0, -1), (0, 2)])) == 9
    assert both_missing(board(walls=[(-2, 0), (-1, -1), (-1, 1)])) == INF


def test_the_bit_mask_search_agrees_with_the_cell_search_on_played_boards(monkeypatch):
    # Boards the reference engine searched in real games (free paths, dead ends and all):
    # the kernel's search on bit masks, its cell-by-cell search and the reference agree.
    from snakesim.games.sssnake import reference

    seen = []
    original = reference.Board.missing

    def keep(board):
        answer = original(board)
        if len(seen) < 400 and (answer >= INF or len(seen) % 3 == 0):
            seen.append((board.copy(), answer))
        return answer

    monkeypatch.setattr(reference.Board, "missing", keep)
    for game in range(3):
        reference.play(SssnakeRules(), 4, 5, game, policies=[0, 1, 2, 0])
    assert len(seen) > 100 and any(answer >= INF for _, answer in seen)
    assert any(b.free for b, _ in seen)  # boards with free paths to jump through
    for b, answer in seen:
        arrays = kernel_arrays(b)
        assert kernel._missing(*arrays, SIDE, kernel_search_scratch()) == answer
        assert kernel._missing_cells(*arrays, SIDE, kernel_search_scratch()) == answer
