"""Sweeps: grid parsing, one row set per point, a real effect, the figure, bad input."""

import json

import pytest
from click.testing import CliRunner

from snakesim.analysis.sweep import parse_axes, parse_players, plan_sweep, sweep
from snakesim.cli import cli
from snakesim.core.arms import Budget
from snakesim.core.errors import InputError
from snakesim.games import get_game
from snakesim.report.figures import sweep_figure


def test_parse_players():
    assert parse_players("2..5") == [2, 3, 4, 5] and parse_players("3") == [3] and parse_players("2,4") == [2, 4]
    for bad in ("two", "5..2", "2..x"):
        with pytest.raises(InputError, match="--players"):
            parse_players(bad)


def test_parse_axes():
    fixed, axes = parse_axes(["start_coins=5:20:5", "snakes=1,2", "turn_cap=500"])
    assert fixed == ["turn_cap=500"] and list(axes) == ["start_coins", "snakes"]
    assert list(axes["start_coins"]) == [5, 10, 15, 20] and axes["snakes"] == ["1", "2"]
    with pytest.raises(InputError, match="start_coins: expected LOW <= HIGH"):
        parse_axes(["start_coins=9:1:1"])
    with pytest.raises(InputError, match="start_coins: expected LOW:HIGH:STEP"):
        parse_axes(["start_coins=1:x:1"])


def test_a_huge_grid_is_refused_before_it_is_built():
    # 10**6 x 10**8 points: counting them must not build them (this took 5.4 GB and failed).
    with pytest.raises(InputError, match=r"--set: the grid has 100,000,000,000,000 points; at most 1,000"):
        plan_sweep(get_game("fortune"), [4], ["start_coins=1:1000000:1", "turn_cap=1:100000000:1"], Budget(10, 0))
    with pytest.raises(InputError, match=r"--players: the range 2..1000000000 has 999,999,999 values; at most 1,000"):
        parse_players("2..1000000000")


def test_sweep_rows_and_a_real_effect():
    table = sweep(get_game("fortune"), [2, 3], ["start_coins=4:16:6", "snakes=1,2", "feel=false"], Budget(4000, 3))
    assert len(table) == 2 * 3 * 2 * 6  # players x coins x snakes x metrics (no game feel: feel = false)
    assert set(table["start_coins"]) == {4, 10, 16} and set(table["snakes"]) == {1, 2}
    length = table[(table["metric"] == "length") & (table["players"] == 3) & (table["snakes"] == 2)]
    length = length.sort_values("start_coins")
    # More coins, longer games: each point's interval lies wholly above the previous one's.
    assert (length["low"].to_numpy()[1:] > length["high"].to_numpy()[:-1]).all()


def test_bad_points_are_refused_before_playing():
    with pytest.raises(InputError, match="start_coins: expected an integer from 1"):
        sweep(get_game("fortune"), [2], ["start_coins=0:10:5"], Budget(10, 0))
    with pytest.raises(InputError, match="players: expected an integer from 2 to 8"):
        sweep(get_game("fortune"), [1, 2], ["start_coins=5:10:5"], Budget(10, 0))


def test_cli_sweep_plot_and_json(tmp_path):
    plot = tmp_path / "figs" / "s.png"
    runner = CliRunner()
    r = runner.invoke(cli, ["sweep", "rainbow", "-p", "2..3", "--set", "hand_size=4,7", "-n", "1500", "--plot", plot])
    assert r.exit_code == 0, r.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 10_000
    assert "hand_size" in r.stdout and "seat 0 wins" in r.stdout
    args = ["sweep", "hisss", "-p", "3", "--set", "claim_joined=false,true", "--set", "feel=false", "-n", "800"]
    s = json.loads(runner.invoke(cli, [*args, "--json"]).stdout)
    assert s["axes"] == ["claim_joined"] and len(s["rows"]) == 2 * 6
    assert s["level"] == 0.95 and s["policies"] == {"3": ["greedy"] * 3}
    assert (
        "players in turn order, seat 0 first: greedy, greedy | greedy, greedy, greedy"
        in runner.invoke(cli, ["sweep", "rainbow", "-p", "2..3", "--set", "hand_size=4,7", "-n", "300"]).stdout
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["sweep", "fortune", "--set", "start_coins=5:20:5", "--plot", "x.pdf"],
            "--plot: expected a file ending in .png",
        ),
        (["sweep", "fortune", "--plot", "x.png"], "--plot: nothing is swept"),
        (["sweep", "fortune", "--set", "colour=1:3:1"], "colour: unknown option"),
        (["sweep", "fortune", "-p", "2..x"], "--players: expected"),
    ],
)
def test_cli_sweep_bad_input(tmp_path, args, message):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_sweep_with_feel_reports_and_draws_the_feel_figures(tmp_path):
    table = sweep(get_game("fortune"), [3], ["start_coins=5:20:15"], Budget(3000, 2))  # (feel: the default)
    changes = table[table["metric"] == "lead_changes"].sort_values("start_coins")
    # More coins, more cards, more lead changes: the 20-coin interval lies wholly above the 5-coin one.
    assert len(changes) == 2 and changes["low"].iloc[1] > changes["high"].iloc[0]
    assert {"comeback", "decided", "out_share"} <= set(table["metric"])
    plain = sweep(get_game("fortune"), [3], ["start_coins=5:20:15", "feel=false"], Budget(300, 0))
    assert "lead_changes" not in set(plain["metric"])
    axes = {ax.get_title(): ax for ax in sweep_figure(table, "start_coins").axes if ax.get_visible()}
    assert "lead changes" in axes and "time out of the game" in axes and "length" in axes
    # Shares are drawn in percent, as they are printed; counts are not.
    from matplotlib.ticker import PercentFormatter

    assert isinstance(axes["the first player wins"].yaxis.get_major_formatter(), PercentFormatter)
    assert isinstance(axes["comeback"].yaxis.get_major_formatter(), PercentFormatter)
    assert not isinstance(axes["lead changes"].yaxis.get_major_formatter(), PercentFormatter)


def test_the_sweep_figure_leaves_out_a_metric_that_never_moves():
    # Every 2-player Hisss game lasts 49 turns: no length panel.
    table = sweep(get_game("hisss"), [2], ["claim_joined=false,true"], Budget(300, 2))
    assert (abs(table[table["metric"] == "length"]["value"] - 49) < 1e-9).all()
    titles = [ax.get_title() for ax in sweep_figure(table, "claim_joined").axes if ax.get_visible()]
    assert "length" not in titles and "the first player wins" in titles
    from snakesim.questions.sweep import sweep_findings

    assert sweep_findings(table, "claim_joined")[0] == "2 players: every game lasts 49 turns at every point."


def test_the_sweep_table_prints_values_in_their_units():
    r = CliRunner().invoke(cli, ["sweep", "fortune", "-p", "2", "--set", "start_coins=5,20", "-n", "2000"])
    assert r.exit_code == 0, r.output
    table = r.output.split("\n\n")[1]
    header, *rows = table.splitlines()[:3]
    # Rates in percent, never "-0%"; no game is ever unfinished, so no such column, said once.
    assert "unfinished" not in header and "at no point in any game: unfinished" in r.output
    assert all("%" in row and "-0%" not in row for row in rows)
    assert "In words" in r.output and "2 players: the average game (cards drawn) goes from" in r.output
