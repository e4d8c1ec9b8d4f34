"""The figure registry (snakesim/core/figures.py): every figure named once, and a figure added
there alone (last_tenth) shows up in every output: a run's summary and its JSON, a comparison's
paired rows, its findings, a sweep, a tune target, a study's report and the workbench."""

import re

import numpy as np
import pytest

import snakesim
from snakesim.analysis.compare import compare_variants
from snakesim.analysis.search import check_metric, metric_value
from snakesim.analysis.stats import summarize
from snakesim.analysis.sweep import sweep
from snakesim.core.arms import Budget, RuleSource
from snakesim.core.columns import winners
from snakesim.core.figures import COMPARED, FIGURES, SUMMARISED, targets
from snakesim.games import get_game
from snakesim.questions.compare import compare_findings

HISSS = get_game("hisss")


def test_every_figure_is_named_once():
    ids = [f.id for f in FIGURES]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids)
    labels = [f.label for f in FIGURES]
    assert len(labels) == len(set(labels))
    assert {f.kind for f in FIGURES} <= {"rate", "mean", "quantile", "test"}
    for f in (*COMPARED, *SUMMARISED):
        assert f.values is not None and f.kind in ("rate", "mean"), f.id
    for f in COMPARED:  # (a finding about a figure needs its words, but for those said in their own way)
        assert f.words is not None or f.id in (
            "win_rate",
            "draw",
            "unfinished",
            "first_player_advantage",
            "length",
            "leads_alone_q1",
            "leads_alone_q2",
            "leads_alone_q3",
        ), f.id


@pytest.fixture(scope="module")
def compared():
    return compare_variants(HISSS, 3, ["standard", "most-snakes"], Budget(4000, 2), RuleSource(options={"feel": True}))


def last_tenth(df) -> np.ndarray:
    """The figure by hand, off a results table: won, and decided at 0.9 or later."""
    return (df["winner"].notna() & (df["decided"].fillna(0.0) >= 0.9)).to_numpy(dtype=bool)


def test_last_tenth_is_in_the_run_summary_and_its_json(compared):
    _, tables = compared
    df = tables["standard"]
    f = summarize(df, spec=HISSS)["feel"]["last_tenth"]
    won = df["winner"].notna().to_numpy()
    assert f["games"] == won.sum() and f["rate"] == pytest.approx(last_tenth(df)[won].mean(), abs=1e-12)
    assert f["ci"][0] < f["rate"] < f["ci"][1]
    from click.testing import CliRunner

    from snakesim.cli import cli

    out = CliRunner().invoke(cli, ["run", "hisss", "-p", "3", "-n", "500", "--set", "feel=true"])
    assert "the winner leads for good only in the last tenth" in out.output


def test_last_tenth_is_a_paired_row_of_every_comparison_and_a_finding(compared):
    table, tables = compared
    rows = table.set_index(["variant", "metric"])
    for arm, df in tables.items():
        assert rows.loc[(arm, "last_tenth"), "value"] == pytest.approx(last_tenth(df).mean(), abs=1e-12)
    row = rows.loc[("most-snakes", "last_tenth")]
    by_hand = last_tenth(tables["most-snakes"]).mean() - last_tenth(tables["standard"]).mean()
    assert row["diff"] == pytest.approx(by_hand, abs=1e-12) and row["p_holm"] < 0.05
    assert row["label"] == "winner takes the lead for good only in the last tenth"
    said = [f["text"] for f in compare_findings(table, HISSS, 3, 4000)]
    assert any(s.startswith("More games stay open to the last tenth:") for s in said), said


def test_last_tenth_is_swept_and_tuned():
    table = sweep(HISSS, [3], ["points_per_snake=0:2:2", "feel=true"], Budget(500, 0))
    assert set(table[table["metric"] == "last_tenth"]["points_per_snake"]) == {0, 2}
    assert "last_tenth.share" in targets(HISSS) and check_metric(HISSS, 3, "last_tenth.share") == "last_tenth.share"
    df = snakesim.simulate("hisss", 3, 800, seed=3, feel=True)
    columns = {"winner": winners(df), "decided": df["decided"].to_numpy(dtype=float, na_value=np.nan)}
    share, low, high = metric_value(columns, "last_tenth.share")
    won = columns["winner"] >= 0
    assert share == pytest.approx(last_tenth(df)[won].mean(), abs=1e-12) and low < share < high


def test_last_tenth_is_in_the_reports_and_the_workbench(tmp_path):
    from snakesim.report.study import run_study
    from snakesim.workbench.jobs import Limits
    from snakesim.workbench.runs import check_request, play

    study = tmp_path / "s.toml"
    study.write_text('title = "t"\nquestion = "q"\ngame = "hisss"\n\n[[compare]]\nplayers = 3\ngames = 600\n'
                     'set = ["feel=true"]\nvariants = ["standard", "most-snakes"]\n')  # fmt: skip
    report = run_study(study, tmp_path / "out")
    assert "winner takes the lead for good only in the last tenth" in (report / "report.md").read_text()
    request = {
        "kind": "compare",
        "game": "hisss",
        "players": 3,
        "games": 600,
        "feel": True,
        "arms": [{"name": "standard", "toml": ""}, {"name": "most", "toml": "points_per_card = 0\n"}],
    }
    job, plan = check_request(request, Limits())
    result = play(job, plan)
    assert any(r["metric"] == "last_tenth" and r["diff"] for r in result["rows"])


def test_a_blocks_tally_counts_a_rates_yes_games_and_sums_squares_of_means_only():
    from snakesim.core.feel import FIXED
    from snakesim.core.figures import SUMMARISED, games_of, tally

    spec = get_game("fortune")
    columns = spec.play_block(spec.rules(), 3, 5, 0, 500)
    sums, squares = tally(spec, columns, 3)
    games = games_of(spec, columns, 3)
    assert sums["feel.games"] == 500
    for f in SUMMARISED:
        if not f.exists(spec):  # (Fortune has no tie-break)
            assert f"feel.{f.id}.games" not in sums, f.id
            continue
        counted = f.counted(games) if f.counted is not None else np.ones(500, bool)
        values = np.asarray(f.values(games))[counted]
        assert sums[f"feel.{f.id}.games"] == int(counted.sum()), f.id
        if f.kind == "rate":
            assert sums[f"feel.{f.id}"] == int(np.count_nonzero(values)) and f"feel.{f.id}" not in squares, f.id
        else:
            scale = FIXED if f.unit == "share" else 1
            ints = np.round(values * scale).astype(np.int64)
            assert sums[f"feel.{f.id}"] == int(ints.sum()) and squares[f"feel.{f.id}"] == int((ints * ints).sum()), f.id
    plain = spec.play_block(spec.rules().updated({"feel": False}), 3, 5, 0, 50)
    assert tally(spec, plain, 3) == ({}, {})  # (no feel recorded: nothing to tally)


def test_a_rows_words_fill_in_the_games_units_and_the_score_given():
    from snakesim.core.figures import label

    fortune = get_game("fortune")
    assert label("length", fortune) == "length (cards drawn)" and label("win_rate.2", fortune) == "seat 2 wins"
    assert label("margin", fortune, "points") == "margin (points)" and label("margin", fortune) == "margin ()"
