"""What a design search may change and what it must reach: ``--vary`` dimensions, ``--target``
and ``--prefer`` texts, and the rule sets (candidates) the dimensions span.

A dimension is one option with the values it may take: ``start_coins=8:20`` (an integer
range), ``snakes=1,2`` or ``wild=true,false`` (a list, parsed by the option's own type),
``deck.RAIN=3:6`` (one count of a table), ``start_coins.3=18:22`` (one seat's value of a
per-seat option; without the seat every seat gets the value), and ``variant=standard,rejoin``
(a named house rule: the candidate starts from that variant's rules, with the run's own
``--rules``, ``--deck`` and ``--set`` applied after it).

A target is a figure of the registry (``snakesim.core.figures``) as ``tune`` names it
(``length.median``, ``out_share.mean``, ``comeback.share``, ``win_rate.SEAT``,
``means.COLUMN``) or ``seat_gap`` (the largest difference between two seats' win rates, in
percentage points), with ``<=``, ``>=`` or ``=`` and, for ``=``, a tolerance
(``length.median=60+-8``). Each target carries the smallest difference that matters for its
figure (``--matters`` or the registry's), which the search uses to stop: see
``snakesim.analysis.design``.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

from snakesim.analysis.search import check_metric, check_range, needs_feel
from snakesim.analysis.verdicts import MIN_POINTS, Margin, given_margin, margin_for
from snakesim.core.arms import RuleSource, resolve_rules
from snakesim.core.errors import InputError
from snakesim.core.figures import target_figure
from snakesim.core.registry import GameSpec
from snakesim.core.rules import Bool, Choice, Int, PerSeat, Rules, Table, seat_values

MAX_CANDIDATES = 500  # rule sets a search plays whole; a larger space is sampled (design.sample)
MAX_SPACE = 10**12  # rule sets a sampled search may choose from
MAX_VALUES = 200  # values one dimension may take
SEAT_GAP = "seat_gap"
MIN_GAP = MIN_POINTS  # the smallest seat-gap target, in percentage points
# A share target near 0% or 100% gets at most this part of its distance from there as what
# matters, unless --matters says otherwise: the registry's 3 points would be more than a
# target of 2% itself, and a share of 2.8% would pass for "near" it.
NEAR_EDGE_SHARE = 0.25
MIN_SHARE_MARGIN = MIN_POINTS / 100  # (what matters around a target of 0% or 100%, as a share)
# A target's sign as the user writes it, and in words.
OPS = {"<=": "at most", ">=": "at least", "=": "at"}
_TARGET = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*(<=|>=|=)\s*(.+?)\s*$")
_METRIC = re.compile(r"^\s*[A-Za-z_][\w.]*\s*$")
_TOLERANCE = re.compile(r"^([^+±]+?)\s*(?:(?:\+-|\+/-|±)\s*(.+))?$")


@dataclass(frozen=True)
class Dimension:
    """One option a design search varies: ``name`` as written (``start_coins``,
    ``deck.RAIN``, ``start_coins.2``, ``variant``) and the ``values`` it takes, in order."""

    name: str
    values: tuple

    def text(self, value) -> str:
        """A value as an option's text: ``true`` for True, else ``str``."""
        return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Target:
    """A target a rule set must reach: ``metric`` (as ``tune`` names it, or ``seat_gap``),
    ``op`` (``<=``, ``>=`` or ``=``), ``value`` and, for ``=``, ``tolerance``; ``margin`` is the
    smallest difference that matters around it, in the metric's terms; ``scale`` is 100 for a
    figure shown in percent or points (its values stay fractions inside)."""

    metric: str
    op: str
    value: float
    tolerance: float = 0.0
    margin: float = 0.0
    scale: float = 1.0
    feel: bool = False
    unit: str = ""  # after a value shown: "%" for a share written in percent, " points" for the seat gap

    @classmethod
    def of(cls, d: dict) -> Target:
        """A target from its entry in a search's summary (``summary["targets"]``)."""
        return cls(d["metric"], d["op"], d["value"], tolerance=d["tolerance"], margin=d["margin"], scale=d["scale"],
                   unit=d.get("unit", ""))  # fmt: skip

    @property
    def region(self) -> tuple[float, float]:
        """The values that meet the target."""
        if self.op == "<=":
            return -math.inf, self.value
        if self.op == ">=":
            return self.value, math.inf
        return self.value - self.tolerance, self.value + self.tolerance

    @property
    def widened(self) -> tuple[float, float]:
        """The values within what matters of the target: a value outside misses it noticeably."""
        low, high = self.region
        return low - self.margin, high + self.margin

    def shortfall(self, value: float) -> float:
        """How far ``value`` lies outside the target (0 inside), in the metric's terms."""
        low, high = self.region
        if value != value:
            return math.inf
        return max(low - value, value - high, 0.0)

    def show(self, x: float, unit: bool = True) -> str:
        """A value of this target's metric as the user writes it (``0.22``, ``22%``, ``1.5
        points``; without its unit if ``unit`` is False)."""
        if not math.isfinite(x):
            return "never" if x > 0 else "-"
        x = self.scale * x if self.scale != 1 else x
        text = f"{x:.4g}" if abs(x) < 9999.5 else f"{x:,.0f}"  # (9999.5 would read 1e+04)
        if not unit or not self.unit:
            return text
        return text + (" point" if self.unit == " points" and text == "1" else self.unit)

    def interval(self, figure: dict) -> str:
        """A figure (``{"value", "ci"}``) and its interval, the unit once: ``20.1% [19.9, 20.4]``."""
        low, high = figure["ci"]
        return f"{self.show(figure['value'])} [{self.show(low, False)}, {self.show(high, False)}]"

    @property
    def text(self) -> str:
        """The target as the user wrote it (``length.median = 60 +- 8``)."""
        shown = self.show(self.value)
        if self.op == "=":
            return f"{self.metric} = {shown} +- {self.show(self.tolerance)}"
        return f"{self.metric} {self.op} {shown}"


