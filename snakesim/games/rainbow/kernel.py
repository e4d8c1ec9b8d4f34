"""Rainbow in numba: plays many games, each identical to ``reference.play`` for its
(rules, policies, seed, i).

Legality comes from ``RainbowRules.legal_table`` (``table[top, card]``), built from the same
``can_play`` the reference engine calls, so the two engines cannot disagree on a rule; the
scripted tests check ``can_play`` itself against the rule text.

The shuffled deck array doubles as the stock: the deal takes its first cards, the stock is
``stock[sp:se]``, and a reshuffle copies the pile (but its top card) to the front of it.
"""

from __future__ import annotations

import numba
import numpy as np

from snakesim.core.jit import njit, njit_driver
from snakesim.core.rng import below, seed_stream, shuffle
from snakesim.games.rainbow.rules import (
    BLOCKED_DRAW,
    BLOCKED_WIN,
    GREEDY,
    RANDOM,
    SYMBOLS,
    UNFINISHED,
    WIN,
    Card,
    RainbowRules,
)

N_SYMBOLS = len(SYMBOLS)
SNAKE = int(Card.SNAKE)
BLOCK = 64  # games per scratch allocation; any value gives the same results
# Positions in the params array built by `encode`.
P_PLAYERS, P_HAND_SIZE, P_WILD_SNAKE, P_TURN_CAP, P_PRESORTED = range(5)


@njit
def _legal(table, hands, seat, has_top, top, card):
    return hands[seat, card] > 0 and (not has_top or table[top, card])


@njit
def _follow_ups(table, hands, seat, card):
    total = 0
    for d in range(N_SYMBOLS):
        if table[card, d]:
            total += hands[seat, d] - (d == card)
    return total


@njit
def _choose(state, table, hands, seat, policy, wild_snake, has_top, top):
    """The symbol ``seat`` plays; the hand holds at least one legal card. One random draw."""
    if policy == RANDOM:
        total = 0
        for c in range(N_SYMBOLS):
            if _legal(table, hands, seat, has_top, top, c):
                total += hands[seat, c]
        r = below(state, total)
        for c in range(N_SYMBOLS):
            if _legal(table, hands, seat, has_top, top, c):
                r -= hands[seat, c]
                if r < 0:
                    return c
    # GREEDY: keep a wild SNAKE while anything else is playable; most follow-ups; random ties.
    n_legal = 0
    for c in range(N_SYMBOLS):
        n_legal += _legal(table, hands, seat, has_top, top, c)
    skip_snake = wild_snake and n_legal > 1 and _legal(table, hands, seat, has_top, top, SNAKE)
    best = -1
    n_best = 0
    for c in range(N_SYMBOLS):
        if _legal(table, hands, seat, has_top, top, c) and not (skip_snake and c == SNAKE):
            score = _follow_ups(table, hands, seat, c)
            if score > best:
                best = score
                n_best = 1
            elif score == best:
                n_best += 1
    r = below(state, n_best)
    for c in range(N_SYMBOLS):
        if _legal(table, hands, seat, has_top, top, c) and not (skip_snake and c == SNAKE):
            if _follow_ups(table, hands, seat, c) == best:
                if r == 0:
                    return c
                r -= 1
    return -1  # unreachable: the caller guarantees a legal card


