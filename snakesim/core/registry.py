"""What the core needs to know about a game, and the registry of games by name.

Each game package (``snakesim/games/NAME``) builds one :class:`GameSpec` in its
``__init__.py``; ``snakesim.games`` collects them. The core (runner, results, statistics,
CLI) reads only the spec, so a new game needs no change outside its own folder and the one
line that registers it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from snakesim.core.errors import InputError
from snakesim.core.rules import Rules


@dataclass(frozen=True)
class GameSpec:
    """A game as the core sees it.

    Attributes
    ----------
    name : str
        The name used on the command line.
    title : str
        A one-line description.
    rules : type of Rules
        The game's rules class (with its ``VARIANTS``).
    min_players, max_players : int
        The allowed number of seats.
    outcomes : tuple of str
        Labels of the outcome codes the engines return (code = position).
    seat_columns : tuple of str
        Per-seat results; column ``NAME_k`` holds seat ``k``'s value.
    game_columns : tuple of str
        Further per-game results, one integer each.
    columns : tuple
        The kernel's column declaration ``(name, dtype, per_seat)`` (``snakesim.core.columns``),
        from which a table's size per game is known before any game is played.
    play_block : callable
        ``(rules, players, seed, first, count, policies=None) -> dict of arrays``: the numba
        kernel's front; ``policies`` is the per-seat code array.
    play_reference : callable
        ``(rules, players, seed, game, policies=None, trace=False) -> (record, log)``: the
        reference engine.
    length_unit : str
        What ``length`` counts, for summaries ("cards drawn").
    policies : tuple of str
        Names of the play policies (code = position); empty for a game without choices.
    default_policy : str or None
        The policy of a seat that is given none.
    check_setup : callable or None
        ``(rules, players) -> None``: raises InputError when the rules cannot seat that many
        players (a deal larger than the deck, say).
    score : (str, int) or None
        The per-seat column that scores a game and its sign (+1: more is better), for the
        winning margin in comparisons.
    exact : callable or None
        ``(rules, players, max_states, policies=None) -> markov.Solution``: the exact solution
        for small configurations (outcome labels ``("win", seat)`` and ``"draw"``; ``policies``
        the per-seat codes), where the game has one.
    standing_unit : str
        What a seat's standing counts, for the game-feel figures (``snakesim.core.feel``):
        the unit of the winner's largest deficit ("coins", "cards in hand", "points").
    tie_break : bool
        Whether the rules can choose a winner among seats level on standing (a tie-break),
        so that "won on the tie-break" is worth reporting.
    score_of : callable or None
        ``(options, table, players) -> (label, values)``: what a rule set scores, when that
        depends on the rules (Hisss: cards, snakes or points), from the run's options (its
        table's ``attrs["options"]``); ``values`` is ``(games, players)``, higher better.
        None: the ``score`` column.
    outcome_words : tuple of (str, str)
        What each outcome other than a plain win means, in a few words, for the line under a
        run's table (``("stock draw", "the stock ran out with ... tied")``): a designer could
        not tell "joined" or "blocked win" apart from the rows' names alone.
    out_column : str or None
        The per-seat column holding the step at which a seat was knocked out (-1: never),
        in a game where players go out: its figure shows when they go, not end scores.
    """

    name: str
    title: str
    rules: type[Rules]
    min_players: int
    max_players: int
    outcomes: tuple[str, ...]
    seat_columns: tuple[str, ...]
    game_columns: tuple[str, ...]
    columns: tuple
    play_block: Callable
    play_reference: Callable
    length_unit: str = "turns"
    policies: tuple[str, ...] = ()
    default_policy: str | None = None
    check_setup: Callable | None = None
    exact: Callable | None = None
    score: tuple[str, int] | None = None
    standing_unit: str = "points"
    tie_break: bool = False
    score_of: Callable | None = None
    out_column: str | None = None
    outcome_words: tuple[tuple[str, str], ...] = ()

    def scores(self, table, players: int):
        """What each seat scored in each game of ``table``, higher better, and its name:
        ``(label, values)`` with ``values`` of shape ``(games, players)``; None without a score."""
        if self.score_of is not None and "options" in table.attrs:
            return self.score_of(table.attrs["options"], table, players)
        if self.score is None:
            return None
        column, sign = self.score
        # (named by what a standing counts, "cards in hand"; by the column when the rules could
        # score something else and the table does not say which rules played it)
        label = self.standing_unit if self.score_of is None else column
        return label, sign * table[[f"{column}_{s}" for s in range(players)]].to_numpy()

    def check_players(self, players: int) -> int:
        """Return ``players`` if this game allows it, else raise InputError."""
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not (self.min_players <= players <= self.max_players)
        ):
            raise InputError(
                "players",
                f"expected an integer from {self.min_players} to {self.max_players}, got {players!r}",
            )
        return players

    def check(self, rules: Rules, players: int) -> None:
        """Raise InputError unless ``players`` seats can play under ``rules``."""
        self.check_players(players)
        for name in rules.per_seat_options():
            value = getattr(rules, name)
            if isinstance(value, tuple) and len(value) != players:
                raise InputError(
                    name, f"expected one value per seat ({players} values), or one value for all; got {len(value)}"
                )
        if self.check_setup is not None:
            self.check_setup(rules, players)


def lookup(games: dict[str, GameSpec], name: str) -> GameSpec:
    """The spec of the game called ``name``, or InputError listing the known games."""
    try:
        return games[name]
    except KeyError:
        raise InputError("game", f"unknown game {name!r}; expected one of {', '.join(games)}") from None
