"""Rainbow in numba: plays many games, each identical to ``reference.play`` for its
(rules, policies, seed, i).

Legality comes from ``RainbowRules.can_play``, the predicate the reference engine calls,
turned into one bit mask of playable cards per top card (``legal_masks``); a hand is a count
per symbol plus a bit mask of the symbols held, so the legal moves are one AND. The scripted
tests check ``can_play`` itself against the rule text.

The shuffled deck array doubles as the stock: the deal takes its first cards, the stock is
``stock[sp:se]``, and a reshuffle copies the pile (but its top card) to the front of it.
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
    deck_identities,
    keyed_deal,
    keyed_scratch,
    keyed_shuffle,
    seed_lane,
    seed_stream,
    shuffle,
)
from snakesim.core.rules import seat_values
from snakesim.core.threads import play_in_blocks
from snakesim.games.rainbow.rules import (
    BLOCKED_DRAW,
    BLOCKED_WIN,
    DRAW_PLAY,
    EXPERT,
    GREEDY,
    MAY,
    NEVER,
    ORACLE,
    RANDOM,
    SYMBOLS,
    UNFINISHED,
    WIN,
    RainbowRules,
)

N_SYMBOLS = len(SYMBOLS)
ANY_CARD = (1 << N_SYMBOLS) - 1  # what may be played on the empty pile
BLOCK = 64  # games per scratch allocation; any value gives the same results
# Positions in the params array built by `encode`.
P_PLAYERS, P_WILD, P_DRAW_PLAY, P_TURN_CAP, P_PRESORTED, P_HAND_SIZE = range(6)  # P_HAND_SIZE + seat: its hand


@njit_inner
def _follow_ups(masks, hands, held, seat, card):
    """Cards left in ``seat``'s hand after playing ``card`` that could be played on it."""
    playable = masks[card] & held[seat]
    total = 0
    for d in range(N_SYMBOLS):
        if (playable >> d) & 1:
            total += hands[seat, d]
    return total - ((playable >> card) & 1)


@njit_inner
def _choose(state, masks, hands, held, seat, policy, wild, legal):
    """The symbol ``seat`` plays from the non-empty bit set ``legal`` by ``policy`` (``RANDOM``,
    else greedy). One random draw."""
    if policy == RANDOM:
        total = 0
        for c in range(N_SYMBOLS):
            if (legal >> c) & 1:
                total += hands[seat, c]
        r = below(state, total)
        for c in range(N_SYMBOLS):
            if (legal >> c) & 1:
                r -= hands[seat, c]
                if r < 0:
                    return c
    # GREEDY: keep the wild cards while anything else is playable; most follow-ups; random ties.
    if legal & wild and legal & ~wild:
        legal &= ~wild
    best = -1
    n_best = 0
    for c in range(N_SYMBOLS):
        if (legal >> c) & 1:
            score = _follow_ups(masks, hands, held, seat, c)
            if score > best:
                best = score
                n_best = 1
            elif score == best:
                n_best += 1
    r = below(state, n_best)
    for c in range(N_SYMBOLS):
        if (legal >> c) & 1 and _follow_ups(masks, hands, held, seat, c) == best:
            if r == 0:
                return c
            r -= 1
    return -1  # unreachable: ``legal`` is not empty


@njit_inner
def _take(hands, held, seat, card):
    """Add ``card`` to ``seat``'s hand."""
    hands[seat, card] += 1
    held[seat] |= 1 << card


@njit_inner
def _give_up(hands, held, seat, card):
    """Remove ``card`` from ``seat``'s hand."""
    hands[seat, card] -= 1
    if hands[seat, card] == 0:
        held[seat] &= ~(1 << card)


