"""Rainbow: Fortune's shedding game along the rainbow colour cycle; first to empty their hand wins."""

from snakesim.core.columns import game_columns, seat_columns
from snakesim.core.registry import GameSpec
from snakesim.games.rainbow import kernel, reference
from snakesim.games.rainbow.rules import OUTCOMES, POLICIES, RainbowRules, check_setup

SPEC = GameSpec(
    name="rainbow",
    title="Rainbow: the shedding game on the rainbow colour cycle",
    rules=RainbowRules,
    min_players=2,
    max_players=8,
    outcomes=OUTCOMES,
    columns=kernel.COLUMNS,
    seat_columns=seat_columns(kernel.COLUMNS),
    game_columns=game_columns(kernel.COLUMNS),
    play_block=kernel.play_block,
    play_reference=reference.play,
    score=("hand", -1),
    standing_unit="cards in hand",
    length_unit="turns",
    policies=POLICIES,
    default_policy="greedy",
    check_setup=check_setup,
    outcome_words=(
        ("blocked win", "nobody could play, and the fewest cards in hand won"),
        ("blocked draw", "nobody could play, and the fewest cards in hand were tied"),
        ("unfinished", "stopped at the turn cap, turn_cap turns"),
    ),
)
