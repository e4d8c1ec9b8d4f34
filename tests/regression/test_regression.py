"""Rules as data changed how the engines read their rules, not the games: every shipped
variant still plays, bit for bit, the games stored from the main before the change. The
game-feel columns were stored later, by the engines before the feel figures were read in
vector passes (issue 44, played with ``feel = true``), so they hold those figures too."""

from pathlib import Path

import numpy as np
import pytest

from snakesim.core.columns import identical
from snakesim.core.feel import COLUMNS as FEEL_COLUMNS
from snakesim.core.feel import OUT_SHARE
from tests.regression.cases import CASES, case_id
from tests.regression.make_tables import play_case

TABLES = np.load(Path(__file__).with_name("tables.npz"))


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_shipped_variants_play_the_stored_games(case):
    out = play_case(case)
    stored = {k.split("/", 1)[1]: TABLES[k] for k in TABLES.files if k.startswith(case_id(case) + "/")}
    assert sorted(stored) == sorted(out)
    for column, values in stored.items():
        assert identical(values, out[column]), f"{case_id(case)}: column {column} differs"


@pytest.mark.parametrize("case", CASES[::7], ids=[case_id(c) for c in CASES[::7]])
def test_without_feel_the_same_games_and_no_figures(case):
    game, variant, settings, players, policies, games = case
    out = play_case((game, variant, (*settings, "feel=false"), players, policies, games))
    feel = {name for name, _, _ in (*FEEL_COLUMNS, OUT_SHARE)}
    for column, values in out.items():
        stored = TABLES[f"{case_id(case)}/{column}"]
        if column in feel:
            assert not identical(values, stored), f"{case_id(case)}: {column} recorded with feel = false"
        else:
            assert identical(values, stored), f"{case_id(case)}: column {column} differs"
