"""Figures: each function takes data and returns a matplotlib Figure (no pyplot state), so
they work the same in scripts, tests, notebooks and reports."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from snakesim.analysis.words import ordinal as seat_ordinal
from snakesim.analysis.words import seat_player
from snakesim.core.columns import winners

if TYPE_CHECKING:
    from pathlib import Path

    import pandas as pd
    from matplotlib.figure import Figure


def sweep_figure(table: pd.DataFrame, x: str, metrics=None, title: str = "") -> Figure:
    """Each figure of a sweep (``metrics``, row ids; by default every one it has but the
    seat-balance test) against the swept option ``x``, one line per player count, with its
    95% interval as a band.

    Parameters
    ----------
    table : DataFrame
        The tidy output of :func:`snakesim.analysis.sweep.sweep`.
    x : str
        The swept column to put on the horizontal axis.
    """
    from matplotlib.figure import Figure

    from snakesim.core.figures import figure

    if metrics is None:
        metrics = [m for m in dict.fromkeys(table["metric"]) if figure(m).kind != "test"]
    # A metric the same at every point and in every game (no draws, say) has nothing to show.
    varies = table.groupby("metric")[["value", "low", "high"]].agg(lambda v: v.nunique(dropna=False) > 1).any(axis=1)
    metrics = [m for m in metrics if m in set(table["metric"]) and varies[m]] or [metrics[0]]
    across = min(4, len(metrics))
    down = -(-len(metrics) // across)
    fig = Figure(figsize=(4.2 * across, 3.4 * down), layout="constrained")
    axes = fig.subplots(down, across, squeeze=False).ravel()
    for ax in axes[len(metrics) :]:
        ax.set_visible(False)
    for ax, metric in zip(axes, metrics, strict=False):
        rows = table[table["metric"] == metric]
        for players, line in rows.groupby("players"):
            line = line.sort_values(x)
            ax.plot(line[x], line["value"], marker="o", label=f"{players} players")
            ax.fill_between(line[x], line["low"], line["high"], alpha=0.25)
        per_seat = figure(metric).id == "win_rate"  # (a chart's words name a seat as players do)
        ax.set_title(f"{seat_player(int(metric.partition('.')[2]))} wins" if per_seat else figure(metric).heading)
        ax.set_xlabel(x)
        ax.grid(alpha=0.3)
        if figure(metric).percent:  # (drawn in percent, as printed)
            in_percent(ax)
    axes[0].legend(fontsize="small")
    if title:
        fig.suptitle(wrapped(title, 110))
    return fig


def in_percent(ax) -> None:
    """Label ``ax``'s vertical axis in percent (its values are fractions, as JSON keeps them)."""
    from matplotlib.ticker import PercentFormatter

    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=None))


def wrapped(title: str, width: int = 60) -> str:
    """A figure title folded onto lines of at most ``width`` characters, so none is clipped."""
    return "\n".join(line for part in title.split("\n") for line in textwrap.wrap(part, width))


def win_rates_figure(table: pd.DataFrame, title: str = "") -> Figure:
    """Each variant's win rate by seat with its 95% interval (from a comparison table)."""
    from matplotlib.figure import Figure

    wins = table[table["metric"].str.startswith("win_rate.")]
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
    ax.set_xticks(range(len(seats)), [f"{seat_ordinal(int(s.partition('.')[2]))} player" for s in seats])
    ax.set_ylabel("win rate")
    in_percent(ax)
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize="small")
    ax.set_title(wrapped(title or "Who wins from which seat, with 95% intervals"))
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
    in_percent(ax)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(wrapped(title or "How long games last: the share still going after each length (Kaplan-Meier)"))
    return fig


