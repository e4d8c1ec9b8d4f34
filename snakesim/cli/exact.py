"""The ``exact`` command: exact outcome probabilities for small configurations."""

from __future__ import annotations

import click

from snakesim.analysis.markov import DEFAULT_MAX_STATES
from snakesim.cli import cli, options
from snakesim.cli.format import describe_changes, to_json
from snakesim.core.errors import InputError
from snakesim.core.figures import BY_ID


@cli.command()
@options.rule_options
@click.option(
    "--max-states", type=int, default=DEFAULT_MAX_STATES, show_default=True, help="Refuse larger configurations."
)
@click.option("--games", "-n", "n_games", type=int, default=0, help="Also simulate this many games and compare.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
def exact(
    game, players, seed, variant, settings, rules_file, deck_file, policy, policies, max_states, n_games, as_json
):
    """Exact outcome probabilities and expected length of a small GAME configuration.

    Solves the game as an absorbing Markov chain over its full state (Fortune: cards left,
    coins, cup, turn, pending skips; Hisss: cards left, snakes on the table, scores, turn,
    with each seat's policy; ties and random choices split evenly). With
    --games, the kernel also plays that many games and each rate is shown beside the exact
    value with its z-score (a |z| above 4 would mean the simulator is wrong).

    \b
    Examples:
      snakesim exact fortune --players 2 --set start_coins=3 --deck tiny.toml
      snakesim exact fortune --players 3 --rules small.toml --games 200000
      snakesim exact hisss --players 2 --deck small_hisss.toml --policies greedy,random
    """
    import numpy as np

    from snakesim.analysis.stats import summarize
    from snakesim.core.arms import Budget, RuleSource, resolve_run
    from snakesim.core.policies import encode_policies
    from snakesim.core.runner import simulate_spec
    from snakesim.games import get_game

    spec = get_game(game)
    if spec.exact is None:
        raise InputError("game", f"{spec.name} has no exact solver (games with one: fortune, hisss)")
    source = RuleSource(variant, rules_file, deck_file, settings, policy=policy, policies=policies)
    name, rules, seats = resolve_run(spec, players, Budget(max(n_games, 1), seed), source)
    solution = spec.exact(rules, players, max_states, policies=encode_policies(spec, seats) if seats else None)
    rows = [(BY_ID["win_rate"].label.format(seat=s), solution.outcomes.get(("win", s), 0.0)) for s in range(players)]
    rows += [("draw", solution.outcomes.get("draw", 0.0)), ("never ends", solution.never)]
    simulated = None
    if n_games > 0:
        df = simulate_spec(spec, rules, players, Budget(n_games, seed), name, policies=seats)
        summary = summarize(df, spec=spec)
        sim = [*summary["win_rate"], summary["draw_rate"], summary["unfinished_rate"]]
        simulated = {"games": n_games, "seed": seed, "rates": sim, "length_mean": summary["length"]["mean"]}
    if as_json:
        click.echo(
            to_json(
                {
                    "game": spec.name,
                    "variant": name,
                    "options": rules.to_dict(),
                    "players": players,
                    "states": solution.states,
                    "win_probability": [p for _, p in rows[:players]],
                    "draw_probability": rows[players][1],
                    "never_probability": solution.never,
                    "expected_length": solution.expected_length,
                    "simulated": simulated,
                }
            )
        )
        return
    click.echo(f"{spec.title}\n{players} players, variant {name} ({describe_changes(rules.changes())})")
    click.echo(f"exact solution over {solution.states:,} states\n")
    if simulated is None:
        for label, p in rows:
            click.echo(f"{label:12}{p:12.6f}")
        click.echo(f"\nexpected length ({spec.length_unit}): {solution.expected_length:.6f}")
        return
    click.echo(f"{'':12}{'exact':>10}  {'simulated':>10}  {'z':>6}   ({n_games:,} games, seed {seed})")
    for (label, p), q in zip(rows, simulated["rates"], strict=True):
        se = np.sqrt(p * (1 - p) / n_games)
        z = (q - p) / se if se > 0 else (0.0 if q == p else float("inf"))
        click.echo(f"{label:12}{p:10.6f}  {q:10.6f}  {z:6.2f}")
    click.echo(
        f"\nexpected length ({spec.length_unit}): exact {solution.expected_length:.6f}, "
        f"simulated mean {simulated['length_mean']:.6f}"
    )
