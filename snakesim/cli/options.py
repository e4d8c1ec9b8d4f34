"""Options shared by several commands, defined once (as pip-tools does)."""

import click

game_argument = click.argument("game", metavar="GAME")
players = click.option(
    "--players",
    "-p",
    type=int,
    default=4,
    show_default=True,
    help="Number of players (seats 0..n-1; seat 0 starts).",
)
seed = click.option(
    "--seed",
    "-s",
    type=int,
    default=1,
    show_default=True,
    help="Seed of the run; game i of seed s is always the same game.",
)
variant = click.option(
    "--variant",
    "-v",
    default=None,
    help="A named variant (see `snakesim variants GAME`). [default: standard]",
)
settings = click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    help="Set one rule option, e.g. --set start_coins=10 or --set deck.RAIN=3. Repeatable.",
)
rules_file = click.option(
    "--rules",
    "rules_file",
    type=click.Path(dir_okay=False),
    default=None,
    help='A TOML file of option values (and optionally variant = "NAME"); --set applies after it.',
)


def rule_options(fn):
    """All the options that choose the rules of a run."""
    for option in reversed((game_argument, players, seed, variant, settings, rules_file)):
        fn = option(fn)
    return fn
