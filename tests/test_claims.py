"""Every sentence checked against its numbers: a comparison's findings carry their claims, and no
claim says more, or less, than its row's interval and margin (snakesim.questions.claims).

A property test builds many comparisons (hypothesis): two or three rule sets, any of the compared
figures, few games or many, each true difference at zero, inside, at and beyond what matters, its
interval narrow or wide; and holds every sentence's claims to the rows.
"""

import math

import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from snakesim.analysis.compare import COLUMNS
from snakesim.analysis.verdicts import MATTERS, NEGLIGIBLE, UNDECIDED, add_verdicts, margin_for
from snakesim.core.figures import COMPARED
from snakesim.games import get_game
from snakesim.questions.claims import check, claim
from snakesim.questions.compare import compare_findings

FORTUNE = get_game("fortune")
# Every compared figure of Fortune but the seats' chances, which every comparison has (2 seats).
ROWS = [f.row() for f in COMPARED if f.exists(FORTUNE) and not f.per_seat]
SEATS = ["win_rate.0", "win_rate.1"]
BASE = {"rate": 0.3, "mean": 40.0}


def row(arm: str, metric: str, value: float, half: float, diff=math.nan, width=math.nan) -> dict:
    """A comparison row as compare_tables gives it (its verdict added later)."""
    f = COMPARED_BY[metric.partition(".")[0]]
    kind = "rate" if f.kind == "rate" else "mean"
    out = dict(zip(COLUMNS, [arm, metric, kind, value, value - half, value + half, diff, diff - width, diff + width,
                             0.5 if diff == diff else math.nan, 0.5 if diff == diff else math.nan, "paired t", 0.99,
                             math.nan, math.nan, math.nan], strict=True))  # fmt: skip
    out["label"] = f.label.format(seat=metric.partition(".")[2], length="cards drawn", score="coins")
    out["unit"] = "fraction" if f.percent else "coins" if metric == "margin" else "cards drawn"
    return out


COMPARED_BY = {f.id: f for f in COMPARED}


@st.composite
def comparisons(draw):
    """A comparison's table: its figures, rule sets, games, and each difference's true size (in
    margins: 0, inside, at, beyond) and its interval's half-width (in margins)."""
    metrics = SEATS + draw(st.lists(st.sampled_from(ROWS), max_size=6, unique=True))
    arms = ["a", "b", "c"][: draw(st.integers(2, 3))]
    games = draw(st.sampled_from([200, 2_000, 200_000]))
    rows = []
    for metric in metrics:
        kind = COMPARED_BY[metric.partition(".")[0]].kind
        base = BASE["rate" if kind == "rate" else "mean"]
        margin = margin_for(metric).of(base)
        rows.append(row(arms[0], metric, base, margin))
        for arm in arms[1:]:
            size = draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0])) * draw(st.sampled_from([1, -1]))
            half = draw(st.sampled_from([0.05, 0.4, 1.0, 2.5]))
            diff = size * margin
            rows.append(row(arm, metric, base + diff, margin, diff, half * margin))
    table = pd.DataFrame(rows, columns=[*COLUMNS, "label", "unit"])
    add_verdicts(table, games)
    return table, games


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(comparisons())
def test_no_sentence_says_more_or_less_than_its_numbers(comparison):
    table, games = comparison
    findings = compare_findings(table, FORTUNE, 2, games)
    claims = [c for f in findings for c in f["claims"]]
    assert check(claims, table) == []
    # every difference judged is claimed by the sentences of its rule set, as its verdict says
    judged = table[table["verdict"].isin([MATTERS, NEGLIGIBLE, UNDECIDED])]
    said = {(c["arm"], c["metric"], c["says"]) for c in claims}
    for r in judged.itertuples():
        assert (r.variant, r.metric, r.verdict) in said, (r.variant, r.metric, r.verdict)
    # the headline claims every change that matters, and says nothing changes only when none does
    for arm in table["variant"].unique()[1:]:
        head = next(f for f in findings if f["arm"] == arm)
        moved = set(judged[(judged["variant"] == arm) & (judged["verdict"] == MATTERS)]["metric"])
        assert {c["metric"] for c in head["claims"] if c["says"] == MATTERS} == moved
        if "changes nothing you would notice at the table." in head["text"]:
            assert not moved and not (judged[judged["variant"] == arm]["verdict"] == UNDECIDED).any()


