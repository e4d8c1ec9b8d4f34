"""Hisss, played card by card in plain Python: the readable reference engine.

Read it beside the seed texts (000, 002, 003) and docs/games/hisss.md. The numba
kernel (``kernel.py``) plays the identical game for the same (rules, policies, seed, game):
the same placements are listed in the same order, and every choice draws one number.

A snake on the table has two ends. An end is open (showing a colour, or any colour for a lone
rainbow head or tail) or closed by a head or a tail. A drawn card is placed where it fits:

- EXTEND: a middle section on an open end of its colour, turned as needed;
- CAP: a head (tail) on an open end of its colour, if the snake has a middle section and no
  head (tail) yet; the rainbow head or tail fits any such end;
- JOIN: a middle section between open ends of two snakes, one colour on each, unless the
  joined snake would have two heads or two tails.

A card that fits nowhere starts a snake of its own. A snake with a head, a tail and a middle
section is complete, and the player who completed it takes it.

Order of the placement list (both engines): extensions by snake, end, then the middle's
first-colour side before its second; caps by snake, end; joins by first snake, second snake,
first end, second end. Snakes are kept in a list: a new snake goes last, a snake taken away
is replaced by the last one, and a joined snake takes the first one's place.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

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
    ORACLE,
    POLICIES,
    RANDOM,
    SHORT,
    TAIL,
    WILD,
    WIN,
    HisssRules,
    card_kind,
    card_name,
)

MOVE_WORDS = {EXTEND: "extends a snake", CAP: "closes a snake", JOIN: "joins two snakes"}


@dataclass
class Snake:
    """A snake on the table: its ends, its size, and its cards in order for the trace."""

    ends: list[int]  # [left, right]: a colour 0..5, WILD, HEAD or TAIL
    length: int
    middles: int
    cards: list[str] = field(default_factory=list)

    def closed_by(self, cap: int) -> bool:
        return cap in self.ends

    def complete(self) -> bool:
        return sorted(self.ends) == [HEAD, TAIL] and self.middles >= 1

    def draw(self) -> str:
        """The snake as a row of cards, open ends shown as ``<R`` and ``R>``."""
        left = f"<{_end(self.ends[0])} " if self.ends[0] < HEAD else ""
        right = f" {_end(self.ends[1])}>" if self.ends[1] < HEAD else ""
        return left + " ".join(self.cards) + right


class Placement(NamedTuple):
    kind: int  # EXTEND, CAP or JOIN
    snake: int
    end: int
    other: int = -1  # JOIN: the second snake
    other_end: int = -1  # JOIN: its end
    new_end: int = -1  # EXTEND: the colour the end shows afterwards; CAP: HEAD or TAIL


class HisssGame:
    """The state of one Hisss game, and the moves that change it.

    Parameters
    ----------
    rules : HisssRules
    players : int
    policies : sequence
        Each seat's policy: a code (position in ``POLICIES``) or a row of
        ``snakesim.core.policies.policy_table``.
    stream : Stream
        The game's random stream.
    deck : sequence of int, optional
        A scripted deck (card types, top first) used instead of the shuffle. The first card is
        turned up as the first snake; the players draw the rest in turn from seat 0.
    trace : bool
        Keep a readable record of every turn in ``self.log``.
    """

    def __init__(
        self, rules: HisssRules, players: int, policies: Sequence[int], stream: Stream, deck=None, trace=False
    ):
        self.rules = rules
        self.fit = rules.fit_table().tolist()
        self.players = players
        self.policies = [[int(v) for v in row] for row in policy_table(policies, players, GREEDY)]
        self.stream = stream
        self.look = Stream(stream.seed, stream.game, lane=LOOKAHEAD_LANE)  # the look-ahead's playouts
        self.fan = [int(c) for c in (rules.deck_cards() if deck is None else deck)]
        if deck is None:
            stream.keyed_shuffle(self.fan)  # coupled across decks: see snakesim.core.rng
        self.next_card = 0
        self.snakes: list[Snake] = []
        self.cards = [0] * players  # cards taken
        self.taken = [0] * players  # snakes taken
        self.longest = [0] * players  # longest snake taken
        self.completed = 0
        self.turns = 0
        self.log: list[str] | None = [] if trace else None
        # One card is turned up as the first snake.
        self.lay_alone(self.draw())
        self._note(f"first snake: {card_name(self.fan[0])}")

    def fits(self, end: int, colour: int) -> bool:
        """Does an end accept a card side of ``colour``? Only open ends accept anything: the
        same colour, a rainbow side or end, and whatever ``ring_reach`` and ``wild_colours`` add."""
        return bool(self.fit[end][colour])

    def draw(self) -> int:
        card = self.fan[self.next_card]
        self.next_card += 1
        return card

    # ------------------------------------------------------------------ where a card fits
    def placements(self, card: int) -> list[Placement]:
        """Every legal placement of ``card``, in the order both engines list them."""
        a, b = self.rules.colours_of(card)
        out = []
        if card_kind(card) == KIND_MIDDLE:
            for s, snake in enumerate(self.snakes):
                for e in (0, 1):
                    for attach, show in ((a, b), (b, a)) if a != b else ((a, b),):
                        if self.fits(snake.ends[e], attach):
                            out.append(Placement(EXTEND, s, e, new_end=show))
            for s1, first in enumerate(self.snakes):
                for s2 in range(s1 + 1, len(self.snakes)):
                    second = self.snakes[s2]
                    for e1 in (0, 1):
                        for e2 in (0, 1):
                            end1, end2 = first.ends[e1], second.ends[e2]
                            if not (
                                (self.fits(end1, a) and self.fits(end2, b))
                                or (self.fits(end1, b) and self.fits(end2, a))
                            ):
                                continue
                            outer = {first.ends[1 - e1], second.ends[1 - e2]}
                            if first.ends[1 - e1] == second.ends[1 - e2] and outer <= {HEAD, TAIL}:
                                continue  # two heads or two tails
                            out.append(Placement(JOIN, s1, e1, s2, e2))
        else:
            cap = HEAD if card_kind(card) == KIND_HEAD else TAIL
            for s, snake in enumerate(self.snakes):
                if snake.middles >= 1 and not snake.closed_by(cap):
                    for e in (0, 1):
                        if self.fits(snake.ends[e], a):
                            out.append(Placement(CAP, s, e, new_end=cap))
        return out

    def result_of(self, card: int, p: Placement) -> tuple[bool, int]:
        """(whether the placing player takes the snake, the placed-on snake's new length)."""
        if p.kind == JOIN:
            first, second = self.snakes[p.snake], self.snakes[p.other]
            ends = sorted([first.ends[1 - p.end], second.ends[1 - p.other_end]])
            takes = self.rules.claim_joined or ends == [HEAD, TAIL]
            return takes, first.length + second.length + 1
        snake = self.snakes[p.snake]
        other = snake.ends[1 - p.end]
        takes = p.kind == CAP and other in (HEAD, TAIL) and other != p.new_end
        return takes, snake.length + 1

    # ------------------------------------------------------------------ choosing
    def choose(self, seat: int, card: int, options: list[Placement]) -> Placement:
        """The placement ``seat`` makes from the non-empty ``options``: one random draw, after
        the draw of a mistake rate (``py_acting``) if the seat has one."""
        if py_acting(self.stream, self.policies, seat) == RANDOM:
            return options[self.stream.below(len(options))]
        return self.greedy(card, options)

    def greedy(self, card: int, options: list[Placement]) -> Placement:
        """Greedy's pick from the non-empty ``options`` (one random draw)."""
        # Greedy: take the biggest snake you can; else join (the longest result); else extend
        # the snake that becomes longest. Ties are broken uniformly by the stream.
        scores = []
        for p in options:
            takes, size = self.result_of(card, p)
            category = 2 if takes else 1 if p.kind == JOIN else 0
            scores.append((category, size))
        best = [p for p, s in zip(options, scores, strict=True) if s == max(scores)]
        return best[self.stream.below(len(best))]

    # ------------------------------------------------------------------ moves
    def lay_alone(self, card: int) -> None:
        """Start a new snake with ``card``."""
        a, b = self.rules.colours_of(card)
        kind = card_kind(card)
        if kind == KIND_MIDDLE:
            self.snakes.append(Snake([a, b], 1, 1, [card_name(card)]))
        else:
            cap = HEAD if kind == KIND_HEAD else TAIL
            self.snakes.append(Snake([cap, a], 1, 0, [card_name(card)]))

    def place(self, card: int, p: Placement) -> int:
        """Make placement ``p``; return the index of the snake it changed."""
        if p.kind == JOIN:
            first, second = self.snakes[p.snake], self.snakes[p.other]
            a, b = self.rules.colours_of(card)
            # Orient both so the joined ends meet in the middle: first ... card ... second.
            left = first.cards if p.end == 1 else _reversed(first.cards)
            right = second.cards if p.other_end == 0 else _reversed(second.cards)
            if not (self.fits(first.ends[p.end], a) and self.fits(second.ends[p.other_end], b)):
                a, b = b, a
            joined = Snake(
                [first.ends[1 - p.end], second.ends[1 - p.other_end]],
                first.length + second.length + 1,
                first.middles + second.middles + 1,
                [*left, f"{SHORT[a]}-{SHORT[b]}", *right],
            )
            self.snakes[p.snake] = joined
            self.remove(p.other)
            return p.snake
        snake = self.snakes[p.snake]
        a, b = self.rules.colours_of(card)
        if p.kind == EXTEND:
            attach = b if p.new_end == a and a != b else a
            name = f"{SHORT[attach]}-{SHORT[p.new_end]}"
            snake.middles += 1
        else:
            name = card_name(card)
        snake.ends[p.end] = p.new_end
        snake.length += 1
        if p.end == 0:
            snake.cards.insert(0, _flip(name))
        else:
            snake.cards.append(name)
        return p.snake

    def remove(self, s: int) -> None:
        """Take snake ``s`` off the table; the last snake moves into its place."""
        self.snakes[s] = self.snakes[-1]
        self.snakes.pop()

    def look_ahead(self, seat: int, card: int, options: list[Placement]) -> Placement:
        """The placement an ``expert`` (or ``oracle``) seat makes: flat Monte Carlo.

        It starts from greedy's placement (one draw from the game's stream). Then, K times
        (the seat's playouts), the rest of the fan, face down and so unseen, is sorted and
        shuffled with the look-ahead's own stream (the oracle keeps its true order). From
        that one order, each placement is made and the game played out by greedy players: a
        win scores 2, a draw the seat shares 1. A placement replaces greedy's only if it beats
        it beyond the noise (``beats_greedy``): the one with the largest gain, the first listed
        on a tie.
        """
        g = options.index(self.greedy(card, options))
        if len(options) == 1:
            return options[g]
        playouts = self.policies[seat][PLAYOUTS]
        gain, squares = [0] * len(options), [0] * len(options)
        for _ in range(playouts):
            rest = self.fan[self.next_card :]
            if self.policies[seat][CODE] != ORACLE:
                rest.sort()  # the seat knows which cards are left, not their order
                self.look.shuffle(rest)
            got = []
            for p in options:
                game = self.imagine(rest)
                game.settle(seat, card, p)
                who = seat
                while game.next_card < len(game.fan):
                    who = (who + 1) % self.players
                    game.step(who)
                ranks = game.ranks()
                if ranks.count(max(ranks)) == 1:
                    got.append(2 * (ranks[seat] == max(ranks)))
                else:
                    got.append(int(ranks[seat] == max(ranks)))
            for j in range(len(options)):
                gain[j] += got[j] - got[g]
                squares[j] += (got[j] - got[g]) ** 2
        best = g
        for j in range(len(options)):
            if gain[j] > gain[best] and beats_greedy(gain[j], squares[j], playouts):
                best = j
        return options[best]

    def imagine(self, rest: list[int]) -> HisssGame:
        """A copy of the game to think with, the fan's unseen part replaced by ``rest``: greedy
        players, the look-ahead's stream, no log."""
        game = copy.copy(self)
        game.fan = self.fan[: self.next_card] + rest
        game.snakes = [Snake(list(s.ends), s.length, s.middles, list(s.cards)) for s in self.snakes]
        game.cards, game.taken, game.longest = list(self.cards), list(self.taken), list(self.longest)
        game.stream = self.look
        game.policies = [[GREEDY, 0, 0] for _ in range(self.players)]
        game.log = None
        return game

    def ranks(self) -> list[tuple[int, int]]:
        """Each seat's (points, tie-break value): the highest wins."""
        seats = zip(self.cards, self.taken, self.longest, self.rules.starts(self.players), strict=True)
        return [self.rules.rank(*taken) for taken in seats]

    def step(self, seat: int) -> None:
        """``seat`` draws a card from the fan and places it."""
        self.turns += 1
        card = self.draw()
        options = self.placements(card)
        if not options:
            self.lay_alone(card)
            self._note(f"{self.turns:4d} seat {seat} draws {card_name(card)}: fits nowhere, starts a snake", True)
            return
        if self.policies[seat][CODE] in (EXPERT, ORACLE):
            p = self.look_ahead(seat, card, options)
        else:
            p = self.choose(seat, card, options)
        self.settle(seat, card, p)

    def settle(self, seat: int, card: int, p: Placement) -> None:
        """``seat`` makes placement ``p`` of ``card`` and takes the snake if it may."""
        takes, _ = self.result_of(card, p)
        s = self.place(card, p)
        note = f"{self.turns:4d} seat {seat} draws {card_name(card)}: {MOVE_WORDS[p.kind]}"
        if takes:
            snake = self.snakes[s]
            self.completed += snake.complete()
            self.cards[seat] += snake.length
            self.taken[seat] += 1
            self.longest[seat] = max(self.longest[seat], snake.length)
            note += f" and takes it ({snake.length} cards: {snake.draw()})"
            self.remove(s)
        self._note(note, True)

    def scores(self) -> list[int]:
        """Each seat's points (``points_per_card``, ``points_per_snake``, ``points_per_longest``)."""
        seats = zip(self.cards, self.taken, self.longest, self.rules.starts(self.players), strict=True)
        return [self.rules.points(*taken) for taken in seats]

    def play_game(self) -> dict:
        """Play until the fan is empty; return the game's record (the kernel's columns)."""
        seat = 0
        history = [self.scores()]  # the standings after the first card and each turn: feel and trace
        while self.next_card < len(self.fan):
            self.step(seat)
            history.append(self.scores())
            if self.log is not None:
                self._note(feel.trace_line("points", history[-1], history[-1]))
            seat = (seat + 1) % self.players
        ranks = self.ranks()
        leaders = [s for s in range(self.players) if ranks[s] == max(ranks)]  # points, then the tie-break
        outcome, winner = (WIN, leaders[0]) if len(leaders) == 1 else (DRAW, -1)
        self._note(
            f"end: cards taken {self.cards}, snakes taken {self.taken}, longest {self.longest}; "
            + (f"seat {winner} wins" if outcome == WIN else f"a draw between seats {leaders}")
        )
        return {
            "outcome": outcome,
            "winner": winner,
            "length": self.turns,
            "cards": list(self.cards),
            "snakes": list(self.taken),
            "longest": list(self.longest),
            "completed": self.completed,
            "table_cards": sum(s.length for s in self.snakes),
            "table_snakes": len(self.snakes),
            **(feel.figures(history, winner) if self.rules.feel else feel.not_recorded()),
        }

    def _note(self, line: str, table: bool = False) -> None:
        if self.log is not None:
            self.log.append(line)
            if table:
                self.log.extend(f"        {s.draw()}" for s in self.snakes)


def _end(end: int) -> str:
    return "*" if end == WILD else SHORT[end]


def _flip(name: str) -> str:
    """A card written right-to-left: ``R-O`` becomes ``O-R``; heads and tails stay."""
    return f"{name[2]}-{name[0]}" if name[1] == "-" else name


def _reversed(cards: list[str]) -> list[str]:
    return [_flip(c) for c in reversed(cards)]


def play(
    rules: HisssRules,
    players: int,
    seed: int,
    game: int,
    policies: Sequence[int] | None = None,
    trace: bool = False,
    deck: Sequence[int] | None = None,
) -> tuple[dict, list[str]]:
    """Play game ``game`` of seed ``seed`` with the reference engine.

    Returns
    -------
    record : dict
        outcome, winner, length (turns), cards, snakes, longest (per seat), completed,
        table_cards, table_snakes.
    log : list of str
        The trace: each turn, then every snake on the table as a row of cards.
    """
    policies = policy_table(policies, players, GREEDY)
    g = HisssGame(rules, players, policies, Stream(seed, game), deck=deck, trace=trace)
    if trace:
        g.log.insert(0, "policies: " + describe_seats(policies, POLICIES))
    record = g.play_game()
    return record, g.log or []
