"""Fortune in numba: plays many games, each identical to ``reference.play`` for its (seed, i).

The front (:func:`play_block`) checks nothing itself (the rules object is valid by
construction), allocates the output columns and has ``snakesim.core.threads`` call the
kernel (`_play_rows`) on blocks of game indices across threads, each block with scratch arrays
of its own; the kernel writes one row per game. A game's randomness comes only from its own
deal key (keyed shuffles, coupled across decks: see ``snakesim.core.rng``), so the block
layout and thread count cannot change a result.

The draw pile and the discard pile share one array: cards are drawn from ``pile[top]``
upwards, so ``pile[:top]`` is the discard pile in the order drawn, exactly the list the
reference engine reshuffles.

Most cards put nobody out. For those the kernel does not follow the rules step by step: the
seats' coins live packed in one 64-bit word (one lane per seat) and the card's whole effect
on a given set of seats in the game and a given drawer (every seat's change, the cup's, who
draws next) is one row of a table worked out beforehand (`fast_table`), applied with one
addition after one test that no seat pays as much as it has. Only a card that might put
someone out, bring someone back or leave a skip for later goes the exact way (about three
cards a game in the standard 4-player game; a run goes on through a reshuffle); both ways give
the same game bit for bit (``tests/fortune``).
"""

from __future__ import annotations

import functools

import numpy as np
from numba.extending import register_jitable

from snakesim.core import feel, feel_lanes, feel_record
from snakesim.core.branch_hints import likely
from snakesim.core.columns import allocate
from snakesim.core.jit import njit, njit_inner
from snakesim.core.rng import Stream, deal_key, deal_scratch, deck_identities, inline_keyed_deal, keyed_deal, popcount
from snakesim.core.rules import seat_values
from snakesim.core.threads import play_in_blocks
from snakesim.games.fortune.reference import FortuneGame
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

BLOCK = 256  # games per scratch allocation; any value gives the same results
# Positions in the params array built by `encode`.
P_PLAYERS, P_TURN_CAP, P_PRESORTED, P_TYPES, P_FAST, P_LANE, P_TYPE_BITS, P_START_COINS = range(8)
# (P_START_COINS + seat: its coins)
# Columns of the fast path's table (see `fast_table`).
F_NEED, F_DELTA, F_CUP, F_UNIT = range(4)
_NEED, _DELTA, _CUP, _UNIT = (np.uint64(f) for f in range(4))  # (unsigned: no index fix-ups)
TAKE_MASK = 3  # an `advance` entry: how the card takes the cup (these bits),
STEP_SHIFT = 2  # and above them how many places the turn moves on
_TAKE_MASK, _STEP_SHIFT = np.uint64(TAKE_MASK), np.uint64(STEP_SHIFT)
ROW_BITS = 2  # a row is 4 words
_ROW_BITS = np.uint64(ROW_BITS)
MORE = 1 << 6  # in a packed primitive (see `program`): the card has further primitives
AMOUNT_SHIFT = 13
FAST_MAX_PLAYERS = 8  # the fast table has (2**players) * players rows per card


@njit_inner
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


@njit_inner
def _receive(coins, out_at, alive, payee, amount):
    if amount > 0:
        if coins[payee] == 0:
            out_at[payee] = -1
            alive[0] += 1
        coins[payee] += amount


@njit_inner
def _transfer(coins, out_at, skip, alive, payer, payee, amount, length):
    """Move up to ``amount`` from ``payer`` to seat ``payee``; return the coins moved."""
    paid = _pay(coins, out_at, skip, alive, payer, amount=amount, length=length)
    _receive(coins, out_at, alive, payee, paid)
    return paid


@njit_inner
def _left(coins, seat, n):
    s = seat + 1
    if s == n:
        s = 0
    while coins[s] == 0:
        s += 1
        if s == n:
            s = 0
    return s


