"""The one tidy shape every kind of question's numbers take in a study's ``summary.csv``.

Each kind's ``rows(answer)`` gives one row per rule set (and line-up), figure and set of games,
in the columns below; a column means the same thing in every section, and is empty where it
does not apply. The columns' reference (docs/reference/columns.md) is written from
:data:`COLUMNS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from snakesim.core.registry import GameSpec

# Every column, in its order, with what it holds.
COLUMNS = {
    "section": "the report's section the row belongs to (`compare-1`, `sweep-2`, ...)",
    "question": "the kind of question the section asks (`compare`, `sweep`, `balance`, `tune`, `design`, `skill`, ...)",
    "rules": "the rule set the row is about: a comparison's rule set by its name, a sweep's point, a search's "
    "candidate or answer as `OPTION=VALUE`",
    "rules_hash": "the hash of that rule set's complete rules (empty where the section does not record it: a "
    "tune's values and a design's rule sets on the search's games)",
    "players": "the number of players at the table",
    "lineup": "who sits at the table when the question chooses it: a skill line-up (`expert among greedy`), or "
    "`novices` for a balance's check with novice players; empty: the rule set's own players",
    "metric": "the figure's id (`win_rate.0`, `length`, `length.median`, `seat_gap`, `skill_share`, ...; see "
    "the figures' reference)",
    "label": "the figure in words",
    "value": "the figure's estimate",
    "low": "the lower end of its 95% interval (empty: none)",
    "high": "the upper end of its 95% interval",
    "unit": "what `value` is counted in (`fraction` for a share; empty: the figure's own unit)",
    "games": "the games the value was taken on",
    "fresh": "true when those are fresh games that did not choose the rule set (a search's confirmation), false "
    "for the games a search chose on; empty outside searches",
    "status": "what the question concluded about the row: a design's `meets`, `near`, `edge`, `misses`, `beaten` or "
    "`undecided`; a tune's `candidate` or `answer`; a balance's `as written`, `recommended` or `candidate`; a "
    "skill share's verdict in words",
    "diff": "a comparison's difference from the first rule set, game by game on the same games",
    "diff_low": "the lower end of the difference's interval (at `diff_level`)",
    "diff_high": "the upper end of the difference's interval",
    "diff_level": "the difference's interval's level (lower than 95% when several rows are judged at once)",
    "p_value": "the difference's p-value",
    "p_holm": "that p-value adjusted for every row of the comparison (Holm)",
    "test": "the test behind the difference's interval",
    "unpaired_width": "the width the difference's interval would have on independent games",
    "pairing_ratio": "the paired interval's width over the unpaired one",
    "games_saved": "the games the pairing saved for that width",
    "margin": "the smallest difference that matters for the figure, in `unit`",
    "verdict": "a comparison's verdict on the difference against `margin`: `matters`, `negligible` or "
    "`undecided`; `baseline` for the first rule set's rows, `not compared` for a row that describes each rule set "
    "on its own",
    "settle_games": "the games each rule set needs to settle an undecided verdict",
}


def tidy(question: str, frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (a kind's rows) in the shared columns and their order, ``question`` filled in.

    Raises ValueError on a column the shape does not have, so a kind cannot slip a column of
    its own into every study's table.
    """
    unknown = [c for c in frame.columns if c not in COLUMNS]
    if unknown:
        raise ValueError(f"{question}: rows with columns outside the shared shape: {', '.join(unknown)}")
    return frame.assign(question=question).reindex(columns=[c for c in COLUMNS if c != "section"])


def summary_table(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """A study's ``summary.csv``: every section's rows (each with its ``section``), in the
    shared columns, counts as integers and ``fresh`` as true, false or empty."""
    import pandas as pd

    out = pd.concat(parts, ignore_index=True).reindex(columns=list(COLUMNS))
    return out.astype({"players": "Int64", "games": "Int64", "settle_games": "Int64", "fresh": "boolean"})


def seat_rows(rates, cis=None) -> list[dict]:
    """Each seat's win rate as rows of the shared shape (``metric``, ``label``, ``value``, its
    interval from ``cis`` where given, ``unit``)."""
    from snakesim.core.figures import BY_ID

    wins = BY_ID["win_rate"]
    return [{"metric": wins.row(k), "label": wins.label.format(seat=k), "value": rate,
             **({"low": cis[k][0], "high": cis[k][1]} if cis is not None else {}), "unit": "fraction"}
            for k, rate in enumerate(rates)]  # fmt: skip


def target_words(spec: GameSpec, metric: str) -> tuple[str, str]:
    """A search's target (``length.median``, ``draw.share``, ``win_rate.2``, ``seat_gap``,
    ``means.COLUMN``) in words and its unit, from the figure registry: ``("length median
    (Kaplan-Meier)", "turns")``."""
    from snakesim.analysis.compare import unit_of
    from snakesim.core.figures import BY_ID, target_figure

    name, _, part = metric.partition(".")
    if name in ("win_rate", "seat_gap"):
        return BY_ID[name].text(spec, int(part) if part else None), "fraction"
    found = target_figure(metric)
    if found is None:
        return f"mean of the table's {part}", ""
    return found.text(spec, None), unit_of(spec, found.id, found.kind)
