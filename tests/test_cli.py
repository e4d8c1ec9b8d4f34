"""The command line through click's CliRunner, bad input included."""

import json
import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from snakesim.cli import cli

JSON_KEYS = {
    "game",
    "variant",
    "options",
    "players",
    "games",
    "seed",
    "win_rate",
    "win_ci",
    "draw_rate",
    "unfinished_rate",
    "length",
}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_run_prints_a_readable_summary():
    r = invoke("run", "fortune", "--players", 3, "--games", 3000, "--seed", 1)
    assert r.exit_code == 0, r.output
    for words in (
        "seat 0 wins",
        "seat 2 wins",
        "95% interval",
        "draw",
        "unfinished",
        "length (cards drawn): mean",
        "95th percentile",
    ):
        assert words in r.stdout
    assert "seat 3" not in r.stdout


def test_run_prints_the_game_feel_unless_feel_is_false():
    # On by default (issue 44); feel = false leaves the figures out, with no hint to turn them on.
    r = invoke("run", "fortune", "--players", 3, "--games", 2000, "--seed", 1)
    assert r.exit_code == 0 and "game feel (95% intervals" in r.stdout
    plain = invoke("run", "fortune", "--players", 3, "--games", 2000, "--seed", 1, "--set", "feel=false")
    assert plain.exit_code == 0 and "game feel" not in plain.stdout and "feel=true" not in plain.stdout
    assert "seat 0 wins" in plain.stdout


def test_run_json_has_the_documented_keys_and_matches_the_table(tmp_path):
    out = tmp_path / "t.parquet"
    r = invoke(
        "run",
        "fortune",
        "-p",
        4,
        "-n",
        2000,
        "--seed",
        9,
        "--variant",
        "one-snake",
        "--set",
        "start_coins=8",
        "--json",
        "--out",
        out,
    )
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert JSON_KEYS <= set(s)
    assert s["variant"] == "one-snake" and s["options"]["snakes"] == 1 and s["options"]["start_coins"] == 8
    assert s["games"] == 2000 and s["players"] == 4 and len(s["win_rate"]) == 4 and len(s["win_ci"]) == 4
    assert set(s["length"]) >= {"mean", "median", "p95", "max"}
    import snakesim

    df = snakesim.read_table(out)
    assert len(df) == 2000 and df.attrs["seed"] == 9
    assert s["win_rate"][0] == df["winner"].eq(0).fillna(False).mean()  # (over every game: a draw's winner is null)
    assert s["length"]["max"] == df["length"].max() and s["length"]["min"] == df["length"].min()
    # The median and the 95th percentile are lengths games had: the first by which half and
    # 95% of the games are over.
    for key, q in (("median", 0.5), ("p95", 0.95)):
        assert s["length"][key] == np.quantile(df["length"], q, method="inverted_cdf")
        assert (df["length"] <= s["length"][key]).mean() >= q > (df["length"] < s["length"][key]).mean()
    assert abs(sum(s["win_rate"]) + s["draw_rate"] + s["unfinished_rate"] - 1) < 1e-12


def test_run_says_a_length_every_game_has_in_one_phrase():
    r = invoke("run", "hisss", "--players", 2, "--games", 500, "--seed", 1)
    assert r.exit_code == 0, r.output
    assert "length (turns): 49 in every game" in r.stdout and "95th percentile" not in r.stdout


def test_same_command_same_numbers():
    a = invoke("run", "fortune", "-n", 1500, "--seed", 4, "--json", "--threads", 1)
    b = invoke("run", "fortune", "-n", 1500, "--seed", 4, "--json")
    strip = lambda r: {k: v for k, v in json.loads(r.stdout).items() if k != "elapsed_s"}  # noqa: E731
    assert strip(a) == strip(b)


