"""The ``balance`` and ``tune`` commands: the fix for an imbalance, the value that meets a target."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from snakesim.cli import cli, options
from snakesim.cli.format import check_plot, format_findings, pct, save_plot, to_json
from snakesim.core.errors import InputError
from snakesim.core.figures import BY_ID, targets
from snakesim.core.rules import inline

if TYPE_CHECKING:
    from snakesim.analysis.balance import BalanceResult
    from snakesim.analysis.tune import TuneResult


PLOT_HELP = {  # (each command's own picture)
    False: "Draw the answer (.png): the target's figure against the option's value, with intervals, and the target "
    "as a line.",
    True: "Draw the answer (.png): each seat's win rate before and after the handicap, on the fresh games.",
}


def search_options(fn, several: bool = False):
    """The game and rules to start from, the search's budget and where it plays (with
    ``several``, one or more player counts: ``balance``)."""
    for option in reversed(
        (
            click.option(
                "--games", "-n", "n_games", type=int, default=20_000, show_default=True,
                help="Games per candidate in the first round (the same games for every candidate).",
            ),
            click.option(
                "--max-games", type=int, default=320_000, show_default=True,
                help="The most games per candidate: a round that cannot decide doubles its games up to this.",
            ),
            click.option(
                "--confirm-games", type=int, default=None,
                help="Fresh games that confirm the answer [default: the last round's games, at least 100,000].",
            ),
            click.option("--threads", "-t", type=int, default=None, help="numba threads [default: all]."),
            options.backend_options,
            click.option("--json", "as_json", is_flag=True, help="Print the answer, its figures and the path as JSON."),
            click.option("--plot", type=click.Path(dir_okay=False), default=None, help=PLOT_HELP[several]),
        )
    ):  # fmt: skip
        fn = option(fn)
    return options.rule_options(fn, several)


def _who(players: int, label: str, seats: tuple[str, ...], seed: int, settings=()) -> str:
    """Who plays which rules: the header's parenthesis (with the --set changes, which a
    designer missed in it)."""
    play = f", {'/'.join(seats)} seats" if seats and len(set(seats)) > 1 else f", {seats[0]} seats" if seats else ""
    changed = f" with {', '.join(settings)}" if settings else ""
    return f"{players} players, {label}{changed}{play}, seed {seed}"


@cli.command("balance")
@lambda fn: search_options(fn, several=True)
@click.option(
    "--handicap", required=True, metavar="OPTION",
    help="The per-seat option to set seat by seat: start_coins (fortune), hand_size (rainbow), start_points "
    "(hisss), head_start (sssnake).",
)  # fmt: skip
@click.option(
    "--tolerance", type=float, default=0.01, show_default=True,
    help="How far a seat's win rate may stay from the mean seat's (0.01 = 1 percentage point, the smallest "
    "difference in a seat's chance that matters: docs/what-matters.md).",
)  # fmt: skip
@click.option("--range", "value_range", default=None, metavar="LOW:HIGH", help="Values a seat may get "
              "[default: the starting value plus or minus max(3, half of it)].")  # fmt: skip
@click.option(
    "--novices", type=float, default=None, metavar="RATE",
    help="Also confirm with every seat making mistakes at this rate (greedy becomes greedy:RATE), e.g. 0.3.",
)  # fmt: skip
@options.catalogue_options
def balance_command(
    game, players_text, seed, variant, settings, rules_file, deck_file, policy, policies, n_games, max_games,
    confirm_games, threads, backend, scheduler, workers, as_json, plot, handicap, tolerance, value_range, novices,
    fresh, catalogue_path,
):  # fmt: skip
    """Find the per-seat handicap that gives every seat of GAME the same chance to win.

    Every candidate plays the same games (common random numbers); a change is taken only when
    it is better beyond the noise, and a round that cannot decide plays twice the games. The
    answer is then played on fresh games (not seen by the search) beside the starting rules:
    each seat's win rate with its 95% interval, and the seat-balance test before and after.
    Where no values in the range can balance the game, it says so, with the figures.

    \b
    Examples:
      snakesim balance rainbow --players 4 --handicap hand_size
      snakesim balance fortune --players 4 --handicap start_coins --tolerance 0.0025
      snakesim balance fortune --set start_coins=60 --handicap start_coins --range 50:70
      snakesim balance sssnake -v no-ones --handicap head_start -n 2000 --max-games 16000
      snakesim balance hisss --handicap start_points --json > fix.json
      snakesim balance rainbow --handicap hand_size --plot fix.png
      snakesim balance hisss --handicap start_points --novices 0.3     # does it hold for novices?
      snakesim balance rainbow -p 3..5 --handicap hand_size              # each player count on its own
    """
    from snakesim.analysis.sweep import parse_players
    from snakesim.cli.kept import answered
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.core.backends import make_backend
    from snakesim.games import get_game
    from snakesim.questions import balance as question
    from snakesim.questions.catalogue import Catalogue

    counts = parse_players(players_text)
    check_plot(plot)
    if plot is not None and len(counts) > 1:
        raise InputError("--plot", "draws one player count's answer; give one --players count")
    spec = get_game(game)
    budget = Budget(n_games, seed, max_games=max_games, confirm_games=confirm_games)
    source = RuleSource(variant, rules_file, deck_file, settings, policy=policy, policies=policies)
    # every player count's question checked before any game is played
    plans = [question.ask(spec, n, handicap, budget, source, tolerance=tolerance, value_range=value_range,
                          novices=novices) for n in counts]  # fmt: skip
    engine = make_backend(backend, threads, scheduler, workers)
    catalogue = Catalogue(catalogue_path)
    shown = []
    for plan in plans:

        def words(answer, plan=plan) -> tuple[dict, str]:
            who = _who(plan.players, plan.label, plan.seats, seed, settings)
            text = format_balance(answer.result, spec.title, who)
            return question.summary(answer), text + "\n" + format_findings(
                answer.findings, answer.result.summary.get("level", 0.95)
            )

        meta, text, answer = answered(catalogue, plan, "balance",
                                      lambda kept, plan=plan: question.play(plan, backend=engine, kept=kept,
                                                                            progress=sys.stderr.isatty()),
                                      words, fresh=fresh, usable=plot is None)  # fmt: skip
        if plot is not None:
            from snakesim.report.figures import balance_figure  # matplotlib only when a plot is asked for

            result = answer.result
            save_plot(balance_figure(result, f"{spec.name}: {handicap} = {inline(result.values)}"), plot)
        shown.append((meta, text))
    if as_json and len(shown) > 1:
        click.echo(to_json([meta for meta, _ in shown]))
        return
    for k, (meta, text) in enumerate(shown):
        if k:
            click.echo("")
        click.echo(to_json(meta) if as_json else text)


def format_balance(result: BalanceResult, title: str, who: str) -> str:
    """The ``balance`` command's report."""
    from snakesim.analysis.words import p_text, seat_player, seat_players

    s = result.summary
    search, confirm = s["search"], s["confirm"]
    name = s["handicap"]
    lines = [
        f"{title}: balance {name} seat by seat ({who})",
        f"search: {search['candidates']} candidates on the same games, up to {search['games_per_candidate']:,} "
        f"games each ({search['games_played']:,} games), then {confirm['games_played']:,} fresh games to confirm; "
        f"{s['elapsed_s']:.1f} s",
        "",
        f"{s['status']}: {result.message}",
        "",
        f"recommended: {name} = {inline(result.values)}   " + _origin(result),
        f"  as an option: --set {name}={inline(result.values).replace(' ', '')}",
        "  the best by estimate of the candidates the search played last"
        + (
            "; these did not do clearly worse there (paired tests over them all), so they are as good: "
            + ", ".join(inline(c["values"]) for c in s["as_good"][:5])
            + (f" and {len(s['as_good']) - 5} more (--json)" if len(s["as_good"]) > 5 else "")
            if s["as_good"]
            else ""
        ),
        "",
        f"confirmed on {confirm['games']:,} fresh games (games {confirm['first']:,} to "
        f"{confirm['first'] + confirm['games'] - 1:,}, not used by the search), 95% intervals:",
        f"  {'':<30}{'before':<30}after",
    ]
    before, after = s["before"], s["after"]
    wins, balanced, gap = (BY_ID[k] for k in ("win_rate", "seat_balance", "seat_gap"))
    rows = [
        (wins.label.format(seat=k), *(f"{pct(c['win_rate'][k])} [{pct(c['win_ci'][k][0])}, {pct(c['win_ci'][k][1])}]"
                                      for c in (before, after)))
        for k in range(len(result.values))
    ]  # fmt: skip
    rows.append((balanced.summary_words, *(p_text(c["balance_p"]) for c in (before, after))))
    rows.append((gap.label, *(f"{c['gap'][0] * 100:.2f} pp [{c['gap'][1] * 100:.2f}, "
                              f"{c['gap'][2] * 100:.2f}]" for c in (before, after))))  # fmt: skip
    lines += [f"  {label:<30}{b:<30}{a}" for label, b, a in rows]
    lines.append("  (pp: percentage points of a seat's chance; the chi-square p tests exactly equal chances, which "
                 "many games tell apart from differences too small to matter)")  # fmt: skip
    if s["runner_up"] is not None:
        r = s["runner_up"]
        lines.append(
            f"  runner-up {name} = {inline(r['values'])} on the same fresh games: largest seat gap "
            f"{r['gap'][0] * 100:.2f} pp {_gap(r)}"
        )
    if s["novices"] is not None:
        n = s["novices"]
        lines += ["", f"{n['message']} (95% intervals: {_gap(n['after'])} with it, {_gap(n['before'])} without)"]
    if any(e is not None for e in s["step_effect"]):
        effects = ", ".join(f"{seat_player(k)} {e * 100:+.1f}" for k, e in enumerate(s["step_effect"]) if e is not None)
        untried = [k for k, e in enumerate(s["step_effect"]) if e is None]
        why = (f" ({seat_players(untried)}: that step was not played, at the top of the range or not near the "
               "answer)" if untried else "")  # fmt: skip
        lines += ["", f"one step up of {name} moves a player's own win rate (percentage points): {effects}{why}"]
    return "\n".join(lines)


