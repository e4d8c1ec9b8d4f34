"""The comparison, asked once: rule sets side by side on the same games.

The command line (``snakesim compare``), the API (``snakesim.compare``), a study's
``[[compare]]`` section and the workbench's comparison panel each turn what they were given into
one :class:`Plan` (:func:`ask` checks it, with one error text for every door), play it
(:func:`play`) and show a view of its :class:`Answer`: :func:`summary` is what ``--json``
prints. The same question from any door is the same plan, with the same :meth:`Plan.key`.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from snakesim.analysis.compare import check_budget, check_precise, compare_variants
from snakesim.analysis.stats import LEVEL
from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE, UNDECIDED, Margin, settle_plan
from snakesim.analysis.words import (
    ALPHA,
    SAME,
    decimals,
    fixed,
    handicaps,
    listed,
    number,
    p_text,
    percent,
    points,
    rate_ci,
    seat_player,
    seat_players,
    seat_sentence,
    seat_whose,
    signed,
)
from snakesim.core.arms import Arm, Budget, RuleSource, build_arms
from snakesim.core.figures import figure
from snakesim.core.registry import GameSpec
from snakesim.questions.base import Matters, Question, budget_json, identity, margins, margins_json, spec_of
from snakesim.questions.claims import claim
from snakesim.questions.rows import tidy

if TYPE_CHECKING:
    import pandas as pd

KIND = "compare"


@dataclass(frozen=True)
class Plan(Question):
    """Every input a comparison's answer depends on, checked (build one with :func:`ask`).

    ``arms`` are the rule sets, the first the baseline, each with its label, rules and players
    (:class:`snakesim.core.arms.Arm`); every arm plays the ``budget``'s games. ``matters`` are
    the smallest differences that matter by figure (the registry's for the others), sorted by
    figure; ``precise`` the rows a run with ``budget.precision`` watches.
    """

    players: int
    arms: tuple[Arm, ...]
    budget: Budget
    matters: Matters = ()
    precise: tuple[str, ...] = ("rates",)

    @property
    def margins(self) -> dict[str, Margin]:
        """What matters by figure id, as the analyses take it."""
        return dict(self.matters)

    def key(self) -> str:
        """The question's identity: 16 hex digits of SHA-256 of its canonical JSON (each rule
        set by its label, its complete rules' hash and its players, not by the variant it was
        built from), equal for the same question from any door and on every machine."""
        return identity(KIND, game=self.game, players=self.players, budget=budget_json(self.budget),
                        arms=[[a.label, a.rules.rules_hash(), list(a.seats)] for a in self.arms],
                        matters=margins_json(self.matters), precise=list(self.precise))  # fmt: skip

    def games_key(self) -> str | None:
        """The identity of the games it plays, whatever their number and whatever matters: a
        kept answer of the same games, fewer of them, is extended by playing only the rest
        (None for a run that stops by precision: its games are not fixed ahead)."""
        if self.budget.precision is not None:
            return None
        budget = {k: v for k, v in budget_json(self.budget).items() if k not in ("games", "max_games", "confirm_games")}
        return identity(KIND + ".games", game=self.game, players=self.players, budget=budget,
                        arms=[[a.label, a.rules.rules_hash(), list(a.seats)] for a in self.arms])  # fmt: skip


def ask(
    game: str | GameSpec,
    players: int,
    arms: Iterable[str | Mapping[str, Any] | Arm],
    budget: Budget,
    shared: RuleSource = RuleSource(),
    *,
    matters: Mapping[str, Margin] | str | Sequence[str] | None = None,
    precise: Sequence[str] = ("rates",),
    where: str = "--variant",
) -> Plan:
    """A comparison's plan, checked completely before any game is played.

    ``arms`` as :func:`snakesim.core.arms.build_arms` takes them (variant names, rules files,
    ``LABEL=BASE,NAME=VALUE,...`` texts, arm tables, or arms already built); ``shared`` applies
    to every arm after its own rules; ``matters`` is margins by figure or ``--matters`` texts.
    InputError naming the field otherwise (``where``: how this door names the arms).
    """
    spec = spec_of(game)
    built = tuple(build_arms(spec, players, budget, arms, shared, where=where))
    check_budget(budget)
    precise = check_precise(precise)
    if budget.precision is None:  # (the rows are watched only then: not part of the question otherwise)
        precise = ("rates",)
    return Plan(spec.name, players, built, budget, matters=margins(matters), precise=precise)


@dataclass(frozen=True)
class Answer:
    """A played comparison: the tidy ``table`` (one row per rule set and figure, with its
    interval, paired difference and verdict), each rule set's per-game ``tables``, the games
    each played (more than asked when it stopped by precision), the findings in words, and how
    to ``settle`` what is undecided (None when nothing is)."""

    plan: Plan
    table: pd.DataFrame = field(repr=False)
    tables: dict[str, pd.DataFrame] = field(repr=False)
    games: int
    findings: list[dict]
    settle: dict | None
    tally: dict | None = field(default=None, repr=False)  # (its games' exact tally; None with precision)
    kept_games: int = 0  # (the first games, kept in the catalogue, this answer did not play again)

    @property
    def stopping(self) -> dict | None:
        """With ``budget.precision``: the anytime-valid stopping's games, widths and intervals."""
        return self.table.attrs.get("stopping")


