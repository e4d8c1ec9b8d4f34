"""A results table as its users read it: opened in DuckDB, every mean of a figure equals the
run summary's, because a figure the games did not record is no column and a value that does not
apply (no winner, no sole leader, never out) is null, never a -1 or NaN placeholder."""

import duckdb
import pytest

from snakesim.analysis.stats import summarize
from snakesim.core.arms import Budget
from snakesim.core.results import write_table
from snakesim.core.runner import simulate_spec
from snakesim.games import get_game

FEEL = ("lead_changes", "decided", "comeback", "deficit", "leader_q1", "leader_q2", "leader_q3", "tie_break",
        "out_share")  # fmt: skip


def played(game: str, feel: bool, tmp_path):
    spec = get_game(game)
    rules = spec.rules.variant("standard").updated({"feel": feel})
    df = simulate_spec(spec, rules, 3, Budget(1500, 4), "standard")
    path = write_table(df, tmp_path / f"{game}-{feel}.parquet")
    return spec, df, Table(duckdb.connect(), path)


class Table:
    """A Parquet file opened in DuckDB: its columns, and one value a query gives."""

    def __init__(self, con, path):
        self.con, self.path = con, path
        self.columns = [row[0] for row in con.execute(f"describe select * from '{path}'").fetchall()]

    def one(self, sql: str):
        return self.con.execute(f"select {sql} from '{self.path}'").fetchone()[0]


@pytest.mark.parametrize("game", ["fortune", "rainbow", "hisss", "sssnake"])
def test_duckdb_means_are_the_summarys_figures(game, tmp_path):
    spec, df, t = played(game, True, tmp_path)
    s = summarize(df, spec=spec)
    f = s["feel"]
    columns = t.columns
    assert "tie_break" in columns if spec.tie_break else "tie_break" not in columns
    assert t.one("avg(lead_changes)") == pytest.approx(f["lead_changes"]["mean"], abs=1e-12)
    assert t.one("avg(comeback)") == pytest.approx(f["comeback"]["rate"], abs=1e-12)
    assert t.one("avg(deficit)") == pytest.approx(f["deficit"]["mean"], abs=1e-12)
    assert t.one("avg(decided)") == pytest.approx(f["decided"]["mean"], abs=1e-4)  # (the tally's 1/65536ths)
    assert t.one("count(decided)") == t.one("count(winner)")  # (won games only: a draw's winner is null)
    assert t.one("count(*) filter (where winner is null)") == s["games"] - round(sum(s["win_rate"]) * s["games"])
    for k in (1, 2, 3):  # (the leader wins: a question of won games, as every winner's figure is)
        held = t.one(f"avg(case when leader_q{k} = winner then 1 else 0 end) filter (where leader_q{k} is not null "
                     "and winner is not null)")  # fmt: skip
        assert held == pytest.approx(f[f"leader_wins_q{k}"]["rate"], abs=1e-12)
    if spec.tie_break:
        assert t.one("avg(tie_break)") == pytest.approx(f["tie_break"]["rate"], abs=1e-12)
    if spec.out_column:
        assert t.one("avg(out_share)") == pytest.approx(f["out_share"]["mean"], abs=1e-4)
        assert t.one("min(out_at_0)") >= 1  # (never out: null, not -1)
    # No placeholder anywhere: every figure's smallest value is a real one.
    for name in ("winner", "comeback", "deficit", "leader_q1", "leader_q2", "leader_q3",
                 *(["tie_break"] * spec.tie_break)):  # fmt: skip
        assert t.one(f"min({name})") >= 0, name
    assert t.one("avg(length)") == pytest.approx(s["length"]["mean"], abs=1e-9)


@pytest.mark.parametrize("game", ["fortune", "rainbow", "hisss", "sssnake"])
def test_a_table_without_feel_has_no_feel_columns(game, tmp_path):
    spec, df, t = played(game, False, tmp_path)
    assert not set(FEEL) & set(t.columns) and not set(FEEL) & set(df.columns)
    assert t.one("avg(length)") == pytest.approx(summarize(df, spec=spec)["length"]["mean"], abs=1e-9)
