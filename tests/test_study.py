"""Studies and reports: a tiny study renders, its HTML parses and embeds every figure it
names, bad study files are refused, and the report opens in a real browser where one exists."""

import json
import os
from html.parser import HTMLParser

import pandas as pd
import pytest
from click.testing import CliRunner

from snakesim.cli import cli
from snakesim.core.errors import InputError
from snakesim.report.study import charted, load_study, run_study

TINY = """
title = "Tiny study"
question = "Does one snake shorten the game?"
game = "fortune"
seed = 3
conclusion = "A test conclusion."

[[compare]]
title = "Snakes"
players = 3
games = 1500
variants = ["standard", "one-snake"]

[[compare]]
title = "Skill"
players = 3
games = 1000
variants = ["standard"]

[[sweep]]
title = "Coins"
players = "2..3"
set = ["start_coins=4,8"]
games = 800

[[balance]]
title = "Even seats"
players = 3
handicap = "start_coins"
set = ["start_coins=[6, 6, 3]"]
games = 400
max_games = 1600
confirm_games = 800

[[tune]]
title = "Short games"
players = 3
target = "length.median=20"
vary = "start_coins=2:12"
games = 400
max_games = 800
confirm_games = 400
"""


class Images(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images, self.title = [], ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.images.append((attrs["alt"], attrs["src"]))
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("study")
    study = folder / "tiny.toml"
    study.write_text(TINY)
    return run_study(study, folder / "out")


FORTUNE_CHARTS = [{"id": "out"}]  # (a Fortune comparison also draws when players go out)


def test_report_files(report):
    pngs = sorted(p.name for p in report.glob("*.png"))
    expected = [f"compare-{k}-{f}.png" for k in (1, 2) for f in ("feel", "length", "scores", "win-rates")]
    expected += ["sweep-1.png", "balance-1.png", "tune-1.png"]
    assert pngs == sorted(expected)
    md = (report / "report.md").read_text()
    for name in pngs:
        assert f"]({name})" in md
    assert "A test conclusion." in md and "snakesim study" in md and "seed 3" in md
    summary = pd.read_csv(report / "summary.csv")
    assert set(summary["section"]) == {"compare-1", "compare-2", "sweep-1", "balance-1", "tune-1"}
    balance = summary[(summary["section"] == "balance-1") & summary["fresh"].eq(True)].set_index(["status", "metric"])
    assert list(balance.index.unique("status")) == ["as written", "recommended"]
    assert balance.loc[("as written", "win_rate.0"), "rules"] == "start_coins=[6, 6, 3]"
    before = balance.loc["as written", "value"]
    assert before["win_rate.2"] < before["win_rate.0"]  # seat 2, 3 coins short, wins less
    assert "Recommended: `start_coins = [" in md and "(from [6, 6, 3])" in md
    assert "## Even seats" in md and "## Short games" in md and "fresh games" in md
    # Every section's numbers in words, under its title: the comparison's changes, the sweep's
    # trend, the balance's and the tune's answer.
    assert (
        "In words:" in md
        and "- one-snake: Games get" in md
        and "- 3 players: the average game (cards drawn) goes from" in md
    )
    assert "- The search recommends start_coins = [" in md and "- For the median game length of 20, play" in md
    # The tune's rows name their figure and their rule set as every other row does: the metric
    # column holds the figure's id, the value its value, rules the value played.
    tune = summary[summary["section"] == "tune-1"]
    played = tune["rules"].str.removeprefix("start_coins=").astype(int)
    assert set(tune["metric"]) == {"length.median"} and played.between(2, 12).all()
    assert list(tune["status"]) == ["candidate"] * (len(tune) - 1) + ["answer"] and tune["fresh"].iloc[-1]
    assert (tune["low"] <= tune["value"]).all() and (tune["value"] <= tune["high"]).all()
    assert "| games | start_coins | length.median | low | high | fresh |" in md


def test_a_study_without_a_conclusion_says_its_findings_under_what_it_means(tmp_path):
    study = tmp_path / "bare.toml"
    study.write_text(TINY.split('[[compare]]\ntitle = "Skill"')[0].replace('conclusion = "A test conclusion."\n', ""))
    md = (run_study(study, tmp_path / "out") / "report.md").read_text()
    meaning = md.split("## What it means for choosing house rules")[1].split("## Snakes")[0]
    assert "**Snakes**" in meaning and "- one-snake: Games get" in meaning and "shorter" in meaning


def test_html_is_self_contained_and_embeds_every_figure(report):
    parser = Images()
    parser.feed((report / "report.html").read_text())
    assert parser.title == "Tiny study"
    names = [alt for alt, _ in parser.images]
    assert sorted(names) == sorted(p.name for p in report.glob("*.png") if not charted(p.name, FORTUNE_CHARTS))
    assert all(src.startswith("data:image/png;base64,") and len(src) > 5000 for _, src in parser.images)


def test_html_draws_each_comparisons_charts_from_its_numbers(report):
    """report.html carries each comparison's charts as data (drawn by the inlined script in
    place of the win-rate, length and feel PNGs); the win rates are summary.csv's."""
    text = (report / "report.html").read_text()
    blocks = [json.loads(part.split("</script>")[0]) for part in text.split('<script type="application/json">')[1:]]
    assert len(blocks) == 2 and "window.SnakesimCharts" in text and 'src="http' not in text
    summary = pd.read_csv(report / "summary.csv")
    for k, charts in enumerate(blocks):
        wins = next(c for c in charts if c["id"] == "win-rates")
        rows = summary[summary["section"] == f"compare-{k + 1}"].set_index(["rules", "metric"])
        for series in wins["series"]:
            for seat, (_, value, low, high) in enumerate(series["points"]):
                row = rows.loc[(series["name"], f"win_rate.{seat}")]
                assert (value, low, high) == pytest.approx((row["value"], row["low"], row["high"]), rel=1e-9)


@pytest.mark.parametrize(
    "text,words",
    [
        ('title = "t"\nquestion = "q"\ngame = "fortune"\n', "study: give at least one"),
        ('title = "t"\nquestion = "q"\ngame = "fortune"\ncolour = 1\n[[sweep]]\n', "study.colour: unknown key"),
        ('title = "t"\ngame = "fortune"\n[[sweep]]\n', "study.question: missing"),
        (
            'title = "t"\nquestion = "q"\ngame = "fortune"\n[[compare]]\nplayerz = 3\n',
            r"compare\[0\].playerz: unknown key",
        ),
        ('title = "t"\nquestion = "q"\ngame = "fortune"\nseed = "x"\n[[sweep]]\n', "study.seed: expected an integer"),
    ],
)
def test_bad_study_files(tmp_path, text, words):
    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(InputError, match=words):
        load_study(path)


HEAD = 'title = "t"\nquestion = "q"\ngame = "fortune"\n'
COMPARE = "[[compare]]\nplayers = 3\ngames = 100\n"
SWEEP = '[[sweep]]\nplayers = 3\ngames = 100\nset = ["start_coins=4,8"]\n'


def no_games(monkeypatch) -> None:
    """Any game played (on the threads backend every section plays on) fails the test."""
    from snakesim.core.backends import ThreadsBackend

    for method in ("warm_up", "map"):
        monkeypatch.setattr(ThreadsBackend, method, lambda *a, **k: pytest.fail("a game was played"))


@pytest.mark.parametrize(
    "text,message",
    [
        (HEAD + "conclusion = 5\n" + COMPARE, "study.conclusion: expected a string, got 5"),
        (HEAD.replace('"t"', "7") + COMPARE, "study.title: expected a string, got 7"),
        (HEAD + COMPARE + "set = [5]\n", r"compare[0].set: expected a list of strings, got 5 in it"),
        (HEAD + COMPARE + "policies = [5]\n", r"compare[0].policies: expected a list of strings, got 5 in it"),
        (HEAD + COMPARE.replace("100", "0"), r"compare[0].games: expected an integer of at least 1, got 0"),
        (HEAD + SWEEP.replace("100", "-5"), r"sweep[0].games: expected an integer of at least 1, got -5"),
        (HEAD + "compare = 5\n", "study.compare: expected a list, got 5"),
        (HEAD + "compare = [5]\n", "compare[0]: expected a table ([[compare]]), got 5"),
        (HEAD + "seed = -1\n" + COMPARE, "study.seed: expected an integer"),
        # A bad value in the last section is found before the first section plays.
        (HEAD + COMPARE + SWEEP.replace("4,8", "0,8"), "start_coins: expected an integer from 1"),
        (HEAD + COMPARE + '[[balance]]\nplayers = 3\nhandicap = "snakes"\n', "balance[0]: handicap: 'snakes' is not"),
        (HEAD + COMPARE + "[[balance]]\nplayers = 3\n", "balance[0].handicap: missing"),
        (
            HEAD + COMPARE + '[[balance]]\nplayers = 3\nhandicap = "start_coins"\ntolerance = "1"\n',
            "balance[0].tolerance: expected a number",
        ),
        (
            HEAD + COMPARE + '[[tune]]\nplayers = 3\ntarget = "length.mean=9"\nvary = "start_coins=0:5"\n',
            "tune[0]: vary: expected 1 <= LOW",
        ),
        (
            HEAD + COMPARE + '[[tune]]\nplayers = 3\ntarget = "pace=9"\nvary = "start_coins=1:5"\n',
            "tune[0]: target: unknown metric 'pace'",
        ),
        # (a design search whose budget cannot play its rule sets once: it was found only once the
        # sections before it had played)
        (
            HEAD + COMPARE + '[[design]]\nplayers = 3\nvary = ["start_coins=3:6"]\ntargets = ["length.median=20"]\n'
            "games = 300\nbudget = 3000\n",
            "design[0]: budget: 4 rule sets x 300 games in the first round (and their confirmation) need at least "
            "7,200 games; got 3,000",
        ),
    ],
)
def test_bad_study_is_one_line_before_any_game(tmp_path, monkeypatch, text, message):
    path = tmp_path / "s.toml"
    path.write_text(text)
    no_games(monkeypatch)
    r = CliRunner().invoke(cli, ["study", str(path), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


def test_a_failed_study_leaves_the_previous_report_whole(report, tmp_path, monkeypatch):
    import snakesim.report.study as study_module

    before = {p.name: p.read_bytes() for p in report.iterdir()}
    study = tmp_path / "tiny.toml"
    study.write_text(TINY.replace("A test conclusion.", "A new conclusion."))

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(study_module, "_html", full_disk)  # fails after report.md is written
    r = CliRunner().invoke(cli, ["study", str(study), "--out", str(report), "--scale", "0.1"])
    assert r.exit_code == 2 and r.stderr.strip() == "snakesim: error: No space left on device", r.stderr
    assert {p.name: p.read_bytes() for p in report.iterdir()} == before
    assert [p.name for p in report.parent.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


def test_a_study_into_a_read_only_folder_is_refused_before_any_game(tmp_path, monkeypatch):
    import snakesim.core.results as results_module

    locked = tmp_path / "locked"
    locked.mkdir()
    study = tmp_path / "tiny.toml"
    study.write_text(TINY)
    # The suite may run as root, whom chmod does not stop: deny the write as the OS would.
    real_access = os.access

    def access(path, mode):
        return False if mode == os.W_OK and str(path) == str(locked) else real_access(path, mode)

    monkeypatch.setattr(results_module.os, "access", access)
    no_games(monkeypatch)
    r = CliRunner().invoke(cli, ["study", str(study), "--out", str(locked / "report")])
    assert (
        r.exit_code == 2
        and r.stderr.strip() == f"snakesim: error: --out: cannot write in '{locked}': permission denied"
    )


def test_bad_runs_are_refused_before_anything_is_written(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(TINY.replace('variants = ["standard", "one-snake"]', 'variants = ["standard", "two-snakes"]'))
    r = CliRunner().invoke(cli, ["study", str(path), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "variant: unknown variant 'two-snakes'" in r.stderr
    assert not (tmp_path / "out").exists()


def test_the_shipped_studies_are_valid():
    from pathlib import Path

    studies = sorted(Path("analyses").glob("*.toml"))
    assert len(studies) >= 3
    for study in studies:
        data = load_study(study)
        assert data.get("conclusion"), f"{study} says nothing about what its numbers mean"


@pytest.mark.slow  # (11 s: a Dask cluster for a whole study; the default run keeps lighter Dask tests)
def test_a_study_on_dask_gives_the_same_summary(report, tmp_path):
    from snakesim.core.backends import DaskBackend

    study = tmp_path / "tiny.toml"
    study.write_text(TINY)
    with DaskBackend(workers=2) as dask:
        folder = run_study(study, tmp_path / "dask", backend=dask)
    assert (folder / "summary.csv").read_text() == (report / "summary.csv").read_text()


def test_docs_studies_documents_every_key():
    from pathlib import Path

    import snakesim.report.study as study_module

    doc = (Path(__file__).parents[1] / "docs" / "studies.md").read_text()
    tables = [getattr(study_module, name) for name in dir(study_module) if name.endswith("_TYPES")]
    keys = {key for table in tables for key in table}
    assert len(tables) >= 7 and {"handicap", "novices", "playouts", "arms", "conclusion"} <= keys
    missing = sorted(k for k in keys if f"`{k}`" not in doc and f"[[{k}]]" not in doc)
    assert not missing, f"docs/studies.md does not document {missing}"


def test_the_report_renders_markdown_and_names_the_whole_command(report):
    page = (report / "report.html").read_text()
    # Markdown rendered, none left raw: bold, lists and tables are HTML, no ** or | rows remain.
    assert "<strong>Question.</strong>" in page and "<li>" in page and "<table>" in page
    assert "**" not in page and "\n| " not in page and "`" not in page.split("<style>")[1].split("</style>")[1]
    md = (report / "report.md").read_text()
    assert f"--out {report.as_posix()}" in md and f"--out {report.as_posix()}" in page


def test_a_study_asked_again_takes_its_searches_games_from_the_catalogue(tmp_path, monkeypatch):
    """Its balance and tune sections take the games the first run kept, say how many, and
    write the same summary (the report's figures) as the first run did (Fortune's games,
    quicker to play than to read back, are kept here all the same)."""
    from snakesim.analysis import search

    monkeypatch.setattr(search, "WORTH", 0.0)
    searches = TINY[: TINY.index("[[compare]]")] + TINY[TINY.index("[[balance]]") :]
    (tmp_path / "s.toml").write_text(searches)
    env = {**os.environ, "SNAKESIM_HOME": str(tmp_path)}
    outputs = []
    for k in range(2):
        r = CliRunner().invoke(cli, ["study", str(tmp_path / "s.toml"), "--out", str(tmp_path / f"r{k}")], env=env)
        assert r.exit_code == 0, r.output
        outputs.append(r.output)
    assert "came from the catalogue" not in outputs[0]
    assert "of its searches' games came from the catalogue (kept by earlier searches of the same seeds and players)" \
        in outputs[1]  # fmt: skip
    first, second = (pd.read_csv(tmp_path / f"r{k}" / "summary.csv") for k in range(2))
    pd.testing.assert_frame_equal(first, second, check_exact=False, rtol=1e-12)
