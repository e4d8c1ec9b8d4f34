"""Scripted decks with hand-checked outcomes: every card effect, and the rulings around them.

Each deck is given top card first and replaces the initial shuffle. Both engines play it and
must agree; then the result is checked against values worked out by hand in the comments.
A turn cap stops a game after the cards of interest.
"""

import numpy as np
import pytest

from snakesim.games.fortune import kernel, reference
from snakesim.games.fortune.rules import DRAW, UNFINISHED, WIN, Card, FortuneRules
from tests.identity import same

L, P, OR, F = Card.LEAVES, Card.POPPIES, Card.ORCHIDS, Card.FOUNTAIN
SU, ST, H, R = Card.SUNS, Card.STARS, Card.HEARTS, Card.RAIN
C, RV, SN = Card.CROSSES, Card.RIVER, Card.SNAKE


def play(cards, players, variant="standard", **options):
    """Play a scripted deck with both engines; return the reference record and its log."""
    rules = FortuneRules.variant(variant).updated(options)
    record, log = reference.play(rules, players, seed=3, game=0, trace=True, deck=cards)
    k = kernel.play_block(rules, players, 3, 0, 1, deck=np.array(cards, dtype=np.int8))
    for key, value in record.items():
        assert same(value, k[key][0]), (key, value, k[key][0])
    return record, log


def test_pay_to_cup():
    # 5 coins each: seat 0 pays 1, seat 1 pays 2, seat 2 pays 3.
    rec, _ = play([L, P, OR], 3, start_coins=5, turn_cap=3)
    assert rec["coins"] == [4, 3, 2] and rec["outcome"] == UNFINISHED and rec["winner"] == -1


def test_paying_more_than_you_have_puts_you_out_and_last_player_takes_cup():
    # Seat 0 has 2 and must pay 3: pays 2, out at card 1; seat 1 is last and takes the cup (2).
    rec, _ = play([OR], 2, start_coins=2)
    assert rec["outcome"] == WIN and rec["winner"] == 1
    assert rec["coins"] == [0, 4] and rec["out_at"] == [1, -1] and rec["length"] == 1 and rec["max_cup"] == 2


def test_fountain_everyone_pays_one():
    rec, _ = play([F], 3, start_coins=5, turn_cap=1)
    assert rec["coins"] == [4, 4, 4] and rec["max_cup"] == 3


def test_fountain_putting_the_last_players_out_together_is_a_draw():
    # 1 coin each. Card 1: seat 0 pays 1 (out). Card 2: seat 1 draws FOUNTAIN; seats 1 and 2 pay
    # their last coin together: a draw between the two, the cup (3) stays unclaimed.
    rec, log = play([L, F], 3, start_coins=1)
    assert rec["outcome"] == DRAW and rec["winner"] == -1 and rec["length"] == 2
    assert rec["coins"] == [0, 0, 0] and rec["out_at"] == [1, 2, 2]
    assert "draw after 2 cards among seats 1, 2" in log[-1]


def test_take_from_left():
    # Seat 0 SUNS from seat 1; seat 1 STARS from seat 2; seat 2 HEARTS from seat 0 (skip seat 0).
    # Card 4 is then drawn by seat 1 (seat 0's turn is skipped): SUNS from seat 2.
    rec, log = play([SU, ST, H, SU], 3, start_coins=5, turn_cap=4)
    # after 3 cards: [6,4,5] -> [6,6,3] -> [3,6,6]; card 4 by seat 1: [3,7,5]
    assert rec["coins"] == [3, 7, 5]
    assert any("seat 0 skips this turn" in line for line in log)


def test_left_skips_players_who_are_out():
    # 2 coins each. Seat 0 SUNS: [3,1,2]; seat 1 LEAVES: [3,0,2] (out) cup 1; seat 2 LEAVES:
    # [3,0,1] cup 2; seat 0 STARS: the left in the game is seat 2, who pays the 1 they have and is
    # out. Seat 0 wins with 3 + 1 + the cup 2 = 6.
    rec, _ = play([SU, L, L, ST], 3, start_coins=2)
    assert rec["outcome"] == WIN and rec["winner"] == 0 and rec["coins"] == [6, 0, 0]
    assert rec["out_at"] == [-1, 2, 4] and rec["length"] == 4


def test_hearts_with_two_players_gives_the_drawer_another_turn():
    # Seat 0 HEARTS: [13,7]; seat 1 is skipped; seat 0 draws SUNS: [14,6].
    rec, _ = play([H, SU], 2, start_coins=10, turn_cap=2)
    assert rec["coins"] == [14, 6]


