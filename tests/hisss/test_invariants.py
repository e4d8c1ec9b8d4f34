"""Invariants: every card in exactly one place after every turn; no complete snake left on the
table; at most 7 snakes completed with the default deck; the winner rule."""

import numpy as np
import pytest

from snakesim.core.rng import Stream
from snakesim.games.hisss import kernel
from snakesim.games.hisss.reference import HisssGame
from snakesim.games.hisss.rules import DRAW, GREEDY, RANDOM, WIN, HisssRules


@pytest.mark.parametrize("variant", list(HisssRules.VARIANTS))
@pytest.mark.parametrize("policies", [[RANDOM] * 3, [GREEDY, RANDOM, GREEDY]])
def test_cards_conserved_and_no_complete_snake_left(variant, policies):
    rules = HisssRules.variant(variant)
    for game in range(80):
        g = HisssGame(rules, 3, policies, Stream(12, game))
        seat = 0
        while g.next_card < len(g.fan):
            g.step(seat)
            seat = (seat + 1) % 3
            on_table = sum(s.length for s in g.snakes)
            assert sum(g.cards) + on_table + len(g.fan) - g.next_card == rules.deck_size()
            assert all(len(s.cards) == s.length and not s.complete() for s in g.snakes)
            # A snake taken has at least 3 cards: head, middle, tail, or two snakes and a middle.
            assert sum(g.cards) >= 3 * sum(g.taken)


def test_at_most_seven_snakes_completed_with_the_default_deck():
    out = kernel.play_block(HisssRules(), 4, 3, 0, 50_000, policies=np.array([RANDOM, GREEDY, RANDOM, GREEDY], np.int8))
    assert out["completed"].max() <= 7
    assert out["completed"].max() == 7  # and the bound is reached
    assert (out["snakes"].sum(axis=1) == out["completed"]).all()  # standard: only complete snakes are taken


@pytest.mark.parametrize("score", ["cards", "snakes"])
def test_winner_has_the_most_then_the_longest(score):
    rules = HisssRules() if score == "cards" else HisssRules.variant("most-snakes")
    out = kernel.play_block(rules, 3, 8, 0, 20_000)
    primary = out[score]
    key = primary * 1000 + out["longest"]
    best = key.max(axis=1)
    leaders = (key == best[:, None]).sum(axis=1)
    assert ((out["outcome"] == WIN) == (leaders == 1)).all()
    won = out["outcome"] == WIN
    assert (key[won, out["winner"][won]] == best[won]).all()
    assert (out["winner"][out["outcome"] == DRAW] == -1).all()


def test_scoring_by_snakes_changes_some_winners():
    cards = kernel.play_block(HisssRules(), 3, 8, 0, 20_000)
    snakes = kernel.play_block(HisssRules.variant("most-snakes"), 3, 8, 0, 20_000)
    # Same shuffles, same play: only the winner rule differs.
    assert (cards["cards"] == snakes["cards"]).all()
    assert (cards["winner"] != snakes["winner"]).sum() > 100
