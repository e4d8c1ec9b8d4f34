"""Hisss in numba: plays many games, each identical to ``reference.play`` for its
(rules, policies, seed, i).

The table is a set of arrays indexed by snake: ``ends[s, 0..1]``, ``lengths[s]``,
``middles[s]``, with ``n_snakes`` in use. Placements are listed into a scratch array in the
order the reference engine lists them (see its docstring), one row each:
``(kind, snake, end, other snake, other end, new end)``.
"""

from __future__ import annotations

import numpy as np

from snakesim.core import feel, feel_lanes, feel_record
from snakesim.core.columns import allocate
from snakesim.core.jit import njit, njit_inner
from snakesim.core.policies import (
    CODE,
    LOOKAHEAD_LANE,
    PLAYOUTS,
    acting,
    add_playout,
    pick_over_greedy,
    policy_table,
    thinks_ahead,
)
from snakesim.core.rng import (
    below,
    deal_key,
    deal_scratch,
    deck_identities,
    keyed_deal,
    seed_lane,
    seed_stream,
    shuffle,
)
from snakesim.core.threads import play_in_blocks
from snakesim.games.hisss.rules import (
    CAP,
    DRAW,
    EXPERT,
    EXTEND,
    GREEDY,
    HEAD,
    JOIN,
    KIND_HEAD,
    KIND_MIDDLE,
    N_TYPES,
    ORACLE,
    RANDOM,
    TAIL,
    TIE_BREAKS,
    WIN,
    HisssRules,
    card_kind,
)

BLOCK = 64  # games per scratch allocation; any value gives the same results
P_PLAYERS, P_CLAIM_JOINED, P_PER_CARD, P_PER_SNAKE, P_PER_LONGEST, P_TIE_BREAK, P_PRESORTED, P_START = range(8)
# P_START + seat: the points that seat starts with


@njit_inner
def _add(pl, k, kind, s1, e1, s2, e2, new_end):
    pl[k, 0] = kind
    pl[k, 1] = s1
    pl[k, 2] = e1
    pl[k, 3] = s2
    pl[k, 4] = e2
    pl[k, 5] = new_end
    return k + 1


@njit_inner
def _placements(kind, a, b, ends, middles, n_snakes, pl, fit, fits):
    """List every legal placement of a card (kind, colours a, b) into ``pl``; return how many.

    ``fits[end, colour]`` is the rules' match table (``HisssRules.fit_table``). For a middle
    section, ``fit[s]`` first records which of snake ``s``'s ends take colour a
    (bits 0, 2) or b (bits 1, 3), so the join loops skip the snakes that fit nowhere.
    """
    k = 0
    if kind == KIND_MIDDLE:
        for s in range(n_snakes):
            fit[s] = 0
            for e in range(2):
                if fits[ends[s, e], a]:
                    fit[s] |= 1 << (2 * e)
                    k = _add(pl, k, EXTEND, s, e, s2=-1, e2=-1, new_end=b)
                if a != b and fits[ends[s, e], b]:
                    k = _add(pl, k, EXTEND, s, e, s2=-1, e2=-1, new_end=a)
                if fits[ends[s, e], b]:
                    fit[s] |= 2 << (2 * e)
        for s1 in range(n_snakes):
            if fit[s1] == 0:
                continue
            for s2 in range(s1 + 1, n_snakes):
                if fit[s2] == 0:
                    continue
                for e1 in range(2):
                    f1 = fit[s1] >> (2 * e1)
                    for e2 in range(2):
                        f2 = fit[s2] >> (2 * e2)
                        if not ((f1 & 1 and f2 & 2) or (f1 & 2 and f2 & 1)):
                            continue
                        outer1 = ends[s1, 1 - e1]
                        if outer1 == ends[s2, 1 - e2] and outer1 >= HEAD:
                            continue  # two heads or two tails
                        k = _add(pl, k, JOIN, s1, e1, s2=s2, e2=e2, new_end=-1)
    else:
        cap = HEAD if kind == KIND_HEAD else TAIL
        for s in range(n_snakes):
            if middles[s] >= 1 and ends[s, 0] != cap and ends[s, 1] != cap:
                for e in range(2):
                    if fits[ends[s, e], a]:
                        k = _add(pl, k, CAP, s, e, s2=-1, e2=-1, new_end=cap)
    return k


