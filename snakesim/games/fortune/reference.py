"""Fortune, played card by card in plain Python: the readable reference engine.

Read it beside the seed text (seed 004, first part) and docs/games/fortune.md. The
numba kernel (``kernel.py``) must play the identical game for the same (rules, seed, game):
same shuffles, same cards, same coins. ``tests/fortune`` holds it to that.

Rulings this engine applies beyond the rule text (each also in docs/games/fortune.md):

- A HEARTS skip is a flag, not a count: two HEARTS before the victim's turn skip one turn.
- A player who goes out loses a pending skip; a player who rejoins starts with none.
- ``out_at`` is the draw at which a seat last went out; -1 if it ends the game with coins.
"""

from __future__ import annotations

from collections.abc import Sequence

from snakesim.core import feel
from snakesim.core.rng import Stream
from snakesim.core.rules import seat_text, seat_values
from snakesim.games.fortune.rules import DRAW, OUTCOMES, UNFINISHED, WIN, FortuneRules

CUP = -1  # the payee of coins that go into the cup


class FortuneGame:
    """The state of one Fortune game, and the moves that change it.

    Parameters
    ----------
    rules : FortuneRules
        The options of the game.
    players : int
        Number of seats; seat 0 draws first.
    stream : Stream
        The game's random stream (see :class:`snakesim.core.rng.Stream`).
    deck : sequence of int, optional
        A scripted draw pile, top card first, used instead of shuffling the rules' deck.
        Reshuffles still use ``stream``.
    trace : bool
        Keep a readable line per turn in ``self.log``.
    """

    def __init__(
        self,
        rules: FortuneRules,
        players: int,
        stream: Stream,
        deck: Sequence[int] | None = None,
        trace: bool = False,
    ):
        self.rules = rules
        self.players = players
        self.stream = stream
        self.coins = seat_values(rules.start_coins, players)
        self.cup = 0
        self.skip = [False] * players
        self.out_at = [-1] * players
        if deck is None:
            # The deck is shuffled and placed face down in the center of the table.
            self.draw_pile = [int(c) for c in rules.deck_cards()]
            stream.keyed_shuffle(self.draw_pile)
        else:
            self.draw_pile = [int(c) for c in deck]
            stream.shuffles = 1  # the scripted deck stands for the deal: reshuffles are numbered from 1
        self.discard: list[int] = []
        self.names = rules.symbols()
        self.turn = 0
        self.length = 0  # cards drawn
        self.reshuffles = 0
        self.max_cup = 0
        self.outcome = -1
        self.winner = -1
        self.final_cup = 0
        self.log: list[str] | None = [] if trace else None
        # The standings (coins) after the deal and each card, for the feel figures.
        self.history: list[list[int]] | None = [list(self.coins)] if rules.feel else None

    # ------------------------------------------------------------------ who is where
    def in_game(self, seat: int) -> bool:
        """A player with coins is in the game; a player with none is out."""
        return self.coins[seat] > 0

    def seats_in_game(self) -> list[int]:
        return [s for s in range(self.players) if self.in_game(s)]

    def clockwise_from(self, seat: int) -> list[int]:
        """The other seats, starting with the one to the left of ``seat``."""
        return [(seat + k) % self.players for k in range(1, self.players)]

    def left_of(self, seat: int) -> int:
        """The next player in the game clockwise ("the player to the left")."""
        return next(s for s in self.clockwise_from(seat) if self.in_game(s))

    def right_of(self, seat: int) -> int:
        """The previous player in the game ("the player to the right")."""
        return next(s for s in reversed(self.clockwise_from(seat)) if self.in_game(s))

    # ------------------------------------------------------------------ moving coins
    def pay(self, payer: int, payee: int, amount: int) -> int:
        """Move up to ``amount`` coins from ``payer`` to ``payee`` (a seat or CUP).

        A player who must pay more than they have pays what they have, and with 0 coins is
        out at once. A player who receives coins while out is back in (rejoin only gives to
        players who are out). Returns the coins moved.
        """
        paid = min(amount, self.coins[payer])
        self.coins[payer] -= paid
        if paid and self.coins[payer] == 0:
            self.out_at[payer] = self.length
            self.skip[payer] = False
        if payee == CUP:
            self.cup += paid
        else:
            self.receive(payee, paid)
        return paid

    def receive(self, seat: int, amount: int) -> None:
        """Give ``seat`` coins from the cup or a player; a player who was out is back in."""
        if amount:
            if self.coins[seat] == 0:
                self.out_at[seat] = -1  # back in the game
            self.coins[seat] += amount

    # ------------------------------------------------------------------ the cards
    def draw(self) -> int:
        """Draw the top card; an empty draw pile is first remade from the shuffled discards."""
        if not self.draw_pile:
            self.draw_pile, self.discard = self.discard, []
            self.stream.keyed_shuffle(self.draw_pile)  # coupled: see snakesim.core.rng
            self.reshuffles += 1
        card = self.draw_pile.pop(0)
        self.discard.append(card)
        self.length += 1
        return card

    def apply(self, seat: int, card: int) -> str:
        """Carry out the card's primitives for the drawer ``seat``; return what happened.

        "left" and "right" are the drawer's neighbours in the game when the card is drawn
        (a primitive that names one who has gone out since then moves nothing).
        """
        left, right = self.left_of(seat), self.right_of(seat)
        return "; ".join(self.primitive(seat, p, left, right) for p in self.rules.effect(card)) or "nothing happens"

    def primitive(self, seat: int, p: dict, left: int, right: int) -> str:
        """One primitive of a card's effect (docs/games/fortune.md, 'Card effects')."""
        verb = next(iter(p))
        n = p[verb]
        if verb == "cup":
            return f"puts {self.pay(seat, CUP, n)} in the cup"
        if verb in ("all_cup", "others_cup"):
            first = [seat] if verb == "all_cup" else []
            payers = first + [s for s in self.clockwise_from(seat) if self.in_game(s)]
            for s in payers:
                self.pay(s, CUP, n)
            return f"seats {_seats(payers)} each put {n} in the cup"
        if verb == "take":
            victim = left if p["from"] == "left" else right
            return f"takes {self.pay(victim, seat, n)} from seat {victim}"
        if verb == "collect":
            others = [s for s in self.clockwise_from(seat) if self.in_game(s)]
            taken = sum(self.pay(s, seat, n) for s in others)
            return f"takes {n} from {_each(others)}" + (f" ({taken} in all)" if len(others) > 1 else "")
        if verb == "give":
            if p["rejoin"]:  # the seat beside the drawer, in the game or out
                target = (seat + (1 if p["to"] == "left" else -1)) % self.players
            else:
                target = left if p["to"] == "left" else right
                if not self.in_game(target):
                    return f"cannot give: seat {target} is out"
            return f"gives {self.pay(seat, target, n)} to seat {target}"
        if verb == "give_each":
            return self.give_each(seat, n, p["shortfall"], p["rejoin"])
        if verb == "take_cup":  # all of it, half rounded down, or N coins (all of it if fewer)
            won = self.cup if n == "all" else self.cup // 2 if n == "half" else min(self.cup, n)
            self.cup -= won
            self.receive(seat, won)
            what = "the cup" if n == "all" else "half the cup" if n == "half" else f"{n} from the cup"
            return f"takes {what} ({won})"
        target = left if n == "left" else right  # skip
        if not self.in_game(target):
            return f"seat {target} is out: no skip"
        self.skip[target] = True
        return f"seat {target} skips their next turn"

    def give_each(self, seat: int, n: int, shortfall: str, rejoin: bool) -> str:
        """Give ``n`` coins to each other player (out players too under ``rejoin``)."""
        others = self.clockwise_from(seat)
        if not rejoin:
            others = [s for s in others if self.in_game(s)]
        if shortfall == "cup" and self.coins[seat] < n * len(others):
            paid = self.pay(seat, CUP, self.coins[seat])
            return f"cannot give everyone {n}: puts {paid} in the cup"
        given = []
        for s in others:  # clockwise from the left, until the coins run out
            if self.coins[seat] == 0:
                break
            self.pay(seat, s, n)
            given.append(s)
        return f"gives {n} to {_each(given)}" if given else "has nothing to give"

    # ------------------------------------------------------------------ turns
    def finish(self) -> bool:
        """End the game if at most one player has coins; return whether it ended."""
        remaining = self.seats_in_game()
        if len(remaining) == 1:
            # The last remaining player takes the contents of the cup and has won.
            self.winner = remaining[0]
            self.final_cup = self.cup
            self.coins[self.winner] += self.cup
            self.cup = 0
            self.outcome = WIN
        elif not remaining:
            # One card put every remaining player out at once: a draw among them.
            self.outcome = DRAW
        elif self.length >= self.rules.turn_cap:
            self.outcome = UNFINISHED
        return self.outcome >= 0

    def step(self) -> None:
        """Play one turn: a skipped turn, or draw a card and follow it."""
        seat = self.turn
        if self.skip[seat]:
            self.skip[seat] = False
            self._note(f"      seat {seat} skips this turn")
        else:
            card = self.draw()
            note = self.apply(seat, card)
            self.max_cup = max(self.max_cup, self.cup)
            if self.log is not None:  # (the line, and who leads, only for a trace)
                self._note(
                    f"{self.length:5d} seat {seat} draws {self.names[card]:<8} {note:<50} "
                    f"coins {' '.join(f'{c:3d}' for c in self.coins)}  cup {self.cup:<3d} "
                    f"{feel.leader_text(self.coins)}"
                )
            ended = self.finish()
            if self.history is not None:
                self.history.append(list(self.coins))
            if ended:
                return
        self.turn = self.left_of(seat)

    def play(self) -> dict:
        """Play to the end and return the game's record (the kernel's columns)."""
        while self.outcome < 0:
            self.step()
        self._note(self.summary())
        return self.record()

    def record(self) -> dict:
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "length": self.length,
            "coins": list(self.coins),
            "out_at": list(self.out_at),
            "reshuffles": self.reshuffles,
            "max_cup": self.max_cup,
            **self.feel(),
        }

    def feel(self) -> dict:
        """The game-feel figures (``snakesim.core.feel``) of the standings (coins) so far;
        not recorded (-1, NaN) unless the rules ask for them."""
        if self.history is None:
            return {**feel.not_recorded(), "out_share": float("nan")}
        return {**feel.figures(self.history, self.winner), "out_share": feel.out_share(self.history)}

    def summary(self) -> str:
        if self.outcome == WIN:
            return (
                f"seat {self.winner} is the last with coins: takes the cup ({self.final_cup}) and wins "
                f"after {self.length} cards with {self.coins[self.winner]} coins"
            )
        if self.outcome == DRAW:
            tied = [s for s in range(self.players) if self.out_at[s] == self.length]
            return f"draw after {self.length} cards among seats {_seats(tied)}"
        return f"{OUTCOMES[self.outcome]}: turn cap of {self.rules.turn_cap} cards reached"

    def _note(self, line: str) -> None:
        if self.log is not None:
            self.log.append(line)


def _each(seats) -> str:
    """``seat 3``, or ``each of seats 3, 0, 1``: who a card's coins go to or come from."""
    return f"seat {seats[0]}" if len(seats) == 1 else f"each of seats {_seats(seats)}"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats) or "none"


def play(
    rules: FortuneRules,
    players: int,
    seed: int,
    game: int,
    policies=None,
    trace: bool = False,
    deck: Sequence[int] | None = None,
) -> tuple[dict, list[str]]:
    """Play game ``game`` of seed ``seed`` with the reference engine.

    ``policies`` is accepted for the common signature; Fortune has no choices to make.

    Returns
    -------
    record : dict
        outcome, winner, length, coins, out_at, reshuffles, max_cup.
    log : list of str
        The trace, one line per turn (empty unless ``trace``).
    """
    g = FortuneGame(rules, players, Stream(seed, game), deck=deck, trace=trace)
    if trace:
        g._note(f"start: {players} players with {seat_text(rules.start_coins)} coins, {len(g.draw_pile)} cards")
    record = g.play()
    return record, g.log or []
