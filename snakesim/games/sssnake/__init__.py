"""Sssnake: join your snake's head and tail with path cards drawn by a die."""

from snakesim.core.columns import game_columns, seat_columns
from snakesim.core.registry import GameSpec
from snakesim.games.sssnake import kernel, reference
from snakesim.games.sssnake.rules import OUTCOMES, POLICIES, SssnakeRules

SPEC = GameSpec(
    name="sssnake",
    title="Sssnake: join your snake's head and tail with path cards drawn by a die",
    rules=SssnakeRules,
    min_players=2,
    max_players=4,
    outcomes=OUTCOMES,
    columns=kernel.COLUMNS,
    seat_columns=seat_columns(kernel.COLUMNS),
    game_columns=game_columns(kernel.COLUMNS),
    play_block=kernel.play_block,
    play_reference=reference.play,
    score=("missing", -1),
    standing_unit="cards missing",
    length_unit="turns",
    policies=POLICIES,
    default_policy="greedy",
    outcome_words=(
        ("joined", "a player joined their snake's head and tail and won"),
        ("stock win", "the stock ran out and one snake missed the fewest cards"),
        ("stock draw", "the stock ran out with snakes tied for the fewest cards missing"),
    ),
)
