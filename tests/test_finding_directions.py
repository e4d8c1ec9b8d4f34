"""Every compared figure's finding through a rise and a fall: the direction word of its headline
and its sentence, read against a table written here by hand (not taken from the registry, so a
word swapped there or in the findings shows)."""

import math
import re

import pandas as pd
import pytest

from snakesim.analysis.compare import COLUMNS
from snakesim.analysis.verdicts import MATTERS, add_verdicts
from snakesim.core.figures import BY_ID, COMPARED
from snakesim.games import get_game
from snakesim.questions.compare import compare_findings

NAN = math.nan
GAMES = 100_000

# figure id: (its base value, the change, words said of a rise, words said of a fall). The
# change is far beyond what matters for each, so each is a change that matters.
DIRECTIONS = {
    "win_rate": (0.5, 0.1, "more often", "less often"),  # "seat 1 wins [10.0 percentage points] more often"
    "draw": (0.1, 0.05, "draws become more common", "draws become rarer"),
    "unfinished": (0.1, 0.05, "more games reach the turn cap", "fewer games reach the turn cap"),
    "first_player_advantage": (0.05, 0.04, "the first player's edge grows", "the first player's edge shrinks"),
    "length": (100.0, 40.0, "games get 40% longer", "games get 40% shorter"),
    "lead_changes": (4.0, 2.0, "the lead changes hands more often", "the lead changes hands less often"),
    "decided": (0.5, 0.2, "the winner takes the lead for good later", "the winner takes the lead for good earlier"),
    "comeback": (0.3, 0.1, "more winners come from behind", "fewer winners come from behind"),
    "last_tenth": (0.3, 0.1, "more games stay open to the last tenth", "fewer games stay open to the last tenth"),
    "leads_alone_q1": (0.4, 0.1, "more winners already lead alone a quarter of the way in",
                       "fewer winners already lead alone a quarter of the way in"),
    "leads_alone_q2": (0.4, 0.1, "more winners already lead alone half-way",
                       "fewer winners already lead alone half-way"),
    "leads_alone_q3": (0.4, 0.1, "more winners already lead alone three quarters of the way in",
                       "fewer winners already lead alone three quarters of the way in"),
    "out_share": (0.3, 0.1, "players who are out wait longer", "players who are out wait less"),
    "tie_break": (0.2, 0.1, "the tie-break decides more games", "the tie-break decides fewer games"),
    "margin": (5.0, 2.0, "the winner's lead over the next seat grows", "the winner's lead over the next seat shrinks"),
}  # fmt: skip


def _row(variant, metric, value, spread, diff=NAN, width=NAN):
    f = BY_ID[metric.partition(".")[0]]
    kind = "rate" if f.kind == "rate" else "mean"
    out = dict(zip(COLUMNS, [variant, metric, kind, value, value - spread, value + spread, diff, diff - width,
                             diff + width, 1e-30 if diff == diff else NAN, 1e-30 if diff == diff else NAN, "paired t",
                             0.99, NAN, NAN, NAN], strict=True))  # fmt: skip
    out["label"] = f.label.format(seat=metric.partition(".")[2], length="cards drawn", score="points")
    out["unit"] = "points" if metric == "margin" else ""  # (as compare_tables gives a margin: what the rules score)
    return out


def findings(metric: str, sign: int) -> str:
    """The findings of a 2-player comparison where only ``metric`` changes, by its table's
    change in the direction ``sign``; every seat's chance unchanged (unless it is the one that
    moves)."""
    base, change, _, _ = DIRECTIONS[metric.partition(".")[0]]
    diff = sign * change
    rows = []
    for seat in range(2):
        moved = f"win_rate.{seat}" == metric
        rows.append(_row("a", f"win_rate.{seat}", 0.5, 0.01))
        rows.append(_row("b", f"win_rate.{seat}", 0.5 + (diff if moved else 0.0), 0.01, diff if moved else 0.0, 0.002))
    if not metric.startswith("win_rate"):
        rows.append(_row("a", metric, base, base * 0.02))
        rows.append(_row("b", metric, base + diff, base * 0.02, diff, abs(diff) / 10))
    table = pd.DataFrame(rows, columns=[*COLUMNS, "label", "unit"])
    add_verdicts(table, GAMES)
    assert table.loc[table["metric"] == metric, "verdict"].iloc[-1] == MATTERS
    spec = get_game("hisss" if metric in ("tie_break", "margin") else "fortune")
    return "\n".join(f["text"] for f in compare_findings(table, spec, 2, GAMES) if f["arm"] == "b")


METRICS = ["win_rate.1", *(m for m in DIRECTIONS if m != "win_rate")]


def test_the_table_covers_every_compared_figure():
    # A figure added to the registry without its direction words here fails first.
    compared = {f.id for f in COMPARED} | {"margin"}
    assert compared == set(DIRECTIONS)


def said(words: str, text: str) -> int:
    """How often ``words`` stand in ``text`` as words of their own (no letter touching either
    end), as written or with a capital first letter (a sentence's start)."""
    either = f"[{re.escape(words[0])}{re.escape(words[0].upper())}]{re.escape(words[1:])}"
    return len(re.findall(rf"(?<![A-Za-z]){either}(?![A-Za-z])", text))


@pytest.mark.parametrize("metric", METRICS)
def test_a_rise_is_said_as_a_rise(metric):
    _, _, rise, fall = DIRECTIONS[metric.partition(".")[0]]
    text = findings(metric, +1)
    assert said(rise, text) >= 2, text  # the headline and the sentence
    assert fall not in text.lower(), text


@pytest.mark.parametrize("metric", METRICS)
def test_a_fall_is_said_as_a_fall(metric):
    _, _, rise, fall = DIRECTIONS[metric.partition(".")[0]]
    text = findings(metric, -1)
    assert said(fall, text) >= 2, text
    assert rise not in text.lower(), text


def test_the_words_are_found_only_as_written():
    assert said("draws become rarer", "Draws become rarer: x; so draws become rarer.") == 2
    assert said("draws become rarer", "XXdraws become rarerXX and DRAWS BECOME RARER") == 0
