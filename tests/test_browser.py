"""A study's report.html as a person sees it: opened in a real headless browser (Debian's
chromium, driven by Playwright), every request that is not the file itself blocked and counted.

These tests are marked ``browser`` and run with ``make test-browser`` (CI runs it), which
installs Playwright and chromium first and runs them in one process. There, a missing browser is a
failure, not a skip (``SNAKESIM_BROWSER_REQUIRED=1``); elsewhere the tests skip with the command
that runs them. The workbench's page: tests/test_workbench_page.py.
"""

import os
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
    page.hover("[data-chart=win-rates] [data-x='first'] >> nth=0")
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
