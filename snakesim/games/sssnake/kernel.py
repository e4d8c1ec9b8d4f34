"""Sssnake in numba: plays many games, each identical to ``reference.play`` for its
(rules, policies, seed, i).

Each seat's grid is a flat array of ``side * side`` cells (row-major, the large card in the
middle): ``occupied`` (0 or 1) and ``free`` (the bit mask of the two edges of a free path, 0
for none). An end is ``(x, y, d)`` in array coordinates. A placement is tried by making it,
searching, and undoing it from a small log, instead of copying the board as the reference
engine does. The search is the reference's breadth-first search over empty cells, run a whole
distance at a time on bit masks of a window around the box, which each board keeps up to date
(`_frame`, `_placed`); its answers are remembered per board state (`_options`).
"""

from __future__ import annotations

import numpy as np

from snakesim.core import feel, feel_record
from snakesim.core.columns import allocate
from snakesim.core.jit import njit, njit_inner
from snakesim.core.policies import (
    CODE,
    LOOKAHEAD_LANE,
    PLAYOUTS,
    acting,
    add_playout,
    pick_over_greedy,
    policy_table,
    thinks_ahead,
)
from snakesim.core.rng import (
    below,
    deal_key,
    deal_scratch,
    deck_identities,
    full_keyed_deal,
    popcount,
    seed_lane,
    seed_stream,
    shuffle,
)
from snakesim.core.rules import seat_values
from snakesim.core.threads import play_in_blocks
from snakesim.games.sssnake.rules import (
    CARD_KEYS,
    CROSS,
    DICE_LANE,
    DOUBLE,
    EXPERT,
    GREEDY,
    JOINED,
    MAX_BLOCK,
    MAX_DECISIONS,
    MAX_DRAW,
    ORACLE,
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
MASK_BITS = 64  # a window row holds fewer cells than a mask word (a shift by 64 is undefined)
MASK_WORDS = 8  # a window of at most 512 cells is searched on bit masks
# Rows of a board's bit masks: 0 empty cells, 1-4 free-path entries by direction, 5 free paths
# (`_mask_cells`); the search's scratch: cells still open, two frontiers, cells landed on.
OPEN, FRONT, LANDED = 6, 7, 9
MASK_ROWS = 10
M_ANSWERS = N_CARD_TYPES * 8  # a board's remembered search answers: by card kind, end, direction
OWN = M_ANSWERS  # and then its own cards missing, known from the placement that made it (-1: not known)
MARGIN = 2  # cells of a board's bit-mask window around its box (at least 2: see _placed; reframed as it grows)
# The params array: see encode().
P_PLAYERS, P_PRESORTED, P_SIDE, P_ORIGIN, P_BLOCK_W, P_BLOCK_H, P_HEAD, P_TAIL = 0, 1, 2, 3, 4, 5, 6, 9
N_PARAMS = 12
P_HEAD_START = N_PARAMS  # P_HEAD_START + seat: the cards that seat places before the first roll
# A turn's counters (ctx[2]): decisions made, decisions replayed from a script, the roll, the
# roller (-1 outside a turn), the next card after the turn's draws, the next turn's script
# length and forced roll (a replayed or imagined turn), whether a look-ahead seat plays, and a
# paused decision's option count, chooser and greedy's pick.
C_MADE, C_REPLAY, C_ROLL, C_SEAT, C_NEXT, C_SCRIPT, C_FORCED, C_THINKS, C_PAUSE, C_CHOOSER, C_GREEDY = range(11)
N_COUNTS = 11


@njit_inner
def _dx(d):
    return (d == 1) - (d == 3)


@njit_inner
def _dy(d):
    return (d == 2) - (d == 0)


@njit_inner
def _other_edge(mask, e):
    """The edge a free path with edge mask ``mask`` leads to from edge ``e``."""
    rest = mask ^ (1 << e)
    return 0 if rest == 1 else 1 if rest == 2 else 2 if rest == 4 else 3


@njit_inner
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
            log[n_log, 2] = x
            log[n_log, 3] = y
            n_log += 1
            free[c] = 0
        x += _dx(f)
        y += _dy(f)
        d = f


@njit_inner
def _joined(ends):
    tx, ty, td = ends[1, 0], ends[1, 1], ends[1, 2]
    return ends[0, 0] == tx - _dx(td) and ends[0, 1] == ty - _dy(td) and ends[0, 2] == (td + 2) & 3


@njit
def _missing(occupied, free, ends, box, side, search):
    """Cards missing on one board (INF: no way): the reference's breadth-first search, a whole
    distance at a time on a bit mask of the box's cells (`_search_bits`), or cell by cell
    (`_missing_cells`) for a box too large for the mask."""
    if _joined(ends):
        return 0
    # (the box and one cell around it, and a guard bit a row: see `_mask_cells`)
    xb, yb, w, h = box[0] - 1, box[2] - 1, box[1] - box[0] + 4, box[3] - box[2] + 3
    if w >= MASK_BITS or w * h > MASK_WORDS * MASK_BITS:
        return _missing_cells(occupied, free, ends, box, side, search=search)
    _mask_cells(occupied, free, side, search[6], xb, yb=yb, w=w, h=h)
    return _search_bits(occupied, free, ends, box, side, log=search[4], masks=search[6], xb=xb, yb=yb, w=w, h=h)


@njit_inner
def _mask_cells(occupied, free, side, masks, xb, yb, w, h):
    """The cells of the window from ``(xb, yb)``, ``w - 1`` wide and ``h`` high, as bits, ``w``
    a row: ``masks[0]`` the empty ones, ``masks[1 + f]`` those that moving ``f`` enters a free
    path of (through its edge ``(f + 2) & 3``), ``masks[5]`` those holding a free path. The
    last bit of each row stands for no cell and is never set: a guard between the rows, so
    that a shift east or west carries no cell into the next row."""
    one = np.uint64(1)
    for j in range((w * h + 63) >> 6):
        for k in range(6):
            masks[k, j] = 0
    for r in range(h):
        c = (yb + r) * side + xb
        empty = np.uint64(0)  # the row's bits, gathered in a register
        for b in range(w - 1):
            empty |= np.uint64(occupied[c + b] == 0) << np.uint64(b)
            mask = free[c + b]
            if mask:  # (few cells hold a free path)
                i = r * w + b
                j, bit = i >> 6, np.uint64(i & 63)
                m = np.uint64(mask)
                masks[1, j] |= ((m >> np.uint64(2)) & one) << bit
                masks[2, j] |= ((m >> np.uint64(3)) & one) << bit
                masks[3, j] |= (m & one) << bit
                masks[4, j] |= ((m >> one) & one) << bit
                masks[5, j] |= one << bit
        _put_bits(masks, 0, r * w, empty, w - 1)


@njit_inner
def _put_bits(masks, k, i, value, n):
    """Or the ``n`` low bits of ``value`` (``n < 64``) into bits ``i ..`` of ``masks[k]``."""
    j, b = i >> 6, i & 63
    masks[k, j] |= value << np.uint64(b)
    if b + n > 64:
        masks[k, j + 1] |= value >> np.uint64(64 - b)


@njit_inner
def _mask_cell(occupied, free, side, masks, xb, yb, w, x, y):
    """Bring cell ``(x, y)``'s bits in ``masks`` (see `_mask_cells`) up to date."""
    one = np.uint64(1)
    c = y * side + x
    i = (y - yb) * w + x - xb
    word, bit = i >> 6, np.uint64(i & 63)
    keep = ~(one << bit)
    mask = np.uint64(free[c])
    masks[0, word] = (masks[0, word] & keep) | (np.uint64(occupied[c] == 0) << bit)
    masks[1, word] = (masks[1, word] & keep) | (((mask >> np.uint64(2)) & one) << bit)
    masks[2, word] = (masks[2, word] & keep) | (((mask >> np.uint64(3)) & one) << bit)
    masks[3, word] = (masks[3, word] & keep) | ((mask & one) << bit)
    masks[4, word] = (masks[4, word] & keep) | (((mask >> one) & one) << bit)
    masks[5, word] = (masks[5, word] & keep) | (np.uint64(mask != 0) << bit)


@njit_inner
def _mask_placement(occupied, free, side, masks, xb, yb, w, x, y, log, n_log):
    """Bring ``masks`` up to date for the cells a placement at ``(x, y)`` changed: that cell and
    the ``n_log`` free paths it used (logged by `_place`)."""
    _mask_cell(occupied, free, side, masks, xb, yb=yb, w=w, x=x, y=y)
    for i in range(n_log):
        _mask_cell(occupied, free, side, masks, xb, yb=yb, w=w, x=log[i, 2], y=log[i, 3])


@njit_inner
def _search_bits(occupied, free, ends, box, side, log, masks, xb, yb, w, h):
    """`_missing_cells` a whole distance at a time, on the bit masks ``masks`` (see
    `_mask_cells`) of a window from ``(xb, yb)`` (``w`` bits a row, ``h`` rows) holding the box
    and one cell around it.

    The cells one card further are four shifts of the frontier's bits. A move into a free
    path follows it, as the cell search does: those moves (few) are taken one by one. The goal
    is found at the same distance as there, since both expand every cell at distance ``k``
    before any at ``k + 1``.

    The cell search keeps to the box and one cell around it; this one to the mask words that
    hold those rows, which may take in a few empty cells beyond (rows are kept apart by their
    guard bits). That finds the same distances: every cell beyond the box is empty, so a
    path through such cells, moved onto the ring of cells around the box (each coordinate
    clamped to it), is still a path, and no longer.
    """
    hx, hy = ends[0, 0], ends[0, 1]
    tx, ty, td = ends[1, 0], ends[1, 1], ends[1, 2]
    gx, gy, gd = tx - _dx(td), ty - _dy(td), (td + 2) & 3
    if occupied[hy * side + hx]:
        return INF
    x0, x1, y0, y1 = box[0] - 1, box[1] + 1, box[2] - 1, box[3] + 1
    one = np.uint64(1)
    top = np.uint64(63)
    down, up = np.uint64(w), np.uint64(64 - w)
    lo, hi = ((y0 - yb) * w + x0 - xb) >> 6, ((y1 - yb) * w + x1 - xb) >> 6
    # Rows OPEN: cells still open (empty, not reached); FRONT and FRONT + 1 take turns as this
    # distance's cells and the next's; LANDED: cells reached through free paths.
    for j in range(lo, hi + 1):
        masks[OPEN, j] = masks[0, j]
        masks[FRONT, j] = 0
        masks[LANDED, j] = 0
    i = (hy - yb) * w + hx - xb
    start = one << np.uint64(i & 63)
    masks[FRONT, i >> 6] = start
    masks[OPEN, i >> 6] &= ~start
    # The goal is reached by a move in its direction from the cell behind it, unless that move
    # enters a free path (it is then followed, as any other).
    goal = (gy - yb) * w + gx - xb
    src = goal - (-w if gd == 0 else 1 if gd == 1 else w if gd == 2 else -1)
    src_word, src_bit = src >> 6, one << np.uint64(src & 63)
    by_step = lo <= src_word <= hi and not masks[1 + gd, goal >> 6] & (one << np.uint64(goal & 63))
    cur, nxt = FRONT, FRONT + 1
    k = 1
    while True:
        if by_step and masks[cur, src_word] & src_bit:
            return k
        more = np.uint64(0)
        jumped = False
        before = np.uint64(0)
        front = masks[cur, lo]
        for j in range(lo, hi + 1):
            # Word j of the cells one step from this distance's, in each direction.
            after = masks[cur, j + 1] if j < hi else np.uint64(0)
            north = (front >> down) | (after << up)
            south = (front << down) | (before >> up)
            east = (front << one) | (before >> top)
            west = (front >> one) | (after << top)
            near = north | east | south | west
            new = near & masks[OPEN, j]
            masks[nxt, j] = new
            masks[OPEN, j] &= ~new
            more |= new
            before, front = front, after
            if not near & masks[5, j]:
                continue  # (no free path next to this distance's cells: the usual case)
            for f in range(4):
                moved = north if f == 0 else east if f == 1 else south if f == 2 else west
                jumps = moved & masks[1 + f, j]
                while jumps:
                    low = jumps & (~jumps + one)
                    jumps ^= low
                    at = j * 64 + _bit_index(low)
                    x, y, d, _ = _follow(free, side, xb + at % w, yb + at // w, f, use=False, log=log, n_log=0)
                    if x == gx and y == gy and d == gd:
                        return k
                    i = (y - yb) * w + x - xb  # (a free path leads into the box or its ring)
                    bit = one << np.uint64(i & 63)
                    if masks[OPEN, i >> 6] & bit:  # (empty and not yet reached)
                        masks[LANDED, i >> 6] |= bit  # (kept apart: words after j are yet to be written)
                        masks[OPEN, i >> 6] &= ~bit
                        more |= bit
                        jumped = True
        if jumped:
            for j in range(lo, hi + 1):
                masks[nxt, j] |= masks[LANDED, j]
                masks[LANDED, j] = 0
        if more == 0:
            return INF
        cur, nxt = nxt, cur
        k += 1


@njit_inner
def _bit_index(bit):
    """The index of the single set bit of ``bit``."""
    return np.int64(popcount(bit - np.uint64(1)))


@njit
def _missing_cells(occupied, free, ends, box, side, search):
    """Cards missing on one board: the reference's breadth-first search, cell by cell (INF: no way)."""
    if _joined(ends):
        return 0
    seen, dist, queue, stamp, log = search[0], search[1], search[2], search[3], search[4]
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
                x, y, d, _ = _follow(free, side, x, y, d, use=False, log=log, n_log=0)
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


@njit_inner
def _free_mask(card, d, f):
    if card == CROSS:
        return (1 << ((d + 1) & 3)) | (1 << ((d + 3) & 3))
    if card == DOUBLE:
        return (1 << d) | (1 << ((f + 2) & 3))
    return 0


@njit_inner
def _sends(card, d, f):
    """Can ``card`` send an end moving ``d`` on in direction ``f``?"""
    if card == STRAIGHT or card == CROSS:
        return f == d
    return (f - d) & 1 == 1


@njit_inner
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
    nx, ny, nd, n_log = _follow(free, side, x + _dx(f), y + _dy(f), f, use=True, log=log, n_log=0)
    ends[end, 0] = nx
    ends[end, 1] = ny
    ends[end, 2] = nd
    o = 1 - end
    if ends[o, 0] == x and ends[o, 1] == y:  # the other end pointed into the same cell
        ox, oy, od, n_log = _follow(free, side, x, y, ends[o, 2], use=True, log=log, n_log=n_log)
        ends[o, 0] = ox
        ends[o, 1] = oy
        ends[o, 2] = od
    return n_log


@njit
def _frame(board, s, side):
    """(Re)build seat ``s``'s bit masks (see `_mask_cells`) in a window ``MARGIN`` cells around
    its box, or mark it as having none (``window[s, 2] = -1``: too large; searched cell by cell)."""
    box, masks, window = board[3][s], board[6][s], board[7][s]
    w, h = box[1] - box[0] + 2 + 2 * MARGIN, box[3] - box[2] + 1 + 2 * MARGIN  # (w: a guard bit a row)
    if w >= MASK_BITS or w * h > MASK_WORDS * MASK_BITS:
        window[2] = -1
        return
    window[0], window[1], window[2], window[3] = box[0] - MARGIN, box[2] - MARGIN, w, h
    _mask_cells(board[0][s], board[1][s], side, masks, window[0], yb=window[1], w=w, h=h)


@njit_inner
def _placed(board, s, side, x, y, log, n_log):
    """Seat ``s``'s board got a card at ``(x, y)`` (using the ``n_log`` free paths logged):
    bring its bit masks up to date, or frame them anew when the box comes within two cells of
    the window's edge (a trial placement, and the search one cell beyond, must fit)."""
    box, window = board[3][s], board[7][s]
    xb, yb, w, h = window[0], window[1], window[2], window[3]  # (w - 1 cells a row: a guard bit)
    if w < 0 or box[0] - 2 < xb or box[1] + 3 >= xb + w or box[2] - 2 < yb or box[3] + 2 >= yb + h:
        _frame(board, s, side)
        return
    _mask_placement(board[0][s], board[1][s], side, board[6][s], xb, yb=yb, w=w, x=x, y=y, log=log, n_log=n_log)


@njit_inner
def _missing_on(board, s, side, search):
    """`_missing` of seat ``s``'s board, on its bit masks when it has them."""
    occupied, free, ends, box, window = board[0][s], board[1][s], board[2][s], board[3][s], board[7][s]
    if _joined(ends):
        return 0
    if window[2] < 0:
        return _missing_cells(occupied, free, ends, box, side, search=search)
    return _search_bits(
        occupied,
        free,
        ends,
        box,
        side,
        log=search[4],
        masks=board[6][s],
        xb=window[0],
        yb=window[1],
        w=window[2],
        h=window[3],
    )


@njit
def _options(board, owner, side, cards, n_cards, opts, search, saved):
    """List the legal placements of ``cards[:n_cards]`` on ``owner``'s board into ``opts`` rows
    (card, end, f, missing).

    Each placement is tried on the board itself and undone: the card is put down (`_place`,
    which logs the free paths it uses in ``search[4]``), the board's bit masks are brought up
    to date for the few cells it changed (a placement that leaves no free path and uses none
    only clears its cell's bit), the search runs on them (`_search_bits`; `_missing` on a board
    too large for masks), and the log and ``saved`` (the ends and the box) put everything back.

    A placement's answer depends only on the board and (card kind, end, direction), so it is
    remembered in the board's ``memo`` until the board changes: cards of a kind drawn twice,
    and a board searched again in the same turn (a gift weighed, then placed), cost one search.

    (The trial is written out here: as a function numba inlined it cost the first compile
    0.2 s more, and as a call it copied every array passed, field by field, which cost a greedy
    turn more than a tenth of its time; `_search_bits` is passed the one scratch array it needs
    for that reason.)
    """
    occupied, free, ends, box, memo = board[0][owner], board[1][owner], board[2][owner], board[3][owner], board[5]
    masks, window, log = board[6][owner], board[7][owner], search[4]
    xb, yb, w, h = window[0], window[1], window[2], window[3]  # (w - 1 cells a row: a guard bit)
    k = 0
    for j in range(n_cards):
        card = cards[j]
        for end in range(2):
            x, y, d = ends[end, 0], ends[end, 1], ends[end, 2]
            c = y * side + x  # (the cell the end points into)
            if occupied[c]:
                continue
            for f in range(4):
                if not _sends(card, d, f):
                    continue
                at = card * 8 + end * 4 + f
                m = memo[owner, at]
                if m < 0:  # the trial
                    for e in range(2):
                        for t in range(3):
                            saved[3 * e + t] = ends[e, t]
                    for t in range(4):
                        saved[6 + t] = box[t]
                    n_log = _place(occupied, free, ends, box, side, card=card, end=end, f=f, log=log)
                    simple = free[c] == 0 and n_log == 0
                    i = (y - yb) * w + x - xb
                    word, bit = i >> 6, np.uint64(1) << np.uint64(i & 63)
                    if w > 0:
                        if simple:
                            masks[0, word] &= ~bit
                        else:
                            _mask_placement(occupied, free, side, masks, xb, yb=yb, w=w, x=x, y=y, log=log, n_log=n_log)
                        m = (
                            0
                            if _joined(ends)
                            else _search_bits(
                                occupied, free, ends, box, side, log=log, masks=masks, xb=xb, yb=yb, w=w, h=h
                            )
                        )
                    else:
                        m = _missing(occupied, free, ends, box, side, search=search)
                    for t in range(n_log - 1, -1, -1):  # (undone)
                        free[log[t, 0]] = log[t, 1]
                    occupied[c] = 0
                    free[c] = 0
                    if w > 0:
                        if simple:
                            masks[0, word] |= bit
                        else:
                            _mask_placement(occupied, free, side, masks, xb, yb=yb, w=w, x=x, y=y, log=log, n_log=n_log)
                    for e in range(2):
                        for t in range(3):
                            ends[e, t] = saved[3 * e + t]
                    for t in range(4):
                        box[t] = saved[6 + t]
                    memo[owner, at] = m
                if m < INF:
                    opts[k, 0] = j
                    opts[k, 1] = end
                    opts[k, 2] = f
                    opts[k, 3] = m
                    k += 1
    return k


@njit_inner
def _forget(memo, seat):
    """``seat``'s board changed: its remembered search answers no longer hold."""
    for i in range(M_ANSWERS + 1):
        memo[seat, i] = -1


@njit_inner
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


@njit_inner
def _place_cards(state, policies, chooser, owner, cards, n_cards, board, side, scratch, ctx):
    """``reference.SssnakeGame.place_cards``: returns how many of ``cards`` fit nowhere
    (left at the front of ``cards``) and whether ``owner``'s snake got joined."""
    occupied, free, ends, box, placed, memo = board[0], board[1], board[2], board[3], board[4], board[5]
    opts, keys, search, saved = scratch
    while n_cards > 0:
        k = _options(board, owner, side, cards, n_cards, opts=opts, search=search, saved=saved)
        if k == 0:
            return n_cards, False
        choice = _replayed(ctx)
        if choice < 0:
            policy = _simple(state, policies, chooser)
            if policy == RANDOM:
                choice = below(state, k)
            else:
                sign = -1 if policy == GREEDY and owner != chooser else 1
                for i in range(k):
                    keys[i] = sign * opts[i, 3]
                choice = _pick_least(state, keys, k)
            if _pauses(ctx, policies, chooser, k, choice):
                return n_cards, False
        _note(ctx, choice)
        j = opts[choice, 0]
        x, y = ends[owner, opts[choice, 1], 0], ends[owner, opts[choice, 1], 1]
        n_log = _place(occupied[owner], free[owner], ends[owner], box[owner], side, card=cards[j], end=opts[choice, 1],
                       f=opts[choice, 2], log=search[4])  # fmt: skip
        placed[owner] += 1
        _forget(memo, owner)
        memo[owner, OWN] = opts[choice, 3]  # (the trial's answer for this very board)
        _placed(board, owner, side, x, y, log=search[4], n_log=n_log)
        for i in range(j, n_cards - 1):
            cards[i] = cards[i + 1]
        n_cards -= 1
        if _joined(ends[owner]):
            return 0, True
    return 0, False


@njit_inner
def _simple(state, policies, chooser):
    """The policy ``chooser`` decides by now (``reference.SssnakeGame.simple_policy``)."""
    policy = acting(state, policies, chooser)
    return GREEDY if policy >= EXPERT else policy


@njit_inner
def _note(ctx, choice):
    made, _, counts = ctx
    made[counts[C_MADE]] = choice
    counts[C_MADE] += 1


@njit_inner
def _replayed(ctx):
    """The option a replayed decision takes (the script's), else -1."""
    _, script, counts = ctx
    if counts[C_MADE] < counts[C_REPLAY]:
        return script[counts[C_MADE]]
    return -1


@njit_inner
def _pauses(ctx, policies, chooser, k, choice):
    """Whether the turn stops at this decision for a look-ahead seat (in a turn, with more
    than one option): greedy's ``choice`` is kept for ``_look_ahead``, and the game replays
    the turn with the look-ahead's answer (``reference.SssnakeGame.decide``)."""
    counts = ctx[2]
    if counts[C_THINKS] and counts[C_SEAT] >= 0 and policies[chooser, CODE] >= EXPERT and k > 1:
        counts[C_PAUSE] = k
        counts[C_CHOOSER] = chooser
        counts[C_GREEDY] = choice
        return True
    return False


@njit_inner
def _best_missing(board, seat, card, side, scratch):
    """The fewest cards missing ``seat`` reaches by placing ``card`` (INF: it fits nowhere)."""
    opts, _, search, saved = scratch
    one = search[5]
    one[0] = card
    k = _options(board, seat, side, one, 1, opts=opts, search=search, saved=saved)
    best = INF
    for i in range(k):
        best = min(best, opts[i, 3])
    return best


@njit_inner
def _choose_gift(state, policies, seat, neighbour, drawn, m, board, side, scratch, gift_keys, tied, ctx):
    """``reference.SssnakeGame.choose_gift``: the index of the card ``seat`` gives away (a
    paused turn: see ``_pauses``)."""
    choice = _replayed(ctx)
    if choice < 0:
        choice = _own_gift(
            state,
            policies,
            seat,
            neighbour,
            drawn,
            m=m,
            board=board,
            side=side,
            scratch=scratch,
            gift_keys=gift_keys,
            tied=tied,
        )
        if _pauses(ctx, policies, seat, m, choice):
            return choice
    _note(ctx, choice)
    return choice


@njit_inner
def _own_gift(state, policies, seat, neighbour, drawn, m, board, side, scratch, gift_keys, tied):
    policy = _simple(state, policies, seat)
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


@njit_inner
def _turn(state, dice, policies, params, faces, actions, stock, next_card, seat, board, spite, bufs, place_scratch,
          ctx):  # fmt: skip
    """``seat`` rolls, draws and does what the mark says (``reference.SssnakeGame.turn``).

    Returns ``(next_card, cards discarded, winner or -1)``. A turn paused at a look-ahead
    seat's decision (``counts[C_PAUSE] > 0``) returns at once; the caller replays it.
    """
    n, side = params[P_PLAYERS], params[P_SIDE]
    n_stock = stock.shape[0]
    drawn, gift_keys, tied, gifts = bufs
    counts = ctx[2]
    counts[C_SEAT] = seat
    counts[C_MADE] = 0
    counts[C_REPLAY] = counts[C_SCRIPT]  # a replayed turn's script serves it alone
    counts[C_SCRIPT] = 0
    counts[C_ROLL] = counts[C_FORCED] if counts[C_FORCED] >= 0 else below(dice, faces.shape[0])
    counts[C_FORCED] = -1
    mark = faces[counts[C_ROLL]]
    discarded = 0
    winner = -1
    left = seat + 1 if seat + 1 < n else 0
    if actions[mark, 2]:  # to the right
        target = seat - 1 if seat > 0 else n - 1
    else:
        target = left
    m = min(actions[mark, 0], n_stock - next_card)
    for i in range(m):
        drawn[i] = stock[next_card + i]
    next_card += m
    counts[C_NEXT] = next_card
    placed = board[4]
    if actions[mark, 3]:  # placed by the giver: every card onto the neighbour's snake
        before = placed[target]
        unplaced, joined = _place_cards(
            state, policies, seat, target, drawn, n_cards=m, board=board, side=side, scratch=place_scratch, ctx=ctx
        )
        if counts[C_PAUSE]:
            return next_card, discarded, winner
        spite[target] += placed[target] - before
        if joined:
            winner = target
        elif unplaced:
            unplaced, joined = _place_cards(
                state,
                policies,
                seat,
                seat,
                drawn,
                n_cards=unplaced,
                board=board,
                side=side,
                scratch=place_scratch,
                ctx=ctx,
            )
            discarded += unplaced
            if joined:
                winner = seat
        return next_card, discarded, winner
    n_gifts = min(actions[mark, 1], m - 1)  # the roller keeps at least one
    for k in range(n_gifts):
        g = _choose_gift(
            state,
            policies,
            seat,
            target,
            drawn,
            m=m,
            board=board,
            side=side,
            scratch=place_scratch,
            gift_keys=gift_keys,
            tied=tied,
            ctx=ctx,
        )
        if counts[C_PAUSE]:
            return next_card, discarded, winner
        gifts[k] = drawn[g]
        for i in range(g, m - 1):
            drawn[i] = drawn[i + 1]
        m -= 1
    unplaced, joined = _place_cards(
        state, policies, seat, seat, drawn, n_cards=m, board=board, side=side, scratch=place_scratch, ctx=ctx
    )
    if counts[C_PAUSE]:
        return next_card, discarded, winner
    if joined:
        return next_card, discarded, seat
    discarded += unplaced
    if n_gifts > 0:
        for k in range(n_gifts):
            drawn[k] = gifts[k]
        unplaced, joined = _place_cards(
            state,
            policies,
            target,
            target,
            drawn,
            n_cards=n_gifts,
            board=board,
            side=side,
            scratch=place_scratch,
            ctx=ctx,
        )
        if counts[C_PAUSE]:
            return next_card, discarded, winner
        if joined:
            winner = target
        elif unplaced:
            unplaced, joined = _place_cards(
                state,
                policies,
                seat,
                seat,
                drawn,
                n_cards=unplaced,
                board=board,
                side=side,
                scratch=place_scratch,
                ctx=ctx,
            )
            discarded += unplaced
            if joined:
                winner = seat
    return next_card, discarded, winner


@njit_inner
def _copy_board(board, to, n, side):
    """Copy ``board`` (occupied, free, ends, box, placed) into ``to``: first clearing ``to``'s
    used box and its margin, then copying ``board``'s."""
    occupied, free, ends, box, placed, memo, masks, window = board
    t_occupied, t_free, t_ends, t_box, t_placed, t_memo, t_masks, t_window = to
    for s in range(n):
        for i in range(M_ANSWERS + 1):  # (the same board: the same answers and bit masks)
            t_memo[s, i] = memo[s, i]
        for k in range(OPEN):  # (the rest is the search's scratch)
            for j in range(MASK_WORDS):
                t_masks[s, k, j] = masks[s, k, j]
        for j in range(4):
            t_window[s, j] = window[s, j]
        for y in range(t_box[s, 2] - 1, t_box[s, 3] + 2):
            for x in range(t_box[s, 0] - 1, t_box[s, 1] + 2):
                t_occupied[s, y * side + x] = 0
                t_free[s, y * side + x] = 0
        for y in range(box[s, 2] - 1, box[s, 3] + 2):
            for x in range(box[s, 0] - 1, box[s, 1] + 2):
                t_occupied[s, y * side + x] = occupied[s, y * side + x]
                t_free[s, y * side + x] = free[s, y * side + x]
        for e in range(2):
            for j in range(3):
                t_ends[s, e, j] = ends[s, e, j]
        for j in range(4):
            t_box[s, j] = box[s, j]
        t_placed[s] = placed[s]


@njit_inner
def _save(board, spite, next_card, saved, n, side):
    """Keep the turn as it stands before its roll, for a look-ahead to imagine it."""
    s_board, s_spite, s_next = saved
    _copy_board(board, s_board, n, side)
    for s in range(n):
        s_spite[s] = spite[s]
    s_next[0] = next_card


@njit_inner
def _look_ahead(ctx, think, world, policies, seat, k):
    """The option a look-ahead seat takes among ``k`` (``reference.SssnakeGame.look_ahead``),
    greedy's being ``counts[C_GREEDY]``.

    Flat Monte Carlo: K times, the cards not yet drawn are sorted by type and shuffled (the
    oracle keeps their order); from that stock, for each option, the turn is imagined again
    from its saved start: the same roll, the same cards, the decisions made so far, then this
    option; the rest is played by greedy players drawing from ``look``: a win scores 2, a
    draw the seat shares 1. An option replaces greedy's only if it beats it beyond the noise
    (``beats_greedy``): the one with the largest gain, the first listed on a tie.
    """
    made, _, counts = ctx
    look, saved, imagined, i_ctx, greedy, got, unseen, d_stock, gain, squares = think
    params, faces, actions, stock = world
    s_board, s_spite, s_next = saved
    p_board, p_spite, p_bufs, p_scratch = imagined
    _, i_script, i_counts = i_ctx
    n, side = params[P_PLAYERS], params[P_SIDE]
    n_stock = stock.shape[0]
    next_card = counts[C_NEXT]
    g = counts[C_GREEDY]
    for j in range(k):
        gain[j] = 0
        squares[j] = 0
    playouts = policies[seat, PLAYOUTS]
    oracle = policies[seat, CODE] == ORACLE
    for _sample in range(playouts):
        for i in range(n_stock):
            d_stock[i] = stock[i]
        if not oracle:  # the cards not yet drawn, by type (all the seat knows of them), shuffled
            for t in range(N_CARD_TYPES):
                unseen[t] = 0
            for i in range(next_card, n_stock):
                unseen[stock[i]] += 1
            i = next_card
            for t in range(N_CARD_TYPES):
                for _ in range(unseen[t]):
                    d_stock[i] = t
                    i += 1
            shuffle(look, d_stock, n_stock - next_card, next_card)
        for option in range(k):
            _copy_board(s_board, p_board, n, side)
            for t in range(n):
                p_spite[t] = s_spite[t]
            for i in range(counts[C_MADE]):
                i_script[i] = made[i]
            i_script[counts[C_MADE]] = option
            i_counts[C_SCRIPT] = counts[C_MADE] + 1
            i_counts[C_FORCED] = counts[C_ROLL]
            i_counts[C_THINKS] = 0
            i_counts[C_PAUSE] = 0
            at = s_next[0]
            who = counts[C_SEAT]
            winner = -1
            while winner < 0 and at < n_stock:
                at, _, winner = _turn(
                    look,
                    look,
                    greedy,
                    params,
                    faces,
                    actions=actions,
                    stock=d_stock,
                    next_card=at,
                    seat=who,
                    board=p_board,
                    spite=p_spite,
                    bufs=p_bufs,
                    place_scratch=p_scratch,
                    ctx=i_ctx,
                )
                who = who + 1 if who + 1 < n else 0
            got[option] = _score(p_board, p_scratch[2], winner, seat, n, side=side)
        add_playout(got, g, gain, squares, k)
    return pick_over_greedy(gain, squares, g, k, playouts)


@njit_inner
def _score(board, search, winner, seat, n, side):
    """An imagined game's score for ``seat``: 2 a win, 1 a share of a draw, else 0."""
    if winner >= 0:
        return 2 if winner == seat else 0
    fewest = INF
    tied = 0
    mine = 0
    for s in range(n):
        miss = _missing_on(board, s, side, search)
        if s == seat:
            mine = miss
        if miss < fewest:
            fewest = miss
            tied = 1
        elif miss == fewest:
            tied += 1
    if mine != fewest:
        return 0
    return 2 if tied == 1 else 1


@njit_inner
def _standings(board, n, side, search, standing, searched):
    """Bring each seat's ``standing`` (minus its cards missing) up to date, searching only the
    boards that got a card since they were last searched (``searched``: cards placed then)."""
    placed, memo = board[4], board[5]
    for s in range(n):
        if placed[s] != searched[s]:
            own = memo[s, OWN]  # (known from the placement's trial, most often: no search)
            standing[s] = -(own if own >= 0 else _missing_on(board, s, side, search))
            searched[s] = placed[s]


@njit(vectorize=False)  # (see jit.njit)
def _play_rows(stock_cards, faces, actions, params, policies, seed, first, scratch, think, tracking, out, start, stop):
    """Play games ``first + start .. first + stop - 1`` into rows ``start .. stop - 1`` of the
    ``out`` columns: one function, so that its code is compiled once, not once more for a
    caller's loop.

    ``think`` is the look-ahead's scratch (`think_scratch`), or None when no seat thinks
    ahead: the look-ahead is then not even compiled. Likewise ``tracking``, the feel figures'
    record, None when they are off: each seat's standing (minus the cards missing) and the
    cards placed on its snake when it was last searched, so that only a changed board is
    searched; then `feel_record.scratch`."""
    n, presorted, side = params[P_PLAYERS], params[P_PRESORTED], params[P_SIDE]
    state, dice, copies, keys, identities, stock, board, spite, bufs, place_scratch, ctx = scratch
    occupied, free, ends, box, placed, memo = board[0], board[1], board[2], board[3], board[4], board[5]
    drawn = bufs[0]
    o_outcome, o_winner, o_length, o_placed, o_missing, o_spite, o_discarded, o_stock_left, o_unused = out[:9]
    for row in range(start, stop):
        game = first + row
        seed_stream(state, seed, game)  # the policies' decisions
        seed_lane(dice, seed, game, DICE_LANE)  # the die: its own stream, so decisions never shift it
        if think is not None:
            seed_lane(think[0], seed, game, LOOKAHEAD_LANE)  # the look-ahead policies' imagined games
        n_stock = stock_cards.shape[0]
        if presorted:
            for i in range(n_stock):
                stock[i] = stock_cards[i]
        else:  # coupled across decks: see snakesim.core.rng
            full_keyed_deal(
                deal_key(seed, game), 0, stock_cards, identities, stock, n_types=N_CARD_TYPES, copies=copies, keys=keys
            )
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
            _forget(memo, s)
            _frame(board, s, side)
        counts = ctx[2]
        for i in range(N_COUNTS):
            counts[i] = 0
        counts[C_SEAT] = -1
        counts[C_FORCED] = -1
        if think is not None:
            for s in range(n):
                if policies[s, CODE] >= EXPERT:
                    counts[C_THINKS] = 1
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
            counts[C_MADE] = 0
            unplaced, joined = _place_cards(
                state, policies, s, s, drawn, n_cards=m, board=board, side=side, scratch=place_scratch, ctx=ctx
            )
            discarded += unplaced
            if joined:
                winner = s
                break
        if tracking is not None:
            standing, searched, history = tracking
            for s in range(n):
                searched[s] = -1
            _standings(board, n, side, search, standing, searched=searched)
            feel_record.store(history, standing, 1, n, 0)
        seat = 0
        while winner < 0 and next_card < n_stock:
            turns += 1
            if think is not None and counts[C_THINKS]:  # the turn before its roll, for a look-ahead to imagine
                _save(board, spite, next_card, think[1], n, side=side)
            while True:
                after, lost, winner = _turn(
                    state,
                    dice,
                    policies,
                    params,
                    faces,
                    actions=actions,
                    stock=stock,
                    next_card=next_card,
                    seat=seat,
                    board=board,
                    spite=spite,
                    bufs=bufs,
                    place_scratch=place_scratch,
                    ctx=ctx,
                )
                if think is None or not counts[C_PAUSE]:
                    break
                # A look-ahead seat's decision: think, then replay the turn from its start with the
                # decisions made so far and this one (replayed decisions draw nothing).
                k, chooser, q = counts[C_PAUSE], counts[C_CHOOSER], counts[C_MADE]
                counts[C_PAUSE] = 0
                made, script, _ = ctx
                choice = _look_ahead(ctx, think, (params, faces, actions, stock), policies, chooser, k=k)
                for i in range(q):
                    script[i] = made[i]
                script[q] = choice
                counts[C_SCRIPT] = q + 1
                counts[C_FORCED] = counts[C_ROLL]
                _copy_board(think[1][0], board, n, side)
                for s in range(n):
                    spite[s] = think[1][1][s]
            counts[C_SEAT] = -1
            next_card = after
            discarded += lost
            if tracking is not None:
                standing, searched, history = tracking
                _standings(board, n, side, search, standing, searched=searched)
                feel_record.store(history, standing, 1, n, turns)
            if winner >= 0:
                break
            seat = seat + 1 if seat + 1 < n else 0
        fewest = INF
        n_fewest = 0
        fewest_seat = -1
        for s in range(n):
            miss = _missing_on(board, s, side, search)
            o_missing[row, s] = miss
            o_placed[row, s] = placed[s]
            o_spite[row, s] = spite[s]
            if miss < fewest:
                fewest = miss
                n_fewest = 1
                fewest_seat = s
            elif miss == fewest:
                n_fewest += 1
        if winner >= 0:
            o_outcome[row] = JOINED
            o_winner[row] = winner
        elif n_fewest == 1:
            o_outcome[row] = STOCK_WIN
            o_winner[row] = fewest_seat
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
        if tracking is not None:
            feel_record.write(out[9:], row, feel_record.summarise(tracking[2], n, turns, o_winner[row]))
        else:
            feel_record.write(out[9:], row, feel.NOT_RECORDED)
        # Clear the used part of every grid for the next game.
        for s in range(n):
            for y in range(box[s, 2] - 1, box[s, 3] + 2):
                for x in range(box[s, 0] - 1, box[s, 1] + 2):
                    occupied[s, y * side + x] = 0
                    free[s, y * side + x] = 0


def _grids(n, cells, origin):
    """Empty grids for n seats: occupied cells, free paths (edge masks), head and tail ends,
    used box (x0, x1, y0, y1; at the origin), cards placed on each snake, and the search
    answers remembered for each board (by card kind, end and direction; -1: not searched), and
    each board's bit masks with their window (see `_frame`)."""
    return (np.zeros((n, cells), np.int8), np.zeros((n, cells), np.int8), np.empty((n, 2, 3), np.int64),
            np.full((n, 4), origin, np.int64), np.empty(n, np.int64), np.full((n, M_ANSWERS + 1), -1, np.int64),
            np.zeros((n, MASK_ROWS, MASK_WORDS), np.uint64), np.full((n, 4), -1, np.int64))  # fmt: skip


def _turn_buffers():
    """A turn's cards drawn, gift keys, cards tied for a gift, gifts chosen."""
    return (np.empty(MAX_DRAW, np.int8), np.empty(MAX_DRAW, np.int64), np.empty(MAX_DRAW, np.int64),
            np.empty(MAX_DRAW, np.int8))  # fmt: skip


def _counters():
    """A turn's decisions made, its script (the decisions a replay repeats) and its counters."""
    return np.empty(MAX_DECISIONS, np.int64), np.empty(MAX_DECISIONS, np.int64), np.empty(N_COUNTS, np.int64)


def _place_scratch(cells, n_stock):
    """A placement's scratch: its options and their keys, the search's, and a trial's (`_options`)."""
    search = (
        np.zeros(cells, np.int32),  # the search's visit marks
        np.empty(cells, np.int32),  # cards up to each visited cell
        np.empty((cells, 2), np.int32),  # the search's queue of cells (x, y)
        np.zeros(1, np.int64),  # the current visit mark
        np.empty((n_stock + 2, 4), np.int64),  # free paths used by a placement: c, mask, x, y
        np.empty(1, np.int8),  # one card, for _best_missing
        np.empty((MASK_ROWS, MASK_WORDS), np.uint64),  # the bit masks of _search_bits
    )
    return (
        np.empty((MAX_OPTIONS, 4), np.int64),  # legal placements: card, end, direction, missing
        np.empty(MAX_OPTIONS, np.int64),  # their keys
        search,
        np.empty(10, np.int64),  # ends and box saved by a trial placement
    )


def game_scratch(stock_cards: np.ndarray, params: np.ndarray) -> tuple:
    """A thread's scratch for `_play_rows` (made here, in numpy: compiled allocation code
    would only lengthen the first compile)."""
    n, cells, n_stock = int(params[P_PLAYERS]), int(params[P_SIDE]) ** 2, len(stock_cards)
    identities = np.empty(n_stock, np.uint64)
    deck_identities(stock_cards, identities)
    return (
        np.empty(4, np.uint64),  # random stream state (decisions)
        np.empty(4, np.uint64),  # the die's stream state
        *deal_scratch(n_stock, N_CARD_TYPES),  # the deal's (no copies for a deck that fits the ranks)
        identities,
        np.empty(n_stock, np.int8),  # the stock, in draw order
        _grids(n, cells, int(params[P_ORIGIN])),
        np.empty(n, np.int64),  # cards a neighbour put on each snake
        _turn_buffers(),
        _place_scratch(cells, n_stock),
        _counters(),  # the turn's decisions and counters
    )


def feel_scratch(players: int, n_stock: int) -> tuple:
    """A thread's record of the feel figures (see `_play_rows`)."""
    return np.empty(players, np.int64), np.empty(players, np.int64), feel_record.scratch(n_stock, players)


def think_scratch(params: np.ndarray, n_stock: int) -> tuple:
    """A look-ahead's scratch (see `_look_ahead`): its own stream, a turn's start, an imagined
    game's boards, turn and placements, the players it imagines, and each option's payoffs."""
    n, cells, origin = int(params[P_PLAYERS]), int(params[P_SIDE]) ** 2, int(params[P_ORIGIN])
    greedy = np.zeros((n, 3), np.int64)  # the players a look-ahead imagines
    greedy[:, CODE] = GREEDY
    return (
        np.empty(4, np.uint64),  # its own stream
        (_grids(n, cells, origin), np.empty(n, np.int64), np.empty(1, np.int64)),  # a turn's start
        (_grids(n, cells, origin), np.empty(n, np.int64), _turn_buffers(), _place_scratch(cells, n_stock)),
        _counters(),  # an imagined game's turn
        greedy,
        np.empty(MAX_OPTIONS, np.int64),  # each option's payoff in one imagined game
        np.empty(N_CARD_TYPES, np.int64),  # cards not yet drawn, by type
        np.empty(n_stock, np.int8),  # an imagined stock
        np.empty(MAX_OPTIONS, np.int64),  # each option's payoffs minus greedy's, summed
        np.empty(MAX_OPTIONS, np.int64),  # and their squares
    )


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


COLUMNS = (  # name, dtype, one per seat; the order _play_rows unpacks them in
    ("outcome", np.int8, False),
    ("winner", np.int8, False),
    ("length", np.int32, False),
    ("placed", np.int32, True),
    ("missing", np.int32, True),
    ("spite", np.int32, True),
    ("discarded", np.int32, False),
    ("stock_left", np.int32, False),
    ("unused", np.int32, False),
    *feel.COLUMNS,
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
        ``placed, missing, spite`` of shape ``(count, players)``; the feel columns
        (``snakesim.core.feel.COLUMNS``), recorded with ``feel = true``.
    """
    cards = rules.deck_cards() if deck is None else np.asarray(deck, dtype=np.int8)
    out = allocate(COLUMNS, count, players)
    faces, actions, params = rules.die_faces(), rules.face_actions(), encode(rules, players, deck is not None)
    table = policy_table(policies, players, GREEDY)
    columns, thinks = tuple(out.values()), thinks_ahead(table, EXPERT)

    def play(start, stop):  # (each thread its own scratch)
        think = think_scratch(params, len(cards)) if thinks else None
        tracking = feel_scratch(players, len(cards)) if rules.feel else None
        _play_rows(
            cards,
            faces,
            actions,
            params,
            table,
            seed=np.uint64(seed),
            first=np.int64(first),
            scratch=game_scratch(cards, params),
            think=think,
            tracking=tracking,
            out=columns,
            start=np.int64(start),
            stop=np.int64(stop),
        )

    play_in_blocks(play, count, BLOCK)
    return out
