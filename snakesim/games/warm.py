"""Compiling the games' default kernels ahead, where a person will ask for them.

A game's first run compiles its kernel for this machine (several seconds; later runs load it
from numba's on-disk cache in a fraction of one). Three places compile ahead instead:

- ``snakesim compile`` (and the set-up, ``make run``) compiles every game's default kernel at
  once, one process a core (:func:`warm_all`);
- ``snakesim workbench`` starts a background process that compiles them while the page is
  read (:class:`Background`), the page's first game first; a Play whose game is compiling
  there waits for that game only, then loads it from the cache, and a Play whose game has
  not started there compiles it itself (the background process then loads it).

A game's default kernel is the one its default run plays: its standard rules (the game feel
recorded) and its default players, with no look-ahead player. With ``thinking``, the kernels
for players who think ahead follow, in the games that have them (``snakesim compile
--thinking``; the workbench's background process, once the default kernels are ready). A run
that needs another (the feel off, say) compiles it when it is first played, as before.

Each kernel compiled ahead is an *engine*, named after its game (``sssnake``), or after its
game and ``-thinking`` for the look-ahead players' (``sssnake-thinking``).

``python -m snakesim.games.warm [--status FOLDER] [--processes N] [--thinking] GAME...`` is the
background process: it compiles the games named, writing ``FOLDER/ENGINE.json`` (``{"state":
"compiling" | "ready" | "failed", "seconds": ...}``) as each starts and ends.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from snakesim.core.files import atomic_write

DEFAULT_PLAYERS = 4  # (as `snakesim run` and the workbench seat them unless told)
THINKING = "-thinking"  # (an engine's name: its game's, and this for the look-ahead players' kernel)


def engine(game: str, thinks: bool = False) -> str:
    """The name of ``game``'s default kernel, or with ``thinks`` its look-ahead players'."""
    return game + THINKING if thinks else game


def game_of(name: str) -> tuple[str, bool]:
    """``(game, thinks)`` of the engine ``name``."""
    return (name[: -len(THINKING)], True) if name.endswith(THINKING) else (name, False)


def warm(game: str, thinks: bool = False) -> float:
    """Load or compile ``game``'s default kernel in this process (with ``thinks``, the one with
    a player who thinks ahead at the first seat); the seconds it took."""
    from snakesim.core import compiling
    from snakesim.core.policies import LOOKAHEAD_POLICIES, encode_policies
    from snakesim.games import get_game

    spec = get_game(game)
    players = min(max(DEFAULT_PLAYERS, spec.min_players), spec.max_players)
    codes = None
    if thinks:
        thinker = next(p for p in spec.policies if p in LOOKAHEAD_POLICIES)
        codes = encode_policies(spec, [thinker] + [spec.default_policy] * (players - 1))
    return compiling.prepare(spec, spec.rules(), players, 1, codes, notice=False)


def with_thinking(games: Sequence[str]) -> list[str]:
    """The engines of ``games``: each one's default, then the look-ahead players' of those that
    have them."""
    from snakesim.core.policies import LOOKAHEAD_POLICIES
    from snakesim.games import get_game

    thinking = [engine(g, True) for g in games if set(get_game(g).policies) & set(LOOKAHEAD_POLICIES)]
    return [*games, *thinking]


def _order(engines: Sequence[str]) -> list[str]:
    """The engines longest to compile first, so that the last to finish starts earliest."""
    from snakesim.core.compiling import estimate

    return sorted(engines, key=lambda name: -estimate(*game_of(name))[1])


def warm_all(games: Sequence[str], processes: int | None = None, *, status: Path | None = None,
             longest_first: bool = True, done: Callable[[str, float | None, str], None] | None = None,
             ) -> dict[str, float | None]:  # fmt: skip
    """Compile the engines ``games`` (a game's name: its default kernel; :func:`engine`) at
    once, ``processes`` at a time (by default one a core), each in a process of its own, the
    longest to compile first (else in the order given); the seconds each took (None where it
    failed). With ``status``, each engine's state is written there as it starts and ends;
    ``done(engine, seconds, error)`` is called as each ends."""
    import multiprocessing

    processes = max(1, min(processes or os.cpu_count() or 1, len(games)))
    out: dict[str, float | None] = {}
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        order = _order(games) if longest_first else list(games)
        running = {pool.submit(_warm_saying, game, status): game for game in order}
        for future in as_completed(running):
            game, error = running[future], ""
            try:
                out[game] = future.result()
            except Exception as err:  # (a game that fails here fails again, and says why, when played)
                out[game], error = None, f"{type(err).__name__}: {err}"
            if status is not None:
                _write_state(status, game, "failed" if out[game] is None else "ready", seconds=out[game], error=error)
            if done is not None:
                done(game, out[game], error)
    return out


def _warm_saying(name: str, status: Path | None) -> float:
    """:func:`warm` of the engine ``name`` in a worker process, saying in ``status`` when it starts."""
    if status is not None:
        _write_state(status, name, "compiling")
    return warm(*game_of(name))


def _write_state(folder: Path, game: str, state: str, **more) -> None:
    text = json.dumps({"state": state, **more})  # (a reader sees the old state or the new, never half of one)
    atomic_write(folder / f"{game}.json", lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


class Background:
    """The workbench's background process compiling ``games``' default kernels (in that
    order's priority, ``processes`` at a time, at a low priority so that a Play comes first),
    with each game's state in ``folder``; with ``thinking``, then the look-ahead players'.

    :meth:`states` reads the default kernels' (the page lists them); :meth:`wait` waits while
    one kernel compiles; :meth:`stop` ends the process.
    """

    def __init__(self, games: Sequence[str], folder: str | os.PathLike, processes: int | None = None,
                 command: Sequence[str] | None = None, thinking: bool = False):  # fmt: skip
        self.games, self.folder = list(games), Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        for game in self.games:
            _write_state(self.folder, game, "pending")
        if command is None:  # (another, for tests: given the folder and the games after it)
            command = [sys.executable, "-m", "snakesim.games.warm"] + (
                ["--processes", str(processes)] if processes else []
            )
            command += ["--thinking"] if thinking else []
            command += ["--status"]
        command = [*command, str(self.folder)]
        # (a session of its own: stop() ends it and the processes it starts, all together)
        self.process = subprocess.Popen([*command, *self.games], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip

    def states(self) -> dict[str, dict]:
        """Each game's default kernel's state (``pending``, ``compiling``, ``ready``,
        ``failed``), and its seconds once ready; one still pending or compiling when the
        process has ended is ``failed``."""
        return {game: self._state(game) for game in self.games}

    def _state(self, name: str) -> dict:
        ended = self.process.poll() is not None
        try:
            state = json.loads((self.folder / f"{name}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            state = {"state": "pending"}
        if ended and state.get("state") in ("pending", "compiling"):
            state = {"state": "failed"}
        return state

    def compiling(self, game: str, thinks: bool = False) -> bool:
        """Whether ``game``'s default kernel (with ``thinks``, its look-ahead players') is being
        compiled here now (not waiting its turn: a run whose kernel has not started here
        compiles it itself, waiting for no other)."""
        return game in self.games and self._state(engine(game, thinks))["state"] == "compiling"

    def wait(self, game: str, cancelled: threading.Event | None = None, poll: float = 0.1,
             thinks: bool = False) -> str:  # fmt: skip
        """Wait while ``game``'s kernel (with ``thinks``, its look-ahead players') is being
        compiled (until ready, failed, or ``cancelled`` is set); its state."""
        while self.compiling(game, thinks) and not (cancelled is not None and cancelled.is_set()):
            time.sleep(poll)
        return self._state(engine(game, thinks))["state"] if game in self.games else "ready"

    def stop(self) -> None:
        """End the background process and its workers (the kernels they compiled stay in the cache)."""
        import signal

        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.process.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            try:
                self.process.wait(5)
                break
            except subprocess.TimeoutExpired:
                continue


def main(argv: Sequence[str] | None = None) -> int:
    """The background process (see the module docstring)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m snakesim.games.warm")
    parser.add_argument("--status", type=Path, default=None)
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--thinking", action="store_true")
    parser.add_argument("games", nargs="+")
    args = parser.parse_args(argv)
    try:
        os.nice(10)  # (the workbench's own runs come first)
    except (AttributeError, OSError):
        pass
    engines = with_thinking(args.games) if args.thinking else args.games
    warm_all(engines, args.processes, status=args.status, longest_first=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
