"""Whether a difference matters at the table: each figure's smallest difference that matters
(the registry's ``matters``, changed per run with ``--matters``) and a verdict for each
difference, taken on the interval the comparison already draws (Holm's level).

- ``matters``: the interval lies entirely beyond the margin, so the change is at least that
  large;
- ``negligible``: the interval lies entirely inside the margin, so any change is smaller than
  one that matters, whether or not it was detected (two one-sided tests, Schuirmann 1987);
- ``undecided``: the interval crosses the margin. About how many games per rule set would
  settle it follows from the interval's width, which shrinks as one over the root of the games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from snakesim.core.errors import InputError
from snakesim.core.figures import BY_ID, Figure

MATTERS, NEGLIGIBLE, UNDECIDED = "matters", "negligible", "undecided"
BASELINE, NOT_COMPARED = "baseline", "not compared"
# Figures whose margin follows another's unless --matters names them.
SAME_AS = {"length_median": "length", "length_p95": "length"}
# Past this many games per rule set, "more games would settle it" stops being advice.
MOST_GAMES = 100_000_000


@dataclass(frozen=True)
class Margin:
    """A smallest difference that matters: ``amount`` in the figure's terms (a fraction for a
    rate or a share), or with ``relative`` a share of the first rule set's value."""

    amount: float
    relative: bool = False

    def of(self, baseline: float) -> float:
        """The margin in the figure's terms, for a first rule set whose value is ``baseline``."""
        return self.amount * abs(baseline) if self.relative else self.amount


# The smallest difference in a share that any number of games could tell, in percentage
# points: the least margin --matters gives a share, and the least seat-gap target of a design.
MIN_POINTS = 0.1


def default_margin(f: Figure) -> Margin | None:
    return None if f.matters is None else Margin(f.matters, f.relative)


def margins_allowed() -> str:
    return ", ".join(f.id for f in BY_ID.values() if f.matters is not None)


def parse_matters(texts: str | Iterable[str] | None, field: str = "--matters") -> dict[str, Margin]:
    """``--matters`` as margins by figure id: ``ID=NUMBER`` pairs, comma-separated or
    repeated. For a rate or a share (shown in percent) NUMBER is in percentage points
    (``win_rate=2`` or ``2%``: two points); for any other figure NUMBER is in its own unit
    (``lead_changes=0.25``) and ``NUMBER%`` a share of the first rule set's value
    (``length=3%``). InputError naming ``field`` otherwise."""
    if texts is None:
        return {}
    if isinstance(texts, str):
        texts = [texts]
    out: dict[str, Margin] = {}
    for text in texts:
        if not isinstance(text, str):
            raise InputError(field, f"expected text such as 'length=3%,lead_changes=0.25', got {text!r}")
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, eq, value = part.partition("=")
            name, value = name.strip(), value.strip()
            f = BY_ID.get(name)
            base = BY_ID.get(name.partition(".")[0])
            if eq and f is None and base is not None and base.matters is not None:  # (tie_break.share: a target's name)
                raise InputError(field, f"{part!r}: name the figure alone: {base.id}={value}")
            if not eq or f is None or f.matters is None:
                raise InputError(field, f"{part!r}: expected FIGURE=NUMBER or FIGURE=NUMBER% with FIGURE one of "
                                 f"{margins_allowed()}")  # fmt: skip
            percent = value.endswith("%")
            try:
                number = float(value.removesuffix("%"))
            except ValueError:
                number = math.nan
            if not (number > 0 and math.isfinite(number)):
                raise InputError(field, f"{part!r}: expected a number above 0, got {value!r}")
            if f.percent:  # (percentage points, with or without %)
                if number < MIN_POINTS:
                    raise InputError(field, f"{part!r}: {name} is in percentage points ({name}=0.5: half a point), "
                                     f"at least {MIN_POINTS}; no number of games could tell less")  # fmt: skip
                out[name] = Margin(number / 100)
            else:
                out[name] = Margin(number / 100, relative=True) if percent else Margin(number)
    return out


def given_margin(row: str, matters: Mapping[str, Margin] | None) -> Margin | None:
    """The margin ``matters`` (the user's ``--matters``) gives a comparison row's figure
    (``win_rate.2`` -> win_rate's), or None."""
    name = row.partition(".")[0]
    if matters and name in matters:
        return matters[name]
    if matters and SAME_AS.get(name) in matters:  # (--matters length=3% also sets the median's)
        return matters[SAME_AS[name]]
    return None


def margin_for(row: str, matters: Mapping[str, Margin] | None = None) -> Margin | None:
    """The margin of a comparison row's figure (``win_rate.2`` -> win_rate's): ``matters``'s
    where it names the figure, else the registry's default."""
    given = given_margin(row, matters)
    if given is not None:
        return given
    f = BY_ID.get(row.partition(".")[0])
    return None if f is None else default_margin(f)


