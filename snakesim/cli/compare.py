"""The ``compare`` command: variants side by side on the same games."""

from __future__ import annotations

import json
import sys

import click

from snakesim.cli import cli, options
from snakesim.cli.format import format_comparison
from snakesim.core.compare import compare_variants
from snakesim.games import get_game


@cli.command()
@options.game_argument
@options.players
@options.seed
@click.option(
    "--variant", "-v", "variants", multiple=True, help="A variant to compare; repeat it. The first is the baseline."
)
@options.settings
@options.rules_file
@options.deck_file
@options.policy
@options.policies
@click.option("--games", "-n", "n_games", type=int, default=100_000, show_default=True, help="Games per variant.")
@click.option("--threads", "-t", type=int, default=None, help="numba threads [default: all].")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON records.")
def compare(
    game, players, seed, variants, settings, rules_file, deck_file, policy, policies, n_games, threads, as_json
):
    """Compare variants of GAME on the same games (common random numbers).

    Every variant plays games 0..N-1 of the same seed, so game i starts from the same
    shuffle in each and the differences are paired. For each metric (win rate per seat,
    draws, unfinished games, first-player advantage, length, winning margin) it prints each
    variant's value with its 95% interval and its difference from the first variant with a
    paired interval and a Holm-adjusted p-value; then each variant's seat-balance test.
    --set, --rules, --deck and the policies apply to every variant.

    \b
    Examples:
      snakesim compare fortune --players 4 --games 200000 --variant standard --variant one-snake
      snakesim compare rainbow -p 3 -v standard -v wild-snake -v poppies-orchids --policy random
    """
    spec = get_game(game)
    table = compare_variants(
        spec, players, n_games, variants or ("standard",), seed, rules_file, deck_file, settings, None, policy,
        policies, threads, progress=sys.stderr.isatty(),
    )  # fmt: skip
    if as_json:
        runs = table.attrs["runs"]
        meta = {"game": spec.name, "players": players, "games": n_games, "seed": seed, "variants": list(runs)}
        meta["options"] = {name: run["options"] for name, run in runs.items()}
        click.echo(json.dumps({**meta, "rows": json.loads(table.to_json(orient="records"))}))
        return
    header = f"{players} players, {n_games:,} games per variant, seed {seed}: game i is dealt alike in every variant"
    click.echo(format_comparison(table, spec.title, header))
