"""The regression cases: every shipped variant of every game, with each policy mix, stored
from the main that rules-as-data started from (``make_tables.py``); ``test_regression.py``
holds today's kernels to them bit for bit.

A case is ``(game, variant, settings, players, policies, games)``; settings use only options
that existed before and after the change.
"""

CASES = []
for _v in ("standard", "one-snake", "rejoin", "crosses-to-cup"):
    CASES.append(("fortune", _v, (), 4, None, 400))
    CASES.append(("fortune", _v, (), 2, None, 400))
CASES.append(("fortune", "standard", ("start_coins=5", "deck.RAIN=2", "deck.HEARTS=8"), 3, None, 400))
CASES.append(("fortune", "rejoin", ("snakes=1", "deck.CROSSES=9"), 5, None, 400))
for _v in ("standard", "wild-snake", "poppies-orchids", "both"):
    for _p in ((0, 0, 0), (1, 1, 1), (1, 0, 0)):
        CASES.append(("rainbow", _v, (), 3, _p, 300))
CASES.append(("rainbow", "both", ("hand_size=5", "colours.SUNS=RED"), 4, (0, 1, 0, 1), 300))
for _v in ("standard", "claim-joined", "most-snakes"):
    for _p in ((0, 0), (1, 1), (1, 0)):
        CASES.append(("hisss", _v, (), 2, _p, 200))
    CASES.append(("hisss", _v, (), 4, (1, 0, 1, 0), 200))
for _v in ("standard", "fewer-ones", "no-ones"):
    for _p in ((0, 0, 0), (1, 1, 1), (2, 2, 2), (1, 0, 2)):
        CASES.append(("sssnake", _v, (), 3, _p, 60))


def case_id(case) -> str:
    game, variant, settings, players, policies, _ = case
    parts = [game, variant, f"{players}p"]
    if policies is not None:
        parts.append("".join(str(p) for p in policies))
    parts += [s.replace("=", "-") for s in settings]
    return "_".join(parts)