def parse_vary(spec: GameSpec, rules: Rules, players: int, text: str) -> Dimension:
    """``NAME=LOW:HIGH`` or ``NAME=a,b,c`` as a :class:`Dimension`; InputError naming
    ``--vary`` otherwise."""
    target, sep, span = str(text).partition("=")
    target, span = target.strip(), span.strip()
    specs = rules.specs()
    allowed = ", ".join(["variant", *(n for n in specs if n != "feel")])
    if not sep or not target or not span:
        raise InputError("--vary", f"expected NAME=LOW:HIGH or NAME=A,B,... with NAME one of {allowed}, got {text!r}")
    if target == "variant":
        names = [v.strip() for v in span.split(",")]
        unknown = [v for v in names if v not in spec.rules.VARIANTS]
        if unknown:
            raise InputError(
                "--vary", f"unknown variant {unknown[0]!r}; expected some of {', '.join(spec.rules.VARIANTS)}"
            )
        return _dimension(target, names)
    name, _, part = target.partition(".")
    if name not in specs or name == "feel":
        raise InputError("--vary", f"unknown option {name!r}; expected one of {allowed}")
    option = specs[name].metadata["spec"]
    if isinstance(option, Table):
        if not part:
            raise InputError("--vary", f"{name} is a table: vary one entry, e.g. {name}.{option.keys[0]}=A,B")
        item = option.item()
        one = lambda t: option.parse_item(name, part, t)[1]  # noqa: E731
    elif part:
        if not isinstance(option, PerSeat):
            raise InputError("--vary", f"{target}: a seat is given only for a per-seat option; {name} is not one")
        if not part.isdigit() or int(part) >= players:
            raise InputError("--vary", f"{target}: {name}'s seat is from 0 to {players - 1} with {players} players")
        item = Int(option.low, option.high)
        one = lambda t: item.parse(target, t)  # noqa: E731
    else:
        item = Int(option.low, option.high) if isinstance(option, PerSeat) else option
        one = lambda t: item.parse(target, t)  # noqa: E731
    if ":" in span and "," not in span:
        if not isinstance(item, Int):
            raise InputError("--vary", f"{target} is not an integer option: give its values as A,B,... "
                             f"({item.describe()})")  # fmt: skip
        low, high = check_range("--vary", span, item.low, item.high)
        if high - low + 1 > MAX_VALUES:
            raise InputError("--vary", f"{target}={span}: at most {MAX_VALUES} values a dimension")
        return _dimension(target, list(range(low, high + 1)))
    if isinstance(item, (Bool, Choice)) and span in ("all", "*"):
        return _dimension(target, [True, False] if isinstance(item, Bool) else list(item.choices))
    return _dimension(target, [one(t.strip()) for t in span.split(",")])


