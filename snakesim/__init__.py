"""snakesim: Monte Carlo rules analysis for snake card games.

The Python API mirrors the command line::

    import snakesim
    df = snakesim.simulate("fortune", players=4, games=100_000, seed=1, variant="one-snake")
    snakesim.summarize(df)            # tidy: metric, kind, value, low, high
    snakesim.compare("fortune", players=4, games=100_000, variants=["standard", "one-snake"])
    snakesim.sweep("fortune", players=[3, 4], settings=["start_coins=10:30:10"], games=10_000)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from snakesim.core.defaults import DEFAULT_CHUNK, DEFAULT_SEED
from snakesim.core.errors import InputError
from snakesim.core.results import read_table, write_table

if TYPE_CHECKING:
    import pandas as pd


try:
    __version__ = version("snakesim")
except PackageNotFoundError:  # running from a source tree without installing
    __version__ = "0+unknown"

__all__ = [
    "InputError",
    "__version__",
    "ask",
    "balance",
    "compare",
    "design",
    "read_table",
    "simulate",
    "skill",
    "summarize",
    "sweep",
    "tune",
    "write_table",
]


def simulate(
    game: str,
    players: int,
    games: int,
    seed: int = DEFAULT_SEED,
    variant: str | None = None,
    rules_file: str | Path | None = None,
    deck_file: str | Path | None = None,
    settings: Iterable[str] = (),
    policy: str | None = None,
    policies: str | Sequence[str] | None = None,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: bool = False,
    first: int = 0,
    backend=None,
    **options,
) -> pd.DataFrame:
    """Play ``games`` games and return one row per game.

    Parameters
    ----------
    game : str
        A registered game (``snakesim.games.GAMES``), e.g. ``"fortune"``.
    players : int
        Number of seats.
    games : int
        Number of games; game ``i`` is the same game for the same seed whatever else changes.
    seed : int
        The run's seed.
    variant : str, optional
        A named variant of the game's rules (default ``"standard"``).
    rules_file : path, optional
        A TOML file of option values (and optionally ``variant = "..."``).
    deck_file : path, optional
        A TOML file of deck data only (counts, colours), as the CLI's ``--deck``.
    settings : iterable of str
        ``"name=value"`` strings, as the CLI's ``--set``.
    policy : str, optional
        One play policy for every seat (games with choices only).
    policies : str or sequence of str, optional
        One policy per seat, as a list or ``"greedy,random"``.
    threads : int, optional
        numba threads (default: all).
    chunk_size : int
        Games per kernel call (progress granularity; results do not depend on it).
    progress : bool
        Show a progress bar on stderr for long runs.
    first : int
        Index of the first game.
    backend : optional
        Where to play: ``snakesim.core.backends.DaskBackend(workers=4)`` or
        ``DaskBackend(scheduler="tcp://host:8786")`` for a Dask cluster; numba threads here
        if None. The table is the same on any backend.
    **options
        Option values, applied last (``start_coins=10``).

    Returns
    -------
    pandas.DataFrame
        The results table; run metadata in ``df.attrs``.

    Raises
    ------
    InputError
        For any unknown name or out-of-range value, before a game is played.
    """
    from snakesim.core.arms import Budget
    from snakesim.questions import run as question

    source = _source(variant, rules_file, deck_file, settings, options, policy=policy, policies=policies)
    plan = question.ask(game, players, Budget(games, seed, first, chunk_size), source)
    return question.games(plan, threads=threads, progress=progress, backend=backend)


def summarize(df: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Summarise one results table as a tidy DataFrame.

    One row per metric (win rate per seat, draws, unfinished games, first-player advantage,
    length, winning margin, Kaplan-Meier median and 95th percentile of the length, seat
    balance, largest seat gap): ``metric, kind, value, low, high`` (intervals at ``level``).
    The table must carry its run metadata (``simulate`` and ``read_table`` keep it).
    """
    from snakesim.analysis.compare import compare_tables
    from snakesim.games import get_game

    if "game" not in df.attrs:
        raise InputError("table", "it has no run metadata (attrs['game']); use a table from simulate or read_table")
    table = compare_tables(get_game(df.attrs["game"]), {df.attrs.get("variant", "run"): df}, level)
    return table[["metric", "label", "kind", "value", "low", "high"]]


