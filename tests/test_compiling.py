"""What gets compiled, and when a run says so: the look-ahead only for seats that think ahead,
one copy of each helper, a cached kernel that runs in the next process, blocks spread over
threads, and the compile notice."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from snakesim.core import compiling
from snakesim.core.threads import play_in_blocks, using_threads

LOOKAHEAD_GAMES = ("rainbow", "hisss", "sssnake")

UNUSED = """
import importlib, sys
from snakesim.core import feel_lanes, feel_record, rng
from snakesim.games import get_game
spec = get_game(sys.argv[1])
spec.play_block(spec.rules(), 3, 1, 0, 5)
kernel = importlib.import_module(f"snakesim.games.{sys.argv[1]}.kernel")
look_ahead = getattr(kernel, "_look_ahead", getattr(kernel, "_expert", None))
# The feel figures' other record: Sssnake's standings can be "no way" (too large for the lanes).
unused = [feel_lanes.summarise if sys.argv[1] == "sssnake" else feel_record.summarise]
unused += [look_ahead] if look_ahead else []
if sys.argv[1] != "rainbow":  # (its reshuffles, rng.keyed_shuffle, always keep the sort)
    unused.append(rng._sort_by_keys.inner)
print(sum(len(f.signatures) for f in unused))
"""


@pytest.mark.parametrize(
    "game",
    [
        "fortune",
        "hisss",
        pytest.param("rainbow", marks=pytest.mark.slow),
        pytest.param("sssnake", marks=pytest.mark.slow),
    ],
)
def test_a_default_run_compiles_none_of_the_code_it_does_not_use(game, tmp_path):
    # With greedy seats and a deck of at most rng.RANK_LIMIT cards, the look-ahead, the feel
    # figures' record that the game does not use and the sort of large piles are dropped
    # before typing (None-typed arguments): none of them is compiled. A fresh process and an empty cache, so that the
    # kernel is compiled here (a kernel loaded from the cache compiles nothing at all).
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", UNUSED, game], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.strip() == "0"


ONCE = """
import importlib, sys
from numba.core.registry import CPUDispatcher
from snakesim.core.policies import encode_policies
from snakesim.games import get_game
spec = get_game(sys.argv[1])
spec.play_block(spec.rules(), 3, 1, 0, 3, policies=encode_policies(spec, ["expert:2", "greedy", "random"]))
spec.play_block(spec.rules(), 3, 1, 0, 3)
kernel = importlib.import_module(f"snakesim.games.{sys.argv[1]}.kernel")
for name, f in vars(kernel).items():
    if isinstance(f, CPUDispatcher) and f.py_func.__module__ == kernel.__name__:
        twin = getattr(f, "inner", None)  # (an njit function's; a helper has none, and Python never calls it)
        print(name, len(f.signatures) if twin else 0, len((twin or f).signatures))