def _dimension(name: str, values: list) -> Dimension:
    if len(set(values)) != len(values):
        raise InputError("--vary", f"{name}: a value is given twice in {values}")
    if len(values) < 2:
        raise InputError("--vary", f"{name}: give at least two values to choose between")
    return Dimension(name, tuple(values))


def parse_target(spec: GameSpec, players: int, text: str, matters: dict[str, Margin] | None = None) -> Target:
    """``METRIC<=V``, ``METRIC>=V`` or ``METRIC=V+-T`` as a :class:`Target`; InputError naming
    ``--target`` otherwise. ``seat_gap`` is in percentage points; a share or a rate otherwise
    a fraction (``out_share.mean<=0.2``), as ``tune`` takes it."""
    m = _TARGET.match(str(text))
    if m is None:
        raise InputError("--target", f"expected FIGURE<=V, FIGURE>=V or FIGURE=V+-T (e.g. length.median=60+-5), "
                         f"got {text!r}")  # fmt: skip
    metric, op, rest = m.groups()
    if op == "=" and rest[:1] in "<>":  # (=> and =<: the signs turned round)
        raise InputError("--target", f"{text!r}: write {metric}{rest[0]}={rest[1:].strip()}")
    parts = _TOLERANCE.match(rest)
    value_text, tolerance_text = (parts.group(1), parts.group(2)) if parts else (rest, None)
    if tolerance_text is not None and op != "=":
        raise InputError("--target", f"{text!r}: a tolerance (+-) goes with = only")
    value, percent = _number(value_text, text), value_text.strip().endswith("%")
    scale, gap, share = 1.0, metric == SEAT_GAP, False
    if gap:
        if not MIN_GAP <= value <= 100:
            raise InputError("--target", f"{text!r}: seat_gap is in percentage points (2: two points), from "
                             f"{MIN_GAP} to 100; below {MIN_GAP} no number of games could tell")  # fmt: skip
        scale = 100.0
    else:
        metric = check_metric(spec, players, metric)
        share = is_share(metric)
        if share:  # (a share as a fraction, 0.25, or in percent, 25%)
            if percent:
                value, scale = value / 100, 100.0
            if not 0 <= value <= 1:
                raise InputError("--target", f"{text!r}: {metric} is a share from 0 to 1: write 0.25 or 25%")
            value *= scale
    row = "win_rate" if gap or metric.startswith("win_rate.") else getattr(target_figure(metric), "id", None)
    found = margin_for(row, matters) if row is not None else None
    # (a column's mean has no registry margin: 5% of the target, as a game's length)
    margin = (found or Margin(0.05, relative=True)).of(value / scale)
    if share and (row is None or given_margin(row, matters) is None):
        margin = share_margin(margin, value / scale)
    tolerance = 0.0
    if op == "=":
        if tolerance_text is None:
            tolerance = margin
        elif tolerance_text.strip().endswith("%") and not share and not gap:  # (60+-5%: 5% of 60, as --matters)
            tolerance = _number(tolerance_text, text) / 100.0 * abs(value / scale)
        else:  # (a share's 2%: two points; a seat gap's in points; else in the value's own unit)
            percent_points = tolerance_text.strip().endswith("%") and share
            tolerance = _number(tolerance_text, text) / (100.0 if percent_points else scale)
        if tolerance < 0:
            raise InputError("--target", f"{text!r}: expected a tolerance of 0 or more")
    unit = " points" if gap else "%" if scale == 100 else ""
    return Target(metric, op, value / scale, tolerance=tolerance, margin=margin, scale=scale,
                  feel=not gap and needs_feel(metric), unit=unit)  # fmt: skip


