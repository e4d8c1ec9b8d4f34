"""One question, every door: a question asked through the command line, the API, a study file
and the workbench is one plan (the same identity) and gets the same answer, number for number
and word for word."""

import io
import json

import pandas as pd
import pytest
from click.testing import CliRunner

import snakesim
from snakesim.analysis.verdicts import parse_matters
from snakesim.cli import cli
from snakesim.core.arms import Budget, RuleSource
from snakesim.core.rules import as_toml
from snakesim.games import get_game
from snakesim.questions import QUESTIONS
from snakesim.questions import balance as balance_question
from snakesim.questions import compare as question
from snakesim.questions import design as design_question
from snakesim.questions import run as run_question
from snakesim.questions import skill as skill_question
from snakesim.questions import sweep as sweep_question
from snakesim.questions import tune as tune_question
from snakesim.questions.rows import summary_table
from snakesim.report.study import plan_section
from snakesim.workbench.jobs import Limits
from snakesim.workbench.runs import check_request
from snakesim.workbench.runs import play as play_request

FORTUNE = get_game("fortune")
# One comparison: 3-player Fortune, the standard game against one SNAKE card, 3,000 games of
# seed 5, lengths 5% apart counting as a difference that matters.
GAMES, SEED, MATTERS = 3000, 5, "length=5%"


def workbench_request() -> dict:
    one_snake = FORTUNE.rules.variant("one-snake").changes()
    return {"kind": "compare", "game": "fortune", "players": 3, "games": GAMES, "seed": SEED, "matters": MATTERS,
            "arms": [{"name": "standard", "toml": ""}, {"name": "one-snake", "toml": as_toml(one_snake)}]}  # fmt: skip


def study_section() -> dict:
    return {"players": 3, "games": GAMES, "variants": ["standard", "one-snake"], "matters": MATTERS}


