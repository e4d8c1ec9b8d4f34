"""A run's inputs, checked before any game is played: its rules (a variant, a rules file, a
deck file, ``--set`` strings, options), its policies, its range of games, and the arms that a
comparison, a sweep or a study plays side by side. Playing them is ``snakesim.core.runner``'s
job; this module imports nothing that plays.

An arm is any rule set with a label: a named variant, a rules TOML file, or inline options,
and optionally its own policies. On the command line one ``--variant`` (``-v``) text is one
arm::

    standard                                   the named variant
    house.toml                                 a rules file (label: house)
    start_coins=12                             inline options on the standard game
    quick=one-snake,start_coins=12             label quick: a variant, then options
    mine=house.toml,turn_cap=500               label mine: a file, then options
    greedy=standard,policy=greedy              label greedy: the standard game, greedy seats
    mix=standard,policies=greedy/random        one policy per seat, separated by /

Parts are separated by commas outside brackets and quotes, so an option may be any TOML
value: ``hearts2=standard,effects.HEARTS=[{take = 2, from = "left"}]``. In a study file an
arm is a table with ``name`` and any of ``variant``, ``rules``, ``options``, ``set``,
``policy`` and ``policies``.

Settings shared by every arm (``--rules``, ``--deck``, ``--set``) apply after the arm's own.

Two typed inputs travel from the API and the command line through studies and the workbench:
:class:`RuleSource`, where a run's rules and players come from, and :class:`Budget`, which
games it plays.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from snakesim.core.defaults import DEFAULT_CHUNK, DEFAULT_SEED, MAX_GAMES
from snakesim.core.errors import InputError
from snakesim.core.policies import resolve_policies
from snakesim.core.registry import GameSpec
from snakesim.core.rng import MAX_SEED
from snakesim.core.rules import Int, Rules, read_toml

POLICY_KEYS = ("policy", "policies")


@dataclass(frozen=True)
class Arm:
    """One rule set of a comparison: its label, the variant it starts from, its checked rules
    and each seat's policy."""

    label: str
    variant: str
    rules: Rules
    seats: tuple[str, ...]


@dataclass(frozen=True)
class RuleSource:
    """Where a run's rules and players come from, in the order they apply: a ``variant`` (its
    name, or any arm text: a rules file, ``LABEL=BASE,NAME=VALUE,...``), a ``rules_file``, a
    ``deck_file``, ``--set`` strings (``settings``), option values (``options``), and the seats'
    players: one ``policy`` for every seat, or ``policies``, one a seat.

    For a comparison it is what applies to every arm after the arm's own rules (its variant is
    then None: each arm names its own), and the players of arms that name none.
    """

    variant: str | None = None
    rules_file: str | Path | None = None
    deck_file: str | Path | None = None
    settings: Sequence[str] = ()
    options: Mapping[str, Any] | None = None
    policy: str | None = None
    policies: str | Sequence[str] | None = None

    def shared(self) -> RuleSource:
        """What applies to every arm of a comparison: all but the variant."""
        return replace(self, variant=None)


@dataclass(frozen=True)
class Budget:
    """Which games a run plays: ``games`` of ``seed`` from index ``first`` (game i of seed s is
    always the same game), played in blocks of ``block`` games; with ``precision``, blocks of
    ``games`` more until the watched intervals are that narrow, at most ``max_games``.

    A search (balance, tune) plays ``games`` per candidate first and doubles them up to
    ``max_games`` (None: no doubling), then confirms its answer on ``confirm_games`` fresh games
    (None: as many as its last round, at least 100,000); skill plays ``games`` per player count.
    """

    games: int = 1
    seed: int = DEFAULT_SEED
    first: int = 0
    block: int = DEFAULT_CHUNK
    precision: float | None = None
    max_games: int | None = None
    confirm_games: int | None = None

    @property
    def most(self) -> int:
        """The most games a candidate of a search may get: ``max_games``, else ``games``."""
        return self.games if self.max_games is None else self.max_games


def split_parts(text: str) -> list[str]:
    """Split an arm's text on commas outside brackets, braces and quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def _is_file(spec: GameSpec, text: str) -> bool:
    """A rules file, not a variant: a variant's name wins over a file of the same name."""
    return text not in spec.rules.VARIANTS and (text.endswith(".toml") or Path(text).is_file())


def names_an_arm(spec: GameSpec, text: str) -> bool:
    """Whether ``text`` is more than a variant's name: a rules file, or options."""
    return "=" in text or "," in text or _is_file(spec, text)