def _gap(c: dict) -> str:
    return f"[{c['gap'][1] * 100:.2f}, {c['gap'][2] * 100:.2f}]"


def _origin(result: BalanceResult) -> str:
    return "(the starting values)" if result.values == result.base else f"(from {inline(result.base)})"


@cli.command("tune")
@search_options
@click.option(
    "--target", required=True, metavar="FIGURE.STAT=VALUE",
    help="A figure and its target, FIGURE.STAT=VALUE: win_rate.SEAT, means.COLUMN (e.g. means.cards_0), or "
    + ", ".join(targets())
    + " (ID.share for a rate, ID.mean for a mean).",
)  # fmt: skip
@click.option(
    "--vary", required=True, metavar="NAME=LOW:HIGH",
    help="The integer option to tune and its range; NAME.SEAT=LOW:HIGH tunes one seat's value of a per-seat option.",
)  # fmt: skip
@options.matters
@options.catalogue_options
def tune_command(
    game, players, seed, variant, settings, rules_file, deck_file, policy, policies, n_games, max_games,
    confirm_games, threads, backend, scheduler, workers, as_json, plot, target, vary, matters, fresh, catalogue_path,
):  # fmt: skip
    """Find the value of one integer option of GAME that brings a summary metric to a target.

    Bisection with intervals on common random numbers: every value plays the same games; the
    bracket halves when the middle value's interval lies on one side of the target, and the
    round plays twice the games when it holds the target. It prints the best integer and its
    neighbours' figures, the value interpolated between them with an interval, and the best
    value played on fresh games.

    \b
    Examples:
      snakesim tune fortune --target length.median=60 --vary start_coins=5:40
      snakesim tune rainbow --target length.mean=30 --vary hand_size=3:12
      snakesim tune fortune --target win_rate.3=0.25 --vary start_coins.3=15:25 --set start_coins=20
      snakesim tune hisss --target draw.share=0.01 --vary points_per_snake=0:5 --json
      snakesim tune rainbow --target length.median=40 --vary hand_size=3:12 --plot tune.png
      snakesim tune fortune --target lead_changes.mean=6 --vary start_coins=2:40
      snakesim tune fortune --target length.median=60 --vary start_coins=5:40 --matters length=2%
    """
    from snakesim.analysis.verdicts import parse_matters
    from snakesim.cli.kept import answered
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.core.backends import make_backend
    from snakesim.games import get_game
    from snakesim.questions import tune as question
    from snakesim.questions.catalogue import Catalogue

    margins = parse_matters(matters)
    check_plot(plot)
    spec = get_game(game)
    source = RuleSource(variant, rules_file, deck_file, settings, policy=policy, policies=policies)
    budget = Budget(n_games, seed, max_games=max_games, confirm_games=confirm_games)
    plan = question.ask(spec, players, target, vary, budget, source=source, matters=margins)
    engine = make_backend(backend, threads, scheduler, workers)

    def words(answer) -> tuple[dict, str]:
        text = format_tune(answer.result, spec.title, _who(players, plan.label, plan.seats, seed, settings))
        return question.summary(answer), text + "\n" + format_findings(
            answer.findings, answer.result.summary.get("level", 0.95)
        )

    meta, text, answer = answered(Catalogue(catalogue_path), plan, "tune",
                                  lambda kept: question.play(plan, backend=engine, progress=sys.stderr.isatty(),
                                                             kept=kept), words,
                                  fresh=fresh, usable=plot is None)  # fmt: skip
    if plot is not None:
        from snakesim.report.figures import tune_figure  # matplotlib only when a plot is asked for

        s = answer.result.summary
        save_plot(tune_figure(answer.result.path, s["target"]["value"], s["vary"]["option"], s["target"]["metric"]),
                  plot)  # fmt: skip
    click.echo(to_json(meta) if as_json else text)