@njit_inner
def _right(coins, seat, n):
    s = seat - 1
    if s < 0:
        s = n - 1
    while coins[s] == 0:
        s -= 1
        if s < 0:
            s = n - 1
    return s


@njit(forceinline=True)
def _neighbour(coins, seat, n, side, left, right):
    """The left (side 0) or right neighbour in the game, found now unless already known (-1:
    not yet); returns it and both neighbours as known."""
    if side == 0:
        left = _left(coins, seat, n) if left < 0 else left
        return left, left, right
    right = _right(coins, seat, n) if right < 0 else right
    return right, left, right


@njit_inner
def _primitive(op, seat, n, left, right, cup, coins, out_at, skip, alive, length):
    """Carry out one packed primitive (see `program`) for the drawer ``seat``; return the cup
    and the neighbours, found here when first needed (-1: not yet)."""
    verb = op & 15
    side = (op >> 4) & 1
    rejoin = (op >> 5) & 1
    amount = op >> AMOUNT_SHIFT
    if verb == CUP:  # (the verbs in the order of how many of the seed's cards use them)
        cup += _pay(coins, out_at, skip, alive, seat, amount=amount, length=length)
    elif verb == TAKE:  # (the hottest verb after CUP: its neighbour found here, not by _neighbour)
        if side == 0:
            left = _left(coins, seat, n) if left < 0 else left
            _transfer(coins, out_at, skip, alive, left, payee=seat, amount=amount, length=length)
        else:
            right = _right(coins, seat, n) if right < 0 else right
            _transfer(coins, out_at, skip, alive, right, payee=seat, amount=amount, length=length)
    elif verb == ALL_CUP or verb == OTHERS_CUP:
        if verb == ALL_CUP:
            cup += _pay(coins, out_at, skip, alive, seat, amount=amount, length=length)
        s = seat
        for _ in range(n - 1):
            s = s + 1 if s + 1 < n else 0
            if coins[s] > 0:
                cup += _pay(coins, out_at, skip, alive, s, amount=amount, length=length)
    elif verb == COLLECT:
        s = seat
        for _ in range(n - 1):
            s = s + 1 if s + 1 < n else 0
            if coins[s] > 0:
                _transfer(coins, out_at, skip, alive, s, payee=seat, amount=amount, length=length)
    elif verb == GIVE:
        if rejoin:
            target = (seat + 1 if seat + 1 < n else 0) if side == 0 else (seat - 1 if seat > 0 else n - 1)
        else:
            target, left, right = _neighbour(coins, seat, n, side, left, right=right)
        if rejoin or coins[target] > 0:
            _transfer(coins, out_at, skip, alive, seat, payee=target, amount=amount, length=length)
    elif verb == GIVE_EACH:
        if rejoin:
            others = n - 1
        else:
            others = 0
            for s in range(n):
                if s != seat and coins[s] > 0:
                    others += 1
        if side == 1 and coins[seat] < amount * others:  # shortfall: all into the cup
            cup += _pay(coins, out_at, skip, alive, seat, amount=coins[seat], length=length)
        else:
            s = seat
            for _ in range(n - 1):
                s = s + 1 if s + 1 < n else 0
                if coins[seat] == 0:
                    break
                if rejoin or coins[s] > 0:
                    _transfer(coins, out_at, skip, alive, seat, payee=s, amount=amount, length=length)
    elif verb == TAKE_CUP:
        # N coins (all of the cup if fewer), else all of it (side 0) or half, rounded down
        won = min(cup, amount) if amount > 0 else cup if side == 0 else cup // 2
        cup -= won
        _receive(coins, out_at, alive, seat, won)
    else:  # SKIP
        target, left, right = _neighbour(coins, seat, n, side, left, right=right)
        if coins[target] > 0:
            skip[target] = True
    return cup, left, right


