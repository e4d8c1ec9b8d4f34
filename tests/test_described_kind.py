"""A kind of question that describes itself is answered by every door with no code of its own:
registered by this test alone (a tally of one seat's wins), it is asked through a study file,
the workbench's HTTP API and ``snakesim.ask``, and each gives the same findings."""

import types
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import snakesim
from snakesim.cli import cli
from snakesim.core.arms import Budget
from snakesim.core.rules import Int, Rules
from snakesim.core.runner import simulate_spec
from snakesim.questions import QUESTIONS, described
from snakesim.questions.base import Question, budget_json, identity, rule_set, spec_of
from snakesim.questions.rows import COLUMNS as SUMMARY_COLUMNS
from snakesim.questions.rows import tidy
from snakesim.workbench.jobs import Limits
from snakesim.workbench.serve import Workbench
from tests.test_workbench import call, wait


def tally_question() -> types.ModuleType:
    """A kind of question in a dozen lines: how often one seat wins."""
    q = types.ModuleType("tally")
    q.KIND, q.TITLE, q.FIELDS = "tally", "How often one seat wins", {"seat": (int, 0)}

    @dataclass(frozen=True)
    class Plan(Question):
        players: int
        rules: Rules
        seats: tuple
        budget: Budget
        seat: int = 0

        def key(self):
            return identity("tally", game=self.game, players=self.players, rules=self.rules.rules_hash(),
                            seats=list(self.seats), budget=budget_json(self.budget), seat=self.seat)  # fmt: skip

    @dataclass(frozen=True)
    class Answer:
        plan: Plan
        wins: tuple
        findings: list = field(default_factory=list)

    def ask(game, players, budget, *, source, seat=0):
        spec = spec_of(game)
        _, rules, seats = rule_set(spec, players, budget.seed, source)
        return Plan(spec.name, players, rules, seats, budget, Int(0, players - 1).check("seat", seat))

    def play(plan, *, backend=None, progress=False):
        table = simulate_spec(plan.spec, plan.rules, plan.players, plan.budget, policies=plan.seats, backend=backend)
        winner = table["winner"].to_numpy()
        wins = tuple(int(n) for n in np.bincount(winner[winner >= 0], minlength=plan.players))
        return Answer(plan, wins, [f"Seat {plan.seat} wins {wins[plan.seat]:,} of {plan.budget.games:,} games."])

    q.ask, q.play, q.Plan, q.Answer = ask, play, Plan, Answer

    def rows(answer):
        seats = range(len(answer.wins))
        return pd.DataFrame({"metric": [f"wins.{k}" for k in seats], "label": [f"seat {k}'s wins" for k in seats],
                             "value": answer.wins, "unit": "games", "games": answer.plan.budget.games})  # fmt: skip

    q.rows = rows
    return q


@pytest.fixture()
def tally(monkeypatch):
    q = tally_question()
    monkeypatch.setitem(QUESTIONS, "tally", q)
    return q


def test_a_kind_registered_alone_is_answered_by_every_door(tally, tmp_path):
    assert described() == {"tally": tally}
    answer = snakesim.ask("tally", "fortune", 3, games=400, seed=5, seat=1)
    assert sum(answer.wins) <= 400 and answer.findings == [f"Seat 1 wins {answer.wins[1]:,} of 400 games."]
    # a study file
    study = tmp_path / "s.toml"
    study.write_text('title = "t"\nquestion = "q"\ngame = "fortune"\nseed = 5\n\n[[tally]]\nplayers = 3\n'
                     "games = 400\nseat = 1\n")  # fmt: skip
    r = CliRunner().invoke(cli, ["study", str(study), "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    assert answer.findings[0] in (tmp_path / "out" / "report.md").read_text()
    summary = pd.read_csv(tmp_path / "out" / "summary.csv")
    assert summary["value"].tolist() == list(answer.wins) and set(summary["section"]) == {"tally-1"}
    assert list(summary.columns) == list(SUMMARY_COLUMNS) and set(summary["question"]) == {"tally"}
    # the workbench's HTTP API
    server = Workbench(limits=Limits(max_games=20_000, max_runs=1, max_arms=4)).start()
    try:
        request = {"kind": "tally", "game": "fortune", "players": 3, "games": 400, "seed": 5, "seat": 1,
                   "arm": {"name": "standard", "toml": ""}}  # fmt: skip
        status, _, started = call(server, "POST", "/api/runs", request)
        assert status == 202, started
        job = wait(server, started["id"])
        assert job["state"] == "done" and [f["text"] for f in job["result"]["findings"]] == answer.findings
        assert [row["value"] for row in job["result"]["rows"]] == list(answer.wins)
        status, _, error = call(server, "POST", "/api/runs", {**request, "seat": 3})
        assert status == 400 and error["error"] == "seat: expected an integer from 0 to 2, got 3"
        # the page's list of panels carries its description, from which the page draws its section
        _, _, games = call(server, "GET", "/api/games")
        assert games["panels"][-1] == {"kind": "tally", "noun": "how often one seat wins", "title": tally.TITLE,
                                       "script": "panel-described.js", "games": 1000,
                                       "fields": [{"name": "seat", "type": "int", "default": 0}]}  # fmt: skip
        # kept: the report names its findings, and the study file it gives asks the same question again
        status, _, html = call(server, "GET", f"/api/report?tally={started['id']}")
        assert status == 200 and answer.findings[0] in html
        status, _, text = call(server, "POST", "/api/download/study", {"tally": {**request, "feel": False}})
        assert status == 200 and "[[tally]]" in text and "seat = 1" in text
        kept = tmp_path / "kept.toml"
        kept.write_text(text)
        r = CliRunner().invoke(cli, ["study", str(kept), "--out", str(tmp_path / "kept")])
        assert r.exit_code == 0, r.output
        assert answer.findings[0] in (tmp_path / "kept" / "report.md").read_text()
    finally:
        server.stop()


def test_a_described_kinds_bad_input_is_one_line_naming_its_field(tally, tmp_path):
    study = tmp_path / "s.toml"
    study.write_text('title = "t"\nquestion = "q"\ngame = "fortune"\n\n[[tally]]\nplayers = 3\nseat = 5\n')
    r = CliRunner().invoke(cli, ["study", str(study), "--out", str(tmp_path / "out")])
    assert (
        r.exit_code == 2
        and r.stderr.strip() == "snakesim: error: tally[0]: seat: expected an integer from 0 to 2, got 5"
    )
    study.write_text('title = "t"\nquestion = "q"\ngame = "fortune"\n\n[[tally]]\nplayers = 3\nseat = "one"\n')
    r = CliRunner().invoke(cli, ["study", str(study), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and r.stderr.strip() == "snakesim: error: tally[0].seat: expected an integer, got 'one'"
    with pytest.raises(snakesim.InputError, match=r"^kind: expected one of tally, got 'nosuch'$"):
        snakesim.ask("nosuch", "fortune", 3)


def test_a_kinds_rows_keep_to_the_shared_columns(tally):
    """A kind cannot slip a column of its own into every study's summary.csv."""
    answer = snakesim.ask("tally", "fortune", 3, games=50, seed=5, seat=1)
    shaped = tidy("tally", tally.rows(answer))
    assert list(shaped.columns) == [c for c in SUMMARY_COLUMNS if c != "section"]
    with pytest.raises(ValueError, match="tally: rows with columns outside the shared shape: seat"):
        tidy("tally", tally.rows(answer).assign(seat=0))
