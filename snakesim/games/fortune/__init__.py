"""Fortune: draw a card, move coins between players and a cup; the last player with coins wins."""

from snakesim.core.registry import GameSpec
from snakesim.games.fortune import exact, kernel, reference
from snakesim.games.fortune.rules import OUTCOMES, FortuneRules

SPEC = GameSpec(
    name="fortune",
    title="Fortune: the coin-and-cup game (seed 004, first part)",
    rules=FortuneRules,
    min_players=2,
    max_players=8,
    outcomes=OUTCOMES,
    seat_columns=("coins", "out_at"),
    game_columns=("reshuffles", "max_cup"),
    play_block=kernel.play_block,
    play_reference=reference.play,
    score=("coins", 1),
    length_unit="cards drawn",
    exact=exact.solve_fortune,
)
