"""The workbench's page as a family and a designer use it, in a real headless browser (Debian's
chromium driven by Playwright): typing at their speed, reloading mid-run, a second tab, a phone's
screen, the keyboard alone. One test for each way the page once let them get a wrong or silently
partial answer (issue 41), and the parent's question from end to end, checked against the command
line on the same games.

Marked ``browser``: ``make test-browser`` installs the browser and runs them (CI does). Every test
opens fresh pages on one server; every request that is not to that server is blocked and counted,
and every script error fails the test.
"""

import itertools
import json
import re

import pytest
from click.testing import CliRunner

from snakesim.cli import cli
from tests.engines_stand_in import stand_in
from tests.test_browser import browser, chromium  # noqa: F401  (the module's headless chromium)

pytestmark = pytest.mark.browser
RUN = 120_000  # ms a run may take (a first run compiles its engine)


@pytest.fixture(scope="module")
def server():
    from snakesim.workbench.serve import Workbench

    wb = Workbench().start()
    yield wb
    wb.stop()


@pytest.fixture
def open_page(browser, server):  # noqa: F811
    """open_page(width, height, path) -> a fresh page (its own tab storage) once it is drawn (of
    the module's server, or of another: ``at``)."""
    contexts, problems = [], []

    def open_(width=1280, height=900, path="", context=None, wait=True, at=None):
        if context is None:
            context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
            contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: problems.append(f"script error: {e}"))

        def console(message):  # (a 4xx is the server's answer to a bad edit or a busy server, shown on the page)
            if message.type == "error" and not re.search(r"status of 4\d\d", message.text):
                problems.append(message.text)

        page.on("console", console)
        base = (at or server).url
        own = base.rstrip("/")

        def route(r):
            if r.request.url.startswith((own + "/", "blob:", "data:", "file://")):  # (file: a downloaded report)
                r.continue_()
            else:
                problems.append(f"asked outside: {r.request.url}")
                r.abort()

        page.route("**/*", route)
        page.goto(base + path)
        if wait:
            page.wait_for_selector("body[data-ready=true]", timeout=30_000)
        return page

    yield open_
    for context in contexts:
        context.close()
    server.jobs.cancel_all()  # (a test that failed mid-run leaves the next one a free server)
    assert problems == []


def choose(page, game, players=None):
    page.select_option("#game", game)
    page.wait_for_selector(f"body[data-game={game}]")
    if players is not None:
        page.fill("#players", str(players))


def started(page, button="#run"):
    """Press a run's button; return the run's id (the POST's answer)."""
    with page.expect_response(lambda r: r.url.endswith("/api/runs") and r.request.method == "POST") as answer:
        page.click(button)
    assert answer.value.status == 202, answer.value.json()
    return answer.value.json()["id"]


def play(page, button="#run", shown="compare"):
    """Press Play (or Find the handicap) and wait for its results on the page."""
    run = started(page, button)
    page.wait_for_selector(f"body[data-{shown}='{run}']", timeout=RUN)
    return run


def findings(page, box="#findings"):
    return [li.inner_text() for li in page.locator(f"{box} li").all()]


def set_field(page, selector, text):
    page.fill(selector, text)


# ---------------------------------------------------------------------------- 1. Play plays what the page shows


def test_play_plays_the_rules_in_the_editor_and_says_what_it_leaves_out(open_page):
    """Once, an edited rule set was left out of Play unless "added as an arm" first: the answer
    was about the baseline alone, and nothing said so."""
    page = open_page()
    assert page.inner_text("#editing-name") == "my rules"
    plan = page.locator("#plan")
    assert plan.inner_text() == (
        "Play plays standard alone: 100,000 games with 4 players. It leaves out my rules: no "
        "different from standard yet."
    )
    page.fill("[data-field=start_coins]", "10")
    page.wait_for_function("() => document.getElementById('toml').value.startsWith('start_coins = 10')")
    assert "Play compares standard and my rules" in plan.inner_text() and "leaves out" not in plan.inner_text()
    page.fill("#games", "3000")
    with page.expect_request(lambda r: r.url.endswith("/api/runs") and r.method == "POST") as sent:
        run = started(page)
    arms = json.loads(sent.value.post_data)["arms"]
    assert [a["name"] for a in arms] == ["standard", "my rules"] and arms[1]["toml"].startswith("start_coins = 10")
    page.wait_for_selector(f"body[data-compare='{run}']", timeout=RUN)
    assert any(f.startswith("my rules: ") for f in findings(page))
    assert page.locator("#table-box th", has_text="my rules").count() == 1


# ---------------------------------------------------------------------------- 2. no typed value is put back


def test_fast_typing_is_never_put_back_even_on_a_slow_server(open_page, monkeypatch):
    """Once, a value typed within 350 ms of another (tabbing through the deck) went back to its
    old value when the answer for the first came back. Here every check takes 0.4 s."""
    import time

    from snakesim.workbench import forms

    page = open_page()
    slow = forms.rules_view

    def slow_view(rules):
        time.sleep(0.4)
        return slow(rules)

    monkeypatch.setattr(forms, "rules_view", slow_view)
    page.click("[data-field=deck][data-key=LEAVES]")
    for count in ("7", "9", "3", "11"):  # a person tabbing down the deck: a key, then Tab
        page.keyboard.press("Control+A")
        page.keyboard.type(count, delay=60)
        page.keyboard.press("Tab")
    typed = {"LEAVES": "7", "POPPIES": "9", "ORCHIDS": "3", "FOUNTAIN": "11"}
    page.wait_for_function(
        "t => ['LEAVES = 7', 'POPPIES = 9', 'ORCHIDS = 3', 'FOUNTAIN = 11'].every(x => t.value.includes(x))",
        arg=page.locator("#toml").element_handle(),
        timeout=20_000,
    )
    page.wait_for_timeout(1200)  # (any late answer would have come back by now)
    for key, value in typed.items():
        assert page.input_value(f"[data-field=deck][data-key={key}]") == value, key
    monkeypatch.undo()
    # A refused value stays in its field, marked, with the server's one line; the rest still applies.
    page.fill("[data-field=start_coins]", "abc")
    page.fill("[data-field=snakes]", "3")
    error = page.locator("#rules-error")
    error.wait_for(state="visible")
    assert error.inner_text().startswith("start_coins: expected an integer from 1 to 1,000,000") and "got 'abc'" in (
        error.inner_text()
    )
    page.wait_for_function("() => document.getElementById('toml').value.includes('snakes = 3')")
    assert page.input_value("[data-field=start_coins]") == "abc"
    assert "invalid" in page.get_attribute("[data-field=start_coins]", "class")
    page.fill("[data-field=start_coins]", "")
    page.wait_for_function("() => document.getElementById('rules-error').textContent.includes('got nothing')")
    # Play will not play half-typed rules: it says which field to fix.
    page.click("#run")
    page.wait_for_selector("#run-error:not([hidden])")
    assert page.inner_text("#run-error").startswith("my rules: start_coins: expected an integer")
    # It names the button that throws the edit away (it said "Put back", a button there is not),
    # and goes with the refused edit (it stayed, red, after the edit was thrown away).
    assert page.inner_text("#run-error").endswith('(fix it, or press "Throw away the refused edit")')
    assert page.inner_text("#rules-undo") == "Throw away the refused edit"
    page.click("#rules-undo")
    page.wait_for_selector("#rules-error", state="hidden")
    page.wait_for_selector("#run-error", state="hidden")
    from playwright.sync_api import expect

    expect(page.locator("[data-field=start_coins]")).to_have_value("20")


