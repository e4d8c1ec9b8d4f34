"""The kinds of question snakesim answers, each defined once for every door.

A question module holds its kind's frozen, hashable ``Plan`` (every input its answer depends
on, checked once by ``ask``, with one error text for the command line, the API, a study and
the workbench), ``play(plan, ...)`` that answers it, and the views of its answer (``summary``:
what ``--json`` prints). The doors turn their input into a plan, play it and show a view; none
rebuilds a question by hand. ``QUESTIONS`` lists them by kind.

A kind that also describes itself is answered by a study section and the workbench's HTTP API
(and ``snakesim.ask``) with no code of their own: its module adds ``TITLE`` (its name in
words), ``FIELDS`` (``{name: (type, default)}``: what it takes past the game, the players, the
games, the seed and the rule set), ``ask(game, players, budget, *, source, **fields)``, an
``Answer`` whose ``findings`` are sentences, and ``rows(answer)``. :func:`described` lists
them.

Every kind's ``rows(answer)`` gives its rows of a study's ``summary.csv`` in the one shape
every kind shares (:mod:`snakesim.questions.rows`).

The kinds: the run (:mod:`snakesim.questions.run`), the comparison
(:mod:`snakesim.questions.compare`), balance (:mod:`snakesim.questions.balance`), tune
(:mod:`snakesim.questions.tune`), the design search (:mod:`snakesim.questions.design`), skill
(:mod:`snakesim.questions.skill`) and the sweep (:mod:`snakesim.questions.sweep`). Each kind's
findings in words live in its module; what they share (numbers, intervals, who wins from which
seat) is :mod:`snakesim.analysis.words`.
"""

from __future__ import annotations

from snakesim.questions import balance, compare, design, run, skill, sweep, tune

QUESTIONS = {m.KIND: m for m in (run, compare, balance, tune, design, skill, sweep)}
DESCRIBED_GAMES = 1_000  # a described kind's games where a door is given none


def described() -> dict:
    """The kinds of question that describe themselves (``FIELDS``), by kind."""
    return {kind: m for kind, m in QUESTIONS.items() if hasattr(m, "FIELDS")}