def play(plan: Plan, *, backend=None, threads: int | None = None, progress: bool = False) -> Answer:
    """Play every rule set of ``plan`` on the same games and compare them."""
    spec = plan.spec
    table, tables, tally = compare_variants(spec, plan.players, plan.arms, plan.budget, threads=threads,
                                            progress=progress, backend=backend, precise=plan.precise,
                                            matters=plan.margins, with_tally=True)  # fmt: skip
    stopping = table.attrs.get("stopping")
    games = stopping["games"] if stopping else plan.budget.games
    findings = compare_findings(table, spec, plan.players, games)
    return Answer(plan, table, tables, games=games, findings=findings, settle=settle_plan(table, games),
                  tally=None if stopping else tally)  # fmt: skip


def extend(plan: Plan, kept: dict, kept_games: int, *, backend=None, threads: int | None = None,
           progress: bool = False) -> Answer:  # fmt: skip
    """The answer of ``plan`` from the exact tally of its first ``kept_games`` games (``kept``:
    a kept answer's, of the same games, :meth:`Plan.games_key`): only games ``kept_games`` to
    ``games - 1`` are played, and the rows are those a run of every game gives, bit for bit
    (``snakesim.analysis.tallies``). Its ``tables`` hold only the games played now."""
    from dataclasses import replace

    from snakesim.analysis.compare import compare_tally
    from snakesim.analysis.tallies import merge

    spec, budget = plan.spec, plan.budget
    rest = replace(budget, games=budget.games - kept_games, first=budget.first + kept_games)
    part, tables, tally = compare_variants(spec, plan.players, plan.arms, rest, threads=threads, progress=progress,
                                           backend=backend, matters=plan.margins, with_tally=True)  # fmt: skip
    tally = merge(kept, tally)
    table = compare_tally(spec, tally, matters=plan.margins)
    table.attrs["runs"] = {name: {**attrs, "games": budget.games, "first": budget.first}
                           for name, attrs in part.attrs["runs"].items()}  # fmt: skip
    findings = compare_findings(table, spec, plan.players, budget.games)
    return Answer(plan, table, tables, games=budget.games, findings=findings, settle=settle_plan(table, budget.games),
                  tally=tally, kept_games=kept_games)  # fmt: skip


def summary(answer: Answer, again: Sequence[str] | None = None) -> dict:
    """What ``snakesim compare --json`` prints: the question, each rule set's options, rules
    hash and players, the findings, how to settle what is undecided and every row. With
    ``again`` (the command line that asks this question), ``settle`` carries the command that
    settles it."""
    plan, runs = answer.plan, answer.table.attrs["runs"]
    out = {"game": plan.game, "players": plan.players, "games": plan.budget.games, "seed": plan.budget.seed,
           "variants": list(runs)}  # fmt: skip
    out["options"] = {name: run["options"] for name, run in runs.items()}
    out["rules_hash"] = {name: run["rules_hash"] for name, run in runs.items()}
    out["policies"] = {name: run["policies"] for name, run in runs.items()}  # (by seat; empty: no choices)
    out["level"] = LEVEL  # (the values' intervals; each difference's is its row's diff_level)
    if answer.stopping:
        out.update(games=answer.games, stopping=answer.stopping)
    settle = None if answer.settle is None else dict(answer.settle)
    if settle is not None and again is not None:
        settle["command"] = settle_command(settle, again, answer.games)
    out.update(findings=answer.findings, settle=settle, rows=answer.table.to_dict(orient="records"))
    return out


def settle_command(settle: dict, again: Sequence[str], games: int) -> str:
    """The command line that settles what a comparison left undecided: ``again`` (the command
    that asks it) with the games, or the anytime-valid precision, that :func:`settle_plan` says."""
    if settle["precision"] is not None:
        more = ["-n", str(games), "--precision", f"{settle['precision']:g}", "--precise", "differences",
                "--max-games", str(settle["max_games"])]  # fmt: skip
    else:
        more = ["-n", str(settle["games"])]
    return shlex.join([*again, *more])


def rows(answer: Answer) -> pd.DataFrame:
    """A study's ``summary.csv`` rows (:mod:`snakesim.questions.rows`): each rule set's figures
    with their intervals, and each one's paired difference from the first with its verdict."""
    table = answer.table
    out = table.drop(columns="kind").rename(columns={"variant": "rules"})
    out = out.assign(rules_hash=out["rules"].map(table.attrs["rules_hash"]), players=answer.plan.players,
                     games=answer.games)  # fmt: skip
    return tidy(KIND, out)


# ---------------------------------------------------------------------------- in words
# A fair share of the games somebody won, in words, by the number of seats.
SHARE_WORDS = {2: "half", 3: "a third", 4: "a quarter", 5: "a fifth", 6: "a sixth", 7: "a seventh", 8: "an eighth"}


def constant_metrics(table: pd.DataFrame) -> dict[str, float]:
    """The per-game figures whose value is the same in every game of every arm: ``{row: value}``."""
    out = {}
    for metric, rows in table[table["kind"].isin(["rate", "mean"])].groupby("metric", sort=False):
        if metric == "seat_gap":  # (it describes each arm on its own: never said once)
            continue
        if rows["kind"].iloc[0] == "rate":  # (never or always: its interval still has a width)
            values = rows["value"].to_numpy(dtype=float)
            constant = np.ptp(values) < SAME and min(values[0], 1 - values[0]) < SAME
        else:
            values = rows[["value", "low", "high"]].to_numpy(dtype=float)
            constant = np.isfinite(values).all() and np.ptp(values) < SAME
        if constant:
            out[metric] = float(values.flat[0])
    return out


