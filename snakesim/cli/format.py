"""Readable text for the terminal: summaries, option tables."""

from __future__ import annotations

from pathlib import Path

from snakesim.core.errors import InputError
from snakesim.core.figures import BY_ID
from snakesim.core.jsontext import to_json
from snakesim.core.rules import describe_changes

__all__ = [
    "check_plot", "describe_changes", "format_comparison", "format_findings", "format_summary", "format_table",
    "interval",
    "level_text", "pct", "records", "save_plot", "to_json",
]  # fmt: skip


def check_plot(plot) -> None:
    """A ``--plot`` file: a .png in a folder that can be written (checked before any game)."""
    from snakesim.core.files import check_writable

    if plot is None:
        return
    if Path(plot).suffix.lower() != ".png":
        raise InputError("--plot", f"expected a file ending in .png, got {plot!r}")
    check_writable(Path(plot).absolute().parent, "--plot")


def save_plot(figure, plot) -> None:
    """Write a ``--plot`` figure, making its folder if needed."""
    Path(plot).parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(plot, dpi=110)


def pct(x: float) -> str:
    """A percentage with two decimals, or four for rare events so they do not read as 0."""
    return f"{100 * x:.4f}%" if 0 < x < 0.001 else f"{100 * x:.2f}%"


def interval(ci) -> str:
    return f"[{pct(ci[0])}, {pct(ci[1])}]"


def records(table) -> list[dict]:
    """A DataFrame's rows as dicts of plain values (no rounding, unlike ``DataFrame.to_json``)."""
    return table.to_dict(orient="records")


def format_summary(
    s: dict,
    title: str,
    length_unit: str,
    changes: dict,
    policies=(),
    standing_unit: str = "points",
    outcome_words=(),
) -> str:
    """The run summary shown by ``snakesim run``."""
    from snakesim.core.policies import spelled_players  # (not at import: it brings numba, which --help needs not)

    level = round(100 * s["level"])
    games = s["games"]
    rows = [
        (BY_ID["win_rate"].label.format(seat=seat), rate, ci)
        for seat, (rate, ci) in enumerate(zip(s["win_rate"], s["win_ci"], strict=True))
    ]
    # Every outcome but a plain win (which the seat rows show), e.g. draw, blocked win, unfinished.
    rows += [(label, o["rate"], o["ci"]) for label, o in s["outcomes"].items() if label != "win"]
    lines = [
        f"{title}",
        f"{s['players']} players, variant {s.get('variant', '?')} ({describe_changes(changes)}), "
        f"{games:,} games, seed {s.get('seed', '?')}",
        *([f"players in turn order, seat 0 first: {', '.join(policies)}"] if policies else []),
        *(f"  {line}" for line in spelled_players(policies)),
        "",
        f"{'':12}{'games':>11}  {'rate':>9}   {level}% interval",
    ]
    for label, rate, ci in rows:
        lines.append(f"{label:12}{round(rate * games):>11,}  {pct(rate):>9}   {interval(ci)}")
    said = {label for label, _, _ in rows}
    lines += [f"  ({label}: {words})" for label, words in outcome_words if label in said]
    n = s["length"]
    if n.get("mean_is_lower_bound"):
        # Unfinished games are still going at the cap: the mean counts them there (a lower
        # bound), and the quantiles come from the Kaplan-Meier curve with them censored.
        text = (
            f"length ({length_unit}): mean at least {n['mean']:.2f} ({n['unfinished']:,} games unfinished at the "
            f"cap), median {_length(n['median'])}, 95th percentile {_length(n['p95'])} (Kaplan-Meier), "
            f"max {n['max']:,} (the cap)"
        )
    elif n.get("min") == n["max"]:  # (Hisss: every game the same length; no spread to show)
        text = f"length ({length_unit}): {n['max']:,} in every game"
    else:
        text = (
            f"length ({length_unit}): mean {n['mean']:.2f} [{n['mean_ci'][0]:.2f}, {n['mean_ci'][1]:.2f}], "
            f"median {n['median']:g}, 95th percentile {n['p95']:g}, max {n['max']:,}"
        )
    lines += ["", text]
    if "feel" in s:
        lines += ["", *format_feel(s["feel"], standing_unit, level)]
    return "\n".join(lines)


def format_findings(findings: list, level: float, wider: str = "") -> str:
    """Findings in words (each kind's, ``snakesim.questions``) under a heading, wrapped for a terminal.

    ``findings`` holds sentences, or dicts ``{"arm", "text"}`` (a comparison's: grouped by arm,
    the arm's name leading its sentences); ``wider`` says which brackets are wider than ``level``
    and why (a comparison's differences), where any are."""
    import textwrap

    lines = ["", f"In words (numbers in [brackets]: {level_text(level)} intervals{'; ' + wider if wider else ''}):"]
    arm = object()
    for f in findings:
        text, who = (f["text"], f["arm"]) if isinstance(f, dict) else (f, None)
        if who is not None and who != arm:
            lines.append(f"  {who}:")
        arm = who
        indent = "    " if who is not None else "  "
        lines += textwrap.wrap(text, 100, initial_indent=f"{indent}- ", subsequent_indent=f"{indent}  ")
    return "\n".join(lines)