# ---------------------------------------------------------------------------- 3. every rule set takes the players


def test_every_rule_set_takes_the_baselines_players_unless_given_its_own(open_page):
    """Once, the family's child (seat 1, random) was greedy in the added wild-snake: the
    comparison mixed the rule with the child's play, and nothing said so."""
    page = open_page()
    choose(page, "rainbow", 3)
    page.select_option("#lineup select >> nth=1", "random")
    page.select_option("#variant-pick", "wild-snake")
    page.click("#add-variant")
    card = page.locator("#arms li[data-arm=wild-snake]")
    card.wait_for()
    assert "Players: the baseline's (greedy as the first and third, random as the second player)" in card.inner_text()
    # The games' limit moves with the rule sets: it says why (a family saw 666,666 unexplained).
    page.fill("#games", "100000000")
    page.click("#run")
    page.wait_for_selector("#run-error:not([hidden])")
    said = "games per rule set: expected a whole number from 1 to 1,000,000 (2,000,000 games in all, shared by 2 rule "
    assert page.inner_text("#run-error") == said + "sets), got 100,000,000"
    page.fill("#games", "1500")
    with page.expect_request(lambda r: r.url.endswith("/api/runs") and r.method == "POST") as sent:
        run = started(page)
    request = json.loads(sent.value.post_data)
    assert request["lineup"] == ["greedy", "random", "greedy"]
    assert [a["policies"] for a in request["arms"]] == [None, None]
    page.wait_for_selector(f"body[data-compare='{run}']", timeout=RUN)
    assert not any("differ in who plays" in f for f in findings(page))
    # Given players of its own, the rule set says it differs, and so does the answer's first line.
    card.locator("button", has_text="Give it players of its own").focus()
    page.keyboard.press("Enter")  # (with the keyboard: the card is drawn anew, and the focus stays in it)
    assert (
        page.evaluate("() => document.activeElement.closest('li') && document.activeElement.closest('li').dataset.arm")
        == "wild-snake"
    )
    card.locator("select >> nth=1").select_option("greedy")
    assert "Its players differ from the baseline's" in card.inner_text()
    play(page)
    assert findings(page)[0].startswith("These rule sets differ in who plays as well as in the rules (standard: "
                                        "greedy, random, greedy; wild-snake: greedy, greedy, greedy)")  # fmt: skip
    # Another game and back: the rule sets, their players and the results are as they were left.
    said = findings(page)
    choose(page, "hisss")
    assert page.locator("#arms li[data-arm=wild-snake]").count() == 0
    choose(page, "rainbow")
    assert "Players of its own" in card.inner_text() and findings(page) == said
    assert page.input_value("#players") == "3" and page.is_hidden("#stale")


# ---------------------------------------------------------------------------- 4. a run belongs to its page


def test_a_reload_reattaches_to_its_run_and_another_page_can_cancel_it(open_page):
    """Once, a reload mid-run left the run playing with no way to stop it ("1 run(s) under way...
    wait or cancel", no Cancel button), and a second tab met the same."""
    page = open_page()
    choose(page, "rainbow", 3)
    page.select_option("#lineup select >> nth=0", "expert")  # (an expert's game costs hundreds: a long run)
    page.fill("#games", "200000")
    run = started(page)
    page.wait_for_selector("#cancel:not([hidden])")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#cancel:not([hidden])", timeout=10_000)  # its own run, reattached
    assert page.is_visible("#progress")
    # The bar is the share of the time, the words the games: they say so ("100,000 of 200,000 games
    # played" beside a bar a tenth full read as a broken bar).
    page.wait_for_function(
        "() => / of 200,000 games played, about \\d+% of the time$/"
        ".test(document.getElementById('status').textContent)",
        timeout=RUN,
    )
    # A second tab (its own storage) sees the run, says whose it is, and can cancel it.
    other = open_page()
    busy = other.locator("#busy")
    busy.wait_for(state="visible", timeout=10_000)
    assert "Another page of this workbench is playing Rainbow, 3 players: 1 rule set" in busy.inner_text()
    other.click("#run")  # (Play there says the server is busy, with the same way out)
    other.wait_for_selector("#run-error:not([hidden])")
    assert other.inner_text("#run-error").startswith("A run is under way (Rainbow, 3 players")
    busy.locator("button", has_text="Cancel that run").click()
    page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('Cancelled after')", timeout=RUN
    )  # (a cancel during the engine's compile takes effect after it)
    busy.wait_for(state="hidden", timeout=10_000)
    other.wait_for_selector("#run-error", state="hidden")  # (the busy line goes with the run)
    assert page.is_hidden("#cancel") and page.is_enabled("#run")
    # A short run reloaded at once still brings its results to the page that started it.
    page.select_option("#lineup select >> nth=0", "greedy")
    page.fill("#games", "20000")
    run = started(page)
    page.reload()
    page.wait_for_selector(f"body[data-compare='{run}']", timeout=RUN)
    assert findings(page)


# ---------------------------------------------------------------------------- 5. stale and lost state


