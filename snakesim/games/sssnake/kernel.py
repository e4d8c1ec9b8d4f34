"""Sssnake in numba: plays many games, each identical to ``reference.play`` for its
(rules, policies, seed, i).

Each seat's grid is a flat array of ``side * side`` cells (row-major, the large card in the
middle): ``occupied`` (0 or 1) and ``free`` (the bit mask of the two edges of a free path, 0
for none). An end is ``(x, y, d)`` in array coordinates. A placement is tried by making it,
searching, and undoing it from a small log, instead of copying the board as the reference
engine does; the search itself is the reference's breadth-first search over empty cells.
"""

from __future__ import annotations

import numba
import numpy as np

from snakesim.core.columns import allocate
from snakesim.core.jit import njit, njit_driver
from snakesim.core.policies import acting, policy_table
from snakesim.core.rng import below, deal_key, deck_identities, keyed_deal, keyed_scratch, seed_lane, seed_stream
from snakesim.core.rules import seat_values
from snakesim.games.sssnake.rules import (
    CARD_KEYS,
    CROSS,
    DICE_LANE,
    DOUBLE,
    GREEDY,
    JOINED,
    MAX_BLOCK,
    MAX_DRAW,
    RANDOM,
    STOCK_DRAW,
    STOCK_WIN,
    STRAIGHT,
    SssnakeRules,
)

N_CARD_TYPES = len(CARD_KEYS)

BLOCK = 64  # games per scratch allocation; any value gives the same results
INF = 1 << 30
MAX_OPTIONS = 4 * MAX_DRAW  # up to MAX_DRAW cards x 2 ends x 2 directions
# The params array: see encode().
P_PLAYERS, P_PRESORTED, P_SIDE, P_ORIGIN, P_BLOCK_W, P_BLOCK_H, P_HEAD, P_TAIL = 0, 1, 2, 3, 4, 5, 6, 9
N_PARAMS = 12
P_HEAD_START = N_PARAMS  # P_HEAD_START + seat: the cards that seat places before the first roll


@njit
def _dx(d):
    return (d == 1) - (d == 3)


@njit
def _dy(d):
    return (d == 2) - (d == 0)


@njit
def _other_edge(mask, e):
    """The edge a free path with edge mask ``mask`` leads to from edge ``e``."""
    rest = mask ^ (1 << e)
    return 0 if rest == 1 else 1 if rest == 2 else 2 if rest == 4 else 3


@njit
def _follow(free, side, x, y, d, use, log, n_log):
    """Pass through free paths from ``(x, y, d)``; with ``use``, clear them (logged for undo).

    Returns ``(x, y, d, n_log)``.
    """
    while True:
        c = y * side + x
        e = (d + 2) & 3
        mask = free[c]
        if not (mask >> e) & 1:
            return x, y, d, n_log
        f = _other_edge(mask, e)
        if use:
            log[n_log, 0] = c
            log[n_log, 1] = mask
            n_log += 1
            free[c] = 0
        x += _dx(f)
        y += _dy(f)
        d = f


@njit
def _joined(ends):
    tx, ty, td = ends[1, 0], ends[1, 1], ends[1, 2]
    return ends[0, 0] == tx - _dx(td) and ends[0, 1] == ty - _dy(td) and ends[0, 2] == (td + 2) & 3


@njit
def _missing(occupied, free, ends, box, side, search):
    """Cards missing on one board: the reference's breadth-first search (INF: no way)."""
    if _joined(ends):
        return 0
    seen, dist, queue, stamp, log, _ = search
    hx, hy = ends[0, 0], ends[0, 1]
    tx, ty, td = ends[1, 0], ends[1, 1], ends[1, 2]
    gx, gy, gd = tx - _dx(td), ty - _dy(td), (td + 2) & 3
    c0 = hy * side + hx
    if occupied[c0]:
        return INF
    x0, x1, y0, y1 = box[0] - 1, box[1] + 1, box[2] - 1, box[3] + 1
    stamp[0] += 1  # marks this search's visits, so ``seen`` never needs clearing
    mark = stamp[0]
    seen[c0] = mark
    dist[c0] = 1
    queue[0, 0] = hx
    queue[0, 1] = hy
    head, tail = 0, 1
    while head < tail:
        cx, cy = queue[head, 0], queue[head, 1]
        head += 1
        k = dist[cy * side + cx]
        for f in range(4):
            x, y, d = cx + _dx(f), cy + _dy(f), f
            n = y * side + x
            if free[n]:
                x, y, d, _ = _follow(free, side, x, y, d, False, log, 0)
                n = y * side + x
            if x == gx and y == gy and d == gd:
                return k
            if x < x0 or x > x1 or y < y0 or y > y1 or occupied[n] or seen[n] == mark:
                continue
            seen[n] = mark
            dist[n] = k + 1
            queue[tail, 0] = x
            queue[tail, 1] = y
            tail += 1
    return INF


