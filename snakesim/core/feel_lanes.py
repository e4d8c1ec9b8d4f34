"""The seats at the top of every step, four steps at a time: the game-feel figures' costly part
for standings packed in 16-bit lanes (Fortune's coins, up to four seats), written as LLVM
vector code.

A step's standings are one 64-bit word, seat s in bits ``16 s`` up (below each lane's top
bit, which is ignored: Fortune's fast path keeps it set as a guard). Eight steps are one vector
of thirty-two 16-bit lanes; two swaps of neighbouring lanes and two maxima put each step's top
in all four of its lanes, one compare gives the seats at the top (a nibble a step), and the
same vector gives each seat's gap to the top and whether it has nothing: a dozen vector
instructions for eight steps, where the compiler's own vector code of the same arithmetic on
whole words took twice as long a step. The steps at which the seats at the top change are then
found sixteen at a time in word arithmetic (:func:`summarise`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from snakesim.core import feel_record
from snakesim.core.bits import highest_bit, lowest_bit, nonzero_nibbles, sole
from snakesim.core.jit import njit, njit_inner
from snakesim.core.rng import _splat, popcount

LANES = 4  # seats a word holds
LANE = 16  # bits a seat
BLOCK = 8  # steps a vector holds (two vector registers with AVX2, one with AVX-512)
VALUES = np.uint64(0x7FFF_7FFF_7FFF_7FFF)  # every lane below its top bit
ONES = np.uint64(0x1111_1111_1111_1111)  # a nibble's lowest bit, in every nibble
EIGHTS = np.uint64(0x8888_8888_8888_8888)  # its highest
PAD = VALUES  # a word after the last step: every seat at the most, so no gap and no zero


def scratch(cap: int, lowest: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Buffers for :func:`summarise`: the packed standings of steps 0 .. ``cap`` (the kernel
    writes them) with room to fill the last block, each step's nibble of seats at the top, and
    the least standing a seat can have (:func:`store` packs each less that)."""
    words = cap + 1 + BLOCK
    return np.empty(words, np.uint64), np.empty(words // 16 + 1, np.uint64), np.array([lowest], np.int64)


def fits(players: int, lowest: int, highest: int) -> bool:
    """Whether ``players`` seats whose standings stay within ``lowest .. highest`` fit the
    lanes (at most four seats, and 15 bits of standings above ``lowest``)."""
    return players <= LANES and highest - lowest < 1 << (LANE - 1)


@njit(forceinline=True)  # (called every step: a call would pass each of its arrays field by field)
def store(packed, values, sign, n, step):
    """Write the standings ``sign * values[:n]`` after step ``step`` (0: the deal), packed in
    the lanes (each less the least it can be, `scratch`)."""
    lowest = packed[2][0]
    word = np.uint64(0)
    for s in range(n):
        word |= np.uint64(sign * values[s] - lowest) << np.uint64(LANE * s)
    packed[0][step] = word


@njit(forceinline=True)
def store_seat(packed, value, seat, step):
    """Write the standings after step ``step`` where only ``seat``'s has changed since the step
    before, to ``value``: the step before's word with one lane replaced."""
    shift = np.uint64(LANE * seat)
    word = packed[0][step - 1] & ~(np.uint64(0xFFFF) << shift)
    packed[0][step] = word | (np.uint64(value - packed[2][0]) << shift)


def _swap(builder, vector, distance):
    """LLVM IR: ``vector`` with each lane swapped with the one ``distance`` (1 or 2) away in
    its group of four."""
    order = [lane ^ distance for lane in range(vector.type.count)]
    return builder.shuffle_vector(vector, vector, ir.Constant(ir.VectorType(ir.IntType(32), len(order)), order))


def _umax(builder, a, b):
    return builder.select(builder.icmp_unsigned(">", a, b), a, b)


@intrinsic
def _top_pass(typingctx, words, nibbles, blocks, seats):
    """For blocks 0 .. ``blocks - 1`` of eight steps of ``words``: each step's nibble of seats
    at the top into ``nibbles`` (step t's in bits ``4 t`` up); returns each seat's greatest gap
    to the top (packed as the words are) and the seat-steps at 0 among the first ``seats``
    lanes."""
    if not (isinstance(words, types.Array) and isinstance(nibbles, types.Array)):
        return None
    signature = types.UniTuple(types.uint64, 2)(words, nibbles, blocks, seats)

    def codegen(context, builder, sig, args):
        i16, i32, i64 = ir.IntType(16), ir.IntType(32), ir.IntType(64)
        lanes = ir.VectorType(i16, LANES * BLOCK)
        source = context.make_array(sig.args[0])(context, builder, args[0]).data
        target = builder.bitcast(context.make_array(sig.args[1])(context, builder, args[1]).data, i32.as_pointer())
        count = context.cast(builder, args[2], sig.args[2], types.int64)
        seats = context.cast(builder, args[3], sig.args[3], types.int64)
        values = ir.Constant(lanes, [0x7FFF] * lanes.count)
        zero = ir.Constant(lanes, [0] * lanes.count)
        # The lanes of seats in the game: lane % 4 < seats.
        positions = ir.Constant(lanes, [lane % LANES for lane in range(lanes.count)])
        seated = builder.icmp_unsigned("<", positions, _splat(builder, builder.trunc(seats, i16), lanes))
        gaps = cgutils.alloca_once_value(builder, zero)
        at_zero = cgutils.alloca_once_value(builder, ir.Constant(i64, 0))
        popcount32 = builder.module.declare_intrinsic("llvm.ctpop", [i32])
        with cgutils.for_range(builder, count) as loop:
            address = builder.gep(source, [builder.mul(loop.index, ir.Constant(i64, BLOCK))])
            v = builder.and_(builder.load(builder.bitcast(address, lanes.as_pointer()), align=8), values)
            top = _umax(builder, v, _swap(builder, v, 1))
            top = _umax(builder, top, _swap(builder, top, 2))
            at_top = builder.bitcast(builder.icmp_unsigned("==", v, top), i32)
            builder.store(at_top, builder.gep(target, [loop.index]), align=4)
            builder.store(_umax(builder, builder.load(gaps), builder.sub(top, v)), gaps)
            empty = builder.bitcast(builder.and_(builder.icmp_unsigned("==", v, zero), seated), i32)
            empty = builder.zext(builder.call(popcount32, [empty]), i64)
            builder.store(builder.add(builder.load(at_zero), empty), at_zero)
        # Each seat's greatest gap over the block's steps: lanes s, s + 4, s + 8, ...
        most = builder.load(gaps)
        width = lanes.count
        while width > LANES:  # (halves folded onto each other)
            width //= 2
            halves = [ir.Constant(ir.VectorType(i32, width), list(range(h, h + width))) for h in (0, width)]
            most = _umax(builder, *(builder.shuffle_vector(most, most, half) for half in halves))
        return context.make_tuple(builder, sig.return_type, [builder.bitcast(most, i64), builder.load(at_zero)])

    return signature, codegen


@njit_inner
def summarise(packed, n, length, winner):
    """:func:`snakesim.core.feel_record.summarise` and ``zeros`` for standings packed at steps 0
    .. ``length`` (``packed[0]``, which the kernel fills): the figures ``(lead_changes,
    decided, comeback, deficit, leader_q1, leader_q2, leader_q3, tie_break)`` and the
    seat-steps at 0 over steps 0 .. ``length - 1``."""
    words, nibbles, _ = packed
    steps = length + 1
    blocks = (steps + BLOCK - 1) // BLOCK
    for t in range(BLOCK):  # (all eight, whether or not the last block needs them: no branch)
        words[steps + t] = PAD
    gaps, at_zero = _top_pass(words, nibbles, blocks, n)
    last = words[length] & VALUES  # (the last step's seats at 0 are not counted: the game is over)
    for s in range(n):
        at_zero -= ((last >> np.uint64(16 * s)) & np.uint64(0x7FFF)) == 0
    # The changes, sixteen steps (a word of nibbles) at a time, in word arithmetic: a step
    # whose nibble differs from the one before (the sole leader can only change there), and
    # which steps have a sole leader. A change from one sole leader to another is counted
    # for the whole word at once; only a sole leader after a tie (3.6 a Fortune game) is
    # compared, one by one, with the latest sole leader before the tie.
    seated = np.uint64((1 << n) - 1)
    one = np.uint64(1)
    changes = 0
    latest = np.uint64(0)  # the latest sole leader's nibble before the word (0: none yet)
    last_word = 0
    last_changes = one
    before = np.uint64(0)  # the nibble of the step before the word, and whether it is alone
    before_alone = np.uint64(0)
    for w in range((steps + 15) // 16):
        left = steps - 16 * w
        valid = ~np.uint64(0) if left >= 16 else (one << np.uint64(4 * left)) - one
        four = nibbles[w] & (seated * ONES) & valid
        changed = nonzero_nibbles(four ^ ((four << np.uint64(LANES)) | before)) & valid
        changed |= one if w == 0 else np.uint64(0)  # (step 0 starts the first lead)
        below = four & ((four | EIGHTS) - ONES)  # (x & (x - 1) in each nibble x: no borrow between them)
        alone = nonzero_nibbles(four) & ~nonzero_nibbles(below)
        was_alone = (alone << np.uint64(LANES)) | before_alone
        changes += popcount(alone & was_alone & changed)
        after_tie = alone & ~was_alone
        while after_tie:
            at = lowest_bit(after_tie)
            earlier = alone & ((one << at) - one)
            lead = (four >> highest_bit(earlier)) & np.uint64(15) if earlier else latest
            mask = (four >> at) & np.uint64(15)
            changes += (lead != 0) & (mask != lead)
            after_tie &= after_tie - one
        latest = (four >> highest_bit(alone)) & np.uint64(15) if alone else latest
        last_word = w if changed else last_word
        last_changes = changed if changed else last_changes
        before = four >> np.uint64(60)
        before_alone = alone >> np.uint64(60)
    last = 16 * last_word + np.int64(highest_bit(last_changes) >> np.uint64(2))  # (the final lead's start)
    q1 = _at(nibbles, length // 4, seated)
    q2 = _at(nibbles, length // 2, seated)
    q3 = _at(nibbles, (3 * length) // 4, seated)
    decided, comeback, deficit, tie_break = np.nan, -1, -1, -1
    if winner >= 0:
        tie_break = 0 if sole(_at(nibbles, length, seated)) == winner else 1
        # The winner leads alone from the last change on, and not at the step before it.
        decided = 1.0 if length == 0 or tie_break else last / length
        comeback = 0 if (q2 >> np.uint64(winner)) & np.uint64(1) else 1
        deficit = np.int64((gaps >> np.uint64(16 * winner)) & np.uint64(0xFFFF))
    figures = (changes, decided, comeback, deficit, sole(q1), sole(q2), sole(q3), tie_break)
    return figures, np.int64(at_zero)


@njit(forceinline=True)
def _at(nibbles, step, seated):
    """The seats at the top at ``step``."""
    return (nibbles[step // 16] >> np.uint64(4 * (step % 16))) & seated


def records(cap: int, players: int, lowest: int, highest: int) -> tuple:
    """A kernel's record of the feel figures for games of at most ``cap`` steps whose
    standings stay within ``lowest .. highest``: ``(packed, None)`` when they fit the lanes,
    else ``(None, steps)``, the standings by seat (`feel_record.scratch`). A kernel writes
    each step with ``if packed is not None: store(packed, ...)`` and ``if steps is not None:
    feel_record.store(steps, ...)``, and reads the figures with `summarise` or
    ``feel_record.summarise`` the same way, so that only the code of the one it is given is
    compiled (numba drops a branch on a None argument before typing it)."""
    if fits(players, lowest, highest):
        return scratch(cap, lowest), None
    return None, feel_record.scratch(cap, players)