@njit_inner
def _score(pl, k, ends, lengths, claim_joined):
    """Greedy's key of placement ``k``: 2 takes a snake, 1 joins, 0 extends; then the size."""
    s = pl[k, 1]
    if pl[k, 0] == JOIN:
        o1 = ends[s, 1 - pl[k, 2]]
        o2 = ends[pl[k, 3], 1 - pl[k, 4]]
        takes = claim_joined or (o1 >= HEAD and o2 >= HEAD and o1 != o2)
        size = lengths[s] + lengths[pl[k, 3]] + 1
        return (2 if takes else 1) * 100_000 + size
    other = ends[s, 1 - pl[k, 2]]
    takes = pl[k, 0] == CAP and other >= HEAD and other != pl[k, 5]
    return (2 if takes else 0) * 100_000 + lengths[s] + 1


@njit_inner
def _remove(ends, lengths, middles, n_snakes, s):
    """Take snake ``s`` off the table: the last snake moves into its place."""
    last = n_snakes - 1
    ends[s, 0] = ends[last, 0]
    ends[s, 1] = ends[last, 1]
    lengths[s] = lengths[last]
    middles[s] = middles[last]
    return last


@njit_inner
def _place(pl, k, ends, lengths, middles, n_snakes):
    """Make placement ``k``; return the table's new snake count."""
    s = pl[k, 1]
    e = pl[k, 2]
    if pl[k, 0] == JOIN:
        s2 = pl[k, 3]
        ends[s, 0] = ends[s, 1 - e]
        ends[s, 1] = ends[s2, 1 - pl[k, 4]]
        lengths[s] += lengths[s2] + 1
        middles[s] += middles[s2] + 1
        return _remove(ends, lengths, middles, n_snakes, s2)
    ends[s, e] = pl[k, 5]
    lengths[s] += 1
    middles[s] += pl[k, 0] == EXTEND
    return n_snakes


@njit_inner
def _rank(params, cards, taken, longest, s):
    """Seat ``s``'s points, and its tie-break value (``HisssRules.rank``)."""
    points = params[P_START + s] + cards[s] * params[P_PER_CARD] + taken[s] * params[P_PER_SNAKE]
    points += longest[s] * params[P_PER_LONGEST]
    tie_break = params[P_TIE_BREAK]
    second = longest[s] if tie_break == 0 else taken[s] if tie_break == 1 else cards[s] if tie_break == 2 else 0
    return points, second


@njit(inline="always")  # the game loop's body: called once per turn
def _turn(state, params, policies, forced, seat, card, first, kinds, col_a, col_b, fits, ends, lengths, middles,
          n_snakes, pl, fit, cards, taken, longest):  # fmt: skip
    """``seat`` places the drawn ``card`` (``reference.HisssGame.step``); ``forced >= 0`` is the
    placement a look-ahead chose; ``first``: the card turned up before play.

    Returns ``(n_snakes, whether a complete snake was taken)``.
    """
    claim_joined = params[P_CLAIM_JOINED]
    kind = kinds[card]
    a = col_a[card]
    b = col_b[card]
    completed = False
    k = 0 if first else _placements(kind, a, b, ends, middles, n_snakes=n_snakes, pl=pl, fit=fit, fits=fits)
    if k == 0:  # the first card, or a card that fits nowhere: a snake of its own
        if kind == KIND_MIDDLE:
            ends[n_snakes, 0] = a
            ends[n_snakes, 1] = b
            middles[n_snakes] = 1
        else:
            ends[n_snakes, 0] = HEAD if kind == KIND_HEAD else TAIL
            ends[n_snakes, 1] = a
            middles[n_snakes] = 0
        lengths[n_snakes] = 1
        return n_snakes + 1, completed
    if forced >= 0:
        choice = forced
    elif acting(state, policies, seat) == RANDOM:
        choice = below(state, k)
    else:
        choice = _greedy(state, pl, k, ends, lengths, claim_joined=claim_joined)
    takes = _score(pl, choice, ends, lengths, claim_joined) >= 200_000
    s = pl[choice, 1]
    n_snakes = _place(pl, choice, ends, lengths, middles, n_snakes=n_snakes)
    if takes:
        completed = ends[s, 0] >= HEAD and ends[s, 1] >= HEAD
        cards[seat] += lengths[s]
        taken[seat] += 1
        longest[seat] = max(longest[seat], lengths[s])
        n_snakes = _remove(ends, lengths, middles, n_snakes, s)
    return n_snakes, completed