def hidden_metrics(table: pd.DataFrame, seats: Mapping[str, Sequence[str]] | None = None) -> set[str]:
    """The rows a comparison's table leaves out, said once in words instead: the per-game
    metrics that never vary (:func:`constant_metrics`), the length quantiles that are the
    same number in every arm, every length row where each arm's games all last as long as
    each other (:func:`constant_lengths`), and the first-player advantage where a rule set's
    seats hold different players (``seats``: each arm's policy by seat, by default the
    table's own)."""
    out = set(constant_metrics(table))
    for metric, rows in table[table["kind"] == "quantile"].groupby("metric"):
        values = rows[["value", "low", "high"]].to_numpy(dtype=float)
        if np.isfinite(values).all() and np.ptp(values) < SAME:
            out.add(metric)
    if constant_lengths(table):
        out |= {m for m in table["metric"].unique() if figure(m).unit == "length"}
    if any(mixed(s) for s in lineups(table, seats).values()):
        out.add("first_player_advantage")
    return out


def lineups(table: pd.DataFrame, seats: Mapping[str, Sequence[str]] | None = None) -> dict[str, tuple[str, ...]]:
    """Each arm's policy by seat: ``seats`` where given, else the comparison's own
    (``attrs["seats"]``); empty for an arm whose players are not known."""
    seats = seats if seats is not None else table.attrs.get("seats") or {}
    return {arm: tuple(seats.get(arm, ())) for arm in dict.fromkeys(table["variant"])}


def constant_lengths(table: pd.DataFrame) -> dict[str, float]:
    """Each arm's game length, where every game of each arm lasts as long as the others of
    that arm (Hisss deals every card: 49 turns, 50 with one more card): ``{arm: length}``;
    empty where any arm's lengths vary."""
    rows = table[table["metric"] == "length"]
    values = rows[["value", "low", "high"]].to_numpy(dtype=float)
    if rows.empty or not np.isfinite(values).all() or (np.ptp(values, axis=1) >= SAME).any():
        return {}
    return dict(zip(rows["variant"], values[:, 0].tolist(), strict=True))


def mixed(seats: Sequence[str] | None) -> bool:
    """Whether a line-up's seats hold different kinds of player."""
    return bool(seats) and len(set(seats)) > 1


def seat_name(seat: int, seats: Sequence[str] | None, apart: Mapping[int, str] | None = None) -> str:
    """Seat 1 as a family says it: ``the second player``, or ``the second player (random)``
    where the seats hold different players (a player by its kind: ``expert``, not
    ``expert:64``; a greedy player who errs, ``novice``), with what a handicap gives it
    (``apart``, :func:`handicaps`): ``the third player (start_coins 14, the others 10)``."""
    said = _notes(seat, seats, apart)
    return seat_player(seat) + (f" ({said})" if said else "")


def _notes(seat: int, seats: Sequence[str] | None, apart: Mapping[int, str] | None) -> str:
    """What sets a seat apart, in words: its player where the seats hold different ones, its handicap."""
    said = [player_word(seats[seat])] if mixed(seats) else []
    said += [apart[seat]] if apart and seat in apart else []
    return "; ".join(said)


def player_word(policy: str) -> str:
    """A seat's player as a sentence names it: its kind without its settings (``expert:64`` ->
    ``expert``), a greedy player with a mistake rate a ``novice``."""
    name, _, setting = policy.partition(":")
    return "novice" if name == "greedy" and setting else name


def lineup_text(seats: Sequence[str]) -> str:
    """A line-up in seat order: ``random, greedy, greedy``."""
    return ", ".join(seats)


def diff_places(r, scale: float = 1) -> int:
    """Decimals for a row's difference and its interval (``scale`` 100: in points): as many as
    the interval's width needs, and more while an end would round onto 0 or onto what matters
    (``margin``), or the estimate onto 0, without being on it. The same shown interval,
    [+0.4, +3.0] against 3 points that matter, was "negligible" in one comparison and
    "undecided" in another (2.98 and 3.05); a drop of 0.4 points showed as "+0"."""
    places = decimals(scale * (r["diff_high"] - r["diff_low"]))
    margin = r.get("margin", float("nan"))
    marks = [0.0] + ([scale * margin, -scale * margin] if margin == margin else [])
    near = [(scale * r["diff_low"], marks), (scale * r["diff_high"], marks), (scale * r["diff"], [0.0])]
    # (the estimate too, against 0: a drop of 0.4 points showed as "+0")
    while places < 4 and any(round(e, places) == round(m, places) and abs(e - m) > 1e-9 for e, ms in near for m in ms):
        places += 1
    return places


