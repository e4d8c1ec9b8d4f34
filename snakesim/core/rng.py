"""The per-game random stream, twice: in numba for the kernels and in plain Python for the
reference engines. Both produce the same numbers bit for bit (``tests/test_rng.py``).

Game ``i`` of seed ``s`` draws from its own xoshiro256** generator whose 256-bit state is
filled by splitmix64 from a key derived from ``(s, i)``. Nothing depends on which thread,
chunk or machine plays the game, so game ``i`` is the same game everywhere.

Bounded integers use Lemire's multiply-and-reject method on the top 32 bits, which is exact
(no modulo bias) and costs one multiplication in the common case.

Shuffles of cards are *coupled* across rule variants: :func:`keyed_shuffle` orders the cards
by a key that depends only on the game's deal key, the shuffle's number (0 for the first deal,
1 for the first reshuffle, ...) and the card's identity (its type and which copy of that type
it is). Removing a card from the deck (one SNAKE instead of two) leaves every other card in the
same relative order; adding one slots it in without moving the others apart. The shuffle draws
nothing from the game's stream, so the decisions a policy draws from it are not shifted by a
deck of another size either. (A Fisher-Yates shuffle, which these replaced, deals a 51-card
deck entirely differently from a 52-card one.)
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, register_jitable

from snakesim.core.jit import njit, target_has

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
# Distinct constants keep the seed's and the game index's contributions apart.
SEED_SALT = 0x5851F42D4C957F2D
GAME_SALT = 0xD1B54A32D192ED03
DEAL_SALT = 0x2545F4914F6CDD1D  # the deal's key is apart from the decision stream
LANE_SALT = 0x9FB21C651E98DF25
MAX_SEED = (1 << 63) - 1
MAX_BOUND = 1 << 32


# ---------------------------------------------------------------- numba version
_U1 = np.uint64(1)
_U32 = np.uint64(32)
_M32 = np.uint64(0xFFFFFFFF)
_GOLDEN = np.uint64(GOLDEN)
_SEED_SALT = np.uint64(SEED_SALT)
_GAME_SALT = np.uint64(GAME_SALT)
_DEAL_SALT = np.uint64(DEAL_SALT)
_LANE_SALT = np.uint64(LANE_SALT)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit
def seed_stream(state, seed, game):
    """Fill ``state`` (uint64[4]) with the stream of game ``game`` of seed ``seed``."""
    _fill(state, _mix(_mix(np.uint64(seed) ^ _SEED_SALT) ^ _mix(np.uint64(game) ^ _GAME_SALT)))


@njit
def seed_lane(state, seed, game, lane):
    """Fill ``state`` with lane ``lane >= 1`` of game ``game``: a stream of its own beside the
    game's main one (Sssnake's die rolls), so that draws on one never shift the other."""
    x = _mix(_mix(np.uint64(seed) ^ _SEED_SALT) ^ _mix(np.uint64(game) ^ _GAME_SALT))
    _fill(state, x ^ _mix(np.uint64(lane) ^ _LANE_SALT))


@njit
def _fill(state, x):
    """The xoshiro256** state splitmix64 makes from ``x``."""
    for k in range(4):
        x += _GOLDEN
        state[k] = _mix(x)


@njit(inline="always")  # (inlined by numba, not forceinline=True: see jit.JIT_OPTIONS)
def _step(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four locals: the output and the new state."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit
def next_u64(state):
    """Advance the xoshiro256** ``state`` in place and return the next 64-bit output."""
    result, state[0], state[1], state[2], state[3] = _step(state[0], state[1], state[2], state[3])
    return result


@njit
def below(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n <= 2**32`` (Lemire's method)."""
    bound = np.uint64(n)
    m = (next_u64(state) >> _U32) * bound
    low = m & _M32
    if low < bound:
        threshold = ((_M32 + _U1) - bound) % bound
        while low < threshold:
            m = (next_u64(state) >> _U32) * bound
            low = m & _M32
    return np.int64(m >> _U32)


