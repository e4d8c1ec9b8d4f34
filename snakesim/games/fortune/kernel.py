"""Fortune in numba: plays many games, each identical to ``reference.play`` for its (seed, i).

The front (:func:`play_block`) checks nothing itself (the rules object is valid by
construction), allocates the output columns and calls the private parallel kernel, which
writes one row per game. Games are split into fixed blocks of indices across threads; each
block allocates its scratch arrays once. A game's randomness comes only from its own deal key
(keyed shuffles, coupled across decks: see ``snakesim.core.rng``), so the block layout and
thread count cannot change a result.

The draw pile and the discard pile share one array: cards are drawn from ``pile[top]``
upwards, so ``pile[:top]`` is the discard pile in the order drawn, exactly the list the
reference engine reshuffles.
"""

from __future__ import annotations

import numba
import numpy as np

from snakesim.core.columns import allocate
from snakesim.core.jit import njit, njit_driver
from snakesim.core.rng import deal_key, deck_identities, keyed_deal, keyed_scratch
from snakesim.core.rules import seat_values
from snakesim.games.fortune.rules import (
    ALL_CUP,
    COLLECT,
    CUP,
    DRAW,
    GIVE,
    GIVE_EACH,
    MAX_PRIMITIVES,
    OTHERS_CUP,
    TAKE,
    TAKE_CUP,
    UNFINISHED,
    WIN,
    FortuneRules,
)

BLOCK = 64  # games per scratch allocation; any value gives the same results
# Positions in the params array built by `encode`.
P_PLAYERS, P_TURN_CAP, P_PRESORTED, P_TYPES, P_START_COINS = range(5)  # P_START_COINS + seat: its coins
MORE = 1 << 6  # in a packed primitive (see `program`): the card has further primitives
AMOUNT_SHIFT = 13


@njit
def _pay(coins, out_at, skip, alive, payer, amount, length):
    """Take up to ``amount`` from ``payer``; mark them out at 0. Returns the coins taken.

    ``alive[0]`` counts the players in the game, kept up to date here and in ``_receive``.
    """
    paid = min(amount, coins[payer])
    coins[payer] -= paid
    if paid > 0 and coins[payer] == 0:
        out_at[payer] = length
        skip[payer] = False
        alive[0] -= 1
    return paid


@njit
def _receive(coins, out_at, alive, payee, amount):
    if amount > 0:
        if coins[payee] == 0:
            out_at[payee] = -1
            alive[0] += 1
        coins[payee] += amount


@njit
def _transfer(coins, out_at, skip, alive, payer, payee, amount, length):
    """Move up to ``amount`` from ``payer`` to seat ``payee``; return the coins moved."""
    paid = _pay(coins, out_at, skip, alive, payer, amount, length)
    _receive(coins, out_at, alive, payee, paid)
    return paid


@njit
def _left(coins, seat, n):
    s = seat + 1
    if s == n:
        s = 0
    while coins[s] == 0:
        s += 1
        if s == n:
            s = 0
    return s


@njit
def _right(coins, seat, n):
    s = seat - 1
    if s < 0:
        s = n - 1
    while coins[s] == 0:
        s -= 1
        if s < 0:
            s = n - 1
    return s


@njit(inline="always")
def _neighbour(coins, seat, n, side, left, right):
    """The left (side 0) or right neighbour in the game, found now unless already known (-1:
    not yet); returns it and both neighbours as known."""
    if side == 0:
        left = _left(coins, seat, n) if left < 0 else left
        return left, left, right
    right = _right(coins, seat, n) if right < 0 else right
    return right, left, right


