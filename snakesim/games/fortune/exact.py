"""Fortune solved exactly, for decks and coin counts small enough to enumerate.

The state is what the future depends on: the cards left in the draw pile (a count per
symbol; drawing the shuffled pile card by card is drawing without replacement), the coins of
each seat, the cup, whose turn it is and the pending HEARTS skips. An empty draw pile is
remade from every card, as the discards are the whole deck then. Each card's effect is the
reference engine's own (``FortuneGame.apply``), so the rules are written once.

The turn cap is not modelled: a game that can go on forever shows up as ``never``.
"""

from __future__ import annotations

from math import comb, prod

from snakesim.analysis.markov import DEFAULT_MAX_STATES, End, Solution, solve
from snakesim.core.errors import InputError
from snakesim.core.rng import Stream
from snakesim.core.rules import seat_values
from snakesim.games.fortune.reference import FortuneGame
from snakesim.games.fortune.rules import WIN, FortuneRules


def state_bound(rules: FortuneRules, players: int) -> int:
    """An upper bound on the states: draw piles x coin splits x turns x skip flags."""
    counts = rules.counts()
    coins = sum(seat_values(rules.start_coins, players))
    return prod(k + 1 for k in counts) * comb(coins + players, players) * players * 2**players


def solve_fortune(rules: FortuneRules, players: int, max_states: int = DEFAULT_MAX_STATES, policies=None) -> Solution:
    """The exact outcome probabilities and expected length (cards drawn) of a Fortune game.

    Outcome labels: ``("win", seat)`` and ``"draw"``; ``Solution.never`` is the chance that the
    game never ends. ``policies`` is accepted for the common signature (Fortune has no choices).

    Raises
    ------
    InputError
        If the configuration may need more than ``max_states`` states.
    """
    bound = state_bound(rules, players)
    if bound > max_states:
        raise InputError(
            "exact",
            f"this configuration may need up to {bound:,} states ({rules.deck_size()} cards, "
            f"{sum(seat_values(rules.start_coins, players))} coins, {players} players); the limit is {max_states:,}: "
            "use fewer cards or coins, or raise --max-states",
        )
    full = tuple(rules.counts())
    scratch = FortuneGame(rules, players, Stream(0, 0), deck=[])

    def load(coins, cup, skip):
        scratch.coins, scratch.cup, scratch.skip = list(coins), cup, list(skip)
        scratch.outcome, scratch.winner = -1, -1
        return scratch

    def step(state):
        pile, coins, cup, turn, skip = state
        if skip[turn]:
            g = load(coins, cup, skip)
            g.skip[turn] = False
            yield 1.0, (pile, coins, cup, g.left_of(turn), tuple(g.skip)), 0
            return
        counts = pile if sum(pile) else full
        total = sum(counts)
        for card, k in enumerate(counts):
            if not k:
                continue
            g = load(coins, cup, skip)
            g.apply(turn, card)
            if g.finish():
                yield k / total, End(("win", g.winner) if g.outcome == WIN else "draw"), 1
                continue
            left = list(counts)
            left[card] -= 1
            yield k / total, (tuple(left), tuple(g.coins), g.cup, g.left_of(turn), tuple(g.skip)), 1

    start = (full, tuple(seat_values(rules.start_coins, players)), 0, 0, (False,) * players)
    return solve(start, step, max_states)
