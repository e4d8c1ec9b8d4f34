"""The ``sweep`` command: a grid over player counts and rule options."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from snakesim.cli import cli, options
from snakesim.cli.format import format_findings, level_text, save_plot, to_json
from snakesim.core.errors import InputError


@cli.command("sweep")
@options.game_argument
@click.option(
    "--players", "-p", "players_text", default="4", show_default=True, help="N, a list N,M or a range LOW..HIGH."
)
@options.seed
@click.option(
    "--variant",
    "-v",
    default=None,
    metavar="ARM",
    help="The rules every point starts from: a variant, a rules file, or LABEL=BASE,NAME=VALUE,... "
    "(see `snakesim compare --help`). [default: standard]",
)
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="NAME=LOW:HIGH:STEP|A,B,..|VALUE",
    help="Sweep an option over a range or a list, or fix it. Repeatable: the grid is every combination.",
)
@options.policy
@options.matters
@click.option("--games", "-n", "n_games", type=int, default=50_000, show_default=True, help="Games per grid point.")
@click.option("--threads", "-t", type=int, default=None, help="numba threads [default: all].")
@options.backend_options
@click.option(
    "--plot", type=click.Path(dir_okay=False), default=None, help="Draw the metrics against the swept value (.png)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the tidy table as JSON records.")
@options.catalogue_options
def sweep_command(
    game, players_text, seed, variant, settings, policy, matters, n_games, threads, backend, scheduler, workers, plot,
    as_json, fresh, catalogue_path,
):  # fmt: skip
    """Sweep GAME over player counts and rule options; print a table, optionally plot it.

    Every point plays the same games (same seed), so neighbouring points differ by the swept
    value, not by luck. The table gives each metric's value in its unit (rates in percent);
    --json adds each one's 95% interval, and the findings under the table say the trends in
    words with theirs.

    \b
    Examples:
      snakesim sweep fortune --players 2..6 --set start_coins=5:40:5 --games 50000 --plot sweep.png
      snakesim sweep rainbow --players 3 --set hand_size=4,7,10 --policy random
      snakesim sweep fortune --variant house.toml --set start_coins=10,20,40
      snakesim sweep fortune --players 2..6 --set start_coins=5:40:5 --backend dask --scheduler tcp://head:8786
    """
    from snakesim.analysis.sweep import parse_axes, parse_players
    from snakesim.analysis.verdicts import parse_matters
    from snakesim.cli.kept import answered
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.core.backends import make_backend
    from snakesim.core.files import check_writable
    from snakesim.games import get_game
    from snakesim.questions import sweep as question
    from snakesim.questions.catalogue import Catalogue

    spec = get_game(game)
    engine = make_backend(backend, threads, scheduler, workers)
    players = parse_players(players_text)
    _, axes = parse_axes(settings)
    margins = parse_matters(matters)
    if plot is not None and Path(plot).suffix.lower() != ".png":
        raise InputError("--plot", f"expected a file ending in .png, got {plot!r}")
    if plot is not None and not axes:
        raise InputError("--plot", "nothing is swept: give --set NAME=LOW:HIGH:STEP or NAME=A,B,...")
    if plot is not None:
        check_writable(Path(plot).absolute().parent, "--plot")
    plan = question.ask(spec, players, settings, Budget(n_games, seed), RuleSource(variant, policy=policy),
                        matters=margins)  # fmt: skip

    def words(answer) -> tuple[dict, str]:
        return question.summary(answer), _text(
            answer.table, answer.findings, spec.title, axes=axes, n_games=n_games, seed=seed
        )

    # (a figure needs the games themselves: played, then kept)
    meta, text, answer = answered(Catalogue(catalogue_path), plan, "sweep",
                                  lambda kept: question.play(plan, threads=threads, progress=sys.stderr.isatty(),
                                                             backend=engine), words,
                                  fresh=fresh, usable=plot is None)  # fmt: skip
    if plot is not None:
        from snakesim.report.figures import sweep_figure  # matplotlib only when a plot is asked for

        title = f"{spec.title}: {n_games:,} games per point, seed {seed}"
        save_plot(sweep_figure(answer.table, next(iter(axes)), title=title), plot)
        text += f"\n\nfigure written to {plot}"
    click.echo(to_json(meta) if as_json else text)


def _text(table, findings: list[str], title: str, *, axes, n_games: int, seed: int) -> str:
    """The ``sweep`` command's report: the grid as a table of each metric in its unit, then the
    findings in words."""
    # A rate that is 0 at every point (no game unfinished) is said once, not printed as a column.
    from snakesim.core.figures import figure

    values = table.groupby("metric", sort=False)["value"]
    never = [m for m, v in values if figure(m).percent and (v == 0).all()]
    cells = table[~table["metric"].isin(never)]
    cells = cells.assign(cell=[_cell(r) for _, r in cells.iterrows()])
    wide = cells.pivot_table(
        index=["players", *axes], columns="label", values="cell", aggfunc="first", sort=False
    ).reset_index()
    wide.columns.name = None
    seats = {", ".join(p) for p in table.attrs["policies"].values() if p}
    who = f"; players in turn order, seat 0 first: {' | '.join(sorted(seats))}" if seats else ""
    lines = [
        f"{title}\n{n_games:,} games per point, seed {seed}{who}\n"
        f"values in their units (rates in percent, pp: percentage points); each comes with its "
        f"{level_text(table.attrs['level'])} "
        "interval in --json\n",
        wide.to_string(index=False),
    ]
    if never:
        lines.append(f"at no point in any game: {', '.join(figure(m).heading for m in never)}")
    if findings:
        lines.append(format_findings(findings, table.attrs["level"]))
    return "\n".join(lines)


def _cell(r) -> str:
    """A sweep value in its unit, with the decimals its interval needs (the p-value as a p-value)."""
    from snakesim.analysis.words import decimals, fixed, number, p_text, percent, points
    from snakesim.core.figures import figure

    if r["low"] != r["low"]:
        return p_text(r["value"])
    f = figure(r["metric"])
    if f.unit == "points":  # (a difference of rates: "-1%" read as a share)
        places = points(r["low"], r["high"])
        return f"{fixed(100 * r['value'], places, True)} pp"
    if f.percent:
        return percent(r["value"], points(r["low"], r["high"]))
    return number(r["value"], decimals(r["high"] - r["low"]))