"""


@pytest.mark.slow
@pytest.mark.parametrize("game", LOOKAHEAD_GAMES)
def test_each_helper_is_compiled_once(game, tmp_path):
    # Calls with constant arguments (f(board, 0)) once compiled a copy of the callee per
    # constant. A fresh cache, so that every helper is compiled here, not loaded.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", ONCE, game], capture_output=True, text=True, check=True, env=env)
    rows = [line.split() for line in done.stdout.splitlines()]
    from_python = {name: int(n) for name, n, _ in rows}  # (the kernel, called from Python)
    from_compiled = {name: int(n) for name, _, n in rows}  # (helpers, and twins of njit functions)
    assert from_python.pop("_play_rows") == 2 and from_compiled.pop("_play_rows") == 0  # with and without look-ahead
    assert max(from_python.values()) == 0 and max(from_compiled.values()) == 1, rows


GAMES = """
import sys
import numpy as np
from snakesim.core.policies import encode_policies
from snakesim.games import get_game
spec = get_game(sys.argv[1])
columns = spec.play_block(spec.rules(), 3, 7, 0, 500, policies=encode_policies(spec, ["greedy:0.3"] * 3))
print(sorted((name, int(np.asarray(values, np.int64).sum())) for name, values in columns.items()))
"""


def test_a_kernel_loaded_from_the_cache_plays_the_same_games(tmp_path):
    # The helpers (njit_inner) are compiled to IR only, for the kernel to link in; the kernel
    # written to numba's cache by one process must run, and play the same games, in the next.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", GAMES, "hisss"], capture_output=True, text=True, env=env)
            for _ in range(2)]  # fmt: skip
    assert [r.returncode for r in runs] == [0, 0], runs[-1].stderr[-2000:]
    assert runs[0].stdout == runs[1].stdout and "length" in runs[0].stdout


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_blocks_cover_every_game_once(threads):
    seen = np.zeros(1000, np.int64)
    lock = threading.Lock()

    def play(start, stop):
        with lock:
            seen[start:stop] += 1

    play_in_blocks(play, 1000, 64, threads)
    assert (seen == 1).all()


@pytest.mark.parametrize(("count", "threads"), [(8, 2), (5, 2), (1, 2), (100, 3), (127, 2)])
def test_fewer_games_than_the_threads_blocks_are_split_so_that_every_thread_plays(count, threads):
    """Eight games of look-ahead players (seconds each) in one block of 64 kept one thread
    idle: they are split finer, every game played once, by every thread."""
    seen, by = np.zeros(count, np.int64), set()
    lock = threading.Lock()

    def play(start, stop):
        time.sleep(0.02)  # (a slow game: the other thread takes the next block meanwhile)
        with lock:
            seen[start:stop] += 1
            by.add(threading.current_thread().name)

    play_in_blocks(play, count, 64, threads)
    assert (seen == 1).all() and len(by) == min(threads, count)


def test_an_error_in_a_block_is_raised():
    def play(start, stop):
        if start > 0:
            raise ValueError("block failed")

    with pytest.raises(ValueError, match="block failed"), using_threads(2):
        play_in_blocks(play, 1000, 64)


class _SlowSpec:
    """A game whose kernel takes 0.3 s to get ready, as a compile would."""

    name = "slowgame"
    title = "Slowgame: a test"
    policies = ()

    def play_block(self, *args, **kwargs):
        time.sleep(0.3)


def test_a_compile_is_announced_and_counted_once(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(compiling, "NOTICE_AFTER_SECONDS", 0.05)
    before = compiling.spent()
    assert compiling.prepare(_SlowSpec(), None, 2, 1) >= 0.3
    assert capsys.readouterr().err == "compiling the Slowgame engine for this machine, once: about 15 s\n"
    assert compiling.spent() - before >= 0.3
    assert compiling.estimate("slowgame", False) == pytest.approx((0.3, 0.3), abs=0.2)  # remembered for next time
    assert compiling.prepare(_SlowSpec(), None, 2, 1) == 0.0  # ready: nothing to do, nothing said
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("progress", [True, False])
def test_a_search_says_in_a_terminal_that_its_kernel_compiles(progress, monkeypatch):
    # tune, design and balance play through analysis.search.SameGames, whose blocks load the
    # kernel without a word: from an empty cache a search sat silent while it compiled. Now
    # the kernel is got ready first, with the notice wherever the search shows its progress.
    from snakesim.analysis.search import SameGames
    from snakesim.games import get_game

    asked, real = [], compiling.prepare

    def prepare(*args, **kwargs):
        asked.append(kwargs["notice"])
        return real(*args, **kwargs)

    monkeypatch.setattr(compiling, "prepare", prepare)
    spec = get_game("fortune")
    search = SameGames(spec, 3, seed=1, progress=progress)
    search.games(spec.rules(), 50)
    search.games(spec.rules().updated({"start_coins": 9}), 50)
    search.close()
    assert asked == [progress]  # (once: one kernel for every rule set)


def test_a_first_compile_is_said_as_a_range_until_this_machine_has_compiled_it(monkeypatch, tmp_path):
    # Before its first compile here, a kernel's time is said as what the project's machine took
    # up to 1.7 times that (a slower machine); after it, as this machine's own.
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert compiling.estimate_text("fortune", False) == "about 4-7 s"
    assert compiling.estimate_text("sssnake", True) == "about 9-15 s"
    compiling._remember("fortune", False, 3.4)
    assert compiling.estimate_text("fortune", False) == "about 3 s"


class _CollectorSpec(_SlowSpec):
    """A game whose kernel notes whether Python's cycle collector runs while it gets ready."""

    def __init__(self, fails=False):
        self.fails, self.seen = fails, []
        self.name = "failinggame" if fails else "collectorgame"  # (a kernel once ready is not prepared again)

    def play_block(self, *args, **kwargs):
        self.seen.append(gc.isenabled())
        if self.fails:
            raise RuntimeError("a compile error")


