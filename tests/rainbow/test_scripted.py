"""Scripted deals with hand-checked games. Both engines play each and must agree.

Cards are dealt one at a time clockwise from seat 0 from the top of the scripted deck; the
rest is the stock. Greedy is chosen where its choice is forced or worked out in the comment.
"""

import numpy as np

from snakesim.core.rng import Stream
from snakesim.games.fortune.rules import Card
from snakesim.games.rainbow import kernel, reference
from snakesim.games.rainbow.rules import BLOCKED_DRAW, BLOCKED_WIN, GREEDY, RANDOM, WIN, RainbowRules
from tests.identity import same

LEAVES, POPPIES, SUNS, STARS, HEARTS = Card.LEAVES, Card.POPPIES, Card.SUNS, Card.STARS, Card.HEARTS
RAIN, RIVER, CROSSES, SNAKE = Card.RAIN, Card.RIVER, Card.CROSSES, Card.SNAKE


def reference_game(cards, players, policies, game=0, **options):
    g = reference.RainbowGame(
        RainbowRules().updated(options), players, policies, Stream(5, game), deck=cards, trace=True
    )
    return g.play_game(), g.moves


def play(cards, players, policies=None, **options):
    """Play a scripted deal with both engines; return the record and the list of moves."""
    policies = policies or [GREEDY] * players
    record, moves = reference_game(cards, players, policies, **options)
    k = kernel.play_block(
        RainbowRules().updated(options),
        players,
        5,
        0,
        1,
        policies=np.array(policies, np.int8),
        deck=np.array(cards, np.int8),
    )
    for key, value in record.items():
        assert same(value, k[key][0]), (key, value, k[key][0])
    return record, moves


def test_draw_and_keep_then_win_by_next_colour():
    # Seat 0 {HEARTS, SUNS}: greedy plays HEARTS (SUNS can follow it; nothing follows SUNS).
    # Seat 1 {LEAVES, RAIN} cannot play on HEARTS: draws STARS (not playable on RED), keeps it.
    # Seat 0 plays SUNS (ORANGE after RED) and has emptied their hand.
    rec, moves = play([HEARTS, LEAVES, SUNS, RAIN, STARS, RIVER], 2, hand_size=2)
    assert moves == ["plays HEARTS", "draws STARS", "plays SUNS"]
    assert rec["outcome"] == WIN and rec["winner"] == 0 and rec["length"] == 3
    assert rec["hand"] == [0, 3] and rec["drawn"] == 1 and rec["reshuffles"] == 0


def test_drawn_playable_card_is_played_by_greedy():
    # As above, but seat 1 draws POPPIES: RED on RED, another symbol: greedy plays it at once.
    # Seat 0 then plays SUNS on POPPIES and wins.
    rec, moves = play([HEARTS, LEAVES, SUNS, RAIN, POPPIES, RIVER], 2, hand_size=2)
    assert moves == ["plays HEARTS", "draws and plays POPPIES", "plays SUNS"]
    assert rec["hand"] == [0, 2] and rec["drawn"] == 1


def test_random_policy_may_keep_a_playable_drawn_card():
    # Over many streams a random seat 1 sometimes plays the drawn POPPIES and sometimes keeps it.
    seen = set()
    for game in range(40):
        _, moves = reference_game([HEARTS, LEAVES, SUNS, RAIN, POPPIES, RIVER], 2, [GREEDY, RANDOM], game, hand_size=2)
        seen.add(moves[1])
    assert seen == {"draws and plays POPPIES", "draws POPPIES and keeps it"}


def test_reshuffle_pass_and_blocked_win():
    # Seat 0 {HEARTS, SUNS, SUNS}: plays HEARTS (two SUNS can follow). Seat 1 {LEAVES, RIVER,
    # CROSSES}: nothing on HEARTS, the stock is empty and the pile has one card: passes.
    # Seat 0 plays SUNS. Seat 1 again cannot play: the pile but its top (HEARTS) becomes the
    # stock; seat 1 draws HEARTS, which is not playable on SUNS, and keeps it. Seat 0 {SUNS}
    # cannot play SUNS on SUNS and passes; seat 1 passes: everyone passed in turn, blocked.
    # Seat 0 has 1 card, seat 1 has 4: seat 0 wins the blocked game.
    rec, moves = play([HEARTS, LEAVES, SUNS, RIVER, SUNS, CROSSES], 2, hand_size=3)
    assert moves == [
        "plays HEARTS",
        "cannot play or draw: passes",
        "plays SUNS",
        "draws HEARTS",
        "cannot play or draw: passes",
        "cannot play or draw: passes",
    ]
    assert rec["outcome"] == BLOCKED_WIN and rec["winner"] == 0 and rec["length"] == 6
    assert rec["hand"] == [1, 4] and rec["drawn"] == 1 and rec["reshuffles"] == 1


