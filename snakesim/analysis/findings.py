"""Findings in words: a comparison or a run's summary as a few plain sentences.

Each sentence carries its interval and claims only what its test supports: a change is said to
happen only when its Holm-adjusted test finds it (the difference's interval, drawn at the level
of the Holm step that decided it, then excludes 0); otherwise the sentence says how large a
change the games rule out. A metric that is the same in every game of every arm is said once
("every 2-player Hisss game lasts 49 turns") instead of row by row.

Rates are written in percent and their differences in percentage points (never plain
"points", which a game may score), with as many decimals as their interval needs. Where the
seats hold different players (a child playing at random among careful players), a seat is
named by its player ("the random player in seat 1") and the first-player advantage is left out:
it would mix the seat with the player.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from snakesim.analysis.design_space import Target, is_share
from snakesim.analysis.stats import LEVEL, wilson
from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE, UNDECIDED, verdict
from snakesim.core.figures import figure, target_figure

if TYPE_CHECKING:
    import pandas as pd

    from snakesim.core.registry import GameSpec

ALPHA = 0.05
SAME = 1e-12  # values this close are the same (a mean of equal integers, computed in floats)

# A fair share of the games somebody won, in words, by the number of seats.
SHARE_WORDS = {2: "half", 3: "a third", 4: "a quarter", 5: "a fifth", 6: "a sixth", 7: "a seventh", 8: "an eighth"}


# ---------------------------------------------------------------------------- numbers
def decimals(width: float, most: int = 4) -> int:
    """Decimals that show an interval ``width`` wide: one significant digit of the width, two
    when it starts with 1 or 2 (as uncertainties are usually rounded)."""
    if not width > 0 or not math.isfinite(width):
        return 0
    e = math.floor(math.log10(width))
    return int(min(most, max(0, -e + (width / 10**e < 3))))


def number(x: float, places: int) -> str:
    """``x`` with ``places`` decimals and thousands separators; an integer without decimals."""
    if abs(x - round(x)) < SAME and places == 0:
        return f"{round(x):,}"
    return fixed(x, places)


def points(low: float, high: float) -> int:
    """Decimals for rates in percentage points whose interval runs from ``low`` to ``high``."""
    return decimals(100 * (high - low))


def fixed(x: float, places: int, sign: bool = False) -> str:
    """``x`` with ``places`` decimals (and thousands separators), ``+`` before positives with
    ``sign``; never a "-0" for a value that rounds to zero."""
    text = f"{x:{'+' if sign else ''},.{places}f}"
    if text.startswith("-") and not text.strip("-0.,"):
        text = ("+" if sign else "") + text[1:]
    return text


def percent(x: float, places: int) -> str:
    """``x`` in percent with ``places`` decimals; never "-0%" for a value that rounds to 0."""
    return fixed(100 * x, places) + "%"


def signed(x: float, low: float, high: float, places: int, scale: float = 1) -> str:
    """A difference and its interval, signed: ``+1.4 [+0.4, +2.5]`` (``scale`` 100: in points)."""
    return f"{fixed(scale * x, places, True)} [{fixed(scale * low, places, True)}, {fixed(scale * high, places, True)}]"


def rate_ci(x: float, ci, places: int) -> str:
    """A rate and its interval in percent: ``29.0% [28.4%, 29.6%]``."""
    return f"{percent(x, places)} [{percent(ci[0], places)}, {percent(ci[1], places)}]"


def p_text(p: float) -> str:
    """A p-value as people read it: never 0 (a p-value below what a float holds is < 1e-300)."""
    if p != p:
        return "n/a"
    if p < 1e-300:
        return "< 1e-300"
    return f"{p:.2g}"


# ---------------------------------------------------------------------------- a comparison
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


def seat_name(seat: int, seats: Sequence[str] | None) -> str:
    """``seat 1``, or ``the random player in seat 1`` where the seats hold different players."""
    return f"the {seats[seat]} player in seat {seat}" if mixed(seats) else f"seat {seat}"


def lineup_text(seats: Sequence[str]) -> str:
    """A line-up in seat order: ``random, greedy, greedy``."""
    return ", ".join(seats)


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
    places = decimals(scale * (r["diff_high"] - r["diff_low"]))
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


def constant_sentence(row: str, value: float, spec: GameSpec, players: int, arms: int, label: str = "") -> str:
    """A figure that never varies (row ``row``, words ``label``), said once."""
    every = " under every rule set compared" if arms > 1 else ""
    any_ = " under any rule set compared" if arms > 1 else ""
    game = spec.name.capitalize()
    f = figure(row)
    if f.unit == "length":
        return f"Every {players}-player {game} game lasts {number(value, 0)} {spec.length_unit}{every}."
    if f.id == "draw":
        return (
            f"No {players}-player {game} game ends in a draw{any_}."
            if value == 0
            else f"Every game ends in a draw{every}."
        )
    if f.id == "unfinished":
        return ""  # (no game reaching the turn cap is the usual case, not worth a sentence)
    if f.id == "tie_break" and value == 0:
        return f"The tie-break never decides a game{any_}."
    if f.id == "margin":
        unit = label[label.find("(") + 1 : -1]
        return f"The winner always ends {number(value, 0)} {unit} ahead of the next seat{every}."
    if f.kind == "rate":
        how = "always" if value == 1 else "never" if value == 0 else percent(value, 1)
        return f"{label.capitalize()}: {how}{every}."
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
        ``{"arm": name or None, "text": sentence}``: first a warning where the arms differ in
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
        out.append({"arm": None, "text": text})
    constant = constant_metrics(table)
    labels = dict(zip(table["metric"], table["label"], strict=True))
    out += [
        {"arm": None, "text": t}
        for m, v in constant.items()
        if (t := constant_sentence(m, v, spec, players, len(arms), label=labels[m]))
    ]
    lengths = constant_lengths(table)
    if lengths and len(set(lengths.values())) > 1:  # (each arm's games all alike, the arms not)
        out.append({"arm": None, "text": _lengths_sentence(lengths, spec, players)})
    rows = table.set_index(["variant", "metric"])
    if len(arms) == 1:
        return out + [{"arm": None, "text": t} for t in _alone(rows, base, seats[base], spec, players, games=games)]
    out.append({"arm": base, "text": _who_wins(rows, base, seats[base], players, games)})
    skip = set(constant) | hidden_metrics(table, seats) | ({"length"} if lengths else set())
    for arm in arms[1:]:
        covered = _minority(seats[arm]) if mixed(seats[arm]) else ()
        said = _arm_findings(
            rows, base, arm, spec, games, players=players, seats=seats[arm], skip=skip, covered=covered
        )
        out.append({"arm": arm, "text": said[0]})
        if covered:
            out.append({"arm": arm, "text": _players_sentence(rows, arm, base, seats[arm], players)})
        out += [{"arm": arm, "text": text} for text in said[1:]]
    return out


def _lengths_sentence(lengths: dict[str, float], spec: GameSpec, players: int) -> str:
    """Each arm's one game length, said once: ``Every 3-player Hisss game lasts 49 turns under
    standard and more, and 50 turns under rainbow2.``"""
    by_value: dict[float, list[str]] = {}
    for arm, value in lengths.items():
        by_value.setdefault(value, []).append(arm)
    parts = [f"{number(v, 0)} {spec.length_unit} under {listed(arms)}" for v, arms in by_value.items()]
    return f"Every {players}-player {spec.name.capitalize()} game lasts {listed(parts, ', and ')}."


def listed(items: Sequence[str], last: str = " and ") -> str:
    """``a``, ``a and b``, ``a, b and c`` (``last`` joins the last two)."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + last + items[-1]