def row_text(r, alpha: float = ALPHA) -> tuple[str, str]:
    """A comparison row as ``(value [interval], difference)`` in its unit: rates and shares of a
    game in percent, their differences in percentage points, each with the decimals its
    interval needs; the difference with its level, Holm p-value (never 0), test and pairing."""
    if r["kind"] == "test":
        return p_text(r["value"]), ""
    f = figure(r["metric"])
    share = f.percent
    if r["low"] != r["low"]:  # (NaN: no interval)
        value = number(r["value"], 2)
    elif f.unit == "points":  # (a difference of rates: in points, as balance prints it)
        places = points(r["low"], r["high"])
        value = (
            f"{fixed(100 * r['value'], places)} pp [{fixed(100 * r['low'], places)}, {fixed(100 * r['high'], places)}]"
        )
    elif share:
        places = points(r["low"], r["high"])
        value = rate_ci(r["value"], (r["low"], r["high"]), places)
    else:
        finite = [r[k] for k in ("value", "low", "high") if math.isfinite(r[k])]
        whole = all(abs(x - round(x)) < SAME for x in finite)  # (a length quantile)
        places = 0 if whole or len(finite) < 3 else decimals(r["high"] - r["low"])
        show = lambda x: number(x, places) if math.isfinite(x) else "not reached"  # noqa: E731  (a quantile)
        value = f"{show(r['value'])} [{show(r['low'])}, {show(r['high'])}]" if len(finite) > 1 else show(r["value"])
    if r["diff"] != r["diff"]:
        return value, ""
    scale, unit = (100, " pp") if share else (1, "")
    places = diff_places(r, scale)
    d, lo, hi = (scale * r[k] for k in ("diff", "diff_low", "diff_high"))
    diff = (
        f"diff {fixed(d, places, True)}{unit} [{fixed(lo, places, True)}, {fixed(hi, places, True)}] "
        f"at {100 * r['diff_level']:.4g}%"
        f"  p(Holm) {p_text(r['p_holm'])}{' *' if r['p_holm'] < alpha else ''}"
    )
    if r["test"] == "exact McNemar":
        diff += " (exact)"
    if r["pairing_ratio"] == r["pairing_ratio"]:
        diff += f"  pairing x{r['pairing_ratio']:.2f}"
    if r.get("verdict") in (MATTERS, NEGLIGIBLE, UNDECIDED):
        diff += f"  {r['verdict']}"
    return value, diff


def constant_sentence(row: str, value: float, spec: GameSpec, players: int, arms: int, label: str = "",
                      unit: str = "", games: int = 0, bound: float = float("nan")) -> str:  # fmt: skip
    """A figure that never varies (row ``row``, words ``label``, counted in ``unit``: the row's
    unit, what the rules score for the margin), said once. A rate seen never (or always) in
    ``games`` games a rule set is said of these games, with ``bound``, the furthest its 95%
    interval reaches: zero events are no rule ("no game ends in a draw" from 100,000 games
    that had none, while a longer run has one)."""
    every = " under every rule set compared" if arms > 1 else ""
    game = spec.name.capitalize()
    f = figure(row)
    if f.unit == "length":
        return f"Every {players}-player {game} game lasts {number(value, 0)} {spec.length_unit}{every}."
    if f.id == "unfinished":
        return ""  # (no game reaching the turn cap is the usual case, not worth a sentence)
    if f.id == "margin":
        return f"The winner always ends {number(value, 0)} {unit} ahead of the next seat{every}."
    if f.kind == "rate" and value in (0, 1):
        seen = (f"the {games:,} {players}-player {game} games each rule set played" if arms > 1
                else f"these {games:,} {players}-player {game} games")  # fmt: skip
        of = "won games" if f.counted is not None else "games"
        gap = min(bound, 1 - bound)  # (how far the interval reaches from never, or from always)
        sure = f"{'at most' if value == 0 else 'at least'} {percent(bound, max(1, points(0.0, gap)))}"
        if f.id == "draw":
            what = "None of" if value == 0 else "Every one of"
            return f"{what} {seen} ended in a draw" + (f": draws are {sure} of games, 95% sure." if gap > 0 else ".")
        if f.id == "tie_break" and value == 0:
            return f"The tie-break decided none of {seen}" + (
                f": it decides {sure} of won games, 95% sure." if gap > 0 else "."
            )
        how = "never" if value == 0 else "always"
        return f"{label.capitalize()}: {how} in {seen}" + (f", {sure} of {of}, 95% sure." if gap > 0 else ".")
    if f.kind == "rate":
        return f"{label.capitalize()}: {percent(value, 1)}{every}."
    return f"{label.capitalize()} is {number(value, 2)} in every game{every}."


