"""Fortune: draw a card, move coins between players and a cup; the last player with coins wins."""

from snakesim.core.columns import game_columns, seat_columns
from snakesim.core.registry import GameSpec
from snakesim.games.fortune import exact, kernel, reference
from snakesim.games.fortune.rules import OUTCOMES, FortuneRules

SPEC = GameSpec(
    name="fortune",
    title="Fortune: the coin-and-cup game",
    rules=FortuneRules,
    min_players=2,
    max_players=8,
    outcomes=OUTCOMES,
    columns=kernel.COLUMNS,
    seat_columns=seat_columns(kernel.COLUMNS),
    game_columns=game_columns(kernel.COLUMNS),
    play_block=kernel.play_block,
    play_reference=reference.play,
    score=("coins", 1),
    out_column="out_at",
    standing_unit="coins",
    length_unit="cards drawn",
    exact=exact.solve_fortune,
    outcome_words=(
        ("draw", "one card put the last players with coins out together"),
        ("unfinished", "stopped at the turn cap, turn_cap cards, with two or more players in"),
    ),
)