@njit(inline="always")  # the game loop's body: called once per turn
def _turn(state, masks, params, policies, key, playout, forced, hands, held, totals, stock, pile, copies, keys,
          sp, se, pc, seat, turns, drawn, reshuffles, passes):  # fmt: skip
    """Play one turn for ``seat`` (``reference.RainbowGame.step``); ``forced >= 0`` is the card a
    look-ahead policy chose. A ``playout`` (a look-ahead's imagined game) reshuffles with
    ``shuffle`` from ``state`` instead of the game's keyed shuffles.

    Returns ``(sp, se, pc, turns, drawn, reshuffles, passes, outcome, winner)``.
    """
    n, wild, draw_play, turn_cap = params[P_PLAYERS], params[P_WILD], params[P_DRAW_PLAY], params[P_TURN_CAP]
    outcome = -1
    winner = -1
    turns += 1
    top = pile[pc - 1] if pc > 0 else 0
    legal = held[seat] & (masks[top] if pc > 0 else ANY_CARD)
    if legal:
        if forced >= 0:
            card = forced
        else:
            card = _choose(
                state, masks, hands, held, seat, policy=acting(state, policies, seat), wild=wild, legal=legal
            )
        _give_up(hands, held, seat, card)
        totals[seat] -= 1
        pile[pc] = card
        pc += 1
        passes = 0
    else:
        if sp == se and pc > 1:  # the pile but its top becomes the new stock
            for k in range(pc - 1):
                stock[k] = pile[k]
            reshuffles += 1
            if playout:
                shuffle(state, stock, pc - 1)
            else:
                keyed_shuffle(key, reshuffles, stock, pc - 1, N_SYMBOLS, copies=copies, keys=keys)
            sp = 0
            se = pc - 1
            pile[0] = pile[pc - 1]
            pc = 1
        if sp == se:
            passes += 1
        else:
            card = np.int64(stock[sp])  # (cards as int64 everywhere: one compiled _take, _give_up)
            sp += 1
            _take(hands, held, seat, card)
            totals[seat] += 1
            drawn += 1
            passes = 0
            if draw_play != NEVER and (masks[top] >> card) & 1:
                if draw_play == MAY:
                    code = acting(state, policies, seat)
                    take = below(state, 2) == 0  # one draw whatever the policy
                    take = take or code != RANDOM
                else:
                    take = True
                if take:
                    _give_up(hands, held, seat, card)
                    totals[seat] -= 1
                    pile[pc] = card
                    pc += 1
    if totals[seat] == 0:
        outcome = WIN
        winner = seat
    elif passes == n:
        fewest = totals[0]
        for s in range(n):
            fewest = min(fewest, totals[s])
        tied = 0
        for s in range(n):
            if totals[s] == fewest:
                tied += 1
                winner = s
        if tied == 1:
            outcome = BLOCKED_WIN
        else:
            outcome = BLOCKED_DRAW
            winner = -1
    elif turns >= turn_cap:
        outcome = UNFINISHED
    return sp, se, pc, turns, drawn, reshuffles, passes, outcome, winner


@njit_inner
def _copy_hands(hands, held, totals, to_hands, to_held, to_totals, n):
    for s in range(n):
        for c in range(N_SYMBOLS):
            to_hands[s, c] = hands[s, c]
        to_held[s] = held[s]
        to_totals[s] = totals[s]