def compare_findings(
    table: pd.DataFrame,
    spec: GameSpec,
    players: int,
    games: int,
    seats: Mapping[str, Sequence[str]] | None = None,
) -> list[dict]:
    """The findings of a comparison (``compare.compare_tables``), most important first.

    Parameters
    ----------
    table : DataFrame
        The comparison (``compare.compare_tables``); the first arm is the baseline.
    spec : GameSpec
    players, games : int
        Seats, and games per arm.
    seats : mapping of str to sequence of str, optional
        Each arm's policy by seat (empty for a game without choices); by default the table's
        own (``attrs["seats"]``). A comparison whose arms differ in players says so first, and
        where a line-up mixes kinds of player the findings name them ("the random player in
        seat 1 wins ...").

    Returns
    -------
    list of dict
        ``{"arm": name or None, "text": sentence, "claims": [...]}`` (each sentence's claims,
        :mod:`snakesim.questions.claims`, held to the rows by its ``check``): first a warning where the arms differ in
        players as well as rules, then the metrics that never vary (arm None); then who wins
        from which seat under the baseline (its players' chances where the seats hold different
        players); then for each arm after the first its players' chances where they differ,
        and its sentences against the first: the changes its tests find, largest first, then
        what the games rule out. A comparison of one arm says who wins from which seat and how
        long a game lasts.
    """
    arms = list(dict.fromkeys(table["variant"]))
    seats = lineups(table, seats)
    base = arms[0]
    out = []
    if len({seats[a] for a in arms}) > 1:
        who = "; ".join(f"{a}: {lineup_text(seats[a]) or 'no choices'}" for a in arms)
        hashes = set((table.attrs.get("rules_hash") or {}).values())
        if len(hashes) == 1 and None not in hashes:  # (a comparison of players on the same rules)
            text = (f"These rule sets have the same rules and differ only in who plays ({who}): each difference "
                    "below is the players'.")  # fmt: skip
        else:
            text = (f"These rule sets differ in who plays as well as in the rules ({who}), so each difference below "
                    "mixes the rules with the change of players.")  # fmt: skip
        out.append({"arm": None, "text": text, "claims": []})
    constant = constant_metrics(table)
    labels = dict(zip(table["metric"], table["label"], strict=True))
    units = dict(zip(table["metric"], table["unit"], strict=True))
    # (the furthest any rule set's interval reaches from a rate seen never, or always)
    bounds = {m: rows["high"].max() if v == 0 else rows["low"].min() for m, v in constant.items()
              for rows in [table[table["metric"] == m]]}  # fmt: skip
    out += [
        {"arm": None, "text": t, "claims": _seen(m, v, bounds[m])}
        for m, v in constant.items()
        if (
            t := constant_sentence(
                m, v, spec, players, len(arms), label=labels[m], unit=units[m], games=games, bound=bounds[m]
            )
        )
    ]
    lengths = constant_lengths(table)
    if lengths and len(set(lengths.values())) > 1:  # (each arm's games all alike, the arms not)
        out.append({"arm": None, "text": _lengths_sentence(lengths, spec, players), "claims": []})
    rows = table.set_index(["variant", "metric"])
    options = table.attrs.get("options") or {}
    apart = {a: handicaps(options.get(a), spec) for a in arms}
    if len(arms) == 1:
        alone = _alone(rows, base, seats[base], spec, players, games=games, apart=apart[base])
        return out + [{"arm": None, "text": t, "claims": []} for t in alone]
    who = _who_wins(rows, base, seats[base], players, games, apart=apart[base])
    out.append({"arm": base, "text": who, "claims": []})
    skip = set(constant) | hidden_metrics(table, seats) | ({"length"} if lengths else set())
    for arm in arms[1:]:
        covered = _set_apart(seats[arm], apart[arm])
        said = _arm_findings(
            rows, base, arm, spec, games, players=players, seats=seats[arm], skip=skip, covered=covered
        )
        out.append({"arm": arm, "text": said[0][0], "claims": said[0][1]})
        if covered:
            text, claims = _players_sentence(rows, arm, base, seats[arm], players, odd=covered, apart=apart[arm])
            out.append({"arm": arm, "text": text, "claims": claims})
        out += [{"arm": arm, "text": text, "claims": claims} for text, claims in said[1:]]
    return out


def _seen(metric: str, value: float, bound: float) -> list[dict]:
    """A figure that never varies, as a claim: a rate seen never or always, with how far its
    intervals reach; a mean's one value claims nothing more than its rows say."""
    if figure(metric).kind != "rate" or value not in (0, 1):
        return []
    return [claim("not seen" if value == 0 else "always seen", metric, bound=float(bound))]


def _lengths_sentence(lengths: dict[str, float], spec: GameSpec, players: int) -> str:
    """Each arm's one game length, said once: ``Every 3-player Hisss game lasts 49 turns under
    standard and more, and 50 turns under rainbow2.``"""
    by_value: dict[float, list[str]] = {}
    for arm, value in lengths.items():
        by_value.setdefault(value, []).append(arm)
    parts = [f"{number(v, 0)} {spec.length_unit} under {listed(arms)}" for v, arms in by_value.items()]
    return f"Every {players}-player {spec.name.capitalize()} game lasts {listed(parts, ', and ')}."


def _minority(seats: Sequence[str]) -> tuple[int, ...]:
    """The seats whose player is not of the most common kind (every seat where no kind is most
    common): the child among careful players."""
    counts = {p: seats.count(p) for p in seats}
    most = max(counts.values())
    field = [p for p, c in counts.items() if c == most]
    return tuple(s for s, p in enumerate(seats) if len(field) > 1 or p != field[0])


def _players_sentence(rows, arm: str, base: str | None, seats: Sequence[str], players: int, odd: Sequence[int],
                      apart: Mapping[int, str] | None = None) -> tuple[str, list[dict]]:  # fmt: skip
    """The chances of the seats set apart in an arm (``odd``: by their players, or by a
    handicap, ``apart``): each one's win rate with its interval (and its change from
    ``base``, with its verdict), the others' rates, and a fair share; with the sentence's
    claims (each change's verdict)."""
    rates = {s: rows.loc[arm, f"win_rate.{s}"] for s in range(players)}
    fair = sum(float(r["value"]) for r in rates.values()) / players
    places = max(1, max(points(rates[s]["low"], rates[s]["high"]) for s in odd))
    parts, claims = [], []
    for s in odd:
        r = rates[s]
        text = f"{seat_name(s, seats, apart)} wins {rate_ci(r['value'], (r['low'], r['high']), places)} of games"
        if base is not None and r["diff"] == r["diff"]:
            change = VERDICT_WORDS.get(r["verdict"], r["verdict"])
            dp = diff_places(r, 100)
            text += (
                f" ({percent(rows.loc[base, f'win_rate.{s}']['value'], places)} with {base}; "
                f"{_points_diff(r, dp)} percentage points: {change})"
            )
            if r["verdict"] in VERDICT_WORDS:
                claims.append(_claim(r["verdict"], f"win_rate.{s}", arm, r))
        parts.append(text)
    sentence = "; ".join(parts) + f", a fair share being {percent(fair, places)}"
    if fair * players < 1 - SAME:  # (some games are drawn or unfinished: a share of the games somebody won)
        sentence += f" ({SHARE_WORDS.get(players, f'1/{players}')} of the games somebody won)"
    rest = [s for s in range(players) if s not in odd]
    if rest:
        kinds = sorted({seats[s] for s in rest}) if mixed(seats) else []
        who = seat_players(rest) + (f" ({player_word(kinds[0])})" if len(kinds) == 1 else "")
        values = listed([percent(rates[s]["value"], places) for s in rest])
        sentence += f"; {who} win{'s' if len(rest) == 1 else ''} {values}"
    return sentence[0].upper() + sentence[1:] + ".", claims


