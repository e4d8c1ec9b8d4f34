"""Play a run whose inputs are checked (``snakesim.core.arms`` resolves them): split the game
indices into blocks, play each block with the game's numba kernel on a backend (threads here,
or a Dask cluster), and build the table, or only the summary's sums.

Blocks exist for the progress bar, for memory, for spreading work over a cluster and for
resuming a run; they cannot change a result, because game ``i`` draws only from its own
stream. ``tests/test_runner.py`` checks that the table is the same for 1 and 2 threads, for
different block sizes and for the Dask backend.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib.metadata import version
from typing import TYPE_CHECKING

from snakesim.core.arms import Budget, check_run
from snakesim.core.backends import ThreadsBackend
from snakesim.core.columns import allocate, row_bytes
from snakesim.core.compiling import prepare
from snakesim.core.defaults import DEFAULT_CHUNK, DEFAULT_SEED, MAX_CHUNK, MAX_GAMES  # noqa: F401 (re-exported)
from snakesim.core.errors import InputError
from snakesim.core.policies import encode_policies
from snakesim.core.progress import progress_bar
from snakesim.core.registry import GameSpec
from snakesim.core.results import build_table
from snakesim.core.rules import Int, Rules
from snakesim.core.store import BadBlock, RunStore
from snakesim.core.tally import Tally, merge, table_columns, tally_columns
from snakesim.core.threads import max_threads, reporting  # noqa: F401 (max_threads re-exported)

if TYPE_CHECKING:
    import pandas as pd


def available_memory() -> int:
    """Bytes of memory available to a new allocation here (Linux ``MemAvailable``), or 0 if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def check_table_memory(spec: GameSpec, players: int, games: int, field: str = "--games") -> None:
    """InputError if a per-game table of ``games`` rows would not fit in the memory available.

    A table is held once (its columns are filled in place as the blocks arrive), plus the
    blocks in flight and a slice of it while a file is written: a quarter more must fit.
    """
    need = 5 * games * row_bytes(spec.columns, players) // 4
    have = available_memory()
    if have and need > have:
        raise InputError(
            field,
            f"a per-game table of {games:,} games needs about {need / 2**30:,.1f} GiB, more than the "
            f"{have / 2**30:,.1f} GiB available; use --summary-only, or --out DIR to keep the table on disk in blocks",
        )


def plan_blocks(first: int, games: int, block_size: int) -> list[tuple[int, int, int]]:
    """The run's blocks: ``(index, first game, count)`` covering games ``first .. first+games-1``."""
    return [
        (k, start, min(block_size, first + games - start))
        for k, start in enumerate(range(first, first + games, block_size))
    ]


def play_task(spec: GameSpec, rules: Rules, players: int, seed: int, codes, summary_only: bool, start: int,
              count: int):  # fmt: skip
    """Play one block of games: the kernel's columns or, with ``summary_only``, their tally.

    A plain module-level function of picklable arguments, so a Dask worker can run it: the
    game's spec travels with the task (its kernel's front and its rules class pickle by name),
    so the core never looks a game up.
    """
    columns = spec.play_block(rules, players, seed, start, count, policies=codes)
    if summary_only:
        return tally_columns(spec, columns, players)
    return columns


