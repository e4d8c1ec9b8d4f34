"""A comparison's exact tallies (snakesim.analysis.tallies): the games split into blocks anywhere
give the same integers, so the same rows bit for bit, in every game; and a comparison extended
from a kept tally equals the one that plays every game (what the catalogue's longer questions
rest on)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakesim.analysis.compare import compare_tally, compare_variants
from snakesim.analysis.tallies import dumps, exact, idot, isum, loads, merge, tally_tables
from snakesim.cli.format import to_json
from snakesim.core.arms import Budget, RuleSource
from snakesim.games import get_game

ARMS = {"fortune": ("standard", "one-snake"), "rainbow": ("standard", "wild-snake"),
        "hisss": ("standard", "most-snakes"), "sssnake": ("standard", "no-ones")}  # fmt: skip


@pytest.fixture(scope="module", params=sorted(ARMS))
def played(request):
    spec = get_game(request.param)
    games = 300 if spec.name == "sssnake" else 1000
    _, tables = compare_variants(spec, 3, list(ARMS[spec.name]), Budget(games, 7), RuleSource())
    return spec, tables


@pytest.mark.parametrize("cut", [1, 137, 299])
def test_any_split_of_the_games_gives_the_same_tally_and_rows(played, cut):
    spec, tables = played
    whole = tally_tables(spec, tables)
    first = tally_tables(spec, {name: df.iloc[:cut] for name, df in tables.items()})
    rest = tally_tables(spec, {name: df.iloc[cut:] for name, df in tables.items()})
    merged = merge(first, rest)
    assert dumps(merged) == dumps(whole)
    pd.testing.assert_frame_equal(compare_tally(spec, merged), compare_tally(spec, whole), check_exact=True)
    # What the catalogue keeps reads back as it was: the same rows.
    again = loads(dumps(whole))
    pd.testing.assert_frame_equal(compare_tally(spec, again), compare_tally(spec, whole), check_exact=True)


def test_a_comparison_extended_from_its_first_games_equals_one_of_every_game():
    from snakesim.questions import compare as question

    short = question.ask("fortune", 4, ["standard", "rejoin"], Budget(1500, 5), RuleSource())
    whole = question.ask("fortune", 4, ["standard", "rejoin"], Budget(4000, 5), RuleSource())
    assert short.games_key() == whole.games_key() and short.key() != whole.key()
    kept = question.play(short)
    extended = question.extend(whole, loads(dumps(kept.tally)), 1500)
    fresh = question.play(whole)
    assert len(next(iter(extended.tables.values()))) == 2500  # (only the games it lacked were played)
    pd.testing.assert_frame_equal(extended.table, fresh.table, check_exact=True)
    assert extended.findings == fresh.findings and extended.settle == fresh.settle
    assert to_json(question.summary(extended)) == to_json(question.summary(fresh))  # (every number, as printed)
    # What decides the games, and only that, is in the games' key: not what matters, not their number.
    other = question.ask("fortune", 4, ["standard", "rejoin"], Budget(1500, 6), RuleSource())
    judged = question.ask("fortune", 4, ["standard", "rejoin"], Budget(1500, 5), RuleSource(), matters="length=10%")
    assert other.games_key() != short.games_key() and judged.games_key() == short.games_key()
    watched = question.ask("fortune", 4, ["standard", "rejoin"], Budget(1500, 5, precision=0.01), RuleSource())
    assert watched.games_key() is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2**61), 2**61), max_size=50), st.lists(st.integers(-(2**61), 2**61), max_size=50))
def test_exact_sums_are_exact(a, b):
    n = min(len(a), len(b))
    x, y = np.array(a[:n], dtype=np.int64), np.array(b[:n], dtype=np.int64)
    assert isum(x) == sum(a[:n]) and idot(x, y) == sum(p * q for p, q in zip(a[:n], b[:n], strict=True))


def test_a_share_of_a_game_is_kept_on_its_exact_scale():
    ints, scale = exact("decided", np.array([0.25, 1 / 3, 1.0, 0.0]), 4)
    assert scale == 2**60 and abs(ints[1] / scale - 1 / 3) <= 2**-61 and ints[0] == 2**58
    assert exact("first_player_advantage", np.array([1 - 1 / 3, -1 / 3]), 3) == (pytest.approx([2, -1]), 3)
    with pytest.raises(ValueError, match="from 0 to 1"):
        exact("decided", np.array([1.5]), 4)
