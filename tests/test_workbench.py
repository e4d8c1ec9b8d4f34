"""The workbench's server over real HTTP: every endpoint, the page's figures against the
command line's, and hostile input (foreign hosts, oversized and nested bodies, out-of-range
numbers, concurrent runs). The page itself in a browser: tests/test_browser.py."""

import html
import http.client
import json
import re
import shlex
import signal
import subprocess
import sys
import time
import tomllib

import pytest
from click.testing import CliRunner
from hypothesis import given, settings

from snakesim.analysis.compare import compare_variants
from snakesim.cli import cli
from snakesim.core.arms import Budget, RuleSource
from snakesim.core.errors import InputError
from snakesim.games import get_game
from snakesim.questions.compare import compare_findings, hidden_metrics, row_text
from snakesim.report.study import load_study
from snakesim.workbench import runs
from snakesim.workbench.forms import rules_from_text
from snakesim.workbench.jobs import Limits
from snakesim.workbench.panels import compare as compare_panel
from snakesim.workbench.serve import Workbench
from tests.fortune.test_identity import random_rules as fortune_rules
from tests.hisss.test_identity import random_setups as hisss_setups
from tests.rainbow.test_identity import random_setups as rainbow_setups
from tests.sssnake.test_identity import random_setups as sssnake_setups
from tests.test_workbench_stop import hear_ctrl_c

FORTUNE = get_game("fortune")


@pytest.fixture(scope="module")
def server():
    wb = Workbench(limits=Limits(max_games=400_000, max_runs=1, max_arms=4)).start()
    yield wb
    wb.stop()


