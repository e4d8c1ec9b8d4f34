"""What the workbench page needs to draw a game's rules as a form, and to check what it sends.

The form is generated from the rules schema (``snakesim.core.rules``): every option's kind,
allowed values and help line. The page keeps the rules as TOML text; a change made in the
form comes back as ``--set`` strings (``start_coins=10``, ``deck.SNAKE=2``), so the form,
the TOML and the command line go through the same checks and give the same one-line errors.

The ``feel`` option is not a rule but a way of playing: the page has one switch for it that
holds for every rule set, so it is left out of the form and of the rules' text.
"""

from __future__ import annotations

from typing import Any

from snakesim.core.errors import InputError
from snakesim.core.policies import parse_policy, policies_help
from snakesim.core.registry import GameSpec
from snakesim.core.rules import (
    Bool,
    Choice,
    Int,
    PerSeat,
    Rules,
    Spec,
    Table,
    as_toml,
    describe_changes,
    inline,
    parse_toml,
)

MAX_TOML_CHARS = 20_000  # far more than any game's complete rules (Sssnake's: about 1,500)
MAX_SETTINGS = 200
SWITCHES = ("feel",)  # options the page sets for every rule set at once, outside the rules


def field_form(spec: Spec) -> dict[str, Any]:
    """How the page draws one option: its kind and what it accepts."""
    if isinstance(spec, Bool):
        return {"kind": "bool"}
    if isinstance(spec, Choice):
        return {"kind": "choice", "choices": list(spec.choices)}
    if isinstance(spec, PerSeat):
        return {"kind": "seats", "low": spec.low, "high": spec.high}
    if isinstance(spec, Int):
        return {"kind": "int", "low": spec.low, "high": spec.high}
    if isinstance(spec, Table):
        item = spec.item()
        if not spec.keys:  # (only names a user adds, such as Rainbow's wild cards: edited in the rules text)
            return {"kind": "named"}
        entry = {"kind": "int", "low": item.low, "high": item.high} if isinstance(item, Int) else {"kind": "text"}
        return {"kind": "table", "keys": list(spec.keys), "entry": entry, "entry_allowed": item.describe()}
    return {"kind": "text"}  # (a list of names, a card's effect: TOML text)


def game_form(spec: GameSpec) -> dict[str, Any]:
    """Everything the page shows about a game before any rules are checked: its players, its
    policies, its variants (with their complete rules) and its options' form."""
    fields = []
    for name, f in spec.rules.specs().items():
        if name in SWITCHES:
            continue
        one = f.metadata["spec"]
        fields.append({"name": name, "help": f.metadata["help"], "allowed": one.describe(), **field_form(one)})
    return {
        "name": spec.name,
        "title": spec.title,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "policies": list(spec.policies),
        "default_policy": spec.default_policy,
        "players_help": [list(line) for line in policies_help(spec.policies)],
        "per_seat": list(spec.rules.per_seat_options()),
        "design_options": _design_words(spec),
        "design_example": _design_example(spec),
        "length_unit": spec.length_unit,
        "fields": fields,
        "variants": {
            name: {"description": v.description, "toml": spec.rules.variant(name).to_toml()}
            for name, v in spec.rules.VARIANTS.items()
        },
    }


def _design_words(spec: GameSpec) -> str:
    """What the design panel may vary and aim at for this game, in a sentence."""
    from snakesim.core.figures import targets
    from snakesim.core.rules import Counts, NamedCounts

    specs = spec.rules.specs()
    options = [n for n in specs if n not in SWITCHES]
    # (a table of counts is varied by its entries: named as this game's first such table, the
    # deck in Fortune, heads in Hisss, never a table the game does not have)
    table = next((n for n, f in specs.items() if isinstance(f.metadata["spec"], Counts | NamedCounts)), None)
    entries = f" (a table by its entries: {table}.NAME)" if table else ""
    return (f"{spec.name.capitalize()}: vary {', '.join(options)}{entries}, or "
            f"variant ({', '.join(spec.rules.VARIANTS)}); aim at {', '.join(targets(spec))}, win_rate.SEAT or "
            "seat_gap.")  # fmt: skip


