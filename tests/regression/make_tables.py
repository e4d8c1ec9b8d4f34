"""Store the regression tables (run once, from the main the change starts from; the rules'
``feel`` is on by default since issue 44, so the tables hold the game-feel figures too).

    python -m tests.regression.make_tables

Writes ``tables.npz``: one array per case and column, named ``CASE_ID/COLUMN``.
"""

from pathlib import Path

import numpy as np

from snakesim.games import get_game
from tests.regression.cases import CASES, case_id

SEED = 20261123


def play_case(case) -> dict:
    game, variant, settings, players, policies, games = case
    spec = get_game(game)
    rules = spec.rules.variant(variant).with_settings(settings)
    codes = None if policies is None else np.array(policies, np.int8)
    return spec.play_block(rules, players, SEED, 0, games, policies=codes)


def main() -> None:
    arrays = {}
    for case in CASES:
        for column, values in play_case(case).items():
            arrays[f"{case_id(case)}/{column}"] = values
    np.savez_compressed(Path(__file__).with_name("tables.npz"), **arrays)


if __name__ == "__main__":
    main()
