"""Any rule set is an arm: named variants, rules files and inline options, in compare, sweep
and studies; and `snakesim rules` prints, round-trips and diffs the complete rules."""

import json
import tomllib

import numpy as np
import pytest
from click.testing import CliRunner

import snakesim
from snakesim.analysis.sweep import sweep
from snakesim.cli import cli
from snakesim.core.arms import Budget, RuleSource, build_arms, parse_arm, split_parts
from snakesim.core.errors import InputError
from snakesim.games import GAMES, get_game
from snakesim.report.study import run_study

FORTUNE = get_game("fortune")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_split_parts_respects_brackets_and_quotes():
    text = 'h=standard,effects.HEARTS=[{take = 2, from = "left"}, {skip = "left"}],deck.RAIN=2'
    assert split_parts(text) == [
        "h=standard",
        'effects.HEARTS=[{take = 2, from = "left"}, {skip = "left"}]',
        "deck.RAIN=2",
    ]
    assert split_parts("a='x,y',b=1") == ["a='x,y'", "b=1"]


@pytest.mark.parametrize(
    "text,parsed",
    [
        ("one-snake", {"name": "one-snake", "variant": "one-snake", "set": []}),
        ("ten.toml", {"name": "ten", "rules": "ten.toml", "set": []}),
        ("start_coins=12", {"name": "start_coins=12", "set": ["start_coins=12"]}),
        ("deck.RAIN=2,snakes=1", {"name": "deck.RAIN=2,snakes=1", "set": ["deck.RAIN=2", "snakes=1"]}),
        ("quick=one-snake,start_coins=12", {"name": "quick", "variant": "one-snake", "set": ["start_coins=12"]}),
        ("mine=my.toml,turn_cap=9", {"name": "mine", "rules": "my.toml", "set": ["turn_cap=9"]}),
        ("solo=,start_coins=3", {"name": "solo", "set": ["start_coins=3"]}),
        ("g=standard,policy=greedy", {"name": "g", "variant": "standard", "policy": "greedy", "set": []}),
        ("m=standard,policies=a/b", {"name": "m", "variant": "standard", "policies": ["a", "b"], "set": []}),
    ],
)
def test_arm_texts(text, parsed):
    assert parse_arm(FORTUNE, text) == parsed


@pytest.mark.parametrize(
    "text,words",
    [
        ("", "got nothing"),
        ("quick=one-snake,,start_coins=3", "an empty part"),
        ("quick=one-snake,start_coins", "expected NAME=VALUE after the first part"),
        ("quick=two-snakes", "unknown variant 'two-snakes'"),
        ("quick=one-snake,coins=3", "coins: unknown option"),
        ("quick=one-snake,start_coins=0", "start_coins: expected an integer from 1"),
        ("x=standard,policy=clever", "policy"),
        ("m=standard,policies=greedy/random", r"m: policies: expected one policy per seat \(3\), got 2"),
        ("absent.toml", "cannot read rules file"),
    ],
)
def test_bad_arms_are_one_clear_error(text, words):
    with pytest.raises(InputError, match=words):
        build_arms(get_game("rainbow") if "policy" in text else FORTUNE, 3, Budget(10, 1), [text])


