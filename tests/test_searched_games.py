"""A search takes the games earlier searches kept (snakesim.analysis.search.SameGames with a
catalogue): a balance, tune or design search on the same seed and players plays only the
games no earlier search played, says how many it took, and answers exactly as a search in an
empty catalogue does (game i of seed s is always the same game)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

from snakesim.analysis import search as search_module
from snakesim.analysis.search import SameGames
from snakesim.cli import cli
from snakesim.games import get_game
from snakesim.questions import catalogue as catalogue_module
from snakesim.questions.catalogue import Catalogue

# Each kind: the question's options, then two different questions on the same games.
SEARCHES = {
    "tune": (["tune", "fortune", "--vary", "start_coins=5:30", "-n", "500", "--max-games", "2000"],
             ["--target", "length.median=60"], ["--target", "length.median=50"]),
    "balance": (["balance", "fortune", "-p", "3", "--handicap", "start_coins", "--range", "18:22", "-n", "500",
                 "--max-games", "2000", "--confirm-games", "500"], ["--tolerance", "0.01"], ["--tolerance", "0.03"]),
    "design": (["design", "fortune", "-p", "3", "--vary", "start_coins=10,12", "-n", "300", "--budget", "20000"],
               ["--target", "length.median=60+-8"], ["--target", "length.median=55+-8"]),
}  # fmt: skip


@pytest.fixture(autouse=True)
def keep_every_game(monkeypatch, request):
    """Fortune's games are quicker to play again than to read back, so a search keeps none of
    them (test_only_games_slower_to_play_than_to_read_are_kept); these tests keep every game,
    to see searches take them on quick games."""
    if "slower_to_play" not in request.node.name:
        monkeypatch.setattr(search_module, "WORTH", 0.0)


def run(*args, home):
    return CliRunner().invoke(cli, [str(a) for a in args], env={**os.environ, "SNAKESIM_HOME": str(home)})


def answer_of(said: dict) -> dict:
    """An answer's figures and words: without the time it took, where it came from and how many
    of its games the catalogue gave (what differs between two plays of the same games)."""
    if isinstance(said, dict):
        return {k: answer_of(v) for k, v in said.items() if k not in ("elapsed_s", "games_from_catalogue", "catalogue")}
    if isinstance(said, list):
        return [answer_of(v) for v in said]
    return said


@pytest.mark.parametrize("kind", sorted(SEARCHES))
def test_a_search_takes_the_games_an_earlier_one_kept_and_answers_as_a_fresh_one(tmp_path, kind):
    base, first, second = SEARCHES[kind]
    assert run(*base, *first, "--json", home=tmp_path / "a").exit_code == 0
    words = run(*base, *second, home=tmp_path / "a")
    assert words.exit_code == 0, words.output
    assert " of its games came from the catalogue (kept by earlier searches of seed 1 with these players), so were " \
           "not played again." in words.output  # fmt: skip
    kept = json.loads(run(*base, *second, "--json", home=tmp_path / "a").output)  # (that answer, as kept)
    assert kept["search"]["games_from_catalogue"] > 0
    fresh = json.loads(run(*base, *second, "--json", home=tmp_path / "b").output)
    assert fresh["search"]["games_from_catalogue"] == 0
    assert answer_of(kept) == answer_of(fresh)
    # --fresh plays every game again (and keeps them).
    again = json.loads(run(*base, *second, "--json", "--fresh", home=tmp_path / "a").output)
    assert again["search"]["games_from_catalogue"] == 0 and answer_of(again) == answer_of(fresh)


def test_a_tune_asked_with_more_fresh_games_takes_every_game_it_played_before(tmp_path):
    """The same search with more confirming games: every search game and the first 500 of each
    confirmed value's fresh games come from the catalogue, and only the rest is played."""
    base, first, _ = SEARCHES["tune"]
    before = json.loads(run(*base, *first, "--confirm-games", "500", "--json", home=tmp_path).output)
    after = json.loads(run(*base, *first, "--confirm-games", "800", "--json", home=tmp_path).output)
    confirmed = 1 + (after["runner_up"] is not None)
    assert after["search"]["games_played"] == before["search"]["games_played"]
    assert after["search"]["games_from_catalogue"] == after["search"]["games_played"] + 500 * confirmed


def test_searched_games_read_back_whole_with_their_types(tmp_path):
    cat = Catalogue(tmp_path / "catalogue.sqlite")
    about = {"game": "fortune", "players": 3, "seed": 4, "first": 0, "seats": [], "rules": "abc"}
    columns = {"winner": np.array([0, 2, -1], dtype=np.int8), "length": np.array([7, 80_000, 3], dtype=np.int32),
               "draw": np.array([False, False, True]), "share": np.array([0.25, np.nan, 1.0])}  # fmt: skip
    assert cat.keep_searched([(about, columns)])
    back = cat.searched(about)
    assert set(back) == set(columns)
    for name, values in columns.items():
        assert back[name].dtype == values.dtype and np.array_equal(back[name], values, equal_nan=True)
    assert cat.searched({**about, "first": 3}) is None and cat.searched({**about, "seats": ["greedy"]}) is None
    cat.reuse = False  # (--fresh)
    assert cat.searched(about) is None


def test_games_other_code_played_are_not_taken(tmp_path, monkeypatch):
    cat = Catalogue(tmp_path / "catalogue.sqlite")
    about = {"game": "fortune", "players": 3, "seed": 4, "first": 0, "seats": [], "rules": "abc"}
    cat.keep_searched([(about, {"winner": np.zeros(5, dtype=np.int8)})])
    monkeypatch.setattr(catalogue_module, "_VERSION", "0" * 16)
    assert cat.searched(about) is None


