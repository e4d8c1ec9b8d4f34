"""The suite's strength, module by module: the share of mutmut's mutants the tests kill.

``make mutants`` runs mutmut (``[tool.mutmut]`` in pyproject.toml says which files and which
tests), then this script, which reads mutmut's own results (``mutants/**/*.py.meta``: each
mutant's exit status) and prints one line a module: its mutants, how many the tests killed
(a failing test, or a time-out: the mutant made a test hang), how many survived, how many
no test reaches, how many were not checked yet (a run stopped early: ``make mutants`` again
goes on where it stopped), and the score, killed over checked.

Mutants listed in docs/developing.md as equivalent (a change no test could see, because the
program does the same thing, each with why) count as neither killed nor survived. The modules
``GOALS`` names must reach 90%: the verdicts, the design search, balance, the findings (each
kind's beside its question since issue 53, what they share in ``analysis/words.py``) and the
figure registry. Exit status 1 when one does not, 0 otherwise.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.90
QUESTION_KINDS = ("run", "compare", "balance", "tune", "design", "skill", "sweep")
GOALS = {  # (the parts of the code that must reach GOAL, as the issue names them)
    "snakesim/analysis/verdicts.py": "the verdicts",
    "snakesim/analysis/design.py": "the design search",
    "snakesim/analysis/design_space.py": "the design search's targets",
    "snakesim/analysis/balance.py": "balance",
    # the findings: what every kind's words share, then each kind's words beside its question
    "snakesim/analysis/words.py": "the findings' numbers",
    **{f"snakesim/questions/{kind}.py": f"the {kind} question and its findings" for kind in QUESTION_KINDS},
    "snakesim/core/figures.py": "the figure registry",
}
# mutmut's exit statuses (mutmut.stats.status_by_exit_code), as this table counts them.
KILLED = {1, 3, 24, -24, 36, 152, 255, -9, -11}  # (a failing test, or a time-out / a crash under the mutant)
SURVIVED = {0}
NO_TESTS = {5, 33}
EQUIVALENT_LINE = re.compile(r"^- `(snakesim\.[\w.ǁ]+__mutmut_\d+)`")


def equivalent(doc: Path = ROOT / "docs" / "developing.md") -> set[str]:
    """The mutants docs/developing.md lists as equivalent: lines ``- `NAME`: why``."""
    if not doc.exists():
        return set()
    return {m.group(1) for line in doc.read_text().splitlines() if (m := EQUIVALENT_LINE.match(line))}


def results(root: Path = ROOT / "mutants") -> dict[str, dict[str, int | None]]:
    """Each mutated module's mutants and their exit statuses (None: not checked yet)."""
    out = {}
    for meta in sorted(root.rglob("*.py.meta")):
        try:
            codes = json.loads(meta.read_text()).get("exit_code_by_key", {})
        except json.JSONDecodeError:  # (mutmut writing it this moment, or stopped while it did)
            print(f"{meta}: unreadable, left out; run `make mutants` again to write it anew", file=sys.stderr)
            continue
        if codes:
            out[str(meta.relative_to(root)).removesuffix(".meta")] = codes
    return out


def tally(codes: dict[str, int | None], same: set[str]) -> Counter:
    """Killed, survived, no tests, not checked and equivalent mutants of one module."""
    out = Counter()
    for name, code in codes.items():
        if name in same:
            out["equivalent"] += 1
        elif code is None:
            out["not checked"] += 1
        elif code in KILLED:
            out["killed"] += 1
        elif code in SURVIVED:
            out["survived"] += 1
        elif code in NO_TESTS:
            out["no tests"] += 1
        else:
            out["other"] += 1  # (skipped, suspicious, interrupted: not killed)
    return out


def score(t: Counter) -> float | None:
    """Killed over checked (equivalent mutants left out), None when none was checked."""
    checked = t["killed"] + t["survived"] + t["no tests"] + t["other"]
    return t["killed"] / checked if checked else None


def _percent(s: float | None) -> str:
    return "-" if s is None else f"{s:.1%}"


def main() -> int:
    found = results()
    if not found:
        print("no mutation results in mutants/: run `make mutants`", file=sys.stderr)
        return 2
    same = equivalent()
    heads = ("module", "mutants", "killed", "survived", "no tests", "other", "equivalent", "unchecked", "score")

    def row(label: str, count: int, t: Counter) -> tuple:
        return (label, count, *(t[k] for k in ("killed", "survived", "no tests", "other", "equivalent", "not checked")),
                _percent(score(t)))  # fmt: skip

    rows, short = [], []
    for module, codes in found.items():
        t = tally(codes, same)
        s = score(t)
        rows.append(row(module, len(codes), t))
        if module in GOALS and (s is None or s < GOAL or t["not checked"]):
            short.append(f"{GOALS[module]} ({module}): {_percent(s)}"
                         + (f", {t['not checked']} not checked yet" if t["not checked"] else ""))  # fmt: skip
    every = tally({k: v for codes in found.values() for k, v in codes.items()}, same)
    rows.append(row("all", sum(len(c) for c in found.values()), every))
    widths = [max(len(str(r[i])) for r in [heads, *rows]) for i in range(len(heads))]
    for r in [heads, *rows]:
        cells = [str(x).ljust(w) if i == 0 else str(x).rjust(w) for i, (x, w) in enumerate(zip(r, widths, strict=True))]
        print("  ".join(cells))
    print(f"\nscore: killed (a failing test or a time-out) over checked, equivalent mutants left out ({len(same)} "
          "listed in docs/developing.md)")  # fmt: skip
    if short:
        print(f"below {GOAL:.0%}: " + "; ".join(short))
        return 1
    print(f"every module named in the goal kills at least {GOAL:.0%} of its mutants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
