"""Card conservation in the reference engine: hands + stock + pile = the deck, every turn."""

from collections import Counter
from itertools import pairwise

import pytest

from snakesim.core.rng import Stream
from snakesim.games.rainbow.reference import RainbowGame
from snakesim.games.rainbow.rules import GREEDY, RANDOM, RainbowRules


@pytest.mark.parametrize("variant", list(RainbowRules.VARIANTS))
@pytest.mark.parametrize(
    "players,policies", [(2, [RANDOM, RANDOM]), (4, [GREEDY, RANDOM, GREEDY, RANDOM]), (6, [GREEDY] * 6)]
)
def test_cards_conserved_every_turn(variant, players, policies):
    rules = RainbowRules.variant(variant)
    deck = Counter(int(c) for c in rules.deck_cards())
    for game in range(60):
        g = RainbowGame(rules, players, policies, Stream(31, game))
        seat = 0
        while g.outcome < 0:
            g.step(seat)
            seat = (seat + 1) % players
            held = Counter()
            for hand in g.hands:
                held.update({c: n for c, n in enumerate(hand) if n})
            assert all(n >= 0 for hand in g.hands for n in hand)
            assert held + Counter(g.stock) + Counter(g.pile) == deck
            # Every card on the pile was legal on the card beneath it.
            assert all(rules.can_play(b, a) for a, b in pairwise(g.pile))