@njit
def shuffle(state, items, n, start=0):
    """Shuffle ``items[start:start + n]`` in place (Fisher-Yates, drawing from ``state``): for
    the look-ahead policies' private re-deals, which need no coupling across decks.

    The draws are :func:`below`'s, with the generator's state kept in locals for the whole
    shuffle rather than loaded and stored at every draw.
    """
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(n - 1, 0, -1):
        bound = np.uint64(i + 1)
        x, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        m = (x >> _U32) * bound
        low = m & _M32
        if low < bound:
            threshold = ((_M32 + _U1) - bound) % bound
            while low < threshold:
                x, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
                m = (x >> _U32) * bound
                low = m & _M32
        j = np.int64(m >> _U32)
        item = items[start + i]
        items[start + i] = items[start + j]
        items[start + j] = item
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@njit
def deal_key(seed, game):
    """The key of game ``game``'s deals (every keyed shuffle of the game derives from it)."""
    return _mix(_mix(np.uint64(seed) ^ _DEAL_SALT) ^ _mix(np.uint64(game) ^ _GAME_SALT) ^ _DEAL_SALT)


RANK_LIMIT = 256  # piles up to this size are ordered by ranks (`_rank_by_keys`), larger by buckets
SMALL_LIMIT = 64  # piles up to this size are first ranked on their keys' top 16 bits (`_placed_by_top16`)
_TOP16 = np.uint64(48)
# A key's top 16 bits are kept with the sign bit flipped, so that signed 16-bit order is the
# keys' order: AVX2 compares 16-bit lanes only as signed (unsigned took three instructions for
# one; the deals of benchmarks/bench_fortune.py got 9% faster with AVX2 code, the same with AVX-512).
_SIGN16 = np.uint16(0x8000)


@register_jitable
def _rank_bits(n):
    """log2 of the buckets `_rank_by_keys` spreads ``n`` keys over: at least 32 per key, so
    that about n/64 keys share a bucket with another."""
    bits = 6
    while (1 << bits) < 32 * n:
        bits += 1
    return bits


@register_jitable
def keyed_scratch(n_cards, n_types):
    """Lengths of the ``copies`` (int64) and ``keys`` (uint64) scratch arrays that
    :func:`keyed_shuffle` and :func:`keyed_deal` need for up to ``n_cards`` cards of
    ``n_types`` types. (Plain Python when Python calls it, as the kernels' fronts do: nothing
    to compile before a first run.)"""
    copies = n_types + max(_buckets(n_cards) + 1 + n_cards, n_cards)
    keys = 2 * n_cards
    if n_cards <= RANK_LIMIT:
        words = (1 << _rank_bits(n_cards)) >> 6
        keys = max(keys, 2 * n_cards + 2 * words + (1 << _rank_bits(n_cards)))
    if n_cards <= SMALL_LIMIT:
        keys = max(keys, n_cards + 16)  # (room for 64 top bits, `_placed_by_top16`)
    return copies, keys


def deal_scratch(n_cards: int, n_types: int) -> tuple[np.ndarray | None, np.ndarray]:
    """The ``copies`` and ``keys`` scratch of :func:`keyed_deal` for a deck of ``n_cards``
    cards of ``n_types`` types, in numpy; ``copies`` is None when the deck fits the ranks
    (at most `RANK_LIMIT` cards), so that the sort of larger piles is not compiled into the
    kernel (a third of a second of a first command). :func:`keyed_shuffle` needs ``copies``
    always: use :func:`keyed_scratch`'s lengths."""
    copies, keys = keyed_scratch(n_cards, n_types)
    return (None if n_cards <= RANK_LIMIT else np.empty(copies, np.int64)), np.empty(keys, np.uint64)


@register_jitable
def _buckets(n):
    size = 2
    while size < 4 * n:
        size *= 2
    return size


@njit
def _shuffle_base(key, shuffle_number):
    """The part of every card key of shuffle ``shuffle_number`` that no card changes
    (`py_card_key`'s, taken out of the loops over cards): one formula for every way of dealing."""
    return key + (np.uint64(shuffle_number) << np.uint64(40)) * _GOLDEN


