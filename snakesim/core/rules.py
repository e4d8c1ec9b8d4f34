"""Rules as validated data.

A game's rules are a frozen dataclass whose fields are declared with :func:`option`: a
default, a :class:`Spec` saying what values are allowed, and a help line. Every instance is
checked on construction, so a rules object that exists is a valid one. Named variants are
plain mappings of overrides, kept in the class's ``VARIANTS`` registry.

Values reach a rules object from three places, all checked the same way: Python keyword
arguments, a TOML file (``Rules.from_toml``) and ``--set name=value`` strings
(``Rules.with_settings``). A bad value raises :class:`~snakesim.core.errors.InputError`
naming the field and what it accepts.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from snakesim.core.errors import InputError

_ABSENT = object()
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
NAME = re.compile(r"^[A-Z0-9][A-Z0-9_]{0,31}$")  # a symbol, colour or die face a user names


class Spec:
    """What values one option accepts. Subclasses implement the three methods."""

    def check(self, field: str, value: Any) -> Any:
        """Return ``value`` normalised, or raise InputError naming ``field``."""
        raise NotImplementedError

    def parse(self, field: str, text: str) -> Any:
        """Convert the text of a ``--set`` value, then check it."""
        raise NotImplementedError

    def describe(self) -> str:
        """The allowed values, in words, for help texts and error messages."""
        raise NotImplementedError

    def plain(self, value: Any) -> Any:
        """``value`` (as stored) as plain JSON/TOML values: dicts, lists, scalars."""
        return value


def typed(text: str) -> str:
    """What a ``NAME=VALUE`` setting's value was, for a message: ``'abc'``, or ``nothing`` for an
    empty field (never ``''``, nor the ``0`` a number field reads it as)."""
    return repr(text) if text.strip() else "nothing"


@dataclass(frozen=True)
class Int(Spec):
    """An integer in ``[low, high]``."""

    low: int
    high: int

    def check(self, field, value):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(field, f"expected {self.describe()}, got {value!r}")
        if not self.low <= value <= self.high:
            raise InputError(field, f"expected {self.describe()}, got {value}")
        return value

    def parse(self, field, text):
        try:
            value = int(text.replace("_", ""))
        except ValueError:
            raise InputError(field, f"expected {self.describe()}, got {typed(text)}") from None
        return self.check(field, value)

    def describe(self):
        return f"an integer from {self.low:,} to {self.high:,}"


@dataclass(frozen=True)
class PerSeat(Spec):
    """An integer in ``[low, high]`` for every seat, or a list of one per seat: a handicap
    (``start_coins = [20, 20, 21, 21]``). The list's length is checked against the number of
    seats when a run is set up (:meth:`snakesim.core.registry.GameSpec.check`)."""

    low: int
    high: int
    most: int = 64  # more entries than any game has seats

    def check(self, field, value):
        one = Int(self.low, self.high)
        if isinstance(value, list):
            value = tuple(value)
        if not isinstance(value, tuple):
            return one.check(field, value)
        if not 1 <= len(value) <= self.most:
            raise InputError(field, f"expected {self.describe()}, got {len(value)} values")
        return tuple(one.check(f"{field}[{k}]", v) for k, v in enumerate(value))

    def parse(self, field, text):
        bare = isinstance(text, str) and "," in text and not text.strip().startswith("[")
        try:  # (a list with or without its brackets: 12, 12, 13, 13 as a family types it)
            value = parse_value(field, f"[{text}]" if bare else text)
        except InputError:
            raise InputError(field, f"expected {self.describe()}, got {typed(text)}") from None
        return self.check(field, value)

    def describe(self):
        return f"an integer from {self.low:,} to {self.high:,}, or a list of one per seat ({self.example()})"

    def example(self) -> str:
        """A list of one per seat that the option takes (``20, 20, 21, 21`` where it can): an
        example ``head_start`` (0 to 10) once gave as 20, 20, 21, 21 was refused."""
        a = 20 if self.low <= 20 < self.high else self.low
        b = min(a + 1, self.high)
        return f"{a}, {a}, {b}, {b}"

    def plain(self, value):
        return list(value) if isinstance(value, tuple) else value


def seat_values(value: int | tuple[int, ...], players: int) -> list[int]:
    """A :class:`PerSeat` option's value for each of ``players`` seats."""
    return list(value) if isinstance(value, tuple) else [value] * players


