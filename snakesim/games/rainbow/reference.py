"""Rainbow, played turn by turn in plain Python: the readable reference engine.

Read it beside the seed text (seed 004, second part) and docs/games/rainbow.md. The
numba kernel (``kernel.py``) plays the identical game for the same (rules, policies, seed,
game): same deal, same choices, same random numbers in the same order.

Hands are counts per symbol: two cards of one symbol are the same card, so a choice is a
symbol. Every policy decision draws exactly one number from the stream (see ``choose``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from snakesim.core import feel
from snakesim.core.policies import (
    CODE,
    LOOKAHEAD_LANE,
    PLAYOUTS,
    beats_greedy,
    describe_seats,
    policy_table,
    py_acting,
)
from snakesim.core.rng import Stream
from snakesim.core.rules import seat_text, seat_values
from snakesim.games.rainbow.rules import (
    BLOCKED_DRAW,
    BLOCKED_WIN,
    EXPERT,
    GREEDY,
    ORACLE,
    OUTCOMES,
    POLICIES,
    RANDOM,
    SYMBOLS,
    UNFINISHED,
    WIN,
    RainbowRules,
)


class RainbowGame:
    """The state of one Rainbow game, and the moves that change it.

    Parameters
    ----------
    rules : RainbowRules
        The options of the game.
    players : int
        Number of seats; seat 0 plays first.
    policies : sequence
        Each seat's policy: a code (position in ``POLICIES``) or a row of
        ``snakesim.core.policies.policy_table``.
    stream : Stream
        The game's random stream.
    deck : sequence of int, optional
        A scripted deck order (top first) used instead of the shuffle: the first
        the hands are dealt one card at a time to each seat not yet full, the rest is the stock.
    trace : bool
        Keep a readable line per turn in ``self.log``.
    """

    def __init__(
        self, rules: RainbowRules, players: int, policies: Sequence[int], stream: Stream, deck=None, trace=False
    ):
        self.rules = rules
        self.wild = rules.wild_symbols()  # the codes of the wild symbols
        self.players = players
        self.policies = [[int(v) for v in row] for row in policy_table(policies, players, GREEDY)]
        self.stream = stream
        self.look = Stream(stream.seed, stream.game, lane=LOOKAHEAD_LANE)  # the look-ahead's playouts
        self.playout = False  # an imagined game of a look-ahead (see look_ahead)
        cards = [int(c) for c in (rules.deck_cards() if deck is None else deck)]
        if deck is None:
            stream.keyed_shuffle(cards)  # coupled across decks: see snakesim.core.rng
        else:
            stream.shuffles = 1  # the scripted deck stands for the deal: reshuffles are numbered from 1
        # Deal one card at a time, clockwise from seat 0; the rest is the face-down stock.
        sizes = seat_values(rules.hand_size, players)
        order = [s for r in range(max(sizes)) for s in range(players) if r < sizes[s]]  # seats not yet full
        dealt = len(order)
        self.hands = [[0] * len(SYMBOLS) for _ in range(players)]
        for seat, card in zip(order, cards[:dealt], strict=True):
            self.hands[seat][card] += 1
        self.stock = cards[dealt:]
        self.pile: list[int] = []
        self.turns = 0
        self.drawn = 0
        self.reshuffles = 0
        self.passes = 0  # consecutive turns on which a player passed
        self.outcome = -1
        self.winner = -1
        self.log: list[str] | None = [] if trace else None
        self.moves: list[str] = []  # each turn's move in words, kept when tracing

    # ------------------------------------------------------------------ choosing
    def legal(self, seat: int) -> list[int]:
        """The symbols in ``seat``'s hand that may be played now (any card on an empty pile)."""
        hand = self.hands[seat]
        if not self.pile:
            return [c for c in range(len(SYMBOLS)) if hand[c]]
        return [c for c in range(len(SYMBOLS)) if hand[c] and self.rules.can_play(c, self.pile[-1])]

    def follow_ups(self, seat: int, card: int) -> int:
        """Cards left in ``seat``'s hand after playing ``card`` that could be played on it."""
        hand = self.hands[seat]
        return sum(hand[d] - (d == card) for d in range(len(SYMBOLS)) if self.rules.can_play(d, card))

    def choose(self, seat: int, legal: list[int]) -> int:
        """The card ``seat`` plays from the non-empty ``legal`` list: one random draw, after
        the draw of a mistake rate (``py_acting``) if the seat has one."""
        if py_acting(self.stream, self.policies, seat) == RANDOM:
            # Uniform over the legal cards: a symbol held twice is twice as likely.
            r = self.stream.below(sum(self.hands[seat][c] for c in legal))
            for c in legal:
                r -= self.hands[seat][c]
                if r < 0:
                    return c
        return self.greedy(seat, legal)

    def greedy(self, seat: int, legal: list[int]) -> int:
        """Greedy's pick from the non-empty ``legal`` list (one random draw)."""
        # Greedy: keep the wild cards while anything else is playable; then play the card that
        # leaves the most follow-ups in hand; ties broken uniformly by the stream.
        if any(c in self.wild for c in legal) and any(c not in self.wild for c in legal):
            legal = [c for c in legal if c not in self.wild]
        scores = [self.follow_ups(seat, c) for c in legal]
        best = [c for c, s in zip(legal, scores, strict=True) if s == max(scores)]
        return best[self.stream.below(len(best))]

    def plays_drawn(self, seat: int) -> bool:
        """Whether ``seat`` plays the playable card just drawn: under ``draw_play = "may"`` the
        policy decides (one random draw), else the rule does (no draw)."""
        if self.rules.draw_play != "may":
            return self.rules.draw_play == "must"
        code = py_acting(self.stream, self.policies, seat)
        if code == RANDOM:
            return self.stream.below(2) == 0
        self.stream.below(2)  # every decision draws one number, whatever the policy
        return True  # greedy and the look-ahead policies play it

    def look_ahead(self, seat: int, legal: list[int]) -> int:
        """The card an ``expert`` (or ``oracle``) seat plays from ``legal``: flat Monte Carlo.

        It starts from greedy's card (one draw from the game's stream). Then, K times (the
        seat's playouts), the cards the seat cannot see, the other hands and the stock, are
        gathered (sorted by symbol), shuffled and dealt back, each hand keeping its size; the
        oracle skips this and sees the true cards. From that one deal, each legal card is
        played and the game played out by greedy players drawing from the look-ahead's own
        stream: a win scores 2, a blocked draw the seat shares 1. A card replaces greedy's
        only if it beats it beyond the noise (``beats_greedy``): the one with the largest gain,
        the lowest symbol on a tie.
        """
        g = self.greedy(seat, legal)
        if len(legal) == 1:
            return g
        playouts = self.policies[seat][PLAYOUTS]
        gain, squares = dict.fromkeys(legal, 0), dict.fromkeys(legal, 0)
        for _ in range(playouts):
            deal = self.imagine()
            if self.policies[seat][CODE] != ORACLE:
                deal.redeal(seat)
            got = {}
            for card in legal:
                game = deal.imagine()
                game.step(seat, forced=card)
                who = seat
                while game.outcome < 0:
                    who = (who + 1) % self.players
                    game.step(who)
                left = [sum(h) for h in game.hands]
                got[card] = 2 if game.winner == seat else int(game.outcome == BLOCKED_DRAW and left[seat] == min(left))
            for card in legal:
                gain[card] += got[card] - got[g]
                squares[card] += (got[card] - got[g]) ** 2
        best = g
        for card in legal:
            if gain[card] > gain[best] and beats_greedy(gain[card], squares[card], playouts):
                best = card
        return best

    def imagine(self) -> RainbowGame:
        """A copy of the game to think with: greedy players, the look-ahead's stream, no log."""
        game = copy.copy(self)
        game.hands = [list(h) for h in self.hands]
        game.stock = list(self.stock)
        game.pile = list(self.pile)
        game.stream = self.look
        game.policies = [[GREEDY, 0, 0] for _ in range(self.players)]
        game.playout = True
        game.log = None
        return game

    def redeal(self, seat: int) -> None:
        """Shuffle the cards ``seat`` cannot see and deal them back (each hand keeps its size)."""
        # Sorted by symbol first: the seat knows which cards are unseen, not where they are.
        unseen = sorted([c for s in range(self.players) if s != seat for c, k in enumerate(self.hands[s])
                         for _ in range(k)] + self.stock)  # fmt: skip
        self.stream.shuffle(unseen)
        for s in range(self.players):
            if s != seat:
                size = sum(self.hands[s])
                self.hands[s] = [0] * len(SYMBOLS)
                for c in unseen[:size]:
                    self.hands[s][c] += 1
                unseen = unseen[size:]
        self.stock = unseen

    # ------------------------------------------------------------------ moves
    def play(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.pile.append(card)

    def draw(self, seat: int) -> int | None:
        """Draw one card from the stock, remaking the stock from the pile first if it is empty.

        Returns the card, or None when even the remade stock is empty.
        """
        if not self.stock and len(self.pile) > 1:
            # The pile except its top card is shuffled into a new stock.
            self.stock, self.pile = self.pile[:-1], self.pile[-1:]
            if self.playout:
                self.stream.shuffle(self.stock)
            else:
                self.stream.keyed_shuffle(self.stock)
            self.reshuffles += 1
        if not self.stock:
            return None
        card = self.stock.pop(0)
        self.hands[seat][card] += 1
        self.drawn += 1
        return card

    def step(self, seat: int, forced: int | None = None) -> None:
        """Play one turn for ``seat``; ``forced`` is a card a look-ahead has chosen to try."""
        self.turns += 1
        top = self.pile[-1] if self.pile else None
        legal = self.legal(seat)
        if legal:
            if forced is not None:
                card = forced
            elif self.policies[seat][CODE] in (EXPERT, ORACLE):
                card = self.look_ahead(seat, legal)
            else:
                card = self.choose(seat, legal)
            self.play(seat, card)
            self.passes = 0
            move = f"plays {_card(card)}"
        else:
            card = self.draw(seat)
            if card is None:
                self.passes += 1
                move = "cannot play or draw: passes"
            else:
                self.passes = 0
                if self.rules.can_play(card, top) and self.plays_drawn(seat):
                    self.play(seat, card)
                    move = f"draws and plays {_card(card)}"
                else:
                    move = f"draws {_card(card)}" + (" and keeps it" if self.rules.can_play(card, top) else "")
        if self.log is not None:
            self.moves.append(move)
        self._note(
            f"{self.turns:5d} seat {seat} on {_card(top) if top is not None else 'empty pile':<16} {move:<36} "
            f"hand {_hand(self.hands[seat])}"
        )
        self.finish(seat)

    def finish(self, seat: int) -> None:
        """End the game: an empty hand wins; a full round of passes blocks it; or the cap."""
        if sum(self.hands[seat]) == 0:
            self.outcome, self.winner = WIN, seat
        elif self.passes == self.players:
            # Blocked: the fewest cards in hand wins; a tie is a draw.
            left = [sum(h) for h in self.hands]
            fewest = [s for s in range(self.players) if left[s] == min(left)]
            if len(fewest) == 1:
                self.outcome, self.winner = BLOCKED_WIN, fewest[0]
            else:
                self.outcome = BLOCKED_DRAW
        elif self.turns >= self.rules.turn_cap:
            self.outcome = UNFINISHED

    def play_game(self) -> dict:
        """Play to the end and return the game's record (the kernel's columns)."""
        seat = 0
        history = [self.standings()]  # after the deal and each turn, for the feel figures and a trace
        while self.outcome < 0:
            self.step(seat)
            history.append(self.standings())
            if self.log is not None:
                self._note(feel.trace_line("cards in hand", [-v for v in history[-1]], history[-1]))
            seat = (seat + 1) % self.players
        self._note(self.summary())
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "length": self.turns,
            "hand": [sum(h) for h in self.hands],
            "drawn": self.drawn,
            "reshuffles": self.reshuffles,
            **(feel.figures(history, self.winner) if self.rules.feel else feel.not_recorded()),
        }

    def standings(self) -> list[int]:
        """What the game ranks the seats by, higher is better: minus the cards in hand."""
        return [-sum(h) for h in self.hands]

    def summary(self) -> str:
        left = " ".join(str(sum(h)) for h in self.hands)
        if self.outcome == WIN:
            return f"seat {self.winner} empties their hand and wins after {self.turns} turns (cards left: {left})"
        if self.outcome in (BLOCKED_WIN, BLOCKED_DRAW):
            who = f"seat {self.winner} wins with the fewest cards" if self.outcome == BLOCKED_WIN else "a draw"
            return f"blocked after {self.turns} turns: every player passed; {who} (cards left: {left})"
        return f"{OUTCOMES[self.outcome]}: turn cap of {self.rules.turn_cap} turns reached (cards left: {left})"

    def _note(self, line: str) -> None:
        if self.log is not None:
            self.log.append(line)