@njit
def keyed_shuffle(key, shuffle_number, items, n, n_types, copies, keys):
    """Order ``items[:n]`` (card types, ``0 <= type < n_types``) by their card keys.

    The k-th occurrence of a type in ``items[:n]`` is copy k of it; since copies of a type
    are alike, which one gets which key does not matter, so the order depends only on the
    cards present. ``copies`` and ``keys`` are scratch of the lengths :func:`keyed_scratch`
    gives. Keys are distinct (splitmix's output is a bijection of distinct inputs), so the
    order is the one the Python version's ``sorted`` gives.
    """
    for k in range(np.uint64(n)):
        copies[np.uint64(items[k])] = 0
    base = _shuffle_base(key, shuffle_number)
    for k in range(np.uint64(n)):
        card = np.uint64(items[k])
        copy = copies[card]
        copies[card] = copy + 1
        keys[k] = _mix(base + ((card << np.uint64(20)) | np.uint64(copy)) * _GOLDEN)
    if n <= RANK_LIMIT:
        for k in range(np.uint64(n)):  # ranks write into items: read the cards from a copy
            copies[np.uint64(n_types) + k] = items[k]
        if 0 < n <= SMALL_LIMIT:
            top = keys[np.uint64(n) : np.uint64(n) + np.uint64(16)].view(np.uint16)
            _top16_slots(top)
            for k in range(np.uint64(n)):
                top[k] = np.uint16(keys[k] >> _TOP16) ^ _SIGN16
            if _placed_by_top16(top, copies, n_types, items, n):
                return
        _rank_by_keys(copies, n_types, items, n, keys)
    else:
        _sort_by_keys(items, n, n_types, copies, keys)


def deck_identities(deck, identities) -> None:
    """``identities[k]``: the identity word ``(type << 20) | copy`` of card ``k`` of ``deck``
    (copy = its occurrence among the cards of its type) times ``_GOLDEN``: the part of the
    card's key that no deal changes, so :func:`keyed_deal` does not multiply it again (a 64-bit
    multiply of four lanes takes five instructions with AVX2). In numpy, for the kernels'
    fronts (nothing to compile before a first run)."""
    deck = np.asarray(deck, np.int64)
    order = np.argsort(deck, kind="stable")  # each type's cards together, in deck order
    ordered = deck[order]
    first = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])  # where each type's run starts
    copy = np.empty(deck.size, np.int64)
    copy[order] = np.arange(deck.size) - np.repeat(first, np.diff(np.r_[first, deck.size]))
    identities[:] = ((deck.astype(np.uint64) << np.uint64(20)) | copy.astype(np.uint64)) * _GOLDEN


@njit(inline="always")  # (inlined by numba, not forceinline=True: see jit.JIT_OPTIONS)
def inline_keyed_deal(key, shuffle_number, deck, identities, items, n_types, copies, keys):
    """:func:`keyed_deal` compiled into its caller, but for the rare deal whose keys' top bits
    tie (`_keyed_deal_full`): for a kernel that deals many times a game (Fortune reshuffles).

    A call would pass each of its five arrays as seven words on the stack; inlined, Fortune's
    kernel measured 5% faster with AVX2 code and 8% with AVX-512 (``benchmarks/bench_fortune.py``).
    """
    base = _shuffle_base(key, shuffle_number)
    n = deck.shape[0]
    if not (0 < n <= SMALL_LIMIT and _dealt_by_top16(base, deck, identities, items, keys)):
        _keyed_deal_full(base, deck, identities, items, n_types, copies=copies, keys=keys)


@njit
def keyed_deal(key, shuffle_number, deck, identities, items, n_types, copies, keys):
    """:func:`keyed_shuffle` of a whole deck: ``items`` becomes ``deck`` (all of it) in key order.

    Equal to ``keyed_shuffle`` of any ordering of the same cards (the keys depend only on the
    cards present), but the keys come from the deck's precomputed :func:`deck_identities`, so
    their loop has no copy counting and vectorises: a game's deal (and Fortune's reshuffles off its
    fast path; on it, :func:`inline_keyed_deal`).
    """
    inline_keyed_deal(key, shuffle_number, deck, identities, items, n_types=n_types, copies=copies, keys=keys)