def seat_text(value: int | tuple[int, ...]) -> str:
    """A :class:`PerSeat` option's value in words: ``7``, or ``[7, 7, 8]``."""
    return inline(list(value)) if isinstance(value, tuple) else str(value)


@dataclass(frozen=True)
class Bool(Spec):
    """``true`` or ``false``."""

    def check(self, field, value):
        if not isinstance(value, bool):
            raise InputError(field, f"expected {self.describe()}, got {value!r}")
        return value

    def parse(self, field, text):
        word = text.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise InputError(field, f"expected {self.describe()}, got {typed(text)}")

    def describe(self):
        return "true or false"


@dataclass(frozen=True)
class Choice(Spec):
    """One of a fixed set of words."""

    choices: tuple[str, ...]

    def check(self, field, value):
        if value not in self.choices:
            raise InputError(field, f"expected {self.describe()}, got {value!r}")
        return value

    def parse(self, field, text):
        return self.check(field, text.strip())

    def describe(self):
        return "one of " + ", ".join(self.choices)


@dataclass(frozen=True)
class Words(Spec):
    """A list of names (capital letters, digits, _), at most ``most`` of them, no repeats."""

    least: int = 0
    most: int = 64

    def check(self, field, value):
        if isinstance(value, tuple):
            value = list(value)
        if not isinstance(value, list):
            raise InputError(field, f"expected {self.describe()}, got {value!r}")
        for word in value:
            if not isinstance(word, str) or not NAME.match(word):
                raise InputError(field, f'expected names of capital letters (e.g. "RED"), got {word!r}')
        if len(set(value)) != len(value):
            raise InputError(field, f"a name is given twice in {value}")
        if not self.least <= len(value) <= self.most:
            raise InputError(field, f"expected {self.describe()}, got {len(value)} names")
        return tuple(value)

    def parse(self, field, text):
        return self.check(field, parse_value(field, text))

    def describe(self):
        return f"a list of {self.least} to {self.most} names"

    def plain(self, value):
        return list(value)


@dataclass(frozen=True)
class Table(Spec):
    """One value per key of a fixed set of keys, each checked by :meth:`item`.

    The value is stored as a tuple of ``(key, value)`` pairs in key order, so rules objects
    stay immutable and hashable. A mapping that names only some keys updates the others'
    current values (see :meth:`Rules.updated`); ``--set`` sets one key at a time
    (``deck.RAIN=3``).
    """

    keys: tuple[str, ...]

    def item(self) -> Spec:
        """The spec of one entry."""
        raise NotImplementedError

    def check(self, field, value):
        if isinstance(value, Mapping):
            value = tuple(value.items())
        if not isinstance(value, tuple):
            raise InputError(field, f"expected a table: {self.describe()}")
        entries = dict(value)
        order = self.order(field, entries)
        missing = [k for k in self.keys if k not in entries]
        if missing:
            raise InputError(f"{field}.{missing[0]}", "missing entry")
        item = self.item()
        return tuple((k, item.check(f"{field}.{k}", entries[k])) for k in order)

    def order(self, field: str, entries: dict) -> list[str]:
        """The keys ``entries`` are stored under, in order; InputError for one not allowed."""
        unknown = sorted(set(entries) - set(self.keys))
        if unknown:
            raise InputError(f"{field}.{unknown[0]}", f"unknown key; expected one of {', '.join(self.keys)}")
        return list(self.keys)

    def parse(self, field, text):
        value = parse_value(field, text)
        if not isinstance(value, Mapping):
            raise InputError(field, f"expected a table such as {{KEY = VALUE}}, or set one entry as {field}.KEY=VALUE")
        return value

    def parse_item(self, field: str, key: str, text: str) -> tuple[str, Any]:
        """Parse ``field.key=text`` into ``(key, value)``."""
        if key not in self.keys:
            raise InputError(f"{field}.{key}", f"unknown key; expected one of {', '.join(self.keys)}")
        return key, self.item().parse(f"{field}.{key}", text)

    def describe(self):
        return f"{self.item().describe()} for each of {', '.join(self.keys)}"

    def plain(self, value):
        item = self.item()
        return {k: item.plain(v) for k, v in value}