@njit(forceinline=True)
def _fast_card(pile, table, advance, cycle, at, word, high, cup, max_cup, turn, by_card, first_row, log, offset):
    """Card ``pile[at]`` from the fast path's table: False and the state unchanged if some seat
    would pay as much as it has (or more), else True and the state after it (see `_run`); with
    the feel figures on, the packed coins after it go to ``log[offset + at]`` (its step)."""
    code = np.uint64(pile[at])
    e = code + first_row + cycle[turn]
    if (word - table[e + _NEED]) & high != high:
        return False, word, cup, max_cup, turn
    word += table[e + _DELTA]
    step = advance[by_card + code]
    take = step & _TAKE_MASK
    if take:  # the drawer takes the cup (1) or half of it (2); known from the card,
        max_cup = max(max_cup, cup)  # so a miss on this branch is found early
        cup += table[e + _CUP]
        won = cup >> (take - np.uint64(1))
        cup -= won
        word += won * table[e + _UNIT]
    else:
        cup += table[e + _CUP]
    turn += step >> _STEP_SHIFT
    if log is not None:
        log[offset + at] = word
    return True, word, cup, max_cup, turn


@njit(forceinline=True)
def _run(pile, table, advance, cycle, at, end, word, high, cup, max_cup, turn, by_card, first_row, log, offset):
    """The fast path: play ``pile[at:end]`` from the table while no seat pays as much as it
    has; return where it stopped and the state then (see `_play_one`).

    ``word`` holds every seat's coins in its lane below the lane's top bit, which is kept set
    (``high``): a seat pays less than it has exactly when subtracting its ``F_NEED`` leaves
    that bit set. The cup only grows between takes, so its highest value is looked at before a
    take and at the end.

    The seats in the game have their rows in the table in the order of their places, from
    ``first_row`` on. ``turn`` indexes `place_cycle`, which gives where the drawer's rows start:
    it starts at the drawer's place and moves on one place a card, or two past a skipped seat
    (`advance`, by card, so that the next card's row never waits for the row before). The
    drawer's rows moved on and wrapped by a compare and a select, the loop's one chain from
    card to card, measured 2% slower with the hint below (and the same without it).

    Two cards a round (5% faster than a card a round and a branch); the loop's test marked
    `likely`, so that LLVM keeps the loop's pointers and guard word in registers (they were
    reloaded from the stack on every card: 1-2% faster); inlined, since the loop is where the
    time goes and a call would copy the arrays it is passed.
    """
    one = np.uint64(1)
    ok = True
    while likely(ok and at < end):
        ok, word, cup, max_cup, turn = _fast_card(
            pile,
            table,
            advance,
            cycle,
            at,
            word=word,
            high=high,
            cup=cup,
            max_cup=max_cup,
            turn=turn,
            by_card=by_card,
            first_row=first_row,
            log=log,
            offset=offset,
        )
        if ok:
            at += one
            if at < end:
                ok, word, cup, max_cup, turn = _fast_card(
                    pile,
                    table,
                    advance,
                    cycle,
                    at,
                    word=word,
                    high=high,
                    cup=cup,
                    max_cup=max_cup,
                    turn=turn,
                    by_card=by_card,
                    first_row=first_row,
                    log=log,
                    offset=offset,
                )
                at += np.uint64(ok)
    return at, word, cup, max(max_cup, cup), turn


@njit_inner
def _log(packed, steps, coins, n, lane, step):
    """The feel figures' standings after step ``step``: the coins packed as the fast path logs
    them (`_fast_card`), or, when no lanes can hold them, as they are."""
    if lane > 0:
        word = np.uint64(0)
        for s in range(n):
            word |= np.uint64(coins[s]) << (lane * np.uint64(s))
        packed[0][step] = word
    elif steps is not None:
        feel_record.store(steps, coins, 1, n, step)


@njit_inner
def _unpack(packed, steps, n, lane, low, last):
    """The feel figures' standings at steps 0 .. ``last`` from the packed coins logged, seat by
    seat (for lanes other than `feel_lanes`'s)."""
    log, standings = packed[0], steps[0]
    for s in range(n):
        shift = lane * np.uint64(s)
        row = standings[s]
        for t in range(last + 1):
            row[t] = np.int32((log[t] >> shift) & low)