def compare(
    game: str,
    players: int,
    games: int,
    variants: Sequence[str] = ("standard",),
    seed: int = DEFAULT_SEED,
    rules_file: str | Path | None = None,
    deck_file: str | Path | None = None,
    settings: Iterable[str] = (),
    policy: str | None = None,
    policies: str | Sequence[str] | None = None,
    threads: int | None = None,
    progress: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
    backend=None,
    precise: Sequence[str] = ("rates",),
    matters: str | Sequence[str] | None = None,
    **options,
) -> pd.DataFrame:
    """Compare variants of a game on the same games (common random numbers).

    Every variant plays games ``0 .. games-1`` of ``seed``; the first variant is the
    baseline. ``settings``, files, policies and ``options`` apply to every variant. With
    ``precision``, blocks of ``games`` more games are added until every row ``precise`` names
    (``rates``, ``differences``, ``length``) has an anytime-valid interval of at most that
    half-width (or ``max_games`` is reached); ``attrs["stopping"]`` says which and holds
    those intervals. ``matters`` is the smallest differences that matter, as ``--matters``
    takes them (``"length=3%,lead_changes=0.25"``); each difference's verdict is against it.
    ``backend`` is as in :func:`simulate` (one cluster serves every variant).

    Returns
    -------
    pandas.DataFrame
        The tidy comparison of :func:`snakesim.analysis.compare.compare_tables`: one row per
        variant and metric, with intervals, paired differences, p-values and Holm-adjusted
        p-values.
    """
    from snakesim.core.arms import Budget
    from snakesim.questions import compare as question

    budget = Budget(games, seed, precision=precision, max_games=max_games)
    shared = _source(None, rules_file, deck_file, settings, options, policy=policy, policies=policies)
    plan = question.ask(game, players, variants, budget, shared, matters=matters, precise=precise)
    return question.play(plan, threads=threads, progress=progress, backend=backend).table


def _source(variant, rules_file, deck_file, settings, options, *, policy=None, policies=None):
    """Where the rules come from, from the API's keyword arguments."""
    from snakesim.core.arms import RuleSource

    return RuleSource(variant, rules_file, deck_file, tuple(settings), options, policy=policy, policies=policies)


def _kept(catalogue: str | Path | bool | None):
    """The catalogue a search takes kept games from and keeps its own in: the file named, the
    command line's own (``True``: ``$SNAKESIM_HOME``'s, else the user data folder's), or none.
    The answer is the same with or without it: game i of seed s is always the same game."""
    if catalogue is None or catalogue is False:
        return None
    from snakesim.questions.catalogue import Catalogue

    return Catalogue(None if catalogue is True else catalogue, field="catalogue")


def balance(
    game: str,
    players: int,
    handicap: str,
    tolerance: float = 0.01,
    value_range: str | None = None,
    games: int = 20_000,
    max_games: int = 320_000,
    confirm_games: int | None = None,
    seed: int = DEFAULT_SEED,
    variant: str | None = None,
    rules_file: str | Path | None = None,
    deck_file: str | Path | None = None,
    settings: Iterable[str] = (),
    policy: str | None = None,
    policies: str | Sequence[str] | None = None,
    backend=None,
    progress: bool = False,
    novices: float | None = None,
    catalogue: str | Path | bool | None = None,
    **options,
):
    """Find the per-seat values of ``handicap`` that give every seat the same chance to win.

    As ``snakesim balance``: the rules are built as in :func:`simulate`; the search plays the
    same games for every candidate and confirms its answer on fresh games, and with
    ``novices=0.3`` on those games again with every seat making mistakes at that rate.
    ``catalogue`` (a path, or True for the command line's own) takes the games earlier
    searches kept there and keeps this one's.

    Returns
    -------
    snakesim.analysis.balance.BalanceResult
        ``values`` (one per seat), ``status``, ``message``, and two tidy DataFrames: ``path``
        (every candidate tried, each seat's win rate) and ``confirmed`` (each seat's win rate
        and interval before and after, on fresh games); ``summary`` is the ``--json`` object.

    Examples
    --------
    >>> fix = snakesim.balance("rainbow", players=4, handicap="hand_size")  # doctest: +SKIP
    >>> fix.values, fix.confirmed                                            # doctest: +SKIP
    """
    from snakesim.core.arms import Budget
    from snakesim.questions import balance as question

    source = _source(variant, rules_file, deck_file, settings, options, policy=policy, policies=policies)
    budget = Budget(games, seed, max_games=max_games, confirm_games=confirm_games)
    plan = question.ask(game, players, handicap, budget, source, tolerance=tolerance, value_range=value_range,
                        novices=novices)  # fmt: skip
    return question.play(plan, backend=backend, progress=progress, kept=_kept(catalogue)).result


