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


def test_the_games_that_would_settle_grow_with_the_square_of_the_width():
    # half-width 0.013 at a distance 0.008 from the margin: 20,000 x (13/8)^2 x 1.1, in thousands up
    assert games_to_settle(-0.002, -0.015, 0.011, 0.01, 20_000) == 59_000
    assert games_to_settle(0.01, 0.0, 0.02, 0.01, 20_000) is None  # (on the margin itself: no number would)
