"""Invariants of the reference engine, checked after every turn of many games."""

import pytest

from snakesim.core.rng import Stream
from snakesim.games.fortune.reference import FortuneGame
from snakesim.games.fortune.rules import DRAW, WIN, FortuneRules


@pytest.mark.parametrize("variant", list(FortuneRules.VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 5])
def test_coins_conserved_and_out_means_zero(variant, players):
    rules = FortuneRules.variant(variant).updated({"start_coins": 6})
    total = players * rules.start_coins
    for game in range(150):
        g = FortuneGame(rules, players, Stream(99, game))
        while g.outcome < 0:
            g.step()
            # Coins in hands plus the cup never change.
            assert sum(g.coins) + g.cup == total
            assert all(c >= 0 for c in g.coins) and g.cup >= 0
            # out_at is set exactly for the players without coins.
            assert all((g.out_at[s] >= 0) == (g.coins[s] == 0) for s in range(players))
            # Cards are conserved between draw pile and discard pile.
            assert len(g.draw_pile) + len(g.discard) == rules.deck_size()
            assert not any(g.skip[s] and g.coins[s] == 0 for s in range(players))
        if g.outcome == WIN:
            assert g.cup == 0 and g.coins[g.winner] == total
        if g.outcome == DRAW:
            assert sum(g.coins) == 0 and g.cup == total
