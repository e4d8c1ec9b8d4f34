"""The numba options every kernel uses, in one place.

``cache=True`` keeps compiled kernels on disk between runs; ``error_model="numpy"`` lets
integer division skip Python's zero check (the kernels never divide by zero).
"""

import numba

JIT_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def njit(fn=None, **extra):
    """``numba.njit`` with the project's options (see :data:`JIT_OPTIONS`)."""
    options = {**JIT_OPTIONS, **extra}
    if fn is None:
        return numba.njit(**options)
    return numba.njit(**options)(fn)
