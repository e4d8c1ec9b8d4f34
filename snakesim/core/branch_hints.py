"""A hint for compiled code: which way a branch usually goes (LLVM's ``llvm.expect``).

LLVM's register allocator keeps in registers the values of the code it takes to run most
often, and it judges that by its guess at how often each branch is taken. A kernel's hottest
loop can lose that contest to colder code around it: Fortune's fast path, a loop inside the
game loop that draws about fifty cards a run, had its array pointers and its guard word
reloaded from the stack on every card until its loop test was marked :func:`likely`.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def likely(typingctx, condition):
    """``condition`` itself, with the hint that it is almost always true (for a loop's test:
    the loop runs many rounds for each time it is entered)."""
    if not isinstance(condition, types.Boolean):
        return None

    def codegen(context, builder, signature, args):
        bit = args[0].type
        expect = builder.module.declare_intrinsic("llvm.expect", [bit], ir.FunctionType(bit, [bit, bit]))
        return builder.call(expect, [args[0], ir.Constant(bit, 1)])

    return types.boolean(condition), codegen