@dataclass(frozen=True)
class Named(Table):
    """A table whose keys are ``keys`` (all required) plus any new NAMES a user adds.

    Keys are upper-case words (``BONUS``, ``GOLD_SUN``); the stored order is ``keys`` first,
    then the added names sorted, so equal tables compare and hash equal.
    """

    def order(self, field, entries):
        for k in entries:
            if not isinstance(k, str) or not NAME.match(k):
                raise InputError(f"{field}.{k}", "expected a name of capital letters, digits and _ (e.g. BONUS)")
        return list(self.keys) + sorted(set(entries) - set(self.keys))

    def parse_item(self, field, key, text):
        if not NAME.match(key):
            raise InputError(f"{field}.{key}", "expected a name of capital letters, digits and _ (e.g. BONUS)")
        return key, self.item().parse(f"{field}.{key}", text)

    def describe(self):
        if not self.keys:
            return f"{self.item().describe()} for any NAME you add"
        return f"{self.item().describe()} for each of {', '.join(self.keys)} (and any new NAME)"


@dataclass(frozen=True)
class Counts(Table):
    """A count in ``[low, high]`` for each key (a deck, say)."""

    low: int = 0
    high: int = 10_000

    def item(self) -> Spec:
        return Int(self.low, self.high)


@dataclass(frozen=True)
class NamedCounts(Named):
    """A count in ``[low, high]`` for each key, new names allowed (a deck with new symbols)."""

    low: int = 0
    high: int = 10_000

    def item(self) -> Spec:
        return Int(self.low, self.high)


def check_paired(counts_field: str, counts: tuple, actions_field: str, actions: tuple, what: str, implied=()) -> None:
    """A name added to a count table (a new symbol, a new die mark) needs an entry in its
    action table, and the other way round (``implied``: names counted elsewhere)."""
    counted, acted = dict(counts), dict(actions)
    for name in counted:
        if name not in acted:
            raise InputError(f"{counts_field}.{name}", f"a new {what} needs an entry in {actions_field} too")
    for name in acted:
        if name not in counted and name not in implied:
            raise InputError(f"{actions_field}.{name}", f"a new {what} needs a count too: {counts_field}.{name} = N")


def option(default: Any, spec: Spec, help: str) -> Any:
    """Declare a rules field: its default, what it accepts and one line of help."""
    return dataclasses.field(default=default, metadata={"spec": spec, "help": help})