def test_the_cycle_collector_pauses_while_a_kernel_compiles(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert gc.isenabled()
    spec = _CollectorSpec()
    compiling.prepare(spec, None, 2, 1, notice=False)
    assert spec.seen == [False] and gc.isenabled()
    failing = _CollectorSpec(fails=True)
    with pytest.raises(RuntimeError):
        compiling.prepare(failing, None, 2, 1, notice=False)
    assert failing.seen == [False] and gc.isenabled()  # (on again after an error too)


def _triple_plus_one(a):
    for i in range(a.shape[0]):
        a[i] = a[i] * 3 + 1


def test_a_kernel_compiled_without_vectorizing_has_no_vector_loop():
    # jit.njit(vectorize=False) (Sssnake's kernel): LLVM's vectorizers off for its compile
    # only, numba's settings as they were after it.
    import numba

    from snakesim.core import jit

    before = numba.config.LOOP_VECTORIZE, numba.config.SLP_VECTORIZE
    if not before[0]:
        pytest.skip("NUMBA_LOOP_VECTORIZE=0 here: nothing vectorizes")
    vector = jit.njit(_triple_plus_one, cache=False)
    scalar = jit.njit(_triple_plus_one, cache=False, vectorize=False)
    a, b = np.arange(1000), np.arange(1000)
    vector(a)
    scalar(b)
    assert np.array_equal(a, b) and a[10] == 31
    assert "x i64>" in vector.inspect_llvm(vector.signatures[0])  # (a vector loop: <4 x i64> or the like)
    assert "x i64>" not in scalar.inspect_llvm(scalar.signatures[0])
    assert (numba.config.LOOP_VECTORIZE, numba.config.SLP_VECTORIZE) == before


INLINED = """
def doubled(x):
    return x * 2

def scaled(a, i):
    return doubled(a[i]) + 1

def twice_scaled(a):
    return scaled(a, 0) + scaled(a, 1)
"""


def test_a_forceinline_function_is_compiled_once_and_inlined_by_llvm_alone():
    # jit.njit(forceinline=True) (Fortune's turn loop, the feel recorders): the function is
    # typed and lowered once, then LLVM inlines it at each call; numba's inline="always" typed
    # and lowered it again at every call site. What it calls is not forced inline: numba hands
    # forceinline down to callees unless they set it, and jit's options set it False.
    from snakesim.core import jit

    space = {"__name__": "snakesim.inlined_in_a_test"}  # (a snakesim module's name: helpers link only)
    exec(INLINED, space)
    space["doubled"] = doubled = jit.njit_inner(space["doubled"], cache=False)
    space["scaled"] = scaled = jit.njit(space["scaled"], cache=False, forceinline=True)
    caller = jit.njit(space["twice_scaled"], cache=False)
    assert caller(np.array([3, 5])) == 7 + 11
    (compiled,) = scaled.inner.overloads.values()  # (once, for both calls)
    assert compiled.fndesc.inline and "alwaysinline" in compiled.library.get_llvm_str()
    (below,) = doubled.overloads.values()
    assert not below.fndesc.inline
    assert "alwaysinline" not in below.library.get_llvm_str()


def test_a_helper_called_from_python_says_why_it_cannot_be():
    # A helper (njit_inner) has no wrapper for calls from Python: numba would jump to an empty
    # address. It says so instead; compiled code still calls it (every game's tests).
    from snakesim.games.sssnake import kernel

    with pytest.raises(TypeError, match="_dx is a helper that only compiled code calls"):
        kernel._dx(1)
    with pytest.raises(TypeError, match="helper"):
        kernel._options.inner(None)  # (the twin through which kernels call an njit function)


@pytest.mark.parametrize("theme", ["no_color", "dark_bg", "light_bg"])
def test_the_quicker_error_markup_gives_numbas_text_and_leaves_the_streams_alone(theme, monkeypatch):
    # snakesim.core.jit marks numba's error texts up without colorama's init()/deinit() around
    # each one (11,000 for the Sssnake kernel, each swapping sys.stdout and sys.stderr): the same
    # text, in every colour scheme numba has.
    import sys

    Fore = pytest.importorskip("colorama", reason="numba marks nothing up without colorama").Fore
    from numba.core import errors

    import snakesim.core.jit  # noqa: F401  (the replacement is made on import)

    scheme = errors.HighlightColorScheme
    assert scheme._markup.__qualname__.startswith("_quicker_error_markup")
    colours = scheme(errors.themes[theme])
    own = scheme._snakesim_own_markup
    for text in ("Invalid use of getitem", "two\nlines", "", "é ñ"):
        for way in ("code", "errmsg", "filename", "indicate", "highlight", "reset"):
            assert getattr(colours, way)(text) == own(colours, text, getattr(colours, f"_{way}"))
        assert colours._markup(text, Fore.GREEN, None) == own(colours, text, Fore.GREEN, None)
    swaps = []  # (numba's errors module calls colorama's init by the name it imported)
    monkeypatch.setattr(errors, "init", lambda *a, **k: swaps.append(sys.stdout))
    monkeypatch.setattr(errors, "deinit", lambda *a, **k: None)
    colours.errmsg("no stream touched")
    assert swaps == []
    own(colours, "numba's own way", None)
    assert len(swaps) == 1  # (which would have touched them)


def test_the_quicker_compile_flags_give_numbas_values():
    # snakesim.core.jit replaces numba's TargetConfig.values (one property call per option) by
    # the options' defaults updated with the values set: the same dict, whatever is set, and
    # set later too (nothing kept from an earlier call).
    from numba.core import targetconfig
    from numba.core.compiler import Flags

    import snakesim.core.jit  # noqa: F401  (the replacement is made on import)

    assert targetconfig.TargetConfig.values.__qualname__.startswith("_quicker_flag_values")
    flags = Flags()
    numbas = lambda f: {name: getattr(f, name) for name in f.options}  # noqa: E731  (numba's own)
    assert flags.values() == numbas(flags)
    flags.nrt, flags.boundscheck, flags.error_model = True, True, "numpy"
    assert flags.values() == numbas(flags) and flags.values()["error_model"] == "numpy"
    other = Flags()
    other.nrt, other.boundscheck, other.error_model = True, True, "numpy"
    assert other == flags and hash(other) == hash(flags) and other != Flags()