def scores_figure(tables: dict[str, pd.DataFrame], spec, players: int, title: str = "") -> Figure:
    """How games end for the seats, one line per run: in a game where players go out
    (``spec.out_column``), when the first, second, ... player goes out; else the distribution
    of final scores, in what each rule set scores (``GameSpec.scores``)."""
    import numpy as np
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 3.6), layout="constrained")
    ax = fig.subplots()
    if spec.out_column is not None:
        return _elimination(fig, ax, tables, spec, players, title=title)
    scored = {name: spec.scores(df, players) for name, df in tables.items()}
    labels = {label for label, _ in scored.values()}
    label = labels.pop() if len(labels) == 1 else "score"
    if label == "score":  # (the arms score different things: say which)
        title = title or ("Where every seat's score stands at the end of a game ("
                          + ", ".join(f"{name}: {lab}" for name, (lab, _) in scored.items()) + ")")  # fmt: skip
    top = max(int(v.max()) for _, v in scored.values())
    low = min(int(v.min()) for _, v in scored.values())
    bins = np.arange(low - 0.5, top + 1.5) if top - low <= 200 else 60
    for name, (_, v) in scored.items():
        ax.hist(v.ravel(), bins=bins, histtype="step", density=True, linewidth=1.4, label=name)
    ax.set_xlabel(f"{label} at the end of the game (every seat)")
    ax.set_ylabel("share of seats")
    in_percent(ax)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(wrapped(title or f"Where every seat's {label} stand at the end of a game"))
    return fig


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, ..."""
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


def out_order(spec, df: pd.DataFrame, players: int):
    """In a game where players go out for good (``spec.out_column``): for each game, the step
    at which the first, second, ... seat went out, in that order; NaN for those who never did
    (the winner, or everyone still in at the cap)."""
    import numpy as np

    out = df[[f"{spec.out_column}_{s}" for s in range(players)]].to_numpy(dtype=float, na_value=np.nan)
    return np.sort(out, axis=1)  # (NaN, never out, last)


def winner_settled(df: pd.DataFrame, x):
    """At each point of ``x`` (shares of the game), how many won games' winners already led
    alone for good (the feel column ``decided``), and how many games were won."""
    import numpy as np

    winner = winners(df)
    decided = np.sort(df["decided"].to_numpy(dtype=float, na_value=np.nan)[winner >= 0])
    return np.searchsorted(decided, x, side="right"), len(decided)


def _elimination(fig, ax, tables, spec, players: int, title: str):
    """When the k-th player goes out (median and the middle half of the games), per run."""
    import numpy as np

    order = np.arange(1, players)
    for k, (name, df) in enumerate(tables.items()):
        out = out_order(spec, df, players)[:, : players - 1]  # the first, second, ... out
        middle, low, high = (np.nanpercentile(out, q, axis=0) for q in (50, 25, 75))
        x = order + (k - (len(tables) - 1) / 2) * 0.08
        ax.errorbar(x, middle, yerr=[middle - low, high - middle], fmt="o-", capsize=3, label=name)
    ax.set_xticks(order, [f"{ordinal(k)} out" for k in order])
    ax.set_ylabel(f"{spec.length_unit} when it happens")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(
        wrapped(title or "When players go out for good: the median game, and the middle half of games as a bar")
    )
    return fig


def comparison_figures(
    spec, players: int, table: pd.DataFrame, tables: dict[str, pd.DataFrame], folder: Path, prefix: str = "",
    win_title: str = "", feel_title: str = "", dpi: int = 110,
) -> list[str]:  # fmt: skip
    """Draw a comparison's figures into ``folder`` as ``{prefix}win-rates.png`` and, where they
    have something to show, ``length``, ``scores`` and ``feel``; return the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    drawn = [f"{prefix}win-rates.png"]
    win_rates_figure(table, win_title).savefig(folder / drawn[0], dpi=dpi)
    if lengths_vary(tables):
        drawn.append(f"{prefix}length.png")
        survival_figure(tables, spec.length_unit).savefig(folder / drawn[-1], dpi=dpi)
    if spec.score is not None:
        drawn.append(f"{prefix}scores.png")
        scores_figure(tables, spec, players).savefig(folder / drawn[-1], dpi=dpi)
    if has_feel(tables):
        drawn.append(f"{prefix}feel.png")
        feel_figure(tables, feel_title).savefig(folder / drawn[-1], dpi=dpi)
    return drawn