@njit(inline="always")
def _primitive(op, seat, n, left, right, cup, coins, out_at, skip, alive, length):
    """Carry out one packed primitive (see `program`) for the drawer ``seat``; return the cup
    and the neighbours, found here when first needed (-1: not yet)."""
    verb = op & 15
    side = (op >> 4) & 1
    rejoin = (op >> 5) & 1
    amount = op >> AMOUNT_SHIFT
    if verb == CUP:  # (the verbs in the order of how many of the seed's cards use them)
        cup += _pay(coins, out_at, skip, alive, seat, amount, length)
    elif verb == TAKE:  # (the hottest verb after CUP: its neighbour found here, not by _neighbour)
        if side == 0:
            left = _left(coins, seat, n) if left < 0 else left
            _transfer(coins, out_at, skip, alive, left, seat, amount, length)
        else:
            right = _right(coins, seat, n) if right < 0 else right
            _transfer(coins, out_at, skip, alive, right, seat, amount, length)
    elif verb == ALL_CUP or verb == OTHERS_CUP:
        if verb == ALL_CUP:
            cup += _pay(coins, out_at, skip, alive, seat, amount, length)
        s = seat
        for _ in range(n - 1):
            s = s + 1 if s + 1 < n else 0
            if coins[s] > 0:
                cup += _pay(coins, out_at, skip, alive, s, amount, length)
    elif verb == COLLECT:
        s = seat
        for _ in range(n - 1):
            s = s + 1 if s + 1 < n else 0
            if coins[s] > 0:
                _transfer(coins, out_at, skip, alive, s, seat, amount, length)
    elif verb == GIVE:
        if rejoin:
            target = (seat + 1 if seat + 1 < n else 0) if side == 0 else (seat - 1 if seat > 0 else n - 1)
        else:
            target, left, right = _neighbour(coins, seat, n, side, left, right)
        if rejoin or coins[target] > 0:
            _transfer(coins, out_at, skip, alive, seat, target, amount, length)
    elif verb == GIVE_EACH:
        if rejoin:
            others = n - 1
        else:
            others = 0
            for s in range(n):
                if s != seat and coins[s] > 0:
                    others += 1
        if side == 1 and coins[seat] < amount * others:  # shortfall: all into the cup
            cup += _pay(coins, out_at, skip, alive, seat, coins[seat], length)
        else:
            s = seat
            for _ in range(n - 1):
                s = s + 1 if s + 1 < n else 0
                if coins[seat] == 0:
                    break
                if rejoin or coins[s] > 0:
                    _transfer(coins, out_at, skip, alive, seat, s, amount, length)
    elif verb == TAKE_CUP:
        won = cup if side == 0 else cup // 2
        cup -= won
        _receive(coins, out_at, alive, seat, won)
    else:  # SKIP
        target, left, right = _neighbour(coins, seat, n, side, left, right)
        if coins[target] > 0:
            skip[target] = True
    return cup, left, right


@njit
def _play_one(words, further, ops, params, seed, game, scratch, out, row):
    """Play game ``game`` and write its results into row ``row`` of the ``out`` columns.

    ``words`` is the deck with each card as its packed effect (see `program`), so the pile
    holds effects: drawing a card is one load, with no table to look it up in.
    """
    n, turn_cap, presorted, n_types = params[P_PLAYERS], params[P_TURN_CAP], params[P_PRESORTED], params[P_TYPES]
    copies, keys, identities, pile, coins, out_at, skip, alive = scratch
    o_outcome, o_winner, o_length, o_coins, o_out_at, o_reshuffles, o_max_cup = out
    key = deal_key(seed, game)  # Fortune has no choices: the deal is all its randomness
    n_cards = words.shape[0]
    if presorted:
        for k in range(n_cards):
            pile[k] = words[k]
    else:  # the cards' identities order the deal; the pile receives their effects
        keyed_deal(key, 0, words, identities, pile, n_types, copies, keys)
    for s in range(n):
        coins[s] = params[P_START_COINS + s]
        out_at[s] = -1
        skip[s] = False
    top = 0
    cup = 0
    max_cup = 0
    length = 0
    reshuffles = 0
    alive[0] = n
    seat = 0
    outcome = -1
    winner = -1
    while outcome < 0:
        if skip[seat]:
            skip[seat] = False
        else:
            if top == n_cards:
                reshuffles += 1
                # Every card is in the discards, so this is a deal of the whole deck.
                keyed_deal(key, reshuffles, words, identities, pile, n_types, copies, keys)
                top = 0
            d = pile[top]  # the card's packed effect: its first primitive, and where the rest are
            top += 1
            length += 1
            # The neighbours are those in the game when the card is drawn: found here for a
            # card of several primitives, else where its one primitive needs them (the same).
            left = -1
            right = -1
            more = d & MORE
            if more:
                card = np.uint64((d >> 7) & 63)
                named = further[card, 1]
                if named & 1:
                    left = _left(coins, seat, n)
                if named & 2:
                    right = _right(coins, seat, n)
            # (A card with no primitives holds {cup = 0}, which moves nothing.)
            cup, left, right = _primitive(d, seat, n, left, right, cup, coins, out_at, skip, alive, length)
            if more:
                for k in range(further[card, 2], further[card, 2] + further[card, 0] - 1):
                    cup, left, right = _primitive(ops[k], seat, n, left, right, cup, coins, out_at, skip, alive, length)
            max_cup = max(max_cup, cup)
            if alive[0] == 1:
                winner = _left(coins, seat, n)
                coins[winner] += cup
                cup = 0
                outcome = WIN
                break
            if alive[0] == 0:
                outcome = DRAW
                break
            if length >= turn_cap:
                outcome = UNFINISHED
                break
        seat = _left(coins, seat, n)
    o_outcome[row] = outcome
    o_winner[row] = winner
    o_length[row] = length
    for s in range(n):
        o_coins[row, s] = coins[s]
        o_out_at[row, s] = out_at[s]
    o_reshuffles[row] = reshuffles
    o_max_cup[row] = max_cup


