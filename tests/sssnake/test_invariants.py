"""Invariants over many games: every placement keeps the snake one continuous chain from the
head and from the tail; every card is placed, out of the game or still in the stock; the
winner rule; the reference's boards stay joinable."""

import numpy as np
import pytest

from snakesim.core.rng import Stream
from snakesim.games.sssnake import kernel
from snakesim.games.sssnake.reference import HEAD, INF, TAIL, SssnakeGame
from snakesim.games.sssnake.rules import (
    DX,
    DY,
    FRIENDLY,
    GREEDY,
    JOINED,
    RANDOM,
    STOCK_DRAW,
    STOCK_WIN,
    SssnakeRules,
)

MIXES = [[RANDOM] * 3, [GREEDY, RANDOM, FRIENDLY], [GREEDY] * 3]


def walk(board, start, end):
    """Follow the snake's cards from ``start`` (an end's first state) to the open end ``end``.

    Returns the cells walked through, one per path used (a cross used twice counts twice).
    """
    state, cells = start, []
    for _ in range(2 * len(board.cells) + 2):
        if state == end:
            return cells
        x, y, d = state
        _, paths = board.cells[(x, y)]  # a KeyError here: the chain is broken
        e = (d + 2) % 4
        f = next(b if a == e else a for a, b in paths if e in (a, b))
        cells.append((x, y))
        state = (x + DX[f], y + DY[f], f)
    raise AssertionError("the walk does not reach the open end")


def check_chain(board, rules):
    head = walk(board, rules.head_end(), board.ends[HEAD])
    tail = walk(board, rules.tail_end(), board.ends[TAIL])
    cards = {c for c, (card, _) in board.cells.items() if card >= 0}
    assert set(head) | set(tail) == cards
    # Each card is walked once, a cross or double curve whose second path is used twice.
    twice = sum(1 for c in cards if len(board.cells[c][1]) == 2 and c not in board.free)
    assert len(head) + len(tail) == board.placed + twice
    assert board.missing() < INF


@pytest.mark.parametrize("policies", MIXES)
def test_every_placement_keeps_one_chain_and_cards_are_conserved(policies):
    rules = SssnakeRules()
    for game in range(25):
        g = SssnakeGame(rules, 3, policies, Stream(31, game))
        seat = 0
        while g.next_card < len(g.stock) and g.winner < 0:
            g.turn(seat)
            for board in g.boards:
                check_chain(board, rules)
            if g.winner < 0:  # a join may leave cards of its turn unused
                placed = sum(b.placed for b in g.boards)
                assert placed + g.discarded + len(g.stock) - g.next_card == rules.deck_size()
            seat = (seat + 1) % 3


def test_chains_with_many_crossings():
    rules = SssnakeRules(deck={"STRAIGHT": 20, "CURVE": 20, "CROSS": 20, "DOUBLE": 20})
    for game in range(25):
        g = SssnakeGame(rules, 2, [RANDOM, GREEDY], Stream(32, game))
        seat = 0
        while g.next_card < len(g.stock) and g.winner < 0:
            g.turn(seat)
            for board in g.boards:
                check_chain(board, rules)
            seat = 1 - seat


@pytest.mark.parametrize("policies", MIXES)
def test_kernel_conservation_and_winner_rule(policies):
    rules = SssnakeRules()
    out = kernel.play_block(rules, 3, 9, 0, 5_000, policies=np.array(policies, np.int8))
    used = out["placed"].sum(axis=1) + out["discarded"]
    assert (used + out["stock_left"] + out["unused"] == rules.deck_size()).all()
    # Only the turn that joins a snake can leave drawn cards unused: at most two (a 3 rolled).
    assert (out["unused"][out["outcome"] != JOINED] == 0).all()
    assert set(np.unique(out["unused"])) == {0, 1, 2}
    assert (out["spite"] <= out["placed"]).all()
    assert (out["missing"] < INF).all()
    rows = np.arange(len(out["winner"]))
    joined = out["outcome"] == JOINED
    assert (out["missing"][rows[joined], out["winner"][joined]] == 0).all()
    assert ((out["missing"] == 0).sum(axis=1) == joined).all()  # only the winner's snake is joined
    ended = ~joined
    assert (out["stock_left"][ended] == 0).all()
    fewest = out["missing"].min(axis=1)
    at_fewest = (out["missing"] == fewest[:, None]).sum(axis=1)
    assert ((out["outcome"] == STOCK_WIN) == (ended & (at_fewest == 1))).all()
    won = out["outcome"] == STOCK_WIN
    assert (out["missing"][rows[won], out["winner"][won]] == fewest[won]).all()
    assert (out["winner"][out["outcome"] == STOCK_DRAW] == -1).all()
