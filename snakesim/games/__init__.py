"""The registry of games: name -> :class:`~snakesim.core.registry.GameSpec`."""

from snakesim.core.registry import GameSpec, lookup
from snakesim.games import fortune, hisss, rainbow, sssnake

GAMES: dict[str, GameSpec] = {spec.name: spec for spec in (fortune.SPEC, rainbow.SPEC, hisss.SPEC, sssnake.SPEC)}


def get_game(name: str) -> GameSpec:
    """The game called ``name``; InputError naming the known games otherwise."""
    return lookup(GAMES, name)
