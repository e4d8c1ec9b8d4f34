"""Game i of seed s is one fixed game: whatever the threads, chunks or starting index."""

import pandas as pd
import pytest

import snakesim
from snakesim.core.arms import Budget
from snakesim.core.errors import InputError
from snakesim.core.runner import max_threads


@pytest.fixture(scope="module")
def base():
    return snakesim.simulate("fortune", players=4, games=6000, seed=17, threads=1, chunk_size=6000)


@pytest.mark.skipif(max_threads() < 2, reason="needs 2 numba threads")
def test_same_table_with_two_threads(base):
    pd.testing.assert_frame_equal(base, snakesim.simulate("fortune", players=4, games=6000, seed=17, threads=2))


@pytest.mark.parametrize("chunk_size", [1000, 777])
def test_same_table_with_other_chunk_sizes(base, chunk_size):
    pd.testing.assert_frame_equal(
        base, snakesim.simulate("fortune", players=4, games=6000, seed=17, chunk_size=chunk_size)
    )


def test_a_slice_of_the_run_is_the_same_games(base):
    part = snakesim.simulate("fortune", players=4, games=1000, seed=17, first=2500)
    pd.testing.assert_frame_equal(base.iloc[2500:3500].reset_index(drop=True), part, check_like=True)


def test_other_seed_other_games(base):
    other = snakesim.simulate("fortune", players=4, games=6000, seed=18)
    assert not other["length"].equals(base["length"])


def test_table_columns_and_metadata(base):
    expected = ["game", "outcome", "winner", "length"]  # (the seed is in attrs: the same in every row)
    expected += [f"coins_{s}" for s in range(4)] + [f"out_at_{s}" for s in range(4)] + ["reshuffles", "max_cup"]
    assert list(base.columns) == [*expected, "lead_changes", "decided", "comeback", "deficit", "leader_q1",
                                  "leader_q2", "leader_q3", "out_share"]  # (no tie-break in Fortune)  # fmt: skip
    # A seat that never went out has no step out: a null, not -1, so a mean counts the others.
    assert str(base["out_at_0"].dtype) == "Int32" and base["out_at_0"].isna().any()
    assert (base["out_at_0"].dropna() > 0).all()
    plain = snakesim.simulate("fortune", players=4, games=500, seed=17, settings=["feel=false"])
    assert list(plain.columns) == expected  # (no feel columns: not recorded)
    assert base.attrs["game"] == "fortune" and base.attrs["players"] == 4 and base.attrs["seed"] == 17
    assert base.attrs["variant"] == "standard" and base.attrs["options"]["start_coins"] == 20
    assert base.attrs["version"] == snakesim.__version__
    assert set(base["outcome"].cat.categories) == {"win", "draw", "unfinished"}


def test_api_options_apply():
    df = snakesim.simulate("fortune", players=2, games=200, seed=1, variant="one-snake", start_coins=3)
    assert df.attrs["options"]["snakes"] == 1 and df.attrs["options"]["start_coins"] == 3
    assert df.attrs["changes"] == {"snakes": 1, "start_coins": 3}


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"game": "chess"}, "game"),
        ({"players": 1}, "players"),
        ({"players": 9}, "players"),
        ({"games": 0}, "games"),
        ({"seed": -1}, "seed"),
        ({"threads": 0}, "threads"),
        ({"variant": "nope"}, "variant"),
        ({"start_coins": 0}, "start_coins"),
    ],
)
def test_api_rejects_bad_input(kwargs, field):
    args = {"game": "fortune", "players": 4, "games": 10} | kwargs
    with pytest.raises(InputError) as err:
        snakesim.simulate(**args)
    assert err.value.field == field


def test_api_summarize_is_tidy(base, tmp_path):
    table = snakesim.summarize(base)
    assert list(table.columns) == ["metric", "label", "kind", "value", "low", "high"]
    rates = table[table["metric"].str.startswith("win_rate.")]
    assert len(rates) == 4 and (rates["low"] <= rates["value"]).all() and (rates["value"] <= rates["high"]).all()
    assert rates["value"].tolist() == [(base["winner"] == s).mean() for s in range(4)]
    # The metadata survives the disk, so a table read back summarises the same.
    back = snakesim.read_table(snakesim.write_table(base, tmp_path / "t.parquet"))
    pd.testing.assert_frame_equal(snakesim.summarize(back), table)
    with pytest.raises(InputError, match="table: it has no run metadata"):
        snakesim.summarize(pd.DataFrame({"winner": [0]}))


@pytest.mark.parametrize("threads", [1, 2])
def test_games_are_reported_as_they_finish_inside_a_block(threads):
    # One block of 6000 games, reported in pieces as its threads finish them: a bar moves
    # during a long block, and the pieces add up to the block.
    from snakesim.core.runner import play_blocks
    from snakesim.core.threads import using_threads
    from snakesim.games import get_game

    spec, pieces = get_game("fortune"), []
    with using_threads(min(threads, max_threads())):
        play_blocks(spec, spec.rules(), 3, Budget(6000, 5, block=6000), on_games=pieces.append)
    assert len(pieces) > 1 and sum(pieces) == 6000


def test_a_backend_that_does_not_report_counts_whole_blocks():
    from snakesim.core.runner import play_blocks, play_task
    from snakesim.games import get_game

    class Blocks:  # a backend like Dask's: results come back a block at a time
        def warm_up(self, task, args):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map(self, task, blocks, args):
            for index, start, count in blocks:
                yield index, play_task(*args, start, count)

    spec, pieces = get_game("fortune"), []
    play_blocks(spec, spec.rules(), 3, Budget(2500, 5, block=1000), backend=Blocks(), on_games=pieces.append)
    assert pieces == [1000, 1000, 500]
