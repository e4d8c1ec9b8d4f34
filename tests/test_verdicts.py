"""The verdicts' pieces: --matters as margins, the three verdicts at their edges, and the games
that would settle an undecided difference."""

import pytest

from snakesim.analysis.verdicts import (
    MATTERS,
    NEGLIGIBLE,
    UNDECIDED,
    Margin,
    games_to_settle,
    margin_for,
    parse_matters,
    verdict,
)
from snakesim.core.errors import InputError


def test_matters_reads_points_for_a_share_and_units_or_shares_for_the_rest():
    got = parse_matters(["win_rate=2,comeback=5%", "lead_changes=0.25", "length=3%"])
    assert got == {"win_rate": Margin(0.02), "comeback": Margin(0.05), "lead_changes": Margin(0.25),
                   "length": Margin(0.03, relative=True)}  # fmt: skip
    assert margin_for("win_rate.3", got).of(0.25) == pytest.approx(0.02)
    assert margin_for("length", got).of(150.0) == pytest.approx(4.5)
    assert margin_for("length_median", got) == Margin(0.03, relative=True)  # (the length's, unless named)
    assert margin_for("lead_changes") == Margin(0.5) and margin_for("seat_balance") is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colour=3", "--matters: 'colour=3': expected FIGURE=NUMBER or FIGURE=NUMBER% with FIGURE one of win_rate"),
        ("length", "--matters: 'length': expected FIGURE=NUMBER"),
        ("length=-2", "--matters: 'length=-2': expected a number above 0, got '-2'"),
        ("length=lots", "--matters: 'length=lots': expected a number above 0, got 'lots'"),
        ("seat_balance=1", "--matters: 'seat_balance=1': expected FIGURE=NUMBER"),
        # A share's margin is in percentage points: 0.005 meant as half a point is 200 times too small.
        (
            "tie_break=0.005",
            "--matters: 'tie_break=0.005': tie_break is in percentage points (tie_break=0.5: half a "
            "point), at least 0.1",
        ),
        ("tie_break.share=0.5", "--matters: 'tie_break.share=0.5': name the figure alone: tie_break=0.5"),
    ],
)
def test_a_wrong_margin_is_one_line_naming_what_is_allowed(text, message):
    with pytest.raises(InputError) as err:
        parse_matters(text)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_the_three_verdicts_at_their_edges():
    assert verdict(0.010, 0.02, 0.01) == MATTERS and verdict(-0.03, -0.010, 0.01) == MATTERS
    assert verdict(-0.0099, 0.0099, 0.01) == NEGLIGIBLE and verdict(0.0, 0.0, 0.01) == NEGLIGIBLE
    assert verdict(-0.0099, 0.010, 0.01) == UNDECIDED and verdict(0.005, 0.012, 0.01) == UNDECIDED
    # an interval reaching exactly to -margin on the low side is not inside it either
    assert verdict(-0.25, 0.0, 0.25) == UNDECIDED and verdict(-0.25 + 2**-20, 0.0, 0.25) == NEGLIGIBLE


def test_the_games_that_would_settle_grow_with_the_square_of_the_width():
    # half-width 0.013 at a distance 0.008 from the margin: 20,000 x (13/8)^2 x 1.1, in thousands up
    assert games_to_settle(-0.002, -0.015, 0.011, 0.01, 20_000) == 59_000
    assert games_to_settle(0.01, 0.0, 0.02, 0.01, 20_000) is None  # (on the margin itself: no number would)


def _undecided(rows):
    import pandas as pd

    from snakesim.analysis.verdicts import pd_int

    table = pd.DataFrame(rows, columns=["metric", "kind", "diff", "margin", "verdict", "settle_games"])
    table["settle_games"] = pd_int(list(table["settle_games"]))
    return table


def test_a_plan_to_settle_what_a_comparison_left_undecided():
    from snakesim.analysis.verdicts import settle_plan

    decided = _undecided([("win_rate.0", "rate", 0.02, 0.01, "matters", None)])
    assert settle_plan(decided, 10_000) is None
    hopeless = _undecided([("win_rate.0", "rate", 0.01, 0.01, "undecided", None)])
    assert settle_plan(hopeless, 10_000) is None
    rates = _undecided([
        ("win_rate.0", "rate", 0.006, 0.01, "undecided", 40_000),
        ("win_rate.1", "rate", -0.0095, 0.01, "undecided", 90_000),
        ("draw", "rate", 0.0, 0.01, "negligible", None),
    ])  # fmt: skip
    plan = settle_plan(rates, 10_000)
    assert plan["games"] == 90_000 and plan["max_games"] == 270_000  # (three times, in thousands)
    assert plan["precision"] == pytest.approx(0.0005, rel=1e-9)  # the nearest difference to its margin
    assert settle_plan(rates, 500_000)["max_games"] == 500_000  # never fewer than were played
    odd = _undecided([("win_rate.0", "rate", 0.006, 0.01, "undecided", 10_001)])
    assert settle_plan(odd, 1_000)["max_games"] == 31_000  # three times 10,001, up to the next thousand
    mixed = _undecided([("win_rate.0", "rate", 0.006, 0.01, "undecided", 40_000),
                        ("length", "mean", 3.0, 5.0, "undecided", 20_000)])  # fmt: skip
    assert settle_plan(mixed, 10_000) == {"games": 40_000, "precision": None, "max_games": None}
    edge = _undecided([("first_player_advantage", "mean", 0.005, 0.01, "undecided", 60_000),
                       ("win_rate.0", "rate", 0.006, 0.01, "undecided", 40_000)])  # fmt: skip
    plan = settle_plan(edge, 10_000)  # (the first player's edge settles with the seats' rates)
    assert plan["games"] == 60_000 and plan["precision"] == pytest.approx(0.004, rel=1e-9)
    only_edge = _undecided([("first_player_advantage", "mean", 0.005, 0.01, "undecided", 60_000)])
    assert settle_plan(only_edge, 10_000) == {"games": 60_000, "precision": None, "max_games": None}
    close = _undecided([("win_rate.0", "rate", 0.009851, 0.01, "undecided", 900_000)])
    assert settle_plan(close, 10_000)["precision"] == pytest.approx(0.00014, rel=1e-9)  # (0.00015 would be wider)
    closest = _undecided([("win_rate.0", "rate", 0.00995, 0.01, "undecided", 900_000)])
    assert settle_plan(closest, 10_000)["precision"] == pytest.approx(4.7e-5, rel=1e-9)


def test_the_games_to_settle_a_difference_at_the_edges():
    from snakesim.analysis.verdicts import MOST_GAMES, games_to_settle

    assert games_to_settle(0.005, 0.005, 0.005, 0.01, 1000) == 1000  # (no width left: these games settle it)
    # half-width 0.5 at distance 0.25 from the margin: four times the games, 10% to spare, up to the thousand
    assert games_to_settle(0.25, -0.25, 0.75, 0.5, 1000) == 5_000  # (4,400)
    assert games_to_settle(0.25, -0.25, 0.75, 0.5, MOST_GAMES // 4) == 110_001_000  # exactly the most: still said
    assert games_to_settle(0.25, -0.25, 0.75, 0.5, MOST_GAMES // 4 + 1) is None  # one game more: no practical number
    assert games_to_settle(0.5, 0.0, 1.0, 0.5, 1000) is None  # (a difference on the margin itself)
