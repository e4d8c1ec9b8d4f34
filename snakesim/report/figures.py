"""Figures: each function takes data and returns a matplotlib Figure (no pyplot state), so
they work the same in scripts, tests, notebooks and reports."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


SWEEP_METRICS = ("length", "seat 0 wins", "first-player advantage", "draw")


def sweep_figure(table: pd.DataFrame, x: str, metrics=SWEEP_METRICS, title: str = "") -> Figure:
    """Each metric of a sweep against the swept option ``x``, one line per player count,
    with its 95% interval as a band.

    Parameters
    ----------
    table : DataFrame
        The tidy output of :func:`snakesim.analysis.sweep.sweep`.
    x : str
        The swept column to put on the horizontal axis.
    """
    from matplotlib.figure import Figure

    metrics = [m for m in metrics if m in set(table["metric"])]
    fig = Figure(figsize=(4.2 * len(metrics), 3.4), layout="constrained")
    axes = fig.subplots(1, len(metrics), squeeze=False)[0]
    for ax, metric in zip(axes, metrics, strict=True):
        rows = table[table["metric"] == metric]
        for players, line in rows.groupby("players"):
            line = line.sort_values(x)
            ax.plot(line[x], line["value"], marker="o", label=f"{players} players")
            ax.fill_between(line[x], line["low"], line["high"], alpha=0.25)
        ax.set_title(metric)
        ax.set_xlabel(x)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize="small")
    if title:
        fig.suptitle(title)
    return fig


def win_rates_figure(table: pd.DataFrame, title: str = "") -> Figure:
    """Each variant's win rate by seat with its 95% interval (from a comparison table)."""
    from matplotlib.figure import Figure

    wins = table[table["metric"].str.match(r"seat \d+ wins")]
    variants = list(dict.fromkeys(wins["variant"]))
    seats = list(dict.fromkeys(wins["metric"]))
    fig = Figure(figsize=(1.2 + 1.1 * len(seats) * max(1, len(variants)) / 2, 3.6), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / len(variants)
    for k, variant in enumerate(variants):
        rows = wins[wins["variant"] == variant].set_index("metric").loc[seats]
        x = [i + (k - (len(variants) - 1) / 2) * width for i in range(len(seats))]
        errors = [rows["value"] - rows["low"], rows["high"] - rows["value"]]
        # Dots, not bars: bars would have to start at 0 and hide differences of a point or two.
        ax.errorbar(x, rows["value"], yerr=errors, fmt="o", capsize=3, label=variant)
    fair = (1 - table[(table["metric"] == "draw")]["value"].mean()) / len(seats)
    ax.axhline(fair, color="grey", linewidth=0.8, linestyle="--", label="equal shares")
    ax.set_xticks(range(len(seats)), [s.replace(" wins", "") for s in seats])
    ax.set_ylabel("win rate")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize="small")
    ax.set_title(title or "win rate by seat, 95% intervals")
    return fig


def survival_figure(tables: dict[str, pd.DataFrame], unit: str = "turns", title: str = "") -> Figure:
    """Kaplan-Meier curves of game length, one per run: the share of games still going after
    each length (unfinished games censored), with 95% log-log bands."""
    import warnings

    import numpy as np
    from matplotlib.figure import Figure
    from scipy import stats

    fig = Figure(figsize=(6, 3.6), layout="constrained")
    ax = fig.subplots()
    for name, df in tables.items():
        lengths = df["length"].to_numpy()
        censored = (df["outcome"].astype(str) == "unfinished").to_numpy()
        result = stats.ecdf(stats.CensoredData(uncensored=lengths[~censored], right=lengths[censored]))
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            band = result.sf.confidence_interval(0.95, method="log-log")
        times = result.sf.quantiles
        ax.step(times, result.sf.probabilities, where="post", label=name)
        ax.fill_between(times, band.low.probabilities, band.high.probabilities, step="post", alpha=0.25)
    ax.set_xlabel(f"length ({unit})")
    ax.set_ylabel("share of games still going")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(title or "how long games last (Kaplan-Meier)")
    return fig