@njit
def _free_mask(card, d, f):
    if card == CROSS:
        return (1 << ((d + 1) & 3)) | (1 << ((d + 3) & 3))
    if card == DOUBLE:
        return (1 << d) | (1 << ((f + 2) & 3))
    return 0


@njit
def _sends(card, d, f):
    """Can ``card`` send an end moving ``d`` on in direction ``f``?"""
    if card == STRAIGHT or card == CROSS:
        return f == d
    return (f - d) & 1 == 1


@njit
def _place(occupied, free, ends, box, side, card, end, f, log):
    """Put ``card`` on the cell ``end`` points into, sending it in direction ``f``.

    Returns the number of free paths used (logged in ``log`` for :func:`_undo`).
    """
    x, y, d = ends[end, 0], ends[end, 1], ends[end, 2]
    c = y * side + x
    occupied[c] = 1
    free[c] = _free_mask(card, d, f)
    box[0] = min(box[0], x)
    box[1] = max(box[1], x)
    box[2] = min(box[2], y)
    box[3] = max(box[3], y)
    nx, ny, nd, n_log = _follow(free, side, x + _dx(f), y + _dy(f), f, True, log, 0)
    ends[end, 0] = nx
    ends[end, 1] = ny
    ends[end, 2] = nd
    o = 1 - end
    if ends[o, 0] == x and ends[o, 1] == y:  # the other end pointed into the same cell
        ox, oy, od, n_log = _follow(free, side, x, y, ends[o, 2], True, log, n_log)
        ends[o, 0] = ox
        ends[o, 1] = oy
        ends[o, 2] = od
    return n_log


@njit
def _try(occupied, free, ends, box, side, card, end, f, search, saved):
    """Cards missing after a placement, leaving the board as it was."""
    log = search[4]
    for i in range(2):
        for j in range(3):
            saved[3 * i + j] = ends[i, j]
    for i in range(4):
        saved[6 + i] = box[i]
    c = ends[end, 1] * side + ends[end, 0]
    n_log = _place(occupied, free, ends, box, side, card, end, f, log)
    missing = _missing(occupied, free, ends, box, side, search)
    for i in range(n_log - 1, -1, -1):
        free[log[i, 0]] = log[i, 1]
    occupied[c] = 0
    free[c] = 0
    for i in range(2):
        for j in range(3):
            ends[i, j] = saved[3 * i + j]
    for i in range(4):
        box[i] = saved[6 + i]
    return missing


@njit
def _options(occupied, free, ends, box, side, cards, n_cards, opts, search, saved):
    """List the legal placements of ``cards[:n_cards]`` into ``opts`` rows (card, end, f, missing)."""
    k = 0
    for j in range(n_cards):
        card = cards[j]
        for end in range(2):
            x, y, d = ends[end, 0], ends[end, 1], ends[end, 2]
            if occupied[y * side + x]:
                continue
            for f in range(4):
                if not _sends(card, d, f):
                    continue
                m = _try(occupied, free, ends, box, side, card, end, f, search, saved)
                if m < INF:
                    opts[k, 0] = j
                    opts[k, 1] = end
                    opts[k, 2] = f
                    opts[k, 3] = m
                    k += 1
    return k


@njit
def _pick_least(state, keys, n):
    """The index of the smallest of ``keys[:n]``; ties uniform (one draw)."""
    low = keys[0]
    for i in range(1, n):
        low = min(low, keys[i])
    tied = 0
    for i in range(n):
        tied += keys[i] == low
    r = below(state, tied)
    for i in range(n):
        if keys[i] == low:
            if r == 0:
                return i
            r -= 1
    return -1


