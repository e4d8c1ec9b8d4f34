"""The manual's console examples, collected as tests (``tests/doc_examples.py``): the README
and every page of ``docs/`` (pyproject's ``testpaths`` name them)."""

from sybil import Sybil

from tests.doc_examples import parsers

pytest_collect_file = (
    Sybil(parsers=parsers(), path="docs", patterns=["*.md"]) + Sybil(parsers=parsers(), patterns=["README.md"])
).pytest()