def call(server, method, path, body=None, headers=None, raw=None):
    """One request; returns (status, headers, parsed JSON or text)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    sent = {"Host": f"127.0.0.1:{server.port}", **(headers or {})}
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    if data is not None:
        sent.setdefault("Content-Type", "application/json")
    conn.request(method, path, body=data, headers=sent)
    response = conn.getresponse()
    text = response.read().decode()
    kind = response.getheader("Content-Type", "")
    conn.close()
    return response.status, response, json.loads(text) if kind.startswith("application/json") else text


def wait(server, job_id, seconds=120):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        _, _, job = call(server, "GET", f"/api/runs/{job_id}")
        if job["state"] in ("done", "failed", "cancelled"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"run {job_id} did not finish: {job}")


def one_line(error: str) -> bool:
    return "\n" not in error and "Traceback" not in error and len(error) < 400


TEN = "start_coins = 10\n"
REQUEST = {"kind": "compare", "game": "fortune", "players": 4, "games": 3000, "seed": 7, "feel": True,
           "arms": [{"name": "standard", "toml": ""}, {"name": "ten coins", "toml": TEN}]}  # fmt: skip


# ---------------------------------------------------------------------------- the page and its files


def test_page_and_its_files_come_from_the_server(server):
    status, response, text = call(server, "GET", "/")
    assert status == 200 and "<title>snakesim workbench" in text
    assert "default-src 'self'" in response.getheader("Content-Security-Policy")
    from snakesim.workbench.server import STATIC

    assert {"app.js", "editor.js", "runs.js", "app.css", "charts.js", "charts.css"} <= set(STATIC)
    for name in STATIC:  # (the page's ES modules among them, each served as it is)
        status, response, text = call(server, "GET", f"/static/{name}")
        assert status == 200 and len(text) > 500, name
        assert response.getheader("Content-Type").startswith(("text/javascript", "text/css")), name
    assert '<script type="module" src="/static/app.js">' in call(server, "GET", "/")[2]
    # Every script and style the page loads is the server's own: nothing from outside.
    page = call(server, "GET", "/")[2]
    assert "http" not in page.replace("http-equiv", "")


@pytest.mark.parametrize("path", ["/static/server.py", "/static/..%2fserver.py", "/static/../serve.py", "/etc/passwd",
                                  "/api/runs/nope"])  # fmt: skip
def test_nothing_else_is_served(server, path):
    status, _, data = call(server, "GET", path)
    assert status == 404 and one_line(data["error"])


def test_games_describe_every_option(server):
    status, _, data = call(server, "GET", "/api/games")
    assert status == 200
    assert [g["name"] for g in data["games"]] == ["fortune", "rainbow", "hisss", "sssnake"]
    for game in data["games"]:
        spec = get_game(game["name"])
        # Every rule, but not the feel switch: the page has one switch for it, above every rule set.
        assert [f["name"] for f in game["fields"]] == [n for n in spec.rules.specs() if n != "feel"]
        assert set(game["variants"]) == set(spec.rules.VARIANTS)
        for name, v in game["variants"].items():  # each variant's complete rules, as TOML that reads back
            assert rules_from_text(spec, v["toml"]) == spec.rules.variant(name)
        assert game["per_seat"]
        # How each kind of player plays, one line each: every policy of the game, and the novice.
        assert [name for name, _ in game["players_help"]][: len(spec.policies)] == list(spec.policies)
        assert all(len(words) > 20 for _, words in game["players_help"])
    assert data["limits"] == {"max_games": 400_000, "max_arms": 4, "max_name": 40, "max_toml": 20_000}
    fortune = data["games"][0]["fields"]
    deck = next(f for f in fortune if f["name"] == "deck")
    assert deck["kind"] == "table" and "SUNS" in deck["keys"] and deck["entry"]["kind"] == "int"
    effects = next(f for f in fortune if f["name"] == "effects")
    assert effects["entry"]["kind"] == "text" and "SNAKE" in effects["keys"]


# ---------------------------------------------------------------------------- rules, checked as you type


def test_a_form_edit_comes_back_as_complete_rules(server):
    status, _, view = call(server, "POST", "/api/rules", {"game": "fortune", "toml": "", "set": ["start_coins=10"]})
    assert status == 200
    assert view["toml"].startswith("start_coins = 10\n") and view["changes"] == TEN
    assert "feel" not in view["toml"]  # (the page's switch, not a rule)
    assert view["texts"]["start_coins"] == 10 and view["texts"]["deck"]["SUNS"] == 5
    assert view["summary"] == "start_coins=10"
    assert view["hash"] == FORTUNE.rules(start_coins=10).rules_hash()
    hearts = 'effects.HEARTS=[{take = 2, from = "left"}]'
    status, _, view = call(server, "POST", "/api/rules", {"game": "fortune", "toml": view["toml"], "set": [hearts]})
    assert status == 200 and 'HEARTS = [{take = 2, from = "left"}]' in view["toml"]
    assert "start_coins = 10" in view["toml"]


def test_a_bad_edit_gets_the_command_lines_one_line(server):
    status, _, data = call(server, "POST", "/api/rules", {"game": "fortune", "toml": "", "set": ["start_coins=0"]})
    cli_run = CliRunner().invoke(cli, ["run", "fortune", "-n", "10", "--set", "start_coins=0"])
    assert status == 400 and cli_run.exit_code == 2
    assert f"snakesim: error: {data['error']}" in cli_run.output
    status, _, data = call(server, "POST", "/api/rules", {"game": "fortune", "toml": "start_coins = [1, 2"})
    assert status == 400 and data["error"].startswith("toml: not valid TOML") and one_line(data["error"])


HOSTILE_RULES = [
    ({"game": "fortune", "toml": "x = " + "[" * 50_000}, "toml: "),  # nested too deeply to read
    ({"game": "fortune", "toml": "start_coins = " + "9" * 5000}, "toml: "),  # a number too long to read
    ({"game": "fortune", "toml": "start_coins = 99999999999999999999"}, "start_coins: expected an integer"),
    ({"game": "fortune", "toml": "a = 1\n" * 5000}, "toml: expected at most"),
    ({"game": "fortune", "toml": "start_coins = 1e300"}, "start_coins: expected an integer"),
    ({"game": "fortune", "toml": "snakes = -1"}, "snakes: expected an integer"),
    ({"game": "fortune", "toml": "[deck]\nSUNS = 100000000"}, "deck.SUNS: expected an integer"),
    ({"game": "fortune", "toml": "nonsense = 1"}, "nonsense: unknown option"),
    ({"game": "fortune", "toml": 5}, "toml: expected the rules as TOML text"),
    ({"game": "fortune", "toml": "", "set": "start_coins=3"}, "set: expected a list"),
    ({"game": "fortune", "toml": "", "set": [3]}, "set: expected NAME=VALUE"),
    ({"game": "poker", "toml": ""}, "game: unknown game"),
    ({"game": ["fortune"]}, "game: expected text"),
    ([1, 2], "request: expected a JSON object"),
]


@pytest.mark.parametrize(("body", "error"), HOSTILE_RULES)
def test_hostile_rules_get_one_line(server, body, error):
    status, _, data = call(server, "POST", "/api/rules", body)
    assert status == 400 and data["error"].startswith(error) and one_line(data["error"]), data


def test_bodies_that_are_not_json_too_big_or_too_deep(server):
    assert call(server, "POST", "/api/rules", raw=b"{not json")[0] == 400
    deep = b"[" * 100_000 + b"]" * 100_000
    status, _, data = call(server, "POST", "/api/runs", raw=deep)
    assert status in (400, 413) and one_line(data["error"])
    status, _, data = call(server, "POST", "/api/rules", raw=b" " * 70_000)
    assert status == 413 and data["error"].startswith("request: the page sent 70,000 bytes, more than the 65,536")
    try:  # past the server's own cap, the body is not even read: the connection is closed
        status = call(server, "POST", "/api/rules", raw=b" " * 2_000_000)[0]
    except (ConnectionError, http.client.HTTPException):
        status = 413
    assert status == 413
    _, _, data = call(server, "GET", "/api/games")  # and the server still serves
    assert len(data["games"]) == 4


# ---------------------------------------------------------------------------- the address is checked


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost.evil:{port}", ""])
def test_foreign_host_headers_are_refused(server, host):
    """A page on another site that rebinds its name to 127.0.0.1 sends its own name as Host."""
    for method, path, body in (("GET", "/", None), ("GET", "/api/games", None), ("POST", "/api/runs", REQUEST)):
        status, _, data = call(server, method, path, body, headers={"Host": host.format(port=server.port)})
        assert status == 403 and data["error"].startswith("Host: "), (method, path)


def test_foreign_origins_are_refused_and_own_is_accepted(server):
    status, _, data = call(server, "POST", "/api/rules", {"game": "fortune", "toml": ""},
                           headers={"Origin": "http://evil.example"})  # fmt: skip
    assert status == 403 and data["error"].startswith("Origin: ")
    for own in (f"http://127.0.0.1:{server.port}", f"http://localhost:{server.port}"):
        status, _, _ = call(server, "POST", "/api/rules", {"game": "fortune", "toml": ""}, headers={"Origin": own})
        assert status == 200
    status, _, _ = call(server, "GET", "/", headers={"Host": f"localhost:{server.port}"})
    assert status == 200


# ---------------------------------------------------------------------------- runs


HOSTILE_RUNS = [
    ({"games": 10**30}, "games: expected an integer from 1 to 200,000"),
    ({"games": 200_001}, "games: expected an integer from 1 to 200,000"),
    ({"games": 1.5}, "games: expected an integer"),
    ({"games": "100"}, "games: expected an integer"),
    ({"games": True}, "games: expected an integer"),
    ({"players": 99}, "players: expected an integer from 2 to 8"),
    ({"seed": -1}, "seed: expected an integer"),
    ({"feel": "yes"}, "feel: expected true or false"),
    ({"kind": "tune"}, "kind: expected one of compare, balance"),
    ({"arms": []}, "arms: expected a list of 1 to 4 rule sets"),
    ({"arms": [{"name": "a", "toml": ""}] * 5}, "arms: expected a list of 1 to 4 rule sets"),
    ({"arms": [{"name": "a", "toml": ""}, {"name": "a", "toml": TEN}]}, "arms: 'a' is given twice"),
    ({"arms": [{"name": "x=y,policy=z", "toml": ""}]}, "arms[0].name: expected a label"),
    ({"arms": [{"name": 'a=b, "c"', "toml": ""}]}, "arms[0].name: expected a label"),
    ({"arms": [{"name": "a" * 41, "toml": ""}]}, "arms[0].name: expected a label"),
    ({"arms": [{"name": "  ", "toml": ""}]}, "arms[0].name: expected a label of 1 to 40 letters"),
    ({"arms": [{"name": "a", "toml": "start_coins = 0"}]}, "a: start_coins: expected an integer"),
    ({"arms": [{"name": "a", "toml": "start_coins = [1, 2]"}]}, "start_coins: expected one value per seat"),
    ({"arms": [{"name": "a", "toml": "", "policies": ["greedy"] * 4}]}, "a: policies: fortune has no choices"),
    ({"lineup": ["greedy"] * 4}, "lineup: fortune has no choices"),
    ({"arms": ["standard"]}, "arms[0]: expected a rule set"),
]


@pytest.mark.parametrize(("change", "error"), HOSTILE_RUNS)
def test_hostile_run_requests_get_one_line_and_play_nothing(server, change, error):
    status, _, data = call(server, "POST", "/api/runs", {**REQUEST, **change})
    assert status == 400 and data["error"].startswith(error) and one_line(data["error"]), data


def test_hostile_policies_and_balance_settings():
    limits = Limits(max_games=400_000)
    base = {"kind": "compare", "game": "rainbow", "players": 3, "games": 100}
    bad_seats = [
        ([], "policies: expected one policy per seat"),
        (["greedy"] * 2, "policies: expected one"),
        (["chess"] * 3, "policy: unknown policy"),
        (["expert:999999"] * 3, "policy: expert:K"),
    ]
    for policies, error in bad_seats:
        with pytest.raises(InputError, match=error):
            runs.check_request({**base, "arms": [{"name": "a", "toml": "", "policies": policies}]}, limits)
    balance = {"kind": "balance", "game": "fortune", "players": 3, "games": 1000, "arm": {"name": "a", "toml": ""}}
    bad_settings = [
        ({"handicap": "snakes"}, "^handicap: 'snakes' is not a per-seat"),
        ({"handicap": 3}, "handicap"),
        ({"handicap": "start_coins", "tolerance": 0.9}, "^tolerance: expected a win-rate distance"),
        ({"handicap": "start_coins", "games": 10**6}, "games: expected an integer from 100 to 8,000"),
    ]
    for change, error in bad_settings:
        with pytest.raises(InputError, match=error):
            runs.check_request({**balance, **change}, limits)


def test_the_pages_figures_are_the_command_lines(server, tmp_path, monkeypatch):
    """A comparison's rows, findings and charts equal compare_variants' on the same games, and
    the command it prints, fed the downloaded rules files, gives the same figures."""
    status, _, started = call(server, "POST", "/api/runs", REQUEST)
    assert status == 202
    job = wait(server, started["id"])
    assert job["state"] == "done" and job["done"] == job["total"] == 6000
    result = job["result"]
    arms = [{"name": "standard"}, {"name": "ten coins", "set": ["start_coins=10"]}]
    table, _ = compare_variants(FORTUNE, 4, arms, Budget(3000, 7), RuleSource(options={"feel": True}))
    shown = table[~table["metric"].isin(hidden_metrics(table))]
    assert [(r["arm"], r["metric"], r["value"], r["diff"]) for r in result["rows"]] == [
        (r["variant"], r["metric"], *row_text(r)) for r in shown.to_dict(orient="records")
    ]
    assert result["findings"] == compare_findings(table, FORTUNE, 4, 3000)
    wins = next(c for c in result["charts"] if c["id"] == "win-rates")
    seat0 = table[(table["variant"] == "ten coins") & (table["metric"] == "win_rate.0")].iloc[0]
    assert wins["series"][1]["points"][0] == ["first", seat0["value"], seat0["low"], seat0["high"]]
    assert [c["id"] for c in result["charts"]] == ["win-rates", "length", "out", "known", "lead-changes"]
    # The command line, with each arm's rules downloaded as its file.
    monkeypatch.chdir(tmp_path)
    for arm in REQUEST["arms"]:
        status, response, text = call(server, "POST", "/api/download/rules", {"game": "fortune", "toml": arm["toml"],
                                                                              "name": arm["name"]})  # fmt: skip
        name = response.getheader("Content-Disposition").split('filename="')[1].rstrip('"')
        (tmp_path / name).write_text(text)
    words = shlex.split(result["command"])
    assert words[:2] == ["snakesim", "compare"]
    out = CliRunner().invoke(cli, [*words[1:], "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["findings"] == result["findings"]
    cli_rows = {(r["variant"], r["metric"]): r for r in data["rows"]}
    for r in shown.to_dict(orient="records"):
        for key in ("value", "low", "high", "diff", "diff_low", "diff_high"):
            got = cli_rows[r["variant"], r["metric"]][key]
            assert (got is None and r[key] != r[key]) or got == pytest.approx(r[key], rel=1e-12, abs=1e-12)


def test_a_rule_set_with_players_of_its_own_plays_with_them(server, tmp_path, monkeypatch):
    """A compare arm that names its own players plays with them, not the line-up: the page's
    figures and findings are those of the command line it prints, where that arm's players
    differ from the line-up's; on the same rules, every difference is the players'."""
    lineup = ["greedy", "greedy", "greedy"]
    request = {
        "kind": "compare",
        "game": "rainbow",
        "players": 3,
        "games": 1500,
        "seed": 4,
        "feel": True,
        "lineup": lineup,
        "arms": [
            {"name": "careful", "toml": ""},
            {"name": "one random", "toml": "", "policies": ["random", *lineup[1:]]},
        ],
    }
    status, _, started = call(server, "POST", "/api/runs", request)
    assert status == 202, started
    job = wait(server, started["id"])
    assert job["state"] == "done", job
    result = job["result"]
    assert [a["policies"] for a in result["arms"]] == [lineup, ["random", "greedy", "greedy"]]
    assert result["findings"][0]["text"].startswith("These rule sets have the same rules and differ only in who plays")
    seat0 = {r["arm"]: r["value"] for r in result["rows"] if r["metric"] == "win_rate.0"}
    assert seat0["careful"] != seat0["one random"]
    words = shlex.split(result["command"])
    assert "careful=careful.toml" in words and "one random=one-random.toml,policies=random/greedy/greedy" in words
    monkeypatch.chdir(tmp_path)
    for arm in request["arms"]:
        (tmp_path / f"{arm['name'].replace(' ', '-')}.toml").write_text(arm["toml"])
    out = CliRunner().invoke(cli, [*words[1:], "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["findings"] == result["findings"]


def test_the_report_is_one_file_with_the_charts(server):
    _, _, started = call(server, "POST", "/api/runs", {**REQUEST, "games": 1000})
    job = wait(server, started["id"])
    status, response, text = call(server, "GET", f"/api/report?compare={job['id']}")
    assert status == 200 and "attachment" in response.getheader("Content-Disposition")
    assert "<script>" in text and "snakesim-charts" in text
    assert html.escape(job["result"]["findings"][0]["text"], quote=False) in text
    assert "src=" not in text and 'href="http' not in text  # nothing to fetch: it opens offline
    charts = json.loads(text.split('<script type="application/json">')[1].split("</script>")[0])
    assert charts == json.loads(json.dumps(job["result"]["charts"]))


def test_the_study_download_replays_the_page(server, tmp_path):
    status, response, text = call(server, "POST", "/api/download/study", {"compare": REQUEST, "balance": None})
    assert status == 200 and response.getheader("Content-Disposition") == 'attachment; filename="fortune-study.toml"'
    data = tomllib.loads(text)
    assert data["compare"][0]["arms"] == [{"name": "standard"}, {"name": "ten coins", "set": ["start_coins=10"]}]
    # (feel on, the default: no setting for it; switched off, feel=false)
    assert "set" not in data["compare"][0] and data["seed"] == 7 and data["compare"][0]["games"] == 3000
    (tmp_path / "s.toml").write_text(text)
    load_study(tmp_path / "s.toml")  # (checks every key and arm)
    balance = {"kind": "balance", "game": "fortune", "players": 3, "games": 1000, "seed": 2, "handicap": "start_coins",
               "arm": {"name": "a", "toml": TEN}}  # fmt: skip
    status, _, text = call(server, "POST", "/api/download/study", {"balance": balance})
    assert status == 200 and tomllib.loads(text)["balance"][0]["set"] == ["start_coins=10"]
    (tmp_path / "b.toml").write_text(text)
    load_study(tmp_path / "b.toml")


def test_downloaded_rules_read_back_to_the_same_rules(server):
    toml = 'start_coins = 12\n[effects]\nHEARTS = [{take = 2, from = "left"}]\n'
    status, response, text = call(server, "POST", "/api/download/rules",
                                  {"game": "fortune", "toml": toml, "name": "../../etc/pass wd"})  # fmt: skip
    assert status == 200 and response.getheader("Content-Disposition") == 'attachment; filename="etc-pass-wd.toml"'
    assert rules_from_text(FORTUNE, text) == rules_from_text(FORTUNE, toml)
    status, _, data = call(server, "POST", "/api/download/rules", {"game": "fortune", "toml": "snakes = 99999"})
    assert status == 400 and data["error"].startswith("snakes: ")


def test_one_run_at_a_time_cancel_and_a_failed_run_leave_the_server_serving(server, monkeypatch):
    big = {**REQUEST, "games": 100_000, "arms": REQUEST["arms"][:1]}
    status, _, first = call(server, "POST", "/api/runs", big)
    assert status == 202
    status, _, data = call(server, "POST", "/api/runs", REQUEST)
    assert status == 429 and data["error"].startswith("runs: a run is under way (Fortune, 4 players: 1 rule set")
    assert [r["id"] for r in data["running"]] == [first["id"]]  # (so that the page can offer to cancel it)
    _, _, listed = call(server, "GET", "/api/runs")  # (any page sees it, without its result)
    assert any(r["id"] == first["id"] and r["state"] != "done" for r in listed["runs"])
    assert all("result" not in r for r in listed["runs"])
    status, _, _ = call(server, "DELETE", f"/api/runs/{first['id']}")
    job = wait(server, first["id"], 60)
    assert job["state"] in ("cancelled", "done")  # (it may have finished first)

    # A run that fails after its checks shows its one line, and the next run plays.
    def fails(plan, backend):
        raise InputError("turn_cap", "boom")

    monkeypatch.setattr(compare_panel, "play", fails)
    _, _, started = call(server, "POST", "/api/runs", REQUEST)
    job = wait(server, started["id"])
    assert job["state"] == "failed" and job["error"] == "turn_cap: boom"
    monkeypatch.undo()
    _, _, started = call(server, "POST", "/api/runs", {**REQUEST, "games": 500})
    assert wait(server, started["id"])["state"] == "done"


def test_cancel_stops_a_run_before_its_end(server):
    big = {**REQUEST, "games": 100_000, "feel": True}
    _, _, started = call(server, "POST", "/api/runs", big)
    while call(server, "GET", f"/api/runs/{started['id']}")[2]["done"] == 0:
        time.sleep(0.01)
    call(server, "DELETE", f"/api/runs/{started['id']}")
    job = wait(server, started["id"])
    assert job["state"] == "cancelled" and job["done"] < job["total"] and "result" not in job


def test_balance_gives_the_recommendation_and_its_confirmation(server, tmp_path, monkeypatch):
    request = {"kind": "balance", "game": "fortune", "players": 3, "games": 2000, "seed": 3,
               "handicap": "start_coins", "tolerance": 0.02, "arm": {"name": "standard", "toml": ""}}  # fmt: skip
    status, _, started = call(server, "POST", "/api/runs", request)
    assert status == 202
    job = wait(server, started["id"])
    assert job["state"] == "done", job
    result = job["result"]
    from snakesim.analysis.balance import balance

    expected = balance(
        FORTUNE,
        FORTUNE.rules(),
        3,
        "start_coins",
        budget=Budget(2000, 3, max_games=8000, confirm_games=10000),
        tolerance=0.02,
    )
    assert result["values"] == list(expected.values) and result["status"] == expected.status
    assert result["findings"][0]["text"].startswith(("The search recommends start_coins", "Keep start_coins"))
    chart = result["charts"][0]
    assert [s["name"].split(":")[0] for s in chart["series"]] == ["before", "after"]
    assert job["done"] > 10000  # (the search's games and the fresh ones)
    # The command the page prints, fed the downloaded rules, recommends the same.
    monkeypatch.chdir(tmp_path)
    _, _, text = call(server, "POST", "/api/download/rules", {"game": "fortune", "toml": "", "name": "standard"})
    (tmp_path / "standard.toml").write_text(text)
    out = CliRunner().invoke(cli, [*shlex.split(result["command"])[1:], "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["values"] == result["values"]


def test_a_search_on_the_page_takes_the_games_an_earlier_search_kept(server, monkeypatch):
    """A second balance search of the same games (another tolerance) takes the first one's
    games from the catalogue, says so, and finds what a search that plays them all finds
    (Fortune's games, quicker to play than to read back, are kept here all the same)."""
    from snakesim.analysis import search

    monkeypatch.setattr(search, "WORTH", 0.0)
    request = {"kind": "balance", "game": "fortune", "players": 3, "games": 1000, "seed": 8,
               "handicap": "start_coins", "tolerance": 0.02, "arm": {"name": "standard", "toml": ""}}  # fmt: skip
    results = []
    for change in ({}, {"tolerance": 0.03}, {"tolerance": 0.03, "fresh": True}):
        status, _, started = call(server, "POST", "/api/runs", {**request, **change})
        assert status == 202
        job = wait(server, started["id"])
        assert job["state"] == "done", job
        results.append(job["result"])
    said = [[f["text"] for f in r["findings"] if "came from the catalogue" in f["text"]] for r in results]
    assert said[0] == [] and said[2] == []  # (the first had none to take; "Play them again" takes none)
    assert len(said[1]) == 1 and said[1][0].endswith("(kept by earlier searches of seed 8 with these players), so "
                                                     "were not played again.")  # fmt: skip
    assert results[1]["values"] == results[2]["values"] and results[1]["status"] == results[2]["status"]


# ---------------------------------------------------------------------------- the command


def test_the_command_starts_serves_and_stops_on_ctrl_c():
    command = [sys.executable, "-c", "from snakesim.cli import main; main()", "workbench", "--port", "0", "--host",
               "0.0.0.0"]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=hear_ctrl_c
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("snakesim workbench: http://127.0.0.1:"), line
        port = int(line.split(":")[3].split("/")[0])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/games", headers={"Host": f"127.0.0.1:{port}"})
        assert conn.getresponse().status == 200
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0
    assert "warning: listening on 0.0.0.0" in err and "stopping" in err and "Traceback" not in err


def test_the_command_rejects_a_bad_port_in_one_line():
    out = CliRunner().invoke(cli, ["workbench", "--port", "70000"])
    assert out.exit_code == 2 and out.output.strip().startswith("snakesim: error: --port: expected a port")
    assert "Traceback" not in out.output


def test_a_first_run_says_it_compiles_while_it_does(server, monkeypatch):
    """The page shows the command line's compile line while an engine compiles (imitated here:
    the kernels of this process are loaded already), and the games count only after it."""
    from snakesim.core import compiling

    seen = []

    def slow_prepare(spec, rules, players, seed, codes=None, notice=True):
        notice(f"compiling the {spec.title.split(':')[0]} engine for this machine, once: about 7 s")
        time.sleep(0.6)
        seen.append(spec.name)
        return 0.6

    monkeypatch.setattr(compiling, "prepare", slow_prepare)
    _, _, started = call(server, "POST", "/api/runs", {**REQUEST, "games": 500})
    time.sleep(0.2)
    _, _, job = call(server, "GET", f"/api/runs/{started['id']}")
    assert job["state"] == "compiling" and job["done"] == 0
    assert job["message"] == "compiling the Fortune engine for this machine, once: about 7 s"
    done = wait(server, started["id"])
    assert done["state"] == "done" and done["message"] == "" and seen == ["fortune", "fortune"]


# ---------------------------------------------------------------------------- answers kept in the catalogue

SMALL = {**REQUEST, "games": 200}
FAIR = {"kind": "balance", "game": "fortune", "players": 3, "games": 100, "seed": 2, "handicap": "start_coins",
        "tolerance": 0.05, "arm": {"name": "standard", "toml": ""}}  # fmt: skip


def played(server, request) -> dict:
    status, _, started = call(server, "POST", "/api/runs", request)
    assert status == 202, started
    job = wait(server, started["id"])
    assert job["state"] == "done", job
    return job


def test_a_link_survives_25_further_runs_and_a_restart(tmp_path):
    """A run's link names its answer in the catalogue (c1): after 25 further runs the server's
    memory has forgotten the run, and after a restart (a new server on the same SNAKESIM_HOME)
    it never knew it; the link still gives the run as it was, its report too, for every kind."""
    first = Workbench(limits=Limits(max_games=400_000, kept=3)).start()
    try:
        job = played(first, SMALL)
        fair = played(first, FAIR)
        assert job["link"] == "c1" and fair["link"] == "c2"
        for seed in range(100, 125):  # (other seeds: other questions, each played)
            later = played(first, {**SMALL, "seed": seed, "arms": SMALL["arms"][:1], "games": 50})
            assert "catalogue" not in later
        assert first.jobs.get(job["id"]) is None and len(first.jobs.all()) == 3  # (memory forgot it ...)
        assert call(first, "GET", f"/api/runs/{job['id']}")[0] == 404
        status, _, again = call(first, "GET", "/api/runs/c1")  # (... the catalogue did not)
        assert status == 200 and again["state"] == "done" and again["link"] == "c1"
        assert {k: again[k] for k in ("id", "kind", "what", "done", "total", "request", "result")} == {
            k: job[k] for k in ("id", "kind", "what", "done", "total", "request", "result")}  # fmt: skip
        assert again["catalogue"]["id"] == 1 and again["catalogue"]["current"] is True
        status, _, listed = call(first, "GET", "/api/answers")
        assert status == 200 and [a["link"] for a in listed["answers"]] == [f"c{k}" for k in range(27, 0, -1)]
        assert listed["more"] == 0 and listed["answers"][-1]["rules"] == ["standard", "ten coins"]
        assert listed["answers"][-2]["kind"] == "balance" and listed["answers"][-2]["games"] == 100
    finally:
        first.stop()
    restarted = Workbench(limits=Limits(max_games=400_000)).start()
    try:
        assert restarted.jobs.all() == []
        for link, before in (("c1", job), ("c2", fair)):
            status, _, kept = call(restarted, "GET", f"/api/runs/{link}")
            assert status == 200 and kept["state"] == "done" and kept["id"] == before["id"]
            assert kept["result"] == before["result"] and kept["request"] == before["request"]
            assert kept["seconds"] == pytest.approx(before["seconds"], abs=0.5)
        status, _, report = call(restarted, "GET", "/api/report?compare=c1&balance=c2")
        assert status == 200 and html.escape(job["result"]["findings"][0]["text"], quote=False) in report
        status, _, report = call(restarted, "GET", "/api/report?balance=c1")  # (a comparison is no balance)
        assert status == 404
        for gone in ("c999", "c0", job["id"]):
            status, _, error = call(restarted, "GET", f"/api/runs/{gone}")
            assert status == 404 and one_line(error["error"])
    finally:
        restarted.stop()


def test_the_same_question_is_answered_from_the_catalogue_unless_asked_afresh(server, tmp_path):
    from snakesim.questions.catalogue import Catalogue

    job = played(server, SMALL)
    again = played(server, SMALL)  # (the same question: answered at once, as a finished run of its own)
    assert again["id"] != job["id"] and again["link"] == "c1"
    assert again["catalogue"]["id"] == 1 and re.fullmatch(r"\d{4}-\d\d-\d\d at \d\d:\d\d", again["catalogue"]["played"])
    assert again["result"] == job["result"] and again["request"] == SMALL
    fresh = played(server, {**SMALL, "fresh": True})  # (Play them again)
    assert "catalogue" not in fresh and fresh["link"] == "c2" and fresh["request"] == SMALL
    assert fresh["result"] == job["result"]  # (the same games)
    status, _, error = call(server, "POST", "/api/runs", {**SMALL, "fresh": "yes"})
    assert status == 400 and error["error"] == "fresh: expected true or false, got 'yes'"
    catalogue = Catalogue()
    entry = catalogue.get(1)
    assert entry.kind == "compare" and entry.rules == ("standard", "ten coins") and entry.games == 200
    assert entry.players == 4 and entry.seed == 7 and entry.answer["result"] == job["result"]
    assert entry.words.startswith("Fortune, 4 players: 2 rule sets, 200 games each (from the workbench)")
    assert job["result"]["findings"][0]["text"] in entry.words
    # The command line's answers and the workbench's are kept apart: neither is served to the other.
    _, plan = runs.check_request(SMALL, server.jobs.limits)
    assert entry.key == "workbench:" + plan.question.key() and catalogue.find(plan.question.key()) is None
    catalogue.forget(everything=True)
    catalogue.keep(key=plan.question.key(), kind="compare", game="fortune", players=4, seed=7, games=200,
                   rules=["standard", "ten coins"], seconds=1.0, answer={"findings": []},
                   words="the command's")  # fmt: skip
    catalogue.close()
    other = played(server, SMALL)
    assert "catalogue" not in other and other["link"] == "c4"
    status, _, listed = call(server, "GET", "/api/answers")
    assert [a["link"] for a in listed["answers"]] == ["c4"]  # (the command's answer is not the page's to show)
    assert call(server, "GET", "/api/runs/c3")[0] == 404


def test_a_catalogue_that_cannot_keep_the_answer_costs_the_run_nothing(server, tmp_path, monkeypatch, caplog):
    home = tmp_path / "home"
    home.mkdir()
    (home / "catalogue.sqlite").write_bytes(b"not a catalogue at all, but somebody's file")
    monkeypatch.setenv("SNAKESIM_HOME", str(home))
    with caplog.at_level("WARNING", logger="snakesim.workbench"):
        job = played(server, SMALL)
    assert "link" not in job and job["result"]["findings"]
    said = [r.getMessage() for r in caplog.records if r.name == "snakesim.workbench"]
    assert len(said) == 1 and one_line(said[0]) and f"the answer of run {job['id']} was not kept in " in said[0]
    assert "not a snakesim catalogue" in said[0]
    assert (home / "catalogue.sqlite").read_bytes() == b"not a catalogue at all, but somebody's file"
    assert call(server, "GET", f"/api/runs/{job['id']}")[2]["state"] == "done"  # (in memory, as before)
    status, _, listed = call(server, "GET", "/api/answers")
    assert status == 200 and listed["answers"] == [] and "not a snakesim catalogue" in listed["error"]
    assert call(server, "GET", "/api/runs/c1")[0] == 404


# ---------------------------------------------------------------------------- rules that travel as text


def _round_trips(spec, rules):
    """The three ways the page's rules travel: complete TOML (downloads), the changes as TOML
    (the address) and the changes as --set strings (a study file, the command line)."""
    from snakesim.core.rules import as_toml, change_settings

    # (the page's rules never carry feel: its one switch sets it for every rule set)
    page = rules.updated({"feel": spec.rules().feel})
    assert rules_from_text(spec, rules.to_toml()) == page
    assert rules_from_text(spec, as_toml(rules.changes())) == page
    assert spec.rules().with_settings(change_settings(rules.changes())) == rules


@settings(max_examples=30, deadline=None)
@given(rules=fortune_rules())
def test_random_fortune_rules_travel_as_text_unchanged(rules):
    _round_trips(FORTUNE, rules)


@settings(max_examples=30, deadline=None)
@given(setup=hisss_setups())
def test_random_hisss_rules_travel_as_text_unchanged(setup):
    _round_trips(get_game("hisss"), setup[0])


@settings(max_examples=30, deadline=None)
@given(setup=rainbow_setups())
def test_random_rainbow_rules_travel_as_text_unchanged(setup):
    _round_trips(get_game("rainbow"), setup[0])


@settings(max_examples=30, deadline=None)
@given(setup=sssnake_setups())
def test_random_sssnake_rules_travel_as_text_unchanged(setup):
    _round_trips(get_game("sssnake"), setup[0])


def test_every_variant_travels_as_text_unchanged():
    for game in ("fortune", "rainbow", "hisss", "sssnake"):
        spec = get_game(game)
        for name in spec.rules.VARIANTS:
            _round_trips(spec, spec.rules.variant(name))


def test_the_bar_counts_work_not_games():
    """An arm whose games cost nine times as much weighs nine times as much in the bar."""
    from snakesim.workbench.jobs import Job

    job = Job("compare", {}, 200, parts=[(100, 1.0), (100, 9.0)])
    assert job.status()["share"] is None  # (nothing played yet)
    job.next_part()
    job.count(100)
    assert job.status()["share"] == pytest.approx(0.1)
    job.next_part()
    job.count(50)
    status = job.status()
    assert status["share"] == pytest.approx(0.55) and status["done"] == 150 and status["total"] == 200
    assert Job("balance", {}, 0).status()["share"] is None  # (a search's games are not known ahead)


def test_a_finished_comparison_has_done_all_its_work(server):
    _, _, started = call(server, "POST", "/api/runs", {**REQUEST, "games": 2000})
    job = wait(server, started["id"])
    assert job["state"] == "done" and job["share"] == pytest.approx(1.0) and job["done"] == 4000


def test_design_finds_the_rule_sets_the_command_finds(server, tmp_path, monkeypatch):
    request = {"kind": "design", "game": "fortune", "players": 4, "games": 1000, "seed": 2, "budget": 400_000,
               "arm": {"name": "standard", "toml": ""}, "vary": ["start_coins=8:14", "variant=standard,rejoin"],
               "targets": ["length.median=45+-6", "out_share.mean<=0.22"], "prefer": None}  # fmt: skip
    status, _, started = call(server, "POST", "/api/runs", request)
    assert status == 202
    job = wait(server, started["id"])
    assert job["state"] == "done", job
    result = job["result"]
    assert result["met"] and result["answers"] and all(a["holds"] for a in result["answers"])
    chart = result["charts"][0]
    # Two targets: their plane, every rule set played (7 x 2) a point, the answers first and
    # numbered as the page lists them, the region that meets both (out_share open below).
    assert chart["kind"] == "plane" and len(chart["points"]) == 14
    answers = [a["label"] for a in result["answers"]]
    first = chart["points"][: len(answers)]
    assert [(p["label"], p["class"], p["number"]) for p in first] == [
        (a, "answer", k) for k, a in enumerate(answers, 1)
    ]
    assert {p["class"] for p in chart["points"][len(answers) :]} <= {"other", "trade-off"}
    assert chart["region"] == {"x": [39.0, 51.0], "y": [None, 0.22]}
    assert all(p["x_low"] <= p["x"] <= p["x_high"] and p["y_low"] <= p["y"] <= p["y_high"] for p in chart["points"])
    assert all(f"{k}: {a} (length.median " in chart["summary"] for k, a in enumerate(answers[:3], 1))
    # Each answer's rules read back to a rule set the page can add.
    for a in result["answers"]:
        _, _, view = call(server, "POST", "/api/rules", {"game": "fortune", "toml": a["toml"], "set": []})
        assert view["toml"]
    # The command the page prints, fed the downloaded rules, finds the same answers.
    monkeypatch.chdir(tmp_path)
    _, _, text = call(server, "POST", "/api/download/rules", {"game": "fortune", "toml": "", "name": "standard"})
    (tmp_path / "standard.toml").write_text(text)
    out = CliRunner().invoke(cli, [*shlex.split(result["command"])[1:], "--json"])
    assert out.exit_code == 0, out.output
    assert [a["label"] for a in json.loads(out.output)["answers"]] == [a["label"] for a in result["answers"]]
    # A study downloaded from the page replays it.
    status, _, text = call(server, "POST", "/api/download/study", {"design": request})
    assert status == 200 and tomllib.loads(text)["design"][0]["targets"] == request["targets"]
    (tmp_path / "d.toml").write_text(text)
    load_study(tmp_path / "d.toml")


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"vary": []}, "vary: give at least one"),
        ({"vary": "start_coins=8:14"}, "vary: expected a list of texts"),
        ({"targets": ["speed<=3"]}, "targets: unknown metric 'speed'"),
        ({"budget": 10**9}, "budget: expected an integer from"),
        ({"vary": ["coins=1:3"]}, "vary: unknown option 'coins'"),
    ],
)
def test_bad_design_requests_get_one_line_and_play_nothing(server, change, error):
    request = {"kind": "design", "game": "fortune", "players": 4, "games": 1000, "seed": 2,
               "arm": {"name": "standard", "toml": ""}, "vary": ["start_coins=8:14"],
               "targets": ["length.median=45+-6"], **change}  # fmt: skip
    status, _, body = call(server, "POST", "/api/runs", request)
    assert status == 400 and error in body["error"], body