def test_hearts_skip_is_lost_when_the_victim_goes_out_and_rejoins():
    # rejoin, 3 coins each. Seat 0 HEARTS takes 3 from seat 1: out, no skip kept -> [6,0,3].
    # Seat 2 RIVER gives 3 to the right seat, seat 1 (out, back in) -> [6,3,0]; seat 2 is out.
    # Next is seat 0 (LEAVES -> [5,3,0]), then seat 1 plays (no skip left) SUNS from seat 0.
    rec, log = play([H, RV, L, SU], 3, start_coins=3, variant="rejoin", turn_cap=4)
    assert rec["coins"] == [4, 4, 0] and rec["out_at"] == [-1, -1, 2]
    assert not any("skips this turn" in line for line in log)


def test_rain_takes_one_from_each_other_player():
    rec, _ = play([R], 4, start_coins=5, turn_cap=1)
    assert rec["coins"] == [8, 4, 4, 4]


def test_crosses_gives_one_to_each_other_player():
    rec, _ = play([C], 4, start_coins=5, turn_cap=1)
    assert rec["coins"] == [2, 6, 6, 6]


def test_crosses_shortfall_clockwise():
    # Seat 0 has 2 coins for 3 players: seat 1 and seat 2 get one each; seat 0 is out.
    rec, _ = play([C], 4, start_coins=2, turn_cap=1)
    assert rec["coins"] == [0, 3, 3, 2] and rec["out_at"] == [1, -1, -1, -1] and rec["max_cup"] == 0


def test_crosses_shortfall_cup():
    # Same, but the drawer who cannot give everyone a coin puts both in the cup.
    rec, _ = play([C], 4, start_coins=2, turn_cap=1, variant="crosses-to-cup")
    assert rec["coins"] == [0, 2, 2, 2] and rec["max_cup"] == 2


def test_crosses_cup_with_exactly_enough_gives_everyone_one():
    rec, _ = play([C], 4, start_coins=3, turn_cap=1, variant="crosses-to-cup")
    assert rec["coins"] == [0, 4, 4, 4] and rec["max_cup"] == 0


def test_river_gives_three_to_the_right():
    rec, _ = play([RV], 3, start_coins=5, turn_cap=1)
    assert rec["coins"] == [2, 5, 8]


def test_snake_takes_the_cup_and_an_empty_cup_gives_nothing():
    rec, _ = play([SN, L, P, SN], 4, start_coins=5, turn_cap=4)
    # seat 0 SNAKE on an empty cup; seat 1 pays 1; seat 2 pays 2; seat 3 takes 3.
    assert rec["coins"] == [5, 4, 3, 8] and rec["max_cup"] == 3


def test_crosses_rejoin_brings_a_player_back():
    # 2 coins each. Seat 0 POPPIES: out, [0,2,2] cup 2. Seat 1 CROSSES with rejoin: gives to
    # seat 2 then seat 0 (out, back in) -> [1,0,3]; seat 1 is out. Seat 2 then LEAVES -> [1,0,2].
    rec, _ = play([P, C, L], 3, start_coins=2, variant="rejoin", turn_cap=3)
    assert rec["coins"] == [1, 0, 2] and rec["out_at"] == [-1, 2, -1]


def test_crosses_without_rejoin_skips_players_who_are_out():
    # As above without rejoin: seat 1 gives only to seat 2 -> [0,1,3]; seat 2 LEAVES -> [0,1,2].
    rec, _ = play([P, C, L], 3, start_coins=2, turn_cap=3)
    assert rec["coins"] == [0, 1, 2] and rec["out_at"] == [1, -1, -1]


@pytest.mark.parametrize("rejoin,expected", [(True, [4, 2, 0]), (False, [6, 0, 0])])
def test_river_rejoin(rejoin, expected):
    # 2 coins each. Seat 0 STARS: seat 1 out, [4,0,2]. Seat 2 RIVER: with rejoin the right seat
    # is seat 1 (out): it gets seat 2's 2 coins and is back, seat 2 is out -> [4,2,0]. Without
    # rejoin the right player in the game is seat 0: [6,0,0] and seat 0 wins (cup empty).
    rec, _ = play([ST, RV], 3, start_coins=2, variant="rejoin" if rejoin else "standard", turn_cap=2)
    assert rec["coins"] == expected
    assert rec["outcome"] == (UNFINISHED if rejoin else WIN)


def test_reshuffle_remakes_the_draw_pile_from_the_discards():
    # A 2-card deck drawn 5 times: the pile is remade before draws 3 and 5.
    rec, log = play([L, SU], 2, start_coins=10, turn_cap=5)
    assert rec["reshuffles"] == 2 and rec["length"] == 5
    drawn = [line.split(" draws ")[1].split()[0] for line in log if " draws " in line]
    assert drawn[:2] == ["LEAVES", "SUNS"] and sorted(drawn[2:4]) == ["LEAVES", "SUNS"]
    assert sum(c for c in rec["coins"]) + drawn.count("LEAVES") == 20


