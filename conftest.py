"""The manual's console examples, collected as tests (``tests/doc_examples.py``): the README
and every page of ``docs/`` (pyproject's ``testpaths`` name them); and a catalogue of answers
of each test's own, never a user's."""

import atexit
import os
import shutil
import tempfile

import pytest
from sybil import Sybil

from tests.doc_examples import parsers

# (a fallback for anything that runs outside a test's own: never the user's data folder)
os.environ["SNAKESIM_HOME"] = tempfile.mkdtemp(prefix="snakesim-tests-")
atexit.register(shutil.rmtree, os.environ["SNAKESIM_HOME"], ignore_errors=True)

pytest_collect_file = (
    Sybil(parsers=parsers(), path="docs", patterns=["*.md"]) + Sybil(parsers=parsers(), patterns=["README.md"])
).pytest()


@pytest.fixture(autouse=True)
def own_catalogue(tmp_path_factory, monkeypatch):
    """Each test keeps its answers in a catalogue of its own: a question a test asks twice is
    answered from it only where the test means it to be."""
    monkeypatch.setenv("SNAKESIM_HOME", str(tmp_path_factory.mktemp("home")))