def test_the_issue_example_works_from_the_command_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ten.toml").write_text("start_coins = 10\n")
    r = invoke(
        "compare", "fortune", "-n", 3000, "-v", "standard", "-v", "ten.toml", "-v", "quick=one-snake,start_coins=12",
        "--json",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["variants"] == ["standard", "ten", "quick"]
    assert out["options"]["ten"]["start_coins"] == 10
    assert out["options"]["quick"]["start_coins"] == 12 and out["options"]["quick"]["snakes"] == 1
    assert len(set(out["rules_hash"].values())) == 3
    length = {row["variant"]: row["value"] for row in out["rows"] if row["metric"] == "length"}
    assert length["ten"] < length["standard"]  # fewer coins, shorter games (3,000 paired games)


@pytest.mark.parametrize("game", list(GAMES))
def test_two_identical_arms_differ_by_exactly_zero(game):
    # The same rules written two ways (a variant, and the same options inline) play the same
    # games: every paired difference is 0.0 exactly (the mean of per-game zeros).
    spec = get_game(game)
    first_option = next(iter(spec.rules.specs()))
    same = f"again=standard,{first_option}={tomllib_value(spec.rules().to_dict()[first_option])}"
    table = snakesim.compare(game, 3 if game != "hisss" else 2, 300, ["standard", same], seed=5)
    diffs = table.loc[table["variant"] == "again", "diff"].dropna().to_numpy()
    assert len(diffs) > 0 and (diffs == 0.0).all()


def tomllib_value(value):
    from snakesim.core.rules import inline

    return value if isinstance(value, str) else inline(value)


def test_an_arms_own_policies_win_over_the_shared_ones():
    arms = build_arms(
        get_game("rainbow"),
        3,
        Budget(10, 1),
        ["standard", "m=standard,policies=greedy/random/greedy"],
        RuleSource(policy="random"),
    )
    assert arms[0].seats == ("random",) * 3 and arms[1].seats == ("greedy", "random", "greedy")


def test_shared_settings_apply_after_the_arms_own(tmp_path):
    arms = build_arms(
        FORTUNE, 3, Budget(10, 1), ["a=standard,turn_cap=50", "b=one-snake"], RuleSource(settings=("turn_cap=70",))
    )
    assert [a.rules.turn_cap for a in arms] == [70, 70] and arms[1].rules.snakes == 1
    shared = tmp_path / "shared.toml"
    shared.write_text('variant = "rejoin"\n')
    with pytest.raises(InputError, match="names variant 'rejoin', but arm 'a' is 'standard'"):
        build_arms(FORTUNE, 3, Budget(10, 1), ["a=standard"], RuleSource(rules_file=shared))


def test_duplicate_labels_are_refused():
    with pytest.raises(InputError, match="'standard' is given twice"):
        build_arms(FORTUNE, 3, Budget(10, 1), ["standard", "standard"])


def test_a_sweep_starts_from_any_arm():
    table = sweep(FORTUNE, [3], ["start_coins=4,8"], Budget(500, 2), RuleSource("h=one-snake,deck.RAIN=0"))
    plain = sweep(FORTUNE, [3], ["start_coins=4,8"], Budget(500, 2), RuleSource("one-snake"))
    assert set(table["start_coins"]) == {4, 8}
    expected = {
        FORTUNE.rules.variant("one-snake").with_settings(["deck.RAIN=0", f"start_coins={c}"]).rules_hash()
        for c in (4, 8)
    }
    assert set(table["rules_hash"]) == expected
    assert not np.array_equal(table["value"].to_numpy(), plain["value"].to_numpy())


def test_a_study_with_arm_tables(tmp_path):
    (tmp_path / "ours.toml").write_text('[effects]\nSNAKE = [{take_cup = "half"}]\n')
    study = tmp_path / "s.toml"
    study.write_text(
        """
title = "Arms"
question = "Do arm tables work?"
game = "fortune"

[[compare]]
players = 3
games = 400
[[compare.arms]]
name = "seed"
[[compare.arms]]
name = "gentle hearts"
options = {effects = {HEARTS = [{take = 2, from = "left"}]}}
[[compare.arms]]
name = "ours"
rules = "ours.toml"
set = ["start_coins=15"]
"""
    )
    out = run_study(study, tmp_path / "report")
    text = (out / "report.md").read_text()
    for words in ("**seed**: all defaults", "**gentle hearts**: effects.HEARTS=[{take = 2", 'take_cup = "half"'):
        assert words in text
    assert "(rules " in text


@pytest.mark.parametrize(
    "arms,words",
    [
        ('[[compare.arms]]\nvariant = "standard"', r"compare\[0\].arms\[0\].name: missing"),
        ('[[compare.arms]]\nname = "a"\ncolour = 3', r"compare\[0\].arms\[0\].colour: unknown key"),
        ('[[compare.arms]]\nname = "a"\noptions = {start_coins = 0}', "start_coins: expected an integer from 1"),
    ],
)
def test_bad_arm_tables(tmp_path, arms, words):
    study = tmp_path / "s.toml"
    study.write_text(f'title = "t"\nquestion = "q"\ngame = "fortune"\n[[compare]]\nplayers = 3\ngames = 10\n{arms}\n')
    with pytest.raises(InputError, match=words):
        run_study(study, tmp_path / "report")
    assert not (tmp_path / "report").exists()


# ------------------------------------------------------------------ snakesim rules


@pytest.mark.parametrize("game", list(GAMES))
def test_rules_round_trip_for_every_variant(game, tmp_path):
    spec = get_game(game)
    for variant in spec.rules.VARIANTS:
        r = invoke("rules", game, "-v", variant)
        assert r.exit_code == 0, r.output
        path = tmp_path / f"{variant}.toml"
        path.write_text(r.stdout)
        back = invoke("rules", game, "--rules", path)
        expected = spec.rules.variant(variant)
        assert back.stdout.splitlines()[2:] == r.stdout.splitlines()[2:]  # the same TOML and hash line
        assert f"rules hash {expected.rules_hash()}" in r.stdout
        _, read = spec.rules.from_toml(path)
        assert read == expected


def test_rules_diff_names_what_differs():
    r = invoke("rules", "fortune", "--diff", "standard", "q=crosses-to-cup,start_coins=12")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[1] == "start_coins: 20 -> 12"
    assert lines[2].startswith('effects.CROSSES: [{give_each = 1, shortfall = "clockwise"')
    assert len(lines) == 3
    same = invoke("rules", "rainbow", "--diff", "both", 'x=wild-snake,pairs=[["POPPIES", "ORCHIDS"]]')
    assert same.stdout.splitlines()[1] == "# the same rules"


def test_rules_printed_are_valid_toml_with_new_symbols():
    r = invoke("rules", "fortune", "--set", "deck.GOLD=2", "--set", "effects.GOLD=[{collect = 2}, {skip = 'right'}]")
    data = tomllib.loads(r.stdout)
    assert data["deck"]["GOLD"] == 2 and data["effects"]["GOLD"] == [{"collect": 2}, {"skip": "right"}]


def test_rules_bad_input_is_one_line():
    r = invoke("rules", "fortune", "--set", "effects.HEARTS=[{steal = 1}]")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "effects.HEARTS[0]" in r.stderr


def test_tables_and_summaries_record_the_rules_hash():
    df = snakesim.simulate("fortune", players=3, games=50, seed=1, variant="rejoin")
    assert df.attrs["rules_hash"] == get_game("fortune").rules.variant("rejoin").rules_hash()
    r = invoke("run", "fortune", "-n", 50, "--json", "--set", "start_coins=9")
    expected = get_game("fortune").rules().with_settings(["start_coins=9"]).rules_hash()
    assert json.loads(r.stdout)["rules_hash"] == expected


def test_run_trace_and_the_api_take_any_arm_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ten.toml").write_text("start_coins = 10\n")
    r = invoke("run", "fortune", "-n", 200, "-v", "ten.toml", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["variant"] == "ten" and out["options"]["start_coins"] == 10
    r = invoke("trace", "fortune", "-p", 2, "--game", 1, "-v", 'h=standard,effects.HEARTS=[{take = 2, from = "left"}]')
    assert r.exit_code == 0 and "variant h (effects.HEARTS=[{take = 2" in r.stdout
    df = snakesim.simulate("fortune", players=3, games=100, seed=2, variant="q=one-snake,start_coins=7")
    assert df.attrs["variant"] == "q" and df.attrs["options"]["snakes"] == 1 and df.attrs["options"]["start_coins"] == 7
    r = invoke("run", "fortune", "-v", "one-snak")
    assert r.exit_code == 2 and "unknown variant 'one-snak'" in r.stderr