def test_the_checker_finds_a_claim_its_numbers_do_not_bear_out():
    table = pd.DataFrame(
        [
            row("a", "length", 40.0, 1.0),
            row("b", "length", 44.0, 1.0, 4.0, 1.0),
            row("a", "draw", 0.0, 0.0),
            row("b", "draw", 0.0, 0.0),
        ],
        columns=[*COLUMNS, "label", "unit"],
    )
    table.loc[table["metric"] == "draw", "high"] = 0.0004
    add_verdicts(table, 2_000)  # (length: +4 [+3, +5] against 5% of 40 = 2: it matters, upwards)
    assert check([claim(MATTERS, "length", "b", direction=1)], table) == []
    assert check([claim(NEGLIGIBLE, "length", "b")], table) == [
        "b: length: said negligible, but its interval [3, 5] against 2 is matters"
    ]
    assert check([claim(MATTERS, "length", "b", direction=-1)], table) == [
        "b: length: said to move down, but its interval is [3, 5]"
    ]
    assert check([claim("not seen", "draw", bound=0.0004)], table) == []
    assert check([claim("not seen", "draw", bound=0.0)], table) == [
        "draw: said not seen with a bound of 0.0, but the intervals reach 0.0004"
    ]
    assert check([claim("not seen", "length", bound=0.0004)], table)[0] == (
        "length: said not seen, but a rule set's value is not 0"
    )
    with pytest.raises(ValueError, match="a claim says one of"):
        claim("never", "draw")


# ---------------------------------------------------------------------------- balance and skill, in words

GAP = st.tuples(st.floats(0.0, 0.1), st.floats(0.0, 0.05)).map(lambda t: (t[0], max(0.0, t[0] - t[1]), t[0] + t[1]))


@settings(max_examples=150, deadline=None)
@given(status=st.sampled_from(["balanced", "not balanced", "cannot balance", "within tolerance by estimate",
                               "undecided"]),
       searched=st.sampled_from(["balanced", "cannot balance", "within tolerance by estimate", "undecided"]),
       before=GAP, after=GAP, same=st.booleans())  # fmt: skip
def test_a_balance_answer_is_said_as_its_status_and_its_gaps_allow(status, searched, before, after, same):
    """Fair as asked only when balanced; not fair within that tolerance only when surely not; more games would
    tell only of an answer the fresh games leave open; the search's own question apart."""
    from snakesim.questions.balance import balance_findings

    s = {"handicap": "hand_size", "values": [7, 7, 7] if same else [8, 7, 7], "base": [7, 7, 7], "tolerance": 0.01,
         "status": status, "fresh_max_deviation": 0.012, "confirm": {"games": 10_000}, "before": {"gap": before},
         "after": {"gap": after}, "search": {"status": searched, "games_per_candidate": 20_000},
         "novices": None}  # fmt: skip
    text = " ".join(balance_findings(s))
    worse = after[1] > before[2]
    fair = "fair within that tolerance" in text.replace("not fair within that tolerance", "")
    assert fair == (status == "balanced" and not worse)
    assert ("not fair within that tolerance" in text) == (status == "not balanced" and not worse)
    if "more games would tell" in text or "more fresh games" in text:
        assert status in ("within tolerance by estimate", "undecided", "cannot balance") and not worse
    assert ("Whether other values" in text) == (status != "balanced" and searched == "undecided")
    assert ("less even" in text) == worse


@settings(max_examples=200, deadline=None)
@given(relative=st.floats(-0.3, 1.0), edge=st.floats(-0.05, 0.2), half=st.floats(0.0005, 0.05))
def test_a_skill_verdict_is_never_stronger_or_softer_than_the_experts_edge(relative, edge, half):
    from snakesim.analysis.skill import verdict

    low, high = edge - half, edge + half
    said = verdict(relative, low, high, margin=0.01)
    matters = low >= 0.01 or high <= -0.01
    if "changes little" in said:
        assert not matters
    if said.endswith(("thinking ahead pays", "thinking ahead pays a lot")):
        assert matters and low > 0
    if "a small edge that matters" in said:
        assert low >= 0.01


