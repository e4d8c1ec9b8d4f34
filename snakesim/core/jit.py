"""The numba options every kernel uses, in one place.

Two decorators:

- :func:`njit` for the hot code (a game's turn loop, the random stream). It is compiled
  without numba's reference counting (``_nrt=False``): such code receives every array from
  its caller and allocates nothing. With reference counting on, numba leaves an atomic
  incref/decref pair around many array-argument calls inside branchy loops, which made the
  Fortune kernel 3-4 times slower (benchmarks/bench_fortune.py). A function that tries to
  allocate under this decorator fails to compile, so the rule cannot be broken silently.
- :func:`njit_driver` for the functions that allocate scratch arrays and spread games over
  threads with ``prange``; :func:`njit_alloc` for their helpers that only allocate.

Both cache compiled code on disk (``cache=True``) and use ``error_model="numpy"`` (integer
division without Python's zero check; the kernels never divide by zero).

numba's cache checks only the file that defines a kernel, not the functions it inlines from
other files: after an edit to ``rng.py`` a cached kernel would still run the old generator.
So the cache lives in a folder named after a fingerprint of the whole package's source
(under ``NUMBA_CACHE_DIR`` if set, else the user cache folder): any change to any source
file means fresh compiles.
"""

import hashlib
import os
from pathlib import Path

import numba


def _source_fingerprint() -> str:
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_dir() -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "snakesim", "numba"
    )
    return Path(base) / _source_fingerprint()


# Set before any kernel is decorated: numba picks a kernel's cache folder when it is defined.
numba.config.CACHE_DIR = str(_cache_dir())

JIT_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def njit(fn=None, **extra):
    """``numba.njit`` for hot code that allocates nothing (no reference counting)."""
    options = {**JIT_OPTIONS, "_nrt": False, **extra}
    return numba.njit(**options) if fn is None else numba.njit(**options)(fn)


def njit_driver(fn=None, **extra):
    """``numba.njit(parallel=True)`` for block drivers that allocate and use ``prange``."""
    options = {**JIT_OPTIONS, "parallel": True, **extra}
    return numba.njit(**options) if fn is None else numba.njit(**options)(fn)


def njit_alloc(fn=None, **extra):
    """``numba.njit`` for a block driver's helpers that allocate its scratch (no ``prange``)."""
    options = {**JIT_OPTIONS, **extra}
    return numba.njit(**options) if fn is None else numba.njit(**options)(fn)