@njit
def _place_cards(state, policies, chooser, owner, cards, n_cards, board, side, scratch):
    """``reference.SssnakeGame.place_cards``: returns how many of ``cards`` fit nowhere
    (left at the front of ``cards``) and whether ``owner``'s snake got joined."""
    occupied, free, ends, box, placed = board
    opts, keys, search, saved = scratch
    while n_cards > 0:
        k = _options(occupied[owner], free[owner], ends[owner], box[owner], side, cards, n_cards, opts, search, saved)
        if k == 0:
            return n_cards, False
        policy = acting(state, policies, chooser)
        if policy == RANDOM:
            choice = below(state, k)
        else:
            sign = -1 if policy == GREEDY and owner != chooser else 1
            for i in range(k):
                keys[i] = sign * opts[i, 3]
            choice = _pick_least(state, keys, k)
        j = opts[choice, 0]
        _place(occupied[owner], free[owner], ends[owner], box[owner], side, cards[j], opts[choice, 1], opts[choice, 2],
               search[4])  # fmt: skip
        placed[owner] += 1
        for i in range(j, n_cards - 1):
            cards[i] = cards[i + 1]
        n_cards -= 1
        if _joined(ends[owner]):
            return 0, True
    return 0, False


@njit
def _best_missing(board, seat, card, side, scratch):
    """The fewest cards missing ``seat`` reaches by placing ``card`` (INF: it fits nowhere)."""
    occupied, free, ends, box, _ = board
    opts, _, search, saved = scratch
    one = search[5]
    one[0] = card
    k = _options(occupied[seat], free[seat], ends[seat], box[seat], side, one, 1, opts, search, saved)
    best = INF
    for i in range(k):
        best = min(best, opts[i, 3])
    return best


@njit
def _choose_gift(state, policies, seat, neighbour, drawn, m, board, side, scratch, gift_keys, tied):
    """``reference.SssnakeGame.choose_gift``: the index of the card ``seat`` gives away."""
    policy = acting(state, policies, seat)
    if policy == RANDOM:
        return below(state, m)
    for i in range(m):
        gift_keys[i] = -_best_missing(board, seat, drawn[i], side, scratch)
    low = gift_keys[0]
    for i in range(1, m):
        low = min(low, gift_keys[i])
    n_tied = 0
    for i in range(m):
        if gift_keys[i] == low:
            tied[n_tied] = i
            n_tied += 1
    # Among the cards tied for itself, the neighbour's best use decides (searched only on a tie).
    sign = -1 if policy == GREEDY else 1
    for t in range(n_tied):
        gift_keys[t] = sign * _best_missing(board, neighbour, drawn[tied[t]], side, scratch) if n_tied > 1 else 0
    return tied[_pick_least(state, gift_keys, n_tied)]