def test_blocked_draw_on_a_tie_for_fewest_cards():
    # 3 players, 2 cards each, no stock. Seat 0 opens HEARTS; seat 1 plays SUNS on it; seat 2
    # {LEAVES, CROSSES} is stuck: HEARTS is reshuffled into the stock, drawn and kept. Then all
    # three pass. Cards left: 1, 1, 3: seats 0 and 1 tie for fewest, a draw.
    rec, moves = play([HEARTS, SUNS, LEAVES, HEARTS, RAIN, CROSSES], 3, hand_size=2)
    assert moves[:3] == ["plays HEARTS", "plays SUNS", "draws HEARTS"]
    assert rec["outcome"] == BLOCKED_DRAW and rec["winner"] == -1
    assert rec["hand"] == [1, 1, 3] and rec["length"] == 6 and rec["reshuffles"] == 1


def test_greedy_keeps_the_wild_snake_until_nothing_else_plays():
    # wild_snake: seat 0 {HEARTS, SNAKE} opens HEARTS, keeping the SNAKE. Seat 1 {RAIN, RAIN}
    # passes. Seat 0 plays the SNAKE on HEARTS (wild) and wins.
    rec, moves = play([HEARTS, RAIN, SNAKE, RAIN], 2, hand_size=2, wild={"SNAKE": ["LEAVES", "BLUE"]})
    assert moves == ["plays HEARTS", "cannot play or draw: passes", "plays SNAKE"]
    assert rec["winner"] == 0 and rec["outcome"] == WIN


def test_without_wild_snake_the_snake_is_stuck_on_red():
    rec, moves = play([HEARTS, RAIN, HEARTS, RAIN], 2, hand_size=2)
    # Seat 0 {HEARTS x2} opens HEARTS; nobody can play on it (HEARTS on HEARTS is the same symbol).
    assert moves == ["plays HEARTS", "cannot play or draw: passes", "cannot play or draw: passes"]
    assert rec["outcome"] == BLOCKED_WIN and rec["winner"] == 0 and rec["hand"] == [1, 2]


def test_draw_play_must_and_never():
    # Seat 0 {RAIN, RAIN} opens RAIN; seat 1 {HEARTS, HEARTS} cannot play on BLUE and draws
    # the stock's RIVER (BLUE, another symbol: playable).
    # "must": seat 1 plays it at once; "never": seat 1 keeps it and the turn ends.
    deck = [RAIN, HEARTS, RAIN, HEARTS, RIVER]
    _, moves = play(deck, 2, hand_size=2, draw_play="must")
    assert moves[:2] == ["plays RAIN", "draws and plays RIVER"]
    _, moves = play(deck, 2, hand_size=2, draw_play="never")
    assert moves[:2] == ["plays RAIN", "draws RIVER and keeps it"]


def test_a_wild_card_with_anything_allowed_after_it():
    # HEARTS is wild and ANY card may follow it. Seat 0 {HEARTS, RAIN} keeps the wild HEARTS
    # and opens RAIN; seat 1 {SUNS, SUNS} cannot play on BLUE, draws... the stock is empty and
    # the pile has one card: passes. Seat 0 plays HEARTS on RAIN (wild) and wins.
    rec, moves = play([HEARTS, SUNS, RAIN, SUNS], 2, hand_size=2, wild={"HEARTS": ["ANY"]})
    assert moves == ["plays RAIN", "cannot play or draw: passes", "plays HEARTS"]
    assert rec["winner"] == 0


def test_hand_size_per_seat_deals_round_by_round():
    # Seat 0 gets 1 card and seat 1 gets 3: the deal goes HEARTS to 0, LEAVES to 1, then (seat
    # 0 full) RAIN and SUNS to 1. Seat 0 plays its one card on the empty pile and wins at once.
    record, _ = play([HEARTS, LEAVES, RAIN, SUNS, STARS], 2, hand_size=[1, 3])
    assert record["outcome"] == WIN and record["winner"] == 0 and record["length"] == 1
    assert list(record["hand"]) == [0, 3] and record["drawn"] == 0


def test_the_feel_figures_by_hand():
    # Seat 0 {HEARTS, RAIN}, seat 1 {SUNS, POPPIES}. Seat 0 plays HEARTS: cards in hand 1, 2 (seat
    # 0 leads alone); seat 1 plays POPPIES: 1, 1 (a tie); seat 0 cannot play on POPPIES and draws
    # RIVER: 2, 1 (seat 1 leads: one lead change); seat 1 plays SUNS and wins. Standings are minus
    # the cards in hand: seat 1 leads alone from step 3 of 4, was 1 behind at worst (step 1), level
    # at half time (step 2: no comeback); the sole leaders at steps 1, 2, 3 are 0, none, 1.
    rec, moves = play([HEARTS, SUNS, RAIN, POPPIES, RIVER, LEAVES], 2, hand_size=2, feel=True)
    assert moves == ["plays HEARTS", "plays POPPIES", "draws RIVER", "plays SUNS"]
    assert rec["winner"] == 1 and rec["length"] == 4
    assert rec["lead_changes"] == 1 and rec["decided"] == 0.75 and rec["tie_break"] == 0
    assert rec["comeback"] == 0 and rec["deficit"] == 1
    assert (rec["leader_q1"], rec["leader_q2"], rec["leader_q3"]) == (0, -1, 1)