@settings(max_examples=150, deadline=None)
@given(first=st.floats(20.0, 200.0), change=st.floats(-0.3, 0.3), half=st.floats(0.001, 0.2))
def test_a_sweeps_ends_are_said_as_their_intervals_allow(first, change, half):
    """A sweep's length from its first point to its last: "goes from" only where the two ends'
    difference (its interval from theirs) lies beyond what matters (5% of the first), "too little
    to notice" only inside it, "cannot tell" otherwise."""
    from snakesim.analysis.verdicts import verdict
    from snakesim.questions.sweep import sweep_findings

    assume(abs(change) > 1e-9)  # (one value at every point is said as that, not as a change)
    last = first * (1 + change)
    h1, h2 = first * half, last * half
    table = pd.DataFrame({"players": 3, "start_coins": [10, 20], "metric": "length", "value": [first, last],
                          "low": [first - h1, last - h2], "high": [first + h1, last + h2]})  # fmt: skip
    (said,) = sweep_findings(table, "start_coins", "cards drawn")
    d, spread = last - first, math.hypot(h1, h2)
    judged = verdict(d - spread, d + spread, 0.05 * first)
    assert ("too little to notice" in said) == (judged == NEGLIGIBLE)
    assert ("cannot tell" in said) == (judged == UNDECIDED)
    moves = "(cards drawn) goes from" in said
    assert (moves and "cannot tell" not in said) == (judged == MATTERS)


@settings(max_examples=150, deadline=None)
@given(goal=st.floats(30.0, 100.0), off=st.floats(-0.2, 0.2), half=st.floats(0.001, 0.1))
def test_a_tunes_answer_meets_its_target_only_as_its_interval_allows(goal, off, half):
    """A tune's answer on fresh games against its target (length.mean, 5% of the target matters):
    "meets the target" only when its interval lies within what matters, "misses ... by more than
    matters" only beyond it."""
    from snakesim.analysis.verdicts import verdict
    from snakesim.questions.tune import tune_findings

    value = goal * (1 + off)
    low, high = value - goal * half, value + goal * half
    s = {"vary": {"option": "start_coins", "seat": None, "range": [5, 40]}, "status": "met", "best": 20,
         "estimate": None, "target": {"metric": "length.mean", "value": goal},
         "metric": {"value": value, "ci": [low, high], "games": 10_000}}  # fmt: skip
    said = " ".join(tune_findings(s))
    judged = verdict(low - goal, high - goal, 0.05 * goal)
    if "which meets the target" in said or "closer than anyone would notice" in said:
        assert judged == NEGLIGIBLE
    if "misses the target by more than matters" in said:
        assert judged == MATTERS
    if judged == MATTERS:
        assert "misses the target by more than matters" in said


def test_a_target_no_option_moves_is_said_so_first():
    """Hisss's length under ring_reach is 49 in every rule set: the nearest miss "about 9 off"
    beside equal bars read as if some value could reach it."""
    from snakesim.questions.design import design_findings

    target = {"metric": "length.mean", "op": "<=", "value": 40.0, "tolerance": 0.0, "margin": 2.0, "scale": 1,
              "text": "length.mean <= 40"}  # fmt: skip
    s = {"targets": [target], "answers": [], "nearest": [], "pareto": [], "prefer": None,
         "counts": {"near": 0, "edge": 0, "undecided": 0, "meets": 0},
         "search": {"rule_sets": 3, "most_games_a_rule_set": 200, "games_in_all": 600, "games_played": 600,
                    "racing": True}}  # fmt: skip
    table = pd.DataFrame({"label": ["ring_reach=0", "ring_reach=1", "ring_reach=2"], "games": 200,
                          "length.mean": 49.0})  # fmt: skip
    said = design_findings(s, FORTUNE, table)
    assert said[0] == ("None of the options varied moves the average game length: it is 49 in every rule set played "
                       "(3), so no value of them reaches length.mean <= 40.")  # fmt: skip
    table["length.mean"] = [49.0, 48.0, 47.0]
    assert not any("moves" in line for line in design_findings(s, FORTUNE, table))


# ---------------------------------------------------------------------------- design