def test_results_are_marked_stale_and_a_link_keeps_everything_the_page_found(open_page, server, tmp_path):
    """Once, old results stayed unmarked after the settings changed, a broken link silently opened
    the default page, a reopened link lost the results, and the handicap was kept nowhere."""
    import tomllib

    page = open_page()
    page.fill("[data-field=start_coins]", "10")
    page.wait_for_function("() => document.getElementById('toml').value.startsWith('start_coins = 10')")
    page.fill("#games", "3000")
    run = play(page)
    stale = page.locator("#stale")
    assert stale.is_hidden()
    page.fill("#players", "3")
    stale.wait_for(state="visible")
    assert "the number of players changed since" in stale.inner_text()
    page.fill("#players", "4")
    stale.wait_for(state="hidden")
    page.fill("[data-field=start_coins]", "11")
    page.wait_for_function("() => document.getElementById('stale').textContent.includes('the rules of my rules')")
    page.fill("[data-field=start_coins]", "10")
    stale.wait_for(state="hidden")
    # A change of games says both counts (the settle button changes them itself).
    page.fill("#games", "4000")
    stale.wait_for(state="visible")
    assert "the games per rule set (3,000 then, 4,000 now) changed since" in stale.inner_text()
    page.fill("#games", "3000")
    stale.wait_for(state="hidden")
    # A fair handicap, kept beside the comparison.
    page.select_option("#handicap", "start_coins")
    page.fill("#balance-games", "1000")
    balance = play(page, "#balance", "balance")
    said = findings(page), findings(page, "#balance-findings")
    # The link reopens both results without playing a game.
    link = page.url
    again = open_page(path=link[len(server.url) :], wait=False)
    posts = []
    again.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/api/runs") else None)
    again.wait_for_selector(f"body[data-compare='{run}'][data-balance='{balance}']", timeout=30_000)
    assert (findings(again), findings(again, "#balance-findings")) == said and posts == []
    assert again.is_hidden("#stale") and again.is_hidden("#balance-stale")
    assert again.input_value("#handicap") == "start_coins" and again.input_value("#balance-games") == "1000"
    # The study plays both again; the report holds both, and what each rule set changes.
    with again.expect_download() as got:
        again.click("#download-study")
    study = tomllib.loads(open(got.value.path()).read())
    assert study["compare"][0]["arms"][1] == {"name": "my rules", "set": ["start_coins=10"]}
    assert study["balance"][0]["handicap"] == "start_coins" and study["balance"][0]["games"] == 1000
    report = again.request.get(server.url + again.get_attribute("#download-report", "href").lstrip("/")).text()
    assert "A fair handicap" in report and "start_coins=10" in report and said[1][0] in report.replace("&#x27;", "'")
    # A cut-short or foreign link says so, and the page opens on the default game.
    for broken in (link[: len(link) - 25], server.url + "#bm90IGEgbGluaw"):
        cut = open_page(path=broken[len(server.url) :])
        assert cut.is_visible("#link-error") and "could not be read" in cut.inner_text("#link-error")
        assert cut.input_value("#game") == "fortune"


def test_a_cancel_leaves_earlier_results_marked_for_what_they_answer(open_page):
    page = open_page()
    page.fill("[data-field=start_coins]", "10")
    page.fill("#games", "3000")
    page.wait_for_function("() => document.getElementById('plan').textContent.includes('compares')")
    play(page)
    page.fill("#players", "5")
    page.fill("#games", "1000000")
    started(page)
    page.click("#cancel")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Cancelled after')")
    # The results on screen are still the 4-player ones, and say so.
    assert page.is_visible("#stale") and "the number of players" in page.inner_text("#stale")


def test_a_link_survives_a_restart_and_earlier_answers_open_from_the_list(open_page, server):
    """A link to a page's results worked only while its server held the run: 20 runs later, or
    after a restart, the page said the comparison "is no longer on this server". Every answer is
    now kept in the catalogue: a second server on the same SNAKESIM_HOME (a restart: it never saw
    the run) opens the copied link with the same findings, playing nothing; the same question
    asked again is answered at once, saying so, and "Play them again" plays it; the earlier
    answers, newest first, open from the list on a phone's screen with the keyboard alone."""
    from snakesim.workbench.serve import Workbench

    page = open_page()
    page.fill("[data-field=start_coins]", "10")
    page.wait_for_function("() => document.getElementById('toml').value.startsWith('start_coins = 10')")
    page.fill("#games", "3000")
    run = play(page)
    said = findings(page)
    page.click("#copy-link")
    link = page.url  # (what Copy copies: the page's address)
    restarted = Workbench().start()
    try:
        again = open_page(path=link[len(server.url) :], at=restarted, wait=False)
        posts = []
        again.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/api/runs" in r.url else None)
        again.wait_for_selector(f"body[data-compare='{run}']", timeout=30_000)
        assert findings(again) == said and posts == [] and again.is_hidden("#results-gone")
        assert again.is_hidden("#stale") and again.input_value("[data-field=start_coins]") == "10"
        assert re.fullmatch(r"From your earlier answers, played on \d{4}-\d\d-\d\d at \d\d:\d\d: 6,000 games in "
                            r"[\d.]+ s\.", again.inner_text("#status"))  # fmt: skip
        # The same question, asked again: answered at once from the catalogue, and said so.
        served = play(again)
        assert served != run and findings(again) == said
        assert again.inner_text("#status").startswith("From your earlier answers, played on ")
        assert again.is_visible("#status-again")
        with again.expect_request(lambda r: r.url.endswith("/api/runs") and r.method == "POST") as sent:
            again.click("#status-again")
        assert json.loads(sent.value.post_data)["fresh"] is True
        again.wait_for_function(
            "() => / games played in [\\d.]+ s$/.test(document.getElementById('status').textContent)", timeout=RUN
        )
        assert findings(again) == said and again.is_hidden("#status-again")
        # The earlier answers on a phone, with the keyboard: newest first, each opening its page.
        phone = open_page(390, 844, at=restarted)
        assert phone.is_hidden("#earlier-list")
        phone.focus("#earlier summary")
        phone.keyboard.press("Enter")
        items = phone.locator("#earlier-list li")
        items.nth(1).wait_for()
        assert items.count() == 2  # (the answer served from the catalogue is the first one, not a new one)
        for item in items.all():
            assert item.inner_text().startswith("Fortune, 4 players, comparison: standard and my rules 3,000 games "
                                                "each, seed 1; played on ")  # fmt: skip
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.keyboard.press("Tab")
        phone.keyboard.press("Tab")  # (the second answer: the first one played)
        assert phone.evaluate("document.activeElement.getAttribute('href')") == "#answer=c1"
        phone.keyboard.press("Enter")
        phone.wait_for_selector(f"body[data-compare='{run}']", timeout=30_000)
        assert findings(phone) == said and phone.input_value("[data-field=start_coins]") == "10"
        assert phone.input_value("#games") == "3000" and phone.is_hidden("#stale")
        assert "#answer=" not in phone.url  # (its address is its page's link again)
    finally:
        restarted.stop()


# ---------------------------------------------------------------------------- 6. the parent's question