@njit(inline="always")
def _greedy(state, pl, k, ends, lengths, claim_joined):
    """Greedy's pick among the ``k`` placements in ``pl``: the best key; ties uniform (one draw)."""
    best = -1
    n_best = 0
    for j in range(k):
        key = _score(pl, j, ends, lengths, claim_joined)
        if key > best:
            best = key
            n_best = 1
        elif key == best:
            n_best += 1
    r = below(state, n_best)
    for j in range(k):
        if _score(pl, j, ends, lengths, claim_joined) == best:
            if r == 0:
                return j
            r -= 1
    return -1  # unreachable: k >= 1


@njit_inner
def _leaders(params, cards, taken, longest, n):
    """The seat with the most points, then the best tie-break, and how many seats tie with it."""
    best_seat = 0
    leaders = 1
    for s in range(1, n):
        points, second = _rank(params, cards, taken, longest, s)
        top, top_second = _rank(params, cards, taken, longest, best_seat)
        if points > top or (points == top and second > top_second):
            best_seat = s
            leaders = 1
        elif points == top and second == top_second:
            leaders += 1
    return best_seat, leaders


@njit_inner
def _expert(state, look, params, policies, seat, i, k, pl, fan, n_cards, kinds, col_a, col_b, fits, ends, lengths,
            middles, n_snakes, cards, taken, longest, think):  # fmt: skip
    """The placement (of ``k`` listed in ``pl`` for card ``fan[i]``) a look-ahead seat makes
    (``reference.HisssGame.look_ahead``).

    It starts from greedy's placement (one draw from the game's stream). Then, flat Monte
    Carlo: K times the rest of the fan (face down, so unseen) is sorted by card type and
    shuffled (the oracle keeps its true order); from that one order every placement is made
    and the game played out by greedy players drawing from ``look``: a win scores 2, a draw
    the seat shares 1. A placement replaces greedy's only if it beats it beyond the noise
    (``beats_greedy``): the one with the largest gain, the first listed on a tie.
    """
    n = params[P_PLAYERS]
    d_fan, p_ends, p_lengths, p_middles, p_pl, p_fit, p_cards, p_taken, p_longest, greedy, got, unseen, gain, \
        squares = think  # fmt: skip
    g = _greedy(state, pl, k, ends, lengths, claim_joined=params[P_CLAIM_JOINED])
    if k == 1:
        return g
    for j in range(k):
        gain[j] = 0
        squares[j] = 0
    rest = n_cards - i - 1
    playouts = policies[seat, PLAYOUTS]
    oracle = policies[seat, CODE] == ORACLE
    for _sample in range(playouts):
        if oracle:  # the true order
            for j in range(rest):
                d_fan[j] = fan[i + 1 + j]
        else:  # the cards left, by type (all the seat knows of them), shuffled
            for t in range(N_TYPES):
                unseen[t] = 0
            for j in range(i + 1, n_cards):
                unseen[fan[j]] += 1
            m = 0
            for t in range(N_TYPES):
                for _ in range(unseen[t]):
                    d_fan[m] = t
                    m += 1
            shuffle(look, d_fan, rest)
        for j in range(k):
            for t in range(n_snakes):
                p_ends[t, 0] = ends[t, 0]
                p_ends[t, 1] = ends[t, 1]
                p_lengths[t] = lengths[t]
                p_middles[t] = middles[t]
            for t in range(n):
                p_cards[t] = cards[t]
                p_taken[t] = taken[t]
                p_longest[t] = longest[t]
            q = _turn(
                look,
                params,
                greedy,
                j,
                seat,
                card=fan[i],
                first=False,
                kinds=kinds,
                col_a=col_a,
                col_b=col_b,
                fits=fits,
                ends=p_ends,
                lengths=p_lengths,
                middles=p_middles,
                n_snakes=n_snakes,
                pl=p_pl,
                fit=p_fit,
                cards=p_cards,
                taken=p_taken,
                longest=p_longest,
            )[0]
            who = seat
            for t in range(rest):
                who = who + 1 if who + 1 < n else 0
                q = _turn(
                    look,
                    params,
                    greedy,
                    -1,
                    who,
                    card=d_fan[t],
                    first=False,
                    kinds=kinds,
                    col_a=col_a,
                    col_b=col_b,
                    fits=fits,
                    ends=p_ends,
                    lengths=p_lengths,
                    middles=p_middles,
                    n_snakes=q,
                    pl=p_pl,
                    fit=p_fit,
                    cards=p_cards,
                    taken=p_taken,
                    longest=p_longest,
                )[0]
            best_seat, leaders = _leaders(params, p_cards, p_taken, p_longest, n)
            if leaders == 1:
                got[j] = 2 * (best_seat == seat)
            else:
                got[j] = _rank(params, p_cards, p_taken, p_longest, seat) == _rank(
                    params, p_cards, p_taken, p_longest, best_seat
                )
        add_playout(got, g, gain, squares, k)
    return pick_over_greedy(gain, squares, g, k, playouts)


