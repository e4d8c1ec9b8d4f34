"""No call to a function of snakesim (or of its benchmarks) passes more than five arguments by
position: past the fifth, arguments are named, so that a bare ``0`` or ``None`` in a long list
cannot slip into the wrong place. Numba kernels are included (numba binds keyword arguments at
compile time). Calls to functions defined elsewhere (numpy, numba's own C helpers) and calls
to a function that takes ``*args`` are left out: their shape is not ours to choose."""

import ast
from pathlib import Path

import pytest

import snakesim

PACKAGE = Path(snakesim.__file__).parent
BENCHMARKS = PACKAGE.parent / "benchmarks"
MOST = 5


def sources() -> list[Path]:
    files = sorted(PACKAGE.rglob("*.py"))
    if BENCHMARKS.is_dir():  # a source checkout; an installed wheel has none
        files += sorted(BENCHMARKS.glob("*.py"))
    return files


def defined_functions(trees: dict[Path, ast.Module]) -> dict[str, bool]:
    """Every function or class name defined in ``trees``, mapped to whether any definition of
    that name takes ``*args`` (a class counts by its ``__init__``)."""
    names: dict[str, bool] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names[node.name] = names.get(node.name, False) or node.args.vararg is not None
            elif isinstance(node, ast.ClassDef):
                inits = [f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"]
                star = any(f.args.vararg is not None for f in inits)
                names[node.name] = names.get(node.name, False) or star
    return names


def long_calls(trees: dict[Path, ast.Module]) -> list[str]:
    """``file:line name(N positional)`` for each call of a function defined in ``trees`` with
    more than ``MOST`` arguments by position."""
    names = defined_functions(trees)
    found = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in names or names[name]:
                continue
            positional = [a for a in node.args if not isinstance(a, ast.Starred)]
            if len(positional) > MOST:
                found.append(f"{path.name}:{node.lineno} {name}({len(positional)} positional)")
    return found


def parse(files: list[Path]) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in files}


def test_no_call_passes_more_than_five_arguments_by_position():
    assert long_calls(parse(sources())) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f(a, b, c, d, e, g): pass\nf(1, 2, 3, 4, 5, 6)", ["case.py:2 f(6 positional)"]),
        ("def f(a, b, c, d, e, g): pass\nf(1, 2, 3, 4, 5, g=6)", []),
        ("class K:\n  def __init__(self, a, b, c, d, e, g): pass\nK(1, 2, 3, 4, 5, 6)", ["case.py:3 K(6 positional)"]),
        ("import m\nm.f(1, 2, 3, 4, 5, 6)\ndef f(a, b, c, d, e, g): pass", ["case.py:2 f(6 positional)"]),
        ("def f(*a): pass\nf(1, 2, 3, 4, 5, 6)", []),
        ("import numpy as np\nnp.full(1, 2, 3, 4, 5, 6)", []),
    ],
)
def test_the_check_finds_a_long_call(source, expected, tmp_path):
    """The check itself: it sees a long call of our own function or class, and only that."""
    path = tmp_path / "case.py"
    path.write_text(source)
    assert long_calls(parse([path])) == expected