def share_margin(margin: float, value: float) -> float:
    """What matters around a share target ``value`` (0 to 1), at most `NEAR_EDGE_SHARE` of its
    distance from 0 or 1 (the nearer), and at least `MIN_SHARE_MARGIN`: for
    ``tie_break.share<=0.02`` half a point instead of the registry's 3; targets from 12% to
    88% keep the registry's."""
    return min(margin, max(MIN_SHARE_MARGIN, NEAR_EDGE_SHARE * min(value, 1.0 - value)))


def is_share(metric: str) -> bool:
    """Whether a target's values are shares from 0 to 1 (a rate, a share of the game, a seat's
    win rate)."""
    f = target_figure(metric)
    return metric.startswith("win_rate.") or (f is not None and f.kind != "quantile" and f.percent)


def _number(text: str, whole: str) -> float:
    try:
        x = float(text.strip().replace("_", "").removesuffix("%"))
    except ValueError:
        raise InputError("--target", f"expected a number in {whole!r}, got {text.strip()!r}") from None
    if not math.isfinite(x):
        raise InputError("--target", f"expected a finite number in {whole!r}")
    return x


@dataclass(frozen=True)
class Prefer:
    """``--prefer``: the figure that ranks the answers (as a :class:`Target`, for its units),
    ``way`` (``lower`` or ``higher``) and its difference that matters, ``matters`` (a share of
    the best answer's value for a relative one)."""

    target: Target
    way: str
    matters: Margin

    @property
    def sign(self) -> float:
        """+1 when lower is better, -1 when higher is."""
        return 1.0 if self.way == "lower" else -1.0

    def margin(self, best: float) -> float:
        """What matters around the best answer's value ``best``."""
        return self.matters.of(best)


def parse_prefer(spec: GameSpec, players: int, text: str | None, matters=None) -> Prefer | None:
    """``--prefer METRIC`` (lower) or ``METRIC=lower|higher`` as a :class:`Prefer`."""
    if text is None:
        return None
    metric, _, way = str(text).partition("=")
    way = way.strip() or "lower"
    if way not in ("lower", "higher"):
        raise InputError("--prefer", f"expected METRIC=lower or METRIC=higher, got {text!r}")
    if not _METRIC.match(metric):
        raise InputError("--prefer", f"expected METRIC, METRIC=lower or METRIC=higher (e.g. out_share.mean=lower), "
                         f"got {text!r}")  # fmt: skip
    try:  # (a target's checks, for the metric alone: its errors name the metric, never the target's text)
        target = parse_target(spec, players, f"{metric.strip()}>=1", matters)
    except InputError as err:
        raise InputError("--prefer", err.message) from None
    row = (
        "win_rate"
        if target.metric in (SEAT_GAP,) or target.metric.startswith("win_rate.")
        else getattr(target_figure(target.metric), "id", None)
    )
    found = margin_for(row, matters) if row is not None else None
    return Prefer(target, way, found or Margin(0.05, relative=True))


@dataclass(frozen=True)
class Candidate:
    """One rule set of a search: its ``values`` (one per dimension) and checked ``rules``."""

    values: tuple
    rules: Rules

    def label(self, dims: tuple[Dimension, ...]) -> str:
        return ", ".join(f"{d.name}={d.text(v)}" for d, v in zip(dims, self.values, strict=True))

    def options(self, dims: tuple[Dimension, ...]) -> dict:
        return {d.name: v for d, v in zip(dims, self.values, strict=True)}


