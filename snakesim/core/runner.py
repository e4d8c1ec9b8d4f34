"""Run many games: resolve the rules, split the game indices into chunks, play each chunk
with the game's numba kernel on the requested number of threads, and build the table.

Chunks exist for the progress bar and for memory; they cannot change a result, because game
``i`` draws only from its own stream. ``tests/test_runner.py`` checks that the table is
the same for 1 and 2 threads and for different chunk sizes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from snakesim.core.errors import InputError
from snakesim.core.policies import encode_policies, resolve_policies
from snakesim.core.progress import progress_bar
from snakesim.core.registry import GameSpec
from snakesim.core.results import build_table
from snakesim.core.rng import MAX_SEED
from snakesim.core.rules import Int, Rules

DEFAULT_CHUNK = 1 << 16
MAX_GAMES = 10**12


def max_threads() -> int:
    """The most threads numba may use here (``NUMBA_NUM_THREADS``, by default the cores)."""
    return numba.config.NUMBA_NUM_THREADS


@contextmanager
def numba_threads(threads: int | None) -> Iterator[None]:
    """Use ``threads`` numba threads inside the block (all of them if None)."""
    if threads is None:
        yield
        return
    Int(1, max_threads()).check("threads", threads)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def resolve_rules(
    spec: GameSpec,
    variant: str | None = None,
    rules_file: str | Path | None = None,
    settings: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
    deck_file: str | Path | None = None,
) -> tuple[str, Rules]:
    """Build the rules of a run, in order: variant, rules file, deck file, ``--set``, options.

    Returns the variant's name (``standard`` unless one is given) and the checked rules.
    """
    file_variant, file_rules = (None, None)
    if rules_file is not None:
        base = spec.rules.variant(variant) if variant else None
        file_variant, file_rules = spec.rules.from_toml(rules_file, base)
        if variant and file_variant and variant != file_variant:
            raise InputError(
                "variant",
                f"--variant {variant} conflicts with variant = {file_variant!r} in {rules_file}",
            )
    name = variant or file_variant or "standard"
    rules = file_rules or spec.rules.variant(name)
    if deck_file is not None:
        rules = rules.with_deck_file(deck_file)
    rules = rules.with_settings(settings).updated(options or {})
    return name, rules


def check_run(spec: GameSpec, rules: Rules, players: int, games: int, seed: int, first: int = 0) -> None:
    """Raise InputError for a player count, game count, seed or first index out of range."""
    spec.check(rules, players)
    Int(1, MAX_GAMES).check("games", games)
    Int(0, MAX_SEED).check("seed", seed)
    Int(0, MAX_GAMES).check("first", first)


def resolve_run(
    spec: GameSpec,
    players: int,
    games: int = 1,
    seed: int = 0,
    first: int = 0,
    variant: str | None = None,
    rules_file: str | Path | None = None,
    settings: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
    deck_file: str | Path | None = None,
    policy: str | None = None,
    policies: str | Sequence[str] | None = None,
) -> tuple[str, Rules, tuple[str, ...]]:
    """Everything a run needs checked before a game is played.

    Returns the variant's name, the rules and each seat's policy (empty for a game without
    choices); raises InputError for any bad value.
    """
    name, rules = resolve_rules(spec, variant, rules_file, settings, options, deck_file)
    check_run(spec, rules, players, games, seed, first)
    return name, rules, resolve_policies(spec, players, policy, policies)


def play_games(
    spec: GameSpec,
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    first: int = 0,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: bool = False,
    policies: tuple[str, ...] = (),
) -> dict[str, np.ndarray]:
    """Play games ``first .. first+games-1`` with the kernel; return their columns."""
    check_run(spec, rules, players, games, seed, first)
    Int(1, MAX_GAMES).check("chunk_size", chunk_size)
    codes = encode_policies(spec, policies) if policies else None
    parts = []
    with numba_threads(threads), progress_bar(games, progress, desc=spec.name) as bar:
        for start in range(first, first + games, chunk_size):
            count = min(chunk_size, first + games - start)
            parts.append(spec.play_block(rules, players, seed, start, count, policies=codes))
            bar.update(count)
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def run_metadata(
    spec: GameSpec,
    variant: str,
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    first: int = 0,
    policies: tuple[str, ...] = (),
) -> dict:
    """What a table needs to be regenerated: game, rules, policies, players, seed, games, version."""
    return {
        "game": spec.name,
        "variant": variant,
        "options": rules.to_dict(),
        "changes": rules.changes(),
        "policies": list(policies),
        "players": players,
        "games": games,
        "seed": seed,
        "first_game": first,
        "version": version("snakesim"),
    }


def simulate_spec(
    spec: GameSpec,
    rules: Rules,
    players: int,
    games: int,
    seed: int = 0,
    variant: str = "standard",
    first: int = 0,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: bool = False,
    policies: tuple[str, ...] = (),
) -> pd.DataFrame:
    """Play a run with resolved rules and policies; return its table (metadata in ``attrs``)."""
    columns = play_games(spec, rules, players, games, seed, first, threads, chunk_size, progress, policies)
    meta = run_metadata(spec, variant, rules, players, games, seed, first, policies)
    return build_table(spec, columns, seed, first, meta)
