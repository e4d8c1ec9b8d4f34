"""The ``rules`` command: print a game's complete rules as TOML, or what differs between two arms."""

from __future__ import annotations

import click

from snakesim.cli import cli, options
from snakesim.core.rules import inline


@cli.command("rules")
@options.game_argument
@click.option(
    "--variant", "-v", default=None, help="The arm to print: a variant, a rules file, or LABEL=BASE,NAME=VALUE,..."
)
@options.settings
@options.rules_file
@options.deck_file
@click.option("--diff", nargs=2, metavar="A B", default=None, help="Print what differs between arms A and B.")
def rules_command(game, variant, settings, rules_file, deck_file, diff):
    """Print GAME's complete rules as TOML, or the differences between two arms.

    The TOML names every option, card effect and table; fed back with --rules it gives the
    same rules (the same hash). Every results table, summary and report records that hash,
    so two runs can be matched by their rules, not by the names given to them.

    \b
    Examples:
      snakesim rules fortune                              # the seed's game, in full
      snakesim rules fortune -v rejoin > mine.toml        # start a house rule from a variant
      snakesim rules fortune --rules mine.toml --set 'effects.SNAKE=[{take_cup = "half"}]'
      snakesim rules fortune --diff standard crosses-to-cup
      snakesim rules rainbow --diff standard 'mine=wild-snake,direction=both'
    """
    from snakesim.core.arms import RuleSource
    from snakesim.games import get_game

    spec = get_game(game)
    shared = RuleSource(rules_file=rules_file, deck_file=deck_file, settings=tuple(settings))
    if diff is not None:
        (name_a, a), (name_b, b) = (_rules_of(spec, text, shared) for text in diff)
        click.echo(f"# {spec.name}: {name_a} ({a.rules_hash()}) -> {name_b} ({b.rules_hash()})")
        lines = list(_differences(a.to_dict(), b.to_dict()))
        click.echo("\n".join(lines) if lines else "# the same rules")
        return
    name, rules = _rules_of(spec, variant or "standard", shared)
    click.echo(f"# {spec.title}\n# {name}: rules hash {rules.rules_hash()}\n")
    click.echo(rules.to_toml(), nl=False)


def _rules_of(spec, text, shared):
    from snakesim.core.arms import arm_rules, parse_arm

    arm = parse_arm(spec, text)
    return arm["name"], arm_rules(spec, arm, shared)[1]


def _differences(a: dict, b: dict, prefix: str = ""):
    """``name: A -> B`` for each option (or table entry) that differs."""
    for key in [*a, *(k for k in b if k not in a)]:
        va, vb = a.get(key), b.get(key)
        if va == vb:
            continue
        if isinstance(va, dict) and isinstance(vb, dict):
            yield from _differences(va, vb, f"{prefix}{key}.")
        else:
            show = [inline(v) if v is not None else "(none)" for v in (va, vb)]
            yield f"{prefix}{key}: {show[0]} -> {show[1]}"
