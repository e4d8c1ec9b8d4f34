"""Every game's kernel against the same kernel at an earlier revision, in one process.

Is a change to the code the kernels are compiled from (a helper inlined another way, say) free?
The revision's ``snakesim`` is checked out into a temporary worktree and imported beside this
one under another name (``snakesim_base``: its imports rewritten), so both kernels play in the
same process, interleaved, the order rotated each round: the ratio of each round is taken
within it, and the median and spread printed. Separate processes differ by more than the
changes measured (±3% here); the same code against itself gives 0.99-1.01. Both must play the
same games: their total lengths are compared.

    python benchmarks/bench_against.py [--baseline HEAD~1] [--repeats 40]    (make bench BASELINE=REV)
    NUMBA_CPU_NAME=haswell NUMBA_CPU_FEATURES= python benchmarks/bench_against.py   # AVX2 code
"""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import interleaved, load, median_spread, per_round, print_table

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"fortune": 400_000, "rainbow": 50_000, "hisss": 50_000, "sssnake": 2_000}  # (about 0.1 s a timing)
BASE = "snakesim_base"
# The package's name, as imports and strings give it.
_IMPORTED = re.compile(r"\bsnakesim\b(?=[.\s'\"]|$)", re.MULTILINE)


def _copy_as_base(revision: str, into: Path) -> None:
    """The package at ``revision``, importable from ``into`` as ``snakesim_base``."""
    tree = into / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), revision], cwd=ROOT, check=True,
                   capture_output=True)  # fmt: skip
    try:
        for source in (tree / "snakesim").rglob("*"):
            target = into / BASE / source.relative_to(tree / "snakesim")
            if source.is_dir():
                target.mkdir(parents=True, exist_ok=True)
            elif source.suffix == ".py":
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(_IMPORTED.sub(BASE, source.read_text(encoding="utf-8")), encoding="utf-8")
            elif "__pycache__" not in source.parts:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(source.read_bytes())
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False, capture_output=True)


def _player(package: str, game: str, games: int):
    """A function playing ``games`` default four-player games of ``game`` with ``package``'s kernel."""
    spec = importlib.import_module(f"{package}.games").get_game(game)
    one_thread = importlib.import_module(f"{package}.core.threads").using_threads
    rules = spec.rules()
    spec.play_block(rules, 4, 1, 0, 64)  # (compiled, or loaded from the cache, before timing)

    def play() -> int:
        with one_thread(1):
            return int(spec.play_block(rules, 4, 1, 0, games)["length"].sum())

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="HEAD~1", help="the git revision to compare with")
    parser.add_argument("--repeats", type=int, default=40, help="interleaved rounds; medians are printed")
    parser.add_argument("--only", default=None, choices=sorted(GAMES), help="one game only")
    args = parser.parse_args()
    known = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.baseline}^{{commit}}"], cwd=ROOT,
                           capture_output=True)  # fmt: skip
    if known.returncode != 0:  # (a shallow clone, or a name from elsewhere: nothing to compare with)
        print(f"bench_against: {args.baseline} is not a revision of this clone; nothing compared")
        return
    with tempfile.TemporaryDirectory() as folder:
        _copy_as_base(args.baseline, Path(folder))
        sys.path.insert(0, folder)
        before = load()
        rows = []
        for game, games in GAMES.items():
            if args.only not in (None, game):
                continue
            runs = interleaved({"base": _player(BASE, game, games), "now": _player("snakesim", game, games)},
                               args.repeats)  # fmt: skip
            if {r for _, r in runs["base"]} != {r for _, r in runs["now"]}:
                raise SystemExit(f"{game}: the two revisions played different games")
            now, base = ([1e9 * t / games for t, _ in runs[k]] for k in ("now", "base"))
            rows += [
                (f"{game}: ns a game, {args.baseline}", median_spread(base, "{:.0f}"), ""),
                (f"{game}: ns a game, now", median_spread(now, "{:.0f}"), ""),
                (f"{game}: now / {args.baseline}", per_round(now, base, "{:.3f}"), "below 1: faster"),
            ]
        print_table(f"Kernels now against {args.baseline}, default rules, 1 thread, {args.repeats} rounds", rows,
                    before)  # fmt: skip


if __name__ == "__main__":
    main()