def _minority(seats: Sequence[str]) -> tuple[int, ...]:
    """The seats whose player is not of the most common kind (every seat where no kind is most
    common): the child among careful players."""
    counts = {p: seats.count(p) for p in seats}
    most = max(counts.values())
    field = [p for p, c in counts.items() if c == most]
    return tuple(s for s, p in enumerate(seats) if len(field) > 1 or p != field[0])


def _players_sentence(rows, arm: str, base: str | None, seats: Sequence[str], players: int) -> str:
    """The chances of an arm's players where its seats hold different players: each odd
    player's win rate with its interval (and its change from ``base``), the others' rates,
    and a fair share."""
    rates = {s: rows.loc[arm, f"win_rate.{s}"] for s in range(players)}
    fair = sum(float(r["value"]) for r in rates.values()) / players
    odd = _minority(seats)
    places = max(1, max(points(rates[s]["low"], rates[s]["high"]) for s in odd))
    parts = []
    for s in odd:
        r = rates[s]
        text = f"{seat_name(s, seats)} wins {rate_ci(r['value'], (r['low'], r['high']), places)} of games"
        if base is not None and r["diff"] == r["diff"]:
            change = VERDICT_WORDS.get(r["verdict"], r["verdict"])
            dp = points(r["diff_low"], r["diff_high"])
            text += (
                f" ({percent(rows.loc[base, f'win_rate.{s}']['value'], places)} with {base}; "
                f"{_points_diff(r, dp)} percentage points: {change})"
            )
        parts.append(text)
    sentence = "; ".join(parts) + f", a fair share being {percent(fair, places)}"
    if fair * players < 1 - SAME:  # (some games are drawn or unfinished: a share of the games somebody won)
        sentence += f" ({SHARE_WORDS.get(players, f'1/{players}')} of the games somebody won)"
    rest = [s for s in range(players) if s not in odd]
    if rest:
        kinds = sorted({seats[s] for s in rest})
        who = f"the {kinds[0]} players" if len(kinds) == 1 else "the other players"
        where = f"seat{'s' if len(rest) > 1 else ''} {listed([str(s) for s in rest])}"
        values = listed([percent(rates[s]["value"], places) for s in rest])
        sentence += f"; {who} in {where} win {values}"
    return sentence[0].upper() + sentence[1:] + "."