@njit
def _play_rows(deck, kinds, col_a, col_b, fits, params, policies, seed, first, scratch, think, packed, steps, out,
               start, stop):  # fmt: skip
    """Play games ``first + start .. first + stop - 1`` into rows ``start .. stop - 1`` of the
    ``out`` columns (one function, so that the game is compiled once, not again in a loop's).

    ``think`` is the look-ahead's scratch (`think_scratch`), or None when no seat thinks
    ahead: the look-ahead is then not even compiled. Likewise ``packed`` and ``steps``, the
    feel figures' record (`feel_lanes.records`: one of them is None), both None when they are
    off."""
    for row in range(start, stop):
        game = first + row
        n = params[P_PLAYERS]
        presorted = params[P_PRESORTED]
        (
            state,
            look,
            copies,
            keys,
            identities,
            fan,
            ends,
            lengths,
            middles,
            pl,
            fit,
            cards,
            taken,
            longest,
            points,
        ) = scratch
        (o_outcome, o_winner, o_length, o_cards, o_snakes, o_longest, o_completed, o_table_cards,
         o_table_snakes) = out[:9]  # fmt: skip
        seed_stream(state, seed, game)
        seed_lane(look, seed, game, LOOKAHEAD_LANE)  # the look-ahead policies' playouts
        n_cards = deck.shape[0]
        if presorted:
            for i in range(n_cards):
                fan[i] = deck[i]
        else:  # coupled across decks: see snakesim.core.rng
            keyed_deal(deal_key(seed, game), 0, deck, identities, fan, n_types=N_TYPES, copies=copies, keys=keys)
        for s in range(n):
            cards[s] = 0
            taken[s] = 0
            longest[s] = 0
        completed = 0
        n_snakes = 0
        turns = 0
        seat = 0
        for i in range(n_cards):
            forced = -1
            if think is not None and i > 0 and policies[seat, CODE] >= EXPERT:
                card = fan[i]
                k = _placements(
                    kinds[card], col_a[card], col_b[card], ends, middles, n_snakes=n_snakes, pl=pl, fit=fit, fits=fits
                )
                if k > 0:
                    forced = _expert(
                        state,
                        look,
                        params,
                        policies,
                        seat,
                        i=i,
                        k=k,
                        pl=pl,
                        fan=fan,
                        n_cards=n_cards,
                        kinds=kinds,
                        col_a=col_a,
                        col_b=col_b,
                        fits=fits,
                        ends=ends,
                        lengths=lengths,
                        middles=middles,
                        n_snakes=n_snakes,
                        cards=cards,
                        taken=taken,
                        longest=longest,
                        think=think,
                    )
            had = taken[seat]  # (snakes the seat had taken: see the feel figures below)
            n_snakes, done = _turn(
                state,
                params,
                policies,
                forced,
                seat,
                card=fan[i],
                first=i == 0,
                kinds=kinds,
                col_a=col_a,
                col_b=col_b,
                fits=fits,
                ends=ends,
                lengths=lengths,
                middles=middles,
                n_snakes=n_snakes,
                pl=pl,
                fit=fit,
                cards=cards,
                taken=taken,
                longest=longest,
            )
            completed += done
            turns += i > 0  # (the first card is turned up before play: step 0)
            if packed is not None or steps is not None:
                if i == 0:
                    for s in range(n):
                        points[s] = _rank(params, cards, taken, longest, s)[0]
                elif taken[seat] != had:  # (only a seat that takes a snake gains points)
                    points[seat] = _rank(params, cards, taken, longest, seat)[0]
                if packed is not None:
                    if i == 0:
                        feel_lanes.store(packed, points, 1, n, turns)
                    else:
                        feel_lanes.store_seat(packed, points[seat], seat, turns)
                if steps is not None:
                    feel_record.store(steps, points, 1, n, turns)
            if i > 0:
                seat = seat + 1 if seat + 1 < n else 0
        # Most points wins; ties go to the tie-break (the longest snake taken, by default); then a draw.
        best_seat, leaders = _leaders(params, cards, taken, longest, n)
        o_outcome[row] = WIN if leaders == 1 else DRAW
        o_winner[row] = best_seat if leaders == 1 else -1
        o_length[row] = turns
        for s in range(n):
            o_cards[row, s] = cards[s]
            o_snakes[row, s] = taken[s]
            o_longest[row, s] = longest[s]
        o_completed[row] = completed
        table_cards = 0
        for s in range(n_snakes):
            table_cards += lengths[s]
        o_table_cards[row] = table_cards
        o_table_snakes[row] = n_snakes
        winner = best_seat if leaders == 1 else -1
        if packed is not None:  # (each test on a None argument: numba drops the code of the others)
            feel_record.write(out[9:], row, feel_lanes.summarise(packed, n, turns, winner)[0])
        elif steps is not None:
            feel_record.write(out[9:], row, feel_record.summarise(steps, n, turns, winner))
        else:
            feel_record.write(out[9:], row, feel.NOT_RECORDED)


