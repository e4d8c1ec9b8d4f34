"""The ``design`` command: the rule sets that meet every one of a designer's targets at once."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from snakesim.cli import cli, options
from snakesim.cli.format import check_plot, format_findings, save_plot, to_json
from snakesim.core.figures import targets as target_names


@cli.command("design")
@options.rule_options
@click.option(
    "--vary", "vary", multiple=True, required=True, metavar="NAME=LOW:HIGH|NAME=A,B,...",
    help="An option the search may change and its values: an integer range (start_coins=8:20, deck.RAIN=3:6, "
    "start_coins.3=18:22 for one seat), a list (snakes=1,2; wild=true,false), or variant=standard,rejoin "
    "(a named house rule). Repeatable: the search plays every combination (at most 500).",
)  # fmt: skip
@click.option(
    "--target", "target_texts", multiple=True, required=True, metavar="FIGURE<=V|FIGURE>=V|FIGURE=V+-T",
    help="What a rule set must reach; repeatable, all must hold. FIGURE is seat_gap (in percentage points), "
    "win_rate.SEAT, means.COLUMN or one of " + ", ".join(target_names()) + "; shares and rates as fractions "
    "(out_share.mean<=0.2). FIGURE=V without +-T: within what matters of V.",
)  # fmt: skip
@click.option(
    "--prefer", default=None, metavar="FIGURE[=lower|higher]",
    help="Rank the rule sets that meet every target by this figure (lower unless =higher), and drop those "
    "clearly beaten on it.",
)  # fmt: skip
@click.option("--games", "-n", "n_games", type=int, default=2_000, show_default=True,
              help="Games per rule set in the first round (the same games for every one); undecided ones get "
              "twice as many each round.")  # fmt: skip
@click.option("--budget", type=int, default=2_000_000, show_default=True,
              help="The most games in all, the confirmation on fresh games included.")  # fmt: skip
@click.option("--confirm-games", type=int, default=None,
              help="Fresh games for each answer [default: as many as it played in the search, at least five "
              "times --games].")  # fmt: skip
@options.matters
@click.option("--threads", "-t", type=int, default=None, help="numba threads [default: all].")
@options.backend_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: the answers (key `answers`), the "
              "nearest miss, every rule set played and the search.")  # fmt: skip
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw every rule set's figures for the first two targets, the targets shaded (.png).",
)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write each answer's rules as a TOML file in this folder (answer-1.toml, ...), for "
              "`run --rules` and `compare -v`.")  # fmt: skip
@options.catalogue_options
def design_command(
    game, players, seed, variant, settings, rules_file, deck_file, policy, policies, vary, target_texts, prefer,
    n_games, budget, confirm_games, matters, threads, backend, scheduler, workers, as_json, plot, out_dir, fresh,
    catalogue_path,
):  # fmt: skip
    """Find the rule sets of GAME that meet every target at once.

    Every combination of the --vary values is a rule set, and every rule set plays the same
    games. After each round each target's interval (one that stays valid however often it is
    looked at) drops the rule sets that miss a target by more than a player would notice; the
    undecided ones play twice the games. A rule set meets a target when its estimate lies
    inside the target and its whole interval within what matters of it (60+-8 with 3 cards
    that matter: the estimate from 52 to 68, the interval from 49 to 71). The answers (the rule
    sets that meet every target) are then played on fresh games and each target checked again;
    with none, the nearest miss and what it misses by. The level of the intervals is shared
    out over every rule set and target, so that this holds at 95% despite the search
    (docs/design.md). Quote a target with < or > in it ('out_share.mean<=0.22'): a shell reads
    them itself.

    \b
    Examples:
      snakesim design fortune -p 4 --vary start_coins=8:20 --vary snakes=1:2 \\
          --vary variant=standard,rejoin --target length.median=60+-8 --target 'out_share.mean<=0.22'
      snakesim design rainbow --vary hand_size=5:9 --vary variant=standard,wild-snake \\
          --target length.mean=40+-5 --target 'comeback.share>=0.3' --prefer length.mean
      snakesim design hisss --vary points_per_snake=0:3 --vary points_per_longest=0:5 \\
          --target 'tie_break.share<=0.1' --target 'seat_gap<=2' --json > answers.json
      snakesim design fortune --vary start_coins=10:16 --target length.median=50+-5 --out answers/ --plot d.png
    """
    from snakesim.analysis.search import MAX_SEARCH_GAMES
    from snakesim.analysis.verdicts import parse_matters
    from snakesim.cli.kept import answered
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.core.backends import make_backend
    from snakesim.core.files import check_writable
    from snakesim.core.rules import Int
    from snakesim.games import get_game
    from snakesim.questions import design as question
    from snakesim.questions.catalogue import Catalogue

    check_plot(plot)
    if out_dir is not None:
        check_writable(out_dir, "--out")
    Int(100, MAX_SEARCH_GAMES).check("--games", n_games)
    Int(n_games, 10_000_000_000).check("--budget", budget)
    if confirm_games is not None:
        Int(100, MAX_SEARCH_GAMES).check("--confirm-games", confirm_games)
    margins = parse_matters(matters)
    spec = get_game(game)
    source = RuleSource(variant, rules_file, deck_file, settings, policy=policy, policies=policies)
    plan = question.ask(spec, players, vary, target_texts, Budget(n_games, seed, max_games=budget,
                        confirm_games=confirm_games), source=source, prefer=prefer, matters=margins)  # fmt: skip
    engine = make_backend(backend, threads, scheduler, workers)

    def words(answer) -> tuple[dict, str]:
        s = answer.result.summary
        text = format_design(s, spec.title, players, plan.label, seed)
        return question.summary(answer), text + "\n" + format_findings(
            answer.findings, s["search"]["level"], "surer where the search weighs many rule sets at once"
        )

    # (answers' rules files and figures need the search itself: played, then kept)
    meta, text, answer = answered(Catalogue(catalogue_path), plan, "design",
                                  lambda kept: question.play(plan, backend=engine, progress=sys.stderr.isatty(),
                                                             kept=kept), words,
                                  fresh=fresh, usable=out_dir is None and plot is None)  # fmt: skip
    if out_dir is not None:
        _write_answers(answer.result, spec, Path(out_dir), players=players, seats=plan.seats)
        meta, text = words(answer)  # (the files' names are in the summary once written)
    if plot is not None:
        from snakesim.report.figures import design_figure  # matplotlib only when a plot is asked for

        save_plot(design_figure(answer.result.table, answer.result.summary, f"{spec.title}: {players} players"), plot)
    click.echo(to_json(meta) if as_json else text)


def _write_answers(result, spec, folder: Path, players: int, seats: tuple[str, ...]) -> None:
    """Each answer's complete rules as ``answer-K.toml`` in ``folder`` (written together, or
    none), the file's name recorded in the summary; its first lines say the players and the
    command that plays the game the search played (the player count is not a rule)."""
    from snakesim.core.files import atomic_write_all

    by_label = {c.label(result.dims): c for c in result.candidates}
    files = []
    for k, a in enumerate(result.summary["answers"], start=1):
        rules = by_label[a["label"]].rules
        named = f'variant = "{a["options"]["variant"]}"\n' if "variant" in a["options"] else ""
        who = (
            f" --policies {','.join(seats)}"
            if seats and len(set(seats)) > 1
            else f" --policy {seats[0]}"
            if seats
            else ""
        )
        text = (f"# {spec.title}\n# design answer {k} for {players} players: {a['label']}\n"
                f"# rules hash {rules.rules_hash()}; play it as the search did:\n"
                f"#   snakesim run {spec.name} -p {players}{who} --rules answer-{k}.toml\n\n"
                f"{named}{rules.to_toml()}")  # fmt: skip
        path = folder / f"answer-{k}.toml"
        a["file"] = str(path)
        files.append((path, lambda tmp, text=text: Path(tmp).write_text(text, encoding="utf-8")))
    if files:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_all(files)


def format_design(s: dict, title: str, players: int, label: str, seed: int) -> str:
    """The ``design`` command's report: the targets, the search, the answers with their fresh
    figures, the near misses and, with no answer, the nearest miss."""
    from snakesim.questions.design import shortfall_words

    targets = s["targets"]
    search = s["search"]
    c = s["counts"]
    lines = [
        f"{title}: design search ({players} players, from {label}, seed {seed})",
        "targets: " + "; ".join(f"{t['text']} (what matters: {_show(t, t['margin'])})" for t in targets),
        f"search: {search['rule_sets']}"
        + (
            f" of {search['space']:,} rule sets (sampled by {search['sampled']['sampler']})"
            if search["sampled"]
            else " rule sets"
        )
        + " on the same games, "
        + (
            f"1 round of {search['first_round']:,} games"
            if search["rounds"] == 1
            else f"{search['rounds']} rounds of {search['first_round']:,} to {search['most_games_a_rule_set']:,} games"
        )
        + f"; {search['games_played']:,} games, "
        f"{search['games_in_all'] - search['games_played']:,} more to confirm, in {search['elapsed_s']:.1f} s",
        f"        {c['meets']} meet every target, {c['near']} near (off by less than matters), "
        + (f"{c['edge']} at the edge (off by about what matters), " if c["edge"] else "")
        + f"{c['misses']} miss"
        + (f", {c['beaten']} beaten on {s['prefer']['metric']}" if c["beaten"] else "")
        + (f", {c['undecided']} undecided when the budget ran out" if c["undecided"] else "")
        + (f"; {len(s['unplayable'])} cannot be played" if s["unplayable"] else ""),
    ]
    width = max([len(a["label"]) for a in s["answers"] + s["nearest"] + s["near"]] + [8])
    head = f"  {'rule set':<{width}}  " + "  ".join(f"{t['metric']:<24}" for t in targets)
    if s["answers"]:
        lines += ["", "answers: meet every target (the search's games, then fresh games)", head + "  fresh games"]
        for a in s["answers"]:
            lines += _rows(a, targets, width)
    else:
        lines += ["", "no rule set meets every target; the nearest miss:", head + "  fresh games"]
        for a in s["nearest"]:
            lines += _rows(a, targets, width)
            for m in a["misses"]:
                t = next(t for t in targets if t["metric"] == m["metric"])
                lines.append(f"  off {t['text']} by about {shortfall_words(t, m['by'])} on the search's games: "
                             f"{_cell(t, {'value': m['value'], 'ci': m['ci']})}")  # fmt: skip
        if len(s["pareto"]) > 1:
            lines += ["", "where the targets compete (no rule set misses each by less at once):"]
            lines += [f"  {p}" for p in s["pareto"]]
    if s["answers"] and s["near"]:
        shown = f"; the {len(s['near'])} nearest of {c['near']}" if len(s["near"]) < c["near"] else ""
        lines += ["", f"near: within what matters of every target, off one by less (the search's games{shown})"]
        for a in s["near"]:
            lines.append(f"  {a['label']:<{width}}  " + "  ".join(f"{_cell(t, a['figures'][t['metric']]):<24}"
                                                                 for t in targets))  # fmt: skip
    if s["unplayable"]:
        u = s["unplayable"][0]
        lines += [
            "",
            f"cannot be played: {u['label']} ({u['why']})"
            + (f" and {len(s['unplayable']) - 1} more" if len(s["unplayable"]) > 1 else ""),
        ]
    return "\n".join(lines)


def _show(t: dict, x: float) -> str:
    from snakesim.analysis.design_space import Target

    return Target.of(t).show(x)


def _cell(t: dict, f: dict) -> str:
    from snakesim.analysis.design_space import Target

    return Target.of(t).interval(f)


def _rows(a: dict, targets: list[dict], width: int) -> list[str]:
    """An answer's two lines: its figures on the search's games, then on the fresh games."""
    search = "  ".join(f"{_cell(t, a['figures'][t['metric']]):<24}" for t in targets)
    checked = "" if a.get("confirmed") else ", not checked on fresh games"
    out = [f"  {a['label']:<{width}}  {search}  ({a['games']:,} games{checked})"]
    c = a.get("confirmed")
    if c is not None:
        fresh = "  ".join(f"{_cell(t, c['figures'][t['metric']]):<24}" for t in targets)
        said = (
            "holds"
            if c["holds"]
            else "does not hold: " + ", ".join(f"{m} {v}" for m, v in c["calls"].items() if v != "meets")
        )
        out.append(f"  {'':<{width}}  {fresh}  {c['games']:,} fresh: {said}")
    return out
