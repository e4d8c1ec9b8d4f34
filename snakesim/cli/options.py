"""Options shared by several commands, defined once (as pip-tools does)."""

import click

from snakesim.core.defaults import BACKENDS, DEFAULT_SEED

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
    default=DEFAULT_SEED,
    show_default=True,
    help="Seed of the run; game i of seed s is always the same game.",
)
variant = click.option(
    "--variant",
    "-v",
    default=None,
    metavar="ARM",
    help="A named variant (see `snakesim variants GAME`), a rules file, or LABEL=BASE,NAME=VALUE,... "
    "(see `snakesim compare --help`). [default: standard]",
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

deck_file = click.option(
    "--deck",
    "deck_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="A TOML file of deck data only (card counts, colours), e.g. the real counts of your copy.",
)
matters = click.option(
    "--matters",
    multiple=True,
    metavar="FIGURE=SIZE,...",
    help="The smallest difference that matters, per figure: a share's in percentage points (win_rate=2, "
    "comeback=5%), any other's in its unit (lead_changes=0.25) or as a share of the first rule set's value "
    "(length=3%). Repeatable. [default: win_rate=1, length=5%, lead_changes=0.5, shares 3; see docs/what-matters.md]",
)
policy = click.option(
    "--policy", default=None, help="Play policy for every seat, in games with choices (see `snakesim variants GAME`)."
)
policies = click.option(
    "--policies", default=None, metavar="A,B,...", help="One policy per seat, comma-separated (e.g. greedy,random)."
)


player_counts = click.option(
    "--players",
    "-p",
    "players_text",
    default="4",
    show_default=True,
    metavar="N|N,M|LOW..HIGH",
    help="Number of players, or several (3,5 or 2..5): each count on its own, one after the other.",
)


def rule_options(fn, several: bool = False):
    """All the options that choose the game, its rules and its players (with ``several``, one
    or more player counts: ``players_text``)."""
    counts = player_counts if several else players
    for option in reversed((game_argument, counts, seed, variant, settings, rules_file, deck_file, policy, policies)):
        fn = option(fn)
    return fn


def backend_options(fn):
    """--backend, --scheduler and --workers: where the games are played."""
    for option in reversed(
        (
            click.option(
                "--backend",
                type=click.Choice(BACKENDS),
                default="threads",
                show_default=True,
                help="Where games are played: numba threads here, or a Dask distributed cluster.",
            ),
            click.option("--scheduler", default=None, help="With --backend dask: join the cluster at tcp://HOST:PORT."),
            click.option(
                "--workers",
                type=int,
                default=None,
                help="With --backend dask and no --scheduler: local worker processes [default: cores].",
            ),
        )
    ):
        fn = option(fn)
    return fn


def catalogue_options(fn):
    """``--catalogue PATH`` and ``--fresh``: where answers are kept, and playing a kept one again."""
    fn = click.option(
        "--fresh", is_flag=True,
        help="Play the games again even where the catalogue keeps this answer (and keep the new one).",
    )(fn)  # fmt: skip
    return click.option(
        "--catalogue", "catalogue_path", type=click.Path(dir_okay=False), default=None, metavar="PATH",
        help="The catalogue of kept answers [default: $SNAKESIM_HOME/catalogue.sqlite, else the user's data folder].",
    )(fn)  # fmt: skip