def _design_example(spec: GameSpec) -> str:
    """An example of what to vary in this game, for the design panel's empty field: its first
    integer option around its default, and its first two variants."""
    from snakesim.core.rules import Int, PerSeat

    lines = []
    for name, f in spec.rules.specs().items():
        one, default = f.metadata["spec"], f.default
        if isinstance(one, Int | PerSeat) and isinstance(default, int) and name not in SWITCHES and default < 1000:
            lines.append(f"{name}={max(one.low, default // 2)}:{min(one.high, max(default + 2, default * 3 // 2))}")
            break
    variants = list(spec.rules.VARIANTS)[:2]
    if len(variants) == 2:
        lines.append(f"variant={','.join(variants)}")
    return "\n".join(lines)


def rules_from_text(spec: GameSpec, text: Any, settings: Any = ()) -> Rules:
    """The rules a page's TOML text describes, with ``settings`` (``NAME=VALUE`` strings, as
    ``--set`` takes them) applied after it; InputError naming the field otherwise."""
    if not isinstance(text, str):
        raise InputError("toml", f"expected the rules as TOML text, got {type(text).__name__}")
    if len(text) > MAX_TOML_CHARS:
        raise InputError("toml", f"expected at most {MAX_TOML_CHARS:,} characters of rules, got {len(text):,}")
    if not isinstance(settings, list | tuple) or len(settings) > MAX_SETTINGS:
        raise InputError("set", f"expected a list of at most {MAX_SETTINGS} NAME=VALUE texts")
    if not all(isinstance(s, str) for s in settings):
        raise InputError("set", "expected NAME=VALUE texts")
    mapping = parse_toml(text, "toml", "rules file")
    for name in SWITCHES:  # (a rules file saved by `snakesim rules` has them: the page's switch decides)
        mapping.pop(name, None)
    if any(s.partition("=")[0].strip() in SWITCHES for s in settings):
        raise InputError("set", f"{', '.join(SWITCHES)} is the page's switch, not a rule")
    return spec.rules.from_mapping(mapping)[1].with_settings(settings)


def rules_view(rules: Rules) -> dict[str, Any]:
    """Checked rules as the page shows them: the complete TOML, each option's value, and the
    text a form field shows for it (a table's entries one by one); the page's switches left
    out."""
    values = {k: v for k, v in rules.to_dict().items() if k not in SWITCHES}
    texts = {}
    named = {name for name, f in rules.specs().items() if isinstance(f.metadata["spec"], Table)
             and not f.metadata["spec"].keys}  # fmt: skip
    for name, value in values.items():
        if isinstance(value, dict) and name not in named:
            texts[name] = {k: _text(v) for k, v in value.items()}
        else:
            texts[name] = _text(value)
    changes = {k: v for k, v in rules.changes().items() if k not in SWITCHES}
    return {"toml": as_toml(values), "changes": as_toml(changes) if changes else "", "values": values, "texts": texts,
            "hash": rules.rules_hash(), "summary": describe_changes(changes)}  # fmt: skip


def _text(value: Any) -> Any:
    """A value as its form field holds it: booleans and numbers as they are, the rest as TOML
    (a table of names a user adds, as one inline table: ``{SNAKE = ["LEAVES", "BLUE"]}``)."""
    if isinstance(value, bool | int | str):
        return value
    return inline(value)


def check_policies(spec: GameSpec, players: int, policies: Any, field: str = "policies") -> list[str]:
    """One checked policy per seat (empty for a game without choices; None: the game's
    default player in every seat); InputError naming ``field`` otherwise."""
    if not spec.policies:
        if policies:
            raise InputError(field, f"{spec.name} has no choices to make, so its seats take no policy")
        return []
    if policies is None:
        return [spec.default_policy] * players
    if not isinstance(policies, list) or len(policies) != players:
        raise InputError(field, f"expected one policy per seat ({players})")
    return [parse_policy(spec, p) for p in policies]