def play_blocks(
    spec: GameSpec,
    rules: Rules,
    players: int,
    budget: Budget,
    *,
    progress: bool = False,
    policies: tuple[str, ...] = (),
    backend=None,
    summary_only: bool = False,
    store: RunStore | None = None,
    keep: Callable | None = None,
    on_games: Callable[[int], None] | None = None,
) -> list:
    """Play the budget's games ``first .. first+games-1`` of its seed in blocks of
    ``budget.block``; return each block's columns (the kernel's arrays; or, with
    ``summary_only``, its tally) in block order.

    ``backend`` plays the blocks (threads in this process if None). With a ``store``, the
    blocks already in the run folder are checked and read instead of played (one that is not
    provably this run's is set aside and played again), and each block is written there as
    soon as it is finished, so an interrupted run loses only the blocks in flight. ``keep``,
    if given, turns each block's result and its first game into what is kept in memory (the
    columns' tally, say, or nothing once they are copied where they belong).
    """
    check_run(spec, rules, players, budget)
    Int(1, MAX_CHUNK).check("chunk_size", budget.block)
    games, seed, first = budget.games, budget.seed, budget.first
    backend = backend or ThreadsBackend()
    keep = keep or (lambda result, start: result)
    codes = encode_policies(spec, policies) if policies else None
    blocks = plan_blocks(first, games, budget.block)
    results = {}
    if store is not None:
        store.create()
    try:
        if store is not None:
            present = store.done()
            for index, start, count in blocks:
                if index in present:
                    try:
                        loaded = store.load(index, start, count)
                        if not isinstance(loaded, Tally):  # a block's table: back to columns
                            loaded = table_columns(spec, loaded, players)
                        results[index] = keep(loaded, start)
                    except BadBlock as bad:
                        store.reject(index, str(bad))
            store.resumed_games = sum(count for k, _, count in blocks if k in results)
        pending = [b for b in blocks if b[0] not in results]
        args = (spec, rules, players, seed, codes, summary_only)
        already = sum(count for k, _, count in blocks if k in results)
        if pending:  # the kernel loaded or compiled before the bar starts (and said so if it compiles)
            prepare(spec, rules, players, seed, codes, notice=progress)
        with progress_bar(games, progress, desc=spec.name, initial=already) as bar:

            def done(count: int) -> None:
                bar.update(count)
                if on_games is not None:
                    on_games(count)

            live = getattr(backend, "live", False)  # games counted as they finish, not per block
            if pending:
                backend.warm_up(play_task, args)
                with backend, reporting(done if live else None):
                    for index, result in backend.map(play_task, pending, args):
                        start, count = blocks[index][1], blocks[index][2]
                        if store is not None:  # (a block's file holds its table)
                            table = result if summary_only else build_table(spec, result, seed, start, {})
                            store.write(index, start, count, table)
                        results[index] = keep(result, start)
                        if not live:
                            done(count)
    finally:
        if store is not None:
            store.close()
    return [results[k] for k, _, _ in blocks]


def run_metadata(spec: GameSpec, variant: str, rules: Rules, players: int, budget: Budget,
                 policies: tuple[str, ...] = ()) -> dict:  # fmt: skip
    """What a table needs to be regenerated: game, rules, policies, players, seed, games, version."""
    return {
        "game": spec.name,
        "variant": variant,
        "options": rules.to_dict(),
        "changes": rules.changes(),
        "rules_hash": rules.rules_hash(),
        "policies": list(policies),
        "players": players,
        "games": budget.games,
        "seed": budget.seed,
        "first_game": budget.first,
        "version": version("snakesim"),
    }


def simulate_spec(
    spec: GameSpec,
    rules: Rules,
    players: int,
    budget: Budget,
    variant: str = "standard",
    *,
    threads: int | None = None,
    progress: bool = False,
    policies: tuple[str, ...] = (),
    backend=None,
    store: RunStore | None = None,
) -> pd.DataFrame:
    """Play the budget's games with resolved rules and policies; return their table (metadata
    in ``attrs``).

    ``backend`` (a ``snakesim.core.backends`` backend) plays the blocks; the default is
    ``threads`` numba threads in this process. ``store`` keeps finished blocks in a run folder.
    Raises InputError, before playing, if the table would not fit in the memory available.
    """

    games, first = budget.games, budget.first
    check_table_memory(spec, players, games)
    if backend is None:
        backend = ThreadsBackend(threads)
    # The table's final columns, filled in place block by block as the blocks arrive: no
    # per-block tables to concatenate, so the run's memory is one table's.
    final = allocate(spec.columns, games, players)

    def fill(columns, start):
        at, count = start - first, len(columns["outcome"])
        for name, values in final.items():
            values[at : at + count] = columns[name]

    play_blocks(spec, rules, players, budget, progress=progress, policies=policies, backend=backend, store=store,
                keep=fill)  # fmt: skip
    return build_table(
        spec, final, budget.seed, first, run_metadata(spec, variant, rules, players, budget, policies=policies)
    )


def tally_spec(
    spec: GameSpec,
    rules: Rules,
    players: int,
    budget: Budget,
    *,
    progress: bool = False,
    policies: tuple[str, ...] = (),
    backend=None,
    store: RunStore | None = None,
    tables: bool = False,
) -> Tally:
    """Play a run keeping only its mergeable sums; blocks merged in order.

    With ``tables`` the blocks are per-game tables (written to ``store``, a per-game run
    folder) of which only the tallies are kept in memory; else they are tallies
    (``--summary-only``).
    """
    keep = (lambda columns, start: tally_columns(spec, columns, players)) if tables else None
    parts = play_blocks(spec, rules, players, budget, progress=progress, policies=policies, backend=backend,
                        summary_only=not tables, store=store, keep=keep)  # fmt: skip
    return merge(parts)
