"""The ``results`` commands: what was asked, kept in the catalogue (snakesim.questions.catalogue)."""

from __future__ import annotations

import time

import click

from snakesim.cli import cli
from snakesim.cli.format import to_json
from snakesim.core.errors import InputError

catalogue_option = click.option(
    "--catalogue", "catalogue_path", type=click.Path(dir_okay=False), default=None, metavar="PATH",
    help="The catalogue [default: $SNAKESIM_HOME/catalogue.sqlite, else the user's data folder].",
)  # fmt: skip


def _date(text: str | None, field: str) -> float | None:
    """A day as YYYY-MM-DD, as seconds since the epoch at its start (local time)."""
    if text is None:
        return None
    try:
        return time.mktime(time.strptime(text, "%Y-%m-%d"))
    except ValueError:
        raise InputError(field, f"expected a day as YYYY-MM-DD, got {text!r}") from None


def _catalogue(path):
    from snakesim.questions.catalogue import Catalogue

    return Catalogue(path)


@cli.group(invoke_without_command=True)
@click.option("--game", default=None, help="Only the answers about this game.")
@click.option("--kind", default=None, help="Only this kind of question (compare, ...).")
@click.option("--since", default=None, metavar="YYYY-MM-DD", help="Only the answers played on or after this day.")
@click.option("--json", "as_json", is_flag=True, help="Each answer's line as JSON.")
@catalogue_option
@click.pass_context
def results(ctx, game, kind, since, as_json, catalogue_path):
    """What was asked and kept: one line an answer, oldest first.

    Every answered question is kept in the catalogue, by the identity of its question: asked
    again, from any door, it is answered from there at once. An answer kept by another version
    of the games' code is marked "older code" and played again when asked.

    \b
    Examples:
      snakesim results
      snakesim results --game fortune --since 2026-11-01
      snakesim results show 3
      snakesim results export 3
      snakesim results forget 3
      snakesim results forget --before 2026-10-01
    """
    if ctx.invoked_subcommand is not None:
        return
    cat = _catalogue(catalogue_path)
    entries = cat.entries(game=game, kind=kind, since=_date(since, "--since"))
    if as_json:
        click.echo(to_json([e.listed() for e in entries]))
        return
    searched, size = cat.searched_size()
    also = "" if not searched else (f"\nAlso kept: the games of {searched:,} searched rule sets ({size / 1e6:.1f} "
                                    "MB), which later searches of the same seed and players take instead of playing "
                                    "them again.")  # fmt: skip
    if not entries:
        click.echo("No answers kept yet" + (" that match" if game or kind or since else "") + "." + also)
        return
    click.echo(f"{'id':>5}  {'played':<19} {'kind':<8} {'game':<8} {'players':>7} {'games':>11} {'seed':>6}  rule sets")
    for e in entries:
        stale = "" if e.current else "  (older code: played again when asked)"
        click.echo(f"{e.id:>5}  {e.when():<19} {e.kind:<8} {e.game:<8} {e.players:>7} {e.games:>11,} {e.seed:>6}  "
                   f"{', '.join(e.rules)}{stale}")  # fmt: skip
    if also:
        click.echo(also)


@results.command()
@click.argument("answer_id", metavar="ID", type=int)
@click.option("--json", "as_json", is_flag=True, help="The answer as its command's --json printed it.")
@catalogue_option
def show(answer_id, as_json, catalogue_path):
    """The kept answer ID, in words and tables as its command printed it.

    \b
    Examples:
      snakesim results show 3
      snakesim results show 3 --json
    """
    entry = _catalogue(catalogue_path).get(answer_id)
    if as_json:
        click.echo(to_json(entry.answer))
        return
    older = "" if entry.current else " by an older version of the games' code (asking again plays it anew)"
    click.echo(f"{entry.words}\n\nAnswer {entry.id}, played on {entry.when()}{older}.")


