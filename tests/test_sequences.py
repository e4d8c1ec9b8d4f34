"""--precision stops on anytime-valid confidence sequences: the intervals it reports at the
stop cover the exact answer (from the exact solver) as often as they promise, however often the
run looked before stopping."""

import itertools

import numpy as np
import pytest
from scipy import stats

from snakesim.analysis.compare import compare_variants, confidence_sequences
from snakesim.analysis.stats import betting_pieces, betting_sequence, normal_mixture_half_width, wilson
from snakesim.core.arms import Budget, RuleSource
from snakesim.core.errors import InputError
from snakesim.games import get_game
from snakesim.games.fortune.rules import DECK_SYMBOLS

FORTUNE = get_game("fortune")
# One card of each symbol and two SNAKEs, 3 coins each, 2 players: small enough to solve.
TINY = [f"deck.{s}=1" for s in DECK_SYMBOLS] + ["start_coins=3"]


def test_the_boundary_by_hand():
    # v = 0.25 * 1000 = 250, rho = 250 / (2 ln 20 + ln(1 + 2 ln 20)) = 250 / 7.9717 = 31.361;
    # sqrt((250 + 31.361) ln(281.361 / (31.361 * 0.0025))) / 1000 = 0.047991.
    assert normal_mixture_half_width(1000, 0.5, 0.05, 1000) == pytest.approx(0.047991, abs=2e-6)
    # Valid at every look, so wider than the fixed-sample interval at every look; shrinking.
    widths = [normal_mixture_half_width(t, 0.5, 0.05, 1000) for t in (500, 1000, 10_000, 10**6)]
    looks = (500, 1000, 10_000, 10**6)
    assert all(w > stats.norm.ppf(0.975) * 0.5 / np.sqrt(t) for w, t in zip(widths, looks, strict=True))
    assert widths == sorted(widths, reverse=True) and normal_mixture_half_width(10, 0.0, 0.05, 10) == 0


def coverage(replications: int) -> float:
    exact = FORTUNE.exact(FORTUNE.rules().with_settings(TINY), 2, 2_000_000)
    truth = [exact.outcomes.get(("win", s), 0.0) for s in (0, 1)]
    covered = 0
    for seed in range(replications):
        table, _ = compare_variants(
            FORTUNE, 2, ["standard"], Budget(200, seed, precision=0.04), RuleSource(settings=TINY)
        )
        sequences = table.attrs["stopping"]["sequences"]
        assert table.attrs["stopping"]["reached"] and len(sequences) == 2
        covered += all(r["low"] <= p <= r["high"] for r, p in zip(sequences, truth, strict=True))
    return covered / replications


def test_the_stopped_intervals_cover_the_exact_answer():
    # 15 runs here (1,000 in make test-all): nominal 0.95 for both seats together, conservative in
    # practice; intervals that ignored the looking (fixed-sample widths) would miss several.
    assert coverage(15) >= 14 / 15


@pytest.mark.slow
def test_the_stopped_intervals_cover_the_exact_answer_in_full():
    assert coverage(1000) >= 0.95


def test_precise_rows_and_bad_names():
    table, tables = compare_variants(
        FORTUNE, 3, ["standard", "one-snake"], Budget(2000, 1, precision=3.0), precise=("length", "differences")
    )
    sequences = table.attrs["stopping"]["sequences"]
    assert {r["metric"] for r in sequences} >= {"length", "win_rate.0.difference"}
    assert table.attrs["stopping"]["widest_half_width"] <= 3.0
    again = confidence_sequences(FORTUNE, tables, ("length", "differences"), 2000)
    assert again["half_width"].max() == pytest.approx(table.attrs["stopping"]["widest_half_width"], rel=1e-12)
    with pytest.raises(InputError, match="--precise: unknown row kind 'lengths'"):
        compare_variants(FORTUNE, 3, ["standard"], Budget(200, 1, precision=0.1), precise=("lengths",))


def stopped(p: float, seed: int, precision: float = 0.01, block: int = 1000, alpha: float = 0.05):
    """Bernoulli(p) games looked at every ``block`` until the betting sequence is within
    ``precision``, with its bets changing on :func:`betting_pieces` as in ``compare``: the games
    played, the interval, and the successes."""
    rng = np.random.default_rng(seed)
    wins = np.zeros(0, dtype=bool)
    while True:
        wins = np.concatenate([wins, rng.random(block) < p])
        edges = betting_pieces(wins.size, block)
        counts = [[np.sum(~wins[a:b]), 0, np.sum(wins[a:b])] for a, b in itertools.pairwise(edges)]
        low, high = betting_sequence(np.array(counts), np.array([0.0, 0.5, 1.0]), alpha, precision)
        if (high - low) / 2 <= precision or wins.size >= 200 * block:
            return wins.size, (low, high), int(wins.sum())


def test_the_pieces_are_fixed_by_position_and_cut_at_every_look():
    edges = betting_pieces(5000, 1000)
    assert edges[0] == 0 and edges[-1] == 5000 and np.all(np.diff(edges) > 0)
    assert set(range(0, 5001, 1000)) <= set(edges.tolist())
    assert edges[1] == 100 and np.diff(edges).max() <= 1000
    longer = betting_pieces(9000, 1000)  # a later look keeps every earlier edge
    assert longer[: edges.size].tolist() == edges.tolist()


def test_the_betting_sequence_adapts_to_the_rate_and_stays_near_the_fixed_size_width():
    # A rate near 2% stops far earlier than one near 50% (a bound for every rate would stop
    # both at the same point), and at the stop the interval is about 1.3 times the fixed-size
    # Wilson interval for the same games at every rate, where a sub-Gaussian bound for 50% gave
    # 1.6-2.0 and one bet for every candidate gave 1.7 at 2% (a rare rate's lower candidates
    # vary less than its upper ones).
    rare = [stopped(0.02, seed)[0] for seed in range(10)]
    even = [stopped(0.5, seed)[0] for seed in range(10)]
    assert max(rare) * 3 < min(even), (rare, even)
    for p, most in ((0.5, 1.35), (0.1, 1.36), (0.02, 1.46)):
        ratios = []
        for seed in range(20):
            n, (low, high), k = stopped(p, 100 + seed)
            w_low, w_high = wilson(k, n, 0.95)
            ratios.append((high - low) / (w_high - w_low))
        assert np.median(ratios) <= most, (p, ratios)


def test_the_betting_sequence_covers_when_stopped():
    # Stopped when narrow enough, looked at after every block: still covers (nominal 95%).
    hits = []
    for p in (0.03, 0.3, 0.6):
        for seed in range(60):
            _, (low, high), _ = stopped(p, seed, precision=0.02, block=500)
            hits.append(low <= p <= high)
    assert np.mean(hits) >= 0.95, np.mean(hits)
