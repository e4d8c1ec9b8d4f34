"""A study's report.html as a person sees it: opened in a real headless browser (Debian's
chromium, driven by Playwright), every request that is not the file itself blocked and counted.

These tests are marked ``browser`` and run with ``make test-browser`` (CI runs it), which
installs Playwright and chromium first and runs them in one process, in order: the workbench's
tests share one page, each going on from the state the one before left (spread over pytest-xdist
workers, a test could find a fresh page instead). There, a missing browser is a failure, not a skip
(``SNAKESIM_BROWSER_REQUIRED=1``); elsewhere the tests skip with the command that runs them.
"""

import os
import re
import shutil

import pytest

from snakesim.report.study import charted, run_study
from tests.test_study import FORTUNE_CHARTS, TINY

pytestmark = pytest.mark.browser


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        path = None
    if path is None:
        if os.environ.get("SNAKESIM_BROWSER_REQUIRED"):
            pytest.fail("no chromium or no Playwright: make test-browser installs them")
        pytest.skip("needs chromium and Playwright: run make test-browser")
    return path


@pytest.fixture(scope="module")
def browser():
    """One headless chromium for the module (Playwright's sync API runs one at a time)."""
    from playwright.sync_api import sync_playwright

    executable = chromium()
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def page_of_report(tmp_path_factory, browser):
    folder = tmp_path_factory.mktemp("browser")
    (folder / "tiny.toml").write_text(TINY.replace('title = "Tiny study"', f'title = "{"A long title " * 12}"'))
    report = run_study(folder / "tiny.toml", folder / "out", scale=0.5)
    outside = []
    page = browser.new_page(viewport={"width": 1000, "height": 800})

    def route(r):
        if r.request.url.startswith("file://") or r.request.url.startswith("data:"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.goto((report / "report.html").as_uri())
    page.wait_for_load_state("load")
    yield page, report, outside
    page.close()


def test_every_figure_loads_and_every_chart_is_drawn(page_of_report):
    page, report, _ = page_of_report
    sizes = page.eval_on_selector_all("img", "imgs => imgs.map(i => [i.alt, i.complete, i.naturalWidth])")
    pictures = sorted(p.name for p in report.glob("*.png") if not charted(p.name, FORTUNE_CHARTS))
    assert sorted(alt for alt, _, _ in sizes) == pictures
    assert all(done and width > 100 for _, done, width in sizes), sizes  # (a broken image is 0 wide)
    # The comparisons' charts, drawn in the page: one per chart in its data, each with marks.
    data = page.eval_on_selector_all(".snakesim-charts script", "s => s.map(x => JSON.parse(x.textContent).length)")
    drawn = page.locator(".snakesim-chart")
    assert data and drawn.count() == sum(data)
    for k in range(drawn.count()):
        assert drawn.nth(k).locator(".snakesim-bar, .snakesim-line").count() > 0
    page.hover("[data-chart=win-rates] [data-x='seat 0'] >> nth=0")
    assert "[" in page.locator(".snakesim-tip >> visible=true").inner_text()


def test_no_raw_markdown_shows_and_long_titles_wrap(page_of_report):
    page, _, _ = page_of_report
    text = page.inner_text("body")
    assert "**" not in text and "`" not in text and "](" not in text and "|---" not in text
    assert page.eval_on_selector("strong", "b => b.textContent") == "Question."
    assert page.locator("table").count() >= 5 and page.locator("li").count() >= 5
    # The long title wraps inside the page instead of running off it.
    width, inner = page.eval_on_selector("h1", "h => [h.scrollWidth, h.clientWidth]")
    assert width <= inner and page.eval_on_selector("h1", "h => h.getBoundingClientRect().height") > 40


def test_nothing_is_requested_from_outside(page_of_report):
    _, _, outside = page_of_report
    assert outside == []


# ---------------------------------------------------------------------------- the workbench


@pytest.fixture(scope="module")
def workbench_page(tmp_path_factory, browser):
    """The workbench's page in the browser, every request not to its server blocked."""
    from snakesim.workbench.serve import Workbench

    server = Workbench().start()
    own = server.url.rstrip("/")
    outside = []
    # (the page's Content-Security-Policy enforced: a script or style it forbids is an error here)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def console(message):  # (a 400 is the server's answer to a bad edit, shown on the page)
        if message.type == "error" and "status of 400" not in message.text:
            errors.append(message.text)

    page.on("console", console)

    def route(r):
        if r.request.url.startswith(own + "/") or r.request.url.startswith("blob:"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.goto(server.url)
    page.wait_for_selector("[data-field=start_coins]")
    yield page, server, outside, errors, tmp_path_factory.mktemp("downloads")
    context.close()
    server.stop()


def test_a_house_rule_from_the_page_equals_the_command_line(workbench_page):
    """Change start_coins to 10, add it as an arm, play 20,000 games, read a finding and a
    chart value, download the rules and play them with `snakesim run`: the same figures."""
    import json

    from click.testing import CliRunner
    from playwright.sync_api import expect

    from snakesim.cli import cli

    page, _, outside, errors, downloads = workbench_page
    page.fill("[data-field=start_coins]", "10")
    expect(page.locator("#toml")).to_have_value(re.compile(r"^start_coins = 10\n"))
    assert page.input_value("[data-field=start_coins]") == "10"
    page.fill("#label", "ten coins")
    page.click("#add-arm")
    assert page.locator("#arms tbody tr").count() == 2
    page.fill("#games", "20000")
    page.fill("#seed", "5")
    page.dispatch_event("#seed", "change")
    page.click("#run")
    page.wait_for_selector("#results:not([hidden])", timeout=120_000)
    finding = page.locator("#findings li", has_text="shorter").first.inner_text()
    page.hover("[data-chart=win-rates] [data-x='seat 0']")
    tip = page.inner_text("[data-chart=win-rates] .snakesim-tip")
    page.screenshot(path=str(downloads / "workbench.png"), full_page=False)
    shot = os.environ.get("SNAKESIM_SCREENSHOT")
    if shot:  # (make screenshot: the README's picture)
        page.locator("#results").scroll_into_view_if_needed()
        page.hover("[data-chart=win-rates] [data-x='seat 0']")
        page.screenshot(path=shot, full_page=False)
    with page.expect_download() as got:
        page.locator("#arms tbody tr", has_text="ten coins").locator("button", has_text="TOML").click()
    rules = downloads / got.value.suggested_filename
    got.value.save_as(rules)
    assert rules.name == "ten-coins.toml" and "start_coins = 10" in rules.read_text()
    out = CliRunner().invoke(cli, ["run", "fortune", "-p", "4", "-n", "20000", "--seed", "5", "--rules", str(rules),
                                   "--json"])  # fmt: skip
    assert out.exit_code == 0, out.output
    run = json.loads(out.output)
    # The chart's value for seat 0 under ten coins, with its interval, is the command line's.
    shown = re.search(r"ten coins: ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", tip)
    assert shown, tip
    value, low, high = (float(x) for x in shown.groups())
    places = len(shown.group(1).split(".")[1]) if "." in shown.group(1) else 0
    half = 0.5 * 10**-places + 1e-9
    assert abs(100 * run["win_rate"][0] - value) <= half
    assert abs(100 * run["win_ci"][0][0] - low) <= half and abs(100 * run["win_ci"][0][1] - high) <= half
    # The finding's mean length under ten coins is the command line's.
    mean = re.search(r"-> ([\d.]+) cards drawn", finding)
    assert mean and abs(run["length"]["mean"] - float(mean.group(1))) <= 0.05 + 1e-9, finding
    assert outside == [] and errors == []


def test_the_address_reopens_the_comparison(workbench_page):
    from playwright.sync_api import expect

    page, server, outside, errors, _ = workbench_page
    address = page.url
    assert "#" in address
    page.goto(server.url)  # (a fresh page, then the link pasted into its address bar)
    expect(page.locator("#arms tbody tr")).to_have_count(1)
    with page.expect_event("load"):  # (only the hash changes: the page reloads itself, after goto returns)
        page.goto(address)
    expect(page.locator("#arms tbody tr")).to_have_count(2)
    assert page.input_value("#games") == "20000" and page.input_value("#seed") == "5"
    assert page.locator("#arms tbody tr", has_text="ten coins").locator(".arm-rules").inner_text() == "start_coins=10"
    assert outside == [] and errors == []


def test_a_bad_edit_shows_its_one_line_and_a_hidden_arm_leaves_the_chart(workbench_page):
    from playwright.sync_api import expect

    page, _, _, errors, _ = workbench_page
    page.fill("[data-field=snakes]", "-3")
    page.wait_for_selector("#rules-error:not([hidden])")
    assert page.inner_text("#rules-error").startswith("snakes: expected an integer from 0 to")
    page.fill("[data-field=snakes]", "2")
    page.wait_for_selector("#rules-error", state="hidden")
    if page.locator("#results").is_hidden():
        page.click("#run")
        page.wait_for_selector("#results:not([hidden])", timeout=120_000)
    bars = "[data-chart=win-rates] .snakesim-bar"
    expect(page.locator(bars)).not_to_have_count(0)
    before = page.locator(bars).count()
    page.locator("[data-chart=win-rates] .snakesim-legend-item", has_text="standard").click()
    expect(page.locator(bars)).to_have_count(before // 2)
    assert errors == []


def test_the_page_finds_a_fair_handicap(workbench_page):
    page, _, outside, errors, _ = workbench_page
    page.select_option("#balance-arm", "standard")
    page.select_option("#handicap", "start_coins")
    page.fill("#balance-games", "2000")
    page.click("#balance")
    page.wait_for_selector("#balance-results:not([hidden])", timeout=120_000)
    first = page.locator("#balance-findings li").first.inner_text()
    assert first.startswith(("The search recommends start_coins = [", "Keep start_coins as it is"))
    assert "fresh games" in page.inner_text("#balance-findings")
    assert page.locator("[data-chart=balance] .snakesim-bar").count() == 2 * 4  # before and after, 4 seats
    assert "games played in" in page.inner_text("#balance-status")
    assert outside == [] and errors == []
