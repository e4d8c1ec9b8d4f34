"""Getting a game's kernel ready before a run is timed, and saying so when that means compiling.

numba compiles a kernel for this machine the first time a run needs it and keeps it in its
on-disk cache; later commands load it in a fraction of a second. :func:`prepare` loads or
compiles it by playing one game before the run's games are counted, so that a run's time and
games per second never include compilation. If that takes longer than loading from the cache
can, one line on stderr says what is happening and about how long it takes: the time it took
on this machine last time (kept beside numba's cache), else a typical figure.

A kernel is specialised by what its seats need: a run where a seat thinks ahead
(``expert``, ``oracle``) compiles the look-ahead's code as well, once.
"""

from __future__ import annotations

import gc
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from snakesim.core.jit import cache_base

# About how long a first compile takes, with and without a seat that thinks ahead: what the
# project's 2-core AMD EPYC took (AVX2 code, bench_compile.py, 2026-11-27), and 1.7 times that
# (the same code compiled 1.5-1.8 times slower on the machine of issue 27's figures). Said as
# a range until this machine has compiled the kernel once, then as its own time.
TYPICAL_SECONDS = {
    ("fortune", False): (4, 7),
    ("rainbow", False): (4, 6),
    ("rainbow", True): (5, 9),
    ("hisss", False): (4, 6),
    ("hisss", True): (6, 10),
    ("sssnake", False): (7, 11),
    ("sssnake", True): (9, 15),
}
UNKNOWN_SECONDS = (15, 15)  # (a game not listed: a plugin's, a test's)
NOTICE_AFTER_SECONDS = 0.6  # loading a cached kernel takes less
_ready: set[tuple] = set()  # (game, thinks) kernels this process has loaded or compiled
_spent = [0.0]  # seconds spent getting kernels ready in this process


def spent() -> float:
    """Seconds this process has spent loading or compiling kernels (to leave out of play time)."""
    return _spent[0]


def _times_file():
    return cache_base() / "compile-seconds.json"


def _remembered() -> dict:
    try:
        return json.loads(_times_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def estimate(game: str, thinks: bool) -> tuple[float, float]:
    """About how many seconds compiling ``game``'s kernel takes here: the least and the most
    (the same once this machine has compiled it)."""
    known = _remembered().get(f"{game}:{int(thinks)}")
    if isinstance(known, int | float) and known > 0:
        return float(known), float(known)
    low, high = TYPICAL_SECONDS.get((game, thinks), UNKNOWN_SECONDS)
    return float(low), float(high)


def estimate_text(game: str, thinks: bool) -> str:
    """:func:`estimate` in words: ``about 4-7 s``, or ``about 3 s``."""
    low, high = (round(x) for x in estimate(game, thinks))
    return f"about {max(low, 1)} s" if low >= high else f"about {max(low, 1)}-{high} s"


def _remember(game: str, thinks: bool, seconds: float) -> None:
    times = _remembered()
    times[f"{game}:{int(thinks)}"] = round(seconds, 1)
    try:
        _times_file().parent.mkdir(parents=True, exist_ok=True)
        _times_file().write_text(json.dumps(times, sort_keys=True), encoding="utf-8")
    except OSError:
        pass  # a read-only cache folder: the estimate stays the typical one


def prepare(spec, rules, players: int, seed: int, codes=None, notice: bool | Callable[[str], None] = True) -> float:
    """Load or compile the kernel that a run of ``spec`` with the per-seat policy ``codes``
    needs, by playing its game 0 once; return the seconds it took (0 if already done here).

    With ``notice``, a compile (anything slower than a cache load) is announced while it
    happens: on stderr, or by calling ``notice`` with the line (the workbench shows it).
    """
    thinks = thinks_ahead(spec, codes)
    key = (spec.name, thinks)
    if key in _ready:
        return 0.0

    def announce() -> None:
        title = spec.title.split(":")[0]
        what = " and its look-ahead player" if thinks else ""
        line = f"compiling the {title} engine{what} for this machine, once: {estimate_text(*key)}"
        if callable(notice):
            notice(line)
            return
        sys.stderr.write(line + "\n")
        sys.stderr.flush()

    timer = threading.Timer(NOTICE_AFTER_SECONDS, announce) if notice else None
    start = time.perf_counter()
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        with _collector_paused():
            spec.play_block(rules, players, seed, 0, 1, policies=codes)
    finally:
        if timer is not None:
            timer.cancel()
    seconds = time.perf_counter() - start
    _ready.add(key)
    _spent[0] += seconds
    if seconds > NOTICE_AFTER_SECONDS:
        _remember(*key, seconds)
    return seconds


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a kernel compiles. numba makes a great many objects
    as it compiles, and each of the collector's passes walks every object alive (numba's,
    numpy's and the command's own): 6% of a compile (Sssnake: 5.6 -> 5.2 s here). The compile's
    garbage (about 50 MB for Sssnake's kernel) waits for the collector's next pass."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def thinks_ahead(spec, codes) -> bool:
    """Whether a seat of the policy table ``codes`` (None: the game's default players) thinks
    ahead in ``spec``'s game: its run then needs the kernel with the look-ahead compiled in."""
    from snakesim.core import policies

    if not spec.policies or codes is None:
        return False
    first = min((spec.policies.index(p) for p in policies.LOOKAHEAD_POLICIES if p in spec.policies), default=None)
    if first is None:
        return False
    return policies.thinks_ahead(policies.policy_table(codes, len(codes), 0), first)
