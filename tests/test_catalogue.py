"""Answers remembered (snakesim.questions.catalogue): a comparison asked again is answered from
the catalogue with the same numbers and says so; ``results`` lists, shows and forgets; and
nothing is lost or wrong: two processes storing at once, a process killed while storing, a
damaged or foreign file (named, never written), a full disk, the cap, and an answer from other
code (listed, never served as current)."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from snakesim.cli import cli
from snakesim.questions import catalogue as catalogue_module
from snakesim.questions.catalogue import Catalogue

ASK = ["compare", "fortune", "-p", "3", "-n", "2000", "--seed", "3", "-v", "standard", "-v", "one-snake"]


def run(*args, home=None):
    env = None if home is None else {**os.environ, "SNAKESIM_HOME": str(home)}
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


def keep(cat: Catalogue, n: int = 0, size: int = 10, **listed) -> int:
    fields = {
        "key": f"k{n}",
        "kind": "compare",
        "game": "fortune",
        "players": 4,
        "seed": 1,
        "games": 1000,
        "rules": ["standard"],
        "seconds": 0.5,
        "answer": {"n": n, "pad": "x" * size},
        "words": f"answer {n}",
    }
    return cat.keep(**{**fields, **listed})  # fmt: skip


# ---------------------------------------------------------------------------- asked again


def test_a_comparison_asked_again_comes_from_the_catalogue_with_the_same_numbers(tmp_path):
    first = run(*ASK, "--json", home=tmp_path)
    assert first.exit_code == 0, first.output
    again = run(*ASK, "--json", home=tmp_path)
    assert again.exit_code == 0, again.output
    said, kept = json.loads(first.output), json.loads(again.output)
    assert "catalogue" not in said and kept.pop("catalogue")["id"] == 1
    assert kept == said  # (every number, every word)
    words = run(*ASK, home=tmp_path)
    assert words.output.rstrip().endswith("--fresh plays them again.")
    assert "From the catalogue (answer 1)" in words.output
    # The words are the command's own: the first run's text, then where they came from.
    fresh = run(*ASK, "--fresh", home=tmp_path)
    assert "From the catalogue" not in fresh.output
    assert fresh.output.rstrip() == words.output.rstrip().rpartition("\n\nFrom the catalogue")[0]
    listed = json.loads(run("results", "--json", home=tmp_path).output)
    assert [(e["id"], e["game"], e["kind"], e["seed"], e["games"], e["players"]) for e in listed] == [
        (1, "fortune", "compare", 3, 2000, 3), (2, "fortune", "compare", 3, 2000, 3)]  # fmt: skip


def test_another_question_is_played_not_served(tmp_path):
    assert run(*ASK, home=tmp_path).exit_code == 0
    other = run(*ASK[:5], "2001", *ASK[6:], home=tmp_path)  # (one game more: another question, for now)
    assert other.exit_code == 0 and "From the catalogue" not in other.output
    assert "From the catalogue" not in run(*ASK, "-v", "rejoin", home=tmp_path).output
    assert len(Catalogue(tmp_path / "catalogue.sqlite").entries()) == 3


def test_an_answer_from_other_code_is_listed_marked_and_played_again(tmp_path, monkeypatch):
    assert run(*ASK, home=tmp_path).exit_code == 0
    monkeypatch.setattr(catalogue_module, "_VERSION", "another version")
    listed = run("results", home=tmp_path).output
    assert "(older code: played again when asked)" in listed
    assert "From the catalogue" not in run(*ASK, home=tmp_path).output  # (played anew, and kept)
    entries = Catalogue(tmp_path / "catalogue.sqlite").entries()
    assert [e.current for e in entries] == [False, True]


def test_the_catalogue_moves_with_snakesim_home_or_catalogue(tmp_path, monkeypatch):
    monkeypatch.setenv("SNAKESIM_HOME", str(tmp_path / "home"))
    assert catalogue_module.default_path() == tmp_path / "home" / "catalogue.sqlite"
    monkeypatch.delenv("SNAKESIM_HOME")
    import platformdirs

    assert catalogue_module.default_path() == platformdirs.user_data_path("snakesim") / "catalogue.sqlite"
    there = tmp_path / "elsewhere.sqlite"
    assert run(*ASK, "--catalogue", there, home=tmp_path / "home").exit_code == 0
    assert there.exists() and not (tmp_path / "home" / "catalogue.sqlite").exists()
    assert "From the catalogue" in run(*ASK, "--catalogue", there).output


# ---------------------------------------------------------------------------- results


def test_results_lists_filters_shows_and_forgets(tmp_path):
    cat = Catalogue(tmp_path / "c.sqlite")
    one, two, three = (keep(cat, n, game=g) for n, g in ((1, "fortune"), (2, "hisss"), (3, "fortune")))
    where = ["--catalogue", tmp_path / "c.sqlite"]
    assert [e["id"] for e in json.loads(run("results", "--json", "--game", "fortune", *where).output)] == [one, three]
    assert json.loads(run("results", "--json", "--since", "2999-01-01", *where).output) == []
    assert run("results", "show", two, *where).output.startswith("answer 2\n\nAnswer 2, played on ")
    assert json.loads(run("results", "show", two, "--json", *where).output) == {"n": 2, "pad": "x" * 10}
    assert run("results", "forget", one, *where).output.startswith("1 answer removed")
    assert [e.id for e in cat.entries()] == [two, three]
    assert run("results", "forget", "--before", "2999-01-01", *where).output.startswith("2 answers removed")
    assert run("results", *where).output == "No answers kept yet.\n"


def test_the_newest_answers_by_the_start_of_their_key_list_without_their_answers(tmp_path):
    """What the workbench lists: its own answers (keys that start "workbench:"), newest first,
    at most so many, and how many there are."""
    cat = Catalogue(tmp_path / "c.sqlite")
    assert cat.newest(5, "workbench:") == [] and cat.count("workbench:") == 0  # (no file yet: none, and none made)
    assert not (tmp_path / "c.sqlite").exists()
    ids = [keep(cat, n, key=f"workbench:k{n}" if n % 2 else f"k{n}") for n in range(7)]
    newest = cat.newest(2, "workbench:")
    assert [e.id for e in newest] == [ids[5], ids[3]] and [e.key for e in newest] == ["workbench:k5", "workbench:k3"]
    assert all(e.answer == {} and e.words == "" for e in newest)  # (a list's lines: the answers left unread)
    assert [e.id for e in cat.newest(10, "workbench:")] == [ids[5], ids[3], ids[1]]
    assert [e.id for e in cat.newest(3)] == ids[:-4:-1] and cat.newest(0) == []
    assert cat.count("workbench:") == 3 and cat.count() == 7 and cat.count("work%") == 0  # (a prefix, not a pattern)
    assert cat.newest(5, "k_") == [] and cat.count("k") == 4


@pytest.mark.parametrize(
    ("args", "field"),
    [(["results", "show", "7"], "ID"), (["results", "forget"], "forget"), (["results", "forget", "7"], "ID"),
     (["results", "--since", "yesterday"], "--since"), (["results", "forget", "--before", "2026-02-30"], "--before")],
)  # fmt: skip
def test_bad_input_to_results_gets_one_line(tmp_path, args, field):
    cat = Catalogue(tmp_path / "catalogue.sqlite")
    keep(cat)
    cat.close()  # (its last connection: the answer is in the file itself, not its write-ahead log)
    before = (tmp_path / "catalogue.sqlite").read_bytes()
    r = run(*args, home=tmp_path)
    assert r.exit_code == 2 and r.output.count("\n") == 1 and f"error: {field}" in r.output, r.output
    assert (tmp_path / "catalogue.sqlite").read_bytes() == before


# ---------------------------------------------------------------------------- nothing lost, nothing wrong


@pytest.mark.parametrize("content", [b"not a database at all\n" * 50, b"SQLite format 3\x00" + b"\xff" * 4000])
def test_a_damaged_catalogue_is_named_in_one_line_and_never_written(tmp_path, content):
    path = tmp_path / "catalogue.sqlite"
    path.write_bytes(content)
    r = run(*ASK, home=tmp_path)
    assert r.exit_code == 2 and r.output.count("\n") == 1 and str(path) in r.output, r.output
    assert path.read_bytes() == content
    assert run("results", home=tmp_path).exit_code == 2 and path.read_bytes() == content


def test_a_foreign_sqlite_file_is_named_and_never_written(tmp_path):
    path = tmp_path / "catalogue.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    before = path.read_bytes()
    r = run(*ASK, home=tmp_path)
    assert r.exit_code == 2 and "is an SQLite file but not a snakesim catalogue" in r.output and str(path) in r.output
    assert path.read_bytes() == before


def _store_many(path: str, tag: int, count: int) -> None:
    cat = Catalogue(path)
    for n in range(count):
        keep(cat, 1000 * tag + n, size=2000)


def test_two_processes_storing_at_once_both_keep_every_answer(tmp_path):
    path = str(tmp_path / "catalogue.sqlite")
    Catalogue(path).entries()  # (nothing yet: reading makes no file)
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_store_many, args=(path, tag, 40)) for tag in (1, 2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
        assert w.exitcode == 0
    answers = sorted(e.answer["n"] for e in Catalogue(path).entries(whole=True))
    assert answers == sorted([1000 + n for n in range(40)] + [2000 + n for n in range(40)])


KILLED = """
import sys
from snakesim.questions.catalogue import Catalogue
cat = Catalogue(sys.argv[1])
print("ready", flush=True)
n = 0
while True:
    cat.keep(key=f"k{n}", kind="compare", game="fortune", players=4, seed=1, games=1000, rules=["standard"],
             seconds=0.5, answer={"n": n, "pad": "x" * 200_000}, words="w")
    n += 1
