"""Scripted decks with hand-checked games. Both engines play each and must agree.

The first card of the deck is turned up as the first snake; the players then draw the rest in
turn from seat 0. Colours: R O Y G B P; ``*`` is the rainbow joker.
"""

import numpy as np

from snakesim.core.rng import Stream
from snakesim.games.hisss import kernel, reference
from snakesim.games.hisss.rules import FIRST_MIDDLE, GREEDY, N_END_TYPES, PAIRS, WIN, HisssRules
from tests.identity import same

R, O, Y, G, B, P, RAINBOW = range(7)  # noqa: E741 (the colour letters of the trace)


def head(c):
    return c


def tail(c):
    return N_END_TYPES + c


def middle(a, b):
    return FIRST_MIDDLE + PAIRS.index((min(a, b), max(a, b)))


def play(cards, players=2, policies=None, **options):
    """Play a scripted deck with both engines; return the record and the trace."""
    policies = policies or [GREEDY] * players
    rules = HisssRules().updated(options)
    g = reference.HisssGame(rules, players, policies, Stream(4, 0), deck=cards, trace=True)
    record = g.play_game()
    k = kernel.play_block(rules, players, 4, 0, 1, policies=np.array(policies, np.int8), deck=np.array(cards))
    for key, value in record.items():
        assert same(value, k[key][0]), (key, value, k[key][0])
    return record, g.log


def rows_after(log, turn):
    """The snakes drawn after turn ``turn`` of the trace."""
    start = next(i for i, line in enumerate(log) if line.startswith(f"{turn:4d} "))
    rows = []
    for line in log[start + 1 :]:
        if not line.startswith("        "):
            break
        rows.append(line.strip())
    return rows


def test_middle_sections_turn_to_match_either_end():
    # R-O is the first snake. O-Y goes on the O end as it is; R-P goes on the R end turned
    # round (P-R), so the snake reads P-R R-O O-Y with open ends P and Y.
    rec, log = play([middle(R, O), middle(O, Y), middle(R, P)])
    assert rows_after(log, 1) == ["<R R-O O-Y Y>"]
    assert rows_after(log, 2) == ["<P P-R R-O O-Y Y>"]
    assert rec["table_snakes"] == 1 and rec["table_cards"] == 3 and rec["length"] == 2


def test_a_head_needs_a_middle_section():
    # A red tail alone has no middle section: the red head fits nowhere and lies alone.
    rec, log = play([tail(R), head(R)])
    assert any("draws H:R: fits nowhere" in line for line in log) and rec["table_snakes"] == 2
    # On a middle section it fits the end of its colour.
    rec, log = play([middle(R, O), head(R)])
    assert rows_after(log, 1) == ["H:R R-O O>"] and rec["table_snakes"] == 1


def test_rainbow_head_fits_any_colour():
    rec, log = play([middle(G, B), head(RAINBOW)])
    assert rec["table_snakes"] == 1 and rec["table_cards"] == 2
    assert rows_after(log, 1)[0] in ("H:* G-B B>", "<G G-B H:*")
    rec, _ = play([middle(G, B), head(R)])
    assert rec["table_snakes"] == 2  # a red head does not fit G or B


def test_join_that_completes_a_snake_is_taken():
    # H:R alone, then T:O alone (no middle to go on); seat 1's R-O joins them: head, middle,
    # tail. Greedy prefers taking a snake; seat 1 takes all 3 cards and wins.
    rec, log = play([head(R), tail(O), middle(R, O)])
    # The last turn's line, then who leads after it, then the end.
    assert "joins two snakes and takes it (3 cards: H:R R-O T:O)" in log[-3]
    assert log[-2].strip() == "points 0 3: seat 1 leads"
    assert rec["cards"] == [0, 3] and rec["snakes"] == [0, 1] and rec["longest"] == [0, 3]
    assert rec["completed"] == 1 and rec["table_cards"] == 0 and rec["outcome"] == WIN and rec["winner"] == 1


def test_join_refused_for_two_heads():
    # H:R and H:O lie alone; R-O could join them only into a snake with two heads: no join.
    rec, log = play([head(R), head(O), middle(R, O)])
    assert not any("joins" in line for line in log)
    assert rec["table_snakes"] == 2 and rec["table_cards"] == 3


def test_completion_by_the_last_card():
    # R-O; seat 0 puts a red head on it; seat 1 draws the last card, an orange tail, completes
    # the snake and takes it.
    rec, _ = play([middle(R, O), head(R), tail(O)])
    assert rec["cards"] == [0, 3] and rec["completed"] == 1 and rec["winner"] == 1 and rec["length"] == 2


def test_claim_joined_takes_an_incomplete_snake():
    # R-O, then Y-G alone; O-Y joins them into R-O O-Y Y-G (no head, no tail).
    cards = [middle(R, O), middle(Y, G), middle(O, Y)]
    rec, _ = play(cards)
    assert rec["cards"] == [0, 0] and rec["table_snakes"] == 1 and rec["table_cards"] == 3
    rec, _ = play(cards, claim_joined=True)
    assert rec["cards"] == [0, 3] and rec["snakes"] == [0, 1] and rec["completed"] == 0 and rec["table_cards"] == 0


def test_a_tie_on_cards_and_longest_snake_is_a_draw():
    # Nobody takes anything: everyone has 0 cards and no snake: a draw.
    rec, _ = play([middle(R, O), middle(G, B)], players=2)
    assert rec["outcome"] == 1 and rec["winner"] == -1


