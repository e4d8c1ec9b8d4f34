"""The ``snakesim`` command line: a click group of thin commands over the library."""

from __future__ import annotations

import sys

import click

from snakesim.core.errors import InputError


class Command(click.Command):
    """A command whose help ends with how each kind of player plays, when it takes ``--policy``
    or ``--policies``: one line a kind, so that ``greedy,random`` is not jargon."""

    def format_epilog(self, ctx, formatter):
        super().format_epilog(ctx, formatter)
        if any(p.name in ("policy", "policies") for p in self.params):
            from snakesim.core.policies import POLICY_WORDS, policies_help
            from snakesim.games import GAMES

            rows = []
            for name, words in policies_help(tuple(POLICY_WORDS)):
                games = [g.name for g in GAMES.values() if name.partition(":")[0] in g.policies]
                rows.append((name, words + ("" if len(games) > 2 else f" ({', '.join(games)} only)")))
            with formatter.section("Players (--policy, --policies; in games with choices)"):
                formatter.write_dl(rows)


class Group(click.Group):
    """A click group whose errors are one line on stderr with exit status 2.

    Click's usage errors and snakesim's InputError both end here, so every bad input
    (unknown name, wrong type, out-of-range value, unreadable file) looks the same and leaves
    no traceback; so do a failed write (a full disk) and running out of memory.
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Abort:
            click.echo("snakesim: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as err:
            click.echo(f"snakesim: error: {err.format_message()}", err=True)
            sys.exit(2)
        except InputError as err:
            click.echo(f"snakesim: error: {err}", err=True)
            sys.exit(2)
        except RecursionError:
            click.echo("snakesim: error: input nested too deeply to read", err=True)
            sys.exit(2)
        except OSError as err:  # a full disk, a folder that went away: the system's own words
            where = f"{err.filename}: " if err.filename else ""
            click.echo(f"snakesim: error: {where}{err.strerror or err}", err=True)
            sys.exit(2)
        except MemoryError:
            click.echo("snakesim: error: out of memory; use fewer games, --summary-only or --out DIR", err=True)
            sys.exit(2)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)

    command_class = Command


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="snakesim", prog_name="snakesim")
def cli():
    """Monte Carlo rules analysis: what does this house rule do to the game?

    \b
    Examples:
      snakesim games
      snakesim variants fortune
      snakesim run fortune --players 4 --games 1000000 --seed 1
      snakesim run fortune --variant one-snake --set start_coins=10 --out one.parquet
      snakesim trace fortune --players 4 --seed 1 --game 42
      snakesim rules fortune -v rejoin > house.toml        # every rule, as TOML to edit
      snakesim compare fortune -v standard -v house.toml   # your house rule against the seed's
      snakesim workbench --open                            # the same in your browser
    """


def main() -> None:
    """Console-script entry point."""
    cli()


# (registers the commands)
from snakesim.cli import (  # noqa: E402,F401
    balance,
    commands,
    compare,
    compiled,
    design,
    exact,
    results,
    rules,
    skill,
    study,
    sweep,
    workbench,
)