@njit_inner
def _expert(state, look, masks, params, policies, key, seat, legal, hands, held, totals, stock, pile, copies, keys,
            sp, se, pc, turns, drawn, reshuffles, passes, think):  # fmt: skip
    """The card a look-ahead seat plays from ``legal`` (``reference.RainbowGame.look_ahead``).

    It starts from greedy's card (one draw from the game's stream). Then, flat Monte Carlo:
    K times the cards the seat cannot see (the other hands and the stock) are re-dealt,
    keeping each hand's size (the oracle keeps the true cards); the re-deal starts from those
    cards sorted by symbol, so it cannot depend on where they really are. From that one deal
    every legal card is played out to the end by greedy players drawing from ``look``: a win
    scores 2, a shared block 1. A card replaces greedy's only if it beats it beyond the noise
    (``beats_greedy``); the one with the largest gain, the lowest symbol on a tie.
    """
    n = params[P_PLAYERS]
    d_hands, d_held, d_totals, d_stock, p_hands, p_held, p_totals, p_stock, p_pile, greedy, got, unseen, gain, \
        squares = think  # fmt: skip
    g = _choose(state, masks, hands, held, seat, policy=GREEDY, wild=params[P_WILD], legal=legal)
    n_moves = 0
    for c in range(N_SYMBOLS):
        gain[c] = 0
        squares[c] = 0
        n_moves += (legal >> c) & 1
    if n_moves == 1:
        return g
    playouts = policies[seat, PLAYOUTS]
    oracle = policies[seat, CODE] == ORACLE
    for _sample in range(playouts):
        _copy_hands(hands, held, totals, d_hands, d_held, to_totals=d_totals, n=n)
        m = 0
        if oracle:  # the true stock, in order
            for k in range(sp, se):
                d_stock[m] = stock[k]
                m += 1
        else:  # the unseen cards (other hands and stock) by symbol: all the seat knows of them
            for c in range(N_SYMBOLS):
                unseen[c] = 0
            for k in range(sp, se):
                unseen[stock[k]] += 1
            for s in range(n):
                if s != seat:
                    for c in range(N_SYMBOLS):
                        unseen[c] += hands[s, c]
                        d_hands[s, c] = 0
                    d_held[s] = 0
            for c in range(N_SYMBOLS):
                for _ in range(unseen[c]):
                    d_stock[m] = c
                    m += 1
            shuffle(look, d_stock, m)  # re-deal: each other hand keeps its size, the rest is the stock
            dealt = 0
            for s in range(n):
                if s != seat:
                    for _ in range(totals[s]):
                        _take(d_hands, d_held, s, np.int64(d_stock[dealt]))
                        dealt += 1
            for k in range(dealt, m):
                d_stock[k - dealt] = d_stock[k]
            m -= dealt
        for c in range(N_SYMBOLS):
            got[c] = 0
            if not (legal >> c) & 1:
                continue
            _copy_hands(d_hands, d_held, d_totals, p_hands, p_held, to_totals=p_totals, n=n)
            for k in range(m):
                p_stock[k] = d_stock[k]
            for k in range(pc):
                p_pile[k] = pile[k]
            q_sp, q_se, q_pc, q_turns, q_drawn, q_reshuffles, q_passes = 0, m, pc, turns, drawn, reshuffles, passes
            forced = c
            who = seat
            outcome = -1
            winner = -1
            while outcome < 0:
                q_sp, q_se, q_pc, q_turns, q_drawn, q_reshuffles, q_passes, outcome, winner = _turn(
                    look,
                    masks,
                    params,
                    greedy,
                    key,
                    playout=True,
                    forced=forced,
                    hands=p_hands,
                    held=p_held,
                    totals=p_totals,
                    stock=p_stock,
                    pile=p_pile,
                    copies=copies,
                    keys=keys,
                    sp=q_sp,
                    se=q_se,
                    pc=q_pc,
                    seat=who,
                    turns=q_turns,
                    drawn=q_drawn,
                    reshuffles=q_reshuffles,
                    passes=q_passes,
                )
                forced = -1
                who = who + 1 if who + 1 < n else 0
            if winner == seat:
                got[c] = 2
            elif outcome == BLOCKED_DRAW:
                fewest = p_totals[0]
                for s in range(n):
                    fewest = min(fewest, p_totals[s])
                got[c] = p_totals[seat] == fewest
        add_playout(got, g, gain, squares, N_SYMBOLS)  # an illegal card gets 0, so it never gains
    return pick_over_greedy(gain, squares, g, N_SYMBOLS, playouts)


