"""Hisss: draw snake cards, match colours, and take the snakes you complete."""

from snakesim.core.columns import game_columns, seat_columns
from snakesim.core.registry import GameSpec
from snakesim.games.hisss import exact, kernel, reference
from snakesim.games.hisss.rules import OUTCOMES, POLICIES, HisssRules, score_of

SPEC = GameSpec(
    name="hisss",
    title="Hisss: colour-matching snakes, take the ones you complete",
    rules=HisssRules,
    min_players=2,
    max_players=8,
    outcomes=OUTCOMES,
    columns=kernel.COLUMNS,
    seat_columns=seat_columns(kernel.COLUMNS),
    game_columns=game_columns(kernel.COLUMNS),
    play_block=kernel.play_block,
    play_reference=reference.play,
    score=("cards", 1),
    standing_unit="points",
    tie_break=True,
    score_of=score_of,
    length_unit="turns",
    policies=POLICIES,
    default_policy="greedy",
    exact=exact.solve_hisss,
    outcome_words=(("draw", "players tied on points and on the tie-break (tie_break)"),),
)
