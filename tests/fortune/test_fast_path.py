"""The kernel's fast path (a table of whole card effects on packed coins) plays the same games
as its exact path, and is really used."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakesim.games.fortune import kernel
from snakesim.games.fortune.kernel import F_CUP, F_DELTA, F_NEED, F_UNIT, ROW_BITS, STEP_SHIFT, TAKE_MASK
from snakesim.games.fortune.rules import Card, FortuneRules
from tests.fortune.test_identity import random_rules


def _same(a, b):
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


def _row(table, players, card, in_game, drawer):
    place = bin(in_game & ((1 << drawer) - 1)).count("1")  # (the drawer's place among the seats in)
    row = kernel.table_row(players, kernel.type_bits(len(FortuneRules().effects)), in_game, place, card)
    return table.reshape(-1, 1 << ROW_BITS)[row]


def _steps(advance, players=4):
    """The ``advance`` table as [in_game, card] entries (each card's entry is the first of its 4)."""
    return advance.reshape(1 << players, -1, 1 << ROW_BITS)[:, :, 0]


def _step(value):
    """An ``advance`` entry as (places the turn moves on, how the card takes the cup)."""
    return int(value) >> STEP_SHIFT, int(value) & TAKE_MASK


def _need(value, players):
    """The least coins each seat must have, packed in ``value``."""
    lane = 64 // players
    return [(int(value) >> (lane * s)) & ((1 << lane) - 1) for s in range(players)]


def _lanes(value, players):
    """The signed per-seat changes packed in ``value`` (a sum of ``v_s << lane * s``, mod 2**64)."""
    lane = 64 // players
    value = int(value)
    values = []
    for _ in range(players):
        low = value & ((1 << lane) - 1)
        low = low - (1 << lane) if low >= 1 << (lane - 1) else low
        values.append(low)
        value = (value - low) >> lane
    return values


def test_hand_checked_rows_of_the_seed_cards():
    # Four players, all in the game, seat 1 draws (left = seat 2, right = seat 0).
    table, advance = kernel.fast_table(FortuneRules(), 4)
    full = 0b1111
    hearts = _row(table, 4, Card.HEARTS, full, 1)  # takes 3 from seat 2, who skips: seat 3 draws next
    assert _need(hearts[F_NEED], 4) == [0, 0, 4, 0] and _lanes(hearts[F_DELTA], 4) == [0, 3, -3, 0]
    steps = _steps(advance)[full]
    assert _step(steps[Card.HEARTS]) == (2, 0) and _step(steps[Card.SUNS]) == (1, 0)
    assert _step(steps[Card.SNAKE]) == (1, 1)  # takes all of the cup
    river = _row(table, 4, Card.RIVER, full, 1)  # gives 3 to the right
    assert _need(river[F_NEED], 4) == [0, 4, 0, 0] and _lanes(river[F_DELTA], 4) == [3, -3, 0, 0]
    fountain = _row(table, 4, Card.FOUNTAIN, full, 1)
    assert _need(fountain[F_NEED], 4) == [2, 2, 2, 2] and fountain[F_CUP] == 4
    snake = _row(table, 4, Card.SNAKE, full, 1)  # the cup's amount is the kernel's business
    assert snake[F_UNIT] == 1 << 16 and snake[F_DELTA] == 0
    half = FortuneRules().updated({"effects": {"SNAKE": [{"take_cup": "half"}]}})
    assert _step(_steps(kernel.fast_table(half, 4)[1])[full, Card.SNAKE]) == (1, 2)
    # Seat 2 out: seat 1's left is seat 3, and CROSSES gives to two players.
    crosses = _row(table, 4, Card.CROSSES, 0b1011, 1)
    assert _need(crosses[F_NEED], 4) == [0, 3, 0, 0] and _lanes(crosses[F_DELTA], 4) == [1, -2, 0, 1]


def test_place_cycle_gives_each_turns_place_for_every_count_of_seats():
    bits = kernel.type_bits(len(FortuneRules().effects))  # 11 kinds of card: 16 rows a drawer
    cycle = kernel.place_cycle(52, bits)
    turns = 2 * 52 + kernel.FAST_MAX_PLAYERS  # a run of 52 cards, each moving on up to 2 places
    assert bits == 4 and cycle.shape == ((kernel.FAST_MAX_PLAYERS + 1) * turns,)
    rows = 1 << (bits + ROW_BITS)  # words from one place's rows to the next place's
    three = cycle[3 * turns : 4 * turns] // rows
    assert three[:7].tolist() == [0, 1, 2, 0, 1, 2, 0] and three[-1] == (turns - 1) % 3
    assert (cycle[2 * turns : 3 * turns] // rows)[:5].tolist() == [0, 1, 0, 1, 0]
    assert (cycle[8 * turns :] // rows)[[0, 7, 8, 9]].tolist() == [0, 7, 0, 1]


def test_rows_that_cannot_be_fixed_go_the_exact_way():
    never = [1 << 15] * 4  # more coins than a lane can hold
    # RIVER with rejoin gives to seat 0 even when out: not fast there, fast when seat 0 is in.
    table, _ = kernel.fast_table(FortuneRules.variant("rejoin"), 4)
    assert _need(_row(table, 4, Card.RIVER, 0b1110, 1)[F_NEED], 4) == never
    assert _need(_row(table, 4, Card.RIVER, 0b1111, 1)[F_NEED], 4) == [0, 4, 0, 0]
    # A skip of the right neighbour waits for a later turn with three in the game, not with two.
    rules = FortuneRules().updated({"effects": {"HEARTS": [{"skip": "right"}]}})
    table, advance = kernel.fast_table(rules, 4)
    assert _need(_row(table, 4, Card.HEARTS, 0b0111, 1)[F_NEED], 4) == never
    assert _step(_steps(advance)[0b0011, Card.HEARTS]) == (2, 0)  # two in the game: right = left
    # The cup taken before another primitive depends on the cup: exact.
    rules = FortuneRules().updated({"effects": {"SNAKE": [{"take_cup": "all"}, {"cup": 1}]}})
    table, _ = kernel.fast_table(rules, 4)
    assert _need(_row(table, 4, Card.SNAKE, 0b1111, 0)[F_NEED], 4) == never


@pytest.mark.parametrize("variant", list(FortuneRules.VARIANTS))
@pytest.mark.parametrize("players", (2, 3, 4, 5, 6, 7))
def test_fast_and_exact_paths_play_the_same_games(variant, players):
    rules = FortuneRules.variant(variant)
    assert kernel.encode(rules, players)[kernel.P_FAST] == 1
    _same(kernel.play_block(rules, players, 3, 0, 2000), kernel.play_block(rules, players, 3, 0, 2000, fast=False))


def test_eight_players_with_few_coins_use_the_fast_path_and_with_many_do_not():
    few, many = FortuneRules(start_coins=12), FortuneRules()  # 8 x 20 coins do not fit in 8-bit lanes
    assert kernel.encode(few, 8)[kernel.P_FAST] == 1 and kernel.encode(many, 8)[kernel.P_FAST] == 0
    _same(kernel.play_block(few, 8, 1, 0, 500), kernel.play_block(few, 8, 1, 0, 500, fast=False))
    _same(kernel.play_block(many, 8, 1, 0, 200), kernel.play_block(many, 8, 1, 0, 200, fast=False))


def test_the_table_is_what_the_kernel_plays(monkeypatch):
    # A wrong row changes the games: the fast path is taken (and a bug in the table would show).
    rules = FortuneRules()
    right = kernel.play_block(rules, 4, 1, 0, 300)
    table, advance = kernel.fast_table(rules, 4)
    wrong = table.copy().reshape(-1, 1 << ROW_BITS)
    row = kernel.table_row(4, kernel.type_bits(len(rules.effects)), 0b1111, 0, Card.LEAVES)
    wrong[row, F_CUP] = 2  # LEAVES puts 2 in the cup...
    monkeypatch.setattr(kernel, "fast_table", lambda *_: (wrong.ravel(), advance))
    changed = kernel.play_block(rules, 4, 1, 0, 300)
    assert (changed["max_cup"] != right["max_cup"]).any()


@settings(max_examples=40, deadline=None)
@given(rules=random_rules(), players=st.integers(2, 6), seed=st.integers(0, 2**63 - 1))
def test_fast_and_exact_paths_agree_under_random_rules(rules, players, seed):
    # Many more games than the reference engine can play: house rules of every shape.
    fast = kernel.play_block(rules, players, seed, 0, 300)
    _same(fast, kernel.play_block(rules, players, seed, 0, 300, fast=False))