def lengths_vary(tables: dict[str, pd.DataFrame]) -> bool:
    """Whether game length differs between two games of some run (else a length figure would
    show a step per run, and the findings say each run's length once: Hisss deals every card)."""
    return any(df["length"].nunique() > 1 for df in tables.values())


def has_feel(tables: dict[str, pd.DataFrame]) -> bool:
    """Whether every run recorded the game-feel figures (played with ``feel = true``): a table
    has their columns only then."""
    return all("lead_changes" in df for df in tables.values())


def feel_figure(tables: dict[str, pd.DataFrame], title: str = "") -> Figure:
    """How each run feels to play (``snakesim.core.feel``), two panels with 95% bands.

    Left, "when is the winner known": against how far the game has gone, the share of won
    games whose winner already leads alone for good (a line), and at a quarter, half and three
    quarters of the way the share of games, among those with one seat alone in front, that
    this seat goes on to win (dots). Right: how many times the lead changes hands in a game.
    """
    import numpy as np
    from matplotlib.figure import Figure

    from snakesim.analysis.stats import wilson
    from snakesim.core.feel import QUARTER_NAMES, QUARTERS

    fig = Figure(figsize=(11, 3.8), layout="constrained")
    known, changes = fig.subplots(1, 2)
    x = np.linspace(0, 1, 101)
    top = max(int(np.percentile(df["lead_changes"], 99)) for df in tables.values())
    counts = np.arange(top + 1)
    for k, (name, df) in enumerate(tables.items()):
        colour = f"C{k}"
        winner = winners(df)
        settled, n = winner_settled(df, x)
        if n:
            band = np.array([wilson(int(h), n) for h in settled])
            known.plot(x, settled / n, color=colour, label=f"{name}: winner leads for good")
            known.fill_between(x, band[:, 0], band[:, 1], color=colour, alpha=0.2, linewidth=0)
        for q in QUARTERS:
            leader = df[f"leader_q{q}"].to_numpy(dtype=np.int64, na_value=-1)
            led = int((leader >= 0).sum())
            if led:
                held = int(((leader >= 0) & (leader == winner)).sum())
                low, high = wilson(held, led)
                share = held / led
                known.errorbar(q / 4 + (k - (len(tables) - 1) / 2) * 0.012, share, yerr=[[share - low], [high - share]],
                               fmt="o", color=colour, capsize=3,
                               label=f"{name}: the leader then wins" if q == 1 else None)  # fmt: skip
        lead = np.minimum(df["lead_changes"].to_numpy(), top)
        shares = np.bincount(lead, minlength=top + 1)[: top + 1] / len(lead)
        changes.plot(counts, shares, marker="o", color=colour, label=name)
    known.set_xlim(0, 1)
    known.set_ylim(0, 1)
    known.set_xticks([0, 0.25, 0.5, 0.75, 1], ["start", *QUARTER_NAMES, "end"])
    known.set_xlabel("how far the game has gone")
    known.set_ylabel("share of games")
    in_percent(known)
    known.set_title("When is the winner known?")
    known.grid(alpha=0.3)
    known.legend(fontsize="small")
    changes.set_xticks(counts[:: max(1, len(counts) // 12)])
    changes.set_xlabel(f"times the lead changes hands in a game ({top} stands for {top} or more)")
    changes.set_ylabel("share of games")
    in_percent(changes)
    changes.set_title("How often the lead changes hands")
    changes.grid(alpha=0.3)
    changes.legend(fontsize="small")
    if title:
        fig.suptitle(wrapped(title, 110))
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
    ax.set_title(wrapped(title) if title else f"{metric} against {option}, with 95% intervals")
    return fig


def balance_figure(result, title: str = "") -> Figure:
    """Each seat's win rate before and after a balance search's answer, on its fresh games,
    with 95% intervals (a :class:`snakesim.analysis.balance.BalanceResult`)."""
    import pandas as pd

    s = result.summary
    rows = result.confirmed.rename(columns={"rules": "variant", "win_rate": "value"})
    rows = rows.assign(metric="win_rate." + rows["seat"].astype(str))
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
        fig.suptitle(wrapped(title, 70))
    return fig


def design_figure(table: pd.DataFrame, summary: dict, title: str = "") -> Figure:
    """Every rule set of a design search by its figures for the first two targets (or the first
    against the rule sets, with one target), with their intervals; each target's values shaded,
    the answers and the trade-off (Pareto) set marked."""
    import numpy as np
    from matplotlib.figure import Figure

    from snakesim.analysis.design_space import Target

    targets = summary["targets"]
    answers = {a["label"] for a in summary["answers"]}
    front = set(summary["pareto"])
    fig = Figure(figsize=(6.4, 4.6), layout="constrained")
    ax = fig.subplots()
    played = table[table["games"] > 0]
    tx = targets[0]
    x = played[tx["metric"]] * tx["scale"]
    xerr = [x - played[f"{tx['metric']}_low"] * tx["scale"], played[f"{tx['metric']}_high"] * tx["scale"] - x]
    if len(targets) > 1:
        ty = targets[1]
        y = played[ty["metric"]] * ty["scale"]
        yerr = [y - played[f"{ty['metric']}_low"] * ty["scale"], played[f"{ty['metric']}_high"] * ty["scale"] - y]
    else:
        ty, y, yerr = None, np.arange(len(played)), None
    kinds = (("answer: meets every target", played["label"].isin(answers), "tab:green", "o"),
             ("trade-off (no answer)", played["label"].isin(front) & ~played["label"].isin(answers), "tab:orange", "D"),
             ("the others", ~played["label"].isin(answers | front), "lightgrey", "."))  # fmt: skip
    for name, mask, colour, marker in kinds:
        if mask.any():
            ax.errorbar(x[mask], np.asarray(y)[mask], xerr=[e[mask] for e in xerr],
                        yerr=None if yerr is None else [e[mask] for e in yerr], fmt=marker, color=colour,
                        ecolor=colour, alpha=0.9, capsize=2, label=name, linestyle="none")  # fmt: skip
    trade = played["label"].isin(front) & ~played["label"].isin(answers)
    if trade.sum() > 1 and ty is not None:  # (the trade-off joined, in the order of the first target)
        order = np.argsort(np.asarray(x[trade]))
        ax.plot(np.asarray(x[trade])[order], np.asarray(y[trade])[order], color="tab:orange", linewidth=0.8)
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    beyond = []
    for t, span, limits in ((tx, ax.axvspan, xlim), (ty, ax.axhspan, ylim)):
        if t is None:
            continue
        low, high = (v * t["scale"] for v in Target.of(t).region)
        if low > limits[1] or high < limits[0]:
            beyond.append(f"{t['text']}: beyond the chart, every rule set off it")
            continue
        span(max(low, limits[0]), min(high, limits[1]), color="tab:green", alpha=0.08)
    if beyond:
        ax.text(0.01, 0.01, "\n".join(beyond), transform=ax.transAxes, fontsize="small", va="bottom")
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_xlabel(tx["text"])
    if ty is not None:
        ax.set_ylabel(ty["text"])
    else:
        ax.set_yticks(np.arange(len(played)), played["label"], fontsize="x-small")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="best", framealpha=0.8)
    words = "each rule set on its last round, with the search's intervals (shaded: the targets)"
    ax.set_title(wrapped(f"{title}: {words}" if title else words))
    return fig