@njit
def full_keyed_deal(key, shuffle_number, deck, identities, items, n_types, copies, keys):
    """:func:`keyed_deal` on the full keys alone, without its vector code for small piles:
    the same deal, a third of a second less to compile, for a kernel that deals once a game
    and plays far longer (Sssnake)."""
    base = _shuffle_base(key, shuffle_number)
    _keyed_deal_full(base, deck, identities, items, n_types, copies=copies, keys=keys)


@njit(inline="always")  # (inlined by numba, not forceinline=True: see jit.JIT_OPTIONS)
def _dealt_by_top16(base, deck, identities, items, keys):
    """A deal of ``0 < n <= SMALL_LIMIT`` cards on its keys' top bits alone (`_placed_by_top16`);
    False when two of them tie, and the full keys must order it."""
    n = deck.shape[0]
    top = keys[n : n + 16].view(np.uint16)
    _top16_slots(top)
    if _SPLIT_KEYS:
        _top16_keys_split(base, identities, top, n)
    else:
        _top16_keys(base, identities, top, n)
    return _placed_by_top16(top, deck, 0, items, n)


@njit
def _keyed_deal_full(base, deck, identities, items, n_types, copies, keys):
    """A keyed deal on the full keys: a pile too large for `_dealt_by_top16`, or a tie there.
    ``copies`` is None for a deck that fits the ranks (`deal_scratch`): numba then drops the
    sort of larger piles before typing it, and a kernel does not compile it."""
    n = deck.shape[0]
    for k in range(n):
        keys[k] = _mix(base + identities[k])
    if copies is not None and n > RANK_LIMIT:
        for k in range(n):
            items[k] = deck[k]
        _sort_by_keys(items, n, n_types, copies, keys)
    else:
        _rank_by_keys(deck, 0, items, n, keys)


# Without a one-instruction multiply of 64-bit vector lanes (AVX2 and older), a deal's keys
# are made 8 in vector lanes beside 3 in scalar registers at a time: the two kinds of multiply
# run side by side (Fortune's kernel with AVX2 code: 3% less time a card; the keys alone 23%).
# With AVX-512 the compiler's own vector loop is 2.5 times faster than that.
_SPLIT_KEYS = not target_has("avx512dq")
_SPLIT_VECTOR, _SPLIT_SCALAR = 8, 3


def _top16_ir(builder, x):
    """LLVM IR: the top 16 bits of ``_mix(x)`` (an i64 or a vector of them) as i16, the sign
    bit flipped (`_SIGN16`). (``_mix``'s last step, ``z ^ z >> 31``, leaves them as they are.)"""

    def const(value, ty=x.type):
        return ir.Constant(ty, [value] * ty.count) if isinstance(ty, ir.VectorType) else ir.Constant(ty, value)

    x = builder.mul(builder.xor(x, builder.lshr(x, const(30))), const(int(_MIX1)))
    x = builder.mul(builder.xor(x, builder.lshr(x, const(27))), const(int(_MIX2)))
    i16 = ir.IntType(16)
    short = ir.VectorType(i16, x.type.count) if isinstance(x.type, ir.VectorType) else i16
    return builder.xor(builder.trunc(builder.lshr(x, const(48)), short), const(0x8000, short))