@njit
def _play_one(stock_cards, faces, actions, params, policies, seed, game, scratch, out, row):
    """Play game ``game`` and write its results into row ``row`` of the ``out`` columns."""
    n, presorted, side = params[P_PLAYERS], params[P_PRESORTED], params[P_SIDE]
    state, dice, copies, keys, identities, stock, board, spite, drawn, gift_keys, tied, gifts, place_scratch = scratch
    occupied, free, ends, box, placed = board
    o_outcome, o_winner, o_length, o_placed, o_missing, o_spite, o_discarded, o_stock_left, o_unused = out
    seed_stream(state, seed, game)  # the policies' decisions
    seed_lane(dice, seed, game, DICE_LANE)  # the die: its own stream, so decisions never shift it
    n_stock = stock_cards.shape[0]
    if presorted:
        for i in range(n_stock):
            stock[i] = stock_cards[i]
    else:  # coupled across decks: see snakesim.core.rng
        keyed_deal(deal_key(seed, game), 0, stock_cards, identities, stock, N_CARD_TYPES, copies, keys)
    # Every board starts as the large card, its top-left cell at (origin, origin), and two ends.
    bx = by = params[P_ORIGIN]
    for s in range(n):
        for x in range(params[P_BLOCK_W]):
            for y in range(params[P_BLOCK_H]):
                occupied[s, (by + y) * side + bx + x] = 1
        for e in range(2):
            start = P_HEAD if e == 0 else P_TAIL
            ends[s, e, 0] = bx + params[start]
            ends[s, e, 1] = by + params[start + 1]
            ends[s, e, 2] = params[start + 2]
        box[s, 0] = bx
        box[s, 1] = bx + params[P_BLOCK_W] - 1
        box[s, 2] = by
        box[s, 3] = by + params[P_BLOCK_H] - 1
        placed[s] = 0
        spite[s] = 0
    search = place_scratch[2]
    discarded = 0
    winner = -1
    turns = 0
    next_card = 0
    for s in range(n):  # head starts, in seat order (reference.SssnakeGame.head_start)
        m = min(params[P_HEAD_START + s], n_stock - next_card)
        for i in range(m):
            drawn[i] = stock[next_card + i]
        next_card += m
        unplaced, joined = _place_cards(state, policies, s, s, drawn, m, board, side, place_scratch)
        discarded += unplaced
        if joined:
            winner = s
            break
    seat = 0
    while winner < 0 and next_card < n_stock:
        turns += 1
        left = seat + 1 if seat + 1 < n else 0
        mark = faces[below(dice, faces.shape[0])]
        if actions[mark, 2]:  # to the right
            target = seat - 1 if seat > 0 else n - 1
        else:
            target = left
        m = min(actions[mark, 0], n_stock - next_card)
        for i in range(m):
            drawn[i] = stock[next_card + i]
        next_card += m
        if actions[mark, 3]:  # placed by the giver: every card onto the neighbour's snake
            before = placed[target]
            unplaced, joined = _place_cards(state, policies, seat, target, drawn, m, board, side, place_scratch)
            spite[target] += placed[target] - before
            if joined:
                winner = target
            elif unplaced:
                unplaced, joined = _place_cards(state, policies, seat, seat, drawn, unplaced, board, side,
                                                place_scratch)  # fmt: skip
                discarded += unplaced
                if joined:
                    winner = seat
        else:
            n_gifts = min(actions[mark, 1], m - 1)  # the roller keeps at least one
            for k in range(n_gifts):
                g = _choose_gift(state, policies, seat, target, drawn, m, board, side, place_scratch, gift_keys, tied)
                gifts[k] = drawn[g]
                for i in range(g, m - 1):
                    drawn[i] = drawn[i + 1]
                m -= 1
            unplaced, joined = _place_cards(state, policies, seat, seat, drawn, m, board, side, place_scratch)
            if joined:
                winner = seat
            else:
                discarded += unplaced
                if n_gifts > 0:
                    for k in range(n_gifts):
                        drawn[k] = gifts[k]
                    unplaced, joined = _place_cards(state, policies, target, target, drawn, n_gifts, board, side,
                                                    place_scratch)  # fmt: skip
                    if joined:
                        winner = target
                    elif unplaced:
                        unplaced, joined = _place_cards(state, policies, seat, seat, drawn, unplaced, board, side,
                                                        place_scratch)  # fmt: skip
                        discarded += unplaced
                        if joined:
                            winner = seat
        if winner >= 0:
            break
        seat = left
    fewest = INF
    n_fewest = 0
    first = -1
    for s in range(n):
        miss = _missing(occupied[s], free[s], ends[s], box[s], side, search)
        o_missing[row, s] = miss
        o_placed[row, s] = placed[s]
        o_spite[row, s] = spite[s]
        if miss < fewest:
            fewest = miss
            n_fewest = 1
            first = s
        elif miss == fewest:
            n_fewest += 1
    if winner >= 0:
        o_outcome[row] = JOINED
        o_winner[row] = winner
    elif n_fewest == 1:
        o_outcome[row] = STOCK_WIN
        o_winner[row] = first
    else:
        o_outcome[row] = STOCK_DRAW
        o_winner[row] = -1
    o_length[row] = turns
    o_discarded[row] = discarded
    o_stock_left[row] = n_stock - next_card
    total_placed = 0
    for s in range(n):
        total_placed += placed[s]
    o_unused[row] = next_card - total_placed - discarded  # drawn in the turn that joined a snake
    # Clear the used part of every grid for the next game.
    for s in range(n):
        for y in range(box[s, 2] - 1, box[s, 3] + 2):
            for x in range(box[s, 0] - 1, box[s, 1] + 2):
                occupied[s, y * side + x] = 0
                free[s, y * side + x] = 0