def _alone(rows, arm: str, seats: Sequence[str], spec: GameSpec, players: int, games: int) -> list[str]:
    """One rule set on its own: who wins from which seat (the players' chances where the seats
    hold different players) and how long a game lasts, as ``snakesim run`` says them."""
    out = [_who_wins(rows, arm, seats, players, games)]
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


def _who_wins(rows, arm: str, seats: Sequence[str], players: int, games: int) -> str:
    """Who wins from which seat under one rule set: its players' chances where the seats hold
    different players, else whether any seat is favoured."""
    if mixed(seats):
        return _players_sentence(rows, arm, None, seats, players)
    seat = [rows.loc[arm, f"win_rate.{s}"] for s in range(players)]
    rates = [float(r["value"]) for r in seat]
    return _seat_sentence(rates, [(float(r["low"]), float(r["high"])) for r in seat], games, players)


def _seat_sentence(rates, cis, games: int, players: int, level: float = LEVEL) -> str:
    """Who wins from which seat, against the smallest difference in a seat's chance that
    matters (1 percentage point): each seat's win rate has its interval at the level that holds
    for every seat at once (Bonferroni). The seats are not equal when some seat's interval lies
    beyond an equal share of the games somebody won by more than that; they differ by too little
    to notice when every seat's lies within it; and no seat is measurably favoured when every
    interval holds an equal share."""
    from snakesim.analysis.verdicts import margin_for

    wins = [round(r * games) for r in rates]
    fair = sum(wins) / players / games
    joint = 1 - (1 - level) / players
    bounds = [wilson(k, games, joint) for k in wins]
    m = margin_for("win_rate").amount
    places = max(1, points(*cis[0]))
    best, worst = int(np.argmax(rates)), int(np.argmin(rates))
    most, least = (rate_ci(rates[i], cis[i], places) for i in (best, worst))
    uneven = (f"seat {best} wins most often, {most} of games, and seat {worst} least, {least}, where an equal "
              f"share would be {percent(fair, places)}")  # fmt: skip
    size = f"{100 * m:g} percentage point{'' if m == 0.01 else 's'}"
    if any(lo >= fair + m for lo, _ in bounds) or any(hi <= fair - m for _, hi in bounds):
        return f"The seats are not equal: {uneven}."
    within = all(fair - m < lo and hi < fair + m for lo, hi in bounds)
    if any(lo > fair for lo, _ in bounds) or any(hi < fair for _, hi in bounds):
        tail = (f"every seat is within {size} of an equal share, too little to notice" if within
                else f"these games cannot tell whether by as much as matters ({size})")  # fmt: skip
        return f"The seats differ a little: {uneven}; {tail}."
    lead = "No seat is favoured by as much as matters" if within else "No seat is measurably favoured"
    return (
        f"{lead}: every seat wins between {percent(min(rates), places)} and {percent(max(rates), places)} of games, "
        f"an equal share being {percent(fair, places)}."
    )


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
        places = decimals(r["diff_high"] - r["diff_low"])
        shown = max(decimals(r["high"] - r["low"]), places)
        diff = signed(r["diff"], r["diff_low"], r["diff_high"], places)
        return (f"Games get {_how_much(r['diff'] / b['value'] if b['value'] else float('inf'))} "
                f"{'longer' if up else 'shorter'}: {number(b['value'], shown)} -> {number(r['value'], shown)} "
                f"{spec.length_unit} on average ({diff} {spec.length_unit}).")  # fmt: skip
    if f.percent:
        places = points(r["diff_low"], r["diff_high"])
        diff = f"{_points_diff(r, places)} percentage points"
        if f.id == "win_rate":
            who = seat_name(_seat_of(metric), seats)
            return (f"{who[0].upper()}{who[1:]} wins {100 * abs(r['diff']):.{places}f} percentage points "
                    f"{'more' if up else 'less'} often: {percent(b['value'], places)} -> {percent(r['value'], places)} "
                    f"({diff}).")  # fmt: skip
        what = {"draw": "of games", "unfinished": "of games", "first_player_advantage": "above a fair share"}.get(
            f.id, f.words[0] if f.words else ""
        )
        lead = _phrase(metric, b, r, seats)
        values = f"{percent(b['value'], places)} -> {percent(r['value'], places)} {what}".rstrip()
        return f"{lead[0].upper()}{lead[1:]}: {values} ({diff})."
    places = decimals(r["diff_high"] - r["diff_low"])
    what = f.words[0] if f.words else r["label"][r["label"].find("(") + 1 : -1] if "(" in r["label"] else ""
    lead = _phrase(metric, b, r, seats)
    values = f"{number(b['value'], places)} -> {number(r['value'], places)} {what}".rstrip()
    return f"{lead[0].upper()}{lead[1:]}: {values} ({signed(r['diff'], r['diff_low'], r['diff_high'], places)})."


