"""The ``skill`` command: is the game luck or skill?"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from snakesim.cli import cli, options
from snakesim.cli.format import check_plot, format_findings, level_text, pct, save_plot, to_json
from snakesim.core.defaults import DEFAULT_PLAYOUTS, NOVICE

if TYPE_CHECKING:
    from snakesim.analysis.skill import SkillResult


@cli.command("skill")
@options.game_argument
@click.option(
    "--players", "-p", "players_text", default="2..4", show_default=True, help="N, a list N,M or a range LOW..HIGH."
)
@options.seed
@click.option(
    "--variant",
    "-v",
    "variants",
    multiple=True,
    metavar="ARM",
    help="A rule set to measure: a named variant, a rules file or LABEL=BASE,NAME=VALUE,... Repeat it to see "
    "how each rule set changes what skill is worth against the first, on the same games. [default: standard]",
)
@options.settings
@options.rules_file
@options.deck_file
@options.matters
@click.option(
    "--games", "-n", "n_games", type=int, default=4_000, show_default=True,
    help="Games per line-up and player count (the same games for every line-up).",
)  # fmt: skip
@click.option(
    "--playouts", "-k", type=int, default=DEFAULT_PLAYOUTS, show_default=True,
    help="The expert's and the oracle's playouts per legal move (their K).",
)  # fmt: skip
@click.option(
    "--novice", type=float, default=NOVICE, show_default=True, help="The novice's mistake rate (0: no novice)."
)
@click.option("--threads", "-t", type=int, default=None, help="numba threads [default: all].")
@options.backend_options
@click.option("--json", "as_json", is_flag=True, help="Print every line-up and the skill share as JSON.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, help="Draw each line-up's edge (.png).")
@options.catalogue_options
def skill_command(
    game, players_text, seed, variants, settings, rules_file, deck_file, matters, n_games, playouts, novice, threads,
    backend, scheduler, workers, as_json, plot, fresh, catalogue_path,
):  # fmt: skip
    """Is GAME luck or skill? One player of another kind among a field, on the same games.

    For each player count it plays the same games with one odd player at each seat in turn:
    greedy among random players (does knowing what to do matter?), then a novice (greedy with
    a mistake rate), an expert (looks ahead) and an oracle (the expert shown every hidden
    card, a yardstick) among greedy players. Each line-up's edge is its win rate minus a field
    player's at the same seats, with a paired 95% interval. The skill share is the expert's
    edge over the oracle's: how much of what perfect information is worth thinking ahead gets.

    \b
    Examples:
      snakesim skill rainbow
      snakesim skill hisss --players 2,4 --games 10000 --playouts 128
      snakesim skill rainbow -v wild-snake --novice 0.5 --plot skill.png
      snakesim skill hisss --json > skill.json
      snakesim skill hisss -p 4 -v standard -v most-snakes     # does scoring by snakes change what skill is worth?
    """
    from snakesim.analysis.sweep import parse_players
    from snakesim.analysis.verdicts import parse_matters
    from snakesim.cli.kept import answered
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.core.backends import make_backend
    from snakesim.games import get_game
    from snakesim.questions import skill as question
    from snakesim.questions.catalogue import Catalogue

    spec = get_game(game)
    check_plot(plot)
    players = parse_players(players_text)
    margins = parse_matters(matters)
    sources = [RuleSource(variant, rules_file, deck_file, settings) for variant in variants or (None,)]
    plan = question.ask(spec, players, Budget(n_games, seed), sources, playouts=playouts, novice=novice,
                        matters=margins)  # fmt: skip
    engine = make_backend(backend, threads, scheduler, workers)

    def words(answer) -> tuple[dict, str]:
        parts = []
        for name, r in answer.results.items():
            parts += [format_skill(r, f"{spec.title} ({name}, seed {seed})"),
                      format_findings(answer.findings[name], 0.95), ""]  # fmt: skip
        if answer.differences is not None:
            first = next(iter(answer.results))
            between = format_findings(answer.findings[question.BETWEEN], 0.95)
            parts.append(between.replace("In words", f"Against {first}, in words"))
        return question.summary(answer), "\n".join(parts)

    meta, text, answer = answered(Catalogue(catalogue_path), plan, "skill",
                                  lambda kept: question.play(plan, backend=engine, progress=sys.stderr.isatty()), words,
                                  fresh=fresh, usable=plot is None)  # fmt: skip
    if plot is not None:
        from snakesim.report.figures import skill_figure  # matplotlib only when a plot is asked for

        label, result = next(iter(answer.results.items()))
        save_plot(skill_figure(result.table, f"{spec.name}, {label}: edge over a field player, 95% intervals"), plot)
    click.echo(to_json(meta) if as_json else text)


def format_skill(result: SkillResult, title: str) -> str:
    """The ``skill`` command's report."""
    s = result.summary
    if result.table.empty:
        return "\n".join([f"{title}: luck or skill?", "", result.shares["verdict"].iloc[0]])
    lines = [
        f"{title}: luck or skill?",
        f"{s['games']:,} games per line-up and player count, the odd player at each seat in turn; "
        f"{s['elapsed_s']:.1f} s",
        "",
        f"{'players':>7}  {'field':<8}{'player':<14}{'wins':>7}  "
        f"{'edge over a field player (percentage points, ' + level_text(s['level']) + ' interval)':<36}",
    ]
    from snakesim.analysis.words import percent, signed

    for row in result.table.itertuples():
        # (the field's own share is measured too: 50.70% for two identical players read as wrong without its interval)
        edge = (
            signed(row.edge, row.edge_low, row.edge_high, 1, 100)
            if row.player != row.field else f"(the field's own share; [{pct(row.win_low)}, {pct(row.win_high)}])"
        )  # fmt: skip
        lines.append(f"{row.players:>7}  {row.field:<8}{row.player:<14}{pct(row.win_rate):>7}  {edge}")
    lines.append("")
    for row in result.shares.itertuples():
        share = (
            f"skill share {percent(row.skill_share, 0)} [{percent(row.low, 0)}, {percent(row.high, 0)}]"
            if row.skill_share == row.skill_share else "skill share not measured"
        )  # fmt: skip
        lines.append(f"{row.players} players: {share}; {row.verdict}")
        t = result.table
        basic = t[(t["players"] == row.players) & (t["field"] == "random") & (t["player"] == "greedy")]
        if not basic.empty:
            b = basic.iloc[0]
            lines.append(
                f"           careful play among random players: {100 * b['edge']:+.1f} percentage points "
                f"[{100 * b['edge_low']:+.1f}, {100 * b['edge_high']:+.1f}] ({pct(b['win_rate'])} of games "
                f"against {pct(b['fair_share'])})"
            )
    from snakesim.core.policies import player_words  # (it holds kernels: numba only when a command needs it)

    spellings = dict.fromkeys([*result.table["field"], *result.table["player"]])
    lines += [
        "",
        "field: the players at every other seat; player: the one odd player, who sits at each seat in turn:",
        *(f"  {p}: {player_words(p)}" for p in spellings),
        "skill share: the expert's edge divided by the oracle's: of what seeing every card is worth, the share",
        "that thinking ahead alone gets (" + level_text(s["level"]) + " interval); the verdict reads the expert's",
        "edge over a careful player, as a share of that player's own win rate.",
    ]
    return "\n".join(lines)
