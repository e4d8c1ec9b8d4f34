"""The workbench's panels are a registry (``snakesim.workbench.panels``): each kind of run is
one Python module and one JavaScript module, nothing else in the workbench names a kind, and a
kind added to the registry alone is checked, played, described, reported, written into a study
and listed for the page."""

import ast
import re
import types
from importlib import resources
from pathlib import Path

import pytest

from snakesim.core.errors import InputError
from snakesim.workbench import panels
from snakesim.workbench.jobs import Limits
from snakesim.workbench.panels import PANELS, Panel
from snakesim.workbench.serve import Workbench
from tests.test_workbench import call, wait

WORKBENCH = Path(panels.__file__).parent.parent
STATIC = WORKBENCH / "static"
# What the page (app.js, runs.js, results.js) uses of every panel's JavaScript module.
JS_EXPORTS = ("kind", "noun", "shows", "again", "openEnded", "ids", "request", "changes", "changed", "show", "clear",
              "save", "savedRun", "wire")  # fmt: skip


@pytest.mark.parametrize("kind", list(PANELS))
def test_each_panel_has_its_python_and_its_javascript(kind):
    module = PANELS[kind]
    assert module.KIND == kind and module.NOUN and isinstance(module.COUNTS_WORK, bool)
    for name in [n for n in vars(Panel) if not n.startswith("_") and callable(getattr(Panel, n))]:
        assert callable(getattr(module, name, None)), f"{kind}: {name}"
    script = resources.files("snakesim.workbench").joinpath("static", module.SCRIPT).read_text(encoding="utf-8")
    exported = set(re.findall(r"^export (?:const|function|async function) (\w+)", script, re.M))
    assert set(JS_EXPORTS) <= exported, f"{module.SCRIPT} lacks {set(JS_EXPORTS) - exported}"
    assert f'export const kind = "{kind}";' in script


def _python_naming_a_kind() -> list[str]:
    found = []
    for path in sorted(WORKBENCH.glob("*.py")):  # (the panels' own folder left out)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in PANELS:
                found.append(f"{path.name}:{node.lineno} {node.value!r}")
    return found


def _javascript_naming_a_kind() -> list[str]:
    quoted = re.compile("[\"'`](" + "|".join(PANELS) + ")[\"'`]")
    found = []
    for path in sorted(STATIC.glob("*.js")):
        if path.name.startswith("panel-"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if quoted.search(line):
                found.append(f"{path.name}:{n}")
    return found


def test_nothing_outside_the_panels_chooses_by_kind():
    """No ``kind == "compare"`` in runs.py, keep.py, server.py or jobs.py, and no kind spelled
    in app.js, runs.js or results.js: they ask the registry."""
    assert _python_naming_a_kind() == []
    assert _javascript_naming_a_kind() == []


def test_an_unknown_kind_is_one_line_naming_the_kinds():
    with pytest.raises(InputError) as err:
        panels.panel("sweep")
    assert str(err.value) == "kind: expected one of compare, balance, design, got 'sweep'"


# ---------------------------------------------------------------------------- a kind added to the registry alone


def _tally_panel() -> types.ModuleType:
    """A kind that plays one rule set's games and says how many each seat won: added to the
    registry and nowhere else."""
    tally = types.ModuleType("tally")
    tally.KIND, tally.NOUN, tally.SCRIPT, tally.COUNTS_WORK = "tally", "tally of wins", "panel-tally.js", True

    def rule_sets(request, limits):
        return [request.get("arm")], int(request.get("games", 100))

    def play(plan, backend):
        from snakesim.core.arms import Budget
        from snakesim.core.runner import simulate_spec

        arm = plan.arms[0]
        table = simulate_spec(plan.spec, arm.rules, plan.players, Budget(plan.games, plan.seed),
                              backend=backend)  # fmt: skip
        wins = table["winner"].value_counts().sort_index()
        text = ", ".join(f"seat {int(s)} {int(n)}" for s, n in wins.items() if s >= 0)
        return {"findings": [{"arm": arm.label, "text": f"wins: {text}"}], "charts": []}

    tally.rule_sets = rule_sets
    tally.complete = lambda plan: plan.games
    tally.describe = lambda request: f"a tally of {request.get('games')} games"
    tally.play = play
    tally.command_args = lambda plan: ["--tally"]
    tally.question = lambda plan: "Who wins?"
    tally.study = lambda plan: ["[[tally]]", f"games = {plan.games}"]
    tally.report = lambda job, arms_shown: (["## Tally", "", job.result["findings"][0]["text"], ""], [])
    return tally


@pytest.fixture()
def tally_server(monkeypatch):
    import snakesim.workbench.server  # noqa: F401  (its static files listed before the registry is patched)

    monkeypatch.setitem(PANELS, "tally", _tally_panel())
    wb = Workbench(limits=Limits(max_games=20_000, max_runs=1, max_arms=4)).start()
    yield wb
    wb.stop()


def test_a_kind_added_to_the_registry_alone_plays_everywhere(tally_server):
    server = tally_server
    _, _, games = call(server, "GET", "/api/games")
    assert {"kind": "tally", "noun": "tally of wins", "script": "panel-tally.js"} in games["panels"]
    request = {"kind": "tally", "game": "fortune", "players": 3, "games": 400, "seed": 5,
               "arm": {"name": "ten coins", "toml": "start_coins = 10\n"}}  # fmt: skip
    status, _, started = call(server, "POST", "/api/runs", request)
    assert status == 202
    job = wait(server, started["id"])
    assert job["state"] == "done" and job["done"] == 400 and job["total"] == 400
    assert job["what"] == "Fortune, 3 players: a tally of 400 games"
    result = job["result"]
    seats = re.findall(r"seat (\d) (\d+)", result["findings"][0]["text"])
    assert sum(int(n) for _, n in seats) == 400 and result["findings"][0]["arm"] == "ten coins"
    assert result["arms"][0]["summary"] == "start_coins=10"
    assert result["command"] == "snakesim tally fortune -p 3 --seed 5 -n 400 -v 'ten coins=ten-coins.toml' --tally"
    status, _, report = call(server, "GET", f"/api/report?tally={job['id']}")
    assert status == 200 and "<h2>Tally</h2>" in report and result["command"] in report
    status, _, study = call(server, "POST", "/api/download/study", {"tally": request})
    assert status == 200 and "[[tally]]\ngames = 400" in study and 'question = "Who wins?"' in study