def test_the_parents_question_is_answered_on_the_first_view(open_page):
    """ "We play Rainbow with 3 players, our 7-year-old plays randomly: what does wild-snake do?"
    The child's chance, with its interval, in words on the first view, equal to the command line's
    on the same games; no statistics words outside the details."""
    page = open_page()
    choose(page, "rainbow", 3)
    words = page.inner_text("#players-words")
    assert "random" in words and "picks any allowed move at random" in words and "greedy:RATE" in words
    page.select_option("#lineup select >> nth=1", "random")
    page.select_option("#variant-pick", "wild-snake")
    page.click("#add-variant")
    page.locator("#arms li[data-arm=wild-snake]").wait_for()
    page.fill("#games", "4000")
    page.fill("#seed", "3")
    play(page)
    said = findings(page)
    out = CliRunner().invoke(cli, ["compare", "rainbow", "-p", "3", "-n", "4000", "--seed", "3", "--policies",
                                   "greedy,random,greedy", "-v", "standard", "-v", "wild-snake", "--set", "feel=true",
                                   "--json"])  # fmt: skip
    assert out.exit_code == 0, out.output
    rows = {(r["variant"], r["metric"]): r for r in json.loads(out.output)["rows"]}
    for arm in ("standard", "wild-snake"):
        text = next(f for f in said if f.startswith(f"{arm}: The second player (random) wins "))
        value, low, high = (float(x) for x in re.search(r"wins ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", text).groups())
        row = rows[arm, "win_rate.1"]
        for shown, exact in ((value, row["value"]), (low, row["low"]), (high, row["high"])):
            assert abs(100 * exact - shown) <= 0.05 + 1e-9, (arm, text)
        assert "a fair share being 33.3%" in text
    # The first chart names the players; the first view speaks no statistics.
    seats = page.eval_on_selector_all("[data-chart=win-rates] .snakesim-hit", "h => h.map(x => x.dataset.x)")
    assert seats == ["first (greedy)", "second (random)", "third (greedy)"]
    first_view = page.evaluate(
        "() => { const r = document.getElementById('results').cloneNode(true);"
        " r.querySelector('details').remove(); return r.innerText; }"
    )
    for jargon in (
        "arm",
        "p(Holm)",
        "Holm",
        "p",
        "pairing",
        "Kaplan-Meier",
        "seat balance",
        "pp",
        "first-player advantage",
    ):
        assert not re.search(rf"(?<![\w-]){re.escape(jargon)}(?![\w-])", first_view), jargon
    assert page.locator("[data-field=feel]").count() == 0 and page.locator("#feel").count() == 1


# ---------------------------------------------------------------------------- 7. no claim the page contradicts


def test_constant_lengths_are_said_once_and_the_report_says_what_each_rule_set_changes(open_page, server):
    page = open_page()
    choose(page, "hisss", 3)
    page.fill("[data-field=heads][data-key=RAINBOW]", "2")
    page.wait_for_function("() => document.getElementById('toml').value.includes('RAINBOW = 2')")
    page.fill("#games", "800")
    play(page)
    said = findings(page)
    assert "Every 3-player Hisss game lasts 49 turns under standard, and 50 turns under my rules." in said
    assert not any(re.search(r"\d+ -> \d+ turns", f) for f in said)
    assert page.locator("[data-chart=length]").count() == 0
    assert page.locator("#table-box th", has_text=re.compile("^length")).count() == 0
    report = page.request.get(server.url + page.get_attribute("#download-report", "href").lstrip("/")).text()
    assert "<strong>my rules</strong>: <code>heads.RAINBOW=2</code>" in report
    assert "<strong>standard</strong> (the baseline): the standard rules, unchanged" in report


def test_the_handicap_is_called_fair_only_when_the_fresh_games_show_it(open_page, server):
    page = open_page()
    choose(page, "hisss", 3)
    page.select_option("#handicap", "start_points")
    page.fill("#tolerance", "1")
    page.fill("#balance-games", "2000")
    run = play(page, "#balance", "balance")
    status = page.request.get(f"{server.url}api/runs/{run}").json()["result"]["status"]
    text = " ".join(findings(page, "#balance-findings"))
    assert ("fair within that tolerance." in text) == (status == "balanced")
    assert "evens the seats" not in text and " points" not in text.replace("percentage points", "")
    # The recommended handicap becomes a rule set to compare in one click (it was only in words).
    result = page.request.get(f"{server.url}api/runs/{run}").json()["result"]
    values, listed = " ".join(map(str, result["values"])), ", ".join(map(str, result["values"]))
    assert page.inner_text("#balance-add") == f"Add start_points = [{listed}] as a rule set"
    page.click("#balance-add")
    page.wait_for_selector(f"#arms li[data-arm='start_points ({values})']")
    # (the button says so once the rule set is added: a moment after the list shows it)
    page.wait_for_function("() => document.getElementById('balance-add').textContent.startsWith('Added')")
    assert page.inner_text("#balance-add") == f"Added as start_points ({values}) (section 2)"
    assert f"start_points = [{listed}]" in page.input_value("#toml")


# ---------------------------------------------------------------------------- 8. a phone and a keyboard


