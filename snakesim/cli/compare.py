"""The ``compare`` command: variants side by side on the same games."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from snakesim.cli import cli, options
from snakesim.cli.format import format_comparison, format_findings, to_json
from snakesim.core.defaults import PRECISE
from snakesim.core.errors import InputError


@cli.command()
@options.game_argument
@options.player_counts
@options.seed
@click.option(
    "--variant",
    "-v",
    "variants",
    multiple=True,
    metavar="ARM",
    help="An arm to compare; repeat it, the first is the baseline. An arm is a variant (one-snake), a rules "
    "file (ten.toml), or LABEL=BASE,NAME=VALUE,... (quick=one-snake,start_coins=12), with its own "
    "policy=NAME or policies=A/B/... if you like.",
)
@options.settings
@options.rules_file
@options.deck_file
@options.policy
@options.policies
@options.matters
@click.option("--games", "-n", "n_games", type=int, default=100_000, show_default=True, help="Games per variant.")
@click.option("--threads", "-t", type=int, default=None, help="numba threads [default: all].")
@options.backend_options
@click.option(
    "--precision",
    type=float,
    default=None,
    help="Add blocks of --games games until the rows --precise names have anytime-valid intervals of at most "
    "this half-width (e.g. 0.005); those intervals stay valid although the run looks after every block.",
)
@click.option(
    "--max-games", type=int, default=None, help="With --precision: stop at this many games [default: 100 blocks]."
)
@click.option(
    "--precise",
    type=click.Choice(PRECISE),
    multiple=True,
    help="With --precision: which rows must be that precise (repeatable) [default: rates]: every seat's win "
    "rate, every difference of a rate from the baseline, or each variant's mean length (in its own unit).",
)
@click.option(
    "--plot",
    type=click.Path(file_okay=False),
    default=None,
    help="Write win-rates.png (by seat, with intervals), length.png (Kaplan-Meier) and scores.png to this folder.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON records.")
@options.catalogue_options
def compare(
    game, players_text, seed, variants, settings, rules_file, deck_file, policy, policies, matters, n_games, threads,
    backend, scheduler, workers, precision, max_games, precise, plot, as_json, fresh, catalogue_path,
):  # fmt: skip
    """Compare rule sets of GAME on the same games (common random numbers).

    Each --variant is an arm: a named variant, your own rules file, or inline options, with
    a label. Every arm plays games 0..N-1 of the same seed. Game i is dealt from the same keyed
    shuffle in each (a deck with a card removed deals the other cards in the same order) and
    its players draw from the same stream, so the differences are paired. How much that
    narrows an interval depends on how long the games stay alike; each difference prints its
    measured pairing ratio (paired width / independent runs' width). For each metric (win rate per seat,
    draws, unfinished games, first-player advantage, length, winning margin) it prints each
    variant's value with its 95% interval and its difference from the first variant with a
    paired interval and a Holm-adjusted p-value; then each variant's seat-balance test.
    Each difference is then called what a player would make of it: it matters (its interval
    lies beyond the smallest difference that matters, --matters), it is too small to notice
    (its interval lies inside it), or it is not settled (its interval crosses it: the findings
    say how many games would settle it, and the command that plays them).
    --set, --rules, --deck and the policies apply to every arm (after its own options).
    `snakesim rules GAME -v ARM` prints an arm's complete rules.

    \b
    Examples:
      snakesim compare fortune --players 4 --games 200000 --variant standard --variant one-snake
      snakesim compare fortune -v standard -v ten.toml -v 'quick=one-snake,start_coins=12'
      snakesim compare fortune -v standard -v 'hearts2=standard,effects.HEARTS=[{take = 2, from = "left"}]'
      snakesim compare rainbow -p 3 -v 'greedy=standard,policy=greedy' -v 'mix=standard,policies=greedy/random/random'
      snakesim compare rainbow -p 3 -v standard -v wild-snake -v poppies-orchids --policy random
      snakesim compare hisss -v standard -v claim-joined --games 20000 --precision 0.005
      snakesim compare rainbow -v standard -v poppies-orchids -n 5000 --precision 0.01 --precise differences
      snakesim compare fortune -v standard -v rejoin --games 10000000 --backend dask --workers 8
      snakesim compare hisss -p 2..5 -v standard -v most-snakes
      snakesim compare fortune -v standard -v one-snake --matters length=10%,lead_changes=1
    """
    from snakesim.analysis.stats import LEVEL
    from snakesim.analysis.sweep import parse_players
    from snakesim.analysis.tallies import dumps, loads
    from snakesim.analysis.verdicts import parse_matters
    from snakesim.cli.kept import keep, served
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.core.backends import make_backend
    from snakesim.core.files import check_writable
    from snakesim.games import get_game
    from snakesim.questions import compare as question
    from snakesim.questions.catalogue import Catalogue

    spec = get_game(game)
    counts = parse_players(players_text)
    engine = make_backend(backend, threads, scheduler, workers)
    if plot is not None:
        if Path(plot).exists() and not Path(plot).is_dir():
            raise InputError("--plot", f"{plot!r} is a file; give a folder for the figures")
        check_writable(plot, "--plot")
    arms = variants or ("standard",)
    margins = parse_matters(matters)
    budget = Budget(n_games, seed, precision=precision, max_games=max_games)
    shared = RuleSource(rules_file=rules_file, deck_file=deck_file, settings=settings, policy=policy, policies=policies)
    # every player count's question checked before any game is played
    plans = [question.ask(spec, n, arms, budget, shared, matters=margins, precise=precise) for n in counts]
    catalogue = Catalogue(catalogue_path)
    parts = []
    for plan in plans:
        n = plan.players
        folder = None if plot is None else Path(plot) / (f"{n}p" if len(counts) > 1 else "")
        again = ["snakesim", "compare", game, "-p", str(n), "--seed", str(seed)]
        again += [f for v in arms for f in ("-v", v)] + [f for s in settings for f in ("--set", s)]
        again += [f for m in matters for f in ("--matters", m)]
        for flag, value in (("--rules", rules_file), ("--deck", deck_file), ("--policy", policy),
                            ("--policies", policies)):  # fmt: skip
            again += [flag, value] if value is not None else []
        kept = None if fresh or folder is not None else catalogue.find(plan.key())  # (figures need the games)
        if kept is not None:
            parts.append(served(kept))
            continue
        started = time.perf_counter()
        fewer = None if fresh or folder is not None or plan.games_key() is None else (
            catalogue.fewer_games(plan.games_key(), plan.budget.games))  # fmt: skip
        if fewer is not None:  # (the same games, fewer of them: only the rest are played)
            kept, tally = fewer
            answer = question.extend(plan, loads(tally), kept.games, threads=threads, progress=sys.stderr.isatty(),
                                     backend=engine)  # fmt: skip
        else:
            answer = question.play(plan, threads=threads, progress=sys.stderr.isatty(), backend=engine)
        meta, text = _shown(answer, folder=folder, again=again)
        seconds = time.perf_counter() - started
        keep(catalogue, plan, "compare", meta=meta, text=text, seconds=seconds, games=answer.games,
             tally=None if answer.tally is None else dumps(answer.tally))  # fmt: skip
        if fewer is not None:
            meta = {**meta, "catalogue": {"extends": fewer[0].id, "games_kept": fewer[0].games}}
            text += (f"\n\nGames 0 to {fewer[0].games - 1:,} came from the catalogue (answer {fewer[0].id}, played on "
                     f"{fewer[0].when()}); games {fewer[0].games:,} to {plan.budget.games - 1:,} were played now, in "
                     f"{seconds:.1f} s.")  # fmt: skip
        parts.append((meta, text))
    if as_json:
        if len(parts) == 1:
            click.echo(to_json(parts[0][0]))
            return
        whole = {"game": spec.name, "players": counts, "seed": seed, "level": LEVEL}
        whole["runs"] = {str(n): {k: v for k, v in meta.items() if k not in ("findings", "rows")}
                         for n, (meta, _) in zip(counts, parts, strict=True)}  # fmt: skip
        whole["findings"] = [{"players": n, **f} for n, (meta, _) in zip(counts, parts, strict=True)
                             for f in meta["findings"]]  # fmt: skip
        whole["rows"] = [{"players": n, **r} for n, (meta, _) in zip(counts, parts, strict=True) for r in meta["rows"]]
        click.echo(to_json(whole))
        return
    click.echo("\n\n".join(text for _, text in parts))


def _shown(answer, *, folder, again) -> tuple[dict, str]:
    """A played comparison as the command shows it: the JSON object and the text (``again``:
    the command line that asks it, for the one that would settle it; ``folder``: where its
    figures go, if anywhere)."""
    from snakesim.analysis.stats import LEVEL
    from snakesim.questions.compare import summary

    plan, table = answer.plan, answer.table
    spec, players, played, stopping = plan.spec, plan.players, answer.games, answer.stopping
    drawn = _figures(spec, players, table, answer.tables, folder) if folder is not None else []
    meta = summary(answer, again)
    settle, runs = meta["settle"], table.attrs["runs"]
    header = (
        f"{players} players, {played:,} games per rule set, seed {plan.budget.seed}: game i is dealt from the same "
        "keyed shuffle under every rule set (paired)"
    )
    seats = {name: ", ".join(run["policies"]) for name, run in runs.items() if run["policies"]}
    if len(set(seats.values())) == 1:
        header += f"\nplayers in turn order, seat 0 first: {next(iter(seats.values()))} (every rule set)"
    elif seats:
        header += "\nplayers in turn order, seat 0 first: " + "; ".join(f"{name}: {who}" for name, who in seats.items())
    from snakesim.core.policies import spelled_players  # (not at import: it brings numba)

    header += "".join(f"\n  {line}" for line in spelled_players([p for run in runs.values() for p in run["policies"]]))
    wider = "a difference's is wider, at the level the table prints beside it, since many are weighed at once"
    lines = [format_comparison(table, spec.title, header), format_findings(answer.findings, LEVEL, wider)]
    if settle is not None:
        how = (
            "adds blocks of games until the undecided differences are settled, with intervals that stay valid although "
            f"it looks after every block; at most {settle['max_games']:,} games per rule set, three times the "
            f"{settle['games']:,} a run fixed in advance would need"
            if settle["precision"] is not None
            else f"plays {settle['games']:,} games per rule set"
        )
        lines.append(f"\nTo settle what is not settled ({how}):\n  {settle['command']}")
    if folder is not None:
        lines.append(f"\nfigures written to {folder}/ ({', '.join(drawn)})")
    if stopping:
        state = "reached" if stopping["reached"] else "not reached: stopped at the --max-games cap"
        lines.append(
            f"\nprecision {stopping['precision']:g} {state} for {', '.join(stopping['precise'])}; widest anytime-valid "
            f"interval +-{stopping['widest_half_width']:.4g} after {played:,} games per variant.\n"
            "Anytime-valid 95% intervals (they hold together, and stay valid although the run looked after every "
            "block; the intervals above assume the game count was fixed in advance):"
        )
        for r in stopping["sequences"]:
            lines.append(f"  {r['variant']:<16} {r['label']:<40} {r['value']:.4g}  [{r['low']:.4g}, {r['high']:.4g}]")
    return meta, "\n".join(lines)


def _figures(spec, players, table, tables, folder: Path) -> list[str]:
    """Draw a comparison's figures into ``folder``; return the files written."""
    from snakesim.report.figures import comparison_figures  # (matplotlib only when asked)

    title = f"{spec.title}, {players} players"
    return comparison_figures(spec, players, table, tables, folder, win_title=f"{title}\nWho wins from which seat, "
                              "with 95% intervals", feel_title=f"{title}: how the game feels, 95% bands")  # fmt: skip
