"""Rules as data changed how the engines read their rules, not the games: every shipped
variant still plays, bit for bit, the games stored from the main before the change."""

from pathlib import Path

import numpy as np
import pytest

from snakesim.core.columns import identical
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
