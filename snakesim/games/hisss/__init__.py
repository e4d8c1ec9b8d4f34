"""Hisss: draw snake cards, match colours, and take the snakes you complete."""

from snakesim.core.registry import GameSpec
from snakesim.games.hisss import exact, kernel, reference
from snakesim.games.hisss.rules import OUTCOMES, POLICIES, HisssRules

SPEC = GameSpec(
    name="hisss",
    title="Hisss: colour-matching snakes, take the ones you complete (seeds 000, 002, 003)",
    rules=HisssRules,
    min_players=2,
    max_players=8,
    outcomes=OUTCOMES,
    seat_columns=("cards", "snakes", "longest"),
    game_columns=("completed", "table_cards", "table_snakes"),
    play_block=kernel.play_block,
    play_reference=reference.play,
    score=("cards", 1),
    length_unit="turns",
    policies=POLICIES,
    default_policy="greedy",
    exact=exact.solve_hisss,
)