def test_a_phone_and_the_keyboard_alone(open_page, server, tmp_path):
    page = open_page(360, 800)
    # Fields a finger can hit, in text a phone does not zoom into (they were 11px, 19-21px tall).
    for field in ("[data-field=start_coins]", "[data-field=snakes]", "#game", "#games"):
        size = page.eval_on_selector(field, "e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 16 and page.locator(field).bounding_box()["height"] >= 32, field
    page.fill("[data-field=start_coins]", "10")
    page.fill("#games", "5000")
    page.wait_for_function("() => document.getElementById('plan').textContent.includes('compares')")
    play(page)
    page.fill("#balance-games", "1000")
    play(page, "#balance", "balance")
    width = "document.documentElement.scrollWidth"
    assert page.evaluate(width) <= 360
    for box in page.locator("#arms button, #keep button, #keep a").all():
        b = box.bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= 360, box.inner_text()
    # The length chart's labels do not run into each other.
    spans = page.eval_on_selector_all(
        "[data-chart=length] .snakesim-tick[text-anchor=middle]",
        "ts => ts.map(t => { const b = t.getBoundingClientRect(); return [b.left, b.right]; })",
    )
    assert len(spans) >= 3 and all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    # Headings in order; no hint to hover on a phone.
    levels = page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "hs => hs.map(h => Number(h.tagName[1]))")
    assert levels[0] == 1 and all(b <= a + 1 for a, b in itertools.pairwise(levels))
    assert "hover" not in page.inner_text("body").lower()
    # The keyboard alone: from Play to the downloads, each chart is one Tab stop with a name.
    charts = page.locator("#charts .snakesim-chart, #balance-charts .snakesim-chart").count()
    page.focus("#run")
    stops = []
    for _ in range(80):
        page.keyboard.press("Tab")
        here = page.evaluate(
            "() => { const e = document.activeElement; const l = e.getAttribute('aria-labelledby');"
            " const name = l ? document.getElementById(l).textContent : e.labels && e.labels.length"
            " ? e.labels[0].textContent : e.getAttribute('aria-label') || e.textContent || '';"
            " return [e.id, e.className, name.trim()]; }"
        )
        stops.append(here)
        if here[0] == "download-study":
            break
    assert stops[-1][0] == "download-study"
    plots = [s for s in stops if "snakesim-plot" in s[1]]
    assert len(plots) == charts and all(name for _, _, name in stops)
    page.locator("#charts .snakesim-plot").first.focus()
    page.keyboard.press("ArrowRight")
    tip = page.locator("#charts .snakesim-tip").first
    assert tip.is_visible() and re.search(r"standard: [\d.]+% \[", tip.inner_text())
    # The report, on the same phone: nothing runs off the side.
    report = tmp_path / "report.html"
    report.write_text(page.request.get(server.url + page.get_attribute("#download-report", "href").lstrip("/")).text())
    paper = open_page(360, 800, wait=False)
    paper.goto(report.as_uri())
    paper.wait_for_selector(".snakesim-chart")
    assert paper.evaluate(width) <= 360


def test_weak_input_gets_a_line_that_names_what_was_typed(open_page):
    page = open_page(360, 800)
    for text, said in (("", "got nothing"), ("abc", "got 'abc'"), ("9", "got 9")):
        page.fill("#players", text)
        page.wait_for_selector("#setup-error:not([hidden])")
        assert page.inner_text("#setup-error") == f"players: expected a whole number from 2 to 8, {said}"
    page.fill("#players", "4")
    page.wait_for_selector("#setup-error", state="hidden")
    page.fill("[data-field=snakes]", "")
    page.wait_for_function("() => document.getElementById('rules-error').textContent.startsWith('snakes: ')")
    assert page.inner_text("#rules-error").endswith("got nothing")
    page.click("#rules-undo")
    # A 200 KB paste into the rules text: said in words, before anything is sent.
    page.eval_on_selector("#toml", "t => { t.value = 'x = 1\\n'.repeat(33000); t.dispatchEvent(new Event('input')); }")
    page.wait_for_function("() => document.getElementById('rules-error').textContent.startsWith('toml: a rules text')")
    assert "at most 20,000 characters, got 198,000" in page.inner_text("#rules-error")
    page.click("#rules-undo")
    # A label the command line cannot take is refused as it is typed, and never reaches Play.
    page.fill("#label", 'a=b, "c"')
    page.wait_for_selector("#label-error:not([hidden])")
    page.press("#label", "Tab")
    assert page.inner_text("#editing-name") == "my rules"
    # Typed at a person's speed, a label is taken once the field is left, never half-typed ("standar").
    page.fill("#label", "")
    page.type("#label", "standard", delay=60)
    assert page.inner_text("#label-error") == "the label: standard is taken"
    page.press("#label", "Tab")
    assert page.inner_text("#editing-name") == "my rules"
    page.fill("#label", "ten coins")
    page.wait_for_selector("#label-error", state="hidden")
    page.press("#label", "Tab")
    assert page.inner_text("#editing-name") == "ten coins"
    assert page.inner_text("#rules-summary").startswith("ten coins plays the standard game as it is")
    # Rule sets up to the server's limit, then Add says why it is off.
    # (each click waits for its rule set to be drawn: asked before, Add could still read as on
    # while the page was about to turn it off, and the click would then wait for it in vain)
    listed = page.locator("#arms li").count()
    while page.is_enabled("#add-variant"):
        page.click("#add-variant")
        listed += 1
        page.wait_for_function(f"() => document.querySelectorAll('#arms li').length >= {listed}")
    assert page.locator("#arms li").count() == 6
    assert "the most this server compares at once" in page.inner_text("#arms-note")


# ---------------------------------------------------------------------------- the figures are the command line's


def test_a_house_rule_from_the_page_equals_the_command_line(open_page, tmp_path):
    """Change start_coins to 10, play 20,000 games, read a finding and a chart value, download the
    rules and play them with `snakesim run`: the same figures. (`make screenshot` takes the README's
    picture here.)"""
    import os

    page = open_page()
    page.fill("[data-field=start_coins]", "10")
    page.fill("#label", "ten coins")
    page.press("#label", "Tab")
    page.fill("#games", "20000")
    page.fill("#seed", "5")
    page.wait_for_function("() => document.getElementById('plan').textContent.includes('standard and ten coins')")
    play(page)
    finding = page.locator("#findings li", has_text="cards drawn on average").first.inner_text()
    page.locator("[data-chart=win-rates] .snakesim-plot").focus()
    page.keyboard.press("ArrowRight")
    tip = page.inner_text("[data-chart=win-rates] .snakesim-tip")
    shot = os.environ.get("SNAKESIM_SCREENSHOT")
    if shot:  # (make screenshot: the README's picture)
        page.locator("#results").scroll_into_view_if_needed()
        page.hover("[data-chart=win-rates] [data-x='first']")
        page.screenshot(path=shot, full_page=False)
    with page.expect_download() as got:
        page.locator("#arms li[data-arm='ten coins']").locator("button", has_text="Download").click()
    rules = tmp_path / got.value.suggested_filename
    got.value.save_as(rules)
    assert rules.name == "ten-coins.toml" and "start_coins = 10" in rules.read_text()
    out = CliRunner().invoke(cli, ["run", "fortune", "-p", "4", "-n", "20000", "--seed", "5", "--rules", str(rules),
                                   "--json"])  # fmt: skip
    assert out.exit_code == 0, out.output
    run = json.loads(out.output)
    shown = re.search(r"ten coins: ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", tip)
    assert shown, tip
    value, low, high = (float(x) for x in shown.groups())
    places = len(shown.group(1).split(".")[1]) if "." in shown.group(1) else 0
    half = 0.5 * 10**-places + 1e-9
    assert abs(100 * run["win_rate"][0] - value) <= half
    assert abs(100 * run["win_ci"][0][0] - low) <= half and abs(100 * run["win_ci"][0][1] - high) <= half
    mean = re.search(r"\u2011>\u00a0([\d.]+) cards drawn", finding)  # (the page's arrow does not break)
    assert mean and abs(run["length"]["mean"] - float(mean.group(1))) <= 0.05 + 1e-9, finding
    # A rule set hidden in the legend leaves the chart; its button says so.
    bars = page.locator("[data-chart=win-rates] .snakesim-bar")
    before = bars.count()
    page.locator("[data-chart=win-rates] .snakesim-legend-item", has_text="standard").click()
    assert bars.count() == before // 2
    assert page.get_attribute("[data-chart=win-rates] .snakesim-legend-item >> nth=0", "aria-pressed") == "false"