@results.command()
@click.argument("answer_id", metavar="ID", type=int)
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False), default=None, metavar="FOLDER",
              help="Where the Parquet files go [default: answer-ID in this folder].")  # fmt: skip
@catalogue_option
def export(answer_id, out_dir, catalogue_path):
    """Write the kept answer ID's tables as Parquet files: every table its --json holds (a
    comparison's rows, a search's rule sets, ...), and, for a comparison, each rule set's
    per-game table, played again (the catalogue keeps no per-game table: game i of seed s is
    always the same game, so the games played again are the answer's own).

    \b
    Examples:
      snakesim results export 3
      snakesim results export 3 --out tables/
      python -c "import pandas; print(pandas.read_parquet('answer-3/rows.parquet'))"
    """
    import sys
    from pathlib import Path

    from snakesim.core.files import check_writable
    from snakesim.questions.exported import export as write
    from snakesim.questions.exported import names_rule_sets

    entry = _catalogue(catalogue_path).get(answer_id)
    folder = Path(out_dir) if out_dir is not None else Path(f"answer-{answer_id}")
    if folder.exists() and not folder.is_dir():
        raise InputError("--out", f"{str(folder)!r} is a file; the tables need a folder")
    check_writable(folder.absolute(), "--out")
    if not entry.current and names_rule_sets(entry.answer):  # (this code might play other games than the answer's)
        click.echo(f"snakesim: note: answer {answer_id} was played by an older version of the games' code, so its "
                   "games are not played again; ask its question again, then export that answer", err=True)  # fmt: skip
    written = write(entry.answer, folder, replay=entry.current, progress=sys.stderr.isatty())
    click.echo(f"{len(written)} Parquet file{'' if len(written) == 1 else 's'} written to {folder}:")
    for path in written:
        click.echo(f"  {path.name}" + ("  (its games, played again)" if path.name.startswith("games-") else ""))


@results.command()
@click.argument("answer_ids", metavar="[ID]...", type=int, nargs=-1)
@click.option("--before", default=None, metavar="YYYY-MM-DD", help="Every answer played before this day.")
@click.option("--all", "everything", is_flag=True, help="Every answer, and the games searches kept.")
@catalogue_option
def forget(answer_ids, before, everything, catalogue_path):
    """Remove kept answers: those named, those played before a day, or all of them.

    \b
    Examples:
      snakesim results forget 3 4
      snakesim results forget --before 2026-10-01
      snakesim results forget --all
    """
    if not answer_ids and before is None and not everything:
        raise InputError("forget", "name the answers to remove (IDs), --before YYYY-MM-DD, or --all")
    cat = _catalogue(catalogue_path)
    if answer_ids:
        for id_ in answer_ids:
            cat.get(id_)  # (an unknown id is named, and nothing is removed)
    removed = cat.forget(answer_ids, before=_date(before, "--before"), everything=everything)
    click.echo(f"{removed} answer{'' if removed == 1 else 's'} removed from {cat.path}.")


@results.command()
@click.argument("megabytes", type=click.FloatRange(min=0.001), required=False)
@catalogue_option
def cap(megabytes, catalogue_path):
    """How much the catalogue keeps at most, or, with MEGABYTES, keep at most that from now on
    (the oldest answers past it are removed at once, and whenever a new one would pass it).

    \b
    Examples:
      snakesim results cap
      snakesim results cap 200
    """
    cat = _catalogue(catalogue_path)
    if megabytes is not None:
        from snakesim.questions.catalogue import removed_words

        removed = cat.set_cap(int(megabytes * 1e6))
        click.echo(f"The catalogue keeps at most {megabytes:g} MB of answers from now on"
                   + (f"; {removed_words(removed)}." if removed else "."))  # fmt: skip
        return
    click.echo(f"The catalogue keeps at most {cat.cap / 1e6:g} MB of answers; it holds {cat.size() / 1e6:.1f} MB "
               f"({cat.path}).")  # fmt: skip
