"""The registry of games: name -> :class:`~snakesim.core.registry.GameSpec`.

A game's package (and its kernel, and numba with it) is imported when the game is first
asked for, so that a command about one game does not load the others.
"""

from __future__ import annotations

import importlib

from snakesim.core.registry import GameSpec, lookup

NAMES = ("fortune", "rainbow", "hisss", "sssnake")


def get_game(name: str) -> GameSpec:
    """The game called ``name``; InputError naming the known games otherwise."""
    if name in NAMES:
        return importlib.import_module(f"snakesim.games.{name}").SPEC
    return lookup(dict.fromkeys(NAMES), name)  # (the error listing the known games)


def __getattr__(attribute: str):
    if attribute == "GAMES":  # every game, loaded now: dict[str, GameSpec]
        return {name: get_game(name) for name in NAMES}
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
