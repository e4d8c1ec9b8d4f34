"""``snakesim results export ID``: a kept answer's tables as Parquet, and a comparison's games
played again, the answer's own games (each rule set's win rates from its per-game table are
the kept rows' numbers), all written together or none."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest
from click.testing import CliRunner

from snakesim.cli import cli
from snakesim.core.errors import InputError
from snakesim.questions import catalogue as catalogue_module
from snakesim.questions.exported import rule_sets, tables

ASK = ["compare", "fortune", "-p", "3", "-n", "1500", "--seed", "4", "-v", "standard", "-v", "one-snake",
       "--set", "start_coins=6"]  # fmt: skip


def run(*args, home):
    return CliRunner().invoke(cli, [str(a) for a in args], env={**os.environ, "SNAKESIM_HOME": str(home)})


def test_a_comparison_exports_its_rows_and_its_own_games_played_again(tmp_path):
    said = json.loads(run(*ASK, "--json", home=tmp_path).output)
    r = run("results", "export", "1", "--out", tmp_path / "t", home=tmp_path)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == f"4 Parquet files written to {tmp_path / 't'}:"
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == [
        "findings.parquet", "games-one-snake.parquet", "games-standard.parquet", "rows.parquet"]  # fmt: skip
    rows = pd.read_parquet(tmp_path / "t" / "rows.parquet")
    expected = pd.json_normalize(said["rows"]).fillna(float("nan"))
    pd.testing.assert_frame_equal(rows, expected, check_dtype=False)
    for label in ("standard", "one-snake"):
        games = pd.read_parquet(tmp_path / "t" / f"games-{label}.parquet")
        assert len(games) == 1500 and list(games["game"]) == list(range(1500))
        for seat in range(3):
            kept = rows[(rows["variant"] == label) & (rows["metric"] == f"win_rate.{seat}")]["value"].item()
            assert int((games["winner"] == seat).sum()) == round(kept * 1500)


def test_an_answer_by_older_code_exports_its_tables_but_plays_no_games(tmp_path, monkeypatch):
    assert run(*ASK, home=tmp_path).exit_code == 0
    monkeypatch.setattr(catalogue_module, "_VERSION", "0" * 16)
    r = run("results", "export", "1", "--out", tmp_path / "t", home=tmp_path)
    assert r.exit_code == 0, r.output
    assert "played by an older version of the games' code, so its games are not played again" in r.stderr
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == ["findings.parquet", "rows.parquet"]


def test_a_search_exports_the_tables_its_answer_holds(tmp_path):
    tune = ["tune", "fortune", "--vary", "start_coins=5:30", "-n", "500", "--max-games", "1000", "--confirm-games",
            "500", "--target", "length.median=60"]  # fmt: skip
    said = json.loads(run(*tune, "--json", home=tmp_path).output)
    assert run("results", "export", "1", "--out", tmp_path / "t", home=tmp_path).exit_code == 0
    path = pd.read_parquet(tmp_path / "t" / "path.parquet")
    assert len(path) == len(said["path"]) and list(path["value"]) == [p["value"] for p in said["path"]]
    assert not any(p.name.startswith("games-") for p in (tmp_path / "t").iterdir())


@pytest.mark.parametrize(
    ("args", "field"),
    [(["export", "7"], "ID"), (["export", "1", "--out", "afile"], "--out"), (["export", "x"], "ID")],
)
def test_bad_exports_get_one_line_and_write_nothing(tmp_path, monkeypatch, args, field):
    monkeypatch.chdir(tmp_path)
    assert run(*ASK, home=tmp_path).exit_code == 0
    (tmp_path / "afile").write_text("mine")
    before = sorted(p.name for p in tmp_path.iterdir())
    r = run("results", *args, home=tmp_path)
    assert r.exit_code == 2 and field in r.output and r.output.strip().count("\n") == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before and (tmp_path / "afile").read_text() == "mine"


def test_rules_that_do_not_rebuild_to_their_hash_are_never_played(tmp_path):
    said = json.loads(run(*ASK, "--json", home=tmp_path).output)
    said["options"]["one-snake"]["snakes"] = 2  # (as if the game's options had changed meaning)
    with pytest.raises(InputError, match="do not rebuild to the answer's own"):
        rule_sets(said)


def test_tables_at_any_depth_are_found_and_named_by_their_path():
    """A workbench answer keeps its page's result: its tables are ``result.rows`` and so on."""
    kept = {"request": {"arms": [{"name": "standard", "toml": ""}]},
            "result": {"rows": [{"arm": "standard", "metric": "win_rate.0", "value": 0.25, "ci": [0.2, 0.3]}],
                       "findings": [], "note": "x"}}  # fmt: skip
    found = tables(kept)
    assert sorted(found) == ["request.arms", "result.rows"]
    assert found["result.rows"].to_dict("records") == [
        {"arm": "standard", "metric": "win_rate.0", "value": 0.25, "ci": "[0.2, 0.3]"}]  # fmt: skip
