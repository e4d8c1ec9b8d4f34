"""The package's import structure: every import, at the top of a module or inside a function,
points down the layers (core, analysis, games, the questions, the package's API, report,
workbench, cli); no
module of snakesim imports itself through others; a run's inputs are resolved without importing
what plays them, and the run-folder store does not import the table readers."""

import ast
from pathlib import Path

import pytest

import snakesim

ROOT = Path(snakesim.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The snakesim modules that ``path`` imports anywhere in it (``from a import b`` counts as
    ``a.b`` when that is a module, else ``a``); TYPE_CHECKING blocks are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {
        id(node)
        for top in ast.walk(tree)
        if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test)
        for node in ast.walk(top)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in known else node.module)
    return {name for name in found if name in known} - {module_name(path)}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in ROOT.rglob("*.py")}
    return {name: imports_of(path, set(files)) for name, path in files.items()}


def reaches(graph, start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


# The layers, lowest first: a module may import its own layer and those below, never above.
# The questions (snakesim.questions) sit between the analyses and the doors that ask them: the API,
# a study (report), the workbench and the command line.
LAYERS = ("snakesim.core", "snakesim.analysis", "snakesim.games", "snakesim.questions", "snakesim",
          "snakesim.report", "snakesim.workbench", "snakesim.cli")  # fmt: skip


def layer(module: str) -> int:
    """The layer of a module: its longest prefix among LAYERS (``snakesim`` alone: the API)."""
    matches = [k for k, prefix in enumerate(LAYERS) if module == prefix or module.startswith(prefix + ".")]
    return max(matches, key=lambda k: len(LAYERS[k]))


def test_the_graph_is_read(graph):
    # The reader must see both kinds of import, or the checks below would pass on nothing.
    assert "snakesim.core.arms" in graph["snakesim.core.runner"]  # at the top of the module
    assert "snakesim.games" in graph["snakesim"]  # inside simulate, a function
    assert layer("snakesim.core.rules") == 0 and layer("snakesim") == 4 and layer("snakesim.cli.compare") == 7
    assert layer("snakesim.questions.compare") == 3


def test_every_import_points_down_the_layers(graph):
    up = sorted(f"{name} -> {dep}" for name, deps in graph.items() for dep in deps if layer(dep) > layer(name))
    assert not up, f"imports that run back up the layers: {up}"


def test_no_module_of_core_imports_itself_through_others(graph):
    core = {name: deps for name, deps in graph.items() if name.startswith("snakesim.core.")}
    circles = sorted(name for name in core if name in reaches(core, name))
    assert not circles, f"import circles through {circles}"


def test_resolving_inputs_imports_nothing_that_plays(graph):
    players = {"snakesim.core.runner", "snakesim.core.backends", "snakesim.core.compiling", "snakesim.core.threads"}
    assert not reaches(graph, "snakesim.core.arms") & players


def test_the_store_and_the_table_readers_do_not_import_each_other(graph):
    assert "snakesim.core.results" not in reaches(graph, "snakesim.core.store")
