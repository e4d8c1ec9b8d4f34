"""The documentation site as a reader opens it: built by ``make docs`` into ``site/`` and
opened from the file system in a real headless browser, every request that is not a file of
the site blocked and counted. Marked ``browser``: ``make test-browser`` builds the site first
(CI runs ``make docs`` and then it)."""

import re
from pathlib import Path

import pytest

from tests.test_browser import browser, chromium  # noqa: F401  (the module's headless chromium)

pytestmark = pytest.mark.browser
SITE = Path(__file__).parents[1] / "site"


@pytest.fixture(scope="module")
def site():
    if not (SITE / "index.html").is_file():
        pytest.fail("no site/index.html: make docs builds the site (make test-browser runs it first)")
    return SITE


def _open(browser, url, outside):  # noqa: F811
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    page.on("pageerror", lambda e: outside.append(f"script error: {e}"))

    def route(r):
        if r.request.url.startswith(("file://", "data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.goto(url)
    page.wait_for_load_state("load")
    return page


def test_the_search_box_finds_the_handicap_from_the_file_system(browser, site):  # noqa: F811
    outside = []
    page = _open(browser, (site / "index.html").as_uri(), outside)
    page.keyboard.press("/")  # (the site's key for its search box)
    page.keyboard.type("handicap", delay=40)
    page.wait_for_selector(".md-search-result__item", timeout=10_000)
    titles = " ".join(page.locator(".md-search-result__item").all_inner_texts())
    assert "balance" in titles.lower() and outside == []
    page.close()


def test_every_page_opens_and_every_link_within_the_site_resolves(browser, site):  # noqa: F811
    outside, pages = [], sorted(site.rglob("*.html"))
    assert {"index.html", "tutorial.html", "design.html"} <= {p.name for p in pages}
    for path in pages:
        if path.name == "404.html":
            continue
        page = _open(browser, path.as_uri(), outside)
        hrefs = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
        for href in hrefs:
            if href.startswith("file://"):
                target = Path(re.sub(r"[#?].*$", "", href.removeprefix("file://")))
                assert target.exists(), f"{path.relative_to(site)} links to a missing {target}"
        page.close()
    assert outside == []


def test_the_reference_is_the_code_s(site):
    """The generated pages hold what the code holds: every command's --help, every figure, every
    study key and each game's columns."""
    from snakesim.cli import cli
    from snakesim.core.figures import FIGURES
    from snakesim.report.study import DESIGN_TYPES

    commands = (site / "reference" / "commands.html").read_text()
    assert all(f"snakesim {name}" in commands for name in cli.commands)
    figures = (site / "reference" / "figures.html").read_text()
    assert all(f"<code>{f.id}</code>" in figures for f in FIGURES)
    keys = (site / "reference" / "study-files.html").read_text()
    assert all(f"<code>{k}</code>" in keys for k in DESIGN_TYPES)
    assert "<code>out_at_k</code>" in (site / "reference" / "columns.html").read_text()
    assert "snakesim.design" in (site / "reference" / "api.html").read_text()
