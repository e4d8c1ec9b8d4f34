"""The commands: games, variants, run, trace."""

from __future__ import annotations

import os
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import click

from snakesim.cli import cli, options
from snakesim.cli.format import describe_changes, format_findings, format_summary, format_table, to_json
from snakesim.core.defaults import DEFAULT_CHUNK, MAX_CHUNK, MAX_GAMES
from snakesim.core.errors import InputError
from snakesim.core.rules import Int

if TYPE_CHECKING:
    from snakesim.core.store import RunStore


@cli.command()
def games():
    """List the games snakesim can play."""
    from snakesim.games import GAMES

    rows = [
        {"game": s.name, "players": f"{s.min_players}-{s.max_players}", "description": s.title} for s in GAMES.values()
    ]
    click.echo(format_table(rows, ["game", "players", "description"]))


@cli.command()
@options.game_argument
def variants(game):
    """List a game's variants and every rule option with its default and allowed values.

    \b
    Example:
      snakesim variants fortune
    """
    from snakesim.core.policies import policy_parameters
    from snakesim.games import get_game

    spec = get_game(game)
    rows = [
        {
            "variant": name,
            "changes": describe_changes(spec.rules.variant(name).changes()),
            "description": v.description,
        }
        for name, v in spec.rules.VARIANTS.items()
    ]
    click.echo(f"{spec.title}\n\nVariants (--variant NAME):\n")
    click.echo(format_table(rows, ["variant", "changes", "description"]))
    click.echo("\nOptions (--set NAME=VALUE, or NAME = VALUE in a --rules TOML file):\n")
    for row in spec.rules.describe_options():
        click.echo(f"  {row['name']}  (default {row['default']})\n      {row['help']}\n      allowed: {row['allowed']}")
    if spec.policies:
        click.echo(
            f"\nPolicies (--policy NAME for every seat, --policies A,B,... one per seat): {', '.join(spec.policies)}"
            f" [default: {spec.default_policy}]; their exact rules are in docs/games/{spec.name}.md"
        )
        click.echo(policy_parameters(spec))


@cli.command()
@options.rule_options
@click.option(
    "--games",
    "-n",
    "n_games",
    type=int,
    default=100_000,
    show_default=True,
    help="Number of games.",
)
@click.option(
    "--threads",
    "-t",
    type=int,
    default=None,
    help="numba threads [default: all the cores, or NUMBA_NUM_THREADS].",
)
@click.option(
    "--chunk-size",
    type=int,
    default=DEFAULT_CHUNK,
    show_default=True,
    help="Games per kernel call (results do not depend on it).",
)
@click.option(
    "--out",
    "-o",
    type=click.Path(),
    default=None,
    help="Write the per-game table to a .parquet or .csv file; or, given a folder, keep each finished "
    "block there so that the same command resumes an interrupted run.",
)
@options.backend_options
@click.option(
    "--summary-only",
    is_flag=True,
    help="Keep only mergeable sums (counts, sums, histograms), not the per-game table: for very long runs.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the text summary.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr [default: when stderr is a terminal].",
)
def run(
    game,
    players,
    seed,
    variant,
    settings,
    rules_file,
    deck_file,
    policy,
    policies,
    n_games,
    threads,
    chunk_size,
    out,
    backend,
    scheduler,
    workers,
    summary_only,
    as_json,
    progress,
):
    """Play many games of GAME and summarise them.

    Prints each seat's win rate with its 95% interval, the draw and unfinished rates, the
    game length (mean with interval, median, 95th percentile, maximum), the game feel (lead
    changes, comebacks, when the winner is known; unless the rules say feel = false) and the
    same in words. The same seed gives the same games on any backend, thread count or block
    size.

    \b
    Examples:
      snakesim run fortune --players 4 --games 1000000 --seed 1
      snakesim run fortune -p 3 --variant one-snake --set start_coins=10
      snakesim run fortune --rules my_rules.toml --out results/mine.parquet
      snakesim run fortune --games 10000 --json
      snakesim run fortune --games 100000000 --summary-only --out runs/big     # resumable
      snakesim run fortune --backend dask --workers 2 --games 10000000
      snakesim run fortune --backend dask --scheduler tcp://10.0.0.5:8786 --summary-only -n 1000000000
    """
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.core.backends import make_backend
    from snakesim.core.compiling import spent as spent_compiling
    from snakesim.core.results import write_table
    from snakesim.core.runner import max_threads, plan_blocks
    from snakesim.questions import run as question

    budget = Budget(n_games, seed, block=chunk_size)
    source = RuleSource(variant, rules_file, deck_file, settings, policy=policy, policies=policies)
    plan = question.ask(game, players, budget, source)
    spec, rules, seats = plan.spec, plan.rules, plan.seats
    engine = make_backend(backend, threads, scheduler, workers)
    Int(1, MAX_CHUNK).check("--chunk-size", chunk_size)
    table_file, store = _destination(out, summary_only, {**plan.metadata(), "block_size": chunk_size})
    if progress is None:
        progress = sys.stderr.isatty()
    blocks = plan_blocks(0, n_games, chunk_size)
    start, compiling = time.perf_counter(), spent_compiling()
    try:
        # (without a table file only the sums are kept in memory, whatever the run's size; a
        # per-game run folder still gets every block's table on disk)
        answer = question.play(plan, backend=engine, threads=threads, progress=progress, table=table_file is not None,
                               store=store, summary_only=summary_only)  # fmt: skip
    except KeyboardInterrupt:
        if store is not None:
            click.echo(
                f"interrupted: {len(store.done())} of {len(blocks)} blocks are kept in {out}; "
                "run the same command again to resume",
                err=True,
            )
        sys.exit(130)
    elapsed = time.perf_counter() - start - (spent_compiling() - compiling)  # (play time only)
    resumed, summary = answer.resumed, answer.summary
    if table_file is not None:
        write_table(answer.table, table_file)
    if as_json:
        more = {"elapsed_s": elapsed, "version": version("snakesim"), "out": out, "backend": backend,
                "resumed_games": resumed}  # fmt: skip
        click.echo(to_json({**summary, **more, "findings": answer.findings}))
        return
    click.echo(
        format_summary(
            summary,
            spec.title,
            spec.length_unit,
            rules.changes(),
            seats,
            standing_unit=spec.standing_unit,
            outcome_words=spec.outcome_words,
        )
    )
    click.echo(format_findings(answer.findings, summary["level"]))
    if backend == "dask":
        where = f"the Dask cluster at {scheduler}" if scheduler else f"{workers or os.cpu_count()} Dask workers"
    else:
        used = threads or max_threads()
        where = f"{used} thread{'s' * (used > 1)}"
    played = n_games - resumed
    click.echo(f"\n{played:,} games played in {elapsed:.2f} s ({played / elapsed:,.0f} games/s on {where})")
    if resumed:
        click.echo(f"{resumed:,} games read from the blocks already in {out}")
    if table_file is not None:
        click.echo(f"table written to {out}")
    elif store is not None:
        click.echo(f"blocks kept in {out} (read them with snakesim.read_table)")