def scores_figure(tables: dict[str, pd.DataFrame], column: str, players: int, title: str = "") -> Figure:
    """Each run's distribution of final scores (every seat's ``column``), as step histograms."""
    import numpy as np
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 3.6), layout="constrained")
    ax = fig.subplots()
    values = {name: df[[f"{column}_{s}" for s in range(players)]].to_numpy().ravel() for name, df in tables.items()}
    top = max(int(v.max()) for v in values.values())
    bins = np.arange(-0.5, top + 1.5) if top <= 200 else 60
    for name, v in values.items():
        ax.hist(v, bins=bins, histtype="step", density=True, linewidth=1.4, label=name)
    ax.set_xlabel(f"{column} at the end of the game (every seat)")
    ax.set_ylabel("share of seats")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(title or f"how {column} ends up")
    return fig


def tune_figure(path: pd.DataFrame, goal: float, option: str, metric: str, title: str = "") -> Figure:
    """The metric against the option's value on the search's last (largest) games, with 95%
    intervals, and the target as a line."""
    from matplotlib.figure import Figure

    last = path[path["games"] == path["games"].max()].drop_duplicates("value", keep="last").sort_values("value")
    fig = Figure(figsize=(5.5, 3.6), layout="constrained")
    ax = fig.subplots()
    errors = [last["metric"] - last["low"], last["high"] - last["metric"]]
    ax.errorbar(
        last["value"], last["metric"], yerr=errors, fmt="o-", capsize=3, label=f"{last['games'].iloc[0]:,} games"
    )
    ax.axhline(goal, color="grey", linewidth=0.8, linestyle="--", label=f"target {goal:g}")
    ax.set_xlabel(option)
    ax.set_ylabel(metric)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title("\n".join(textwrap.wrap(title, 60)) if title else f"{metric} against {option}, 95% intervals")
    return fig


def balance_figure(result, title: str = "") -> Figure:
    """Each seat's win rate before and after a balance search's answer, on its fresh games,
    with 95% intervals (a :class:`snakesim.analysis.balance.BalanceResult`)."""
    import pandas as pd

    s = result.summary
    rows = result.confirmed.rename(columns={"rules": "variant", "win_rate": "value"})
    rows = rows.assign(metric="seat " + rows["seat"].astype(str) + " wins")
    draws = pd.DataFrame(
        {"variant": ["before", "after"], "metric": "draw", "value": [s["before"]["draw_rate"], s["after"]["draw_rate"]]}
    )
    head = "\n".join(textwrap.wrap(title, 60)) + "\n" if title else ""
    return win_rates_figure(pd.concat([rows, draws], ignore_index=True), f"{head}win rate by seat on fresh games")


def skill_figure(table: pd.DataFrame, title: str = "") -> Figure:
    """Each line-up's edge (the odd player's win rate minus a field player's at the same
    seats) by player count, with 95% intervals: one panel per field (a
    :class:`snakesim.analysis.skill.SkillResult` table)."""
    from matplotlib.figure import Figure

    rows = table[table["player"] != table["field"]]
    fields = list(dict.fromkeys(rows["field"]))
    fig = Figure(figsize=(1.5 + 3.4 * len(fields), 3.6), layout="constrained")
    axes = fig.subplots(1, len(fields), squeeze=False)[0]
    for ax, field in zip(axes, fields, strict=True):
        part = rows[rows["field"] == field]
        players = list(dict.fromkeys(part["players"]))
        kinds = list(dict.fromkeys(part["player"]))
        width = 0.8 / len(kinds)
        for k, kind in enumerate(kinds):
            line = part[part["player"] == kind].set_index("players").loc[players]
            x = [i + (k - (len(kinds) - 1) / 2) * width for i in range(len(players))]
            errors = [line["edge"] - line["edge_low"], line["edge_high"] - line["edge"]]
            ax.errorbar(x, line["edge"] * 100, yerr=[e * 100 for e in errors], fmt="o", capsize=3, label=kind)
        ax.axhline(0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xticks(range(len(players)), [f"{n} players" for n in players])
        ax.set_ylabel("win rate above a field player's (points)")
        ax.set_title(f"one player among {field} players", fontsize="medium")
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize="small")
    if title:
        fig.suptitle("\n".join(textwrap.wrap(title, 70)))
    return fig