def _top16_keys_ir(split):
    """The code of `_top16_keys` (``split`` False) or `_top16_keys_split`."""

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        base, identities_type, top_type = args[0], signature.args[1], signature.args[2]
        identities = context.make_array(identities_type)(context, builder, args[1]).data
        top = context.make_array(top_type)(context, builder, args[2]).data
        n = context.cast(builder, args[3], signature.args[3], types.uint64)
        done = cgutils.alloca_once_value(builder, ir.Constant(i64, 0))  # keys made so far

        def scalar(k):
            key = builder.add(builder.load(builder.gep(identities, [k])), base)
            builder.store(_top16_ir(builder, key), builder.gep(top, [k]))

        def vector(k):
            lanes = ir.VectorType(i64, _SPLIT_VECTOR)
            ids = builder.load(builder.bitcast(builder.gep(identities, [k]), lanes.as_pointer()), align=8)
            keys = _top16_ir(builder, builder.add(ids, _splat(builder, base, lanes)))
            builder.store(keys, builder.bitcast(builder.gep(top, [k]), keys.type.as_pointer()), align=2)

        if split:
            step = ir.Constant(i64, _SPLIT_VECTOR + _SPLIT_SCALAR)
            with cgutils.for_range(builder, builder.udiv(n, step)) as loop:
                k = builder.mul(loop.index, step)
                vector(k)
                for lane in range(_SPLIT_SCALAR):
                    scalar(builder.add(k, ir.Constant(i64, _SPLIT_VECTOR + lane)))
            builder.store(builder.mul(builder.udiv(n, step), step), done)
            width = ir.Constant(i64, _SPLIT_VECTOR)
            with builder.if_then(builder.icmp_unsigned("<=", builder.add(builder.load(done), width), n)):
                vector(builder.load(done))
                builder.store(builder.add(builder.load(done), width), done)
        with cgutils.for_range_slice(builder, builder.load(done), n, ir.Constant(i64, 1)) as (k, _):
            scalar(k)  # (with ``split`` False, the compiler makes vector code of this loop)
        return context.get_dummy_value()

    return codegen


@intrinsic
def _top16_keys(typingctx, base, identities, top, n):
    """``top[k]`` for ``k < n``: the top 16 bits of card ``k``'s key, ``_mix(base +
    identities[k])``, the sign bit flipped (`_SIGN16`); a loop the compiler makes vector code
    of. (Written as IR beside `_top16_keys_split`, which makes the same values.)"""
    return types.none(base, identities, top, n), _top16_keys_ir(False)


@intrinsic
def _top16_keys_split(typingctx, base, identities, top, n):
    """`_top16_keys`, 8 keys in vector lanes beside 3 in scalar registers at a time (`_SPLIT_KEYS`)."""
    return types.none(base, identities, top, n), _top16_keys_ir(True)


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of a uint64 (one instruction where the CPU has it)."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


def _splat(builder, value, vector_type):
    """LLVM IR: a vector of ``vector_type`` with ``value`` in every lane."""
    undefined = ir.Constant(vector_type, ir.Undefined)
    value = builder.insert_element(undefined, value, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(value, undefined, ir.Constant(ir.VectorType(ir.IntType(32), vector_type.count), None))


# With AVX2 but not AVX-512, a key's rank is counted from its compares packed to bytes by the
# processor's own instructions: the compiler's code for a 64-bit mask first puts the bytes in
# order (two lane-crossing shuffles a card), which a count does not need (Fortune's kernel
# with AVX2 code: 2.5% less time a card). With AVX-512 the compares give the mask directly.
_RANK_PACKS = target_has("avx2") and not target_has("avx512bw")


def _count_below(builder, values, value, packs):
    """LLVM IR: how many of the 64 signed 16-bit lanes of ``values`` are below ``value`` (a
    vector of it), with the AVX2 packs if ``packs``."""
    i64 = ir.IntType(64)
    popcount = builder.module.declare_intrinsic("llvm.ctpop", [i64])
    below = builder.icmp_signed("<", values, value)
    if not packs:
        return builder.call(popcount, [builder.bitcast(below, i64)])
    half, pair, i32 = ir.VectorType(ir.IntType(16), 16), ir.VectorType(ir.IntType(8), 32), ir.IntType(32)
    pack = cgutils.get_or_insert_function(builder.module, ir.FunctionType(pair, [half, half]), "llvm.x86.avx2.packsswb")
    mask = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i32, [pair]), "llvm.x86.avx2.pmovmskb")
    below = builder.sext(below, values.type)  # (-1 in a lane below, 0 else)
    quarter = [ir.Constant(ir.VectorType(i32, 16), list(range(q, q + 16))) for q in range(0, 64, 16)]
    quarters = [builder.shuffle_vector(below, below, lanes) for lanes in quarter]
    low, high = (builder.zext(builder.call(mask, [builder.call(pack, quarters[q : q + 2])]), i64) for q in (0, 2))
    return builder.call(popcount, [builder.or_(low, builder.shl(high, ir.Constant(i64, 32)))])


