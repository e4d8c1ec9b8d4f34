"""`likely` hints a branch's usual way to LLVM and changes nothing else."""

import pytest
from numba.core.errors import TypingError

from snakesim.core.branch_hints import likely
from snakesim.core.jit import njit


@njit
def _count_while(limit):
    """Rounds of a loop whose test is marked likely, and the last test's value."""
    k = 0
    go = True
    while likely(k < limit):
        k += 1
        go = likely(k < limit)
    return k, go


def test_likely_returns_its_condition_in_compiled_code():
    assert _count_while(5) == (5, False)
    assert _count_while(0) == (0, True)  # the loop's body never ran


@njit
def _count_plain(limit):
    k = 0
    while k < limit:
        k += 1
    return k


def test_likely_reaches_llvm_as_branch_weights():
    def weights(fn):
        # (compiled here, not loaded from numba's cache: a function another test process compiled
        # and cached first comes back with no LLVM IR to read)
        fresh = njit(fn.py_func, cache=False)
        fresh(1)
        return next(iter(fresh.inspect_llvm().values()))  # (optimised: the hint is now branch weights)

    assert '!"expected"' in weights(_count_while) and '!"expected"' not in weights(_count_plain)


def test_likely_refuses_a_value_that_is_not_a_truth_value():
    @njit
    def wrong(x):
        return likely(x)

    with pytest.raises(TypingError):
        wrong(3)