def ask_study(tmp_path, game: str, section: str, matters: str | None = None) -> tuple[str, pd.DataFrame]:
    """A study file of one ``section`` of ``game`` (seed 5), asked through ``snakesim study``:
    its report in Markdown and its summary table."""
    study = tmp_path / "s.toml"
    head = f'title = "t"\nquestion = "q"\ngame = "{game}"\nseed = {SEED}\n'
    study.write_text(head + (f'matters = "{matters}"\n' if matters else "") + "\n" + section)
    r = CliRunner().invoke(cli, ["study", str(study), "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    return (tmp_path / "out" / "report.md").read_text(), pd.read_csv(tmp_path / "out" / "summary.csv")


def assert_study_rows(summary: pd.DataFrame, section: str, rows: pd.DataFrame) -> None:
    """A study's summary.csv rows of ``section`` are the kind's rows view, written and read back
    as the study writes every section's."""
    written = summary_table([rows.assign(section=section)]).to_csv(index=False)
    got = summary[summary["section"] == section].reset_index(drop=True)
    pd.testing.assert_frame_equal(got, pd.read_csv(io.StringIO(written)), check_dtype=False, rtol=1e-12)


def test_each_question_is_registered_by_its_kind():
    kinds = {"run": run_question, "compare": question, "balance": balance_question, "tune": tune_question,
             "design": design_question, "skill": skill_question, "sweep": sweep_question}  # fmt: skip
    assert QUESTIONS == kinds and all(m.KIND == kind for kind, m in kinds.items())


def test_a_comparison_is_one_plan_whichever_door_asks_it():
    asked = question.ask("fortune", 3, ["standard", "one-snake"], Budget(GAMES, SEED), matters=MATTERS)
    study = plan_section(FORTUNE, "compare", study_section(), seed=SEED)
    _, plan = check_request(workbench_request(), Limits())
    assert study == asked and plan.question.key() == asked.key()
    assert hash(study) == hash(asked)
    assert len(asked.key()) == 16 and int(asked.key(), 16) >= 0
    # each input the answer depends on changes the identity
    others = [
        question.ask("fortune", 3, ["standard", "one-snake"], Budget(GAMES, SEED + 1), matters=MATTERS),
        question.ask("fortune", 3, ["standard", "one-snake"], Budget(GAMES + 1, SEED), matters=MATTERS),
        question.ask("fortune", 4, ["standard", "one-snake"], Budget(GAMES, SEED), matters=MATTERS),
        question.ask("fortune", 3, ["standard", "rejoin"], Budget(GAMES, SEED), matters=MATTERS),
        question.ask("fortune", 3, ["standard", "one-snake"], Budget(GAMES, SEED), matters="length=6%"),
        question.ask("fortune", 3, ["standard", "one-snake"], Budget(GAMES, SEED)),
        question.ask("fortune", 3, ["standard", "one=one-snake"], Budget(GAMES, SEED), matters=MATTERS),
        question.ask("fortune", 3, ["standard", "one-snake"], Budget(GAMES, SEED, precision=0.01), matters=MATTERS),
    ]
    assert len({asked.key(), *(o.key() for o in others)}) == 1 + len(others)


def test_a_comparisons_bad_input_is_one_error_for_every_door():
    with pytest.raises(snakesim.InputError) as err:
        question.ask("fortune", 3, ["standard", "nosuch"], Budget(GAMES, SEED))
    assert str(err.value).startswith("variant: unknown variant 'nosuch'")
    with pytest.raises(snakesim.InputError, match=r"^--max-games: expected at least --games"):
        question.ask("fortune", 3, ["standard"], Budget(GAMES, SEED, precision=0.01, max_games=10))
    with pytest.raises(snakesim.InputError, match=r"^--precise: unknown row kind 'bogus'"):
        question.ask("fortune", 3, ["standard"], Budget(GAMES, SEED), precise=("bogus",))


def test_a_comparison_gets_the_same_answer_from_every_door(tmp_path):
    answer = question.play(question.ask("fortune", 3, ["standard", "one-snake"], Budget(GAMES, SEED),
                                        matters=MATTERS))  # fmt: skip
    rows = answer.table[["variant", "metric", "value", "low", "high", "diff", "verdict"]].reset_index(drop=True)
    # the command line's --json
    r = CliRunner().invoke(cli, ["compare", "fortune", "-p", "3", "-n", str(GAMES), "-s", str(SEED), "-v", "standard",
                                 "-v", "one-snake", "--matters", MATTERS, "--json", "-t", "1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)
    assert printed["findings"] == answer.findings
    pd.testing.assert_frame_equal(pd.DataFrame(printed["rows"])[rows.columns], rows, check_exact=False, rtol=1e-12)
    # the API
    api = snakesim.compare("fortune", 3, GAMES, ["standard", "one-snake"], seed=SEED, matters=MATTERS, threads=1)
    pd.testing.assert_frame_equal(api[rows.columns].reset_index(drop=True), rows)
    # a study file
    report, summary = ask_study(tmp_path, "fortune", f'[[compare]]\nplayers = 3\ngames = {GAMES}\n'
                                f'variants = ["standard", "one-snake"]\nmatters = "{MATTERS}"\n')  # fmt: skip
    # (its rows in the shape every kind's share: the rule set's name in `rules`, its hash beside)
    tidy = question.rows(answer)
    assert list(tidy["rules"]) == list(answer.table["variant"]) and (tidy["question"] == "compare").all()
    assert set(tidy["rules_hash"]) == {a.rules.rules_hash() for a in answer.plan.arms}
    assert (tidy["games"] == GAMES).all() and (tidy["players"] == 3).all()
    shared = ["rules", "metric", "value", "low", "high", "diff", "verdict"]
    section = summary[summary["section"] == "compare-1"][shared].reset_index(drop=True)
    pd.testing.assert_frame_equal(section, tidy[shared], check_exact=False, rtol=1e-12, check_dtype=False)
    assert all((f"{f['arm']}: {f['text']}" if f["arm"] else f["text"]) in report for f in answer.findings)
    # the workbench
    job, plan = check_request(workbench_request(), Limits())
    shown = play_request(job, plan)
    assert shown["findings"] == answer.findings and shown["settle"] == answer.settle


# One balance search: 3-player Fortune's start_coins, 200 games a candidate at first, at most
# 800, then 1,000 fresh games (the workbench's budget for 200 games a try).
BALANCE = {"games": 200, "max_games": 800, "confirm_games": 1000}


def balance_section() -> dict:
    return {"players": 3, "handicap": "start_coins", **BALANCE}


def balance_request() -> dict:
    return {"kind": "balance", "game": "fortune", "players": 3, "games": 200, "seed": SEED, "handicap": "start_coins",
            "arm": {"name": "standard", "toml": ""}}  # fmt: skip


def test_a_balance_search_is_one_plan_and_one_answer_from_every_door(tmp_path):
    budget = Budget(200, SEED, max_games=800, confirm_games=1000)
    asked = balance_question.ask("fortune", 3, "start_coins", budget)
    study = plan_section(FORTUNE, "balance", balance_section(), seed=SEED)
    _, plan = check_request(balance_request(), Limits())
    assert study == asked and plan.question.key() == asked.key()
    assert balance_question.ask("fortune", 3, "start_coins", budget, tolerance=0.02).key() != asked.key()
    answer = balance_question.play(asked)
    # the command line's --json
    r = CliRunner().invoke(cli, ["balance", "fortune", "-p", "3", "-n", "200", "--max-games", "800",
                                 "--confirm-games", "1000", "-s", str(SEED), "--handicap", "start_coins", "--json",
                                 "-t", "1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)
    assert printed["findings"] == answer.findings and printed["values"] == list(answer.result.values)
    assert printed["status"] == answer.result.status and printed["message"] == answer.result.message
    # the API
    api = snakesim.balance("fortune", 3, "start_coins", seed=SEED, **BALANCE)
    assert (api.values, api.status, api.message) == (answer.result.values, answer.result.status, answer.result.message)
    pd.testing.assert_frame_equal(api.confirmed, answer.result.confirmed)
    # a study file
    report, summary = ask_study(tmp_path, "fortune", '[[balance]]\nplayers = 3\nhandicap = "start_coins"\n'
                                'games = 200\nmax_games = 800\nconfirm_games = 1000\n')  # fmt: skip
    assert all(f in report for f in answer.findings) and answer.result.message in report
    rows = balance_question.rows(answer)
    assert_study_rows(summary, "balance-1", rows)
    # (the recommended handicap's win rates on the fresh games, named as every kind names a rule set)
    after = rows[(rows["status"] == "recommended") & rows["metric"].str.startswith("win_rate.")]
    assert list(after["value"]) == answer.result.summary["after"]["win_rate"] and after["fresh"].all()
    assert set(after["rules"]) == {f"start_coins={list(answer.result.values)}"} and (after["games"] == 1000).all()
    assert (rows[rows["status"] == "candidate"]["fresh"] == False).all()  # noqa: E712 (a column of booleans)
    # the workbench
    job, plan = check_request(balance_request(), Limits())
    shown = play_request(job, plan)
    assert [f["text"] for f in shown["findings"]] == answer.findings and shown["values"] == list(answer.result.values)


def test_a_tune_is_one_plan_and_one_answer_from_every_door(tmp_path):
    budget = Budget(200, SEED, max_games=800, confirm_games=1000)
    asked = tune_question.ask("fortune", 3, "length.median=60", "start_coins=5:40", budget, matters="length=2%")
    section = {"players": 3, "target": "length.median=60", "vary": "start_coins=5:40", **BALANCE}
    study = plan_section(FORTUNE, "tune", section, seed=SEED, matters=parse_matters("length=2%"))
    assert study == asked and study.key() == asked.key()
    assert tune_question.ask("fortune", 3, "length.median=60", "start_coins=5:40", budget).key() != asked.key()
    answer = tune_question.play(asked)
    r = CliRunner().invoke(cli, ["tune", "fortune", "-p", "3", "-n", "200", "--max-games", "800", "--confirm-games",
                                 "1000", "-s", str(SEED), "--target", "length.median=60", "--vary", "start_coins=5:40",
                                 "--matters", "length=2%", "--json", "-t", "1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)
    assert printed["findings"] == answer.findings and printed["best"] == answer.result.best
    assert printed["status"] == answer.result.status and printed["message"] == answer.result.message
    api = snakesim.tune("fortune", 3, "length.median=60", "start_coins=5:40", seed=SEED, matters="length=2%", **BALANCE)
    assert (api.best, api.status, api.message) == (answer.result.best, answer.result.status, answer.result.message)
    pd.testing.assert_frame_equal(api.path, answer.result.path)
    report, summary = ask_study(tmp_path, "fortune", '[[tune]]\nplayers = 3\ntarget = "length.median=60"\n'
                                'vary = "start_coins=5:40"\ngames = 200\nmax_games = 800\nconfirm_games = 1000\n',
                                matters="length=2%")  # fmt: skip
    assert all(f in report for f in answer.findings) and answer.result.message in report
    rows = tune_question.rows(answer)
    assert_study_rows(summary, "tune-1", rows)
    assert list(rows["rules"]) == [f"start_coins={v}" for v in answer.result.answer["value"]]
    assert list(rows["value"]) == list(answer.result.answer["metric"]) and set(rows["unit"]) == {"cards drawn"}


def test_a_design_search_is_one_plan_and_one_answer_from_every_door(tmp_path):
    vary, targets = ["start_coins=8,9"], ["length.median<=200", "out_share.mean<=0.5"]
    budget = Budget(100, SEED, max_games=2000)
    asked = design_question.ask("fortune", 3, vary, targets, budget, prefer="length.median")
    section = {"players": 3, "vary": vary, "targets": targets, "prefer": "length.median", "games": 100, "budget": 2000}
    study = plan_section(FORTUNE, "design", section, seed=SEED)
    request = {
        "kind": "design",
        "game": "fortune",
        "players": 3,
        "games": 100,
        "seed": SEED,
        "budget": 2000,
        "vary": vary,
        "targets": targets,
        "prefer": "length.median",
        "arm": {"name": "standard", "toml": ""},
    }
    _, plan = check_request(request, Limits())
    # (the page's rule set is given whole, not as a variant: the same rule sets, the same question)
    assert study == asked and hash(study) == hash(asked) and plan.question == asked
    assert design_question.ask("fortune", 3, vary, targets, budget).key() != asked.key()
    answer = design_question.play(asked)
    r = CliRunner().invoke(cli, ["design", "fortune", "-p", "3", "-n", "100", "--budget", "2000", "-s", str(SEED),
                                 "--vary", vary[0], "--target", targets[0], "--target", targets[1], "--prefer",
                                 "length.median", "--json", "-t", "1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)
    summary = json.loads(json.dumps(design_question.summary(answer)))
    for key in ("findings", "answers", "nearest", "counts"):
        assert printed[key] == summary[key], key
    api = snakesim.design("fortune", 3, vary, targets, prefer="length.median", games=100, budget=2000, seed=SEED)
    assert api.summary["answers"] == answer.result.summary["answers"]
    report, summary = ask_study(tmp_path, "fortune", '[[design]]\nplayers = 3\nvary = ["start_coins=8,9"]\n'
                                'targets = ["length.median<=200", "out_share.mean<=0.5"]\nprefer = "length.median"\n'
                                'games = 100\nbudget = 2000\n')  # fmt: skip
    assert all(f in report for f in answer.findings)
    rows = design_question.rows(answer)
    assert_study_rows(summary, "design-1", rows)
    searched = rows[rows["fresh"] == False]  # noqa: E712 (a column of booleans)
    assert len(searched) == 2 * len(answer.result.table) and set(searched["metric"]) == {
        "length.median",
        "out_share.mean",
    }
    confirmed = rows[rows["fresh"] == True]  # noqa: E712
    assert set(confirmed["rules"]) == {a["label"] for a in answer.result.summary["answers"]} and len(confirmed)
    job, plan = check_request(request, Limits())
    shown = play_request(job, plan)
    assert [f["text"] for f in shown["findings"]] == answer.findings


def test_a_skill_measure_is_one_plan_and_one_answer_from_every_door(tmp_path):
    budget = Budget(60, SEED)
    asked = skill_question.ask("rainbow", [3], budget, playouts=4, novice=0.3, matters="win_rate=2")
    study = plan_section(get_game("rainbow"), "skill", {"players": 3, "games": 60, "playouts": 4}, seed=SEED,
                         matters=parse_matters("win_rate=2"))  # fmt: skip
    assert study == asked and study.key() == asked.key()
    assert skill_question.ask("rainbow", [3], budget, playouts=4, novice=0.3).key() != asked.key()
    answer = skill_question.play(asked)
    (result,) = answer.results.values()
    r = CliRunner().invoke(cli, ["skill", "rainbow", "-p", "3", "-n", "60", "-k", "4", "-s", str(SEED), "--matters",
                                 "win_rate=2", "--json", "-t", "1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)
    assert printed["findings"] == answer.findings["standard"]
    pd.testing.assert_frame_equal(pd.DataFrame(printed["lineups"]), result.table, check_dtype=False)
    api = snakesim.skill("rainbow", 3, games=60, playouts=4, seed=SEED, matters="win_rate=2")
    pd.testing.assert_frame_equal(api.table, result.table)
    report, summary = ask_study(
        tmp_path, "rainbow", "[[skill]]\nplayers = 3\ngames = 60\nplayouts = 4\n", matters="win_rate=2"
    )
    assert all(f in report for f in answer.findings["standard"])
    rows = skill_question.rows(answer)
    assert_study_rows(summary, "skill-1", rows)
    edges = rows[rows["metric"] == "edge"]
    odd = result.table[result.table["player"] != result.table["field"]]
    assert list(edges["value"]) == list(odd["edge"])
    assert list(edges["lineup"]) == [f"{p} among {f}" for p, f in zip(odd["player"], odd["field"], strict=True)]
    share = rows[rows["metric"] == "skill_share"]
    assert list(share["status"]) == list(result.shares["verdict"])


def test_a_sweep_is_one_plan_and_one_answer_from_every_door(tmp_path):
    settings = ["start_coins=10:20:10", "snakes=1"]
    asked = sweep_question.ask("fortune", [3, 4], settings, Budget(500, SEED), matters="length=3%")
    study = plan_section(FORTUNE, "sweep", {"players": "3,4", "set": settings, "games": 500}, seed=SEED,
                         matters=parse_matters("length=3%"))  # fmt: skip
    assert study == asked and study.key() == asked.key()
    assert sweep_question.ask("fortune", [3, 4], settings, Budget(500, SEED)).key() != asked.key()
    answer = sweep_question.play(asked)
    columns = ["players", "start_coins", "metric", "value", "low", "high"]
    rows = answer.table[columns]
    r = CliRunner().invoke(cli, ["sweep", "fortune", "-p", "3,4", "--set", settings[0], "--set", settings[1], "-n",
                                 "500", "-s", str(SEED), "--matters", "length=3%", "--json", "-t", "1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)
    assert printed["findings"] == answer.findings and answer.findings
    pd.testing.assert_frame_equal(pd.DataFrame(printed["rows"])[columns], rows, check_exact=False, rtol=1e-12)
    api = snakesim.sweep("fortune", [3, 4], settings, 500, seed=SEED, matters="length=3%", threads=1)
    pd.testing.assert_frame_equal(api[columns], rows)
    assert api.attrs["findings"] == answer.findings
    report, summary = ask_study(tmp_path, "fortune", '[[sweep]]\nplayers = "3,4"\n'
                                'set = ["start_coins=10:20:10", "snakes=1"]\ngames = 500\n',
                                matters="length=3%")  # fmt: skip
    # (each point named by its swept option in `rules`, as every kind names its rule sets)
    tidy = sweep_question.rows(answer)
    assert list(tidy["rules"]) == [f"start_coins={v}" for v in rows["start_coins"]]
    shared = ["players", "rules", "metric", "value", "low", "high"]
    section = summary[summary["section"] == "sweep-1"][shared].reset_index(drop=True)
    pd.testing.assert_frame_equal(section, tidy[shared], check_exact=False, rtol=1e-12, check_dtype=False)
    assert all(f in report for f in answer.findings)


def test_a_questions_identity_leaves_out_the_block_size_which_changes_no_game():
    small = question.ask("fortune", 3, ["standard"], Budget(GAMES, SEED, block=500))
    large = question.ask("fortune", 3, ["standard"], Budget(GAMES, SEED, block=50_000))
    assert small.key() == large.key() and small.key() != question.ask("fortune", 3, ["standard"], Budget(GAMES)).key()


def test_a_run_is_one_plan_and_one_answer_from_every_door(tmp_path):
    """``snakesim run`` (words, --json, a table file, a resumable folder) and ``snakesim.simulate``
    ask the same question: one plan, the same games, the same summary and words."""
    source = RuleSource("one-snake", settings=("start_coins=5",))
    asked = run_question.ask("fortune", 3, Budget(GAMES, SEED), source)
    assert asked.key() == run_question.ask("fortune", 3, Budget(GAMES, SEED, block=500), source).key()
    assert asked.key() != run_question.ask("fortune", 3, Budget(GAMES, SEED + 1), source).key()
    answer = run_question.play(asked)
    assert answer.table is None and answer.findings == run_question.findings(answer.summary, FORTUNE)
    kept = run_question.play(asked, table=True)
    assert len(kept.table) == GAMES and kept.findings == answer.findings
    assert kept.summary["win_rate"] == answer.summary["win_rate"] and kept.summary["length"] == answer.summary["length"]
    args = ["run", "fortune", "-p", "3", "-n", str(GAMES), "-s", str(SEED), "-v", "one-snake", "--set", "start_coins=5",
            "-t", "1"]  # fmt: skip
    r = CliRunner().invoke(cli, [*args, "--json"])
    assert r.exit_code == 0, r.output
    printed = json.loads(r.stdout)
    assert printed["findings"] == answer.findings and printed["win_rate"] == answer.summary["win_rate"]
    r = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "t.parquet")])
    assert r.exit_code == 0 and all(f.split(";")[0][:40] in " ".join(r.output.split()) for f in answer.findings)
    api = snakesim.simulate("fortune", 3, GAMES, seed=SEED, variant="one-snake", start_coins=5, threads=1)
    pd.testing.assert_frame_equal(api, kept.table)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "t.parquet"), kept.table, check_dtype=False)
    rows = run_question.rows(answer)
    assert list(rows["metric"]) == ["win_rate.0", "win_rate.1", "win_rate.2", "draw", "unfinished", "length"]
    assert list(rows["value"][:3]) == answer.summary["win_rate"] and (rows["rules"] == "one-snake").all()