def _destination(out, summary_only: bool, manifest: dict) -> tuple[Path | None, RunStore | None]:
    """Where ``run --out`` writes: a table file, or a run folder of blocks (checked, not created)."""
    from snakesim.core.results import FORMATS, check_output_path
    from snakesim.core.store import RunStore

    if out is None:
        return None, None
    if Path(out).suffix.lower() in FORMATS:
        if summary_only:
            raise InputError("--out", "a --summary-only run keeps no per-game table; give a folder to keep its blocks")
        return check_output_path(out), None
    if Path(out).suffix and not Path(out).is_dir():
        raise InputError("--out", f"expected a file ending in {' or '.join(FORMATS)}, or a folder name, got {out!r}")
    return None, RunStore(out, {**manifest, "summary_only": summary_only})


@cli.command()
@options.rule_options
@click.option(
    "--game",
    "-g",
    "index",
    type=int,
    default=0,
    show_default=True,
    help="Index of the game within the run.",
)
@click.option(
    "--check/--no-check",
    default=True,
    show_default=True,
    help="Also play the game with the kernel and confirm both engines agree.",
)
def trace(game, players, seed, variant, settings, rules_file, deck_file, policy, policies, index, check):
    """Replay one game of a run turn by turn with the reference engine.

    Game INDEX of seed SEED is exactly the game `snakesim run` played as row INDEX with the
    same options; with --check the kernel replays it too and the two records are compared.

    \b
    Examples:
      snakesim trace fortune --players 4 --seed 1 --game 42
      snakesim trace fortune -p 2 --variant rejoin --set start_coins=3 --game 7
    """

    from snakesim.core.arms import Budget, RuleSource, resolve_run
    from snakesim.core.columns import identical
    from snakesim.core.policies import encode_policies
    from snakesim.games import get_game

    spec = get_game(game)
    Int(0, MAX_GAMES - 1).check("--game", index)
    source = RuleSource(variant, rules_file, deck_file, settings, policy=policy, policies=policies)
    name, rules, seats = resolve_run(spec, players, Budget(1, seed, index), source)
    codes = encode_policies(spec, seats) if seats else None
    record, log = spec.play_reference(rules, players, seed, index, policies=codes, trace=True)
    changes = describe_changes(rules.changes())
    who = f", policies {','.join(seats)}" if seats else ""
    click.echo(f"{spec.title}\n{players} players, variant {name} ({changes}){who}, seed {seed}, game {index}\n")
    click.echo("\n".join(log))
    if check:
        kernel = spec.play_block(rules, players, seed, index, 1, policies=codes)
        same = all(identical(value, kernel[key][0]) for key, value in record.items())
        if not same:
            raise click.ClickException("the kernel played this game differently from the reference engine (a bug)")
        click.echo("\nkernel check: the numba kernel played the identical game")
