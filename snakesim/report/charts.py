"""A comparison's charts as data, for the pages that draw them in the browser.

The workbench and a study's ``report.html`` draw the same charts with ``static/charts.js``
(hovering shows a value with its interval; the legend shows or hides an arm). This module
computes what they draw, in plain JSON values: every point carries its 95% interval, so the
page never computes a statistic itself.

A chart is ``{"id", "title", "kind", "x_label", "y_label", "percent", "series", "summary"}``:
``kind`` ``bars`` (one group per x category, one bar per series) or ``lines``; each series is
an arm, ``{"name", "points": [[x, value, low, high], ...]}``; ``percent`` means the values are
shares (0 to 1), shown in percent; ``summary`` says what the chart shows in a sentence or two,
for a reader who cannot see it (and for everyone, under it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.compare import OWN_SCORE, winning_margin
from snakesim.analysis.stats import LEVEL, wilson
from snakesim.analysis.words import ordinal

if TYPE_CHECKING:
    import pandas as pd

    from snakesim.core.registry import GameSpec

MOST_BINS = 40  # a length or margin chart groups its values into at most this many bins
TAIL = 99  # and shows the games past this percentile as one last bin


def comparison_charts(spec: GameSpec, players: int, table: pd.DataFrame, tables: dict[str, pd.DataFrame]) -> list:
    """The charts of a comparison (``compare_tables``'s table and the per-game tables by arm):
    win rate by seat, then game length and the winning margin where they vary, then the
    game feel where it was recorded."""
    from snakesim.report.figures import has_feel, lengths_vary

    charts = [win_rate_chart(table, players)]
    if lengths_vary(tables):
        charts.append(spread_chart(
            "length", "How long games last", f"game length ({spec.length_unit})",
            {name: df["length"].to_numpy() for name, df in tables.items()}, unit=spec.length_unit,
        ))  # fmt: skip
    margins = {name: m for name, df in tables.items() if (m := winning_margin(spec, spec.scores(df, players)))}
    if margins and len({int(v) for _, m in margins.values() for v in np.unique(m)}) > 1:
        labels = {label for label, _ in margins.values()}
        label = labels.pop() if len(labels) == 1 else OWN_SCORE  # (as the comparison's rows name it)
        charts.append(spread_chart(
            "margin", "How far the winner ends ahead of the next seat", f"winning margin ({label})",
            {name: m for name, (_, m) in margins.items()}, unit="" if label == OWN_SCORE else label, what="won by",
        ))  # fmt: skip
    if spec.out_column is not None:
        charts.append(out_chart(spec, players, tables))
    if has_feel(tables):
        charts.append(known_chart(tables))
        charts.append(spread_chart(
            "lead-changes", "How often the lead changes hands", "times the lead changes hands in a game",
            {name: df["lead_changes"].to_numpy() for name, df in tables.items()}, unit="lead changes",
            what="have",
        ))  # fmt: skip
    return charts


def win_rate_chart(table: pd.DataFrame, players: int) -> dict:
    """Each arm's win rate by seat with its interval (``compare_tables``'s rows). Where every
    arm seats the same players and they differ from seat to seat, each seat is named with its
    player (``second (random)``), so the chart answers "how often does the child win?"."""
    from snakesim.questions.compare import lineups, mixed

    seats = set(lineups(table).values())
    names = next(iter(seats)) if len(seats) == 1 else ()
    # (short: "first player" fitted every other label on a phone; the axis says "player")
    label = [ordinal(s) + (f" ({names[s]})" if mixed(names) else "") for s in range(players)]
    series = []
    for name, rows in table.groupby("variant", sort=False):
        by = rows.set_index("metric")
        points = [[label[s], *_floats(by.loc[f"win_rate.{s}", ["value", "low", "high"]])] for s in range(players)]
        series.append({"name": str(name), "points": points})
    return _seat_chart("win-rates", "Who wins from which seat", series)


def _seat_chart(key: str, title: str, series: list[dict]) -> dict:
    """Bars of each seat's share of the games won, a series by rule set, said in a sentence."""
    summary = "; ".join(
        f"{s['name']}: " + ", ".join(f"{x} {100 * v:.1f}%" for x, v, _, _ in s["points"]) for s in series
    )
    return chart(key, title, "bars", "player, in the order they play", "wins", percent=True, series=series,
                  summary=f"The share of games each player wins. {summary}.")  # fmt: skip