def tune(
    game: str,
    players: int,
    target: str,
    vary: str,
    games: int = 20_000,
    max_games: int = 320_000,
    confirm_games: int | None = None,
    seed: int = DEFAULT_SEED,
    variant: str | None = None,
    rules_file: str | Path | None = None,
    deck_file: str | Path | None = None,
    settings: Iterable[str] = (),
    policy: str | None = None,
    policies: str | Sequence[str] | None = None,
    backend=None,
    progress: bool = False,
    matters: str | Sequence[str] | None = None,
    catalogue: str | Path | bool | None = None,
    **options,
):
    """Find the value of one integer option that brings a summary metric to a target.

    As ``snakesim tune``: ``target`` is ``"METRIC=VALUE"`` (``"length.median=60"``), ``vary``
    is ``"NAME=LOW:HIGH"`` (``"start_coins=5:40"``), ``matters`` what matters around the target
    as ``--matters`` takes it (``"length=2%"``), which the findings judge the answer by.
    ``catalogue`` (a path, or True for the command line's own) takes the games earlier
    searches kept there and keeps this one's.

    Returns
    -------
    snakesim.analysis.tune.TuneResult
        ``best`` (the integer nearest the target), ``status``, ``message``, and two tidy
        DataFrames: ``path`` (every value played, the metric and its interval) and ``answer``
        (the best value and its neighbours, and the best on fresh games); ``summary`` is the
        ``--json`` object.
    """
    from snakesim.core.arms import Budget
    from snakesim.questions import tune as question

    source = _source(variant, rules_file, deck_file, settings, options, policy=policy, policies=policies)
    budget = Budget(games, seed, max_games=max_games, confirm_games=confirm_games)
    plan = question.ask(game, players, target, vary, budget, source=source, matters=matters)
    return question.play(plan, backend=backend, progress=progress, kept=_kept(catalogue)).result


def design(
    game: str,
    players: int,
    vary: str | Sequence[str],
    targets: str | Sequence[str],
    prefer: str | None = None,
    games: int = 2_000,
    budget: int = 2_000_000,
    confirm_games: int | None = None,
    seed: int = DEFAULT_SEED,
    variant: str | None = None,
    rules_file: str | Path | None = None,
    deck_file: str | Path | None = None,
    settings: Iterable[str] = (),
    policy: str | None = None,
    policies: str | Sequence[str] | None = None,
    matters: str | Sequence[str] | None = None,
    backend=None,
    progress: bool = False,
    catalogue: str | Path | bool | None = None,
    **options,
):
    """Find the rule sets that meet every target at once.

    As ``snakesim design``: ``vary`` is one or more ``"NAME=LOW:HIGH"`` or ``"NAME=A,B,..."``
    (``"variant=standard,rejoin"`` too), ``targets`` one or more ``"FIGURE<=V"``,
    ``"FIGURE>=V"`` or ``"FIGURE=V+-T"``; ``games`` is each rule set's first round and
    ``budget`` the most games in all (docs/design.md). ``catalogue`` (a path, or True for the
    command line's own) takes the games earlier searches kept there and keeps this one's.

    Returns
    -------
    snakesim.analysis.design.DesignResult
        ``summary`` (the ``--json`` object: ``answers``, ``nearest``, ``pareto``, ``search``)
        and ``table`` (a tidy DataFrame, one row per rule set played).

    Examples
    --------
    >>> found = snakesim.design("fortune", 4, vary=["start_coins=8:20", "snakes=1:2"],
    ...                         targets=["length.median=60+-8", "out_share.mean<=0.22"])  # doctest: +SKIP
    >>> [a["label"] for a in found.summary["answers"]]                                   # doctest: +SKIP
    """
    from snakesim.core.arms import Budget
    from snakesim.questions import design as question

    source = _source(variant, rules_file, deck_file, settings, options, policy=policy, policies=policies)
    plan = question.ask(game, players, vary, targets, Budget(games, seed, max_games=budget,
                        confirm_games=confirm_games), source=source, prefer=prefer, matters=matters)  # fmt: skip
    return question.play(plan, backend=backend, progress=progress, kept=_kept(catalogue)).result