def parse_arm(spec: GameSpec, text: str) -> dict:
    """The parts of a ``--variant`` text: ``name``, ``variant`` or ``rules`` (a file), ``set``
    (option strings), ``policy``, ``policies``. See the module's docstring for the syntax."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("--variant", "expected a variant name, a rules file or NAME=VALUE options, got nothing")
    parts = split_parts(text.strip())
    if any(not p for p in parts):
        raise InputError("--variant", f"an empty part (two commas in a row?) in {text!r}")
    arm: dict = {"set": []}
    first = parts[0]
    key, sep, value = first.partition("=")
    key = key.strip()
    options = spec.rules.specs()
    if not sep or (key.split(".")[0] not in options and key not in POLICY_KEYS):
        # A variant or a file first (perhaps after a label): "one-snake", "quick=one-snake".
        base = value.strip() if sep else first
        if sep:
            arm["name"] = key
        elif len(parts) == 1:
            arm["name"] = Path(base).stem if _is_file(spec, base) else base
        if base:
            arm["rules" if _is_file(spec, base) else "variant"] = base
        parts = parts[1:]
    for part in parts:
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep:
            raise InputError("--variant", f"expected NAME=VALUE after the first part, got {part!r} in {text!r}")
        if key == "policy":
            arm["policy"] = value.strip()
        elif key == "policies":
            arm["policies"] = [p.strip() for p in value.split("/")]
        else:
            arm["set"].append(part)
    arm.setdefault("name", text.strip())
    if not arm["name"]:
        raise InputError("--variant", f"an empty label in {text!r}")
    return arm


def build_arm(
    spec: GameSpec, players: int, budget: Budget, arm: Mapping[str, Any], shared: RuleSource = RuleSource()
) -> Arm:
    """Check one arm completely (its rules, then the shared settings, then the budget's run of
    games) and return it. ``arm`` holds ``name`` and any of ``variant``, ``rules`` (a file),
    ``options`` (a table of option values), ``set`` (``NAME=VALUE`` strings), ``policy``,
    ``policies``."""
    variant, rules = arm_rules(spec, arm, shared)
    check_run(spec, rules, players, budget)
    own = "policy" in arm or "policies" in arm
    policy = arm.get("policy") if own else shared.policy
    policies = arm.get("policies") if own else shared.policies
    if own and policies is not None and len(policies) != players:
        raise InputError(
            f"{arm['name']}: policies", f"expected one policy per seat ({players}), got {len(policies)}: {policies}"
        )
    seats = resolve_policies(spec, players, policy, policies)
    return Arm(str(arm["name"]), variant, rules, seats)


def arm_rules(spec: GameSpec, arm: Mapping[str, Any], shared: RuleSource = RuleSource()) -> tuple[str, Rules]:
    """The variant an arm starts from and its checked rules (its own, then the shared ones)."""
    variant, rules = resolve_rules(spec, RuleSource(arm.get("variant"), arm.get("rules")))
    rules = rules.updated(arm.get("options") or {}).with_settings(arm.get("set", ()))
    if shared.rules_file is not None:
        data = read_toml(shared.rules_file, "rules file")
        named = data.pop("variant", None)
        if named is not None and named != variant:
            raise InputError(
                "--rules", f"{shared.rules_file} names variant {named!r}, but arm {arm['name']!r} is {variant!r}"
            )
        rules = rules.updated(data)
    if shared.deck_file is not None:
        rules = rules.with_deck_file(shared.deck_file)
    return variant, rules.with_settings(shared.settings).updated(shared.options or {})


def build_arms(
    spec: GameSpec,
    players: int,
    budget: Budget,
    arms: Iterable[str | Mapping[str, Any] | Arm],
    shared: RuleSource = RuleSource(),
    where: str = "--variant",
) -> list[Arm]:
    """Every arm checked, before any game is played; labels must differ. An arm already built
    (an :class:`Arm`, from a plan) is kept as it is, its run checked against ``budget``."""
    out: list[Arm] = []
    for arm in arms:
        if isinstance(arm, Arm):
            check_run(spec, arm.rules, players, budget)
            built = arm
        else:
            parsed = parse_arm(spec, arm) if isinstance(arm, str) else arm
            built = build_arm(spec, players, budget, parsed, shared)
        if any(a.label == built.label for a in out):
            raise InputError(where, f"{built.label!r} is given twice; label one of them (LABEL=...)")
        out.append(built)
    if not out:
        raise InputError(where, "give at least one arm")
    return out


def resolve_rules(spec: GameSpec, source: RuleSource = RuleSource()) -> tuple[str, Rules]:
    """Build the rules of a run, in order: variant, rules file, deck file, ``--set``, options.

    Returns the variant's name (``standard`` unless one is given) and the checked rules.
    """
    variant, rules_file = source.variant, source.rules_file
    file_variant, file_rules = (None, None)
    if rules_file is not None:
        base = spec.rules.variant(variant) if variant else None
        file_variant, file_rules = spec.rules.from_toml(rules_file, base)
        if variant and file_variant and variant != file_variant:
            raise InputError(
                "variant",
                f"--variant {variant} conflicts with variant = {file_variant!r} in {rules_file}",
            )
    name = variant or file_variant or "standard"
    rules = file_rules or spec.rules.variant(name)
    if source.deck_file is not None:
        rules = rules.with_deck_file(source.deck_file)
    rules = rules.with_settings(source.settings).updated(source.options or {})
    return name, rules


def check_run(spec: GameSpec, rules: Rules, players: int, budget: Budget) -> None:
    """Raise InputError for a player count, game count, seed or first index out of range."""
    spec.check(rules, players)
    Int(1, MAX_GAMES).check("games", budget.games)
    Int(0, MAX_SEED).check("seed", budget.seed)
    Int(0, MAX_GAMES).check("first", budget.first)


def resolve_run(
    spec: GameSpec, players: int, budget: Budget = Budget(), source: RuleSource = RuleSource()
) -> tuple[str, Rules, tuple[str, ...]]:
    """Everything a run needs checked before a game is played.

    ``source.variant`` may be any arm (see the module docstring): a variant's name, a rules
    file, or ``LABEL=BASE,NAME=VALUE,...``; the source's other settings then apply after its own.

    Returns the variant's name, the rules and each seat's policy (empty for a game without
    choices); raises InputError for any bad value.
    """
    if source.variant is not None and names_an_arm(spec, source.variant):
        arm = build_arm(spec, players, budget, parse_arm(spec, source.variant), source.shared())
        return arm.label, arm.rules, arm.seats
    name, rules = resolve_rules(spec, source)
    check_run(spec, rules, players, budget)
    return name, rules, resolve_policies(spec, players, source.policy, source.policies)