@njit
def _play_rows(deck, masks, params, policies, seed, first, scratch, think, packed, steps, out, start, stop):
    """Play games ``first + start .. first + stop - 1`` into rows ``start .. stop - 1`` of the
    ``out`` columns (one function, so that the game is compiled once, not again in a loop's).

    ``masks[top]`` has bit ``c`` set when card ``c`` may be played on ``top``; ``held[s]`` has
    bit ``c`` set while seat ``s`` holds a card ``c``. ``think`` is the look-ahead's scratch
    (`think_scratch`), or None when no seat thinks ahead: the look-ahead is then not even
    compiled. Likewise ``packed`` and ``steps``, the feel figures' record
    (`feel_lanes.records`: one of them is None), both None when they are off.
    """
    for row in range(start, stop):
        game = first + row
        n, presorted = params[P_PLAYERS], params[P_PRESORTED]
        state, look, copies, keys, identities, stock, pile, hands, totals, held = scratch
        o_outcome, o_winner, o_length, o_hand, o_drawn, o_reshuffles = out[:6]
        seed_stream(state, seed, game)  # the policies' decisions
        seed_lane(look, seed, game, LOOKAHEAD_LANE)  # the look-ahead policies' playouts
        key = deal_key(seed, game)  # the deal and reshuffles, coupled across decks (snakesim.core.rng)
        n_cards = deck.shape[0]
        if presorted:
            for k in range(n_cards):
                stock[k] = deck[k]
        else:
            keyed_deal(key, 0, deck, identities, stock, n_types=N_SYMBOLS, copies=copies, keys=keys)
        hands[:, :] = 0
        held[:] = 0
        most = 0
        for s in range(n):
            totals[s] = params[P_HAND_SIZE + s]
            most = max(most, totals[s])
        dealt = 0
        for r in range(most):  # one card at a time, clockwise from seat 0, to each seat not yet full
            for s in range(n):
                if r < totals[s]:
                    _take(hands, held, s, np.int64(stock[dealt]))
                    dealt += 1
        sp = dealt
        se = n_cards
        pc = 0  # cards on the pile; the top is pile[pc - 1]
        turns = 0
        drawn = 0
        reshuffles = 0
        passes = 0
        outcome = -1
        winner = -1
        seat = 0
        if packed is not None:
            feel_lanes.store(packed, totals, -1, n, 0)
        if steps is not None:
            feel_record.store(steps, totals, -1, n, 0)
        while outcome < 0:
            forced = -1
            if think is not None and policies[seat, CODE] >= EXPERT:
                legal = held[seat] & (masks[pile[pc - 1]] if pc > 0 else ANY_CARD)
                if legal:
                    forced = _expert(
                        state,
                        look,
                        masks,
                        params,
                        policies,
                        key=key,
                        seat=seat,
                        legal=legal,
                        hands=hands,
                        held=held,
                        totals=totals,
                        stock=stock,
                        pile=pile,
                        copies=copies,
                        keys=keys,
                        sp=sp,
                        se=se,
                        pc=pc,
                        turns=turns,
                        drawn=drawn,
                        reshuffles=reshuffles,
                        passes=passes,
                        think=think,
                    )
            sp, se, pc, turns, drawn, reshuffles, passes, outcome, winner = _turn(
                state,
                masks,
                params,
                policies,
                key,
                playout=False,
                forced=forced,
                hands=hands,
                held=held,
                totals=totals,
                stock=stock,
                pile=pile,
                copies=copies,
                keys=keys,
                sp=sp,
                se=se,
                pc=pc,
                seat=seat,
                turns=turns,
                drawn=drawn,
                reshuffles=reshuffles,
                passes=passes,
            )
            if packed is not None:  # (a turn changes the hand of the seat that plays it alone)
                feel_lanes.store_seat(packed, -totals[seat], seat, turns)
            if steps is not None:
                feel_record.store(steps, totals, -1, n, turns)
            seat = seat + 1 if seat + 1 < n else 0
        o_outcome[row] = outcome
        o_winner[row] = winner
        o_length[row] = turns
        for s in range(n):
            o_hand[row, s] = totals[s]
        o_drawn[row] = drawn
        o_reshuffles[row] = reshuffles
        if packed is not None:  # (each test on a None argument: numba drops the code of the others)
            feel_record.write(out[6:], row, feel_lanes.summarise(packed, n, turns, winner)[0])
        elif steps is not None:
            feel_record.write(out[6:], row, feel_record.summarise(steps, n, turns, winner))
        else:
            feel_record.write(out[6:], row, feel.NOT_RECORDED)


def game_scratch(deck: np.ndarray, players: int) -> tuple:
    """A thread's scratch for `_play_rows` (made here, in numpy: compiled allocation code
    would only lengthen the first compile)."""
    identities = np.empty(len(deck), np.uint64)
    deck_identities(deck, identities)
    sizes = keyed_scratch(len(deck), N_SYMBOLS)
    return (
        np.empty(4, np.uint64),  # random stream state (decisions)
        np.empty(4, np.uint64),  # the look-ahead's playouts (their own lane)
        np.empty(sizes[0], np.int64),  # keyed shuffle scratch
        np.empty(sizes[1], np.uint64),
        identities,
        np.empty(len(deck), np.int8),  # shuffled deck, then the stock
        np.empty(len(deck), np.int8),  # the pile, bottom first
        np.empty((players, N_SYMBOLS), np.int64),  # hands: count of each symbol
        np.empty(players, np.int64),  # cards in each hand
        np.empty(players, np.int64),  # bit set of the symbols in each hand
    )