def verdict(low: float, high: float, margin: float) -> str:
    """``matters`` when ``[low, high]`` lies beyond ``margin`` on one side, ``negligible`` when
    it lies strictly inside ``(-margin, margin)``, else ``undecided``."""
    if low >= margin or high <= -margin:
        return MATTERS
    if -margin < low and high < margin:
        return NEGLIGIBLE
    return UNDECIDED


def games_to_settle(diff: float, low: float, high: float, margin: float, games: int) -> int | None:
    """About how many games per rule set would settle an undecided difference: the interval's
    half-width shrinks as ``1 / sqrt(games)``, and it settles once it is narrower than the
    distance from the difference to the margin. None when that takes more than
    :data:`MOST_GAMES` (a difference about as large as the margin itself)."""
    half = max(diff - low, high - diff)
    distance = abs(margin - abs(diff))
    if half <= 0:
        return games
    if distance <= 0 or games * (half / distance) ** 2 > MOST_GAMES:
        return None
    return int(math.ceil(games * (half / distance) ** 2 * 1.1 / 1000) * 1000)  # (10% to spare, in thousands)


def add_verdicts(
    table, games: int, matters: Mapping[str, Margin] | None = None, anytime: Mapping | None = None
) -> None:
    """Give a comparison (``compare.compare_tables``) its ``margin``, ``verdict`` and
    ``settle_games`` columns, in place. The first rule set's rows are ``baseline``; a row with
    no difference from it (a length quantile, the seat balance test, a margin each rule set
    scores on its own) is ``not compared``; ``settle_games`` is set on ``undecided`` rows only
    (None where no practical number of games would settle it). ``anytime`` maps ``(variant,
    row)`` to the anytime-valid interval of a difference a ``--precision`` run watched: its
    verdict is taken on that interval, which stays valid although the run chose when to stop."""
    import numpy as np

    first = table["variant"].iloc[0]
    base = table[table["variant"] == first].set_index("metric")["value"]
    margins, verdicts, settle = [], [], []
    for r in table.itertuples(index=False):
        m = margin_for(r.metric, matters)
        amount = m.of(float(base.get(r.metric, np.nan))) if m is not None else np.nan
        compared = m is not None and r.kind in ("rate", "mean") and r.diff == r.diff
        if r.variant == first:
            f = BY_ID[r.metric.partition(".")[0]]
            in_pairs = (f.compared and f.values is not None) or f.id == "margin"
            paired = m is not None and r.kind in ("rate", "mean") and in_pairs
            margins.append(amount if paired else np.nan)
            verdicts.append(BASELINE if paired else NOT_COMPARED)
            settle.append(None)
            continue
        if not compared or amount != amount:
            margins.append(np.nan)
            verdicts.append(NOT_COMPARED)
            settle.append(None)
            continue
        low, high = (anytime or {}).get((r.variant, r.metric), (r.diff_low, r.diff_high))
        said = verdict(low, high, amount)
        margins.append(amount)
        verdicts.append(said)
        settle.append(games_to_settle(r.diff, low, high, amount, games) if said == UNDECIDED else None)
    table["margin"] = margins
    table["verdict"] = verdicts
    table["settle_games"] = pd_int(settle)


def pd_int(values: list):
    """A nullable integer column (pandas ``Int64``): None stays null."""
    import pandas as pd

    return pd.array(values, dtype="Int64")


def settle_plan(table, games: int) -> dict | None:
    """How to settle what a comparison leaves undecided: ``{"games", "precision", "max_games"}``,
    or None when nothing is undecided or no practical number of games would settle it.

    ``games`` is about how many games per rule set would settle every undecided row that can be
    settled. Where those rows are all rates, ``precision`` is the half-width their differences
    need (the smallest distance from a difference to its margin) for the run's anytime-valid
    stopping (``compare --precision --precise differences``), which may look after every block
    and stays valid; ``max_games`` caps it at three times ``games`` (anytime-valid intervals are
    wider than fixed ones). Otherwise ``precision`` is None: play ``games`` games."""
    undecided = table[(table["verdict"] == UNDECIDED) & table["settle_games"].notna()]
    if undecided.empty:
        return None
    need = int(undecided["settle_games"].max())
    # (the first player's edge is seat 0's wins less a share of the won games: it settles with them)
    undecided = undecided[undecided["metric"] != "first_player_advantage"]
    if undecided.empty or not (undecided["kind"] == "rate").all():
        return {"games": need, "precision": None, "max_games": None}
    distance = (undecided["margin"] - undecided["diff"].abs()).abs().min()
    precision = float(f"{distance:.2g}")
    if precision > distance:  # (rounded up: a shade narrower, so that reaching it settles the row)
        precision = float(f"{distance * 0.95:.2g}")
    return {"games": need, "precision": precision, "max_games": max(int(math.ceil(3 * need / 1000) * 1000), games)}