def _set_apart(seats: Sequence[str], apart: Mapping[int, str]) -> tuple[int, ...]:
    """The seats a sentence of their own speaks of: those whose player is not of the most
    common kind (:func:`_minority`) and those a handicap sets apart."""
    return tuple(sorted(set(_minority(seats) if mixed(seats) else ()) | set(apart)))


def set_apart(seats: Sequence[str], apart: Mapping[int, str]) -> dict[int, str]:
    """What sets each seat apart in words, for a sentence that names seats without their
    players (:func:`~snakesim.analysis.words.seat_sentence`): the handicap (``apart``,
    :func:`~snakesim.analysis.words.handicaps`) and, where the seats hold different players,
    the player: ``{0: "random", 2: "start_coins 14, the others 10"}``."""
    return {s: _notes(s, seats, apart) for s in _set_apart(seats, apart)}


def _alone(rows, arm: str, seats: Sequence[str], spec: GameSpec, players: int, games: int,
           apart: Mapping[int, str]) -> list[str]:  # fmt: skip
    """One rule set on its own: who wins from which seat (the chances of the seats its players
    or a handicap, ``apart``, set apart) and how long a game lasts, as ``snakesim run`` says them."""
    out = [_who_wins(rows, arm, seats, players, games, apart=apart)]
    if (arm, "length") not in rows.index or rows.loc[arm, "length"]["high"] - rows.loc[arm, "length"]["low"] < SAME:
        return out  # (a length every game shares is said once already)
    r = rows.loc[arm, "length"]
    lp = decimals(r["high"] - r["low"])
    text = f"A game lasts {number(r['value'], lp)} {spec.length_unit} on average [{number(r['low'], lp)}, " + (
        f"{number(r['high'], lp)}]"
    )
    median = rows.loc[arm]["value"].get("length_median", math.nan)
    if math.isfinite(median):
        text += f"; half are over by {number(median, 0)}"
    return [*out, text + "."]


def _who_wins(rows, arm: str, seats: Sequence[str], players: int, games: int,
              apart: Mapping[int, str] | None = None) -> str:  # fmt: skip
    """Who wins from which seat under one rule set: the chances of the seats its players or a
    handicap (``apart``) set apart, else whether any seat is favoured."""
    if mixed(seats) or apart:
        return _players_sentence(rows, arm, None, seats, players, odd=_set_apart(seats, apart or {}), apart=apart)[0]
    seat = [rows.loc[arm, f"win_rate.{s}"] for s in range(players)]
    rates = [float(r["value"]) for r in seat]
    return seat_sentence(rates, [(float(r["low"]), float(r["high"])) for r in seat], games, players)


VERDICT_WORDS = {MATTERS: "a change that matters", NEGLIGIBLE: "too small to notice", UNDECIDED: "not settled"}


THIRDS = ((1 / 3, "a third"), (1 / 4, "a quarter"), (1 / 5, "a fifth"), (2 / 3, "two thirds"))


def _how_much(change: float) -> str:
    """A relative change in words: ``a third`` where it is one within a point, else ``33%``."""
    size = abs(change)
    for value, words in THIRDS:
        if abs(size - value) < 0.01:
            return words
    return f"{size:.0%}" if size >= 0.01 else f"{size:.1%}"


def _seat_of(metric: str) -> int:
    return int(metric.partition(".")[2])


def _phrase(metric: str, b, r, seats: Sequence[str]) -> str:
    """A change that matters, in a few words for the headline: ``games get a third shorter``."""
    up = r["diff"] > 0
    f = figure(metric)
    if f.id == "length":
        change = r["diff"] / b["value"] if b["value"] else float("inf")
        return f"games get {_how_much(change)} {'longer' if up else 'shorter'}"
    if f.id == "win_rate":
        return f"{seat_name(_seat_of(metric), seats)} wins {'more' if up else 'less'} often"
    if f.id == "first_player_advantage":
        return f"the first player's edge {'grows' if up else 'shrinks'}"
    if f.id == "draw":
        return "draws become more common" if up else "draws become rarer"
    if f.id == "unfinished":
        return f"{'more' if up else 'fewer'} games reach the turn cap"
    if f.id == "margin":
        return f"the winner's lead over the next seat {'grows' if up else 'shrinks'}"
    _, more, fewer = f.words
    text = more if up else fewer
    return text[0].lower() + text[1:]