class Space:
    """The rule sets the dimensions span, each built and checked when asked for: from the
    run's rules (``base`` when given whole, else ``source``'s), or, when ``variant`` is a
    dimension, that variant's (with ``source``'s ``--rules``, ``--deck`` and ``--set`` after
    it), with ``feel`` turned on when a target needs it."""

    def __init__(self, spec: GameSpec, source: RuleSource, players: int, dims: tuple[Dimension, ...], feel=False,
                 base: Rules | None = None):  # fmt: skip
        self.spec, self.source, self.players, self.dims, self.feel = spec, source, players, dims, feel
        self.size = math.prod(len(d.values) for d in dims)
        # (``base``: rules given whole, the workbench's; a varied variant then starts from its own)
        self._bases: dict[str | None, Rules] = {} if base is None else {None: base}
        self._varied = next((k for k, d in enumerate(dims) if d.name == "variant"), None)

    def label(self, values: tuple) -> str:
        return ", ".join(f"{d.name}={d.text(v)}" for d, v in zip(self.dims, values, strict=True))

    def build(self, values: tuple) -> Candidate | str:
        """The candidate with one value per dimension, or why it cannot be played."""
        variant = values[self._varied] if self._varied is not None else None
        if variant not in self._bases:
            source = self.source if variant is None else _with_variant(self.source, variant)
            if variant is not None and None in self._bases:
                source = RuleSource(variant, options={"feel": self._bases[None].feel})
            self._bases[variant] = resolve_rules(self.spec, source)[1]
        rules = self._bases[variant]
        try:
            for d, v in zip(self.dims, values, strict=True):
                rules = apply(rules, d, v, self.players)
            if self.feel and not rules.feel:
                rules = rules.updated({"feel": True})
            self.spec.check(rules, self.players)
        except InputError as err:
            return str(err)
        return Candidate(values, rules)


def candidates(space: Space) -> tuple[list[Candidate], list[tuple[str, str]]]:
    """Every rule set of ``space`` (at most :data:`MAX_CANDIDATES`), checked; and those that
    cannot be played, each with its label and why (a deal larger than the deck, say)."""
    out, skipped = [], []
    for values in itertools.product(*(d.values for d in space.dims)):
        built = space.build(values)
        if isinstance(built, str):
            skipped.append((space.label(values), built))
        else:
            out.append(built)
    if not out:
        raise InputError("--vary", f"no rule set the dimensions give can be played ({skipped[0][0]}: {skipped[0][1]})")
    return out, skipped


def check_size(space: Space, most: int) -> None:
    """InputError unless ``space`` can be searched: at most :data:`MAX_CANDIDATES` rule sets to
    play whole, or, sampled, no more than ``most``."""
    if space.size > most:
        sizes = " x ".join(str(len(d.values)) for d in space.dims)
        raise InputError("--vary", f"{sizes} = {space.size:,} rule sets; at most {most:,} can be searched: "
                         "narrow a range or give fewer values")  # fmt: skip


def _with_variant(source: RuleSource, variant: str) -> RuleSource:
    from dataclasses import replace

    return replace(source, variant=variant)


def apply(rules: Rules, dim: Dimension, value, players: int) -> Rules:
    """``rules`` with dimension ``dim`` set to ``value`` (a variant is chosen by the base)."""
    if dim.name == "variant":
        return rules
    name, _, part = dim.name.partition(".")
    option = rules.specs()[name].metadata["spec"]
    if isinstance(option, Table):
        return rules.updated({name: {part: value}})
    if part:
        values = seat_values(getattr(rules, name), players)
        values[int(part)] = value
        return rules.updated({name: tuple(values)})
    return rules.updated({name: value})


def parse_question(
    spec: GameSpec, rules: Rules, players: int, *, vary, targets, prefer: str | None = None, matters=None
) -> tuple[tuple[Dimension, ...], tuple[Target, ...], Prefer | None]:
    """A design question's texts checked together: the ``--vary`` dimensions (no option twice),
    the ``--target`` targets and ``--prefer`` (``matters``: the margins by figure that replace
    the registry's). InputError naming the field otherwise."""
    vary, targets = _texts("--vary", vary), _texts("--target", targets)
    dims = tuple(parse_vary(spec, rules, players, text) for text in vary)
    names = [d.name for d in dims]
    twice = [n for n in names if names.count(n) > 1]
    if twice:
        raise InputError("--vary", f"{twice[0]} is varied twice")
    goals = tuple(parse_target(spec, players, text, matters) for text in targets)
    return dims, goals, parse_prefer(spec, players, prefer, matters)


def _texts(field: str, texts) -> list[str]:
    if isinstance(texts, str):
        texts = [texts]
    if not isinstance(texts, list | tuple) or not all(isinstance(t, str) for t in texts):
        raise InputError(field, f"expected a list of texts, got {texts!r}")
    texts = [t.strip() for t in texts if t.strip()]
    if not texts:
        raise InputError(field, "give at least one")
    return texts