def test_turn_cap_records_unfinished():
    # Only SNAKE cards: nothing ever changes, the game stops at the cap.
    rec, _ = play([SN, SN], 3, start_coins=4, turn_cap=7)
    assert rec["outcome"] == UNFINISHED and rec["length"] == 7 and rec["winner"] == -1 and rec["reshuffles"] == 3


# ------------------------------------------------------------------ house rules as effects


def effects(**table):
    return {"effects": table}


def test_house_rule_hearts_takes_two_and_does_not_skip():
    # Seat 0 HEARTS (house rule): takes 2 from seat 1 -> [12,8]; seat 1 is not skipped and
    # draws SUNS: takes 1 from seat 0 -> [11,9].
    rec, log = play([H, SU], 2, start_coins=10, turn_cap=2, **effects(HEARTS=[{"take": 2, "from": "left"}]))
    assert rec["coins"] == [11, 9] and not any("skips" in line for line in log)


def test_take_cup_half_rounds_down_and_leaves_the_rest():
    # 5 coins each, 3 players. Seat 0 ORCHIDS: cup 3; seat 1 SNAKE takes half of 3 = 1 -> cup 2.
    rec, _ = play([OR, SN], 3, start_coins=5, turn_cap=2, **effects(SNAKE=[{"take_cup": "half"}]))
    assert rec["coins"] == [2, 6, 5] and rec["max_cup"] == 3


@pytest.mark.parametrize("n,coins,max_cup", [(2, [0, 7, 2], 6), (5, [0, 8, 2], 5)])
def test_take_cup_n_takes_n_coins_or_what_the_cup_holds(n, coins, max_cup):
    # 3 players, 5 coins each. Seat 0 ORCHIDS: [2,5,5], cup 3. Seat 1 SNAKE takes 2 coins of
    # the 3 ([2,7,5], cup 1), or asks for 5 and gets the 3 there are ([2,8,5], cup 0). Seat 2
    # ORCHIDS: cup + 3 (4 or 3). Seat 0 ORCHIDS pays its last 2 and is out (cup 6 or 5).
    rec, log = play([OR, SN, OR, OR], 3, start_coins=5, turn_cap=4, **effects(SNAKE=[{"take_cup": n}]))
    assert rec["coins"] == coins and rec["max_cup"] == max_cup
    assert f"takes {n} from the cup ({min(n, 3)})" in "\n".join(log)


def test_others_pay_the_cup_and_take_from_the_right():
    # RAIN: every other player pays 1 into the cup; SUNS: take 2 from the right player.
    # 4 players, 5 each. Seat 0 RAIN -> [5,4,4,4] cup 3. Seat 1 SUNS from seat 0 -> [3,6,4,4].
    rules = effects(RAIN=[{"others_cup": 1}], SUNS=[{"take": 2, "from": "right"}])
    rec, _ = play([R, SU], 4, start_coins=5, turn_cap=2, **rules)
    assert rec["coins"] == [3, 6, 4, 4] and rec["max_cup"] == 3


def test_give_left_and_skip_right():
    # RIVER gives 3 to the left; HEARTS makes the right player skip. 3 players, 5 each.
    # Seat 0 RIVER -> [2,8,5]. Seat 1 HEARTS: takes 3 from seat 2 (left) -> [2,11,2] and seat 0
    # (right) skips. Seat 2 LEAVES -> [2,11,1]; seat 0 is skipped; seat 1 LEAVES -> [2,10,1].
    rules = effects(RIVER=[{"give": 3, "to": "left"}], HEARTS=[{"take": 3, "from": "left"}, {"skip": "right"}])
    rec, log = play([RV, H, L, L], 3, start_coins=5, turn_cap=4, **rules)
    assert rec["coins"] == [2, 10, 1]
    assert any("seat 0 skips this turn" in line for line in log)


def test_neighbours_are_fixed_when_the_card_is_drawn():
    # A card that first makes everyone else pay 2 into the cup, then gives 1 to the right.
    # 3 players with 2 coins: seat 0 draws it; seats 1 and 2 pay their 2 and are out, so the
    # right neighbour (seat 2, in the game when the card was drawn) is out: nothing is given,
    # and seat 0 is the last with coins: wins with 2 + the cup 4.
    rules = effects(RIVER=[{"others_cup": 2}, {"give": 1, "to": "right"}])
    rec, log = play([RV], 3, start_coins=2, **rules)
    assert rec["outcome"] == WIN and rec["winner"] == 0 and rec["coins"] == [6, 0, 0]
    assert "cannot give: seat 2 is out" in log[1]