def skill(
    game: str,
    players: int | Sequence[int] = (2, 3, 4),
    games: int = 4_000,
    playouts: int = 64,
    novice: float = 0.3,
    seed: int = DEFAULT_SEED,
    variant: str | None = None,
    rules_file: str | Path | None = None,
    deck_file: str | Path | None = None,
    settings: Iterable[str] = (),
    backend=None,
    progress: bool = False,
    matters: str | Sequence[str] | None = None,
    **options,
):
    """Is the game luck or skill? As ``snakesim skill``: one odd player (greedy among random
    players; a novice, an expert and an oracle among greedy ones) at each seat in turn, on the
    same games for every line-up. ``matters`` (as ``--matters``) is the edge that counts as one.

    Returns
    -------
    snakesim.analysis.skill.SkillResult
        ``table`` (each line-up's win rate and edge over a field player, with intervals),
        ``shares`` (per player count: the skill share with its interval and the verdict in
        words) and ``summary`` (the ``--json`` object).

    Examples
    --------
    >>> snakesim.skill("rainbow", players=4).shares  # doctest: +SKIP
    """
    from snakesim.core.arms import Budget
    from snakesim.questions import skill as question

    counts = [players] if isinstance(players, int) else list(players)
    plan = question.ask(game, counts, Budget(games, seed), [_source(variant, rules_file, deck_file, settings, options)],
                        playouts=playouts, novice=novice, matters=matters)  # fmt: skip
    return next(iter(question.play(plan, backend=backend, progress=progress).results.values()))


def sweep(
    game: str,
    players: int | Sequence[int],
    settings: Iterable[str],
    games: int,
    seed: int = DEFAULT_SEED,
    variant: str | None = None,
    policy: str | None = None,
    threads: int | None = None,
    backend=None,
    progress: bool = False,
    matters: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Every figure at every point of a grid, as ``snakesim sweep``.

    ``settings`` are ``--set`` texts: ``NAME=VALUE`` fixed, ``NAME=LOW:HIGH:STEP`` or
    ``NAME=A,B,...`` swept; every point plays ``games`` games of ``seed`` from ``variant`` (any
    arm text) with ``policy`` in every seat, for each player count.

    Returns
    -------
    pandas.DataFrame
        One row per point and figure (``players``, one column per swept option, ``rules_hash``,
        ``metric``, ``label``, ``value``, ``low``, ``high``); ``attrs`` holds the run's metadata
        and ``attrs["findings"]`` the findings in words along the first swept option (judged
        against ``matters``, as ``--matters`` takes it).

    Examples
    --------
    >>> grid = snakesim.sweep("fortune", [3, 4], ["start_coins=10:30:10"], games=10_000)  # doctest: +SKIP
    """
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.questions import sweep as question

    counts = [players] if isinstance(players, int) else list(players)
    plan = question.ask(game, counts, settings, Budget(games, seed), RuleSource(variant, policy=policy),
                        matters=matters)  # fmt: skip
    answer = question.play(plan, threads=threads, progress=progress, backend=backend)
    answer.table.attrs["findings"] = answer.findings
    return answer.table


def ask(
    kind: str,
    game: str,
    players: int,
    games: int | None = None,
    seed: int = DEFAULT_SEED,
    variant: str | None = None,
    settings: Iterable[str] = (),
    policy: str | None = None,
    backend=None,
    progress: bool = False,
    **fields,
):
    """Ask a kind of question that describes itself (``snakesim.questions.described``) by its
    ``kind``: ``games`` games (by default 1,000) of ``seed`` with ``players`` players, the rules from ``variant``
    (any arm text) and ``settings``, ``policy`` in every seat, and the kind's own ``fields``.

    Returns
    -------
    The kind's answer: its ``findings`` in words, and its table by the kind's ``rows``.
    """
    from snakesim.core.arms import Budget, RuleSource
    from snakesim.questions import DESCRIBED_GAMES, described

    games = DESCRIBED_GAMES if games is None else games
    kinds = described()
    if kind not in kinds:
        raise InputError("kind", f"expected one of {', '.join(kinds) or 'none (no kind describes itself yet)'}, "
                         f"got {kind!r}")  # fmt: skip
    question = kinds[kind]
    source = RuleSource(variant, settings=tuple(settings), policy=policy)
    plan = question.ask(game, players, Budget(games, seed), source=source, **fields)
    return question.play(plan, backend=backend, progress=progress)