# Each compared figure as the gathered sentences name it.
NOUNS = {"first_player_advantage": "the first player's edge", "length": "the game's length", "draw": "draws",
         "unfinished": "games reaching the turn cap", "lead_changes": "how often the lead changes hands",
         "decided": "how late the winner takes the lead for good", "comeback": "comebacks from behind at half time",
         "last_tenth": "games decided only in the last tenth", "out_share": "the time players spend out",
         "tie_break": "games won on the tie-break", "margin": "the winner's lead over the next seat",
         **{f"leads_alone_q{k}": f"winners already alone in front {when}" for k, when in
            ((1, "a quarter of the way in"), (2, "half-way"), (3, "three quarters of the way in"))}}  # fmt: skip


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
        seats = [str(_seat_of(r.name[1])) for r in wins]
        which = (
            "every seat's chance of winning"
            if len(wins) == players
            else f"seat {seats[0]}'s chance of winning"
            if len(seats) == 1
            else f"seats {listed(seats)}'s chances of winning"
        )
        out.append((which, margin_words("win_rate.0", wins[0]["margin"], spec)))
    for metric, b, r in rows:
        if figure(metric).id != "win_rate":
            out.append((NOUNS.get(figure(metric).id, r["label"]), margin_words(metric, r["margin"], spec, b["value"])))
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
    them, the other sentences leave them out."""
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
    out = [head]
    if len(seat_moves) >= 3:
        places = max(points(r["diff_low"], r["diff_high"]) for _, _, r in seat_moves)
        parts = [f"{seat_name(_seat_of(m), seats)} {percent(b['value'], places)} -> {percent(r['value'], places)} "
                 f"({_points_diff(r, places)})" for m, b, r in seat_moves]  # fmt: skip
        out.append(f"{len(seat_moves)} seats' chances move: " + ", ".join(parts) + " percentage points.")
        matters = [item for item in matters if item not in seat_moves]
    out += [_sentence(m, b, r, spec, seats) for m, b, r in matters]
    if by[NEGLIGIBLE]:
        gathered = _grouped(_gathered(by[NEGLIGIBLE], spec, players), "by less than")
        out.append(f"Too small to notice: {gathered}. Changes this small may be there, but no player would feel "
                   "them.")  # fmt: skip
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
        out.append(f"Not settled by {games:,} games: {gathered}. {settle[0].upper()}{settle[1:]}.")
    return out


def _missing(x) -> bool:
    import pandas as pd

    return bool(pd.isna(x))


def _points_diff(r, places: int) -> str:
    return signed(r["diff"], r["diff_low"], r["diff_high"], places, 100)


# ---------------------------------------------------------------------------- a run
def run_findings(s: dict, spec: GameSpec) -> list[str]:
    """The findings of one run's summary (``snakesim.analysis.stats.summary_of``), in words.

    Who wins from which seat (a seat is said to be favoured or behind only when its win rate's
    interval, at the level that holds for every seat at once (Bonferroni), leaves out an equal
    share of the games somebody won), how long a game lasts, draws, and the game-feel figures
    where they were recorded.
    """
    games, players = s["games"], s["players"]
    game = f"{players}-player {spec.name.capitalize()}"
    out = [_seat_sentence(s["win_rate"], s["win_ci"], games, players, s["level"])]
    n = s["length"]
    unit = spec.length_unit
    if n["mean_ci"][1] - n["mean_ci"][0] < SAME and n["median"] == n["max"]:
        out.append(f"Every {game} game lasts {number(n['mean'], 0)} {unit}.")
    elif not n.get("mean_is_lower_bound"):
        lp = decimals(n["mean_ci"][1] - n["mean_ci"][0])
        out.append(
            f"A game lasts {number(n['mean'], lp)} {unit} on average [{number(n['mean_ci'][0], lp)}, "
            f"{number(n['mean_ci'][1], lp)}]; half are over by {n['median']:g} and one in twenty lasts "
            f"{n['p95']:g} or more."
        )
    draws = s["outcomes"].get("draw")
    if draws and draws["count"]:
        dp = points(*draws["ci"])
        out.append(
            f"{percent(draws['rate'], dp)} of games are drawn [{percent(draws['ci'][0], dp)}, "
            f"{percent(draws['ci'][1], dp)}]."
        )
    f = s.get("feel")
    if f:
        lead, back, known = f["lead_changes"], f["comeback"], f["leader_wins_q2"]
        lp, bp, kp = decimals(lead["ci"][1] - lead["ci"][0]), points(*back["ci"]), points(*known["ci"])
        text = (
            f"The lead changes hands {number(lead['mean'], lp)} times a game [{number(lead['ci'][0], lp)}, "
            f"{number(lead['ci'][1], lp)}]; {percent(back['rate'], bp)} of winners were behind at half time "
            f"[{percent(back['ci'][0], bp)}, {percent(back['ci'][1], bp)}]"
        )
        if known["games"]:
            text += (
                f"; the seat alone in front half-way goes on to win {percent(known['rate'], kp)} of the time "
                f"[{percent(known['ci'][0], kp)}, {percent(known['ci'][1], kp)}]"
            )
        out.append(text + ".")
        tie = f.get("tie_break")  # (a game with a tie-break only)
        if tie and tie["games"]:
            tp = points(*tie["ci"])
            out.append(
                f"The tie-break chooses the winner in {percent(tie['rate'], tp)} of won games "
                f"[{percent(tie['ci'][0], tp)}, {percent(tie['ci'][1], tp)}]."
            )
        if "out_share" in f:
            o = f["out_share"]
            op = points(*o["ci"])
            out.append(
                f"Players who are out spend {percent(o['mean'], op)} of the game waiting "
                f"[{percent(o['ci'][0], op)}, {percent(o['ci'][1], op)}]."
            )
    return out


# ---------------------------------------------------------------------------- searches
def metric_words(metric: str) -> str:
    """A tune target in words (``win_rate.2`` -> seat 2's win rate; a figure's: its registry noun)."""
    name, _, part = metric.partition(".")
    if name == "win_rate":
        return f"seat {part}'s win rate"
    if name == "means":
        return f"the average {part}"
    f = target_figure(metric)
    return f.noun if f is not None and f.noun else metric


def _gap(c: dict) -> str:
    g, lo, hi = c["gap"]
    places = max(1, points(lo, hi))
    return f"{100 * g:.{places}f} [{100 * lo:.{places}f}, {100 * hi:.{places}f}] percentage points"


def balance_findings(s: dict) -> list[str]:
    """A balance search (``BalanceResult.summary``) in words: what to play, and what the fresh
    games show. The seats are called fair within the tolerance only when the fresh games show
    every seat within it of the average seat at once (``status`` balanced); otherwise the
    sentence says how close the handicap came. Chances are in percentage points, never plain
    points, which a handicap such as ``start_points`` counts in."""
    option, values, base = s["handicap"], s["values"], s["base"]
    before, after = s["before"]["gap"], s["after"]["gap"]
    tolerance = f"{100 * s['tolerance']:g} percentage point{'' if s['tolerance'] == 0.01 else 's'}"
    out = []
    if list(values) == list(base):
        out.append(f"Keep {option} as it is ({_inline(base)}): no handicap found evens the seats further.")
    elif len(set(values)) == 1 and len(set(base)) == 1:
        out.append(f"The search recommends {option} = {_inline(values)} instead of {_inline(base)}: the same for "
                   "every seat, a change of the game rather than a handicap between the seats.")  # fmt: skip
    else:
        out.append(f"The search recommends {option} = {_inline(values)} instead of {_inline(base)}.")
    fresh = (
        f"On {s['confirm']['games']:,} fresh games the largest gap between two seats' chances of winning goes from "
        f"{_gap(s['before'])} to {_gap(s['after'])}"
    )
    unshown = (
        f"these games do not show every seat within {tolerance} of the average seat's chance (the furthest is "
        f"{100 * s['fresh_max_deviation']:.1f} percentage points off by estimate)"
    )
    if after[1] > before[2]:
        out.append(fresh + ": the handicap makes the seats less even there, so keep the rules as they are.")
    elif s["status"] == "balanced":
        out.append(fresh + f": every seat is within {tolerance} of the average seat's chance, fair as asked.")
    elif after[2] < before[1]:
        out.append(fresh + f": the handicap brings the seats closer, but {unshown}; more games would tell.")
    elif list(values) != list(base):
        out.append(fresh + f": a difference these games cannot tell from noise, so keep the rules as they are; "
                   f"{unshown}.")  # fmt: skip
    else:
        out.append(fresh + f"; {unshown}.")
    if s.get("novices") is not None:
        n = s["novices"]
        word = "holds" if n["holds"] else "does not hold"
        out.append(
            f"With novice players the handicap {word}: largest gap {_gap(n['before'])} before, "
            f"{_gap(n['after'])} after."
        )
    return out


def _inline(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]" if isinstance(values, list | tuple) else str(values)


def tune_findings(s: dict, matters: Mapping | None = None) -> list[str]:
    """A tune search (``TuneResult.summary``) in words: the value to play and what fresh games
    show, and whether that meets the target within what matters (``matters``: the margins by
    figure, the registry's where it says nothing)."""
    option = s["vary"]["option"] + (f" (seat {s['vary']['seat']})" if s["vary"]["seat"] is not None else "")
    words, goal = metric_words(s["target"]["metric"]), s["target"]["value"]
    m = s["metric"]
    lo, hi = m["ci"]
    f = target_figure(s["target"]["metric"])
    places = 0 if f is not None and f.kind == "quantile" else decimals(hi - lo)  # (whole steps)
    rate = s["target"]["metric"].startswith("win_rate.") or (f is not None and f.kind == "rate")
    show = (lambda x: percent(x, points(lo, hi))) if rate else (lambda x: number(x, places))
    got = f"{show(m['value'])} [{show(lo)}, {show(hi)}] on {m['games']:,} fresh games"
    if s["status"] == "out of reach":
        out = [
            f"No {option} from {s['vary']['range'][0]} to {s['vary']['range'][1]} brings {words} to {show(goal)}; "
            f"the nearest is {s['best']}: it gives {got}, {_meets(s, show, matters)}."
        ]
    else:
        out = [f"For {words} of {show(goal)}, play {option} = {s['best']}: it gives {got}, {_meets(s, show, matters)}."]
    if s.get("estimate") is not None and s["status"] != "out of reach":
        out.append(f"Between whole values the target lies at {option} = {s['estimate']:.2f}.")
    return out


def _meets(s: dict, show, matters: Mapping | None) -> str:
    """Whether a tune's answer meets its target: its interval on the fresh games within what
    matters of the target (the target figure's margin; a share of the target for a relative
    one, a percentage point for a seat's win rate, any --matters given), beyond it, or neither."""
    goal, (lo, hi) = s["target"]["value"], s["metric"]["ci"]
    m = _target_margin(s, matters)
    if m is None:
        return "which holds the target" if lo <= goal <= hi else "close to the target but not on it"
    said = verdict(lo - goal, hi - goal, m)
    within = f"within {show(m) if s['target']['metric'].startswith('win_rate.') else _plain(m)} of it"
    if said == NEGLIGIBLE and lo <= goal <= hi:
        return f"which meets the target: what it gives lies {within}, closer than anyone would notice"
    if said == NEGLIGIBLE:  # (sure it is off the target, and sure it is off by less than matters)
        return f"not exactly the target (it lies outside the interval) but {within}, closer than anyone would notice"
    if said == MATTERS:
        return f"which misses the target by more than matters ({within.replace('within', 'more than')})"
    return f"close to the target; these games cannot tell whether it lies {within}"


def _plain(x: float) -> str:
    return f"{x:.3g}"


def _target_margin(s: dict, matters: Mapping | None) -> float | None:
    """The smallest difference that matters around a tune's target (None: the figure has none)."""
    from snakesim.analysis.verdicts import margin_for

    metric = s["target"]["metric"]
    f = target_figure(metric)
    row = "win_rate" if metric.startswith("win_rate.") else f.id if f is not None else None
    if row is None:
        return None
    m = margin_for(row, matters)
    return None if m is None else m.of(s["target"]["value"])


# A skill line-up (field, odd player's kind) in words: the player, and what its edge measures.
LINEUP_WORDS = {
    ("random", "greedy"): ("one careful player among random ones", "careful play among random players"),
    ("greedy", "random"): ("one random player among careful ones", "random play among careful players"),
    ("greedy", "expert"): ("one player who thinks ahead among careful ones", "thinking ahead among careful players"),
    ("greedy", "oracle"): (
        "one player who sees every card among careful ones",
        "seeing every card among careful players",
    ),
    ("greedy", "novice"): ("one novice among careful players", "a novice's mistakes among careful players"),
}


def skill_findings(table: pd.DataFrame, shares: pd.DataFrame, matters: Mapping | None = None) -> list[str]:
    """A skill measurement (``SkillResult``) in words: each player count's verdict, then each odd
    player's edge in percentage points over a field player at the same seats (paired 95% intervals),
    called a change only where it is as large as matters (the win rate's margin, 1 percentage point
    unless ``matters`` says otherwise), about as often where it is smaller, and undecided else."""
    from snakesim.analysis.verdicts import margin_for

    margin = margin_for("win_rate", matters).amount
    out = []
    words = {lineup: who for lineup, (who, _) in LINEUP_WORDS.items()}
    for row in shares.itertuples():
        lines = table[(table["players"] == row.players) & (table["player"] != table["field"])]
        text = f"{row.players} players: {row.verdict}"
        if row.skill_share == row.skill_share:
            text += (
                f"; thinking ahead captures {100 * row.skill_share:.0f}% [{100 * row.low:.0f}%, "
                f"{100 * row.high:.0f}%] of what seeing every card is worth"
            )
        out.append(text + ".")
        for r in lines.itertuples():
            who = words.get((r.field.partition(":")[0], _kind(r.player)))
            if who is None:
                continue
            places = max(1, points(r.edge_low, r.edge_high))
            ci = signed(r.edge, r.edge_low, r.edge_high, places, 100)
            said = verdict(r.edge_low, r.edge_high, margin)
            size = f"{100 * margin:g} percentage point" + ("" if margin == 0.01 else "s")
            word = "more" if r.edge > 0 else "less"
            if said == MATTERS:
                text = (f"{who.capitalize()} wins {100 * abs(r.edge):.{places}f} percentage points {word} often than a "
                        f"field player at the same seats ({ci} percentage points)")  # fmt: skip
            elif said == NEGLIGIBLE:
                text = (f"{who.capitalize()} wins about as often as a field player at the same seats, within {size} "
                        f"({ci} percentage points)")  # fmt: skip
            else:
                text = (f"{who.capitalize()} wins {100 * abs(r.edge):.{places}f} percentage points {word} often than a "
                        f"field player at the same seats ({ci} percentage points), but these games cannot tell "
                        f"whether by as much as matters ({size})")  # fmt: skip
            # (the field player's share is its own win rate in those seats, not an equal share)
            out.append(f"{text}: {percent(r.win_rate, places)} of games, where a field player in its seats wins "
                       f"{percent(r.fair_share, places)}.")  # fmt: skip
    return out


def skill_difference_findings(differences: pd.DataFrame) -> list[str]:
    """How each rule set changes what playing well is worth against the first rule set
    (``skill.skill_differences``): a change only where its Holm-adjusted test finds it."""
    words = {lineup: what for lineup, (_, what) in LINEUP_WORDS.items()}
    out = []
    for (arm, n), rows in differences.groupby(["arm", "players"], sort=False):
        moved = []
        for r in rows.itertuples():
            what = words.get((r.field.partition(":")[0], _kind(r.player)))
            if what is None:
                continue
            places = max(1, points(r.diff_low, r.diff_high))
            change = (
                f"{fixed(100 * r.base_edge, places, True)} -> {fixed(100 * r.edge, places, True)} percentage points "
                f"({signed(r.diff, r.diff_low, r.diff_high, places, 100)}, Holm p {p_text(r.p_holm)})"
            )  # fmt: skip
            if r.p_holm < ALPHA:
                moved.append(f"{what} is worth {'more' if r.diff > 0 else 'less'}: {change}")
            else:
                moved.append(f"{what}: no change found, {change}")
        if moved:
            out.append(f"{arm}, {n} players: " + "; ".join(moved) + ".")
    return out


def _kind(player: str) -> str:
    name, _, rate = player.partition(":")
    return "novice" if name == "greedy" and rate else name


def sweep_findings(table: pd.DataFrame, axis: str, unit: str = "turns", matters: Mapping | None = None) -> list[str]:
    """A sweep (``snakesim.analysis.sweep.sweep``) in words, for each player count: how the
    average length (in ``unit``), seat 0's chance and the lead changes move from the first value
    of ``axis`` to the last, against the smallest difference that matters: a move that matters
    (the two ends' difference, its interval from theirs, lies beyond the margin), one too small
    to notice (it lies inside), or one these games cannot tell."""
    from snakesim.analysis.verdicts import margin_for

    out = []
    for players, rows in table.groupby("players"):
        first, last = rows[axis].iloc[0], rows[axis].iloc[-1]
        span = f"as {axis} goes from {first} to {last}"
        for metric, what in (
            ("length", f"the average game ({unit})"),
            ("win_rate.0", "seat 0's chance of winning"),
            ("lead_changes", "the lead changes a game"),
        ):
            line = rows[rows["metric"] == metric]
            if line.empty:
                continue
            a, b = line.iloc[0], line.iloc[-1]
            rate = metric == "win_rate.0"
            places = points(a["low"], a["high"]) if rate else decimals(a["high"] - a["low"])
            show = (lambda x, p=places: percent(x, max(1, p))) if rate else (lambda x, p=places: number(x, p))
            if metric == "length" and (line["high"] - line["low"]).max() < SAME and np.ptp(line["value"]) < SAME:
                out.append(f"{players} players: every game lasts {number(a['value'], 0)} {unit} at every point.")
            elif np.ptp(line["value"].to_numpy(dtype=float)) < SAME:
                out.append(f"{players} players: {what} is {show(a['value'])} at every point.")
            else:
                m = margin_for(metric, matters).of(a["value"])
                d = b["value"] - a["value"]
                half = math.hypot((a["high"] - a["low"]) / 2, (b["high"] - b["low"]) / 2)  # (two separate runs)
                said = verdict(d - half, d + half, m)
                ends = (f"from {show(a['value'])} [{show(a['low'])}, {show(a['high'])}] to {show(b['value'])} "
                        f"[{show(b['low'])}, {show(b['high'])}] {span}")  # fmt: skip
                size = f"{100 * m:g} percentage point{'s' if m != 0.01 else ''}" if rate else _plain(m)
                if said == MATTERS:
                    out.append(f"{players} players: {what} goes {ends}.")
                elif said == NEGLIGIBLE:
                    out.append(
                        f"{players} players: {what} stays between {show(line['value'].min())} and "
                        f"{show(line['value'].max())} {span}: the two ends differ by less than {size}, too little "
                        "to notice."
                    )
                else:
                    out.append(f"{players} players: {what} goes {ends}; these games cannot tell whether by as much as "
                               f"matters ({size}).")  # fmt: skip
    return out


def design_findings(s: dict, spec) -> list[str]:
    """A design search (``DesignResult.summary``) in words: the rule sets that meet every
    target and what fresh games show for the best, or the nearest miss and by how much; the
    near misses, the undecided, and the games the racing saved."""
    targets = s["targets"]
    out = []
    answers, c, search = s["answers"], s["counts"], s["search"]
    if answers:
        names = "; ".join(a["label"] for a in answers[:3]) + (
            f" and {len(answers) - 3} more" if len(answers) > 3 else ""
        )
        out.append(f"{len(answers)} rule set{'s' if len(answers) > 1 else ''} meet{'' if len(answers) > 1 else 's'} "
                   f"every target: {names}.")  # fmt: skip
        best = answers[0]
        slipped = [a["label"] for a in answers if a.get("confirmed") and not a["confirmed"]["holds"]]
        said = (
            "the surest (the furthest inside the targets)"
            if s["prefer"] is None
            else f"the best on {metric_words(s['prefer']['metric'])}"
        )
        if slipped and best.get("confirmed", {}).get("holds"):
            said = said.replace("the surest", "the surest of those that hold on fresh games").replace(
                "the best on", "the best of those that hold on fresh games on"
            )
        conf = best.get("confirmed")
        lead = f"Of them, {said} is {best['label']}: on" if len(answers) > 1 else "On"
        if conf is not None:
            figures = ", ".join(f"{_target_words(t)} {_target_value(t, conf['figures'][t['metric']])}" for t in targets)
            crosses = any(_crosses(t, conf["figures"][t["metric"]]["ci"]) for t in targets)
            held = (
                "every target holds there"
                + (" (each estimate on its target, each interval within what matters of it)" if crosses else "")
                if conf["holds"]
                else "but not every target holds there: "
                + ", ".join(_target_words(t) for t in targets if conf["calls"][t["metric"]] != "meets")
            )
            out.append(f"{lead} {conf['games']:,} fresh games {figures}; {held}.")
        if slipped:
            land = "lands" if len(slipped) == 1 else "land"
            out.append(f"On fresh games {len(slipped)} of the {len(answers)} {land} off a target "
                       f"({'; '.join(slipped)}): by less than matters where called near; prefer the answers that "
                       "hold there.")  # fmt: skip
    else:
        out.append("No rule set meets every target.")
        for a in s["nearest"]:
            misses = "; ".join(f"{_target_words(t)} is {_target_value(t, a['figures'][t['metric']])}, "
                               f"about {shortfall_words(t, m['by'])} off {t['text']}"
                               for m in a["misses"] for t in targets if t["metric"] == m["metric"])  # fmt: skip
            # (the search's games: its fresh games' figures, in the table, differ a little)
            where = " on the search's games" if misses else ""
            out.append(f"The nearest is {a['label']}{where}: "
                       f"{misses or 'it is within what matters of every target'}.")  # fmt: skip
        if len(s["pareto"]) > 1:
            out.append(
                f"The targets compete: {len(s['pareto'])} rule sets each come nearer one target only by going "
                f"further from another ({'; '.join(s['pareto'][:4])}{' ...' if len(s['pareto']) > 4 else ''})."
            )
    # (with no answer the nearest miss may be near itself: "more" leaves it out)
    near = c["near"] - (not answers and bool(s["nearest"]) and s["nearest"][0]["status"] == "near")
    if near:
        out.append(f"{near} more rule set{'s come' if near > 1 else ' comes'} within what matters of every "
                   "target without being on all of them.")  # fmt: skip
    if c["edge"]:
        sit = "s sit" if c["edge"] > 1 else " sits"
        named = s.get("edge") or []
        which = f" ({'; '.join(named)})" if named and len(named) == c["edge"] else ""
        out.append(f"{c['edge']} rule set{sit} at the edge of a target{which}: off it by about as much as matters, "
                   "which more games would hardly settle.")  # fmt: skip
    if c["undecided"]:
        out.append(f"{c['undecided']} rule set{'s' if c['undecided'] > 1 else ''} stayed undecided when the budget ran "
                   "out; more games in all (--budget) would settle them.")  # fmt: skip
    grid = search["rule_sets"] * search["most_games_a_rule_set"]
    fresh = search["games_in_all"] - search["games_played"]
    if search["racing"] and search["games_played"] < grid:
        out.append(
            f"The search played {search['games_played']:,} games"
            + (f" and {fresh:,} fresh ones to confirm" if fresh else "")
            + f"; giving every rule set as many games as the most-played one needed would have taken {grid:,}."
        )
    return out


def _crosses(t: dict, ci) -> bool:
    """Whether an interval reaches past a design target's edge (a family read "[1.1, 2.4] ...
    holds" against "at most 2" as a contradiction)."""
    low, high = Target.of(t).region
    return ci[0] < low or ci[1] > high


def _target_words(t: dict) -> str:
    if t["metric"] == "seat_gap":
        return "the largest gap between two seats' win rates"
    return metric_words(t["metric"])


def _target_value(t: dict, f: dict) -> str:
    """A target's figure and interval in words: percent for a share, points for the seat gap."""
    x, (lo, hi) = f["value"], f["ci"]
    if t["metric"] == "seat_gap":
        places = max(1, points(lo, hi))
        return f"{fixed(100 * x, places)} points [{fixed(100 * lo, places)}, {fixed(100 * hi, places)}]"
    if is_share(t["metric"]):
        return rate_ci(x, (lo, hi), points(lo, hi))
    if not all(map(math.isfinite, (x, lo, hi))):
        return f"{x:g} [{lo:g}, {hi:g}]"
    f = target_figure(t["metric"])
    places = 0 if f is not None and f.kind == "quantile" else decimals(hi - lo)  # (a quantile: whole steps)
    return f"{number(x, places)} [{number(lo, places)}, {number(hi, places)}]"


def shortfall_words(t: dict, by: float) -> str:
    """How far a design target is missed (``by``, in the metric's terms), in its unit: points
    for the seat gap, percentage points for a share (a difference of shares is no share)."""
    if t["metric"] == "seat_gap":
        return f"{100 * by:.2g} points"
    if is_share(t["metric"]):
        return f"{100 * by:.2g} percentage points"
    return f"{by:.3g}"
