"""The ``compile`` command: every game's default kernel compiled ahead (snakesim.games.warm)."""

from __future__ import annotations

import os

import click

from snakesim.cli import cli


@cli.command(name="compile")
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--processes", type=click.IntRange(1, 256), default=None,
              help="Games compiled at once [default: one a core].")  # fmt: skip
@click.option("--thinking", is_flag=True,
              help="Also the engines of players who think ahead (expert, oracle), where a game has them.")  # fmt: skip
def compile_command(games, processes, thinking):
    """Compile the games' engines for this machine now, one game a core, so that no first run
    waits for the compiler.

    A game's first run compiles its engine (several seconds); numba keeps it in its cache, and
    later runs load it in a fraction of a second. This compiles each game's default engine (its
    standard rules, no look-ahead player) ahead: `make run` does it as part of the set-up. A
    game compiled already is only loaded from the cache (under a second). --thinking also
    compiles the engines of players who think ahead (expert, oracle), whose first game would
    otherwise wait 5-15 s.

    \b
    Examples:
      snakesim compile                  # every game
      snakesim compile sssnake hisss    # these two
      snakesim compile --thinking       # every game, and its players who think ahead
    """
    from snakesim.core.registry import lookup
    from snakesim.games import NAMES
    from snakesim.games.warm import game_of, warm_all, with_thinking

    for game in games:  # (checked by name: the games themselves load in the processes that compile them)
        lookup(dict.fromkeys(NAMES), game)
    named = list(dict.fromkeys(games)) or list(NAMES)
    chosen = with_thinking(named) if thinking else named
    at_once = min(processes or os.cpu_count() or 1, len(chosen))
    also = " and of their players who think ahead" if thinking else ""
    click.echo(f"getting the engines of {', '.join(named)}{also} ready for this machine (compiling those not in "
               f"the cache), {at_once} at once", err=True)  # fmt: skip

    def done(engine: str, seconds: float | None, error: str) -> None:
        game, thinks = game_of(engine)
        name = f"{game}, players who think ahead" if thinks else game
        if seconds is None:
            click.echo(f"  {name}: failed ({error})")
        else:
            click.echo(f"  {name}: ready ({'compiled' if seconds > 1 else 'loaded from the cache'} in {seconds:.1f} s)")

    took = warm_all(chosen, processes, done=done)
    if any(s is None for s in took.values()):
        raise SystemExit(1)
