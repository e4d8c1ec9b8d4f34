"""The ``study`` command: run a study file and write its report."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from snakesim.cli import cli, options
from snakesim.core.errors import InputError


@cli.command()
@click.argument("study_file", metavar="STUDY.toml", type=click.Path(dir_okay=False))
@click.option(
    "--out",
    "-o",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Report folder [default: reports/STUDY].",
)
@click.option(
    "--scale", type=float, default=1.0, show_default=True, help="Multiply every game count (0.01 for a quick look)."
)
@options.backend_options
@options.catalogue_options
def study(study_file, out_dir, scale, backend, scheduler, workers, fresh, catalogue_path):
    """Run a study (a question, comparisons, sweeps, balance and tune searches) and write its report.

    A study file holds [[compare]], [[sweep]], [[balance]], [[tune]] and [[skill]] sections:
    docs/studies.md documents every key with an example; the files in analyses/ are studies.
    Its balance, tune and design sections take the games earlier searches kept in the
    catalogue (on the same seed and players) instead of playing them again, and keep theirs.

    Writes report.md, a self-contained report.html (figures embedded: it opens from disk in
    any browser), the PNG figures and summary.csv into the report folder.

    \b
    Examples:
      snakesim study analyses/fortune-house-rules.toml
      snakesim study analyses/rainbow-house-rules.toml --scale 0.01 --out /tmp/quick
      snakesim study analyses/sssnake-spite.toml --scale 10 --backend dask --scheduler tcp://head:8786
    """
    from snakesim.core.backends import make_backend
    from snakesim.questions.catalogue import Catalogue, saved_words
    from snakesim.report.study import run_study

    if not 0 < scale <= 100:
        raise InputError("--scale", f"expected a number above 0 and at most 100, got {scale}")
    engine = make_backend(backend, None, scheduler, workers)
    folder = Path(out_dir) if out_dir else Path("reports") / Path(study_file).stem
    catalogue = Catalogue(catalogue_path)
    catalogue.reuse = not fresh
    done = run_study(study_file, folder, scale, progress=sys.stderr.isatty(), backend=engine, kept=catalogue)
    if catalogue.unkept:
        click.echo(f"snakesim: warning: {catalogue.unkept}", err=True)
    click.echo(f"report written to {done}/report.md and {done}/report.html")
    if catalogue.taken:
        click.echo(saved_words(catalogue.taken, what="its searches' games"))