def _place_ir(packs):
    """The code of `_place_by_top16` (``packs`` False) or `_place_by_top16_packs`."""

    def codegen(context, builder, signature, args):
        i16, i64 = ir.IntType(16), ir.IntType(64)
        lanes = ir.VectorType(i16, 64)
        top_type, source_type, at_type, items_type, n_type = signature.args
        top_data = context.make_array(top_type)(context, builder, args[0]).data
        source_data = context.make_array(source_type)(context, builder, args[1]).data
        items_data = context.make_array(items_type)(context, builder, args[3]).data
        at = context.cast(builder, args[2], at_type, types.uint64)
        n = context.cast(builder, args[4], n_type, types.uint64)
        values = builder.load(builder.bitcast(top_data, lanes.as_pointer()), align=2)
        ranks = cgutils.alloca_once_value(builder, ir.Constant(i64, 0))
        with cgutils.for_range(builder, n) as loop:
            value = _splat(builder, builder.load(builder.gep(top_data, [loop.index]), align=2), lanes)
            rank = _count_below(builder, values, value, packs)
            card = builder.load(builder.gep(source_data, [builder.add(at, loop.index)]))
            card = context.cast(builder, card, source_type.dtype, items_type.dtype)
            builder.store(card, builder.gep(items_data, [rank]))
            builder.store(builder.add(builder.load(ranks), rank), ranks)
        return builder.load(ranks)

    return codegen


@intrinsic
def _place_by_top16(typingctx, top, source, at, items, n):
    """``items[r] = source[at + k]`` for ``k < n``, where ``r`` counts the values of
    ``top[:64]`` (16 bits compared as signed, ``_SIGN16``; `_top16_slots`) below ``top[k]``;
    returns the sum of the ranks ``r``, which is ``n * (n - 1) / 2`` exactly when no two of
    ``top[:n]`` are equal (else ``items`` holds some cards twice and must be written again).
    (Keys tied in groups of sizes ``m`` rank at the count of keys below their group, and the
    ranks then sum to ``(n**2 - sum(m**2)) / 2``, less. A sum is one addition a card; the bits
    ``1 << r`` ORed together, the check before, made the deals of benchmarks/bench_fortune.py
    3-5% slower with AVX2 code.)

    A count is one 64-lane compare of all the values against ``top[k]`` and a popcount of its
    bit mask. (Vector IR, because the loop the compiler makes of the plain Python reduces
    every k's lanes by shuffles, and a loop over the values with the counts kept in vectors
    spills them.) Where the CPU's vectors are narrower, the compiler splits the lanes.
    """
    return types.uint64(top, source, at, items, n), _place_ir(False)


@intrinsic
def _place_by_top16_packs(typingctx, top, source, at, items, n):
    """`_place_by_top16` with AVX2's own packs (`_RANK_PACKS`); only for processors with AVX2."""
    return types.uint64(top, source, at, items, n), _place_ir(True)


@njit(inline="always")  # (inlined by numba, not forceinline=True: see jit.JIT_OPTIONS)
def _top16_slots(top):
    """Fill the 64 uint16 slots ``top`` (``keys[n : n + 16]`` viewed so) with the largest value
    as signed (``_SIGN16``), which is below no key, before the top 16 bits of ``n <= SMALL_LIMIT``
    keys go in."""
    for k in range(SMALL_LIMIT):
        top[k] = 0x7FFF