def _card(card: int) -> str:
    return SYMBOLS[card]


def _hand(hand: list[int]) -> str:
    return " ".join(SYMBOLS[c] + (f"x{n}" if n > 1 else "") for c, n in enumerate(hand) if n) or "(empty)"


def play(
    rules: RainbowRules,
    players: int,
    seed: int,
    game: int,
    policies: Sequence[int] | None = None,
    trace: bool = False,
    deck: Sequence[int] | None = None,
) -> tuple[dict, list[str]]:
    """Play game ``game`` of seed ``seed`` with the reference engine.

    Parameters
    ----------
    policies : sequence, optional
        Each seat's policy (a code, or a row of ``snakesim.core.policies.policy_table``);
        greedy for every seat if None.

    Returns
    -------
    record : dict
        outcome, winner, length (turns), hand (cards left per seat), drawn, reshuffles.
    log : list of str
        The trace, one line per turn (empty unless ``trace``).
    """
    policies = policy_table(policies, players, GREEDY)
    g = RainbowGame(rules, players, policies, Stream(seed, game), deck=deck, trace=trace)
    if trace:
        g._note(
            f"deal: {seat_text(rules.hand_size)} cards each, {len(g.stock)} in the stock; "
            + describe_seats(policies, POLICIES)
        )
        for s in range(players):
            g._note(f"      seat {s} holds {_hand(g.hands[s])}")
    record = g.play_game()
    return record, g.log or []