@pytest.mark.parametrize(("game", "table"), [("fortune", "deck"), ("rainbow", "deck"), ("hisss", "heads"),
                                             ("sssnake", "deck")])  # fmt: skip
def test_the_design_hint_names_a_table_the_game_has(game, table):
    """Hisss's hint named deck.NAME, which Hisss does not have; its tables are heads, tails and middles."""
    from snakesim.games import get_game
    from snakesim.workbench.forms import _design_words

    words = _design_words(get_game(game))
    assert f"(a table by its entries: {table}.NAME)" in words and words.count(".NAME") == 1


def test_no_game_title_names_the_rule_texts_seed():
    """A family read "(seed 004, first part)" beside the page's Seed field, and a designer beside
    a command's "seed 1", as two seeds; the rule texts it named are not in a user's copy."""
    from snakesim.games import GAMES
    from snakesim.workbench.forms import game_form

    titles = [spec.title for spec in GAMES.values()] + [game_form(spec)["title"] for spec in GAMES.values()]
    assert titles[0] == "Fortune: the coin-and-cup game" and not any("seed" in t for t in titles)


def test_the_design_chart_shows_the_nearest_miss_the_words_name():
    """With no rule set on every target the findings name the nearest miss; the chart of the eight
    nearest one target once left it out."""
    import pandas as pd

    from snakesim.analysis.design_space import Dimension
    from snakesim.workbench.panels.design import _chart

    values = list(range(1, 13))  # twelve rule sets; the findings' nearest miss, 1, is far on the first target
    table = pd.DataFrame({"label": [f"start_coins={v}" for v in values], "start_coins": values, "status": "misses",
                          "games": 100, "length.median": [10.0 * v for v in values],
                          "length.median_low": [10.0 * v - 1 for v in values],
                          "length.median_high": [10.0 * v + 1 for v in values],
                          "draw.share": [0.5 - 0.01 * v for v in values], "draw.share_low": 0.0,
                          "draw.share_high": 1.0})  # fmt: skip
    targets = [{"metric": "length.median", "op": ">=", "value": 200.0, "tolerance": 0.0, "margin": 5.0, "scale": 1,
                "text": "length.median>=200"},
               {"metric": "draw.share", "op": "<=", "value": 0.01, "tolerance": 0.0, "margin": 0.01, "scale": 100,
                "text": "draw.share<=0.01"}]  # fmt: skip
    s = {"targets": targets[:1], "answers": [], "nearest": [{"label": "start_coins=1"}]}
    chart = _chart(s, table, (Dimension("start_coins", tuple(values)),))
    assert chart["kind"] == "bars"
    assert "1: 1 (nearest)" in chart["summary"] and len(chart["series"][0]["points"]) == 8
    # Two targets: the plane shows every rule set, the nearest miss first, marked and numbered.
    chart = _chart({**s, "targets": targets}, table, (Dimension("start_coins", tuple(values)),))
    assert chart["kind"] == "plane" and len(chart["points"]) == 12
    assert chart["points"][0] == {"label": "start_coins=1", "class": "nearest", "number": 1, "x": 10.0,
                                  "x_low": 9.0, "x_high": 11.0, "y": pytest.approx(49.0), "y_low": 0.0,
                                  "y_high": 100.0}  # fmt: skip
    said = "the nearest miss (a triangle, numbered): 1: start_coins=1 (length.median 10.0 [9.0, 11.0]"
    assert said in chart["summary"]


