"""The game-feel definitions (snakesim.core.feel): by hand, and the kernels' running record
against the readable version on random histories."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from snakesim.core import feel, feel_lanes, feel_record
from snakesim.core.jit import njit


@njit
def _kernel_figures(values, sign, winner, history):
    """What a kernel writes down and reads off, for a whole history at once."""
    length = values.shape[0] - 1
    n = values.shape[1]
    for t in range(length + 1):
        feel_record.store(history, values[t], sign, n, t)
    return feel_record.summarise(history, n, length, winner), feel_record.zeros(history, n, length)


def kernel_figures(history, winner, sign=1):
    values = np.asarray(history, dtype=np.int64) * sign
    scratch = feel_record.scratch(values.shape[0] - 1, values.shape[1])
    summary, zeros = _kernel_figures(values, np.int64(sign), np.int64(winner), scratch)
    names = [name for name, _, _ in feel.COLUMNS]
    return dict(zip(names, summary, strict=True)), zeros


def same(a, b):
    return a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b))


def test_a_game_by_hand():
    # Steps 0..8 of three seats. Sole leaders: -, 0, 0, 1, -, 1, 2, 1, 1: changes 0->1, 1->2, 2->1.
    history = [
        [5, 5, 5],
        [7, 5, 3],
        [8, 4, 3],
        [6, 9, 0],
        [7, 7, 1],
        [5, 8, 2],
        [5, 6, 9],
        [4, 9, 2],
        [3, 12, 0],
    ]
    got = feel.figures(history, winner=1)
    assert got == {
        "lead_changes": 3,
        "tie_break": 0,
        "decided": 7 / 8,  # seat 1 leads alone from step 7 to the end
        "comeback": 0,  # step 4: seat 1 shares the top (7, 7): not below it
        "deficit": 4,  # step 2: 8 - 4 (step 6: 9 - 6 = 3)
        "leader_q1": 0,  # step 2
        "leader_q2": -1,  # step 4: a tie
        "leader_q3": 2,  # step 6
    }
    # Seat 2 is at 0 after steps 3 and 8; it waits through card 4 only: after step 8, the last,
    # nobody waits (the game is over).
    assert feel.out_share(history) == 1 / 24
    kernel, zeros = kernel_figures(history, 1)
    assert all(same(kernel[k], got[k]) for k in got) and zeros == 1


def test_a_tie_break_winner_and_no_winner():
    history = [[0, 0], [1, 0], [1, 1]]
    got = feel.figures(history, winner=1)
    assert got["tie_break"] == 1 and got["decided"] == 1.0 and got["lead_changes"] == 0
    assert got["comeback"] == 1 and got["deficit"] == 1  # step 1: seat 1 behind
    none = feel.figures(history, winner=-1)
    assert math.isnan(none["decided"]) and none["comeback"] == none["deficit"] == none["tie_break"] == -1
    # A leader from the deal who never lets go: decided at step 0.
    assert feel.figures([[2, 1], [3, 1], [4, 0]], winner=0)["decided"] == 0.0


histories = st.integers(1, 6).flatmap(
    lambda n: st.lists(st.lists(st.integers(-3, 3), min_size=n, max_size=n), min_size=1, max_size=30).map(
        lambda h: (h, n)
    )
)


@settings(max_examples=300, deadline=None)
@given(histories, st.integers(-1, 5), st.sampled_from([1, -1]))
def test_the_kernels_record_gives_the_readable_figures(case, winner, sign):
    history, n = case
    winner = winner if winner < n else -1
    got = feel.figures(history, winner)
    kernel, zeros = kernel_figures(history, winner, sign)
    assert all(same(kernel[k], got[k]) for k in got), (kernel, got)
    assert zeros == sum(v == 0 for h in history[:-1] for v in h)  # (the states a card is still drawn from)


@njit
def _lanes_figures(values, winner, packed, guard):
    """The packed-lane record (``feel_lanes``) of a whole history, each word's lane top bits
    set where ``guard`` (as Fortune's fast path keeps them)."""
    length = values.shape[0] - 1
    n = values.shape[1]
    for t in range(length + 1):
        feel_lanes.store(packed, values[t], 1, n, t)
        packed[0][t] |= guard
    return feel_lanes.summarise(packed, n, length, winner)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda n: st.lists(st.lists(st.integers(-3, 9), min_size=n, max_size=n), min_size=1, max_size=70).map(
            lambda h: (h, n)
        )
    ),
    st.integers(-1, 3),
    st.booleans(),
)
def test_the_packed_lanes_give_the_readable_figures(case, winner, guard):
    # Up to four seats in 16-bit lanes, eight steps a vector and sixteen a word of nibbles:
    # histories of 1 to 70 steps cross every boundary; standings from -3 (the least, packed as 0).
    history, n = case
    winner = winner if winner < n else -1
    packed = feel_lanes.scratch(len(history) - 1, lowest=-3)
    mask = np.uint64(0x8000_8000_8000_8000 if guard else 0)
    summary, zeros = _lanes_figures(np.asarray(history, np.int64), np.int64(winner), packed, mask)
    got = dict(zip((name for name, _, _ in feel.COLUMNS), summary, strict=True))
    want = feel.figures(history, winner)
    assert all(same(got[k], want[k]) for k in want), (got, want)
    assert zeros == sum(v + 3 == 0 for h in history[:-1] for v in h)  # (lanes at the least standing)


def test_nobody_waits_out_of_a_two_player_fortune():
    """A designer read "Players who are out spend 11.8% of the game waiting" for 2 players, where
    a game ends when a player goes out: the card that put the loser out was counted as waited
    through. Both engines count only the cards drawn after a seat went out."""
    from click.testing import CliRunner

    from snakesim.cli import cli
    from snakesim.games import get_game

    spec = get_game("fortune")
    rules = spec.rules().with_settings(["start_coins=5"])
    kernel = spec.play_block(rules, 2, 3, 0, 300)
    assert kernel["length"].min() > 0 and np.all(kernel["out_share"] == 0.0)
    reference = [spec.play_reference(rules, 2, 3, i)[0] for i in range(20)]
    assert all(r["out_share"] == 0.0 for r in reference)
    r = CliRunner().invoke(cli, ["run", "fortune", "-p", "2", "--set", "start_coins=5", "-n", "300", "-t", "1"])
    assert r.exit_code == 0, r.output
    assert "In none of these games does a player sit out waiting for the game to end." in r.output
    assert "of the game waiting" not in r.output
    # With four players some do wait, and less than the old count said (each out seat one card less).
    four = spec.play_block(spec.rules().with_settings(["start_coins=5"]), 4, 3, 0, 300)
    assert 0.05 < four["out_share"].mean() < 0.5