@njit_driver
def _play_block(deck, words, further, ops, params, seed, first, out):
    count = out[0].shape[0]
    n = params[P_PLAYERS]
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in numba.prange(n_blocks):
        identities = np.empty(deck.shape[0], np.uint64)
        deck_identities(deck, identities)
        scratch = (
            np.empty(keyed_scratch(deck.shape[0], params[P_TYPES])[0], np.int64),  # keyed shuffle scratch
            np.empty(keyed_scratch(deck.shape[0], params[P_TYPES])[1], np.uint64),
            identities,
            np.empty(deck.shape[0], np.int32),  # draw pile + discard pile (packed effects)
            np.empty(n, np.int64),  # coins
            np.empty(n, np.int64),  # out_at
            np.empty(n, np.bool_),  # skip
            np.empty(1, np.int64),  # players in the game
        )
        for row in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            _play_one(words, further, ops, params, seed, first + row, scratch, out, row)


def program(rules: FortuneRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The effects (``FortuneRules.op_table``) packed for the kernel.

    A primitive is one signed 32-bit word: ``verb | side << 4 | rejoin << 5 | more << 6 | card << 7
    | amount << 13`` (side: left or right, all or half, clockwise or cup; amount below 2**18).
    Returns each card's word (its first primitive, ``{cup = 0}`` for none; ``more`` set when it
    has others), ``further[card] = (count, named, first)`` (how many primitives, which
    neighbours in the game they name: bit 0 left, bit 1 right, and where its primitives after
    the first start in ``ops``) and ``ops``. A drawn card is thus one load, and a word needs no
    table to be read unless the card has several primitives.
    """
    table = rules.op_table()
    words = np.zeros(len(table), np.int32)
    further = np.zeros((len(table), 3), np.int64)
    ops: list[int] = []
    for c, rows in enumerate(table):
        count, named = int(rows[MAX_PRIMITIVES, 0]), int(rows[MAX_PRIMITIVES, 1])
        packed = [
            int(v | s << 4 | r << 5 | (count > 1) << 6 | c << 7 | a << AMOUNT_SHIFT) for v, a, s, r in rows[:count]
        ]
        words[c] = packed[0] if packed else CUP
        further[c] = (count, named, len(ops))
        ops += packed[1:]
    return words, further, np.array(ops or [0], np.int32)


def encode(rules: FortuneRules, players: int, presorted: bool = False) -> np.ndarray:
    """The rules' numbers as the kernel's ``params`` array (see the ``P_*`` indices); the
    card effects go as ``rules.op_table()``."""
    params = np.zeros(P_START_COINS + players, np.int64)
    params[P_PLAYERS] = players
    params[P_START_COINS:] = seat_values(rules.start_coins, players)
    params[P_TURN_CAP] = rules.turn_cap
    params[P_PRESORTED] = presorted
    params[P_TYPES] = len(rules.effects)  # (the kernel could read it off its tables: measured 4% slower)
    return params


COLUMNS = (  # name, dtype, one per seat; the order _play_one unpacks them in
    ("outcome", np.int8, False),
    ("winner", np.int8, False),
    ("length", np.int32, False),
    ("coins", np.int32, True),
    ("out_at", np.int32, True),
    ("reshuffles", np.int32, False),
    ("max_cup", np.int32, False),
)


def play_block(
    rules: FortuneRules, players: int, seed: int, first: int, count: int, policies=None, deck=None
) -> dict[str, np.ndarray]:
    """Play games ``first .. first+count-1`` of ``seed`` and return their columns.

    Parameters
    ----------
    rules : FortuneRules
        Valid rules (construction checked them).
    players : int
        Number of seats.
    seed, first, count : int
        The run's seed, the first game index and the number of games.
    policies : None
        Fortune has no choices to make; accepted for the common signature.
    deck : array of int, optional
        A scripted draw pile (top first) used instead of the initial shuffle, for tests.

    Returns
    -------
    dict of numpy arrays
        ``outcome, winner, length, reshuffles, max_cup`` of shape ``(count,)`` and
        ``coins, out_at`` of shape ``(count, players)``.
    """
    cards = rules.deck_cards() if deck is None else np.asarray(deck, dtype=np.int8)
    out = allocate(COLUMNS, count, players)
    effects, further, ops = program(rules)
    _play_block(
        cards,
        effects[cards],
        further,
        ops,
        encode(rules, players, deck is not None),
        np.uint64(seed),
        np.int64(first),
        tuple(out.values()),
    )
    return out