def _design_table(rows: list[tuple]) -> "pd.DataFrame":  # noqa: F821
    """A search's table: (label's start_coins, games, length.median [low, high], seat_gap [low, high])."""
    import pandas as pd

    return pd.DataFrame([{"label": f"start_coins={v}", "start_coins": v, "status": "misses", "games": games,
                          "length.median": length, "length.median_low": length_low,
                          "length.median_high": length_high, "seat_gap": gap, "seat_gap_low": gap_low,
                          "seat_gap_high": gap_high}
                         for v, games, (length, length_low, length_high), (gap, gap_low, gap_high)
                         in rows])  # fmt: skip


DESIGN_TARGETS = [{"metric": "length.median", "op": "=", "value": 50.0, "tolerance": 5.0, "margin": 2.0, "scale": 1.0,
                   "unit": "", "text": "length.median = 50 +- 5"},
                  {"metric": "seat_gap", "op": "<=", "value": 0.02, "tolerance": 0.0, "margin": 0.01, "scale": 100.0,
                   "unit": " points", "text": "seat_gap <= 2 points"}]  # fmt: skip


def test_the_design_chart_is_the_two_targets_plane():
    """The design panel drew bars of one target, at most eight rule sets: a family could not see
    where the targets were, nor that an answer met both. Now each rule set played is a point on
    the first two targets with its intervals both ways, scaled as the targets are written (the
    seat gap in points), the region that meets both given (an open side: None), the answers
    first, numbered as the page lists them (surest first), then the rest by how far they lie
    from the region."""
    from snakesim.analysis.design_space import Dimension
    from snakesim.workbench.panels.design import _chart

    table = _design_table([
        (1, 1000, (30.0, 28.0, 32.0), (0.010, 0.0, 0.030)),
        (2, 2000, (48.0, 45.0, 51.0), (0.012, 0.002, 0.022)),
        (3, 4000, (51.0, 50.0, 52.0), (0.008, 0.004, 0.012)),
        (4, 1000, (70.0, 66.0, 74.0), (0.005, 0.0, 0.015)),
        (5, 1000, (57.0, 55.0, 59.0), (0.030, 0.020, 0.040)),
        (6, 0, (float("nan"),) * 3, (float("nan"),) * 3),  # (never played: a sampled space's)
    ])  # fmt: skip
    s = {"targets": DESIGN_TARGETS, "answers": [{"label": "start_coins=3"}, {"label": "start_coins=2"}],
         "nearest": [], "pareto": []}  # fmt: skip
    chart = _chart(s, table, (Dimension("start_coins", (1, 2, 3, 4, 5, 6)),))
    assert chart["kind"] == "plane" and chart["id"] == "design"
    points = chart["points"]
    # (5 is 2 off on length and 1 point on the gap: 1 + 1 in what matters; 4 is 15 off: 7.5; 1 is 15 off)
    assert [(p["label"], p["class"], p.get("number")) for p in points] == [
        ("start_coins=3", "answer", 1), ("start_coins=2", "answer", 2), ("start_coins=5", "other", None),
        ("start_coins=1", "other", None), ("start_coins=4", "other", None)]  # fmt: skip
    two = points[1]
    assert (two["x"], two["x_low"], two["x_high"]) == (48.0, 45.0, 51.0)
    assert (two["y"], two["y_low"], two["y_high"]) == pytest.approx((1.2, 0.2, 2.2))  # (in points, as written)
    assert chart["region"] == {"x": [45.0, 55.0], "y": [None, 2.0]}
    assert (chart["x_name"], chart["y_name"], chart["x_unit"], chart["y_unit"]) == (
        "length.median", "seat_gap", "", " points")  # fmt: skip
    assert chart["x_label"] == "length.median (target: 45 to 55)"
    assert chart["y_label"] == "seat_gap (target: at most 2 points)"
    summary = chart["summary"]
    assert "length.median across, seat_gap up" in summary
    assert "(length.median = 50 +- 5; seat_gap <= 2 points)" in summary
    assert ("every target (large circles, numbered as listed): 1: start_coins=3 (length.median 51.0 [50.0, 52.0], "
            "seat_gap 0.8 points [0.4, 1.2]); 2: start_coins=2 (length.median 48 [45, 51], seat_gap 1.2 points "
            "[0.2, 2.2]).") in summary  # fmt: skip
    assert "shown" not in summary and "moves" not in summary and "notes" not in chart
    # No answer: a trade-off marked as such, and its words.
    s = {**s, "answers": [], "nearest": [{"label": "start_coins=5"}], "pareto": ["start_coins=5", "start_coins=1"]}
    chart = _chart(s, table, (Dimension("start_coins", (1, 2, 3, 4, 5, 6)),))
    assert [(p["label"], p["class"]) for p in chart["points"][:2]] == [("start_coins=5", "nearest"),
                                                                       ("start_coins=1", "trade-off")]  # fmt: skip
    assert (
        "Diamonds: 1 more rule set on the trade-off (no rule set is nearer both targets than it is)."
        in (chart["summary"])
    )


