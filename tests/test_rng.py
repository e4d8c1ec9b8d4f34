"""The per-game stream: known answers, and the numba and Python versions agree bit for bit."""

import numba
import numpy as np
import pytest
from scipy import stats

from snakesim.core import rng
from snakesim.core.jit import target_has
from snakesim.core.rng import GOLDEN, MASK64, Stream


@numba.njit
def _numba_draws(seed, game, bounds):
    state = np.empty(4, np.uint64)
    rng.seed_stream(state, seed, game)
    raw = np.empty(4, np.uint64)
    for k in range(4):
        raw[k] = rng.next_u64(state)
    out = np.empty(bounds.shape[0], np.int64)
    for k in range(bounds.shape[0]):
        out[k] = rng.below(state, bounds[k])
    return raw, out


def test_splitmix_known_answer():
    # splitmix64 from state 0: the published first outputs.
    x, out = 0, []
    for _ in range(3):
        x = (x + GOLDEN) & MASK64
        out.append(rng._py_mix(x))
    assert out == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_xoshiro_known_answer():
    # xoshiro256** from state (1, 2, 3, 4): the reference implementation's first outputs.
    s = Stream(0, 0)
    s.state = [1, 2, 3, 4]
    assert [s.next_u64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


@pytest.mark.parametrize("seed,game", [(0, 0), (1, 42), (2**63 - 1, 10**12), (123456789, 7)])
def test_numba_and_python_streams_agree(seed, game):
    # Bounds near 2**32 make Lemire's rejection loop run often.
    bounds = np.array([1, 2, 3, 6, 52, 1000, 2**31 + 1, 2**32 - 1, 2**32, 3 * 2**30] * 20, dtype=np.int64)
    raw, drawn = _numba_draws(seed, game, bounds)
    s = Stream(seed, game)
    assert [int(v) for v in raw] == [s.next_u64() for _ in range(4)]
    assert [int(v) for v in drawn] == [s.below(int(b)) for b in bounds]


def test_games_get_different_streams():
    firsts = {Stream(1, i).next_u64() for i in range(1000)} | {Stream(2, i).next_u64() for i in range(1000)}
    assert len(firsts) == 2000


def test_below_is_uniform():
    # 60,000 draws of a die: a chi-square test at a fixed seed; a biased `below` fails it.
    _, drawn = _numba_draws(3, 0, np.full(60_000, 6, dtype=np.int64))
    counts = np.bincount(drawn, minlength=6)
    assert counts.sum() == 60_000 and drawn.min() >= 0 and drawn.max() < 6
    assert stats.chisquare(counts).pvalue > 0.001


def test_below_rejects_bias_for_awkward_bounds():
    # n = 3 * 2**30: plain multiply-shift without rejection would give 0 mod 3 too often.
    n = 3 * 2**30
    _, drawn = _numba_draws(11, 0, np.full(30_000, n, dtype=np.int64))
    counts = np.bincount(drawn % 3, minlength=3)
    assert stats.chisquare(counts).pvalue > 0.001


def test_shuffle_gives_every_permutation_equally_often():
    # 24,000 keyed shuffles of 4 distinct cards: each of the 24 orders about 1,000 times. Keys
    # that were not independent of one another (a weak mix, a key shared by two cards) fail this.
    counts = {}
    for game in range(24_000):
        items = [0, 1, 2, 3]
        Stream(8, game).keyed_shuffle(items)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 24
    assert stats.chisquare(list(counts.values())).pvalue > 0.001


@numba.njit
def _numba_fisher_yates(seed, game, items, start, n):
    state = np.empty(4, np.uint64)
    rng.seed_stream(state, seed, game)
    rng.shuffle(state, items, n, start)
    return items, rng.next_u64(state)


@pytest.mark.parametrize("n", [1, 2, 7, 52, 300])
def test_fisher_yates_shuffle_numba_equals_python(n):
    # The look-ahead policies' re-deals: the same order as Stream.shuffle of the same slice, and
    # the stream left where the Python one is (the state lives in locals during the shuffle).
    got, after = _numba_fisher_yates(5, n, np.arange(n + 3), 2, n)
    stream = Stream(5, n)
    part = list(range(2, 2 + n))
    stream.shuffle(part)
    assert got.tolist() == [0, 1, *part, n + 2] and after == stream.next_u64()


# ---------------------------------------------------------------- coupled (keyed) shuffles
@numba.njit
def _numba_keyed(seed, game, number, items):
    sizes = rng.keyed_scratch(items.shape[0], 64)
    copies = np.zeros(sizes[0], np.int64)
    keys = np.empty(sizes[1], np.uint64)
    rng.keyed_shuffle(rng.deal_key(seed, game), number, items, items.shape[0], 64, copies, keys)
    return items


def _deck(counts):
    return [card for card, count in enumerate(counts) for _ in range(count)]


# 300 cards: over rng.RANK_LIMIT, so ordered by the counting sort rather than by ranks.
@pytest.mark.parametrize("counts", [[5] * 10 + [2], [60, 48, 8, 4], [1], [0, 2], [3] * 40, [100, 120, 80]], ids=len)
@pytest.mark.parametrize("seed,game,number", [(1, 0, 0), (7, 123, 0), (7, 123, 3), (2**62, 10**9, 1)])
def test_keyed_shuffle_numba_equals_python(seed, game, number, counts):
    deck = _deck(counts)
    stream = Stream(seed, game)
    stream.shuffles = number
    expected = list(deck)
    stream.keyed_shuffle(expected)
    got = _numba_keyed(seed, game, number, np.array(deck, np.int8))
    assert got.tolist() == expected and sorted(expected) == deck and stream.shuffles == number + 1
    assert stream.draws == 0  # the deal draws nothing from the decision stream


def _top16_tie(seed, game, number, deck):
    """Whether two cards' keys share their top 16 bits (what `rng._placed_by_top16` orders by)."""
    stream, tops, seen = Stream(seed, game), set(), {}
    for card in deck:
        tops.add(rng.py_card_key(stream.deal_key, number, card, seen.get(card, 0)) >> 48)
        seen[card] = seen.get(card, 0) + 1
    return len(tops) < len(deck)


# Piles of at most rng.SMALL_LIMIT cards are ranked on their keys' top 16 bits, and in full
# when two share them: deals chosen to take each way, for 52 cards and for the limit's 64.
@pytest.mark.parametrize(
    "counts,game,number,tie",
    [([5] * 10 + [2], 22, 0, True), ([5] * 10 + [2], 8, 1, True), ([5] * 10 + [2], 1, 0, False),
     ([16] * 4, 0, 0, True), ([16] * 4, 1, 0, False), ([21] * 3, 2, 0, None)],
)  # fmt: skip
def test_small_piles_are_ordered_alike_with_and_without_a_tie_in_the_top_bits(counts, game, number, tie):
    deck = _deck(counts)
    if tie is not None:  # (the cases are what they say)
        assert _top16_tie(9, game, number, deck) == tie
    expected, stream = list(deck), Stream(9, game)
    stream.shuffles = number
    stream.keyed_shuffle(expected)
    assert _numba_keyed(9, game, number, np.array(deck, np.int8)).tolist() == expected
    order = np.random.default_rng(game).permutation(len(deck))
    dealt, shuffled = _numba_deal(9, game, number, np.array(deck, np.int8), order)
    assert dealt.tolist() == shuffled.tolist() == expected


def test_removing_a_card_keeps_the_others_in_order():
    # The point of keyed shuffles: the 51-card deck (one SNAKE) is the 52-card deal without
    # its second SNAKE, in every game and every reshuffle.
    full, short = _deck([5] * 10 + [2]), _deck([5] * 10 + [1])
    for game in range(200):
        for number in (0, 1, 5):
            a, b = Stream(3, game), Stream(3, game)
            a.shuffles = b.shuffles = number
            x, y = list(full), list(short)
            a.keyed_shuffle(x)
            b.keyed_shuffle(y)
            snakes = [k for k, card in enumerate(x) if card == 10]  # one of them is the copy removed
            assert any(x[:gone] + x[gone + 1 :] == y for gone in snakes)
    # And a different hand of the same cards in another order is dealt alike.
    a, b = Stream(3, 9), Stream(3, 9)
    x, y = list(full), list(reversed(full))
    a.keyed_shuffle(x)
    b.keyed_shuffle(y)
    assert x == y


def test_keyed_shuffle_is_uniform():
    # Where card 0 (one copy among 6 distinct cards) lands over 6,000 games: uniform positions.
    deck = np.arange(6, dtype=np.int8)
    positions = np.zeros(6, np.int64)
    for game in range(6000):
        positions[np.flatnonzero(_numba_keyed(11, game, 0, deck.copy()) == 0)[0]] += 1
    assert stats.chisquare(positions).pvalue > 1e-3
    # Consecutive shuffles of one game are not the same order.
    orders = {tuple(_numba_keyed(11, 5, number, deck.copy())) for number in range(20)}
    assert len(orders) == 20


def _numba_deal(seed, game, number, deck, order):
    identities = np.empty(deck.shape[0], np.uint64)
    rng.deck_identities(deck, identities)
    return _numba_deal_with(seed, game, number, deck, order, identities)


@numba.njit
def _numba_deal_with(seed, game, number, deck, order, identities):
    n = deck.shape[0]
    sizes = rng.keyed_scratch(n, 64)
    copies, keys = np.zeros(sizes[0], np.int64), np.empty(sizes[1], np.uint64)
    dealt = np.empty(n, np.int8)
    rng.keyed_deal(rng.deal_key(seed, game), number, deck, identities, dealt, 64, copies, keys)
    shuffled = deck[order].copy()  # the same cards in another order, shuffled by occurrence
    rng.keyed_shuffle(rng.deal_key(seed, game), number, shuffled, n, 64, copies, keys)
    return dealt, shuffled


@pytest.mark.parametrize("counts", [[5] * 10 + [2], [60, 48, 8, 4], [1], [3] * 40, [100, 120, 80]], ids=len)
def test_a_keyed_deal_is_the_keyed_shuffle_of_the_whole_deck(counts):
    # The fast path for deals and Fortune's reshuffles: keys from the deck's identities, no
    # counting, and the same order as shuffling any arrangement of the same cards.
    deck = np.array(_deck(counts), np.int8)
    order = np.random.default_rng(len(counts)).permutation(deck.size)
    for game, number in ((0, 0), (5, 3)):
        dealt, shuffled = _numba_deal(9, game, number, deck, order)
        stream = Stream(9, game)
        stream.shuffles = number
        expected = list(deck)
        stream.keyed_shuffle(expected)
        assert dealt.tolist() == shuffled.tolist() == expected


@pytest.mark.parametrize("counts", [[5] * 10 + [2], [3] * 40, [100, 120, 80]], ids=len)
def test_deals_with_the_deal_scratch_are_the_keyed_shuffle(counts):
    # deal_scratch leaves out the sort's scratch for a deck that fits the ranks (None), and
    # numba then drops the sort: were it typed, the None would not compile. 300 cards: sorted.
    deck = np.array(_deck(counts), np.int8)
    copies, keys = rng.deal_scratch(deck.size, 64)
    assert (copies is None) == (deck.size <= rng.RANK_LIMIT)
    identities = np.empty(deck.size, np.uint64)
    rng.deck_identities(deck, identities)
    for deal in (rng.keyed_deal, rng.full_keyed_deal):
        for game, number in ((0, 0), (5, 3)):
            dealt = np.empty(deck.size, np.int8)
            deal(np.uint64(rng.deal_key(9, game)), number, deck, identities, dealt, 64, copies, keys)
            stream = Stream(9, game)
            stream.shuffles = number
            expected = list(deck)
            stream.keyed_shuffle(expected)
            assert dealt.tolist() == expected


@numba.njit
def _top_bits(base, identities, split):
    top = np.zeros(identities.shape[0], np.uint16)
    if split:
        rng._top16_keys_split(base, identities, top, identities.shape[0])
    else:
        rng._top16_keys(base, identities, top, identities.shape[0])
    return top


@pytest.mark.parametrize("n", [0, 1, 7, 8, 10, 11, 12, 19, 22, 30, 52, 63, 64])
def test_both_ways_of_making_a_deals_top_key_bits_give_the_card_keys_top_bits(n):
    # The deal picks one way by the processor (rng._SPLIT_KEYS); both run here, on any machine,
    # for every split of n into steps of 8 + 3 keys, 8 keys and single keys.
    deck = np.array(_deck([5] * 12 + [4])[:n], np.int8)
    identities = np.empty(n, np.uint64)
    rng.deck_identities(deck, identities)
    stream, seen, expected = Stream(3, n), {}, []
    for card in deck.tolist():
        key = rng.py_card_key(stream.deal_key, 2, card, seen.get(card, 0))
        expected.append((key >> 48) ^ 0x8000)
        seen[card] = seen.get(card, 0) + 1
    base = np.uint64((stream.deal_key + (2 << 40) * GOLDEN) & MASK64)
    for split in (False, True):
        assert _top_bits(base, identities, split).tolist() == expected


@numba.njit
def _placed(top, source, packs):
    items = np.full(64, -1, np.int64)
    if packs:
        filled = rng._place_by_top16_packs(top, source, np.uint64(0), items, np.uint64(source.shape[0]))
    else:
        filled = rng._place_by_top16(top, source, np.uint64(0), items, np.uint64(source.shape[0]))
    return items, filled


@pytest.mark.skipif(not target_has("avx2"), reason="AVX2's own packs need a processor with AVX2")
@pytest.mark.parametrize("n", [1, 2, 15, 16, 17, 33, 52, 64])
def test_both_ways_of_counting_a_rank_agree(n):
    # The deal counts with AVX2's packs where the processor has AVX2 but not AVX-512
    # (rng._RANK_PACKS); both run here, with distinct top bits and with a tie among them.
    generator = np.random.default_rng(n)
    top = np.full(64, 0x7FFF, np.uint16)  # (the free slots, as rng._top16_slots fills them)
    top[:n] = generator.choice(0x7FFF, n, replace=False)
    source = generator.integers(0, 100, n)
    distinct = n * (n - 1) // 2  # the sum of the ranks 0 .. n-1: no two top bits alike
    items, ranks = _placed(top, source, True)
    assert items[:n].tolist() == source[np.argsort(top[:n])].tolist() and int(ranks) == distinct
    for tied in (2, 3):  # a tie of two keys, then of three
        if n >= tied:
            top[n - tied + 1 : n] = top[0]
            (generic, generic_ranks), (packed, packed_ranks) = _placed(top, source, False), _placed(top, source, True)
            assert generic.tolist() == packed.tolist() and generic_ranks == packed_ranks
            assert int(packed_ranks) < distinct  # (the tie shows)


def test_a_decks_identities_number_each_types_cards_in_deck_order():
    deck = np.array([3, 0, 3, 3, 7, 0], np.int8)
    identities = np.empty(6, np.uint64)
    rng.deck_identities(deck, identities)
    copies = [0, 0, 1, 2, 0, 1]
    assert identities.tolist() == [((int(t) << 20 | c) * GOLDEN) & MASK64 for t, c in zip(deck, copies, strict=True)]
