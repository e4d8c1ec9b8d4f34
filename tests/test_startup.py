"""Commands start quickly: they import the heavy libraries only where used, and an edit that
does not touch a kernel's sources leaves its compiled code in the cache.

(How long they take is measured by benchmarks/bench_startup.py, not here.)
"""

import ast
import json
import subprocess
import sys

import pytest

from snakesim.core.jit import PACKAGE, _imports, _names, source_closure, source_fingerprint

# (numba imports scipy.linalg when its first kernel loads; scipy.special is ours to avoid)
HEAVY = ("pandas", "pyarrow", "scipy.stats", "scipy.special", "matplotlib", "distributed", "dask", "numba", "tqdm")

CHILD = """
import json, sys
from snakesim.cli import main
sys.argv = ["snakesim", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {heavy} or m in {scipy})))
"""


def imported(*command: str) -> set[str]:
    """The heavy modules a command imported, in a fresh process."""
    scipy = {h for h in HEAVY if h.startswith("scipy.")}
    code = CHILD.format(heavy=repr({h.split(".")[0] for h in HEAVY} - {"scipy"}), scipy=repr(scipy))
    done = subprocess.run([sys.executable, "-c", code, *command], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "command,allowed",
    [
        (("--help",), ()),
        (("games",), ("numba",)),  # (every game's spec, its kernel module with it)
        (("variants", "fortune"), ("numba",)),  # (the game's kernel module is imported with its rules)
        (("run", "fortune", "--games", "1000", "--no-progress"), ("numba",)),
    ],
    ids=["help", "games", "variants", "run"],
)
def test_commands_import_only_what_they_use(command, allowed):
    heavy = {m.split(".")[0] if not m.startswith("scipy") else m for m in imported(*command)}
    assert heavy <= set(allowed), f"{' '.join(command)} imported {sorted(heavy - set(allowed))}"


def test_a_kernel_is_recompiled_only_when_its_sources_change():
    fortune = source_closure(PACKAGE / "games" / "fortune" / "kernel.py")
    names = {p.relative_to(PACKAGE).as_posix() for p in fortune}
    # What the kernel runs, and inlines from other files, is in its fingerprint...
    assert {"core/rng.py", "core/jit.py", "games/fortune/rules.py", "games/fortune/kernel.py"} <= names
    # ...and the command line, the analyses and the other games are not.
    assert not {n for n in names if n.startswith(("cli/", "analysis/", "report/", "games/hisss", "games/sssnake"))}
    assert source_fingerprint(PACKAGE / "games" / "fortune" / "kernel.py") != source_fingerprint(
        PACKAGE / "games" / "hisss" / "kernel.py"
    )


def test_the_quick_import_scan_misses_no_import():
    """The cache key reads only the lines that import snakesim; a whole-file syntax tree must
    find nothing more in any source (a missed import would leave a stale kernel in the cache)."""
    for source in sorted(PACKAGE.rglob("*.py")):
        whole = {n for n in _names(ast.parse(source.read_text(encoding="utf-8"))) if n.split(".")[0] == PACKAGE.name}
        quick = _imports(source)
        assert whole <= quick, f"{source}: the scan missed {sorted(whole - quick)}"
        assert quick - whole <= {PACKAGE.name}, f"{source}: the scan found {sorted(quick - whole)}"  # (docstrings)


def test_the_quick_import_scan_reads_indented_and_parenthesised_imports(tmp_path):
    source = tmp_path / "module.py"
    source.write_text(
        '"""Example: import snakesim.not_code? no."""\n'
        "from snakesim.core import (\n    rng,\n    jit,\n)\n"
        "def f():\n    from snakesim.games.fortune import kernel as k\n    import snakesim.core.rules\n"
        "import numpy  # from snakesim.nothing import here\n"
    )
    assert _imports(source) == {
        "snakesim.core",
        "snakesim.core.rng",
        "snakesim.core.jit",
        "snakesim.games.fortune",
        "snakesim.games.fortune.kernel",
        "snakesim.core.rules",
    }