def format_tune(result: TuneResult, title: str, who: str) -> str:
    """The ``tune`` command's report."""
    from snakesim.analysis.words import shown_as

    s = result.summary
    # (the option as --vary takes it: start_coins.3, where it printed start_coins[3])
    option = s["vary"]["option"] + ("" if s["vary"]["seat"] is None else f".{s['vary']['seat']}")
    metric, goal = s["target"]["metric"], s["target"]["value"]
    search = s["search"]
    fresh = s["metric"]["games"] * (2 if s["runner_up"] is not None else 1)  # (the answer, and its runner-up)
    lines = [
        f"{title}: tune {option} for {metric} = {goal:g} ({who})",
        f"search: {search['values_played']} values played on the same games, up to {search['games_per_value']:,} "
        f"games each ({search['games_played']:,} games), then {fresh:,} fresh games to confirm; {s['elapsed_s']:.1f} s",
        "",
        f"{s['status']}: {result.message}",
        "",
        f"{option:>16}  {metric:>16}  95% interval",
    ]
    for n in s["neighbours"]:  # (rates in percent, each to its interval's digits)
        mark = "  <- best" if n["value"] == result.best else ""
        show = shown_as(metric, *n["ci"])
        lines.append(f"{n['value']:>16}  {show(n['metric']):>16}  [{show(n['ci'][0])}, {show(n['ci'][1])}]{mark}")
    if s["estimate"] is not None:  # (its band, in --json, is left out: "12.86 to 12.88" beside a 13 that holds the
        # target on fresh games read as more certain than straight lines between whole values are)
        lines += ["", f"interpolated: {option} = {s['estimate']:.2f} (the figures joined linearly between whole values;"
                      " only whole values can be played)"]  # fmt: skip
    m = s["metric"]
    inside = "inside" if m["ci"][0] <= goal <= m["ci"][1] else "outside"
    show = shown_as(metric, *m["ci"])
    lines += [
        "",
        f"confirmed on {m['games']:,} fresh games (games {m['first']:,} to {m['first'] + m['games'] - 1:,}): "
        f"{option} = {result.best} gives {metric} {show(m['value'])} [{show(m['ci'][0])}, {show(m['ci'][1])}]; "
        f"the target is {inside} the interval",
    ]
    if s["runner_up"] is not None:
        r = s["runner_up"]
        show = shown_as(metric, *r["ci"])
        lines.append(
            f"  runner-up {option} = {r['value']} on the same fresh games: {metric} {show(r['metric'])} "
            f"[{show(r['ci'][0])}, {show(r['ci'][1])}]"
        )
    if s["as_good"]:
        good = ", ".join(map(str, s["as_good"]))
        lines.append(f"  as good on the search's games (their interval holds the target too): {good}")
    return "\n".join(lines)
