"""Every study's hand-written conclusion agrees with its numbers: each comparison in
``analyses/`` says in ``claims`` what its conclusion says of each rule set, and the verdicts of
the committed report (``reports/NAME/summary.csv``) bear every claim out. A rule set the
conclusion calls no difference has no ``matters`` verdict; a change it names matters."""

from pathlib import Path

import pandas as pd
import pytest

from snakesim.report.study import check_claims, load_study

ROOT = Path(__file__).parents[1]
STUDIES = sorted((ROOT / "analyses").glob("*.toml"))


def test_there_are_studies():
    assert len(STUDIES) >= 6


@pytest.mark.parametrize("path", STUDIES, ids=lambda p: p.stem)
def test_the_conclusions_claims_hold_in_the_report(path):
    study = load_study(path)
    summary = pd.read_csv(ROOT / "reports" / path.stem / "summary.csv", low_memory=False)
    for k, section in enumerate(study.get("compare", [])):
        assert section.get("claims"), f"{path.name}: compare[{k}] says nothing of its rule sets (claims)"
        rows = summary[summary["section"] == f"compare-{k + 1}"]
        assert {"margin", "verdict"} <= set(rows.columns) and rows["verdict"].notna().all()
        assert check_claims(rows, section["claims"]) == [], f"{path.name}: compare[{k}]"


def test_a_claim_the_verdicts_contradict_is_found():
    rows = pd.DataFrame({"rules": ["a", "b", "b", "b"], "metric": ["length", "length", "win_rate.0", "draw"],
                         "verdict": ["baseline", "matters", "negligible", "undecided"]})  # fmt: skip
    assert check_claims(rows, {"b": "nothing"}) == [
        "b: said to change nothing that matters, but length changes by as much as matters"
    ]
    assert check_claims(rows, {"b": ["length"]}) == []
    assert check_claims(rows, {"b": {"matters": ["win_rate"], "not": ["length"]}}) == [
        "b: said to change win_rate, but its verdict is negligible",
        "b: said not to change length, but it changes by as much as matters",
    ]
    assert check_claims(rows, {"c": "nothing"}) == ["c: no such rule set in this comparison"]