"""


def test_a_process_killed_while_storing_leaves_every_answer_whole(tmp_path):
    path = tmp_path / "catalogue.sqlite"
    keep(Catalogue(path), 0)
    for pause in (0.05, 0.2, 0.4):
        child = subprocess.Popen([sys.executable, "-c", KILLED, str(path)], stdout=subprocess.PIPE)
        assert child.stdout.readline() == b"ready\n"
        time.sleep(pause)
        child.send_signal(signal.SIGKILL)
        child.wait()
        cat = Catalogue(path)
        entries = cat.entries(whole=True)  # (every one reads back whole: its JSON parses)
        assert entries[0].answer == {"n": 0, "pad": "x" * 10}
        assert all(e.answer["pad"] == "x" * 200_000 for e in entries[1:])
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        cat.close()


PAUSED = """
import sys, time
from snakesim.questions import catalogue

def paused(self, kind, value, tb):  # (the answer written, not yet committed: killed here)
    print("storing", flush=True)
    time.sleep(120)

catalogue._transaction.__exit__ = paused
from snakesim.cli import main
sys.argv = ["snakesim", *sys.argv[1:]]
main()
"""


def test_a_compare_killed_while_storing_leaves_the_catalogue_readable(tmp_path):
    """The issue's case: ``snakesim compare`` killed with SIGKILL in the middle of storing its
    answer (inside the transaction) leaves every earlier answer whole and the new one absent;
    the question asked again is played and kept."""
    assert run(*ASK, home=tmp_path).exit_code == 0
    other = [*ASK[:-1], "rejoin"]
    env = {**os.environ, "SNAKESIM_HOME": str(tmp_path)}
    child = subprocess.Popen([sys.executable, "-c", PAUSED, *other], env=env, stdout=subprocess.PIPE)
    assert child.stdout.readline() == b"storing\n"
    child.send_signal(signal.SIGKILL)
    child.wait()
    with sqlite3.connect(tmp_path / "catalogue.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    listed = json.loads(run("results", "--json", home=tmp_path).output)
    assert [e["rules"] for e in listed] == [["standard", "one-snake"]]
    assert run("results", "show", "1", home=tmp_path).output.startswith(run(*ASK, home=tmp_path).output[:200])
    again = run(*other, "--json", home=tmp_path)
    assert again.exit_code == 0 and "catalogue" not in json.loads(again.output)
    assert [e["id"] for e in json.loads(run("results", "--json", home=tmp_path).output)] == [1, 2]


def test_the_cap_prunes_the_oldest_first_and_says_so(tmp_path):
    cat = Catalogue(tmp_path / "catalogue.sqlite", cap=25_000)
    ids = [keep(cat, n, size=10_000) for n in range(2)]
    assert cat.pruned == 0
    ids.append(keep(cat, 2, size=10_000))
    assert cat.pruned == 1 and [e.id for e in cat.entries()] == ids[1:]
    big = keep(cat, 3, size=100_000)  # (larger than the cap alone: kept, every other one pruned)
    assert cat.pruned == 2 and [e.id for e in cat.entries()] == [big]


def test_a_full_disk_costs_the_answer_nothing_but_one_line(tmp_path, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Catalogue, "keep", full)
    r = CliRunner().invoke(cli, ASK, env={**os.environ, "SNAKESIM_HOME": str(tmp_path)})
    assert r.exit_code == 0 and "In words" in r.stdout
    assert r.stderr.count("\n") == 1 and "the answer was not kept" in r.stderr and "No space left" in r.stderr


def test_the_cap_is_the_catalogues_own_and_results_cap_sets_it(tmp_path):
    cat = Catalogue(tmp_path / "catalogue.sqlite")
    for n in range(3):
        keep(cat, n, size=30_000)
    cat.close()
    said = run("results", "cap", home=tmp_path).output
    assert said.startswith("The catalogue keeps at most 500 MB of answers; it holds 0.1 MB")
    assert run("results", "cap", "0.07", home=tmp_path).output == (
        "The catalogue keeps at most 0.07 MB of answers from now on; the oldest answer was removed.\n")  # fmt: skip
    again = Catalogue(tmp_path / "catalogue.sqlite")
    assert again.cap == 70_000 and [e.answer["n"] for e in again.entries(whole=True)] == [1, 2]
    keep(again, 3, size=30_000)  # (the file's own cap holds for every later keep)
    assert again.pruned == 1 and [e.answer["n"] for e in again.entries(whole=True)] == [2, 3]
    r = run("results", "cap", "0", home=tmp_path)
    assert r.exit_code == 2 and "MEGABYTES" in r.output and r.output.count("\n") == 1


# ---------------------------------------------------------------------------- more games than kept


def test_more_games_play_only_the_games_they_lack_and_equal_a_fresh_run(tmp_path):
    """The issue's case, small: -n 2000 kept, then -n 4000 plays games 2000 to 3999 only and
    gives what a fresh 4000-game run gives in another catalogue, number for number."""
    more = [*ASK[:5], "4000", *ASK[6:], "--json"]
    assert run(*ASK, home=tmp_path / "a").exit_code == 0
    extended = run(*more, home=tmp_path / "a")
    assert extended.exit_code == 0, extended.output
    said = json.loads(extended.output)
    assert said.pop("catalogue") == {"extends": 1, "games_kept": 2000}
    fresh = json.loads(run(*more, home=tmp_path / "b").output)
    assert "catalogue" not in fresh and said == fresh
    words = run(*more[:-1], "--fresh", home=tmp_path / "a").output
    assert "came from the catalogue" not in words
    extended_words = run(*[*ASK[:5], "6000", *ASK[6:]], home=tmp_path / "a").output
    assert "Games 0 to 3,999 came from the catalogue (answer " in extended_words
    assert "games 4,000 to 5,999 were played now" in extended_words
    # Fewer games than kept: played (a tally cannot give its first games back).
    fewer = run(*[*ASK[:5], "1000", *ASK[6:], "--json"], home=tmp_path / "a")
    assert "catalogue" not in json.loads(fewer.output)
    listed = json.loads(run("results", "--json", home=tmp_path / "a").output)
    assert [e["games"] for e in listed] == [2000, 4000, 4000, 6000, 1000]


# ---------------------------------------------------------------------------- every kind of question


@pytest.mark.parametrize(
    ("kind", "args", "needs_games"),
    [
        ("balance", ["fortune", "-p", "3", "--handicap", "start_coins", "--range", "18:22", "-n", "500",
                     "--max-games", "1000", "--confirm-games", "500"], ["--plot", "fix.png"]),
        ("tune", ["fortune", "--target", "length.median=60", "--vary", "start_coins=5:30", "-n", "500", "--max-games",
                  "1000", "--confirm-games", "500"], ["--plot", "tune.png"]),
        ("design", ["fortune", "-p", "3", "--vary", "start_coins=10,12", "-n", "300", "--target", "length.median=60+-8",
                    "--budget", "20000"], ["--out", "answers"]),
        ("skill", ["hisss", "-p", "3", "-n", "300", "-k", "4", "-s", "7"], ["--plot", "skill.png"]),
        ("sweep", ["fortune", "-p", "3,4", "--set", "start_coins=5,10", "-n", "500"], ["--plot", "sweep.png"]),
    ],
)  # fmt: skip
def test_every_search_asked_again_comes_from_the_catalogue(tmp_path, monkeypatch, kind, args, needs_games):
    monkeypatch.chdir(tmp_path)
    first = run(kind, *args, "--json", home=tmp_path)
    assert first.exit_code == 0, first.output
    again = json.loads(run(kind, *args, "--json", home=tmp_path).output)
    assert again.pop("catalogue")["id"] == 1 and again == json.loads(first.output)
    words = run(kind, *args, home=tmp_path).output
    assert words.rstrip().endswith("--fresh plays them again.") and "In words" in words
    # What needs the games themselves (a figure, the answers' rules files) plays them, and keeps that answer too.
    drawn = run(kind, *args, *needs_games, "--json", home=tmp_path)
    assert drawn.exit_code == 0 and "catalogue" not in json.loads(drawn.output)
    assert "catalogue" not in json.loads(run(kind, *args, "--json", "--fresh", home=tmp_path).output)
    assert [e["kind"] for e in json.loads(run("results", "--json", home=tmp_path).output)] == [kind] * 3


def test_two_comparisons_kept_at_once_from_two_processes_are_both_listed(tmp_path):
    command = [os.path.join(os.path.dirname(sys.executable), "snakesim"), *ASK[:10]]
    env = {**os.environ, "SNAKESIM_HOME": str(tmp_path)}
    children = [subprocess.Popen([*command, "-v", variant], env=env, stdout=subprocess.DEVNULL)
                for variant in ("one-snake", "rejoin")]  # fmt: skip
    assert [child.wait(120) for child in children] == [0, 0]
    listed = json.loads(run("results", "--json", home=tmp_path).output)
    assert sorted(tuple(e["rules"]) for e in listed) == [("standard", "one-snake"), ("standard", "rejoin")]
