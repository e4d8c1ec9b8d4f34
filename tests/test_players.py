"""Policies with a parameter: mistake rates (``greedy:0.3``) in every game with choices, and
the look-ahead policies (``expert:K``, ``oracle:K``) of Rainbow and Hisss: spelling and errors,
identity of the two engines, what a mistake rate does, and that the expert reads no hidden card."""

import numpy as np
import pytest
from click.testing import CliRunner

from snakesim.analysis.skill import skill
from snakesim.cli import cli
from snakesim.core.arms import Budget
from snakesim.core.columns import identical
from snakesim.core.errors import InputError
from snakesim.core.policies import beats_greedy, encode_policies, parse_policy, resolve_policies
from snakesim.core.rng import MAX_BOUND, Stream
from snakesim.games import get_game
from snakesim.games.hisss import exact as hisss_exact
from snakesim.games.hisss import reference as hisss_reference
from snakesim.games.rainbow import reference as rainbow_reference
from snakesim.games.rainbow.rules import RainbowRules
from snakesim.games.sssnake import reference as sssnake_reference
from tests.identity import assert_identical, assert_matches_exact, sizes

CHOICES = ("rainbow", "hisss", "sssnake")
LOOKAHEAD = ("rainbow", "hisss", "sssnake")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("greedy", "greedy"),
        ("greedy:0.25", "greedy:0.25"),
        (" greedy:0.30 ", "greedy:0.3"),
        ("greedy:0", "greedy"),
        ("greedy:1", "greedy:1"),
        ("expert", "expert:64"),
        ("expert:16", "expert:16"),
        ("oracle:8", "oracle:8"),
        ("random", "random"),
    ],
)
def test_policy_spellings(text, canonical):
    assert parse_policy(get_game("rainbow"), text) == canonical


@pytest.mark.parametrize(
    "text,words",
    [
        ("wizard", "unknown policy 'wizard'; expected one of random, greedy, expert, oracle"),
        ("random:0.3", "random takes no parameter"),
        ("greedy:1.5", "greedy:RATE takes a mistake rate from 0 to 1, got 'greedy:1.5'"),
        ("greedy:x", "mistake rate from 0 to 1"),
        ("greedy:nan", "mistake rate from 0 to 1"),
        ("greedy:-0.1", "mistake rate from 0 to 1"),
        ("expert:0", "expert:K takes a number of playouts K from 1 to 4096, got 'expert:0'"),
        ("expert:5000", "from 1 to 4096"),
        ("oracle:2.5", "from 1 to 4096"),
    ],
)
def test_bad_policies_name_the_field_and_what_is_allowed(text, words):
    with pytest.raises(InputError, match="policy") as error:
        parse_policy(get_game("rainbow"), text)
    assert words in str(error.value)


def test_bad_policy_on_the_command_line_is_one_line_and_status_2(tmp_path):
    out = tmp_path / "t.parquet"
    r = invoke("run", "hisss", "-p", 2, "--games", "10", "--policies", "greedy:2,greedy", "--out", out)
    assert r.exit_code == 2
    assert "mistake rate from 0 to 1" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists()
    r = invoke("run", "fortune", "--games", "10", "--policy", "greedy:0.3")
    assert r.exit_code == 2 and "fortune has no player choices" in r.stderr


def test_a_run_says_what_a_players_number_counts():
    """A designer read "expert:64" in a run's players and could not tell what 64 counts; each
    player spelled with a number is now said in words under the players, once each."""
    r = invoke("run", "hisss", "-p", 3, "--games", "4", "-t", "1", "--policies", "expert:4,greedy:0.3,expert:4")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("players in turn order"))
    assert lines[at + 1 : at + 3] == [
        "  expert:4: thinks ahead: plays each allowed move out in 4 imagined games and keeps the best; slow",
        "  greedy:0.3: a careful player who makes a random move 30% of the time",
    ]
    assert lines[at + 3] == ""  # (expert:4 once, plain greedy not at all)
    r = invoke("compare", "hisss", "-p", 2, "--games", "4", "-t", "1", "--policy", "greedy:0.5", "-v", "standard")
    assert r.exit_code == 0, r.stderr
    assert "\n  greedy:0.5: a careful player who makes a random move 50% of the time\n" in r.stdout


