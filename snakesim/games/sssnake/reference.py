"""Sssnake, played turn by turn in plain Python: the readable reference engine.

Read it beside seed 001 and docs/games/sssnake.md; the grid model and its names are in
``rules.py``. The numba kernel (``kernel.py``) plays the identical game for the same (rules,
policies, seed, game): options are listed in the same order and every decision draws exactly
one number from the game's stream.

A seat's :class:`Board` holds the cells its snake occupies (the large card's, and one per part
card) and the free paths of its crosses and double curves, plus the snake's two open ends.
An end that points into a free path passes through it at once, and that path is then used.

**Cards missing** is the length of the shortest way from the head's end to the tail's end
through empty cells (each costs one card) and free paths (no cost): a breadth-first search
over the cells of the used area plus a one-cell margin. The margin is enough on the unbounded
grid: clamping a path's cells into the box that is one cell larger than the used area keeps
every step a step (or a pause) and lands only on empty margin cells, so it never gets longer.
A placement is legal only if the search still finds a way, or if it joins head and tail.

Order of options (both engines): for each card (in the order drawn), the head's end then the
tail's, then the directions the card can send the end in increasing order (N, E, S, W).
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Sequence
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
from snakesim.core.rules import seat_values
from snakesim.games.sssnake.rules import (
    CARD_KEYS,
    DICE_LANE,
    DOUBLE,
    DX,
    DY,
    EXPERT,
    GREEDY,
    JOINED,
    ORACLE,
    POLICIES,
    RANDOM,
    SIDES,
    STOCK_DRAW,
    STOCK_WIN,
    STRAIGHT,
    SssnakeRules,
    exits,
    free_path,
)

INF = 1 << 30  # cards missing when head and tail can no longer be joined
BLOCK = -1  # the large snake card's cells
HEAD, TAIL = 0, 1
END_NAMES = ("head", "tail")


class Option(NamedTuple):
    """A legal placement: which end, which way the card sends it, cards missing afterwards."""

    end: int
    exit: int
    missing: int
    card: int = 0  # index of the card among those being placed


def goal_of(end: tuple[int, int, int]) -> tuple[int, int, int]:
    """The end state that meets ``end``: pointing into its last cell, moving the other way."""
    x, y, d = end
    return x - DX[d], y - DY[d], (d + 2) % 4


class Board:
    """One seat's snake on its own grid.

    Attributes
    ----------
    cells : dict
        ``(x, y) -> (card, paths)`` for every occupied cell: the card code (BLOCK for the large
        card) and the edge pairs printed on it (for drawing).
    free : dict
        ``(x, y) -> (edge, edge)``: the free path of a cross or double curve, until used.
    ends : list
        The head's and the tail's open ends, ``(x, y, d)``.
    box : list
        ``[x0, x1, y0, y1]``: the smallest box holding every occupied cell.
    """

    def __init__(self, rules: SssnakeRules):
        self.cells: dict[tuple[int, int], tuple[int, list]] = {}
        for x in range(rules.block_width):
            for y in range(rules.block_height):
                self.cells[(x, y)] = (BLOCK, [])
        self.free: dict[tuple[int, int], tuple[int, int]] = {}
        self.ends = [rules.head_end(), rules.tail_end()]
        self.marks = {(rules.head_x, rules.head_y): "H", (rules.tail_x, rules.tail_y): "T"}
        self.box = [0, rules.block_width - 1, 0, rules.block_height - 1]
        self.placed = 0

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.cells = dict(self.cells)
        other.free = dict(self.free)
        other.ends = list(self.ends)
        other.marks = self.marks
        other.box = list(self.box)
        other.placed = self.placed
        return other

    # ------------------------------------------------------------------ paths
    def follow(self, x: int, y: int, d: int, use: bool) -> tuple[int, int, int]:
        """Pass through free paths from the state ``(x, y, d)``; with ``use``, they become used."""
        while (x, y) in self.free and (d + 2) % 4 in self.free[(x, y)]:
            a, b = self.free[(x, y)]
            f = b if a == (d + 2) % 4 else a
            if use:
                del self.free[(x, y)]
            x, y, d = x + DX[f], y + DY[f], f
        return x, y, d

    def joined(self) -> bool:
        return self.ends[HEAD] == goal_of(self.ends[TAIL])

    def missing(self) -> int:
        """Cards missing: the fewest empty cells on a way from head to tail (INF if none)."""
        if self.joined():
            return 0
        x, y, _ = self.ends[HEAD]
        if (x, y) in self.cells:
            return INF  # the head points into the snake itself
        goal = goal_of(self.ends[TAIL])
        x0, x1, y0, y1 = self.box[0] - 1, self.box[1] + 1, self.box[2] - 1, self.box[3] + 1
        # A breadth-first search over empty cells; a cell's distance counts the cards the way
        # needs up to and including it. Any way out of an empty cell can be printed on a card.
        dist = {(x, y): 1}
        queue = deque([(x, y)])
        while queue:
            cx, cy = queue.popleft()
            k = dist[(cx, cy)]
            for f in range(4):
                nx, ny, d = cx + DX[f], cy + DY[f], f
                if (nx, ny) in self.free:
                    nx, ny, d = self.follow(nx, ny, d, use=False)
                if (nx, ny, d) == goal:
                    return k
                cell = (nx, ny)
                if cell in self.cells or cell in dist or not (x0 <= nx <= x1 and y0 <= ny <= y1):
                    continue
                dist[cell] = k + 1
                queue.append(cell)
        return INF

    # ------------------------------------------------------------------ placing
    def place(self, card: int, end: int, f: int) -> None:
        """Put ``card`` on the cell ``end`` points into, sending that end in direction ``f``."""
        x, y, d = self.ends[end]
        free = free_path(card, d, f)
        self.cells[(x, y)] = (card, [((d + 2) % 4, f)] + ([free] if free else []))
        if free:
            self.free[(x, y)] = free
        self.box = [min(self.box[0], x), max(self.box[1], x), min(self.box[2], y), max(self.box[3], y)]
        self.placed += 1
        self.ends[end] = self.follow(x + DX[f], y + DY[f], f, use=True)
        # The other end may point into the same cell: through its free path, or now blocked.
        ox, oy, od = self.ends[1 - end]
        if (ox, oy) == (x, y):
            self.ends[1 - end] = self.follow(ox, oy, od, use=True)

    def options(self, card: int) -> list[Option]:
        """Every legal placement of ``card``, with the cards missing after each."""
        out = []
        for end in (HEAD, TAIL):
            x, y, d = self.ends[end]
            if (x, y) in self.cells:
                continue
            for f in exits(card, d):
                trial = self.copy()
                trial.place(card, end, f)
                missing = trial.missing()
                if missing < INF:
                    out.append(Option(end, f, missing))
        return out

    # ------------------------------------------------------------------ drawing
    def draw(self) -> list[str]:
        """The snake as text, three characters square per cell: ``#`` the large card with its
        head ``H`` and tail ``T``; ``|``, ``-``, ``+`` (curve or cross), ``/`` and ``\\`` (double
        curves) the part cards; ``h`` and ``t`` the cells the open ends point into."""
        x0, x1, y0, y1 = self.box[0] - 1, self.box[1] + 1, self.box[2] - 1, self.box[3] + 1
        targets = {}
        for end, letter in ((HEAD, "h"), (TAIL, "t")):
            cell = self.ends[end][:2]
            targets[cell] = "*" if cell in targets else letter
        rows = []
        for y in range(y0, y1 + 1):
            lines = ["", "", ""]
            for x in range(x0, x1 + 1):
                block = _draw_cell(self.cells.get((x, y)), self.marks.get((x, y)), targets.get((x, y)))
                for r in range(3):
                    lines[r] += block[r]
            rows.extend(lines)
        return rows


def _draw_cell(cell, mark, target) -> list[str]:
    if cell is None:
        return ["   ", f" {target or '.'} ", "   "]
    card, paths = cell
    if card == BLOCK:
        return ["###", f"#{mark or '#'}#", "###"]
    g = [[" "] * 3 for _ in range(3)]
    spots = {0: (0, 1, "|"), 1: (1, 2, "-"), 2: (2, 1, "|"), 3: (1, 0, "-")}
    for a, b in paths:
        for e in (a, b):
            r, c, ch = spots[e]
            g[r][c] = ch
    if card == DOUBLE:
        centre = "/" if {0, 3} in [set(p) for p in paths] else "\\"
    elif card == STRAIGHT:
        centre = "|" if paths[0][0] % 2 == 0 else "-"
    else:
        centre = "+"
    g[1][1] = centre
    return ["".join(r) for r in g]


class SssnakeGame:
    """The state of one Sssnake game, and the turns that change it.

    Parameters
    ----------
    rules : SssnakeRules
    players : int
    policies : sequence
        Each seat's policy: a code (position in ``POLICIES``) or a row of
        ``snakesim.core.policies.policy_table``.
    stream : Stream
        The game's random stream.
    deck : sequence of int, optional
        A scripted stock (card codes, top first) used instead of the shuffle.
    trace : bool
        Keep a readable record of every turn in ``self.log``.
    """

    def __init__(
        self, rules: SssnakeRules, players: int, policies: Sequence[int], stream: Stream, deck=None, trace=False
    ):
        self.rules = rules
        self.players = players
        self.policies = [[int(v) for v in row] for row in policy_table(policies, players, GREEDY)]
        self.stream = stream
        self.faces = [int(f) for f in rules.die_faces()]
        self.actions = rules.action_list()
        self.stock = [int(c) for c in (rules.deck_cards() if deck is None else deck)]
        if deck is None:
            stream.keyed_shuffle(self.stock)  # coupled across decks: see snakesim.core.rng
        # The die rolls from a stream of its own, so a changed decision never shifts them.
        self.dice = Stream(stream.seed, stream.game, lane=DICE_LANE)
        self.next_card = 0
        self.boards = [Board(rules) for _ in range(players)]
        self.spite = [0] * players  # cards put on each seat's snake by a neighbour (a giver mark)
        self.discarded = 0
        self.winner = -1
        self.turns = 0
        self.log: list[str] | None = [] if trace else None
        # The look-ahead policies (see look_ahead): their stream, the turn being played as it
        # stood before its roll, its roll, and the decisions made in it so far.
        self.look = Stream(stream.seed, stream.game, lane=LOOKAHEAD_LANE)
        self.thinks = any(row[CODE] in (EXPERT, ORACLE) for row in self.policies)
        self.start: SssnakeGame | None = None
        self.roll = -1  # the next turn's roll when it is imagined (else the die's)
        self.made: list[int] = []
        self.script: list[int] = []  # the next turn's first decisions when it is imagined
        self.replay: list[int] = []

    def decide(self, chooser: int, count: int, own) -> int:
        """The index ``chooser`` picks among ``count`` options: the script's while an imagined
        turn replays it; else ``own()``, its policy's pick, which an ``expert`` or ``oracle``
        seat in a turn (not its head start) then puts to its look-ahead. Each is noted in
        ``made``."""
        if len(self.made) < len(self.replay):
            choice = self.replay[len(self.made)]
        else:
            choice = own()
            if self.policies[chooser][CODE] in (EXPERT, ORACLE) and self.start is not None and count > 1:
                choice = self.look_ahead(chooser, count, choice)
        self.made.append(choice)
        return choice

    def simple_policy(self, chooser: int) -> int:
        """The policy ``chooser`` decides by now, mistakes included; look-ahead seats decide
        what they do not look ahead for as greedy does."""
        code = py_acting(self.stream, self.policies, chooser)
        return GREEDY if code in (EXPERT, ORACLE) else code

    def look_ahead(self, seat: int, count: int, g: int) -> int:
        """The option an ``expert`` (or ``oracle``) seat takes among ``count``, greedy's being
        ``g``: flat Monte Carlo.

        K times (the seat's playouts), the cards not yet drawn, face down and so unseen, are
        sorted and shuffled with the look-ahead's own stream (the oracle keeps their order).
        From that one stock, for each option, the turn is imagined again from before its roll:
        the same roll, the same cards drawn, the decisions made so far, then this option; the
        rest of the turn and the game are played by greedy players, the later rolls drawn from
        the look-ahead's stream: a win scores 2, a draw the seat shares 1. An option replaces
        greedy's only if it beats it beyond the noise (``beats_greedy``): the one with the
        largest gain, the first listed on a tie.
        """
        playouts = self.policies[seat][PLAYOUTS]
        gain, squares = [0] * count, [0] * count
        for _ in range(playouts):
            rest = self.stock[self.next_card :]
            if self.policies[seat][CODE] != ORACLE:
                rest.sort()  # the seat knows which cards are left, not their order
                self.look.shuffle(rest)
            got = []
            for option in range(count):
                game = self.start.imagine(self.stock[: self.next_card] + rest, [*self.made, option], self.turn_roll)
                got.append(game.play_out(self.turn_seat)[seat])
            for j in range(count):
                gain[j] += got[j] - got[g]
                squares[j] += (got[j] - got[g]) ** 2
        best = g
        for j in range(count):
            if gain[j] > gain[best] and beats_greedy(gain[j], squares[j], playouts):
                best = j
        return best

    def imagine(self, stock: list[int], script: list[int], roll: int) -> SssnakeGame:
        """This game (as it stood before a turn) to think with: ``stock`` for its stock, the
        turn's ``roll`` and the decisions in ``script`` replayed first, greedy players, the
        look-ahead's stream for every draw, no log."""
        game = copy.copy(self)
        game.boards = [b.copy() for b in self.boards]
        game.spite = list(self.spite)
        game.stock = stock
        game.stream = game.dice = self.look
        game.policies = [[GREEDY, 0, 0] for _ in range(self.players)]
        game.thinks = False
        game.start = None
        game.script = script
        game.roll = roll
        game.log = None
        return game

    def play_out(self, seat: int) -> list[int]:
        """Play an imagined game from ``seat``'s turn to the end; each seat's score (2 a win,
        1 a share of a draw)."""
        while self.winner < 0 and self.next_card < len(self.stock):
            self.turn(seat)
            seat = (seat + 1) % self.players
        if self.winner >= 0:
            return [2 * (s == self.winner) for s in range(self.players)]
        missing = [b.missing() for b in self.boards]
        fewest = [s for s in range(self.players) if missing[s] == min(missing)]
        return [(2 if len(fewest) == 1 else 1) * (s in fewest) for s in range(self.players)]

    def pick(self, keys: list[int]) -> int:
        """The index of the smallest key; ties uniform (one draw)."""
        low = min(keys)
        tied = [i for i, k in enumerate(keys) if k == low]
        return tied[self.stream.below(len(tied))]

    def place_cards(self, chooser: int, owner: int, cards: list[int]) -> list[int]:
        """``chooser`` puts ``cards`` on ``owner``'s snake one at a time, in the order it prefers.

        Returns the cards that fit nowhere (once none of the rest fits) for the caller to
        handle; none once the snake is joined, which ends the game.
        Own snake: greedy and friendly take the fewest cards missing. A neighbour's snake:
        greedy takes the most, friendly the fewest. Random: uniform over every legal option.
        """
        board = self.boards[owner]
        cards = list(cards)
        while cards:
            options = [o._replace(card=j) for j, c in enumerate(cards) for o in board.options(c)]
            if not options:
                if self.log is not None:
                    names = " ".join(CARD_KEYS[c] for c in cards)
                    self.log.append(f"       {names} fits nowhere on seat {owner}'s snake")
                return cards

            def own(options=options):
                policy = self.simple_policy(chooser)
                if policy == RANDOM:
                    return self.stream.below(len(options))
                sign = -1 if policy == GREEDY and owner != chooser else 1
                return self.pick([sign * o.missing for o in options])

            choice = options[self.decide(chooser, len(options), own)]
            card = cards.pop(choice.card)
            board.place(card, choice.end, choice.exit)
            if self.log is not None:
                whose = "its own" if owner == chooser else f"seat {owner}'s"
                self.log.append(
                    f"       seat {chooser} puts {CARD_KEYS[card]} on {whose} {END_NAMES[choice.end]}, "
                    f"heading {SIDES[choice.exit]}: {choice.missing} missing"
                )
            if board.joined():
                self.winner = owner
                return []
        return cards

    def best_missing(self, seat: int, card: int) -> int:
        """The fewest cards missing ``seat`` can reach by placing ``card`` (INF if it fits nowhere)."""
        return min((o.missing for o in self.boards[seat].options(card)), default=INF)

    def choose_gift(self, seat: int, neighbour: int, cards: list[int]) -> int:
        """Which drawn card ``seat`` gives away (one draw).

        Greedy and friendly give the card that helps themselves least (the most cards missing
        after its best placement); among those, greedy gives the one that helps the neighbour
        least, friendly the one that helps the neighbour most. Random: uniform.
        """

        def own():
            policy = self.simple_policy(seat)
            if policy == RANDOM:
                return self.stream.below(len(cards))
            mine = [-self.best_missing(seat, c) for c in cards]
            tied = [i for i, k in enumerate(mine) if k == min(mine)]
            if len(tied) > 1:
                sign = -1 if policy == GREEDY else 1
                theirs = [sign * self.best_missing(neighbour, cards[i]) for i in tied]
                tied = [i for i, k in zip(tied, theirs, strict=True) if k == min(theirs)]
            return tied[self.stream.below(len(tied))]

        return self.decide(seat, len(cards), own)

    def turn(self, seat: int) -> None:
        """``seat`` rolls the die, draws, and does what the mark says (docs/games/sssnake.md)."""
        if self.thinks:  # the turn as it stands before its roll, for a look-ahead to imagine
            self.start = None
            self.start = copy.copy(self)
            self.start.boards = [b.copy() for b in self.boards]
            self.start.spite = list(self.spite)
        self.turn_seat = seat
        self.made = []
        self.replay, self.script = self.script, []  # an imagined turn's script serves it alone
        self.turns += 1
        self.turn_roll = self.roll if self.roll >= 0 else self.dice.below(len(self.faces))
        self.roll = -1
        mark, action = self.actions[self.faces[self.turn_roll]]
        target = (seat + (1 if action["to"] == "left" else -1)) % self.players
        drawn = self.stock[self.next_card : self.next_card + action["draw"]]
        self.next_card += len(drawn)
        self._note(f"{self.turns:4d} seat {seat} rolls {mark}, draws {' '.join(CARD_KEYS[c] for c in drawn)}")
        if action["placer"] == "giver":
            # The cards go onto the neighbour's snake; those that fit nowhere onto one's own; else out.
            before = self.boards[target].placed
            rest = self.place_cards(seat, target, drawn)
            self.spite[target] += self.boards[target].placed - before
            if rest and self.winner < 0:
                self.discarded += len(self.place_cards(seat, seat, rest))
            return
        gifts = []
        for _ in range(min(action["give"], len(drawn) - 1)):  # the roller keeps at least one
            gifts.append(drawn.pop(self.choose_gift(seat, target, drawn)))
            self._note(f"       seat {seat} will give {CARD_KEYS[gifts[-1]]} to seat {target}")
        self.discarded += len(self.place_cards(seat, seat, drawn))
        if self.winner >= 0 or not gifts:
            return
        # The neighbour must place the gifts; those it cannot place come back; else they are out.
        rest = self.place_cards(target, target, gifts)
        if rest:
            self.discarded += len(self.place_cards(seat, seat, rest))

    def head_start(self) -> None:
        """Before the first roll each seat, in seat order, draws its ``head_start`` cards and
        places them on its own snake; those that fit nowhere are out. A head start that joins
        the snake wins at once."""
        for seat, count in enumerate(seat_values(self.rules.head_start, self.players)):
            drawn = self.stock[self.next_card : self.next_card + count]
            if not drawn:
                continue
            self.next_card += len(drawn)
            self._note(f"   0 seat {seat} takes a head start: {' '.join(CARD_KEYS[c] for c in drawn)}")
            self.discarded += len(self.place_cards(seat, seat, drawn))
            if self.winner >= 0:
                return

    def play_game(self) -> dict:
        """Play until a snake is joined or the stock is used up; return the game's record."""
        seat = 0
        self.head_start()
        self._draw_boards()
        # Each seat's standing (minus the cards missing) after the head starts and each turn,
        # for the feel figures: a search per seat a turn, so only when they are asked for.
        history = [self.standings()] if self.rules.feel else None
        while self.winner < 0 and self.next_card < len(self.stock):
            self.turn(seat)
            self._draw_boards()
            if history is not None:
                history.append(self.standings())
            if self.winner >= 0:
                break
            seat = (seat + 1) % self.players
        missing = [b.missing() for b in self.boards]
        if self.winner >= 0:
            outcome, winner = JOINED, self.winner
            self._note(f"end: seat {winner} joins head and tail")
        else:
            fewest = [s for s in range(self.players) if missing[s] == min(missing)]
            outcome, winner = (STOCK_WIN, fewest[0]) if len(fewest) == 1 else (STOCK_DRAW, -1)
            self._note(
                f"end: the stock is used up; cards missing {missing}: "
                + (f"seat {winner} wins" if outcome == STOCK_WIN else f"a draw between seats {fewest}")
            )
        return {
            "outcome": outcome,
            "winner": winner,
            "length": self.turns,
            "placed": [b.placed for b in self.boards],
            "missing": missing,
            "spite": list(self.spite),
            "discarded": self.discarded,
            "stock_left": len(self.stock) - self.next_card,
            # Cards drawn in the turn that joined a snake, not needed any more.
            "unused": self.next_card - sum(b.placed for b in self.boards) - self.discarded,
            **(feel.figures(history, winner) if history is not None else feel.not_recorded()),
        }

    def standings(self) -> list[int]:
        """What the game ranks the seats by, higher is better: minus the cards missing."""
        return [-b.missing() for b in self.boards]

    def _note(self, line: str) -> None:
        if self.log is not None:
            self.log.append(line)

    def _draw_boards(self) -> None:
        """Every seat's grid, side by side, under a line naming the seat."""
        if self.log is None:
            return
        columns = []
        missing = [-v for v in self.standings()]  # (one search a board, for the heads and the last line)
        for s, board in enumerate(self.boards):
            rows = board.draw()
            head = f"seat {s}: {missing[s]} missing"
            width = max(len(head), len(rows[0]))
            columns.append([head.ljust(width)] + [r.ljust(width) for r in rows])
        height = max(len(c) for c in columns)
        for c in columns:
            c.extend([" " * len(c[0])] * (height - len(c)))
        self.log.extend(("       " + "   ".join(parts)).rstrip() for parts in zip(*columns, strict=True))
        self.log.append(feel.trace_line("cards missing", missing, [-v for v in missing]))


def play(
    rules: SssnakeRules,
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
        outcome, winner, length (turns), placed, missing, spite (per seat), discarded,
        stock_left, unused.
    log : list of str
        The trace: each turn's roll, draws and placements, then every seat's grid.
    """
    policies = policy_table(policies, players, GREEDY)
    g = SssnakeGame(rules, players, policies, Stream(seed, game), deck=deck, trace=trace)
    if trace:
        g.log.insert(0, "policies: " + describe_seats(policies, POLICIES))
    record = g.play_game()
    return record, g.log or []