# ---------------------------------------------------------------------------- what matters (issue 43)


def test_what_matters_is_typed_kept_and_what_is_not_settled_can_be_settled(open_page):
    """A family's question has an answer only against a difference they would notice: the page
    takes it, keeps it in its link, refuses a wrong one with a line naming it, and offers to play
    the games that settle what a run leaves open."""
    page = open_page()
    page.select_option("#variant-pick", "one-snake")
    page.click("#add-variant")
    page.locator("#arms li[data-arm=one-snake]").wait_for()
    page.fill("#games", "3000")
    page.uncheck("#feel")  # (seats' chances and the length: what the anytime-valid stopping watches)
    page.locator("#matters").press_sequentially("length=abc", delay=30)
    page.click("#run")
    page.wait_for_function("() => !document.getElementById('run-error').hidden")
    assert page.inner_text("#run-error") == "matters: 'length=abc': expected a number above 0, got 'abc'"
    page.fill("#matters", "")
    page.locator("#matters").press_sequentially("length=50%, win_rate=4", delay=30)
    with page.expect_request(lambda r: r.url.endswith("/api/runs") and r.method == "POST") as sent:
        run = started(page)
    assert json.loads(sent.value.post_data)["matters"] == "length=50%, win_rate=4"
    page.wait_for_selector(f"body[data-compare='{run}']", timeout=RUN)
    said = findings(page)
    # A third shorter is less than the half that matters here: too small to notice.
    assert any(f.startswith("one-snake: Too small to notice:") and "the game's length (by less than 50%" in f
               for f in said), said  # fmt: skip
    assert any(f.startswith("one-snake: Not settled by 3,000 games:") for f in said), said
    # The link keeps what matters, and the results.
    page.reload()
    page.wait_for_selector(f"body[data-compare='{run}']", timeout=30_000)
    assert page.input_value("#matters") == "length=50%, win_rate=4"
    # The button plays until the open changes are settled, with the anytime-valid stopping.
    button = page.locator("#settle")
    assert button.is_visible() and button.inner_text().startswith("Play until it is settled (up to ")
    with page.expect_request(lambda r: r.url.endswith("/api/runs") and r.method == "POST") as sent:
        button.focus()
        page.keyboard.press("Enter")
    asked = json.loads(sent.value.post_data)
    assert 0 < asked["precision"] < 0.04 and asked["max_games"] > 3000 and asked["games"] == 3000
    # Its progress is where Play's is: section 3 comes into view.
    page.wait_for_function("() => document.getElementById('run-section').getBoundingClientRect().top < 100")
    page.wait_for_function(f"() => document.body.dataset.compare && document.body.dataset.compare !== '{run}'",
                           timeout=RUN)  # fmt: skip
    command = page.text_content("#command")  # (in the closed details view)
    assert "--precision" in command and "--matters" in command
    assert not page.locator("#results-body").evaluate("b => b.classList.contains('stale')")


def test_a_design_search_typed_on_a_phone_answers_and_an_answer_becomes_a_rule_set(open_page):
    page = open_page(360, 800)
    page.fill("#design-vary", "")
    page.type("#design-vary", "start_coins=8:14\nvariant=standard,rejoin", delay=30)  # (at a person's speed)
    page.type("#design-targets", "length.median=45+-6\nout_share.mean<=0.22", delay=30)
    page.fill("#design-games", "1000")
    page.fill("#design-budget", "400000")
    run = play(page, "#design", "design")
    said = findings(page, "#design-findings")
    assert said and "meet" in said[0]
    answers = page.locator("#design-answers li")
    assert answers.count() >= 1 and page.inner_text("#design-answers-title").startswith("Rule sets that meet every")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # The command line the page prints says what was typed.
    command = page.inner_text("#design-command")
    assert "--vary start_coins=8:14" in command and "--target 'out_share.mean<=0.22'" in command
    # An answer added as a rule set, once: the button says under which name, and the rule set
    # is listed with its rules in the editor under that name.
    button = answers.first.locator("button")
    button.click()
    page.wait_for_function("() => document.querySelector('#design-answers li button').textContent.startsWith('Added')")
    name = re.match(r"Added as (.+) \(section 2\)", button.inner_text()).group(1)
    assert button.is_disabled() and name in page.inner_text("#arms") and page.input_value("#label") == name
    assert "=" not in name and "," not in name  # (a label the command line takes as it is)
    # A reload keeps the typed settings and the shown answer.
    page.reload()
    page.wait_for_selector(f"body[data-design='{run}']", timeout=30_000)
    assert page.input_value("#design-targets") == "length.median=45+-6\nout_share.mean<=0.22"
    assert findings(page, "#design-findings") == said
    # Its instructions fit the game chosen: Rainbow's never show Fortune's options (they did).
    choose(page, "rainbow", 4)
    section = page.inner_text("#design-section") + page.get_attribute("#design-vary", "placeholder")
    assert "start_coins" not in section and "rejoin" not in section and "hand_size" in section


def test_a_design_search_reloaded_mid_run_still_brings_its_answers(open_page):
    page = open_page()
    page.fill("#design-vary", "start_coins=8:20\nsnakes=1:2\nvariant=standard,rejoin")
    page.fill("#design-targets", "length.median=60+-8\nout_share.mean<=0.22")
    run = started(page, "#design")
    page.reload()  # (at once: the search is still playing)
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector(f"body[data-design='{run}']", timeout=RUN)
    assert page.locator("#design-answers li").count() >= 1 and findings(page, "#design-findings")
    assert page.input_value("#design-vary") == "start_coins=8:20\nsnakes=1:2\nvariant=standard,rejoin"