@njit
def _play_one(deck, table, params, policies, seed, game, scratch, out, row):
    """Play game ``game`` and write its results into row ``row`` of the ``out`` columns."""
    n, hand_size, wild_snake, turn_cap, presorted = params
    state, stock, pile, hands, totals = scratch
    o_outcome, o_winner, o_length, o_hand, o_drawn, o_reshuffles = out
    seed_stream(state, seed, game)
    n_cards = deck.shape[0]
    for k in range(n_cards):
        stock[k] = deck[k]
    if not presorted:
        shuffle(state, stock, n_cards)
    hands[:, :] = 0
    dealt = hand_size * n
    for k in range(dealt):  # one card at a time, clockwise from seat 0
        hands[k % n, stock[k]] += 1
    for s in range(n):
        totals[s] = hand_size
    sp = dealt
    se = n_cards
    pc = 0  # cards on the pile; the top is pile[pc - 1]
    turns = 0
    drawn = 0
    reshuffles = 0
    passes = 0
    outcome = -1
    winner = -1
    seat = 0
    while outcome < 0:
        turns += 1
        has_top = pc > 0
        top = pile[pc - 1] if has_top else 0
        n_legal = 0
        for c in range(N_SYMBOLS):
            n_legal += _legal(table, hands, seat, has_top, top, c)
        if n_legal > 0:
            card = _choose(state, table, hands, seat, policies[seat], wild_snake, has_top, top)
            hands[seat, card] -= 1
            totals[seat] -= 1
            pile[pc] = card
            pc += 1
            passes = 0
        else:
            if sp == se and pc > 1:  # the pile but its top becomes the new stock
                for k in range(pc - 1):
                    stock[k] = pile[k]
                shuffle(state, stock, pc - 1)
                sp = 0
                se = pc - 1
                pile[0] = pile[pc - 1]
                pc = 1
                reshuffles += 1
            if sp == se:
                passes += 1
            else:
                card = stock[sp]
                sp += 1
                hands[seat, card] += 1
                totals[seat] += 1
                drawn += 1
                passes = 0
                if table[top, card]:
                    take = below(state, 2) == 0
                    if policies[seat] == GREEDY or take:
                        hands[seat, card] -= 1
                        totals[seat] -= 1
                        pile[pc] = card
                        pc += 1
        if totals[seat] == 0:
            outcome = WIN
            winner = seat
        elif passes == n:
            fewest = totals[0]
            for s in range(n):
                fewest = min(fewest, totals[s])
            tied = 0
            for s in range(n):
                if totals[s] == fewest:
                    tied += 1
                    winner = s
            if tied == 1:
                outcome = BLOCKED_WIN
            else:
                outcome = BLOCKED_DRAW
                winner = -1
        elif turns >= turn_cap:
            outcome = UNFINISHED
        seat = seat + 1 if seat + 1 < n else 0
    o_outcome[row] = outcome
    o_winner[row] = winner
    o_length[row] = turns
    for s in range(n):
        o_hand[row, s] = totals[s]
    o_drawn[row] = drawn
    o_reshuffles[row] = reshuffles


@njit_driver
def _play_block(deck, table, params, policies, seed, first, out):
    count = out[0].shape[0]
    n = params[P_PLAYERS]
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in numba.prange(n_blocks):
        scratch = (
            np.empty(4, np.uint64),  # random stream state
            np.empty(deck.shape[0], np.int8),  # shuffled deck, then the stock
            np.empty(deck.shape[0], np.int8),  # the pile, bottom first
            np.empty((n, N_SYMBOLS), np.int64),  # hands: count of each symbol
            np.empty(n, np.int64),  # cards in each hand
        )
        for row in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            _play_one(deck, table, params, policies, seed, first + row, scratch, out, row)


def encode(rules: RainbowRules, players: int, presorted: bool = False) -> np.ndarray:
    """The rules as the kernel's ``params`` array (see the ``P_*`` indices)."""
    params = np.zeros(5, np.int64)
    params[P_PLAYERS] = players
    params[P_HAND_SIZE] = rules.hand_size
    params[P_WILD_SNAKE] = rules.wild_snake
    params[P_TURN_CAP] = rules.turn_cap
    params[P_PRESORTED] = presorted
    return params


def play_block(
    rules: RainbowRules, players: int, seed: int, first: int, count: int, policies=None, deck=None
) -> dict[str, np.ndarray]:
    """Play games ``first .. first+count-1`` of ``seed`` and return their columns.

    Parameters
    ----------
    rules : RainbowRules
        Valid rules.
    players : int
        Number of seats (the deal must fit the deck: ``check_setup``).
    seed, first, count : int
        The run's seed, the first game index and the number of games.
    policies : array of int8, optional
        Policy code per seat; greedy for every seat if None.
    deck : array of int, optional
        A scripted deck order (top first) used instead of the shuffle, for tests.

    Returns
    -------
    dict of numpy arrays
        ``outcome, winner, length, drawn, reshuffles`` of shape ``(count,)`` and ``hand``
        (cards left per seat) of shape ``(count, players)``.
    """
    cards = rules.deck_cards() if deck is None else np.asarray(deck, dtype=np.int8)
    if policies is None:
        policies = np.full(players, GREEDY, np.int8)
    out = {
        "outcome": np.empty(count, np.int8),
        "winner": np.empty(count, np.int8),
        "length": np.empty(count, np.int32),
        "hand": np.empty((count, players), np.int32),
        "drawn": np.empty(count, np.int32),
        "reshuffles": np.empty(count, np.int32),
    }
    _play_block(
        cards,
        rules.legal_table(),
        encode(rules, players, deck is not None),
        np.asarray(policies, np.int8),
        np.uint64(seed),
        np.int64(first),
        tuple(out.values()),
    )
    return out
