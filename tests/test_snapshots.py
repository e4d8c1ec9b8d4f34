"""Every word pinned: the figure registry and what each kind of question prints for small fixed
questions per game, against reviewed snapshots in ``tests/snapshots/`` (``make snapshots``
regenerates them; read the diff before committing it)."""

import dataclasses

import pytest

from snakesim.core import figures
from tests import snapshots

REGENERATE = "the words changed: if that is meant, run `make snapshots` and read `git diff tests/snapshots/`"


@pytest.mark.parametrize("name", snapshots.names())
def test_what_snakesim_says_matches_its_snapshot(name):
    kept = snapshots.path(name)
    assert kept.exists(), f"no snapshot {kept.name}: run `make snapshots`"
    found = snapshots.differs(kept.read_text(), snapshots.render(name), json_=name.endswith(".json"))
    assert found is None, f"{name}: {REGENERATE}\n{found}"


def test_every_snapshot_file_is_one_the_suite_checks():
    # A question removed from QUESTIONS leaves no stale file that looks checked.
    on_disk = {p.stem for p in snapshots.HERE.glob("*.txt")} | {p.name for p in snapshots.HERE.glob("*.json")}
    assert on_disk == set(snapshots.names())


def test_the_registry_snapshot_fails_when_a_noun_changes(monkeypatch):
    # The share of draws named as the share of unfinished games: a refactor's slip.
    kept = snapshots.render("figures")
    swapped = tuple(
        dataclasses.replace(f, noun="the share of unfinished games") if f.id == "draw" else f for f in figures.FIGURES
    )
    monkeypatch.setattr(figures, "FIGURES", swapped)
    found = snapshots.differs(kept, snapshots.render("figures"))
    assert found is not None and "unfinished" in found


@pytest.mark.parametrize("field", ["label", "line", "short", "noun", "unit", "kind"])
def test_the_registry_snapshot_holds_every_word_field(field):
    # Each field's value is on its own line of the figure's entry, so a change to any one shows.
    text = snapshots.render("figures")
    for f in figures.FIGURES:
        assert f"{field} = {getattr(f, field)!r}" in text.split(f"[{f.id}]")[1].split("\n\n")[0]


def test_the_registry_snapshot_holds_the_words_for_more_and_fewer():
    text = snapshots.render("figures")
    comeback = text.split("[comeback]")[1].split("\n\n")[0]
    assert "More winners come from behind" in comeback and "Fewer winners come from behind" in comeback
    assert "matters = 0.03" in comeback


@pytest.mark.parametrize(
    ("kept", "now", "same"),
    [
        ("seat 0 wins 25.06% [24.80%, 25.33%]", "seat 0 wins 25.06% [24.80%, 25.33%]", True),
        ("seat 0 wins 25.06%", "seat 0 wins 25.07%", True),  # one unit of the last digit: rounding
        ("seat 0 wins 25.06%", "seat 0 wins 25.08%", False),
        ("seat 0 wins 25.06%", "seat 1 wins 25.06%", False),  # a whole number exactly
        ("25,065 games", "25,066 games", False),
        ("games get longer", "games get shorter", False),
        ("More winners come from behind", "Fewer winners come from behind", False),
        ("mean 157.44 [156.88, 157.99]", "mean 157.44 [156.88, 157.99]\nmore", False),  # a line more
        ("+2.8 [+1.5, +4.0] points", "-2.8 [+1.5, +4.0] points", False),  # a sign
        ("0.1209 [0.1144, 0.1274]", "0.1209 [0.1144, 0.1275]", True),
        ("48 [47, 49]", "48 [47, 50]", False),
    ],
)
def test_a_snapshot_tells_words_and_numbers_apart(kept, now, same):
    assert (snapshots.differs(kept, now) is None) is same


@pytest.mark.parametrize(
    ("kept", "now", "same"),
    [
        ({"a": 0.25, "b": [1, "x"]}, {"a": 0.25 + 1e-15, "b": [1, "x"]}, True),
        ({"a": 0.25}, {"a": 0.2501}, False),
        ({"a": 1}, {"a": 2}, False),
        ({"a": 1}, {"b": 1}, False),
        ({"a": [1, 2]}, {"a": [1, 2, 3]}, False),
        ({"a": "more"}, {"a": "fewer"}, False),
        ({"a": float("nan")}, {"a": float("nan")}, True),
        ({"a": None}, {"a": 0.0}, False),
        ({"a": 1}, {"a": 1.0}, False),  # a count became a float
    ],
)
def test_a_json_snapshot_compares_structure_and_floats_within_a_tolerance(kept, now, same):
    import json

    assert (snapshots.differs(json.dumps(kept), json.dumps(now), json_=True) is None) is same


def test_the_time_a_question_took_is_left_out():
    assert snapshots._CLOCK.sub("<time>", "20,000 games in 3.2 s, 8,000 more") == "20,000 games in <time>, 8,000 more"
    assert snapshots._CLOCK.sub("<time>", "seat 3 wins") == "seat 3 wins"