def think_scratch(players: int, cards: int) -> tuple:
    """A look-ahead's re-deal (``d_``) and playout (``p_``) copies of the state (`_expert`)."""
    greedy = np.zeros((players, 3), np.int64)  # the players a look-ahead imagines
    greedy[:, CODE] = GREEDY
    return (
        np.empty((players, N_SYMBOLS), np.int64),
        np.empty(players, np.int64),
        np.empty(players, np.int64),
        np.empty(cards, np.int8),
        np.empty((players, N_SYMBOLS), np.int64),
        np.empty(players, np.int64),
        np.empty(players, np.int64),
        np.empty(cards, np.int8),
        np.empty(cards, np.int8),
        greedy,
        np.empty(N_SYMBOLS, np.int64),  # each legal card's payoff in one imagined game
        np.empty(N_SYMBOLS, np.int64),  # unseen cards of each symbol
        np.empty(N_SYMBOLS, np.int64),  # each card's payoffs minus greedy's card's, summed
        np.empty(N_SYMBOLS, np.int64),  # and their squares
    )


def legal_masks(rules: RainbowRules) -> np.ndarray:
    """``masks[top]``: bit ``c`` set when card ``c`` may be played on ``top`` (``can_play``)."""
    table = rules.legal_table()
    return (table.astype(np.int64) << np.arange(N_SYMBOLS, dtype=np.int64)).sum(axis=1)


def encode(rules: RainbowRules, players: int, presorted: bool = False) -> np.ndarray:
    """The rules as the kernel's ``params`` array (see the ``P_*`` indices)."""
    params = np.zeros(P_HAND_SIZE + players, np.int64)
    params[P_PLAYERS] = players
    params[P_HAND_SIZE:] = seat_values(rules.hand_size, players)
    params[P_WILD] = sum(1 << c for c in rules.wild_symbols())  # bit set of the wild symbols
    params[P_DRAW_PLAY] = DRAW_PLAY.index(rules.draw_play)
    params[P_TURN_CAP] = rules.turn_cap
    params[P_PRESORTED] = presorted
    return params


COLUMNS = (  # name, dtype, one per seat; the order _play_rows unpacks them in
    ("outcome", np.int8, False),
    ("winner", np.int8, False),
    ("length", np.int32, False),
    ("hand", np.int32, True),
    ("drawn", np.int32, False),
    ("reshuffles", np.int32, False),
    *feel.COLUMNS,
)


def play_block(
    rules: RainbowRules, players: int, seed: int, first: int, count: int, policies=None, deck=None
) -> dict[str, np.ndarray]:
    """Play games ``first .. first+count-1`` of ``seed`` and return their columns.

    Parameters
    ----------
    rules : RainbowRules
        Valid rules.
    players : int
        Number of seats (the deal must fit the deck: ``check_setup``).
    seed, first, count : int
        The run's seed, the first game index and the number of games.
    policies : array, optional
        The seats' policies (``snakesim.core.policies.policy_table``: a table or plain codes);
        greedy for every seat if None.
    deck : array of int, optional
        A scripted deck order (top first) used instead of the shuffle, for tests.

    Returns
    -------
    dict of numpy arrays
        ``outcome, winner, length, drawn, reshuffles`` of shape ``(count,)`` and ``hand``
        (cards left per seat) of shape ``(count, players)``.
    """
    cards = rules.deck_cards() if deck is None else np.asarray(deck, dtype=np.int8)
    out = allocate(COLUMNS, count, players)
    masks, params, table = (
        legal_masks(rules),
        encode(rules, players, deck is not None),
        policy_table(policies, players, GREEDY),
    )
    columns, thinks = tuple(out.values()), thinks_ahead(table, EXPERT)
    # The deck the deal ranks, as wide as the copy a reshuffle ranks (keyed_shuffle's): the
    # kernel then compiles one ranking, not one for each width.
    dealt = cards.astype(np.int64)

    def play(start, stop):  # (each thread its own scratch)
        think = think_scratch(players, len(cards)) if thinks else None
        packed, steps = feel_lanes.records(rules.turn_cap, players, -len(cards), 0) if rules.feel else (None, None)
        _play_rows(
            dealt,
            masks,
            params,
            table,
            np.uint64(seed),
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
