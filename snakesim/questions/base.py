"""What every kind of question shares: a plan names its game, has an identity, and carries
what matters as sorted ``(figure, Margin)`` pairs."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from snakesim.analysis.verdicts import Margin, parse_matters
from snakesim.core.arms import Arm, Budget, RuleSource, check_run, resolve_run
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Rules
from snakesim.games import get_game

Matters = tuple[tuple[str, Margin], ...]


@dataclass(frozen=True)
class Question:
    """The part of every plan that names the game (``spec``: its registered description)."""

    game: str

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)


def identity(kind: str, **parts) -> str:
    """A question's identity: 16 hex digits of SHA-256 of the canonical JSON of its ``kind`` and
    ``parts`` (each rule set given by its rules' hash), equal on every machine and from any door."""
    text = json.dumps({"kind": kind, **parts}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def spec_of(game: str | GameSpec) -> GameSpec:
    """A game given by name or already looked up."""
    return game if isinstance(game, GameSpec) else get_game(game)


def margins(matters: Mapping[str, Margin] | str | Sequence[str] | None) -> Matters:
    """What matters as a plan keeps it: margins by figure, or ``--matters`` texts, as sorted pairs."""
    found = matters if isinstance(matters, Mapping) else parse_matters(matters)
    return tuple(sorted(found.items()))


def budget_json(budget: Budget) -> dict:
    """Which games a question plays, in its identity: all of its budget but the block size,
    which changes no game (game i of seed s is the same game in blocks of any size)."""
    return {k: v for k, v in asdict(budget).items() if k != "block"}


def margins_json(matters: Matters) -> list:
    """What matters in a plan's identity: ``[figure, amount, relative]`` each."""
    return [[name, m.amount, m.relative] for name, m in matters]


def rule_set(spec: GameSpec, players: int, seed: int, source: RuleSource | Arm) -> tuple[str, Rules, tuple[str, ...]]:
    """One rule set's label, checked rules and each seat's player: from where its rules come
    from (as ``snakesim run`` takes them), or a rule set already built (an :class:`Arm`, the
    workbench's), checked for ``players`` players."""
    if isinstance(source, Arm):
        check_run(spec, source.rules, players, Budget(1, seed))
        return source.label, source.rules, tuple(source.seats)
    label, rules, seats = resolve_run(spec, players, Budget(1, seed), source)
    return label, rules, tuple(seats)
