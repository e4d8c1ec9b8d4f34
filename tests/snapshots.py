"""Reviewed snapshots of every word snakesim says: the figure registry, and what each kind of
question prints for a few small fixed questions per game.

A refactor that moves code (each kind of question into a module of its own, the words beside
it) must change no answer, word for word; ``tests/test_snapshots.py`` compares what the code
says now with the text files in ``tests/snapshots/``. After a change that is meant to alter
the words, regenerate them and read the diff before committing it::

    make snapshots          # or: python -m tests.snapshots [NAME ...]
    git diff tests/snapshots/

A number in a snapshot is compared within one unit of its last printed digit, a float of a
``--json`` answer within a relative 1e-9 (a figure that went through floating-point arithmetic
may round the other way on another machine); a whole number (a count of games, a seat, a seed),
a key and every word must be the same.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent / "snapshots"

# One small, fixed question per kind and game: seeds, games and threads pinned, so that game i
# of seed s is the same game whoever asks. They are kept small (the default suite plays them
# all) but large enough that their findings say something: a change that matters, one too
# small to notice, one not settled.
T1 = ("-t", "1")
QUESTIONS: dict[str, tuple[str, ...]] = {
    # Fortune: no choices, so no skill; the exact solver on a small deck.
    "fortune-run": ("run", "fortune", "-p", "3", "-n", "3000", "-s", "1", *T1),
    "fortune-run-capped": ("run", "fortune", "-p", "4", "-n", "1000", "--set", "turn_cap=150", "-s", "17", *T1),
    "fortune-compare": ("compare", "fortune", "-p", "4", "-n", "4000", "-s", "2", "-v", "standard", "-v", "rejoin",
                        "-v", "ten=standard,start_coins=10", *T1),
    "fortune-sweep": ("sweep", "fortune", "-p", "2..3", "--set", "start_coins=10,20", "-n", "2000", "-s", "3", *T1),
    "fortune-balance": ("balance", "fortune", "-p", "3", "--handicap", "start_coins", "--range", "15:25", "-n", "1000",
                        "--max-games", "4000", "--confirm-games", "2000", "-s", "4", *T1),
    "fortune-balance-fair": ("balance", "fortune", "-p", "3", "--handicap", "start_coins", "--range", "15:25",
                             "--tolerance", "0.05", "-n", "1000", "--max-games", "2000", "--confirm-games", "4000",
                             "-s", "18", *T1),
    "fortune-balance-unshown": ("balance", "fortune", "-p", "3", "--handicap", "start_coins", "--range", "15:25",
                                "--tolerance", "0.03", "-n", "1000", "--max-games", "2000", "--confirm-games", "4000",
                                "-s", "18", *T1),
    "fortune-tune": ("tune", "fortune", "--target", "length.median=60", "--vary", "start_coins=5:30", "-n", "1000",
                     "--max-games", "4000", "--confirm-games", "2000", "-s", "5", *T1),
    "fortune-design": ("design", "fortune", "-p", "3", "--vary", "start_coins=8,10,12,14", "--vary",
                       "variant=standard,rejoin", "--target", "length.median=60+-15", "--target",
                       "out_share.mean<=0.3", "-n", "1000", "--budget", "40000", "-s", "6", *T1),
    "fortune-compare-one": ("compare", "fortune", "-p", "3", "-n", "2000", "-s", "8", "-v", "rejoin", *T1),
    "fortune-sweep-matters": ("sweep", "fortune", "-p", "3", "--set", "deck.RIVER=0,1,4", "-n", "2000", "-s", "9",
                              "--matters", "lead_changes=0.25,win_rate=3", *T1),
    "fortune-tune-matters": ("tune", "fortune", "--target", "out_share.mean=0.2", "--vary", "start_coins=5:30", "-n",
                             "1000", "--max-games", "4000", "--confirm-games", "2000", "-s", "10", "--matters",
                             "out_share=1", *T1),
    "fortune-tune-seat": ("tune", "fortune", "--target", "win_rate.3=0.25", "--vary", "start_coins.3=15:25", "--set",
                          "start_coins=20", "-n", "1000", "--max-games", "4000", "--confirm-games", "2000", "-s", "15",
                          *T1),
    "fortune-tune-column": ("tune", "fortune", "--target", "means.max_cup=30", "--vary", "start_coins=5:30", "-n",
                            "1000", "--max-games", "4000", "--confirm-games", "2000", "-s", "16", *T1),
    "fortune-exact": ("exact", "fortune", "--players", "2", "--set", "start_coins=3", "--set",
                      "deck={LEAVES=1,POPPIES=1,ORCHIDS=1,FOUNTAIN=1,SUNS=1,STARS=1,HEARTS=1,RAIN=1,CROSSES=1,RIVER=1}",
                      "--games", "4000", "-s", "7"),
    # Rainbow: a wild snake, hand sizes, and players with choices.
    "rainbow-run": ("run", "rainbow", "-p", "4", "-n", "2000", "-s", "1", *T1),
    "rainbow-compare": ("compare", "rainbow", "-p", "3", "-n", "3000", "-s", "2", "-v", "standard", "-v",
                        "wild-snake", *T1),
    "rainbow-sweep": ("sweep", "rainbow", "-p", "3", "--set", "hand_size=5,7,9", "-n", "1500", "-s", "3", *T1),
    "rainbow-balance": ("balance", "rainbow", "-p", "3", "--handicap", "hand_size", "-n", "1000", "--max-games",
                        "4000", "--confirm-games", "2000", "-s", "4", *T1),
    "rainbow-tune": ("tune", "rainbow", "--target", "length.mean=30", "--vary", "hand_size=3:12", "-n", "1000",
                     "--max-games", "4000", "--confirm-games", "2000", "-s", "5", *T1),
    "rainbow-design": ("design", "rainbow", "-p", "3", "--vary", "hand_size=5:8", "--vary",
                       "variant=standard,wild-snake", "--target", "length.mean=35+-8", "--target",
                       "comeback.share>=0.2", "--prefer", "length.mean", "-n", "800", "--budget", "40000", "-s", "6",
                       *T1),
    "rainbow-compare-players": ("compare", "rainbow", "-p", "3", "-n", "2000", "-s", "11", "--policies",
                                "greedy,random,greedy", "-v", "standard", "-v", "wild-snake", "-v",
                                "careful=standard,policies=greedy/greedy/greedy", *T1),
    "rainbow-skill": ("skill", "rainbow", "-p", "3", "-n", "300", "-k", "4", "-s", "7", *T1),
    # Hisss: draws, the tie-break, points, and an exact solve with players' choices.
    "hisss-run": ("run", "hisss", "-p", "3", "-n", "2000", "-s", "1", *T1),
    "hisss-compare": ("compare", "hisss", "-p", "3", "-n", "3000", "-s", "2", "-v", "standard", "-v", "most-snakes",
                      *T1),
    "hisss-sweep": ("sweep", "hisss", "-p", "2..4", "--set", "points_per_snake=0,2", "-n", "1000", "-s", "3", *T1),
    "hisss-balance": ("balance", "hisss", "-p", "3", "--handicap", "start_points", "-n", "1000", "--max-games",
                      "4000", "--confirm-games", "2000", "-s", "4", *T1),
    "hisss-tune": ("tune", "hisss", "--target", "draw.share=0.01", "--vary", "points_per_snake=0:5", "-n", "1000",
                   "--max-games", "4000", "--confirm-games", "2000", "-s", "5", *T1),
    "hisss-design": ("design", "hisss", "-p", "3", "--vary", "points_per_snake=0:2", "--vary", "points_per_longest=0:2",
                     "--target", "tie_break.share<=0.1", "--target", "seat_gap<=6", "-n", "800", "--budget", "60000",
                     "-s", "6", *T1),
    "hisss-balance-novices": ("balance", "hisss", "-p", "3", "--handicap", "start_points", "--novices", "0.3", "-n",
                              "1000", "--max-games", "2000", "--confirm-games", "2000", "-s", "12", *T1),
    "hisss-design-misses": ("design", "hisss", "-p", "3", "--vary", "points_per_snake=0:1", "--target",
                            "seat_gap<=0.5", "--target", "tie_break.share>=0.5", "-n", "600", "--budget", "20000",
                            "-s", "13", *T1),
    "hisss-skill-rules": ("skill", "hisss", "-p", "3", "-v", "standard", "-v", "most-snakes", "-n", "300", "-k", "4",
                          "-s", "14", *T1),
    "hisss-skill": ("skill", "hisss", "-p", "3", "-n", "300", "-k", "4", "-s", "7", *T1),
    # Sssnake: a die, head starts, and no draws.
    "sssnake-run": ("run", "sssnake", "-p", "3", "-n", "1000", "-s", "1", *T1),
    "sssnake-compare": ("compare", "sssnake", "-p", "3", "-n", "1000", "-s", "2", "-v", "standard", "-v", "no-ones",
                        *T1),
    "sssnake-sweep": ("sweep", "sssnake", "-p", "2..3", "--set", "head_start=0,2", "-n", "600", "-s", "3", *T1),
    "sssnake-balance": ("balance", "sssnake", "-p", "3", "--handicap", "head_start", "-n", "600", "--max-games",
                        "2400", "--confirm-games", "1000", "-s", "4", *T1),
    "sssnake-design": ("design", "sssnake", "-p", "3", "--vary", "variant=standard,fewer-ones,no-ones", "--target",
                       "lead_changes.mean<=4", "-n", "500", "--budget", "20000", "-s", "6", *T1),
}  # fmt: skip

# Bad input, each said in one line naming its field: every door's checks, word for word.
_DESIGN = ("design", "fortune", "-p", "3", "-n", "100")
_TUNE = ("tune", "fortune", "-n", "100")
BAD_INPUT: tuple[tuple[str, ...], ...] = (
    (*_DESIGN, "--vary", "coins=1:3", "--target", "length.median=60+-8"),
    (*_DESIGN, "--vary", "start_coins=8", "--target", "length.median=60+-8"),
    (*_DESIGN, "--vary", "start_coins=8,8", "--target", "length.median=60+-8"),
    (*_DESIGN, "--vary", "snakes=x,y", "--target", "length.median=60+-8"),
    (*_DESIGN, "--vary", "variant=standard,nope", "--target", "length.median=60"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.median<=60+-8"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "speed.mean<=3"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "seat_gap<=200"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "seat_gap<=0.01"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "out_share.mean<=25"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "out_share.mean<=125%"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.medain=60"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.median=60+-x"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.median=sixty"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.median=inf"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.median=60+--5"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.median=>60"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.median=<60"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "draw.share<=0.1", "--prefer", "lenght.mean"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "draw.share<=0.1", "--prefer", "length.mean=up"),
    (*_DESIGN, "--vary", "snakes=1:2", "--vary", "snakes=3,4", "--target", "draw.share<=0.1"),
    (*_DESIGN, *(x for k in ("LEAVES", "POPPIES", "ORCHIDS", "FOUNTAIN", "SUNS", "STARS")
                 for x in ("--vary", f"deck.{k}=0:199")), "--target", "draw.share<=0.1"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "draw.share<=0.1", "--budget", "300"),
    (*_DESIGN, "--vary", "start_coins.5=10:12", "--target", "length.median=60"),
    (*_DESIGN, "--vary", "snakes.1=1:2", "--target", "length.median=60"),
    (*_DESIGN, "--vary", "start_coins=20:10", "--target", "length.median=60"),
    (*_DESIGN, "--vary", "start_coins=8:12:2", "--target", "length.median=60"),
    (*_DESIGN, "--vary", "variant=1:2", "--target", "length.median=60"),
    (*_DESIGN, "--vary", "start_coins", "--target", "length.median=60"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.median=60", "--matters", "colour=3"),
    (*_DESIGN, "--vary", "snakes=1:2", "--target", "length.median=60", "--matters", "tie_break=0.005"),
    (*_TUNE, "--target", "length.median=60", "--vary", "start_coins=40:5"),
    (*_TUNE, "--target", "nosuch.mean=60", "--vary", "start_coins=5:40"),
    (*_TUNE, "--target", "length.median=60", "--vary", "variant=5:40"),
    (*_TUNE, "--target", "win_rate.9=0.25", "--vary", "start_coins=5:40"),
    ("balance", "fortune", "--handicap", "snakes"),
    ("balance", "fortune", "--handicap", "start_coins", "--tolerance", "2"),
    ("balance", "fortune", "--handicap", "start_coins", "--range", "30:10"),
    ("balance", "fortune", "--handicap", "start_coins", "--novices", "0.3"),
    ("balance", "hisss", "--handicap", "start_points", "--novices", "1.5"),
    ("compare", "fortune", "-v", "standard", "-v", "nosuch"),
    ("compare", "fortune", "-v", "standard", "-v", "x=standard,start_coins=0"),
    ("compare", "fortune", "-v", "standard", "--matters", "length=-2"),
    ("sweep", "fortune", "--set", "start_coins=5:40:0"),
    ("run", "fortune", "-p", "9"),
)  # fmt: skip

# What changes from one run of the same question to the next: the time taken, and the speed.
_CLOCK = re.compile(r"\b\d+(?:\.\d+)? ?(?:s|seconds?|min|ms)\b(?= |,|\)|$)", re.MULTILINE)
_SPEED = re.compile(r"\b[\d,]+(?:\.\d+)? games/s\b")


def figures_text() -> str:
    """Every figure of the registry, field by field, with the games it exists in: its words
    (label, line, short, noun, words for more and fewer), its unit, kind and the difference
    that matters."""
    from snakesim.core.figures import FIGURES, OLD_NAMES, target_figure, targets
    from snakesim.games import GAMES

    lines = []
    for f in FIGURES:
        lines.append(f"[{f.id}]")
        for field in dataclasses.fields(f):
            if field.name in ("id", "values", "counted", "applies"):
                continue
            lines.append(f"{field.name} = {getattr(f, field.name)!r}")
        lines.append(f"read off the games = {f.values is not None}")
        lines.append(f"counts some games only = {f.counted is not None}")
        lines.append(f"games = {[name for name, spec in GAMES.items() if f.exists(spec)]}")
        lines.append(f"percent = {f.percent}")
        lines.append("")
    # The targets (tune and design) each game offers, and the figure each target names.
    lines.append(f"[targets] every game: {', '.join(targets())}")
    lines += [f"[targets] {name}: {', '.join(targets(spec))}" for name, spec in GAMES.items()]
    asked = [*targets(), *OLD_NAMES, "win_rate.2", "means.coins_0", "seat_gap", "nosuch.mean"]
    lines += [f"[target] {t} -> {getattr(target_figure(t), 'id', None)}" for t in asked]
    return "\n".join(lines) + "\n"


def _invoke(args: tuple[str, ...]):
    from click.testing import CliRunner

    from snakesim.cli import cli

    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _ask(args: tuple[str, ...]) -> str:
    result = _invoke(args)
    if result.exit_code != 0:
        raise RuntimeError(f"snakesim {' '.join(args)} exited {result.exit_code}: {result.output}")
    return result.stdout


def question_text(name: str) -> str:
    """What the command line prints (its standard output) for one of :data:`QUESTIONS`, the
    time it took left out."""
    args = QUESTIONS[name]
    text = _SPEED.sub("<speed> games/s", _CLOCK.sub("<time>", _ask(args)))
    return f"$ snakesim {' '.join(args)}\n{text}"


# What changes in a --json answer from one run of the same question to the next.
_VOLATILE = {"elapsed_s", "version"}


def _steady(x):
    if isinstance(x, dict):
        return {k: "<volatile>" if k in _VOLATILE else _steady(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_steady(v) for v in x]
    return x


def question_json(name: str) -> str:
    """The question's ``--json`` answer, indented, its time taken and version left out."""
    args = (*QUESTIONS[name], "--json")
    return json.dumps({"asked": " ".join(args), "answer": _steady(json.loads(_ask(args)))}, indent=1) + "\n"


