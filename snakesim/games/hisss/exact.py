"""Hisss solved exactly for small decks, with any mix of the random and greedy policies.

The state is what the rest of the game depends on: the cards left in the fan (a count per
card type), the snakes on the table as a multiset (each snake: its two ends, unordered, its
length and its middle sections; the order of the list cannot change the odds, since every
policy treats the placements as a set with ties split evenly), each seat's score (cards,
snakes, longest snake) and whose turn it is. Placements and their effects are the reference
engine's own (``HisssGame.placements``, ``place``, ``result_of``). The game always ends after
the last card, so the chain has no cycles.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from snakesim.analysis.markov import DEFAULT_MAX_STATES, End, Solution, solve
from snakesim.core.errors import InputError
from snakesim.core.policies import CODE, policy_table
from snakesim.core.rng import MAX_BOUND, Stream
from snakesim.games.hisss.reference import JOIN, HisssGame, Snake
from snakesim.games.hisss.rules import GREEDY, N_TYPES, RANDOM, HisssRules

START = "start"  # before the first card is turned up


def solve_hisss(
    rules: HisssRules, players: int, max_states: int = DEFAULT_MAX_STATES, policies: Sequence[int] | None = None
) -> Solution:
    """The exact outcome probabilities of a Hisss game (outcomes ``("win", seat)``, ``"draw"``).

    ``policies`` are per-seat codes or a policy table (``snakesim.core.policies.policy_table``;
    random by default): random and greedy, with a mistake rate if any (a mixture of the two).
    Raises InputError past ``max_states`` or for a look-ahead policy, which has no exact chain.
    """
    bound = prod(k + 1 for k in rules.type_counts())
    if bound > max_states:
        raise InputError(
            "exact",
            f"this deck needs at least {bound:,} states (every subset of its {rules.deck_size()} cards can be "
            f"what is left to draw); the limit is {max_states:,}: use a smaller deck, or raise --max-states",
        )
    table = policy_table(policies, players, RANDOM)
    if any(code not in (RANDOM, GREEDY) for code in table[:, CODE]):
        raise InputError(
            "policy", "the exact solver takes random and greedy (a mistake rate too), not expert or oracle"
        )
    seats = [(int(code), int(mistake) / MAX_BOUND) for code, mistake, _ in table]
    g = HisssGame(rules, players, table, Stream(0, 0), deck=[0])
    full = tuple(rules.type_counts())

    def load(table):
        g.snakes = [Snake(list(ends), length, middles) for ends, length, middles in table]
        return g

    def canonical(snakes):
        return tuple(sorted((tuple(sorted(s.ends)), s.length, s.middles) for s in snakes))

    def lay(table, card):
        load(table).lay_alone(card)
        return canonical(g.snakes)

    def outcome(scores):
        keys = [rules.rank(*score, start) for score, start in zip(scores, rules.starts(players), strict=True)]
        leaders = [s for s in range(players) if keys[s] == max(keys)]
        return End(("win", leaders[0]) if len(leaders) == 1 else "draw")

    def step(state):
        if state == START:
            total = sum(full)
            for card, k in enumerate(full):
                if k:
                    left = list(full)
                    left[card] -= 1
                    nxt = (tuple(left), lay((), card), ((0, 0, 0),) * players, 0)
                    yield k / total, nxt if sum(left) else outcome(nxt[2]), 0
            return
        left, table, scores, seat = state
        total = sum(left)
        for card in range(N_TYPES):
            if not left[card]:
                continue
            rest = list(left)
            rest[card] -= 1
            rest = tuple(rest)
            for p, nxt_table, gain in _moves(g, load, canonical, lay, table, card=card, player=seats[seat]):
                new_scores = list(scores)
                if gain:
                    cards, taken, longest = scores[seat]
                    new_scores[seat] = (cards + gain, taken + 1, max(longest, gain))
                new_scores = tuple(new_scores)
                nxt = (rest, nxt_table, new_scores, (seat + 1) % players)
                yield left[card] / total * p, nxt if sum(rest) else outcome(new_scores), 1

    return solve(START, step, max_states)


def _moves(g, load, canonical, lay, table, card, player):
    """Each (probability, table after, cards taken) of placing ``card`` by ``player``, a pair
    (policy, mistake): the policy plays a uniformly random placement with probability ``mistake``."""
    policy, mistake = player
    options = load(table).placements(card)
    if not options:
        yield 1.0, lay(table, card), 0
        return
    weight = dict.fromkeys(options, (mistake if policy == GREEDY else 1.0) / len(options))
    if policy == GREEDY:
        keys = []
        for p in options:
            takes, size = g.result_of(card, p)
            keys.append((2 if takes else 1 if p.kind == JOIN else 0, size))
        best = [p for p, k in zip(options, keys, strict=True) if k == max(keys)]
        for p in best:
            weight[p] += (1.0 - mistake) / len(best)
    for p in options:
        if weight[p] == 0:
            continue
        g = load(table)
        takes, _ = g.result_of(card, p)
        s = g.place(card, p)
        gain = 0
        if takes:
            gain = g.snakes[s].length
            g.remove(s)
        yield weight[p], canonical(g.snakes), gain