def game_scratch(deck: np.ndarray, players: int) -> tuple:
    """A thread's scratch for `_play_rows` (made here, in numpy: compiled allocation code
    would only lengthen the first compile)."""
    n_cards = len(deck)
    identities = np.empty(n_cards, np.uint64)
    deck_identities(deck, identities)
    return (
        np.empty(4, np.uint64),  # random stream state (decisions)
        np.empty(4, np.uint64),  # the look-ahead's playouts (their own lane)
        *deal_scratch(n_cards, N_TYPES),  # the deal's (no copies for a deck that fits the ranks)
        identities,
        np.empty(n_cards, np.int8),  # the fan, in draw order
        np.empty((n_cards, 2), np.int64),  # each snake's two ends
        np.empty(n_cards, np.int64),  # each snake's cards
        np.empty(n_cards, np.int64),  # each snake's middle sections
        np.empty((max_placements(n_cards), 6), np.int32),  # the legal placements of the drawn card
        np.empty(n_cards, np.int64),  # which ends of each snake fit the drawn middle
        np.empty(players, np.int64),  # cards taken per seat
        np.empty(players, np.int64),  # snakes taken per seat
        np.empty(players, np.int64),  # longest snake taken per seat
        np.empty(players, np.int64),  # points per seat (for the feel figures)
    )


def max_placements(n_cards: int) -> int:
    """The most legal placements a drawn card can have among the snakes of ``n_cards`` cards."""
    return 4 * n_cards + 2 * n_cards * n_cards


