"""Design search: the games the racing plays against an exhaustive grid at the same precision.

For one question per game (Fortune, Rainbow, Hisss), the racing search (``snakesim design``)
plays its rounds; the exhaustive grid then plays every rule set as many games as the racing
gave its most-played one (the games the hardest rule set needed to be decided), and calls each
target on fixed-size intervals at the same level split over the same rule sets and targets.
Printed: the games each played (the search only: the confirmation on fresh games is the same
for both), their ratio (target, issue 45: at most a quarter), and whether the two agree: the
same answers, and no rule set that one calls an answer the other drops as a miss.

This counts games, not seconds, so the machine's load does not move it; the seeds are fixed.

    python benchmarks/bench_design.py [--seed 1]
"""

from __future__ import annotations

import argparse

from _common import load, machine

from snakesim.analysis.design import MEETS, MISSES, design
from snakesim.analysis.design_space import parse_target, parse_vary
from snakesim.core.arms import Budget, RuleSource, resolve_rules
from snakesim.games import get_game

QUESTIONS = (
    ("fortune", ("start_coins=8:20", "snakes=1:2", "variant=standard,rejoin"),
     ("length.median=60+-8", "out_share.mean<=0.22")),
    ("rainbow", ("hand_size=4:9", "variant=standard,wild-snake,poppies-orchids,both"),
     ("length.mean=40+-5", "comeback.share>=0.3")),
    ("hisss", ("points_per_snake=0:3", "points_per_longest=0:5"), ("tie_break.share<=0.1", "seat_gap<=6")),
)  # fmt: skip


def question(game: str, vary, goals, seed: int, players: int = 4):
    spec = get_game(game)
    rules = resolve_rules(spec)[1]
    dims = tuple(parse_vary(spec, rules, players, v) for v in vary)
    targets = tuple(parse_target(spec, players, t) for t in goals)
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
    print(f"{'game':<9}{'rule sets':>10}{'racing games':>14}{'grid games':>14}{'racing/grid':>13}  answers")
    for game, vary, goals in QUESTIONS:
        race, grid = question(game, vary, goals, args.seed)
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
        for k in sorted(answers_r ^ answers_g):
            print(f"{'':9}  differs: {k}: racing {status_r[k]}, grid {status_g[k]}")
    print(f"load {load()}")


if __name__ == "__main__":
    main()