def errors_text() -> str:
    """What the command line says to each of :data:`BAD_INPUT`: its exit status and its one
    line on standard error (nothing on standard output)."""
    out = []
    for args in BAD_INPUT:
        result = _invoke(args)
        out += [f"$ snakesim {' '.join(args)}", f"exit {result.exit_code}, {len(result.stdout)} characters out",
                result.stderr.rstrip("\n"), ""]  # fmt: skip
    return "\n".join(out)


def names() -> list[str]:
    """Every snapshot's name: ``figures``, ``errors``, each question's words and each
    question's JSON (``NAME.json``; every kind but exact has one)."""
    return ["figures", "errors", *QUESTIONS, *(f"{n}.json" for n, args in QUESTIONS.items() if args[0] != "exact")]


def render(name: str) -> str:
    """One snapshot's text, as the code says it now."""
    if name == "figures":
        return figures_text()
    if name == "errors":
        return errors_text()
    if name.endswith(".json"):
        return question_json(name.removesuffix(".json"))
    return question_text(name)


def path(name: str) -> Path:
    return HERE / (name if name.endswith(".json") else f"{name}.txt")


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?")


def _parts(text: str) -> tuple[list[str], list[str]]:
    return _NUMBER.split(text), _NUMBER.findall(text)


def _close(kept: str, now: str) -> bool:
    """Two printed numbers agree: a whole number exactly, a decimal within one unit of its last
    printed digit."""
    if "." not in kept or "." not in now:
        return kept == now
    places = len(kept.rpartition(".")[2])
    a, b = (float(x.replace(",", "")) for x in (kept, now))
    return abs(a - b) <= 1.0001 * 10.0**-places


