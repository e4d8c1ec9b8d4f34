"""Figures: each function takes data and returns a matplotlib Figure (no pyplot state), so
they work the same in scripts, tests, notebooks and reports."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

SWEEP_METRICS = ("length", "seat 0 wins", "first-player advantage", "draw")


def sweep_figure(table: pd.DataFrame, x: str, metrics=SWEEP_METRICS, title: str = "") -> Figure:
    """Each metric of a sweep against the swept option ``x``, one line per player count,
    with its 95% interval as a band.

    Parameters
    ----------
    table : DataFrame
        The tidy output of :func:`snakesim.core.sweep.sweep`.
    x : str
        The swept column to put on the horizontal axis.
    """
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
