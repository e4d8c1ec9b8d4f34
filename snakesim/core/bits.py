"""Bit tricks for the game-feel figures' passes, written as LLVM IR (numba's ``intrinsic``).

Each is a few instructions emitted in place at its call: as numba functions they were either
calls (about 5 ns each, a few dozen a game) or inlined by numba at every call site, which cost
a kernel's first compile a fifth of a second more.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_I64 = ir.IntType(64)
_NIBBLE_LOWS = 0x1111_1111_1111_1111


def _const(value):
    return ir.Constant(_I64, value)


@intrinsic
def lowest_bit(typingctx, x):
    """The position of the lowest set bit of a uint64 (64 for 0)."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@intrinsic
def highest_bit(typingctx, x):
    """The position of the highest set bit of a nonzero uint64."""

    def codegen(context, builder, signature, args):
        return builder.sub(_const(63), builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0)))

    return types.uint64(types.uint64), codegen


@intrinsic
def nonzero_nibbles(typingctx, x):
    """A uint64 with the lowest bit of each nibble of ``x`` that is not 0 set, the rest clear."""

    def codegen(context, builder, signature, args):
        x = args[0]
        for shift in (1, 2, 3):
            x = builder.or_(x, builder.lshr(args[0], _const(shift)))
        return builder.and_(x, _const(_NIBBLE_LOWS))

    return types.uint64(types.uint64), codegen


@intrinsic
def sole(typingctx, mask):
    """The seat of a one-bit mask (an integer), or -1; no branch, since which seats lead is
    unforeseeable and a mispredicted branch costs more than this."""
    if not isinstance(mask, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        m = context.cast(builder, args[0], signature.args[0], types.uint64)
        below = builder.sub(m, _const(1))
        alone = builder.and_(builder.icmp_unsigned("!=", m, _const(0)),
                             builder.icmp_unsigned("==", builder.and_(m, below), _const(0)))  # fmt: skip
        return builder.select(alone, builder.ctpop(below), _const(-1))

    return types.int64(mask), codegen