def differs(kept: str, now: str, json_: bool = False) -> str | None:
    """The first place where ``now`` says something else than the snapshot ``kept`` (None when
    they agree). Text: a line's words, a whole number, or a decimal beyond one unit of its last
    digit. JSON (``json_``): a key, a string, a whole number, or a float beyond a relative 1e-9."""
    if json_:
        return _json_differs(json.loads(kept), json.loads(now), "")
    old, new = kept.splitlines(), now.splitlines()
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        (words_a, numbers_a), (words_b, numbers_b) = _parts(a), _parts(b)
        if words_a != words_b or len(numbers_a) != len(numbers_b):
            return f"line {i + 1}:\n  kept: {a}\n  now:  {b}"
        for x, y in zip(numbers_a, numbers_b, strict=True):
            if not _close(x, y):
                return f"line {i + 1}: {x} became {y}\n  kept: {a}\n  now:  {b}"
    if len(old) != len(new):
        return f"{len(old)} lines kept, {len(new)} now; the first extra: {(old + new)[min(len(old), len(new))]!r}"
    return None


def _json_differs(a, b, where: str) -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return f"{where or 'top'}: keys {list(a)} became {list(b)}"
        for k in a:
            if found := _json_differs(a[k], b[k], f"{where}.{k}"):
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items became {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if found := _json_differs(x, y, f"{where}[{i}]"):
                return found
        return None
    if isinstance(a, float) and isinstance(b, float):
        same = (a != a and b != b) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
        return None if same else f"{where}: {a!r} became {b!r}"
    if type(a) is not type(b) or a != b:
        return f"{where}: {a!r} became {b!r}"
    return None


def main(argv: list[str]) -> int:
    """Write the snapshots named (all without names) and say which changed."""
    chosen = argv or names()
    unknown = [n for n in chosen if n not in names()]
    if unknown:
        print(f"unknown snapshot {unknown[0]!r}; one of: {', '.join(names())}", file=sys.stderr)
        return 2
    HERE.mkdir(exist_ok=True)
    import tempfile

    for name in chosen:
        # (each played afresh in a catalogue of its own, as the tests play it: never a user's)
        with tempfile.TemporaryDirectory(prefix="snakesim-snapshots-") as home:
            os.environ["SNAKESIM_HOME"] = home
            text = render(name)
        old = path(name).read_text() if path(name).exists() else None
        path(name).write_text(text)
        print(f"{name}: {'unchanged' if old == text else 'new' if old is None else 'CHANGED, read the diff'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