@njit(forceinline=True)
def _play_one(words, further, ops, table, advance, cycle, params, seed, game, scratch, packed, steps, out, row):
    """Play game ``game`` and write its results into row ``row`` of the ``out`` columns.

    The pile holds each card as where its row starts among its neighbours' in the fast path's
    flat ``table`` (``card << ROW_BITS``, see `table_row`), so that a card plus where the
    drawer's rows start is one index; ``words[card]`` is the card's packed effect (see
    `program`) for the exact path.
    """
    n, turn_cap, presorted, n_types = params[P_PLAYERS], params[P_TURN_CAP], params[P_PRESORTED], params[P_TYPES]
    fast, lane, type_bits = params[P_FAST], np.uint64(params[P_LANE]), np.uint64(params[P_TYPE_BITS])
    high = np.uint64(0)  # the top bit of every seat's lane in the packed coins: a guard, always set
    for s in range(n if fast else 0):
        high |= np.uint64(1) << (lane * np.uint64(s) + lane - np.uint64(1))
    lane_mask = (np.uint64(1) << (lane - np.uint64(1))) - np.uint64(1)  # (below the guard bit)
    copies, keys, identities, pile, coins, out_at, skip, alive, seats, codes = scratch
    (o_outcome, o_winner, o_length, o_coins, o_out_at, o_reshuffles, o_max_cup,
     o_lead_changes, o_decided, o_comeback, o_deficit, o_q1, o_q2, o_q3, o_tie_break, o_out_share) = out  # fmt: skip
    key = deal_key(seed, game)  # Fortune has no choices: the deal is all its randomness
    n_cards = codes.shape[0]
    # The cards' identities order a deal, and the pile receives their codes; the first deal
    # is made where the reshuffles are, when the first card is drawn from the empty pile (one
    # copy of the deal's code in the kernel: each took half a second to compile). A scripted
    # pile counts as deal 0.
    deals = 0
    top = n_cards
    if presorted:
        for k in range(n_cards):
            pile[k] = codes[k]
        deals = 1
        top = 0
    for s in range(n):
        coins[s] = params[P_START_COINS + s]
        out_at[s] = -1
        skip[s] = False
    cup = 0
    max_cup = 0
    length = 0
    alive[0] = n
    seat = 0
    outcome = -1
    winner = -1
    # The feel figures' record (``packed``: None when off, and numba then drops every use
    # before typing it): the coins at every step, packed as the fast path keeps them (in
    # ``packed[0]``); ``steps`` the standings unpacked, for lanes that `feel_lanes` cannot read
    # (None for up to four seats: that code is then not compiled).
    log = None if packed is None else packed[0]
    if packed is not None:
        _log(packed, steps, coins, n, lane=lane, step=0)
    while outcome < 0:
        if skip[seat]:
            skip[seat] = False
        else:
            stop = min(n_cards, top + turn_cap - 1 - length)  # the cap's own card goes the exact way
            if fast and (top < stop or top == n_cards):
                # A run of cards that put nobody out, each one row of the table.
                word = high  # every lane's top bit set: a guard that no change reaches
                in_game = np.uint64(0)
                pending = False
                for s in range(n):
                    word |= np.uint64(coins[s]) << (lane * np.uint64(s))
                    in_game |= np.uint64(coins[s] > 0) << np.uint64(s)
                    pending |= skip[s]
                if not pending:  # (a skip left for later is the exact path's business)
                    # Where the rows of the seats in the game start, and the drawer's place (see `_run`).
                    un = np.uint64(n)
                    places = popcount(in_game)
                    place = popcount(in_game & ((np.uint64(1) << np.uint64(seat)) - np.uint64(1)))
                    p = np.uint64(0)
                    # The seat at each place, with no branch (p <= s): a branch on each seat's
                    # bit was mispredicted often enough to cost 3% of the kernel's time.
                    for s in range(un):
                        seats[p] = s
                        p += (in_game >> s) & np.uint64(1)
                    first_row = table_row(un, type_bits, in_game, np.uint64(0), np.uint64(0)) << _ROW_BITS
                    row_shift = type_bits + _ROW_BITS
                    turns = np.uint64(cycle.shape[0] // (FAST_MAX_PLAYERS + 1))  # (see place_cycle)
                    by_card = (in_game * np.uint64(n_types)) << _ROW_BITS
                    ucup = np.uint64(cup)
                    umax = np.uint64(max_cup)
                    before = length
                    while True:
                        turn = places * turns + place
                        at, word, ucup, umax, turn = _run(
                            pile,
                            table,
                            advance,
                            cycle,
                            np.uint64(top),
                            end=np.uint64(stop),
                            word=word,
                            high=high,
                            cup=ucup,
                            max_cup=umax,
                            turn=turn,
                            by_card=by_card,
                            first_row=first_row,
                            log=log,
                            offset=np.uint64(length + 1) - np.uint64(top),  # (card at -> its step)
                        )
                        place = cycle[turn] >> row_shift
                        length += np.int64(at) - top
                        top = np.int64(at)
                        if top < n_cards or length >= turn_cap - 1:
                            break  # a card for the exact way, or the cap's
                        # The pile ran out and a card is needed: the deal does not depend on
                        # the discards' order, so the run goes on through it.
                        inline_keyed_deal(
                            key, deals, codes, identities, pile, n_types=n_types, copies=copies, keys=keys
                        )
                        deals += 1
                        top = 0
                        stop = min(n_cards, turn_cap - 1 - length)
                    if length > before:
                        cup = np.int64(ucup)
                        max_cup = np.int64(umax)
                        seat = np.int64(seats[place])
                        for s in range(n):
                            coins[s] = np.int64((word >> (lane * np.uint64(s))) & lane_mask)
            if top == n_cards:
                # Every card is in the discards (or none was dealt yet): a deal of the whole deck.
                keyed_deal(key, deals, codes, identities, pile, n_types=n_types, copies=copies, keys=keys)
                deals += 1
                top = 0
            d = words[np.uint64(pile[top]) >> _ROW_BITS]  # the card's first primitive, and where the rest are
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
            cup, left, right = _primitive(
                d, seat, n, left, right, cup=cup, coins=coins, out_at=out_at, skip=skip, alive=alive, length=length
            )
            if more:
                for k in range(further[card, 2], further[card, 2] + further[card, 0] - 1):
                    cup, left, right = _primitive(
                        ops[k],
                        seat,
                        n,
                        left,
                        right,
                        cup=cup,
                        coins=coins,
                        out_at=out_at,
                        skip=skip,
                        alive=alive,
                        length=length,
                    )
            max_cup = max(max_cup, cup)
            if alive[0] == 1:
                winner = _left(coins, seat, n)
                coins[winner] += cup
                cup = 0
                outcome = WIN
            elif alive[0] == 0:
                outcome = DRAW
            elif length >= turn_cap:
                outcome = UNFINISHED
            if packed is not None:
                _log(packed, steps, coins, n, lane=lane, step=length)
            if outcome >= 0:
                break
        seat = _left(coins, seat, n)
    o_outcome[row] = outcome
    o_winner[row] = winner
    o_length[row] = length
    for s in range(n):
        o_coins[row, s] = coins[s]
        o_out_at[row, s] = out_at[s]
    o_reshuffles[row] = deals - 1
    o_max_cup[row] = max_cup
    feel_columns = (o_lead_changes, o_decided, o_comeback, o_deficit, o_q1, o_q2, o_q3, o_tie_break)
    if packed is not None:
        if steps is None:
            summary, out_steps = feel_lanes.summarise(packed, n, length, winner)
        else:
            if lane > 0:
                _unpack(packed, steps, n, lane=lane, low=lane_mask, last=length)
            summary = feel_record.summarise(steps, n, length, winner)
            out_steps = feel_record.zeros(steps, n, length)
        feel_record.write(feel_columns, row, summary)
        o_out_share[row] = out_steps / (n * length) if length > 0 else 0.0
    else:
        feel_record.write(feel_columns, row, feel.NOT_RECORDED)
        o_out_share[row] = np.nan


def game_scratch(deck: np.ndarray, codes: np.ndarray, params: np.ndarray) -> tuple:
    """A thread's scratch for `_play_rows` (made here, in numpy: compiled allocation code
    would only lengthen the first compile)."""
    n = int(params[P_PLAYERS])
    identities = np.empty(len(deck), np.uint64)
    deck_identities(deck, identities)
    return (
        *deal_scratch(len(deck), int(params[P_TYPES])),  # the deal's (no copies for a deck that fits the ranks)
        identities,
        np.empty(len(deck), np.int32),  # draw pile + discard pile (card codes)
        np.empty(n, np.int64),  # coins
        np.empty(n, np.int64),  # out_at
        np.empty(n, np.bool_),  # skip
        np.empty(1, np.int64),  # players in the game
        np.empty(n, np.uint64),  # fast path: the seats in the game, in order
        codes,
    )


@njit
def _play_rows(
    words, further, ops, table, advance, cycle, params, seed, first, scratch, packed, steps, out, start, stop
):
    """`_play_one` for rows ``start .. stop - 1``, the game inlined into its loop (a call copies
    every array it is passed, and a game's are many); compiled without reference counting."""
    for row in range(start, stop):
        _play_one(
            words,
            further,
            ops,
            table,
            advance,
            cycle=cycle,
            params=params,
            seed=seed,
            game=first + row,
            scratch=scratch,
            packed=packed,
            steps=steps,
            out=out,
            row=row,
        )


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


def lane_bits(rules: FortuneRules, players: int) -> int:
    """Bits per seat in the packed coins, or 0 when the fast path cannot hold this game.

    Up to four seats get 16 bits each (the lanes `feel_lanes` reads the feel figures from in
    vector code), more seats ``64 // players``; the coins in play (all of them may end in one
    seat) must stay below the lane's top bit, which the fast path's test uses, and the table
    (``2**players`` sets of seats in the game) must stay small.
    """
    total = sum(seat_values(rules.start_coins, players))
    if players <= feel_lanes.LANES and total < 1 << (feel_lanes.LANE - 1):
        return feel_lanes.LANE  # (up to four seats: the lanes the feel figures read fastest)
    lane = 64 // players
    return lane if players <= FAST_MAX_PLAYERS and total < 1 << (lane - 1) else 0


def type_bits(n_types: int) -> int:
    """Bits of a fast-table row index for the card: a power of two of rows per drawer."""
    return max(n_types - 1, 1).bit_length()


@register_jitable
def table_row(players, type_bits, in_game, place, card):
    """The fast table's row for ``card`` drawn by the seat at ``place`` among the seats
    ``in_game`` (bits) that are in the game, in seat order (see `fast_table`); in the kernel
    all five are uint64.

    A card's rows for one drawer and one set of seats in the game lie side by side, so a run
    reads a few hundred bytes of the table; the drawers' blocks follow one another in the
    order of their places, a power of two of rows apart (see `_run`). (The card was the highest
    part of the index, which put every card's row in the same cache set: the kernel measured
    3% faster with the card lowest.)
    """
    return ((in_game * players + place) << type_bits) + card


@functools.lru_cache(maxsize=32)
def fast_table(rules: FortuneRules, players: int) -> tuple[np.ndarray, np.ndarray]:
    """The fast path's tables: what each card does to seats that all have enough coins.

    Row `table_row` of ``table`` says what the card does when the seats in ``in_game``
    (bits) are in the game and the seat at a place among them draws, provided no seat pays as
    much as it has (so that nobody goes out): ``F_NEED`` the packed least coins each seat
    must have (its payments plus one), ``F_DELTA`` every seat's change packed (mod 2**64),
    ``F_CUP`` the cup's, ``F_UNIT`` one coin in the drawer's lane.

    ``advance[(in_game * n_types + card) << ROW_BITS]`` (spaced as the pile's codes are, so
    that a code needs no shift: 1.5% faster) is, from bit `STEP_SHIFT`, how many places the
    turn moves on: one, or two when the card skips the next drawer's turn (a HEARTS skip,
    folded in); and in the bits of `TAKE_MASK`, 1 or 2 when the card ends by taking all or
    half of the cup (that amount depends on the cup, so the kernel adds it to the drawer's lane
    with ``F_UNIT``). It depends on the card and the seats in the game but not on the drawer,
    so that the next card's row never waits for a row of the table.

    Worked out by the reference engine's own primitives on seats with more coins than any
    card can move.

    A card that cannot be one fixed change there (it brings someone back, takes the cup
    before other primitives, or leaves a skip for a later turn) gets an ``F_NEED`` no coins
    can meet, so that it always goes the exact way.
    """
    lane = lane_bits(rules, players)
    n_types = len(rules.effects)
    if not lane:
        return np.zeros(1 << ROW_BITS, np.uint64), np.zeros(1, np.uint64)
    bits = type_bits(n_types)
    table = np.zeros((table_row(players, bits, 1 << players, 0, 0), 1 << ROW_BITS), np.uint64)
    advance = np.zeros((1 << players, n_types, 1 << ROW_BITS), np.uint64)
    top = 1 << (lane - 1)
    never = sum(top << (lane * s) for s in range(players))
    table[:, F_NEED] = never
    plenty = 1 << 40  # more coins than any card can move

    def packed(values):
        return sum(v << (lane * s) for s, v in enumerate(values)) % (1 << 64)

    for card in range(n_types):
        effect = rules.effect(card)
        verbs = [next(iter(p)) for p in effect]
        take = 0
        if "take_cup" in verbs:
            if verbs.index("take_cup") != len(verbs) - 1 or not isinstance(effect[-1]["take_cup"], str):
                continue  # the cup taken before other primitives, or N coins of it: the exact way
            take = 1 if effect[-1]["take_cup"] == "all" else 2
            effect = effect[:-1]
        for in_game in range(1, 1 << players):
            seats = [s for s in range(players) if in_game >> s & 1]
            rows = {}
            for drawer in seats if len(seats) > 1 else ():
                game = _Tally(rules, players, Stream(0, 0), deck=[])
                game.coins = [plenty if s in seats else 0 for s in range(players)]
                start = list(game.coins)
                left, right = game.left_of(drawer), game.right_of(drawer)
                for p in effect:
                    game.primitive(drawer, p, left, right)
                skipped = {s for s in range(players) if game.skip[s]}
                came_back = any(game.coins[s] for s in range(players) if s not in seats)
                need = [p + 1 if p else 0 for p in game.paid]
                if came_back or skipped - {left} or max(need) > top or game.cup < 0:
                    continue  # the exact way (the fast path's cup only grows before a take)
                rows[drawer] = (
                    len(skipped) + 1,
                    [
                        packed(need),
                        packed([a - b for a, b in zip(game.coins, start, strict=True)]),
                        game.cup,
                        1 << (lane * drawer),
                    ],
                )
            steps = {step for step, _ in rows.values()}
            if len(steps) != 1:
                continue  # (a skip for some drawers only: the exact way for all)
            advance[in_game, card, 0] = steps.pop() << STEP_SHIFT | take
            for drawer, (_, values) in rows.items():
                table[table_row(players, bits, in_game, seats.index(drawer), card), : len(values)] = values
    return table.ravel(), advance.ravel()


@functools.lru_cache(maxsize=32)
def place_cycle(n_cards: int, type_bits: int) -> np.ndarray:
    """The fast path's places, turn by turn: with ``places`` seats in the game, entry
    ``places * turns + t`` (``turns = 2 * n_cards + FAST_MAX_PLAYERS``) is where the rows of
    the seat at place ``t % places`` start, relative to the first place's: ``(t % places) <<
    (type_bits + ROW_BITS)``. A run (`_run`) starts at ``t`` = the drawer's place and moves on
    one or two a card, through at most ``n_cards`` cards: ``turns`` entries are enough."""
    turns = np.arange(2 * n_cards + FAST_MAX_PLAYERS)
    shift = type_bits + ROW_BITS
    rows = [(turns % max(places, 1)) << shift for places in range(FAST_MAX_PLAYERS + 1)]
    return np.concatenate(rows).astype(np.uint64)


class _Tally(FortuneGame):
    """The reference engine's game with a tally of every seat's payments (for `fast_table`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.paid = [0] * self.players

    def pay(self, payer, payee, amount):
        self.paid[payer] += amount
        return super().pay(payer, payee, amount)


def encode(rules: FortuneRules, players: int, presorted: bool = False, fast: bool = True) -> np.ndarray:
    """The rules' numbers as the kernel's ``params`` array (see the ``P_*`` indices); the
    card effects go as ``rules.op_table()``."""
    params = np.zeros(P_START_COINS + players, np.int64)
    params[P_PLAYERS] = players
    params[P_START_COINS:] = seat_values(rules.start_coins, players)
    params[P_TURN_CAP] = rules.turn_cap
    params[P_PRESORTED] = presorted
    params[P_TYPES] = len(rules.effects)  # (the kernel could read it off its tables: measured 4% slower)
    params[P_LANE] = lane_bits(rules, players)
    params[P_FAST] = fast and params[P_LANE] > 0
    params[P_TYPE_BITS] = type_bits(len(rules.effects))
    return params


COLUMNS = (  # name, dtype, one per seat; the order _play_one unpacks them in
    ("outcome", np.int8, False),
    ("winner", np.int8, False),
    ("length", np.int32, False),
    ("coins", np.int32, True),
    ("out_at", np.int32, True),
    ("reshuffles", np.int32, False),
    ("max_cup", np.int32, False),
    *feel.COLUMNS,
    feel.OUT_SHARE,
)


def play_block(
    rules: FortuneRules, players: int, seed: int, first: int, count: int, policies=None, deck=None, fast=True
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
    fast : bool
        Use the table of precomputed card effects where it holds (`fast_table`); False plays
        every card the exact way, for tests and benchmarks (the games are the same).

    Returns
    -------
    dict of numpy arrays
        ``outcome, winner, length, reshuffles, max_cup`` of shape ``(count,)`` and
        ``coins, out_at`` of shape ``(count, players)``.
    """
    cards = rules.deck_cards() if deck is None else np.asarray(deck, dtype=np.int8)
    out = allocate(COLUMNS, count, players)
    words, further, ops = program(rules)
    params = encode(rules, players, deck is not None, fast)
    codes = cards.astype(np.int32) << ROW_BITS
    table, advance = fast_table(rules, players)
    cycle = place_cycle(len(cards), int(params[P_TYPE_BITS]))  # (the row step the kernel reads from params)
    columns = tuple(out.values())

    def play(start, stop):  # (each thread its own scratch)
        packed = steps = None  # (see _play_one)
        if rules.feel:
            packed = feel_lanes.scratch(rules.turn_cap)
            if params[P_LANE] != feel_lanes.LANE:
                steps = feel_record.scratch(rules.turn_cap, players)
        _play_rows(
            words,
            further,
            ops,
            table,
            advance,
            cycle=cycle,
            params=params,
            seed=np.uint64(seed),
            first=np.int64(first),
            scratch=game_scratch(cards, codes, params),
            packed=packed,
            steps=steps,
            out=columns,
            start=np.int64(start),
            stop=np.int64(stop),
        )

    play_in_blocks(play, count, BLOCK)
    return out