def test_a_design_chart_of_many_rule_sets_keeps_the_answers_and_those_nearest_the_targets():
    from snakesim.analysis.design_space import Dimension
    from snakesim.workbench.panels.design import MOST_POINTS, _chart

    values = range(300)  # (length.median 0 to 299: those 45 to 55 meet it; the gap always does)
    table = _design_table([(v, 500, (float(v), v - 1.0, v + 1.0), (0.01, 0.0, 0.02)) for v in values])
    s = {
        "targets": DESIGN_TARGETS,
        "answers": [{"label": "start_coins=50"}, {"label": "start_coins=299"}],
        "nearest": [],
        "pareto": [],
    }  # (299: as a search could call it, on other games)
    chart = _chart(s, table, (Dimension("start_coins", tuple(values)),))
    labels = [p["label"] for p in chart["points"]]
    assert len(labels) == MOST_POINTS == 200 and labels[:2] == ["start_coins=50", "start_coins=299"]
    kept = sorted(int(x.split("=")[1]) for x in labels[2:])
    assert kept == sorted(sorted((v for v in values if v not in (50, 299)), key=lambda v: (max(45 - v, v - 55, 0), v))
                          [:198])  # fmt: skip
    assert (
        "200 of the 300 rule sets played are shown: the answers and those nearest the shaded region."
        in (chart["summary"])
    )