def spread_chart(
    key: str,
    title: str,
    x_label: str,
    values: dict[str, np.ndarray],
    level: float = LEVEL,
    unit: str = "",
    what: str = "last",
) -> dict:
    """The share of games at each value (or bin of values) of a per-game count, by arm, each
    share with its Wilson interval. The long tail past the 99th percentile of every arm's
    values together is one last bin ("300+"). The summary gives each arm's median and 90th
    percentile (``half of the games last at most 40 turns, nine in ten at most 95``: ``what``
    the games do, in ``unit``)."""
    every = np.concatenate(list(values.values()))
    low, high = int(every.min()), int(np.ceil(np.percentile(every, TAIL)))
    width = max(1, -(-(high - low + 1) // MOST_BINS))  # (ceiling division: at most MOST_BINS bins)
    edges = np.arange(low, high + 1, width)
    tail = int(every.max()) >= edges[-1] + width  # values beyond the last full bin
    series = []
    for name, v in values.items():
        place = np.minimum((v - low) // width, len(edges) - (0 if tail else 1))
        counts = np.bincount(place.astype(np.int64), minlength=len(edges) + tail)
        n = len(v)
        points = []
        for k, c in enumerate(counts):
            left = low + k * width
            if tail and k == len(counts) - 1:
                x = f"{left}+"
            else:
                x = left if width == 1 else f"{left}-{left + width - 1}"
            points.append([x, c / n, *wilson(int(c), n, level)])
        series.append({"name": name, "points": points})
    if tail:
        x_label += f"; the last point: every game of {points[-1][0]}"
    summary = "; ".join(
        f"{name}: half of the games {what} {_at_most(v, 0.5, unit)}, nine in ten {_at_most(v, 0.9, '').strip()}"
        for name, v in values.items()
    )
    return chart(key, title, "lines", x_label, "share of games", percent=True, series=series, summary=summary + ".")


def _at_most(values: np.ndarray, q: float, unit: str) -> str:
    """``at most 40 turns`` (``no lead changes`` at 0): the smallest value that at least a share
    ``q`` of the games reach or stay under."""
    v = int(np.quantile(values, q, method="inverted_cdf"))
    return f"no {unit}".strip() if v == 0 and unit else f"at most {v:,} {unit}".strip()


def out_chart(spec: GameSpec, players: int, tables: dict[str, pd.DataFrame], level: float = LEVEL) -> dict:
    """In a game where players go out for good (``spec.out_column``): how far into the game the
    first, second, ... player goes out, on average over the games where it happens, with its
    Student-t interval (the PNG figure shows the median and the middle half instead)."""
    from snakesim.analysis.stats import mean_interval
    from snakesim.report.figures import ordinal, out_order

    orders = {name: out_order(spec, df, players) for name, df in tables.items()}
    # (only the k-th out that happens in some game of every arm: the arms' bars stand side by side)
    ks = [k for k in range(players - 1) if all((~np.isnan(out[:, k])).any() for out in orders.values())]
    series = []
    for name, out in orders.items():
        points = [[f"{ordinal(k + 1)} out", *mean_interval(out[:, k][~np.isnan(out[:, k])], level)] for k in ks]
        series.append({"name": name, "points": points})
    summary = "; ".join(
        f"{s['name']}: " + ", ".join(f"the {x} after {v:.0f}" for x, v, _, _ in s["points"]) for s in series
    )
    return chart("out", "When players go out for good", "bars", "the player who goes out",
                  f"{spec.length_unit} when it happens (mean)", percent=False, series=series,
                  summary=f"On average, in {spec.length_unit}: {summary}.")  # fmt: skip


def known_chart(tables: dict[str, pd.DataFrame], level: float = LEVEL) -> dict:
    """When the winner is known: the share of won games whose winner already leads alone for
    good, at each tenth of the game (the figure's line, at fewer points)."""
    from snakesim.report.figures import winner_settled

    series = []
    steps = np.linspace(0, 1, 11)
    for name, df in tables.items():
        settled, n = winner_settled(df, steps)
        if not n:
            continue
        points = [[f"{round(100 * x)}%", h / n, *wilson(int(h), n, level)] for x, h in zip(steps, settled, strict=True)]
        series.append({"name": name, "points": points})
    summary = "; ".join(f"{s['name']}: {100 * s['points'][5][1]:.0f}%" for s in series)
    return chart(
        "known",
        "When is the winner known?",
        "lines",
        "how far the game has gone",
        "winner leads for good",
        percent=True,
        series=series,
        summary="The share of won games whose winner already leads alone for good (and never loses the lead again), "
        f"as the game goes on. Half-way: {summary}. (A winner in front half-way who loses the lead later is not "
        "counted here: the figure of winners who already lead alone half-way counts them too.)",
    )


def balance_chart(result, handicap: str) -> dict:
    """A balance search's answer on fresh games (``BalanceResult``): each seat's win rate with
    its interval under the starting values and under the recommended ones."""
    series = []
    for when, rows in result.confirmed.groupby("rules", sort=False):
        values = result.base if when == "before" else result.values
        points = [[ordinal(int(r.seat)), float(r.win_rate), float(r.low), float(r.high)]
                  for r in rows.itertuples()]  # fmt: skip
        series.append({"name": f"{when}: {handicap} = {values}", "points": points})
    chart = _seat_chart("balance", "Who wins from which seat, before and after, on fresh games", series)
    chart["level"] = result.summary["level"]
    return chart  # fmt: skip


def chart(key, title, kind, x_label, y_label, percent, series, summary: str) -> dict:
    """A chart as the pages draw it (see the module's docstring)."""
    return {"id": key, "title": title, "kind": kind, "x_label": x_label, "y_label": y_label, "percent": percent,
            "level": LEVEL, "series": series, "summary": summary}  # fmt: skip


def _floats(values) -> list[float]:
    return [float(v) for v in values]