@njit(inline="always")  # (inlined by numba, not forceinline=True: see jit.JIT_OPTIONS)
def _placed_by_top16(top, source, at, items, n):
    """`_rank_by_keys` for ``0 < n <= SMALL_LIMIT`` keys, on their top 16 bits ``top[:n]``
    (`_top16_slots`); returns False when two keys share those bits (one 52-card pile in 50),
    and the caller ranks the full keys (writing every card of ``items`` again).

    A key's rank is the number of keys below it, counted for every key at once by vector
    compares (`_place_by_top16`), with no branch: the full keys' bucket ranking branches and
    chases indices. Distinct top bits order the keys as the full keys do, and the ranks are
    ``0 .. n-1``, summing to ``n * (n - 1) / 2``, exactly when the top bits are distinct, which
    is the check. Only the top bits are needed, so a deal computes the full keys only after a tie.
    """
    if _RANK_PACKS:
        ranks = _place_by_top16_packs(top, source, np.uint64(at), items, np.uint64(n))
    else:
        ranks = _place_by_top16(top, source, np.uint64(at), items, np.uint64(n))
    return ranks == np.uint64(n) * np.uint64(n - 1) // np.uint64(2)


@njit
def _rank_by_keys(source, at, items, n, keys):
    """``items[r] = source[at + k]`` where ``r`` is the rank of ``keys[k]`` among ``keys[:n]``
    (distinct): the sorted order, for piles of at most `RANK_LIMIT` cards.

    Each key marks its bucket (its top bits; 32 or more buckets per key) in a bitmap; a key's
    rank is the number of marked buckets below its own (prefix popcounts), plus one if its
    bucket's first key is smaller, plus the number of smaller keys among the few that found
    their bucket taken. No branch depends on how the keys compare, which is what made the
    counting sort's insertion pass slow (benchmarks/bench_fortune.py). ``keys[n:]`` is scratch:
    taken keys, bitmap words, their prefix counts, each bucket's first key.
    """
    one = np.uint64(1)
    un = np.uint64(n)
    bits = np.uint64(_rank_bits(n))
    shift = np.uint64(64) - bits
    low = np.uint64(63)
    words = (one << bits) >> np.uint64(6)
    taken = un  # keys[n : n + n_taken]: keys whose bucket was taken
    marks = un + un  # keys[marks : marks + words]: the bitmap
    below = marks + words  # keys[below : below + words]: marked buckets in the words before
    first = below + words  # keys[first + bucket]: the first key to mark the bucket
    for w in range(words):
        keys[marks + w] = 0
    n_taken = np.uint64(0)
    for k in range(un):
        key = keys[k]
        b = key >> shift
        w = marks + (b >> np.uint64(6))
        bit = one << (b & low)
        if keys[w] & bit:  # rare: n/64 keys per pile
            keys[taken + n_taken] = key
            n_taken += one
        else:
            keys[w] |= bit
            keys[first + b] = key
    total = np.uint64(0)
    for w in range(words):
        keys[below + w] = total
        total += popcount(keys[marks + w])
    for k in range(un):
        key = keys[k]
        b = key >> shift
        w = b >> np.uint64(6)
        rank = keys[below + w] + popcount(keys[marks + w] & ((one << (b & low)) - one))
        rank += np.uint64(keys[first + b] < key)
        for t in range(n_taken):
            rank += np.uint64(keys[taken + t] < key)
        items[rank] = source[np.uint64(at) + k]