DESIGN_TARGETS = [
    {"metric": "length.mean", "op": "=", "value": 50.0, "tolerance": 5.0, "margin": 2.5, "scale": 1,
     "text": "length.mean = 50 +- 5"},
    {"metric": "seat_gap", "op": "<=", "value": 0.02, "tolerance": 0.0, "margin": 0.01, "scale": 100,
     "text": "seat_gap <= 2 points"},
]  # fmt: skip


def _design_summary(figures: dict, nearest: dict | None) -> dict:
    """A design search's summary with one answer confirmed on fresh games (``figures``, each
    target's value and interval; its calls by the search's own rule), or with none, the nearest
    miss (``nearest``, each target's value on the search's games)."""
    from snakesim.analysis.design import MEETS, call
    from snakesim.analysis.design_space import Target

    calls = {t["metric"]: call(Target.of(t), f["value"], *f["ci"]) for t, f in zip(DESIGN_TARGETS, figures.values(),
                                                                                    strict=True)}  # fmt: skip
    s = {"targets": DESIGN_TARGETS, "answers": [], "nearest": [], "pareto": [], "prefer": None,
         "counts": {"near": 0, "edge": 0, "undecided": 0, "meets": 0},
         "search": {"rule_sets": 9, "most_games_a_rule_set": 400, "games_in_all": 3600, "games_played": 3600,
                    "racing": False}}  # fmt: skip
    if nearest is None:
        holds = all(c == MEETS for c in calls.values())
        s["answers"] = [{"label": "answer", "confirmed": {"games": 4000, "figures": figures, "calls": calls,
                                                         "holds": holds}}]  # fmt: skip
        return s
    misses = [{"metric": t["metric"], "by": Target.of(t).shortfall(nearest[t["metric"]]["value"])}
              for t in DESIGN_TARGETS if Target.of(t).shortfall(nearest[t["metric"]]["value"]) > 0]  # fmt: skip
    s["nearest"] = [{"label": "nearest", "figures": nearest, "misses": misses, "status": "misses"}]
    return s


@settings(max_examples=200, deadline=None)
@given(length=st.floats(35.0, 65.0), length_half=st.floats(0.1, 6.0), gap=st.floats(0.0, 0.05),
       gap_half=st.floats(0.001, 0.02), answer=st.booleans())  # fmt: skip
def test_a_design_answer_is_said_as_its_fresh_intervals_allow(length, length_half, gap, gap_half, answer):
    """Whether every target holds on fresh games, and which do not, follow each target's interval
    against the target widened by what matters; a nearest miss is off by what its value says."""
    from snakesim.analysis.design import MEETS, call
    from snakesim.analysis.design_space import Target
    from snakesim.questions.design import _target_words, design_findings, shortfall_words

    figures = {"length.mean": {"value": length, "ci": [length - length_half, length + length_half]},
               "seat_gap": {"value": gap, "ci": [max(0.0, gap - gap_half), gap + gap_half]}}  # fmt: skip
    said = " ".join(design_findings(_design_summary(figures, None if answer else figures), FORTUNE))
    targets = [Target.of(t) for t in DESIGN_TARGETS]
    if answer:
        off = [_target_words(d) for d, t in zip(DESIGN_TARGETS, targets, strict=True)
               if call(t, figures[d["metric"]]["value"], *figures[d["metric"]]["ci"]) != MEETS]  # fmt: skip
        assert ("; every target holds there" in said) == (not off)
        if off:
            assert f"but not every target holds there: {', '.join(off)}." in said
        crosses = any(f["ci"][0] < t.region[0] or f["ci"][1] > t.region[1] for t, f in zip(targets, figures.values(),
                                                                                            strict=True))  # fmt: skip
        assert ("each interval within what matters of it" in said) == (crosses and not off)
    else:
        for d, t in zip(DESIGN_TARGETS, targets, strict=True):
            by = t.shortfall(figures[d["metric"]]["value"])
            assert (f"about {shortfall_words(d, by)} off {d['text']}" in said) == (by > 0)
        assert ("within what matters of every target" in said) == all(t.shortfall(f["value"]) == 0
                                                                       for t, f in zip(targets, figures.values(),
                                                                                       strict=True))  # fmt: skip