def test_a_new_symbol_with_its_own_count_and_effect():
    # GOLD (code 11, after the seed's symbols): take 2 from each other player, then pay 1.
    rules = {"deck": {"GOLD": 1}, "effects": {"GOLD": [{"collect": 2}, {"cup": 1}]}}
    rec, log = play([11], 3, start_coins=5, turn_cap=1, **rules)
    assert rec["coins"] == [8, 3, 3] and rec["max_cup"] == 1 and "draws GOLD" in log[1]


def test_give_each_more_than_one_with_the_cup_shortfall():
    # CROSSES gives 2 to each other player; a drawer short of 2 x others puts all in the cup.
    rules = effects(CROSSES=[{"give_each": 2, "shortfall": "cup"}])
    rec, _ = play([C, C], 3, start_coins=4, turn_cap=2, **rules)
    # Seat 0 gives 2 + 2 -> [0,6,6], out. Seat 1 gives 2 to seat 2 only (seat 0 is out) -> [0,4,8].
    assert rec["coins"] == [0, 4, 8]
    rec, _ = play([C], 3, start_coins=3, turn_cap=1, **rules)
    assert rec["coins"] == [0, 3, 3] and rec["max_cup"] == 3


def test_start_coins_per_seat():
    # Seats start with 1, 3 and 6 coins. Seat 0 pays 1 (LEAVES) and is out at card 1; seat 1
    # pays 2 (POPPIES): 1 left; seat 2 pays 3 (ORCHIDS): 3 left; seat 1 draws LEAVES: out at
    # card 4, so seat 2 is last and takes the cup of 1 + 2 + 3 + 1 = 7: 10 coins.
    rec, log = play([L, P, OR, L], 3, start_coins=[1, 3, 6])
    assert rec["outcome"] == WIN and rec["winner"] == 2 and rec["length"] == 4
    assert rec["coins"] == [0, 0, 10] and rec["out_at"] == [1, 4, -1]
    assert "[1, 3, 6] coins" in log[0]


def test_the_feel_figures_of_a_comeback_by_hand():
    # 3 coins each. Seat 0 LEAVES [2,3]; seat 1 SUNS from seat 0 [1,4]; seat 0 SUNS [2,3]; seat 1
    # LEAVES [2,2]; seat 0 STARS: seat 1 pays its last 2 and is out; seat 0 takes the cup (2): [6,0].
    # Sole leaders after steps 0..5: none, 1, 1, 1, none, 0: one lead change, and seat 0 leads only
    # at the end. At half time (step 2) it was 3 behind, its worst; the leader at every quarter
    # (steps 1, 2, 3) was seat 1, who lost. Seat 1 went out on the last card: nobody waited out of
    # the game (a 2-player game ends when a seat goes out; it once counted 1 of 2 x 5 seat-steps).
    rec, _ = play([L, SU, SU, L, ST], 2, start_coins=3, feel=True)
    assert rec["winner"] == 0 and rec["length"] == 5 and rec["coins"] == [6, 0]
    assert rec["lead_changes"] == 1 and rec["decided"] == 1.0 and rec["tie_break"] == 0
    assert rec["comeback"] == 1 and rec["deficit"] == 3
    assert (rec["leader_q1"], rec["leader_q2"], rec["leader_q3"]) == (1, 1, 1)
    assert rec["out_share"] == 0.0


def test_the_feel_figures_of_a_runaway_leader_by_hand():
    # 2 coins each (see test_left_skips_players_who_are_out): [3,1,2], [3,0,2], [3,0,1], [6,0,0].
    # Seat 0 leads alone from step 1: decided at 1/4, no change, never behind; seat 1 out after
    # step 2 waits through cards 3 and 4, seat 2 goes out on the last: 2 of 3 x 4 seat-cards.
    # With feel=false nothing is recorded.
    rec, _ = play([SU, L, L, ST], 3, start_coins=2, feel=True)
    assert rec["lead_changes"] == 0 and rec["decided"] == 0.25 and rec["comeback"] == 0 and rec["deficit"] == 0
    assert (rec["leader_q1"], rec["leader_q2"], rec["leader_q3"]) == (0, 0, 0)
    assert rec["out_share"] == 2 / 12
    plain, _ = play([SU, L, L, ST], 3, start_coins=2, feel=False)
    assert plain["lead_changes"] == -1 and np.isnan(plain["decided"]) and np.isnan(plain["out_share"])
