"""The manual's examples, run: every ``console`` code block of the README and of ``docs/`` is a
session of ``$ snakesim ...`` commands, each followed by what it prints. Each command runs in
this process (click's runner, the same code as the command line) and its output must match,
line for line: a line ``...`` stands for any lines (an example abridged), and ``...`` within a
line for any text (a timing). Every ``pycon`` block (``>>>`` lines and what they print) runs as
a doctest. A page's examples share one scratch folder, so a table a command writes can be read
by the Python after it. A change that alters an output fails here until the page shows the new
one. Collected by Sybil (the repository's ``conftest.py``).
"""

from __future__ import annotations

import atexit
import contextlib
import doctest
import io
import os
import re
import shlex
import shutil
import tempfile

from sybil.parsers.markdown import CodeBlockParser


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines match ``expected``: a line ``...`` matches any lines, and
    ``...`` within a line any text."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == "...":
        return any(_matches(rest, actual[k:]) for k in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.rstrip().split("..."))
    return re.fullmatch(pattern, actual[0].rstrip()) is not None and _matches(rest, actual[1:])


def sessions(text: str) -> list[tuple[str, list[str]]]:
    """A console block's commands and each one's expected output lines."""
    out: list[tuple[str, list[str]]] = []
    for line in text.rstrip("\n").splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


@contextlib.contextmanager
def scratch(namespace: dict):
    """Work in the page's scratch folder (made on its first example, kept for the others)."""
    if "__scratch__" not in namespace:
        namespace["__scratch__"] = tempfile.mkdtemp(prefix="snakesim-docs-")
        atexit.register(shutil.rmtree, namespace["__scratch__"], ignore_errors=True)
    folder = namespace["__scratch__"]
    here = os.getcwd()
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(here)


def run(command: str, namespace: dict) -> str:
    """What ``command`` prints, run in this process in the page's scratch folder."""
    from click.testing import CliRunner

    from snakesim.cli import cli

    words = shlex.split(command)
    if words[:1] != ["snakesim"]:
        raise ValueError(f"an example runs snakesim only, got {command!r}")
    with scratch(namespace):
        result = CliRunner().invoke(cli, words[1:])
    if result.exit_code != 0:
        raise AssertionError(f"{command} exited with {result.exit_code}: {result.output}")
    return result.stdout


def evaluate(example) -> str | None:
    """Run a console block's commands; a message for the first whose output does not match."""
    for command, expected in sessions(example.parsed):
        actual = run(command, example.namespace).rstrip("\n").splitlines()
        if not _matches(expected, actual):
            return f"$ {command}\nexpected:\n" + "\n".join(expected) + "\n\nprinted:\n" + "\n".join(actual)
    return None


def evaluate_python(example) -> str | None:
    """Run a ``pycon`` block as a doctest in the page's namespace and scratch folder."""
    test = doctest.DocTestParser().get_doctest(example.parsed, example.namespace, str(example.path),
                                               str(example.path), example.line)  # fmt: skip
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with scratch(example.namespace):
        failed = runner.run(test, out=report.write).failed
    return report.getvalue() if failed else None


def parsers() -> list[CodeBlockParser]:
    return [CodeBlockParser(language="console", evaluator=evaluate),
            CodeBlockParser(language="pycon", evaluator=evaluate_python)]  # fmt: skip