def test_a_design_searchs_chart_is_the_two_targets_plane_on_a_phone(open_page, server, tmp_path):
    """The design chart was bars of one target, eight rule sets at most: a family could not see
    where the targets lay, nor that an answer met both. Now, on a phone's screen, each rule set
    is a point on the two targets with the region that meets both shaded; the answers (or the
    nearest miss) are marked by shape as well as colour, numbered as the page lists them, and the
    keyboard steps through them first. A target no option moves is said over the chart."""
    page = open_page(390, 844)
    page.fill("#design-vary", "start_coins=8:14\nvariant=standard,rejoin")
    page.fill("#design-targets", "length.median=45+-6\nout_share.mean<=0.22")
    page.fill("#design-games", "1000")
    page.fill("#design-budget", "400000")
    run = play(page, "#design", "design")
    chart = page.locator("#design-charts [data-chart=design]")
    result = page.request.get(f"{page.url.split('#')[0]}api/runs/{run}").json()["result"]
    answers = [a["label"] for a in result["answers"]]
    assert result["met"] and answers
    # The region: one shaded rect inside the plot, its dashed edges; every rule set a point.
    region = chart.locator(".snakesim-plot rect.snakesim-region")
    assert region.count() == 1
    assert float(region.get_attribute("width")) > 5 and float(region.get_attribute("height")) > 5
    assert chart.locator(".snakesim-region-edge").count() >= 3  # (out_share.mean's is open below)
    assert chart.locator(".snakesim-point").count() == 14
    marked = chart.locator(".snakesim-answer")
    assert sorted(m.get_attribute("data-label") for m in marked.all()) == sorted(answers)
    assert chart.locator(".snakesim-answer circle.snakesim-mark-circle").count() == len(answers)
    assert (
        chart.locator(".snakesim-other circle.snakesim-mark-ring").count()
        == 14 - len(answers) - chart.locator(".snakesim-trade-off").count()
    )
    # The answers are drawn last (on top), numbered as the page's list numbers them.
    last = page.eval_on_selector_all("#design-charts .snakesim-point", "ps => ps.map(p => p.dataset.label)")
    assert set(last[-len(answers) :]) == set(answers)
    assert page.eval_on_selector("#design-answers", "l => l.tagName") == "OL"
    legend = chart.locator(".snakesim-legend").inner_text()
    assert "meets every target (numbered as listed)" in legend and "shaded: meets both targets" in legend
    # It fits the phone: nothing runs off the side, the plot as wide as its box.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = chart.locator("svg.snakesim-svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 300
    # The keyboard: one Tab stop; the arrows step through the answers first, each read with
    # both values and their intervals in the readout.
    plot = chart.locator(".snakesim-plot")
    plot.focus()
    tip = chart.locator(".snakesim-tip")
    read = []
    for _ in [*answers, "one more"]:
        page.keyboard.press("ArrowRight")
        read.append(tip.inner_text())
    assert tip.is_visible()
    for k, (text, label) in enumerate(zip(read, answers, strict=False), start=1):
        lines = text.split("\n")
        assert lines[0] == f"{k}. {label}" and lines[1] == "meets every target", text
        assert re.fullmatch(r"length\.median: \d+(\.\d+)? \[\d+(\.\d+)?, \d+(\.\d+)?\]", lines[2]), text
        assert re.fullmatch(r"out_share\.mean: 0\.\d+ \[0\.\d+, 0\.\d+\]", lines[3]), text
    assert read[-1].split("\n")[1] != "meets every target"  # (past the answers: the others)
    ring = chart.locator(".snakesim-ring")
    assert ring.is_visible()
    page.keyboard.press("Home")
    assert tip.inner_text().startswith(f"1. {answers[0]}\n")
    page.keyboard.press("Escape")
    assert tip.is_hidden()
    # A tap on a point reads it too.
    first = chart.locator(f".snakesim-point[data-label='{answers[0]}'] .snakesim-mark-circle")
    first.click()
    assert tip.inner_text().startswith(f"1. {answers[0]}\n")
    # Hisss's length under ring_reach is 49 in every rule set: said over the chart; the nearest
    # miss a numbered triangle.
    choose(page, "hisss", 3)
    page.fill("#design-vary", "ring_reach=0:2")
    page.fill("#design-targets", "length.mean<=40\nseat_gap<=2")
    page.fill("#design-games", "1000")
    play(page, "#design", "design")
    said = chart.locator(".snakesim-chart-said").inner_text()
    assert said == "length.mean is 49 in every rule set played (3): no option varied moves it."
    assert chart.locator(".snakesim-chart-summary").inner_text().startswith(said)
    assert chart.locator(".snakesim-nearest polygon.snakesim-mark-triangle").count() == 1
    assert chart.locator(".snakesim-nearest .snakesim-number").text_content() == "1"
    assert chart.locator(".snakesim-plot rect.snakesim-region").count() == 1
    plot.focus()
    page.keyboard.press("ArrowDown")
    lines = tip.inner_text().split("\n")
    assert lines[1:3] == ["the nearest miss", "length.mean: 49 [49, 49]"] and lines[3].startswith("seat_gap: ")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The report download draws the same plane, offline, on the same phone.
    report = tmp_path / "report.html"
    report.write_text(page.request.get(server.url + page.get_attribute("#download-report", "href").lstrip("/")).text())
    paper = open_page(390, 844, wait=False)
    paper.goto(report.as_uri())
    paper.wait_for_selector("[data-chart=design] .snakesim-plot rect.snakesim-region")
    assert paper.locator("[data-chart=design] .snakesim-nearest").count() == 1
    assert paper.evaluate("document.documentElement.scrollWidth") <= 390


def test_back_after_choosing_another_game_brings_the_answer_back(open_page):
    """A family chose another game after an answer: the answer went with no word, and Back left
    the page. The page now says the game left keeps its rule sets and answers, and Back returns
    to it, answer and all."""
    page = open_page()
    page.fill("[data-field=start_coins]", "12")
    page.fill("#games", "2000")
    run = play(page)
    said = findings(page)
    choose(page, "rainbow")
    assert (
        page.inner_text("#game-left")
        == "fortune's rule sets and answers are kept: choose fortune again, or press Back."
    )
    page.go_back()
    page.wait_for_selector(f"body[data-compare='{run}']", timeout=30_000)
    assert page.input_value("#game") == "fortune" and findings(page) == said
    assert page.input_value("[data-field=start_coins]") == "12"


