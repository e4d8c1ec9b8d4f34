"""Defaults and limits that the command line's options show, kept apart from the modules
that use them so that ``snakesim --help`` need not import numba, pandas or scipy."""

DEFAULT_CHUNK = 1 << 16
DEFAULT_SEED = 1  # the command line's and the Python API's, so both play the same games
MAX_CHUNK = 1 << 22  # a block's columns are allocated at once: 4M games is ~100-700 MB
MAX_GAMES = 10**12
BACKENDS = ("threads", "dask")
DEFAULT_PLAYOUTS = 64  # a look-ahead policy's samples per decision (expert, oracle)
MAX_PLAYOUTS = 4096
NOVICE = 0.3  # a novice's mistake rate
PRECISE = ("rates", "differences", "length")  # what `compare --until-precise` may stop on