def test_the_feel_figures_of_a_comeback_by_hand():
    # 9 cards, 8 turns (seat 0 plays turns 1, 3, 5, 7). Seat 0 completes H:R R-O T:O on turn 3
    # (3 points) and leads alone from step 3; at half time (step 4) seat 1 has nothing. Seat 1
    # then builds G-B B-P, heads it, and completes it with T:P on the last turn: 4 points, the
    # lead and the win. Points after steps 0..8: [0,0] x3, [3,0] x5, [3,4]: one lead change
    # (seat 0 -> seat 1), known only at the end, 3 behind at worst, a comeback; the sole
    # leaders at steps 2, 4, 6 are none, 0, 0.
    cards = [
        middle(R, O), head(R), middle(G, B), tail(O), middle(B, P),  # turns 1-4
        middle(R, O), head(G), middle(O, Y), tail(P),  # turns 5-8
    ]  # fmt: skip
    rec, _ = play(cards, feel=True)
    assert rec["cards"] == [3, 4] and rec["winner"] == 1 and rec["length"] == 8
    assert rec["lead_changes"] == 1 and rec["decided"] == 1.0 and rec["tie_break"] == 0
    assert rec["comeback"] == 1 and rec["deficit"] == 3
    assert (rec["leader_q1"], rec["leader_q2"], rec["leader_q3"]) == (-1, 0, 0)
    # Stop before the last card: seat 0 leads alone from step 3 of 7 and wins; no change, no
    # comeback, never behind.
    rec, _ = play(cards[:-1], feel=True)
    assert rec["winner"] == 0 and rec["lead_changes"] == 0 and rec["comeback"] == 0 and rec["deficit"] == 0
    assert rec["decided"] == 3 / 7 and (rec["leader_q1"], rec["leader_q2"], rec["leader_q3"]) == (-1, 0, 0)


def test_a_win_on_the_tie_break_is_counted():
    # Most snakes wins (ties: the longest). Seat 0 completes H:R R-O O-Y T:Y on turn 5, seat 1
    # H:G G-B T:B on turn 6: one snake each, and seat 0's is longer. Snakes after steps 0..6:
    # [0,0] x5, [1,0], [1,1]: seat 0 wins but is not alone on top at the end, so the tie-break
    # decided (decided 1.0); never behind, no lead change, no sole leader at steps 1, 3, 4.
    cards = [middle(R, O), head(R), head(G), middle(O, Y), middle(G, B), tail(Y), tail(B)]
    rec, _ = play(cards, points_per_card=0, points_per_snake=1, feel=True)
    assert rec["snakes"] == [1, 1] and rec["longest"] == [4, 3] and rec["winner"] == 0
    assert rec["tie_break"] == 1 and rec["decided"] == 1.0 and rec["lead_changes"] == 0
    assert rec["comeback"] == 0 and rec["deficit"] == 0
    assert (rec["leader_q1"], rec["leader_q2"], rec["leader_q3"]) == (-1, -1, -1)


# ------------------------------------------------------------------ matching and scoring as data


def test_ring_reach_lets_a_neighbouring_colour_fit():
    # R-O is the first snake. Y-G fits nowhere by colour; with ring_reach = 1 its Y side fits
    # the O end (one step round the ring), so it extends the snake: <R R-O Y-G G>.
    rec, _ = play([middle(R, O), middle(Y, G)])
    assert rec["table_snakes"] == 2
    rec, log = play([middle(R, O), middle(Y, G)], ring_reach=1)
    assert rec["table_snakes"] == 1 and rows_after(log, 1) == ["<R R-O Y-G G>"]


def test_a_wild_colour_matches_everything():
    # With BLUE wild, the B-P middle fits the R end of R-O (its B side, shown turned: P-B),
    # so the snake grows instead of a new one starting.
    rec, _ = play([middle(R, O), middle(B, P)], wild_colours=["BLUE"])
    assert rec["table_snakes"] == 1 and rec["table_cards"] == 2


def test_wild_heads_fit_any_open_end():
    # R-O, then a GREEN head: by colour it fits nowhere; with wild heads it closes the R end.
    rec, _ = play([middle(R, O), head(G)])
    assert rec["table_snakes"] == 2
    rec, log = play([middle(R, O), head(G)], wild_caps="heads")
    assert rec["table_snakes"] == 1 and "closes a snake" in log[1]


def test_points_and_tie_breaks():
    # Deck: R-O (turned up), H:R (seat 0 closes the R end), T:O (seat 1 closes the O end and
    # takes the snake: 3 cards). Seat 1 wins on cards; with points only per snake,
    # seat 1 still wins (1 snake to 0); with no points at all it is a draw under no tie-break,
    # and seat 1's under the longest-snake tie-break.
    deck = [middle(R, O), head(R), tail(O)]
    rec, _ = play(deck)
    assert rec["winner"] == 1 and rec["cards"] == [0, 3]
    rec, _ = play(deck, points_per_card=0, points_per_snake=1)
    assert rec["winner"] == 1
    rec, _ = play(deck, points_per_card=0, tie_break="none")
    assert rec["outcome"] != WIN and rec["winner"] == -1
    rec, _ = play(deck, points_per_card=0)
    assert rec["winner"] == 1