@dataclass(frozen=True)
class Variant:
    """A named set of option overrides, with a line saying what it changes."""

    description: str
    overrides: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Rules:
    """Base class of every game's rules. Subclasses declare fields with :func:`option`."""

    VARIANTS: ClassVar[dict[str, Variant]] = {}
    # The options a ``--deck`` file may set: what is printed on the cards, not how to play.
    DECK_FIELDS: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self):
        for f in dataclasses.fields(self):
            spec: Spec = f.metadata["spec"]
            object.__setattr__(self, f.name, spec.check(f.name, getattr(self, f.name)))
        self.check()

    def check(self) -> None:
        """Checks that involve several fields; raise InputError. Override as needed."""

    # ------------------------------------------------------------------ construction
    @classmethod
    def specs(cls) -> dict[str, dataclasses.Field]:
        """The option fields, by name, in declaration order."""
        return {f.name: f for f in dataclasses.fields(cls)}

    @classmethod
    def per_seat_options(cls) -> dict[str, PerSeat]:
        """The options that take one value per seat (handicaps), by name."""
        return {n: f.metadata["spec"] for n, f in cls.specs().items() if isinstance(f.metadata["spec"], PerSeat)}

    @classmethod
    def variant(cls, name: str) -> Rules:
        """The rules of the named variant.

        Raises
        ------
        InputError
            If no variant has that name.
        """
        if name not in cls.VARIANTS:
            raise InputError("variant", f"unknown variant {name!r}; expected one of {', '.join(cls.VARIANTS)}")
        return cls().updated(cls.VARIANTS[name].overrides)

    def updated(self, values: Mapping[str, Any]) -> Rules:
        """A copy with ``values`` applied; count tables are merged key by key."""
        fields = self.specs()
        changes = {}
        for name, value in values.items():
            if name not in fields:
                raise InputError(name, f"unknown option; expected one of {', '.join(fields)}")
            spec = fields[name].metadata["spec"]
            if isinstance(spec, Table):
                if not isinstance(value, Mapping):
                    raise InputError(name, f"expected a table: {spec.describe()}")
                value = {**dict(changes.get(name, getattr(self, name))), **value}
            changes[name] = value
        return dataclasses.replace(self, **changes)

    def with_settings(self, settings: Iterable[str]) -> Rules:
        """A copy with ``name=value`` strings applied (the CLI's ``--set``).

        ``deck.RAIN=3`` sets one count of a count table.
        """
        fields = self.specs()
        values: dict[str, Any] = {}
        for setting in settings:
            name, sep, text = setting.partition("=")
            name = name.strip()
            if not sep or not name:
                raise InputError("--set", f"expected NAME=VALUE, got {setting!r}")
            name, _, key = name.partition(".")
            if name not in fields:
                raise InputError(name, f"unknown option; expected one of {', '.join(fields)}")
            spec = fields[name].metadata["spec"]
            if isinstance(spec, Table):
                if key:
                    k, item = spec.parse_item(name, key, text)
                    values.setdefault(name, {})[k] = item
                else:  # a TOML table of some entries: deck={RAIN = 2, SUNS = 0}
                    values.setdefault(name, {}).update(spec.parse(name, text))
            elif key:
                raise InputError(setting.partition("=")[0], f"{name} has no parts; use {name}=VALUE")
            else:
                values[name] = spec.parse(name, text)
        return self.updated(values)

    @classmethod
    def from_toml(cls, path: str | Path, base: Rules | None = None) -> tuple[str | None, Rules]:
        """Read a rules file: an optional ``variant = "name"`` and option values.

        Returns
        -------
        variant : str or None
            The variant the file names, if any.
        rules : Rules
            That variant (or ``base``, or the defaults) with the file's values applied.
        """
        return cls.from_mapping(read_toml(path, "rules file"), base)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], base: Rules | None = None) -> tuple[str | None, Rules]:
        """Rules from a rules file's parsed contents (see :meth:`from_toml`)."""
        data = dict(data)
        variant = data.pop("variant", None)
        if variant is not None and not isinstance(variant, str):
            raise InputError("variant", f"expected a variant name, got {variant!r}")
        rules = cls.variant(variant) if variant else (base or cls())
        return variant, rules.updated(data)

    def with_deck_file(self, path: str | Path) -> Rules:
        """A copy with the deck data of a TOML file applied (only ``DECK_FIELDS`` keys)."""
        data = read_toml(path, "deck file")
        for name in data:
            if name not in self.DECK_FIELDS:
                allowed = ", ".join(self.DECK_FIELDS) or "nothing (this game has no deck data)"
                raise InputError(f"{path}: {name}", f"not deck data; a deck file may set {allowed}")
        return self.updated(data)

    # ------------------------------------------------------------------ description
    def to_dict(self) -> dict[str, Any]:
        """The options as plain JSON-able values (count tables as dicts)."""
        return {name: f.metadata["spec"].plain(getattr(self, name)) for name, f in self.specs().items()}

    def rules_hash(self) -> str:
        """A short hash of the complete rules (12 hex digits of SHA-256), so two runs can be
        matched by their rules, not by the name someone gave them. Equal rules give equal
        hashes on every machine: the hash is of their canonical JSON."""
        text = json.dumps({"game": type(self).__name__, "rules": self.to_dict()}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def to_toml(self) -> str:
        """The complete rules as TOML that :meth:`from_toml` reads back to equal rules:
        plain options first, then one ``[table]`` per table option."""
        return as_toml(self.to_dict())

    def changes(self) -> dict[str, Any]:
        """The options that differ from the defaults (count tables: only changed keys)."""
        default = type(self)().to_dict()
        out = {}
        for name, value in self.to_dict().items():
            if isinstance(value, dict):
                diff = {k: v for k, v in value.items() if default[name].get(k, _ABSENT) != v}
                if diff:
                    out[name] = diff
            elif value != default[name]:
                out[name] = value
        return out

    @classmethod
    def describe_options(cls) -> list[dict[str, str]]:
        """One row per option: name, default, allowed values, help."""
        rows = []
        default = cls()
        for name, f in cls.specs().items():
            value = default.to_dict()[name]
            if isinstance(value, dict):
                value = ", ".join(f"{k}={_show(v)}" for k, v in value.items())
            rows.append(
                {
                    "name": name,
                    "default": str(value).lower() if isinstance(value, bool) else str(value),
                    "allowed": f.metadata["spec"].describe(),
                    "help": f.metadata["help"],
                }
            )
        return rows


def as_toml(values: Mapping[str, Any]) -> str:
    """Option values (plain, as :meth:`Rules.to_dict` gives them) as a rules file: plain
    options first, then one ``[table]`` per table option."""
    plain, tables = [], []
    for name, value in values.items():
        if isinstance(value, dict):
            tables += ["", f"[{name}]"] + [f"{_key(k)} = {inline(v)}" for k, v in value.items()]
        else:
            plain.append(f"{name} = {inline(value)}")
    return "\n".join(plain + tables).lstrip("\n") + "\n"


def describe_changes(changes: dict) -> str:
    """Rule changes (:meth:`Rules.changes`) in one line: ``snakes=1, deck.RAIN=3``."""
    return ", ".join(change_settings(changes)) or "all defaults"


def change_settings(changes: dict) -> list[str]:
    """Rule changes (:meth:`Rules.changes`) as the ``--set`` strings that make them:
    ``["snakes=1", "deck.RAIN=3"]``."""
    parts = []
    for name, value in changes.items():
        if isinstance(value, dict):
            parts += [f"{name}.{k}={_show(v)}" for k, v in value.items()]
        else:
            parts.append(f"{name}={_show(value)}")
    return parts


def _key(key: str) -> str:
    """A TOML key: bare when it can be (``RAIN``), quoted otherwise (``"1"`` is bare too)."""
    return key if re.match(r"^[A-Za-z0-9_-]+$", key) else inline(key)


def _show(value: Any) -> str:
    """A value as ``--set`` takes it: words bare, structures as TOML."""
    return value if isinstance(value, str) else inline(value)


def inline(value: Any) -> str:
    """A plain value (:meth:`Spec.plain`) as TOML inline text: ``3``, ``true``, ``[{take = 3}]``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(inline(v) for v in value) + "]"
    return str(value)


def parse_value(field: str, text: str) -> Any:
    """The value of a ``--set`` text read as TOML (``[{take = 2, from = "left"}]``, ``"RED"``)."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except (ValueError, RecursionError):  # (TOMLDecodeError is a ValueError, as is a number too long to read)
        raise InputError(
            field, f'expected a TOML value (a number, "text", [a, list] or {{a = table}}), got {typed(text)}'
        ) from None


def parse_toml(text: str, where: str, what: str) -> dict:
    """Parse TOML text; InputError naming ``where`` for text that is not TOML or that no rules
    could hold (nested too deeply, a number with thousands of digits)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(where, f"not valid TOML: {err}") from None
    except ValueError:  # (Python refuses to read an integer of more than 4,300 digits)
        raise InputError(where, f"not a {what} snakesim can read: a number with thousands of digits") from None
    except RecursionError:
        raise InputError(where, f"not a {what} snakesim can read: arrays or tables nested too deeply") from None


def read_toml(path: str | Path, what: str) -> dict:
    """Parse a TOML file; InputError naming the file for an unreadable or invalid one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(str(path), f"cannot read {what} ({err.strerror})") from None
    except UnicodeDecodeError as err:
        raise InputError(str(path), f"not valid TOML: {err}") from None
    return parse_toml(text, str(path), what)