def test_policy_table_encodes_the_parameters():
    spec = get_game("sssnake")
    seats = resolve_policies(spec, 3, policies="friendly:0.25,greedy,random")
    assert seats == ("friendly:0.25", "greedy", "random")
    assert encode_policies(spec, seats).tolist() == [[2, MAX_BOUND // 4, 0], [1, 0, 0], [0, 0, 0]]
    assert encode_policies(get_game("hisss"), ["oracle:8", "expert"]).tolist() == [[3, 0, 8], [2, 0, 64]]


@pytest.mark.parametrize("game", CHOICES)
def test_a_zero_mistake_rate_is_the_plain_policy(game):
    # greedy:0 draws nothing extra, so it plays the very games plain greedy plays.
    spec = get_game(game)
    rules = spec.rules().updated({"feel": True})
    plain = spec.play_block(rules, 3, 4, 0, 200, policies=encode_policies(spec, ["greedy", "random", "greedy"]))
    zero = spec.play_block(rules, 3, 4, 0, 200, policies=encode_policies(spec, ["greedy:0", "random", "greedy"]))
    for name in plain:
        assert identical(plain[name], zero[name]), name


def _novices(spec, players):
    return encode_policies(spec, ["greedy:0.3", "random", *["greedy:0.05"] * (players - 2)])


@pytest.mark.parametrize("game", CHOICES)
@pytest.mark.parametrize("games", sizes(60, 600))
def test_engines_identical_with_mistake_rates(game, games):
    spec = get_game(game)
    module = __import__(f"snakesim.games.{game}", fromlist=["kernel", "reference"])
    for players in (2, 3, 4):
        assert_identical(
            module.kernel, module.reference, spec.rules(), players, 31, 1000 * players, games // 3,
            _novices(spec, players),
        )  # fmt: skip


@pytest.mark.parametrize("game", CHOICES)
def test_mistakes_cost_wins(game):
    # Seat 0 among greedy players: greedy, then greedy:0.3, then random (= greedy:1) win less.
    spec = get_game(game)
    games = 4_000 if game == "sssnake" else 20_000
    rates = {}
    for p0 in ("greedy", "greedy:0.3", "greedy:1"):
        out = spec.play_block(spec.rules(), 4, 5, 0, games, policies=encode_policies(spec, [p0] + ["greedy"] * 3))
        rates[p0] = (out["winner"] == 0).mean()
    se = np.sqrt(0.25 / games)
    assert rates["greedy"] - rates["greedy:0.3"] > 3 * se, rates
    assert rates["greedy:0.3"] - rates["greedy:1"] > 3 * se, rates


def test_hisss_exact_solver_takes_mistake_rates():
    # The exact chain mixes random and greedy by the rate; the kernel must agree within 4 SE.
    rules = __import__("tests.hisss.test_exact", fromlist=["SMALL"]).SMALL
    spec = get_game("hisss")
    table = encode_policies(spec, ["greedy:0.3", "greedy"])
    solution = hisss_exact.solve_hisss(rules, 2, policies=table)
    plain = hisss_exact.solve_hisss(rules, 2, policies=encode_policies(spec, ["greedy", "greedy"]))
    assert abs(solution.outcomes[("win", 0)] - plain.outcomes[("win", 0)]) > 0.005  # the rate changes the answer
    assert_matches_exact(spec.play_block(rules, 2, 12, 0, 200_000, policies=table), solution, 2)
    with pytest.raises(InputError, match="not expert or oracle"):
        hisss_exact.solve_hisss(rules, 2, policies=encode_policies(spec, ["expert:4", "greedy"]))


# ---------------------------------------------------------------- look-ahead


@pytest.mark.parametrize(
    "game,games",
    [
        *(pytest.param(g, n, id=f"{g}-{n}") for g in ("rainbow", "hisss") for n in (24,)),
        *(pytest.param(g, 2_000, id=f"{g}-2000", marks=pytest.mark.slow) for g in ("rainbow", "hisss")),
        pytest.param("sssnake", 3, id="sssnake-3"),  # a Sssnake reference game thinks for seconds
        pytest.param("sssnake", 60, id="sssnake-60", marks=pytest.mark.slow),
    ],
)
def test_engines_identical_with_lookahead(game, games):
    # Small K keeps the reference engine's playouts affordable; every decision still plays out.
    spec = get_game(game)
    module = __import__(f"snakesim.games.{game}", fromlist=["kernel", "reference"])
    mixes = (["expert:2", "greedy", "random"], ["greedy:0.2", "oracle:2"], ["greedy", "expert:3", "greedy", "expert:1"])
    for k, seats in enumerate(mixes):
        table = encode_policies(spec, seats)
        count = max(1, games // 3)
        rules = spec.rules().updated({"feel": k != 1})  # (a look-ahead's replayed turns, recorded once)
        assert_identical(module.kernel, module.reference, rules, len(seats), 8, 500 * k, count, table)


@pytest.mark.parametrize("game", ("rainbow", "hisss"))
def test_the_oracle_sees_more_than_the_expert(game):
    # Shown every hidden card, the same look-ahead wins far more: so the hidden cards matter
    # and the expert, which must not read them, really does not (see the next tests too).
    spec = get_game(game)
    games = 1_500
    rates = {}
    for p0 in ("expert:8", "oracle:8"):
        out = spec.play_block(spec.rules(), 4, 21, 0, games, policies=encode_policies(spec, [p0] + ["greedy"] * 3))
        rates[p0] = (out["winner"] == 0).mean()
    assert rates["oracle:8"] - rates["expert:8"] > 0.12, rates


def _decisions(game, count):
    """Reference games stopped at ``count`` decisions of a seat with more than one choice:
    each (game, seat, the choice's arguments)."""
    spec = get_game(game)
    found = []
    for i in range(200):
        if game == "rainbow":
            g = rainbow_reference.RainbowGame(spec.rules(), 3, [1, 1, 1], Stream(3, i))
            seat = 0
            while g.outcome < 0 and len(found) < count:
                legal = g.legal(seat)
                if len(legal) > 1 and g.pile:
                    found.append((g, seat, legal))
                    break
                g.step(seat)
                seat = (seat + 1) % 3
        else:
            g = hisss_reference.HisssGame(spec.rules(), 3, [1, 1, 1], Stream(3, i))
            seat = 0
            while g.next_card < len(g.fan) - 3 and len(found) < count:
                options = g.placements(g.fan[g.next_card])
                if len(options) > 1 and g.next_card > 10:
                    g.turns += 1
                    card = g.draw()
                    found.append((g, seat, (card, options)))
                    break
                g.step(seat)
                seat = (seat + 1) % 3
        if len(found) == count:
            break
    return found


def _hide_differently(game, g, seat, rng):
    """The same game as ``seat`` sees it, the unseen cards moved around."""
    if game == "rainbow":
        unseen = [c for s in range(g.players) if s != seat for c, k in enumerate(g.hands[s]) for _ in range(k)]
        unseen += g.stock
        rng.shuffle(unseen)
        for s in range(g.players):
            if s != seat:
                size = sum(g.hands[s])
                g.hands[s] = [0] * len(g.hands[s])
                for c in unseen[:size]:
                    g.hands[s][c] += 1
                unseen = unseen[size:]
        g.stock = unseen
    else:
        rest = g.fan[g.next_card :]
        rng.shuffle(rest)
        g.fan[g.next_card :] = rest


def _choice(game, g, seat, args, code):
    g.policies[seat] = [code, 0, 6]
    g.look = Stream(5, 5, lane=2)  # the same thinking stream each time
    g.stream = Stream(6, 6)
    if game == "rainbow":
        return g.look_ahead(seat, args)
    card, options = args
    return g.look_ahead(seat, card, options)


@pytest.mark.parametrize("game", ("rainbow", "hisss"))
def test_the_expert_reads_no_hidden_card(game):
    # Move the cards the seat cannot see (other hands, stock, the fan's order): the expert's
    # choice must not change. The oracle's does in some states, which shows the test can fail.
    import copy
    import random

    rng = random.Random(1)
    expert_changes = oracle_changes = 0
    for g, seat, args in _decisions(game, 30):
        moved = copy.deepcopy(g)
        _hide_differently(game, moved, seat, rng)
        expert_changes += _choice(game, g, seat, args, 2) != _choice(game, moved, seat, args, 2)
        oracle_changes += _choice(game, g, seat, args, 3) != _choice(game, moved, seat, args, 3)
    assert expert_changes == 0
    assert oracle_changes > 0


def _sssnake_turns(i, code, cut, permute):
    """Each turn's decisions in Sssnake game ``i`` (seat 0 thinking with policy ``code``, K = 2)
    until a turn draws past card ``cut``; with ``permute`` the cards from ``cut`` on are
    shuffled first, which no decision before then may depend on unless it sees them."""
    import random

    g = sssnake_reference.SssnakeGame(get_game("sssnake").rules(), 3, [[code, 0, 2], [1, 0, 0], [1, 0, 0]],
                                      Stream(3, i))  # fmt: skip
    if permute:
        rest = g.stock[cut:]
        random.Random(i).shuffle(rest)
        g.stock[cut:] = rest
    g.head_start()
    turns, seat = [], 0
    while g.winner < 0:
        g.turn(seat)
        if g.next_card > cut:
            break
        turns.append(list(g.made))
        seat = (seat + 1) % 3
    return turns


def test_the_sssnake_expert_reads_no_card_not_yet_drawn():
    # The stock beyond card 30 shuffled: every decision of the turns before it is drawn stays
    # the same for the expert; the oracle, which reads the stock, changes some.
    expert_changes = oracle_changes = 0
    for i in range(3):
        expert_changes += _sssnake_turns(i, 3, 30, False) != _sssnake_turns(i, 3, 30, True)
        oracle_changes += _sssnake_turns(i, 4, 30, False) != _sssnake_turns(i, 4, 30, True)
    assert expert_changes == 0
    assert oracle_changes > 0


@pytest.mark.slow
@pytest.mark.parametrize("game", ("rainbow", "hisss"))
def test_the_expert_beats_greedy(game):
    # One expert:64 among 3 greedy players, at each seat in turn, on the same games as a
    # greedy player there: its edge's 95% interval lies above 0.
    spec = get_game(game)
    result = skill(spec, spec.rules(), [4], Budget(8_000, 2), playouts=64, novice=0)
    row = result.table.set_index("player").loc["expert:64"]
    assert row["edge_low"] > 0, row


def test_rainbow_rules_object_unchanged_by_thinking():
    # A look-ahead plays on copies: the game it thinks in keeps its own hands, stock and pile.
    g = rainbow_reference.RainbowGame(RainbowRules(), 3, [[2, 0, 3], [1, 0, 0], [1, 0, 0]], Stream(1, 2))
    before = ([list(h) for h in g.hands], list(g.stock), list(g.pile))
    g.look_ahead(0, g.legal(0))
    assert ([list(h) for h in g.hands], list(g.stock), list(g.pile)) == before


def test_a_look_ahead_of_one_imagined_game_is_said_to_play_as_greedy():
    """expert:1 played exactly greedy's games (a single playout never beats greedy's move), while
    the words said it plays each move out and keeps the best."""
    from snakesim.core.policies import player_words, policy_parameters

    assert player_words("expert:1").startswith("plays as greedy does")
    assert "imagined games and keeps the best" in player_words("expert:2")
    assert "with 1 it always keeps greedy's move" in policy_parameters(get_game("rainbow"))
    assert not beats_greedy(2, 4, 1)  # (the rule that makes it so: one playout never beats greedy)