def test_the_design_chart_says_when_no_option_moves_a_target():
    """Hisss's length is 49 in every rule set under ring_reach: its points stand in one column,
    its bars are all alike; the chart says so in words, over it and in its summary."""
    from snakesim.analysis.design_space import Dimension
    from snakesim.workbench.panels.design import _chart

    table = _design_table([(v, 500, (49.0, 49.0, 49.0), (0.01 * v, 0.0, 0.02 + 0.01 * v)) for v in range(3)])
    targets = [{**DESIGN_TARGETS[0], "metric": "length.mean"}, DESIGN_TARGETS[1]]
    table = table.rename(columns=lambda c: c.replace("length.median", "length.mean"))
    said = "length.mean is 49 in every rule set played (3): no option varied moves it."
    dims = (Dimension("start_coins", (0, 1, 2)),)
    for chosen, kind in ((targets, "plane"), (targets[:1], "bars")):
        chart = _chart({"targets": chosen, "answers": [], "nearest": [{"label": "start_coins=0"}], "pareto": []},
                       table, dims)  # fmt: skip
        assert chart["kind"] == kind and chart["summary"].startswith(said) and chart["notes"] == [said]
    # The seat gap, which the options move, is not said to be still; nor is a lone rule set's value.
    assert "seat_gap is" not in chart["summary"]
    chart = _chart({"targets": targets, "answers": [], "nearest": [], "pareto": []}, table.head(1), dims)
    assert "moves" not in chart["summary"]