def _sentence(metric: str, b, r, spec: GameSpec, seats: Sequence[str]) -> str:
    """A change that matters, in a sentence with its numbers and its interval."""
    f = figure(metric)
    up = r["diff"] > 0
    if f.id == "length":
        places = diff_places(r)
        shown = max(decimals(r["high"] - r["low"]), places)
        diff = signed(r["diff"], r["diff_low"], r["diff_high"], places)
        return (f"Games get {_how_much(r['diff'] / b['value'] if b['value'] else float('inf'))} "
                f"{'longer' if up else 'shorter'}: {number(b['value'], shown)} -> {number(r['value'], shown)} "
                f"{spec.length_unit} on average ({diff} {spec.length_unit}).")  # fmt: skip
    if f.percent:
        places = diff_places(r, 100)
        diff = f"{_points_diff(r, places)} percentage points"
        if f.id == "win_rate":
            who = seat_name(_seat_of(metric), seats)
            return (f"{who[0].upper()}{who[1:]} wins {100 * abs(r['diff']):.{places}f} percentage points "
                    f"{'more' if up else 'less'} often: {percent(b['value'], places)} -> {percent(r['value'], places)} "
                    f"({diff}).")  # fmt: skip
        lead = _phrase(metric, b, r, seats)
        if f.id == "first_player_advantage":  # (points above a fair share: "0.1% -> -1.4% above" read as a share)
            values = (f"{fixed(100 * b['value'], places, True)} -> {fixed(100 * r['value'], places, True)} "
                      "percentage points from a fair share")  # fmt: skip
            return f"{lead[0].upper()}{lead[1:]}: {values} ({diff})."
        what = {"draw": "of games", "unfinished": "of games"}.get(f.id, f.words[0] if f.words else "")
        values = f"{percent(b['value'], places)} -> {percent(r['value'], places)} {what}".rstrip()
        return f"{lead[0].upper()}{lead[1:]}: {values} ({diff})."
    places = diff_places(r)
    what = f.words[0] if f.words else r["unit"] if f.id == "margin" else ""  # (a margin: what the rules score)
    lead = _phrase(metric, b, r, seats)
    values = f"{number(b['value'], places)} -> {number(r['value'], places)} {what}".rstrip()
    return f"{lead[0].upper()}{lead[1:]}: {values} ({signed(r['diff'], r['diff_low'], r['diff_high'], places)})."


def margin_words(metric: str, margin: float, spec: GameSpec, relative_to: float | None = None) -> str:
    """What matters for a figure, in words: ``1 percentage point``, ``5% (7.9 cards drawn)``
    (a share of the first rule set's value ``relative_to``), ``0.5 lead changes a game``."""
    f = figure(metric)
    if f.percent:
        value = 100 * margin
        return f"{value:g} percentage point{'' if value == 1 else 's'}"
    if f.relative and relative_to:
        share = f"{100 * margin / abs(relative_to):.3g}%"
        return f"{share} of it, that is {margin:.3g} {spec.length_unit}" if f.id == "length" else f"{share} of it"
    unit = f.words[0] if f.words else ""
    return f"{margin:g} {unit}".rstrip()


def _gathered(rows: list, spec: GameSpec, players: int) -> list[tuple[str, str]]:
    """Rows of one verdict as ``(noun, margin in words)``, every seat's win rate as one, those
    of one margin side by side."""
    out, wins = [], [r for m, _, r in rows if figure(m).id == "win_rate"]
    if wins:
        seats = [_seat_of(r.name[1]) for r in wins]
        which = (
            "every seat's chance of winning"
            if len(wins) == players
            else f"{seat_whose(seats)} chance{'' if len(seats) == 1 else 's'} of winning"
        )
        out.append((which, margin_words("win_rate.0", wins[0]["margin"], spec)))
    for metric, b, r in rows:
        if figure(metric).id != "win_rate":
            out.append((figure(metric).topic or r["label"], margin_words(metric, r["margin"], spec, b["value"])))
    order = list(dict.fromkeys(margin for _, margin in out))
    return sorted(out, key=lambda item: order.index(item[1]))


def _grouped(items: list[tuple[str, str]], before: str) -> str:
    """``A and B (by less than 1 percentage point each), C (by less than 5%)``: nouns of one
    margin together."""
    groups: dict[str, list[str]] = {}
    for noun, margin in items:
        groups.setdefault(margin, []).append(noun)
    return "; ".join(f"{listed(nouns)} ({before} {margin}{' each' if len(nouns) > 1 else ''})"
                     for margin, nouns in groups.items())  # fmt: skip


