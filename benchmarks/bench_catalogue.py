"""How fast the catalogue answers (snakesim.questions.catalogue), in a catalogue of its own.

- A kept comparison asked again: ``snakesim compare fortune -p 4 -n 200000 --seed 3 -v standard
  -v one-snake --json``, its whole wall time in a fresh process, interleaved with the
  interpreter's own start (``python -c pass``) and ``snakesim --help``. Target: within 1 s of the
  command's start.
- ``snakesim results`` and ``results --json`` over 10,000 kept answers (each a copy of that
  comparison's answer). Target: under 1 s.
- What keeping costs a 1,000,000-game comparison: ``Catalogue.keep`` of its answer against the
  play's own time, both measured here, the keeps interleaved. Target: under 5%. And the time its
  rows take from the games' exact tally (``compare_tables``), which extending a kept answer needs.
- A search's games: what keeping them costs a search, and what the next search saves by taking
  them (kept only where playing them is slower than reading them back: Sssnake's, not Fortune's).

The medians are printed with their spread (min-max) and the machine's load.

    python benchmarks/bench_catalogue.py [--repeats 5]
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import arguments, interleaved, load, median_spread, per_round, print_table

ASK = ["compare", "fortune", "-p", "4", "-n", "200000", "--seed", "3", "-v", "standard", "-v", "one-snake", "--json"]
SNAKESIM = [str(Path(sys.executable).parent / "snakesim")]  # (the installed command, as a user runs it)


def command(args: list[str], home: Path) -> callable:
    env = {**os.environ, "SNAKESIM_HOME": str(home)}
    return lambda: subprocess.run(args, env=env, capture_output=True, check=True, timeout=600)


def main() -> None:
    args = arguments(__doc__, games=0, reference_games=0, repeats=5)
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        first = time.perf_counter()
        played = command([*SNAKESIM, *ASK], home)()  # (played once and kept)
        play_s = time.perf_counter() - first
        assert "catalogue" not in json.loads(played.stdout)
        served = subprocess.run([*SNAKESIM, *ASK], env={**os.environ, "SNAKESIM_HOME": str(home)},
                                capture_output=True, check=True)  # fmt: skip
        assert "catalogue" in json.loads(served.stdout)  # (what is timed below is served, not played)
        before = load()
        runs = interleaved({
            "python -c pass": command([sys.executable, "-c", "pass"], home),
            "snakesim --help": command([*SNAKESIM, "--help"], home),
            "compare, kept": command([*SNAKESIM, *ASK], home),
        }, args.repeats)  # fmt: skip
        rows = [(name, median_spread([s for s, _ in r], "{:.3f} s"), "") for name, r in runs.items()]
        rows[-1] = (*rows[-1][:2], f"(target: within 1 s; played the first time in {play_s:.1f} s)")
        print_table(f"A kept comparison asked again, {args.repeats} interleaved rounds", rows, before)

        # 10,000 answers, each the comparison's own, written in one transaction (as 10,000 keeps would leave them).
        path = home / "catalogue.sqlite"
        with sqlite3.connect(path) as db:
            row = db.execute("SELECT key, kind, game, players, seed, games, rules, version, played, seconds, answer, "
                             "words, size FROM answers").fetchone()  # fmt: skip
            db.executemany("INSERT INTO answers (key, kind, game, players, seed, games, rules, version, played, "
                           "seconds, answer, words, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [row] * 9_999)  # fmt: skip
        size = path.stat().st_size
        before = load()
        runs = interleaved({
            "python -c pass": command([sys.executable, "-c", "pass"], home),
            "results": command([*SNAKESIM, "results"], home),
            "results --json": command([*SNAKESIM, "results", "--json"], home),
        }, args.repeats)  # fmt: skip
        rows = [(name, median_spread([s for s, _ in r], "{:.3f} s"), "") for name, r in runs.items()]
        rows[-1] = (*rows[-1][:2], "(target: under 1 s)")
        print_table(f"Listing 10,000 kept answers ({size / 1e6:.0f} MB), {args.repeats} interleaved rounds", rows,
                    before)  # fmt: skip

    # What keeping costs a 1,000,000-game comparison.
    from snakesim.cli.compare import _shown
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.questions import compare as question
    from snakesim.questions.catalogue import Catalogue

    plan = question.ask("fortune", 4, ["standard", "one-snake"], Budget(1_000_000, 3), RuleSource())
    before = load()
    play_s, answer = _timed(lambda: question.play(plan))
    meta, text = _shown(answer, folder=None, again=["snakesim", "compare"])
    with tempfile.TemporaryDirectory() as folder:
        cat = Catalogue(Path(folder) / "catalogue.sqlite")
        fields = {"key": plan.key(), "kind": "compare", "game": "fortune", "players": 4, "seed": 3,
                  "games": 1_000_000, "rules": ["standard", "one-snake"], "seconds": play_s}  # fmt: skip
        keeps = interleaved({"keep": lambda: cat.keep(**fields, answer=meta, words=text)}, args.repeats)["keep"]
        cat.close()
    seconds = [s for s, _ in keeps]
    from snakesim.analysis.compare import compare_tables

    rows = [s for s, _ in interleaved({"rows": lambda: compare_tables(plan.spec, answer.tables)}, args.repeats)["rows"]]
    print_table("Keeping a 1,000,000-game comparison", [
        ("its rows from the games' exact tally", median_spread(rows, "{:.2f} s"),
         "(0.9-1.0 s from the arrays' float sums before, the same tables, 2026-11-27)"),
        ("playing it", f"{play_s:.2f} s", "(once)"),
        ("keeping its answer", median_spread(seconds, "{:.4f} s"), ""),
        ("keeping / playing", median_spread([100 * s / play_s for s in seconds], "{:.2f}%"), "(target: under 5%)"),
    ], before)  # fmt: skip
    _searched(args.repeats)


def _searched(repeats: int) -> None:
    """What keeping a search's games costs it, and what taking them saves the next search: one
    rule set's 20,000 games of a search (``SameGames``) with no catalogue, kept in an empty one,
    and taken from one that keeps them, interleaved; Sssnake's games (kept: slower to play than
    to read back) and Fortune's (played again: quicker)."""
    from snakesim.analysis.search import SameGames
    from snakesim.games import get_game
    from snakesim.questions.catalogue import Catalogue

    rows = []
    before = load()
    for game in ("sssnake", "fortune"):
        spec = get_game(game)
        rules = spec.rules()
        SameGames(spec, 4, 3).games(rules, 1_000)  # (compiled before any round is timed)
        with tempfile.TemporaryDirectory() as folder:
            names = iter(range(10**6))

            def search(kept, spec=spec, rules=rules) -> SameGames:
                games = SameGames(spec, 4, 3, kept=kept)
                games.games(rules, 20_000)
                games.close()
                return games

            search(Catalogue(Path(folder) / "kept.sqlite"))
            runs = interleaved({
                "none": lambda: search(None),
                "keeping": lambda names=names: search(Catalogue(Path(folder) / f"{next(names)}.sqlite")),
                "taking": lambda: search(Catalogue(Path(folder) / "kept.sqlite")),
            }, repeats)  # fmt: skip
        none, keeping, taking = ([s for s, _ in runs[n]] for n in ("none", "keeping", "taking"))
        taken = runs["taking"][0][1].stored
        rows += [
            (f"{game}: played, no catalogue", median_spread(none, "{:.3f} s"), ""),
            (f"{game}: played, kept", median_spread(keeping, "{:.3f} s"), f"x{per_round(keeping, none)}"),
            (f"{game}: taken from the catalogue", median_spread(taking, "{:.3f} s"),
             f"x{per_round(taking, none)}; {taken:,} games taken"),
        ]  # fmt: skip
    print_table(f"A search's 20,000 games of one rule set, 4 players, {repeats} interleaved rounds", rows, before)


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


if __name__ == "__main__":
    main()