def test_the_cap_removes_searched_games_before_any_answer_and_they_never_push_one_out(tmp_path):
    cat = Catalogue(tmp_path / "catalogue.sqlite", cap=60_000)
    answer = cat.keep(key="k", kind="compare", game="fortune", players=3, seed=1, games=10, rules=["standard"],
                      seconds=0.1, answer={"pad": "x" * 30_000}, words="w")  # fmt: skip
    rng = np.random.default_rng(0)
    for n in range(3):  # (about 16 kB each: incompressible)
        about = {"game": "fortune", "players": 3, "seed": n, "first": 0, "seats": [], "rules": "abc"}
        cat.keep_searched([(about, {"x": rng.integers(0, 2**62, 2_000)})])
    assert [e.id for e in cat.entries()] == [answer]  # (the answer stays; the oldest games went)
    assert cat.searched_size()[0] == 1 and cat.size() <= 60_000
    cat.keep(key="k2", kind="compare", game="fortune", players=3, seed=1, games=10, rules=["standard"],
             seconds=0.1, answer={"pad": "x" * 20_000}, words="w")  # fmt: skip
    assert cat.pruned == 0 and cat.searched_size() == (0, 0) and len(cat.entries()) == 2
    cat.keep_searched([({"game": "fortune", "players": 3, "seed": 9, "first": 0, "seats": [], "rules": "abc"},
                        {"x": rng.integers(0, 2**62, 2_000)})])  # fmt: skip
    assert len(cat.entries()) == 2  # (no room for it beside the answers: it goes, they stay)


def test_results_forget_all_removes_the_searched_games_too(tmp_path):
    base, first, _ = SEARCHES["tune"]
    assert run(*base, *first, home=tmp_path).exit_code == 0
    assert Catalogue(tmp_path / "catalogue.sqlite").searched_size()[0] > 0
    said = run("results", home=tmp_path).output
    assert "searched rule sets" in said, said
    assert run("results", "forget", "--all", home=tmp_path).exit_code == 0
    assert Catalogue(tmp_path / "catalogue.sqlite").searched_size() == (0, 0)


def test_a_catalogue_that_cannot_keep_the_games_costs_the_search_one_line(tmp_path, monkeypatch):
    import sqlite3

    def full(self, db):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Catalogue, "_searched_table", full)
    base, first, _ = SEARCHES["tune"]
    r = CliRunner().invoke(cli, [*base, *first], env={**os.environ, "SNAKESIM_HOME": str(tmp_path)})
    assert r.exit_code == 0 and "In words" in r.stdout
    assert r.stderr.count("\n") == 1 and "the games searched were not kept" in r.stderr and "disk is full" in r.stderr


def test_same_games_count_what_the_search_used_whether_played_or_taken(tmp_path):
    """``played`` (what a search's budget counts) is the same with a catalogue as without:
    games the catalogue gives are used, not extra."""
    spec = get_game("fortune")
    rules = spec.rules()
    cat = Catalogue(tmp_path / "catalogue.sqlite")
    first = SameGames(spec, 3, 5, kept=cat)
    first.games(rules, 300)
    first.close()
    second = SameGames(spec, 3, 5, kept=cat)
    a = second.games(rules, 200)
    b = second.games(rules, 500)
    second.close()
    plain = SameGames(spec, 3, 5)
    assert second.played == 500 and second.stored == 300 and cat.taken == 300
    assert all(np.array_equal(a[k], plain.games(rules, 200)[k]) for k in a)
    assert all(np.array_equal(b[k], plain.games(rules, 500)[k]) for k in b)
    assert Catalogue(tmp_path / "catalogue.sqlite").searched(second._about(rules))["winner"].size == 500


def test_the_api_takes_kept_games_when_given_a_catalogue(tmp_path):
    import snakesim

    ask = {"vary": "start_coins=5:30", "games": 500, "max_games": 2000, "confirm_games": 500}
    snakesim.tune("fortune", 4, "length.median=60", catalogue=tmp_path / "c.sqlite", **ask)
    kept = snakesim.tune("fortune", 4, "length.median=50", catalogue=tmp_path / "c.sqlite", **ask)
    plain = snakesim.tune("fortune", 4, "length.median=50", **ask)
    assert kept.summary["search"]["games_from_catalogue"] > 0 == plain.summary["search"]["games_from_catalogue"]
    assert answer_of(kept.summary) == answer_of(plain.summary) and kept.best == plain.best


def test_only_games_slower_to_play_than_to_read_are_kept(tmp_path):
    """Fortune's games (about 0.6 us each) are played again; Sssnake's (about 30 us) are kept,
    and a second search takes them."""
    cat = Catalogue(tmp_path / "catalogue.sqlite")
    for game, count in (("fortune", 20_000), ("sssnake", 2_000)):
        spec = get_game(game)
        SameGames(spec, 4, 6).games(spec.rules(), 200)  # (its kernels compiled and loaded, apart)
        search = SameGames(spec, 4, 6, kept=cat)
        search.games(spec.rules(), count)
        search.close()
    assert cat.searched_size()[0] == 1
    spec = get_game("sssnake")
    again = SameGames(spec, 4, 6, kept=cat)
    again.games(spec.rules(), 2_000)
    assert again.stored == 2_000