@njit
def _sort_by_keys(items, n, n_types, copies, keys):
    """Sort ``items[:n]`` by ``keys[:n]`` (distinct): a counting sort on the keys' top bits into
    at least 4n buckets (few collide), then an insertion sort that has only the few cards sharing a bucket
    left to order. ``copies[n_types:]`` and ``keys[n:2n]`` are scratch. Indices are unsigned,
    which spares numba's negative-index checks (a third of the time)."""
    one = np.uint64(1)
    nb = np.uint64(2)
    bits = 1
    while nb < 4 * n:
        nb *= np.uint64(2)
        bits += 1
    shift = np.uint64(64 - bits)
    un = np.uint64(n)
    start = np.uint64(n_types)  # copies = [copies per type | bucket starts | cards in bucket order]
    moved = start + nb + one
    for b in range(nb + one):
        copies[start + b] = 0
    for k in range(un):
        copies[start + one + (keys[k] >> shift)] += 1
    for b in range(nb):
        copies[start + b + one] += copies[start + b]
    for k in range(un):  # stable scatter into bucket order
        b = start + (keys[k] >> shift)
        j = np.uint64(copies[b])
        copies[b] = j + one
        keys[un + j] = keys[k]
        copies[moved + j] = items[k]
    for k in range(un):  # insertion sort of the nearly sorted cards, back into items
        value = keys[un + k]
        item = copies[moved + k]
        j = k
        while j > 0 and keys[j - one] > value:
            keys[j] = keys[j - one]
            items[j] = items[j - one]
            j -= one
        keys[j] = value
        items[j] = item


# ---------------------------------------------------------------- Python version
def _py_mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def _py_rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK64


def py_deal_key(seed: int, game: int) -> int:
    """:func:`deal_key` in plain Python."""
    return _py_mix(_py_mix(seed ^ DEAL_SALT) ^ _py_mix(game ^ GAME_SALT) ^ DEAL_SALT)


def py_card_key(key: int, shuffle_number: int, card: int, copy: int) -> int:
    """The sort key of copy ``copy`` of card type ``card`` in shuffle ``shuffle_number``:
    element ``ident`` of the splitmix64 sequence started at the deal key (as
    :func:`keyed_shuffle` computes it)."""
    ident = ((int(shuffle_number) << 40) | (int(card) << 20) | int(copy)) & MASK64
    return _py_mix((key + ident * GOLDEN) & MASK64)


class Stream:
    """The random stream of one game, in plain Python.

    Parameters
    ----------
    seed : int
        The run's seed, ``0 <= seed < 2**63``.
    game : int
        The game's index within the run, ``game >= 0``.
    lane : int
        0 for the game's main stream (:func:`seed_stream`); another number for a stream of its
        own beside it (:func:`seed_lane`).

    Examples
    --------
    >>> s = Stream(1, 42)
    >>> 0 <= s.below(6) < 6
    True
    """

    def __init__(self, seed: int, game: int, lane: int = 0):
        x = _py_mix(_py_mix(seed ^ SEED_SALT) ^ _py_mix(game ^ GAME_SALT))
        if lane:  # as seed_lane: a stream of its own beside the main one
            x ^= _py_mix(lane ^ LANE_SALT)
        self.seed, self.game = seed, game
        self.state = []
        for _ in range(4):
            x = (x + GOLDEN) & MASK64
            self.state.append(_py_mix(x))
        self.draws = 0  # 64-bit outputs consumed, for traces and tests
        self.deal_key = py_deal_key(seed, game)
        self.shuffles = 0  # keyed shuffles made: the next one's number

    def next_u64(self) -> int:
        """Return the next 64-bit output."""
        s0, s1, s2, s3 = self.state
        result = (_py_rotl((s1 * 5) & MASK64, 7) * 9) & MASK64
        t = (s1 << 17) & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _py_rotl(s3, 45)
        self.state = [s0, s1, s2, s3]
        self.draws += 1
        return result

    def below(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (Lemire's method, as the kernels do)."""
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place exactly as :func:`shuffle` does."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def keyed_shuffle(self, items: list) -> None:
        """Order ``items`` (card types) by their card keys, exactly as :func:`keyed_shuffle`
        with this stream's deal key and shuffle number; the next shuffle gets the next number.

        Copy k of a type is its k-th occurrence in ``items``; the order of equal keys is kept.
        """
        seen: dict = {}
        keys = []
        for card in items:
            keys.append(py_card_key(self.deal_key, self.shuffles, card, seen.get(card, 0)))
            seen[card] = seen.get(card, 0) + 1
        order = sorted(range(len(items)), key=keys.__getitem__)  # stable, as the insertion sort
        items[:] = [items[k] for k in order]
        self.shuffles += 1