def think_scratch(players: int, n_cards: int) -> tuple:
    """A look-ahead's shuffled fan and its playout's table and scores (`_expert`)."""
    most = max_placements(n_cards)
    greedy = np.zeros((players, 3), np.int64)  # the players a look-ahead imagines
    greedy[:, CODE] = GREEDY
    return (
        np.empty(n_cards, np.int8),
        np.empty((n_cards, 2), np.int64),
        np.empty(n_cards, np.int64),
        np.empty(n_cards, np.int64),
        np.empty((most, 6), np.int32),
        np.empty(n_cards, np.int64),
        np.empty(players, np.int64),
        np.empty(players, np.int64),
        np.empty(players, np.int64),
        greedy,
        np.empty(most, np.int64),  # each placement's payoff in one imagined game
        np.empty(N_TYPES, np.int64),  # cards left of each type
        np.empty(most, np.int64),  # each placement's payoffs minus greedy's, summed
        np.empty(most, np.int64),  # and their squares
    )


def encode(rules: HisssRules, players: int, presorted: bool = False) -> np.ndarray:
    """The rules as the kernel's ``params`` array (see the ``P_*`` indices)."""
    params = np.zeros(P_START + players, np.int64)
    params[P_PLAYERS] = players
    params[P_CLAIM_JOINED] = rules.claim_joined
    params[P_PER_CARD] = rules.points_per_card
    params[P_PER_SNAKE] = rules.points_per_snake
    params[P_PER_LONGEST] = rules.points_per_longest
    params[P_TIE_BREAK] = TIE_BREAKS.index(rules.tie_break)
    params[P_PRESORTED] = presorted
    params[P_START:] = rules.starts(players)
    return params


# What each card type is (see rules.card_kind); its colours depend on the rules (colours_of).
KINDS = np.array([card_kind(t) for t in range(N_TYPES)], np.int64)


COLUMNS = (  # name, dtype, one per seat; the order _play_rows unpacks them in
    ("outcome", np.int8, False),
    ("winner", np.int8, False),
    ("length", np.int32, False),
    ("cards", np.int32, True),
    ("snakes", np.int32, True),
    ("longest", np.int32, True),
    ("completed", np.int32, False),
    ("table_cards", np.int32, False),
    ("table_snakes", np.int32, False),
    *feel.COLUMNS,
)


def play_block(
    rules: HisssRules, players: int, seed: int, first: int, count: int, policies=None, deck=None
) -> dict[str, np.ndarray]:
    """Play games ``first .. first+count-1`` of ``seed`` and return their columns.

    Parameters
    ----------
    rules : HisssRules
    players : int
    seed, first, count : int
        The run's seed, the first game index and the number of games.
    policies : array, optional
        The seats' policies (``snakesim.core.policies.policy_table``: a table or plain codes);
        greedy for every seat if None.
    deck : array of int, optional
        A scripted deck (card types, top first) used instead of the shuffle, for tests.

    Returns
    -------
    dict of numpy arrays
        ``outcome, winner, length, completed, table_cards, table_snakes`` of shape ``(count,)``;
        ``cards, snakes, longest`` of shape ``(count, players)``.
    """
    cards = rules.deck_cards() if deck is None else np.asarray(deck, dtype=np.int8)
    out = allocate(COLUMNS, count, players)
    col_a = np.array([rules.colours_of(t)[0] for t in range(N_TYPES)], np.int64)
    col_b = np.array([rules.colours_of(t)[1] for t in range(N_TYPES)], np.int64)
    fits, params = rules.fit_table(), encode(rules, players, deck is not None)
    table = policy_table(policies, players, GREEDY)
    columns, thinks = tuple(out.values()), thinks_ahead(table, EXPERT)

    def play(start, stop):  # (each thread its own scratch)
        think = think_scratch(players, len(cards)) if thinks else None
        packed = steps = None
        if rules.feel:  # (points never fall: from the least start to the most a deck can give)
            starts = rules.starts(players)
            gain = len(cards) * (rules.points_per_card + rules.points_per_snake + rules.points_per_longest)
            packed, steps = feel_lanes.records(len(cards), players, min(starts), max(starts) + gain)
        _play_rows(
            cards,
            KINDS,
            col_a,
            col_b,
            fits,
            params=params,
            policies=table,
            seed=np.uint64(seed),
            first=np.int64(first),
            scratch=game_scratch(cards, players),
            think=think,
            packed=packed,
            steps=steps,
            out=columns,
            start=np.int64(start),
            stop=np.int64(stop),
        )

    play_in_blocks(play, count, BLOCK)
    return out
