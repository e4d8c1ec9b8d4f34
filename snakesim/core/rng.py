"""The per-game random stream, twice: in numba for the kernels and in plain Python for the
reference engines. Both produce the same numbers bit for bit (``tests/test_rng.py``).

Game ``i`` of seed ``s`` draws from its own xoshiro256** generator whose 256-bit state is
filled by splitmix64 from a key derived from ``(s, i)``. Nothing depends on which thread,
chunk or machine plays the game, so game ``i`` is the same game everywhere.

Bounded integers use Lemire's multiply-and-reject method on the top 32 bits, which is exact
(no modulo bias) and costs one multiplication in the common case.
"""

import numpy as np

from snakesim.core.jit import njit

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
# Distinct constants keep the seed's and the game index's contributions apart.
SEED_SALT = 0x5851F42D4C957F2D
GAME_SALT = 0xD1B54A32D192ED03
MAX_SEED = (1 << 63) - 1
MAX_BOUND = 1 << 32


# ---------------------------------------------------------------- numba version
_U1 = np.uint64(1)
_U32 = np.uint64(32)
_M32 = np.uint64(0xFFFFFFFF)
_GOLDEN = np.uint64(GOLDEN)
_SEED_SALT = np.uint64(SEED_SALT)
_GAME_SALT = np.uint64(GAME_SALT)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit
def seed_stream(state, seed, game):
    """Fill ``state`` (uint64[4]) with the stream of game ``game`` of seed ``seed``."""
    x = _mix(_mix(np.uint64(seed) ^ _SEED_SALT) ^ _mix(np.uint64(game) ^ _GAME_SALT))
    for k in range(4):
        x += _GOLDEN
        state[k] = _mix(x)


@njit
def next_u64(state):
    """Advance the xoshiro256** ``state`` in place and return the next 64-bit output."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit
def below(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n <= 2**32`` (Lemire's method)."""
    bound = np.uint64(n)
    m = (next_u64(state) >> _U32) * bound
    low = m & _M32
    if low < bound:
        threshold = ((_M32 + _U1) - bound) % bound
        while low < threshold:
            m = (next_u64(state) >> _U32) * bound
            low = m & _M32
    return np.int64(m >> _U32)


@njit
def shuffle(state, items, n):
    """Fisher-Yates shuffle of ``items[:n]`` in place, last position first."""
    for k in range(n - 1, 0, -1):
        j = below(state, k + 1)
        tmp = items[k]
        items[k] = items[j]
        items[j] = tmp


# ---------------------------------------------------------------- Python version
def _py_mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def _py_rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK64


class Stream:
    """The random stream of one game, in plain Python.

    Parameters
    ----------
    seed : int
        The run's seed, ``0 <= seed < 2**63``.
    game : int
        The game's index within the run, ``game >= 0``.

    Examples
    --------
    >>> s = Stream(1, 42)
    >>> 0 <= s.below(6) < 6
    True
    """

    def __init__(self, seed: int, game: int):
        x = _py_mix(_py_mix(seed ^ SEED_SALT) ^ _py_mix(game ^ GAME_SALT))
        self.state = []
        for _ in range(4):
            x = (x + GOLDEN) & MASK64
            self.state.append(_py_mix(x))
        self.draws = 0  # 64-bit outputs consumed, for traces and tests

    def next_u64(self) -> int:
        """Return the next 64-bit output."""
        s0, s1, s2, s3 = self.state
        result = (_py_rotl((s1 * 5) & MASK64, 7) * 9) & MASK64
        t = (s1 << 17) & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _py_rotl(s3, 45)
        self.state = [s0, s1, s2, s3]
        self.draws += 1
        return result

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (Lemire's method, as the kernels do)."""
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle of ``items`` in place, exactly as :func:`shuffle`."""
        for k in range(len(items) - 1, 0, -1):
            j = self.below(k + 1)
            items[k], items[j] = items[j], items[k]