def _arm_findings(rows, base: str, arm: str, spec: GameSpec, games: int, *, players: int, seats: Sequence[str],
                  skip: set[str], covered: Sequence[int]) -> list[str]:  # fmt: skip
    """One rule set against the first: a headline, a sentence per change that matters (the
    largest first), one gathering the changes too small to notice with what would matter, and
    one for the figures these games leave undecided, with the games that would settle them.
    The seats in ``covered`` have a sentence of their own (their players'): the headline counts
    them, the other sentences leave them out. Each sentence comes with its claims
    (:mod:`snakesim.questions.claims`): ``(text, claims)``."""
    by = {MATTERS: [], NEGLIGIBLE: [], UNDECIDED: []}
    aside = {MATTERS: [], NEGLIGIBLE: [], UNDECIDED: []}
    for (a, metric), r in rows.iterrows():
        if a != arm or metric in skip or r["verdict"] not in by:
            continue
        told = figure(metric).id == "win_rate" and _seat_of(metric) in covered
        (aside if told else by)[r["verdict"]].append((metric, rows.loc[(base, metric)], r))
    size = lambda item: abs(item[2]["diff"]) / max(abs(item[1]["value"]), 1e-9)  # noqa: E731
    matters = sorted(by[MATTERS], key=lambda item: -size(item))
    heads = sorted(by[MATTERS] + aside[MATTERS], key=lambda item: -size(item))
    seat_moves = [item for item in matters if figure(item[0]).id == "win_rate"]
    moving = [item for item in heads if figure(item[0]).id == "win_rate"]
    phrases = [_phrase(m, b, r, seats) for m, b, r in heads if figure(m).id != "win_rate"]
    if len(moving) >= 3:
        phrases.insert(0, "the seats' chances of winning move")
    else:
        phrases = [_phrase(m, b, r, seats) for m, b, r in moving] + phrases
    undecided = by[UNDECIDED]
    open_ = len(_gathered(undecided + aside[UNDECIDED], spec, players))  # (every seat's chance counts once)
    more = (f"{'one more thing is' if open_ == 1 else f'{open_} more things are'} not settled yet (below)"
            if heads else f"{'one thing is' if open_ == 1 else f'{open_} things are'} not settled yet "
            "(below)")  # fmt: skip
    if not heads and not open_:
        head = "This rule set changes nothing you would notice at the table."
    elif not heads:
        head = f"This rule set changes nothing you would notice that these {games:,} games can show; {more}."
    else:
        tail = "nothing else changes by as much as matters" if not open_ else more
        if len(phrases) > 4:  # (the largest three, the rest below)
            phrases = [*phrases[:3], f"{len(phrases) - 3} more changes said below"]
        head = f"This rule set changes what you would notice at the table: {listed(phrases)}; {tail}."
    # (the headline claims every change that matters, every one not settled and, where it says
    # nothing changes, every one too small to notice)
    said = [_claim(MATTERS, m, arm, r) for m, _, r in heads]
    said += [_claim(UNDECIDED, m, arm, r) for m, _, r in undecided + aside[UNDECIDED]]
    said += [_claim(NEGLIGIBLE, m, arm, r) for m, _, r in by[NEGLIGIBLE] + aside[NEGLIGIBLE]] if not heads else []
    out = [(head, said)]
    if len(seat_moves) >= 3:
        places = max(diff_places(r, 100) for _, _, r in seat_moves)
        parts = [f"{seat_name(_seat_of(m), seats)} {percent(b['value'], places)} -> {percent(r['value'], places)} "
                 f"({_points_diff(r, places)})" for m, b, r in seat_moves]  # fmt: skip
        out.append((f"{len(seat_moves)} players' chances move: " + ", ".join(parts) + " percentage points.",
                    [_claim(MATTERS, m, arm, r) for m, _, r in seat_moves]))  # fmt: skip
        matters = [item for item in matters if item not in seat_moves]
    out += [(_sentence(m, b, r, spec, seats), [_claim(MATTERS, m, arm, r)]) for m, b, r in matters]
    if by[NEGLIGIBLE]:
        gathered = _grouped(_gathered(by[NEGLIGIBLE], spec, players), "by less than")
        out.append((f"Too small to notice: {gathered}. Changes this small may be there, but no player would feel "
                    "them.", [_claim(NEGLIGIBLE, m, arm, r) for m, _, r in by[NEGLIGIBLE]]))  # fmt: skip
    if undecided:
        gathered = _grouped(_gathered(undecided, spec, players), "what matters:")
        need = [r["settle_games"] for _, _, r in undecided]
        known = [int(n) for n in need if not _missing(n)]
        several = len(undecided) > 1
        if len(known) == len(need):
            settle = f"about {max(known):,} games per rule set would settle {'them' if several else 'it'}"
        elif not known:
            settle = (f"{'they lie' if several else 'it lies'} so close to what matters that no practical number of "
                      f"games would settle {'them' if several else 'it'}")  # fmt: skip
        else:
            some = "one of them" if len(known) == 1 else f"{len(known)} of them"
            one = len(need) - len(known) == 1
            settle = (f"about {max(known):,} games per rule set would settle {some}; "
                      f"{'the other lies' if one else 'the others lie'} so close to what matters that no practical "
                      f"number of games would settle {'it' if one else 'them'}")  # fmt: skip
        out.append((f"Not settled by {games:,} games: {gathered}. {settle[0].upper()}{settle[1:]}.",
                    [_claim(UNDECIDED, m, arm, r) for m, _, r in undecided]))  # fmt: skip
    return out


def _claim(says: str, metric: str, arm: str, r) -> dict:
    """A sentence's claim about one row (:func:`snakesim.questions.claims.claim`), with the
    numbers it rests on."""
    return claim(says, metric, arm, direction=int(np.sign(r["diff"])) if says == MATTERS else 0,
                 diff=float(r["diff"]), low=float(r["diff_low"]), high=float(r["diff_high"]),
                 margin=float(r["margin"]))  # fmt: skip


def _missing(x) -> bool:
    import pandas as pd

    return bool(pd.isna(x))


def _points_diff(r, places: int) -> str:
    return signed(r["diff"], r["diff_low"], r["diff_high"], places, 100)