def test_a_table_wider_than_a_phone_says_it_slides(open_page):
    """With three rule sets the details' table ran past a phone's edge, its third column cut off
    with nothing to show the table slides sideways (four here: the rows' names now wrap)."""
    page = open_page(360, 800)
    for variant in ("one-snake", "rejoin", "crosses-to-cup"):
        page.select_option("#variant-pick", variant)
        page.click("#add-variant")
        page.wait_for_selector(f"#arms li[data-arm={variant}]")
    page.fill("#games", "1000")
    play(page)
    assert page.is_hidden("#table-hint")  # (the details are closed)
    page.click("#details summary")
    box = page.locator("#table-box")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # (the case: wider than the phone)
    page.wait_for_selector("#table-hint", state="visible")
    assert "slide it sideways" in page.inner_text("#table-hint")
    # Each row named as the command line's table names it, not by its id (a family read "lead_changes",
    # "out_share", "leads_alone_q1").
    heads = page.eval_on_selector_all("#table-box tbody th", "t => t.map(x => x.textContent)")
    assert "lead changes" in heads and "seat 0 wins" in heads and not any("_" in h for h in heads), heads


# ---------------------------------------------------------------------------- a kind drawn from its description


def test_a_kind_that_describes_itself_gets_its_section_drawn_and_answered(open_page, monkeypatch):
    """A kind of question registered alone (tests/test_described_kind.py's tally) gets a section
    drawn from its description, on a phone's screen: its field typed at a person's speed, a bad
    value refused in the server's one line, Play from the keyboard, the same findings as
    snakesim.ask, its rows, and after a reload the same answer, marked once a field changes."""
    import snakesim
    from snakesim.questions import QUESTIONS
    from tests.test_described_kind import tally_question

    monkeypatch.setitem(QUESTIONS, "tally", tally_question())
    page = open_page(width=390, height=844)
    assert page.inner_text("#tally-section h2") == "How often one seat wins"
    choose(page, "fortune", 3)
    page.fill("#tally-games", "")
    page.type("#tally-games", "400", delay=60)
    page.fill("#tally-field-seat", "")
    page.type("#tally-field-seat", "3", delay=60)
    page.click("#tally-play")
    page.wait_for_selector("#tally-error:not([hidden])")
    assert page.inner_text("#tally-error") == "seat: expected an integer from 0 to 2, got 3"
    page.fill("#tally-field-seat", "")
    page.type("#tally-field-seat", "1", delay=60)
    page.focus("#tally-play")
    with page.expect_response(lambda r: r.url.endswith("/api/runs") and r.request.method == "POST") as answer:
        page.keyboard.press("Enter")
    run = answer.value.json()["id"]
    page.wait_for_selector(f"body[data-tally='{run}']", timeout=RUN)
    asked = snakesim.ask("tally", "fortune", 3, games=400, seed=1, seat=1)
    assert findings(page, "#tally-results") == asked.findings
    cells = page.locator("#tally-results td").all_inner_texts()
    assert [str(w) for w in asked.wins] == [cells[k] for k in range(1, len(cells), 4)]  # (label, value, unit, games)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"
    page.reload()
    page.wait_for_selector(f"body[data-tally='{run}']", timeout=30_000)
    assert findings(page, "#tally-results") == asked.findings and page.input_value("#tally-field-seat") == "1"
    page.fill("#tally-field-seat", "")
    page.type("#tally-field-seat", "0", delay=60)
    page.wait_for_selector("#tally-stale:not([hidden])")
    assert "seat changed since" in page.inner_text("#tally-stale")


# ---------------------------------------------------------------------------- a Play pressed too soon


def test_a_play_pressed_before_the_page_is_ready_is_played_not_lost(open_page, monkeypatch):
    """Play was on before the page could play: pressed while the rule sets loaded (here each check
    of a rule set takes 0.5 s), it was lost. It now waits, disabled, and says so; pressed at once
    after choosing another game, it plays that game's rule sets."""
    import time

    from snakesim.workbench import forms

    slow = forms.rules_view

    def slow_view(rules):
        time.sleep(0.5)
        return slow(rules)

    monkeypatch.setattr(forms, "rules_view", slow_view)
    page = open_page(wait=False)
    page.wait_for_selector("#run")
    assert page.get_attribute("#run", "disabled") is not None and page.get_attribute("body", "data-ready") is None
    assert page.inner_text("#status") == "Loading the games and their rules..."
    run = started(page)  # (the click waits until Play is on)
    page.wait_for_selector(f"body[data-compare='{run}']", timeout=RUN)
    page.fill("#games", "2000")
    page.select_option("#game", "hisss")
    run = started(page)  # (pressed while Hisss's rule sets load: played once they are)
    page.wait_for_selector(f"body[data-compare='{run}']", timeout=RUN)
    assert page.request.get(f"{page.url.split('#')[0]}api/runs/{run}").json()["request"]["game"] == "hisss"
    said = findings(page)
    arrows = [f for f in said if "\u2011>" in f]
    assert not any(" -> " in f for f in said) and all("\u00a0\u2011>\u00a0" in f for f in arrows)


def test_no_button_without_a_name_among_the_results(open_page):
    """A blank, nameless button sat first among the results' tab stops (Fortune and Hisss): the
    settle row, hidden, was shown by its display rule although nothing was left to settle."""
    page = open_page()
    page.fill("#games", "2000")
    play(page)  # (standard alone: nothing to settle)
    assert page.locator("#settle-box").is_hidden()
    nameless = page.evaluate(
        "() => [...document.querySelectorAll('#results button')].filter(b => b.offsetParent !== null"
        " && !(b.innerText.trim() || b.getAttribute('aria-label') || b.title)).map(b => b.id || b.className)"
    )
    assert nameless == []


# A stand-in for the background process that compiles the engines: Hisss compiles while Fortune
# waits its turn, until the test leaves a file named "release" in the folder; then both are ready.
ENGINES = stand_in("hisss", then=("hisss", "fortune"))


def test_the_page_says_which_games_are_getting_ready_then_says_no_more(open_page, tmp_path):
    from snakesim.games.warm import Background
    from snakesim.workbench.serve import Workbench

    wb = Workbench().start()
    wb.jobs.warming = Background(["fortune", "hisss"], tmp_path, command=ENGINES)
    try:
        page = open_page(width=390, height=844, at=wb)  # (a phone's screen)
        page.wait_for_selector("#engines:not([hidden])", timeout=10_000)
        said = page.inner_text("#engines")
        assert said.startswith("Getting the games ready for this computer, once (they are kept after): Fortune "
                               "waits its turn and Hisss is being compiled.")  # fmt: skip
        assert said.endswith("You can play now: a game not ready yet starts as soon as it is.")
        assert page.is_enabled("#run")  # (the page plays meanwhile)
        (tmp_path / "release").touch()
        page.wait_for_selector("#engines[hidden]", state="attached", timeout=10_000)
        assert page.inner_text("#engines") == ""
    finally:
        wb.stop()