def test_rules_file(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('variant = "rejoin"\nstart_coins = 5\n[deck]\nSUNS = 2\n')
    r = invoke("run", "fortune", "-n", 500, "--rules", path, "--json")
    s = json.loads(r.stdout)
    assert s["variant"] == "rejoin" and s["options"]["effects"]["RIVER"][0]["rejoin"] is True
    assert s["options"]["deck"]["SUNS"] == 2


def test_trace_replays_the_game_run_played(tmp_path):
    out = tmp_path / "t.csv"
    assert invoke("run", "fortune", "-p", 4, "-n", 50, "--seed", 1, "--out", out).exit_code == 0
    import snakesim

    row = snakesim.read_table(out).iloc[42]
    r = invoke("trace", "fortune", "--players", 4, "--seed", 1, "--game", 42)
    assert r.exit_code == 0, r.output
    card_lines = [line for line in r.stdout.splitlines() if " draws " in line]
    assert len(card_lines) == row["length"]
    assert "kernel check: the numba kernel played the identical game" in r.stdout
    if row["outcome"] == "win":
        assert f"seat {row['winner']} is the last with coins" in r.stdout


def test_variants_lists_variants_and_options():
    r = invoke("variants", "fortune")
    assert r.exit_code == 0
    for words in (
        "one-snake",
        "rejoin",
        "crosses-to-cup",
        "start_coins",
        "an integer from 1 to 1,000,000",
        "shortfall = clockwise|cup",
        "{take_cup = all|half|N}",
    ):
        assert words in r.stdout


def test_games_and_help():
    assert "fortune" in invoke("games").stdout
    help_text = invoke("run", "--help").stdout
    assert "Examples:" in help_text and "--set" in help_text
    assert invoke("--version").exit_code == 0


BAD = [
    (["run", "chess"], "game: unknown game 'chess'; expected one of fortune"),
    (["variants", "chess"], "game: unknown game"),
    (["run", "fortune", "--variant", "two-snakes"], "variant: unknown variant 'two-snakes'"),
    (
        ["run", "fortune", "--set", "colour=red"],
        "colour: unknown option; expected one of start_coins",
    ),
    (
        ["run", "fortune", "--set", "start_coins=ten"],
        "start_coins: expected an integer from 1 to 1,000,000, or a list of one per seat (20, 20, 21, 21), got 'ten'",
    ),
    (["run", "fortune", "--set", "start_coins=0"], "start_coins: expected an integer from 1"),
    (["run", "fortune", "--set", "deck.RAIN=-2"], "deck.RAIN: expected an integer from 0"),
    (["run", "fortune", "--set", "start_coins=perhaps"], "start_coins: expected an integer"),
    (["run", "fortune", "--players", "9"], "players: expected an integer from 2 to 8, got 9"),
    (["run", "fortune", "--players", "1"], "players: expected an integer from 2 to 8"),
    (["run", "fortune", "--players", "four"], "'--players'"),
    (["run", "fortune", "--games", "0"], "games: expected an integer from 1"),
    (["run", "fortune", "--threads", "0"], "threads: expected an integer from 1"),
    (["run", "fortune", "--seed", "-3"], "seed: expected an integer from 0"),
    (["trace", "fortune", "--game", "-1"], "--game: expected an integer from 0"),
    (
        ["run", "fortune", "--out", "results.xlsx"],
        "--out: expected a file ending in .parquet or .csv, or a folder name",
    ),
    (["run"], "Missing argument 'GAME'"),
    (["run", "fortune", "--bogus"], "--bogus"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_is_one_line_exit_2_nothing_written(tmp_path, args, message):
    out = tmp_path / "never.parquet"
    if args[0] == "run" and "--out" not in args and len(args) > 1:
        args = [*args, "--out", str(out)]
    r = invoke(*args)
    assert r.exit_code == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("snakesim: error: "), r.stderr
    assert message in lines[0]
    assert "Traceback" not in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_empty_deck_is_refused():
    zero = [
        a
        for s in (
            "LEAVES",
            "POPPIES",
            "ORCHIDS",
            "FOUNTAIN",
            "SUNS",
            "STARS",
            "HEARTS",
            "RAIN",
            "CROSSES",
            "RIVER",
        )
        for a in ("--set", f"deck.{s}=0")
    ]
    r = invoke("run", "fortune", *zero, "--set", "snakes=0")
    assert r.exit_code == 2 and "deck: the deck has no cards" in r.stderr


@pytest.mark.parametrize(
    "text,message",
    [("start_coins = [", "not valid TOML"), ("snakes = -1", "snakes: expected an integer from 0")],
)
def test_bad_rules_file(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    r = invoke("run", "fortune", "--rules", path, "--out", tmp_path / "x.parquet")
    assert r.exit_code == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]


def test_progress_bar_on_stderr(monkeypatch):
    import snakesim.core.progress as progress

    monkeypatch.setattr(progress, "SHOW_AFTER_SECONDS", 0)
    r = invoke("run", "fortune", "-n", 3000, "--chunk-size", 1000, "--progress")
    assert r.exit_code == 0
    assert "3.00k/3.00k" in r.stderr and "fortune" in r.stderr
    assert "3.00k" not in r.stdout


def test_rainbow_run_with_policies_and_deck_file(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text('[deck]\nSNAKE = 1\n[colours]\nSNAKE = "BLUE"\n')
    r = invoke("run", "rainbow", "-p", 3, "-n", 3000, "--policies", "greedy,random,random", "--deck", deck, "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert JSON_KEYS <= set(s)
    assert s["policies"] == ["greedy", "random", "random"]
    assert s["options"]["deck"]["SNAKE"] == 1 and s["options"]["colours"]["SNAKE"] == "BLUE"
    assert set(s["outcomes"]) <= {"win", "blocked win", "blocked draw", "unfinished"}
    # Skill shows: the one greedy seat beats each random seat.
    assert s["win_ci"][0][0] > max(s["win_ci"][1][1], s["win_ci"][2][1])


def test_rainbow_variants_list_policies():
    r = invoke("variants", "rainbow")
    assert r.exit_code == 0
    for words in (
        "wild-snake",
        "poppies-orchids",
        "colours",
        "Policies",
        "random, greedy, expert, oracle [default: greedy]",
        "greedy:RATE",
        "expert/oracle:K",
    ):
        assert words in r.stdout


def test_rainbow_text_summary_lists_its_outcomes():
    r = invoke("run", "rainbow", "-p", 4, "-n", 2000, "--variant", "wild-snake")
    assert r.exit_code == 0
    for words in ("players in turn order, seat 0 first: greedy, greedy, greedy, greedy", "seat 3 wins",
                  "length (turns)"):  # fmt: skip
        assert words in r.stdout


def test_rainbow_trace_shows_hands_and_moves():
    r = invoke("trace", "rainbow", "-p", 3, "--seed", 2, "--game", 11, "--policy", "random")
    assert r.exit_code == 0, r.output
    assert "seat 0 holds" in r.stdout and "on empty pile" in r.stdout and " plays " in r.stdout
    assert "kernel check: the numba kernel played the identical game" in r.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["run", "rainbow", "-p", "8"], "hand_size: dealing 7 cards to 8 players needs 56 cards"),
        (["run", "rainbow", "--policy", "clever"], "policy: unknown policy 'clever'; expected one of random, greedy"),
        (["run", "rainbow", "-p", "3", "--policies", "greedy,random"], "--policies: expected 3 names"),
        (["run", "rainbow", "--policy", "greedy", "--policies", "greedy"], "either --policy"),
        (["run", "fortune", "--policy", "greedy"], "--policy: fortune has no player choices"),
        (["run", "rainbow", "--set", "colours.SUNS=PINK"], "colours.SUNS: expected one of the cycle's colours: RED"),
        (["run", "rainbow", "--deck", "absent.toml"], "cannot read deck file"),
    ],
)
def test_rainbow_bad_input(tmp_path, args, message):
    r = invoke(*args, "--out", tmp_path / "never.parquet")
    assert r.exit_code == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
    assert list(tmp_path.iterdir()) == []


def test_deck_file_refuses_rules(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text("start_coins = 3\n")
    r = invoke("run", "fortune", "--deck", deck)
    assert r.exit_code == 2 and "start_coins: not deck data; a deck file may set deck, snakes" in r.stderr


def test_hisss_run_trace_and_variants():
    r = invoke("run", "hisss", "-p", 4, "-n", 3000, "--variant", "claim-joined", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert JSON_KEYS <= set(s) and s["options"]["claim_joined"] is True and s["policies"] == ["greedy"] * 4
    r = invoke("trace", "hisss", "-p", 3, "--seed", 3, "--game", 5, "--policies", "random,greedy,random")
    assert r.exit_code == 0, r.output
    assert "first snake:" in r.stdout and "draws" in r.stdout and "end: cards taken" in r.stdout
    assert "kernel check: the numba kernel played the identical game" in r.stdout
    r = invoke("variants", "hisss")
    assert "claim-joined" in r.stdout and "most-snakes" in r.stdout and "RED-PURPLE" in r.stdout


def test_hisss_bad_deck_file(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text("[tails]\nRED = 0\nORANGE = 0\nYELLOW = 0\nGREEN = 0\nBLUE = 0\nPURPLE = 0\nRAINBOW = 0\n")
    r = invoke("run", "hisss", "--deck", deck, "--out", tmp_path / "x.parquet")
    assert r.exit_code == 2 and "tails: the deck needs at least one tail" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.toml"]


def test_exact_prints_probabilities_beside_the_simulation(tmp_path):
    deck = tmp_path / "tiny.toml"
    deck.write_text("snakes = 1\n[deck]\n" + "\n".join(f"{s} = {int(s in ('LEAVES', 'SUNS', 'RIVER'))}" for s in (
        "LEAVES", "POPPIES", "ORCHIDS", "FOUNTAIN", "SUNS", "STARS", "HEARTS", "RAIN", "CROSSES", "RIVER"
    )) + "\n")  # fmt: skip
    r = invoke("exact", "fortune", "-p", 2, "--set", "start_coins=2", "--deck", deck, "--games", 50_000, "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    total = sum(s["win_probability"]) + s["draw_probability"] + s["never_probability"]
    assert abs(total - 1) < 1e-12 and s["states"] > 1
    for exact, simulated in zip(s["win_probability"], s["simulated"]["rates"], strict=False):
        assert abs(exact - simulated) < 4 * (exact * (1 - exact) / 50_000) ** 0.5 + 1e-12
    text = invoke("exact", "fortune", "-p", 2, "--set", "start_coins=2", "--deck", deck).stdout
    assert "exact solution over" in text and "expected length (cards drawn)" in text


@pytest.mark.parametrize(
    "args,message",
    [
        (["exact", "fortune", "-p", "4"], "exact: this configuration may need up to"),
        (["exact", "rainbow"], "game: rainbow has no exact solver"),
        (["exact", "hisss", "-p", "2"], "exact: this deck needs at least 1,927,561,216 states"),
    ],
)
def test_exact_refuses(args, message):
    r = invoke(*args)
    assert r.exit_code == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_sssnake_run_trace_and_variants():
    r = invoke("run", "sssnake", "-p", 3, "-n", 2000, "--policies", "greedy,friendly,random", "--json")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert JSON_KEYS <= set(s) and s["policies"] == ["greedy", "friendly", "random"]
    assert set(s["outcomes"]) <= {"joined", "stock win", "stock draw"}
    r = invoke("trace", "sssnake", "-p", 2, "--seed", 4, "--game", 9, "--policy", "random")
    assert r.exit_code == 0, r.output
    for words in ("rolls", "#H##", "####T#", " h ", " t ", "seat 1: 7 missing", "end: "):
        assert words in r.stdout
    assert "kernel check: the numba kernel played the identical game" in r.stdout
    r = invoke("variants", "sssnake")
    for words in ("no-ones", "block_width", "head_side", "STRAIGHT=60", "random, greedy, friendly"):
        assert words in r.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["run", "sssnake", "-p", "5"], "players: expected an integer from 2 to 4"),
        (["run", "sssnake", "--set", "head_side=east"], "head_side: the head must leave the card by an outer side"),
        (["run", "sssnake", "--set", "die.7=1"], "die.7: a new mark needs an entry in faces too"),
        (["run", "sssnake", "--policy", "spiteful"], "expected one of random, greedy, friendly"),
    ],
)
def test_sssnake_bad_input(tmp_path, args, message):
    r = invoke(*args, "--out", tmp_path / "never.parquet")
    assert r.exit_code == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", ["fortune", "rainbow", "hisss", "sssnake"])
def test_trace_shows_who_leads_after_every_step(game):
    # One line per step (a card drawn in Fortune, a turn elsewhere) names the sole leader or
    # says there is none; Sssnake and the others also show the step-0 standings or the deal.
    import snakesim

    row = snakesim.simulate(game, 3, 4, seed=2, settings=["feel=true"]).iloc[3]
    r = invoke("trace", game, "-p", 3, "--seed", 2, "--game", 3, "--set", "feel=true", "--check")
    assert r.exit_code == 0, r.output
    steps = [line for line in r.stdout.splitlines() if line.endswith(" leads") or line.endswith("no sole leader")]
    assert len(steps) == row["length"] + (game == "sssnake"), r.stdout
    last = steps[-1]
    if pd.notna(row["winner"]) and row.get("tie_break", 0) == 0:  # (a game without a tie-break has no such column)
        assert last.endswith(f"seat {row['winner']} leads"), last


def test_help_says_how_each_kind_of_player_plays():
    """A command that takes --policy ends its help with one line a kind of player."""
    from snakesim.core.policies import POLICY_WORDS

    out = CliRunner().invoke(cli, ["compare", "--help"], terminal_width=200)
    assert out.exit_code == 0 and "Players (--policy, --policies; in games with choices):" in out.output
    for name, words in POLICY_WORDS.items():
        assert re.search(rf"^  {name} +{re.escape(words.format(k=64)[:40])}", out.output, re.M), name
    assert "greedy:RATE" in out.output and "greedy:0.3 is a novice" in out.output
    assert "Players (" not in CliRunner().invoke(cli, ["games", "--help"]).output


def test_tune_and_balance_each_describe_their_own_plot():
    """tune's --plot said balance's picture ("win rates before and after, or the metric against
    the value")."""
    for command, words, other in (("tune", "against the option's value", "win rate"),
                                  ("balance", "win rate before and after", "against the option")):  # fmt: skip
        text = CliRunner().invoke(cli, [command, "--help"], terminal_width=300).output
        plot = next(line for line in text.splitlines() if line.strip().startswith("--plot"))
        assert words in plot and other not in plot, (command, plot)


def test_compare_says_its_winner_figures_count_every_game():
    """The same label gave 3.17% in run and 3.1% in compare for the same games: run counts won
    games, compare every game (paired game by game); compare now says so above its table."""
    out = CliRunner().invoke(cli, ["compare", "hisss", "-v", "standard", "-v", "claim-joined", "-n", "500"]).output
    assert "the winner's figures count every game here, a draw as a game with no comeback" in out
    assert "`run` counts only the games someone won" in out


def test_a_runs_outcome_rows_are_said_in_words_under_the_table():
    """A designer could not tell what "joined", "stock win" or "blocked win" meant from the rows'
    names alone: each game's outcomes other than a plain win are said under the table."""
    from snakesim.games import GAMES

    r = CliRunner().invoke(cli, ["run", "fortune", "-n", "200", "-t", "1"])
    assert r.exit_code == 0, r.output
    assert "  (draw: one card put the last players with coins out together)" in r.output
    for spec in GAMES.values():  # (every outcome but a plain win has its words)
        assert {label for label, _ in spec.outcome_words} == set(spec.outcomes) - {"win"}, spec.name
