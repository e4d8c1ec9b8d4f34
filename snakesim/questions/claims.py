"""What a sentence claims, and whether its numbers bear it out.

Each sentence of a comparison's findings carries its claims (``finding["claims"]``): for each
figure it speaks of, what it says of it (``says``), on which rule set, in which direction, and
the numbers it rests on. :func:`check` holds every claim to the comparison's rows, judging each
difference again from its interval and its margin, so that no sentence says more, or less, than
its intervals and verdicts:

- ``matters``: the difference's interval lies beyond what matters, on the side of ``direction``;
- ``negligible``: it lies inside what matters;
- ``undecided``: it reaches both: more games would tell;
- ``not seen`` (``always seen``): no rule set's games had it (or every one did), and the claim
  says how far the intervals reach (``bound``), never that it cannot happen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE, UNDECIDED, verdict

if TYPE_CHECKING:
    import pandas as pd

SAYS = (MATTERS, NEGLIGIBLE, UNDECIDED, "not seen", "always seen")


def claim(says: str, metric: str, arm: str | None = None, direction: int = 0, **numbers) -> dict:
    """One claim: a sentence ``says`` this of figure row ``metric`` (of rule set ``arm`` against
    the first; None: of every rule set), in ``direction`` (+1 more, -1 less) for a change that
    matters, resting on ``numbers``."""
    if says not in SAYS:
        raise ValueError(f"a claim says one of {', '.join(SAYS)}, got {says!r}")
    return {"says": says, "metric": metric, "arm": arm, "direction": direction, **numbers}


def check(claims: list[dict], table: pd.DataFrame) -> list[str]:
    """What ``claims`` say that the comparison's rows (``table``) do not bear out, one line each
    (empty: every claim holds). Each difference is judged again from its interval (the
    anytime-valid one where a ``--precision`` run watched it) and its margin."""
    watched = {(r["variant"], r["metric"].removesuffix(".difference")): (r["low"], r["high"])
               for r in (table.attrs.get("stopping") or {}).get("sequences", [])
               if r["metric"].endswith(".difference")}  # fmt: skip
    out = []
    for c in claims:
        rows = table[table["metric"] == c["metric"]]
        if rows.empty:
            out.append(f"{c['metric']}: no such row")
            continue
        if c["says"] in ("not seen", "always seen"):
            value = 0.0 if c["says"] == "not seen" else 1.0
            if not (rows["value"] == value).all():
                out.append(f"{c['metric']}: said {c['says']}, but a rule set's value is not {value:g}")
            reach = rows["high"].max() if value == 0 else rows["low"].min()
            if abs(c.get("bound", float("nan")) - reach) > 1e-12 or not 0 < reach < 1:
                out.append(f"{c['metric']}: said {c['says']} with a bound of {c.get('bound')}, but the intervals "
                           f"reach {reach}")  # fmt: skip
            continue
        row = rows[rows["variant"] == c["arm"]]
        if row.empty:
            out.append(f"{c['metric']}: no row of {c['arm']}")
            continue
        r = row.iloc[0]
        low, high = watched.get((c["arm"], c["metric"]), (r["diff_low"], r["diff_high"]))
        judged = verdict(low, high, r["margin"])
        if judged != c["says"]:
            out.append(f"{c['arm']}: {c['metric']}: said {c['says']}, but its interval [{low:.6g}, {high:.6g}] "
                       f"against {r['margin']:.6g} is {judged}")  # fmt: skip
        elif judged == MATTERS and c["direction"] != (1 if low > 0 else -1):
            out.append(f"{c['arm']}: {c['metric']}: said to move {'up' if c['direction'] > 0 else 'down'}, but its "
                       f"interval is [{low:.6g}, {high:.6g}]")  # fmt: skip
    return out