def format_feel(f: dict, standing_unit: str, level: int) -> list[str]:
    """The game-feel lines of a run summary (``snakesim.analysis.stats.feel_summary``), in words:
    each summarised figure of the registry (``snakesim.core.figures``) the run has, with the
    games it counts."""
    from snakesim.core.figures import SUMMARISED

    rows = []
    for fig in SUMMARISED:
        if fig.id not in f or not f[fig.id]["games"]:
            continue
        x = f[fig.id]
        if fig.id == "tie_break" and not x["rate"]:  # (a tie-break that never decides: not worth a row)
            continue
        words = fig.summary_words.format(standing=standing_unit)
        if fig.kind == "rate":
            rows.append((words, pct(x["rate"]), x["ci"], "%"))
        elif fig.unit == "share":
            rows.append((words, pct(x["mean"]) + (" of the game" if fig.counted else ""), x["ci"], "%"))
        else:
            rows.append((words, f"{x['mean']:.2f}", x["ci"], ".2f"))
    won = f["comeback"]["games"]
    width = max(len(r[0]) for r in rows)
    # (lead changes count every game; "the leader ... wins" the games with one seat ahead then)
    lines = [f"game feel ({level}% intervals; the winner's rows count the {won:,} games with a winner, the rows of "
             "the seat alone in front the games with one seat in front then):"]  # fmt: skip
    for label, value, ci, kind in rows:
        bounds = interval(ci) if kind == "%" else f"[{ci[0]:{kind}}, {ci[1]:{kind}}]"
        lines.append(f"  {label:{width}}  {value}  {bounds}")
    return lines


def _length(x: float) -> str:
    return "not reached" if x == float("inf") else f"{x:g}"


def format_table(rows: list[dict], columns: list[str]) -> str:
    """A plain left-aligned text table."""
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in columns}
    out = ["  ".join(c.ljust(widths[c]) for c in columns).rstrip()]
    out += ["  ".join(str(r[c]).ljust(widths[c]) for c in columns).rstrip() for r in rows]
    return "\n".join(out)


def level_text(level: float) -> str:
    """A confidence level as a person reads it: 95%, 99.29%."""
    return f"{100 * level:.4g}%"


def format_comparison(table, title: str, header: str, alpha: float = 0.05, level: float = 0.95) -> str:
    """The comparison shown by ``snakesim compare``: per metric, each variant's value with its
    interval, and its paired difference from the baseline with the Holm-adjusted p-value.

    Rates (and shares of a game) are in percent, their differences in percentage points, each
    with as many decimals as its interval needs. A metric that is the same in every game of
    every arm gets no rows: the findings say it once."""
    from snakesim.analysis.words import seat_player
    from snakesim.questions.compare import hidden_metrics

    variants = list(dict.fromkeys(table["variant"]))
    lines = [
        title,
        header,
        f"baseline: {variants[0]}; values with their {level_text(level)} intervals; pp: percentage points; "
        "p(Holm): the chance of a difference at least this large if the rules changed nothing, adjusted for the many "
        "figures compared; * marks a difference "
        f"significant at {alpha:g} after Holm's adjustment over every difference tested; each difference's interval "
        "is drawn at its Holm step's level (printed after it), so it excludes 0 exactly when starred; (exact): "
        "McNemar's exact test, for few discordant games (its interval joined with Tango's score interval, which "
        "does not shrink on rare events); pairing xR: the paired interval is R times as wide as "
        "independent runs' would be; the last word weighs the interval against the smallest difference that matters "
        "(a * says only that it is not 0): matters (beyond it), negligible (within it: too small to notice) or "
        "undecided (these games cannot tell)",
        "",
    ]
    shown = table[~table["metric"].isin(hidden_metrics(table))]
    if any(getattr(BY_ID.get(m.partition(".")[0]), "counted", None) is not None for m in set(shown["metric"])):
        # (paired game by game, so over every game: run's summary counts the won ones, and a
        # designer saw 3.17% there against 3.1% here for the same games)
        lines[-1:-1] = ["the winner's figures count every game here, a draw as a game with no comeback, no tie-break "
                        "and no lead taken for good; `run` counts only the games someone won"]  # fmt: skip
    width = max(len(m) for m in shown["label"]) + 2
    for _, rows in shown.groupby("metric", sort=False):
        metric = rows["metric"].iloc[0]
        seat = f" ({seat_player(int(metric.partition('.')[2]))})" if metric.startswith("win_rate.") else ""
        test = BY_ID.get(metric)
        about = f" ({test.about}; small: the seats differ)" if test is not None and test.kind == "test" else ""
        # ("seat 2 wins (the third player)": the words' name; a test's p said in words: a designer met it bare)
        lines.append(rows["label"].iloc[0] + seat + about)
        for _, r in rows.iterrows():
            lines.append(f"  {r['variant']:<{width}}{_comparison_row(r, alpha)}")
    return "\n".join(lines)


def _comparison_row(r, alpha: float) -> str:
    """One arm's value, interval and difference (``snakesim.questions.compare.row_text``), aligned."""
    from snakesim.questions.compare import row_text

    value, diff = row_text(r, alpha)
    return f"{value:>12}" + (f"   {diff}" if diff else "")
