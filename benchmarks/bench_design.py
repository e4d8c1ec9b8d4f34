"""Design search: the games the racing plays against an exhaustive grid at the same precision.

For one question per game (Fortune, Rainbow, Hisss), the racing search (``snakesim design``)
plays its rounds; the exhaustive grid then plays every rule set as many games as the racing
gave its most-played one (the games the hardest rule set needed to be decided), and calls each
target on fixed-size intervals at the same level split over the same rule sets and targets.
Printed: the games each played (the search only: the confirmation on fresh games is the same
for both), their ratio (target, issue 45: at most a quarter), and whether the two agree: the
same answers, and no rule set that one calls an answer the other drops as a miss.

A fixed-size interval is narrower than the racing's (valid at any stopping time) on as many
games, so the last column also gives the grid the fewest games at which its intervals are as
narrow as the racing's were for its most-played rule set: an oracle grid, which would have to
know that number in advance (a grid that finds it by playing more is itself a sequential
search, and needs the wider intervals).

This counts games, not seconds, so the machine's load does not move it; the seeds are fixed.

    python benchmarks/bench_design.py [--seed 1]
"""

from __future__ import annotations

import argparse
import math
from statistics import NormalDist

from _common import load, machine

from snakesim.analysis.design import MEETS, MISSES, anytime_level, design
from snakesim.analysis.design_space import parse_question
from snakesim.analysis.verdicts import parse_matters
from snakesim.core.arms import Budget, RuleSource, resolve_rules
from snakesim.games import get_game

# (game, what varies, the targets, the differences that matter where not the registry's)
QUESTIONS = (
    ("fortune", ("start_coins=8:20", "snakes=1:2", "variant=standard,rejoin"),
     ("length.median=60+-8", "out_share.mean<=0.22"), None),
    ("rainbow", ("hand_size=4:9", "variant=standard,wild-snake,poppies-orchids,both"),
     ("length.mean=40+-5", "comeback.share>=0.3"), None),
    ("hisss", ("points_per_snake=0:3", "points_per_longest=0:3", "claim_joined=true,false"),
     ("tie_break.share<=0.02", "lead_changes.mean>=1.6"), "tie_break=0.5,lead_changes=0.1"),
)  # fmt: skip


def question(game: str, vary, goals, matters, seed: int, players: int = 4):
    spec = get_game(game)
    rules = resolve_rules(spec)[1]
    dims, targets, _ = parse_question(spec, rules, players, vary=vary, targets=goals, matters=parse_matters(matters))
    race = design(spec, RuleSource(), players, dims, targets, budget=Budget(2_000, seed, max_games=10**9),
                  confirm=False)  # fmt: skip
    most = race.summary["search"]["most_games_a_rule_set"]
    grid = design(spec, RuleSource(), players, dims, targets, budget=Budget(most, seed, max_games=10**10),
                  racing=False, confirm=False)  # fmt: skip
    return race, grid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{machine()}; load {load()}")
    print(
        f"{'game':<9}{'rule sets':>10}{'racing games':>14}{'grid games':>14}{'racing/grid':>13}  answers; "
        "racing / oracle grid"
    )
    for game, vary, goals, matters in QUESTIONS:
        race, grid = question(game, vary, goals, matters, args.seed)
        r, g = race.summary, grid.summary
        played_r, played_g = r["search"]["games_played"], g["search"]["games_played"]
        status_r = dict(zip(race.table["label"], race.table["status"], strict=True))
        status_g = dict(zip(grid.table["label"], grid.table["status"], strict=True))
        answers_r = {k for k, v in status_r.items() if v == MEETS}
        answers_g = {k for k, v in status_g.items() if v == MEETS}
        crossed = [k for k in answers_r if status_g[k] == MISSES] + [k for k in answers_g if status_r[k] == MISSES]
        agree = "the same" if answers_r == answers_g else f"{len(answers_r)} | {len(answers_g)}"
        print(
            f"{game:<9}{r['search']['rule_sets']:>10}{played_r:>14,}{played_g:>14,}{played_r / played_g:>13.2f}  "
            f"{len(answers_r)} | {len(answers_g)}: {agree}; answer in one, miss in the other: {len(crossed)}"
        )
        # The oracle grid: fixed-size intervals as wide as the racing's at its most games.
        most, alpha = r["search"]["most_games_a_rule_set"], r["search"]["race_alpha_each"]
        fixed, anytime = (
            NormalDist().inv_cdf(1 - alpha / 2),
            NormalDist().inv_cdf(0.5 + anytime_level(most, alpha, 8_000) / 2),
        )
        oracle = r["search"]["rule_sets"] * math.ceil(most * (fixed / anytime) ** 2)
        print(f"{'':9}  oracle grid: {oracle:,} games; racing / oracle grid {played_r / oracle:.2f}")
        for k in sorted(answers_r ^ answers_g):
            print(f"{'':9}  differs: {k}: racing {status_r[k]}, grid {status_g[k]}")
    print(f"load {load()}")


if __name__ == "__main__":
    main()