@njit_driver
def _play_block(stock_cards, faces, actions, params, policies, seed, first, out):
    count = out[0].shape[0]
    n = params[P_PLAYERS]
    side = params[P_SIDE]
    cells = side * side
    n_blocks = (count + BLOCK - 1) // BLOCK
    for b in numba.prange(n_blocks):
        search = (
            np.zeros(cells, np.int32),  # the search's visit marks
            np.empty(cells, np.int32),  # cards up to each visited cell
            np.empty((cells, 2), np.int32),  # the search's queue of cells (x, y)
            np.zeros(1, np.int64),  # the current visit mark
            np.empty((stock_cards.shape[0] + 2, 2), np.int64),  # free paths used by a trial placement
            np.empty(1, np.int8),  # one card, for _best_missing
        )
        place_scratch = (
            np.empty((MAX_OPTIONS, 4), np.int64),  # legal placements: card, end, direction, missing
            np.empty(MAX_OPTIONS, np.int64),  # their keys
            search,
            np.empty(10, np.int64),  # ends and box saved by _try
        )
        board = (
            np.zeros((n, cells), np.int8),  # occupied cells of each seat's grid
            np.zeros((n, cells), np.int8),  # free paths (edge masks)
            np.empty((n, 2, 3), np.int64),  # head and tail ends
            np.empty((n, 4), np.int64),  # used box: x0, x1, y0, y1
            np.empty(n, np.int64),  # cards placed on each snake
        )
        identities = np.empty(stock_cards.shape[0], np.uint64)
        deck_identities(stock_cards, identities)
        scratch = (
            np.empty(4, np.uint64),  # random stream state (decisions)
            np.empty(4, np.uint64),  # the die's stream state
            np.empty(keyed_scratch(stock_cards.shape[0], N_CARD_TYPES)[0], np.int64),  # keyed shuffle scratch
            np.empty(keyed_scratch(stock_cards.shape[0], N_CARD_TYPES)[1], np.uint64),
            identities,
            np.empty(stock_cards.shape[0], np.int8),  # the stock, in draw order
            board,
            np.empty(n, np.int64),  # cards a neighbour put on each snake
            np.empty(MAX_DRAW, np.int8),  # the cards drawn this turn
            np.empty(MAX_DRAW, np.int64),  # keys of the gift choice
            np.empty(MAX_DRAW, np.int64),  # cards tied in the gift choice
            np.empty(MAX_DRAW, np.int8),  # the gifts chosen this turn
            place_scratch,
        )
        for row in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            _play_one(stock_cards, faces, actions, params, policies, seed, first + row, scratch, out, row)


def encode(rules: SssnakeRules, players: int, presorted: bool = False) -> np.ndarray:
    """The rules as the kernel's ``params`` array (see the ``P_*`` indices).

    The head's and the tail's starting ends ``(x, y, d)`` are relative to the large card's
    top-left cell, which sits at ``(origin, origin)`` of a grid ``side`` cells square.
    """
    params = np.zeros(N_PARAMS + players, np.int64)
    params[P_PLAYERS] = players
    params[P_PRESORTED] = presorted
    # The used box grows at most one cell per card placed; the search looks one cell beyond it.
    params[P_ORIGIN] = rules.deck_size() + 4
    params[P_SIDE] = 2 * params[P_ORIGIN] + MAX_BLOCK
    params[P_BLOCK_W] = rules.block_width
    params[P_BLOCK_H] = rules.block_height
    params[P_HEAD : P_HEAD + 3] = rules.head_end()
    params[P_TAIL : P_TAIL + 3] = rules.tail_end()
    params[P_HEAD_START:] = seat_values(rules.head_start, players)
    return params


COLUMNS = (  # name, dtype, one per seat; the order _play_one unpacks them in
    ("outcome", np.int8, False),
    ("winner", np.int8, False),
    ("length", np.int32, False),
    ("placed", np.int32, True),
    ("missing", np.int32, True),
    ("spite", np.int32, True),
    ("discarded", np.int32, False),
    ("stock_left", np.int32, False),
    ("unused", np.int32, False),
)


def play_block(
    rules: SssnakeRules, players: int, seed: int, first: int, count: int, policies=None, deck=None
) -> dict[str, np.ndarray]:
    """Play games ``first .. first+count-1`` of ``seed`` and return their columns.

    Parameters
    ----------
    rules : SssnakeRules
    players : int
    seed, first, count : int
        The run's seed, the first game index and the number of games.
    policies : array, optional
        The seats' policies (``snakesim.core.policies.policy_table``: a table or plain codes);
        greedy for every seat if None.
    deck : array of int, optional
        A scripted stock (card codes, top first) used instead of the shuffle, for tests.

    Returns
    -------
    dict of numpy arrays
        ``outcome, winner, length, discarded, stock_left, unused`` of shape ``(count,)``;
        ``placed, missing, spite`` of shape ``(count, players)``.
    """
    cards = rules.deck_cards() if deck is None else np.asarray(deck, dtype=np.int8)
    out = allocate(COLUMNS, count, players)
    _play_block(
        cards,
        rules.die_faces(),
        rules.face_actions(),
        encode(rules, players, deck is not None),
        policy_table(policies, players, GREEDY),
        np.uint64(seed),
        np.int64(first),
        tuple(out.values()),
    )
    return out
