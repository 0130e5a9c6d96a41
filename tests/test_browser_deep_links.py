"""A link to a heading lands on it, on the long battle pages whose cells off screen are not drawn.

Cells off screen count as placeholders until drawn (content-visibility: auto, book/stylesheets/book.css),
so a deep link or a table-of-contents click used to land thousands of px away from its heading
(book/javascripts/deep-links.js). Each system's battle page is opened with a link to a heading in
the middle and to the last one, and the same headings are clicked in the table of contents from the
top of the page: each time the heading ends in the top part of the window.

Uses the site, server and Chromium of tests/test_browser.py; Python is kept from starting (the
battle widget, at the end of the page, is below every heading).
"""

from __future__ import annotations

import json

import pytest

from tests.test_browser import ROOT, browser, built_site, site_url  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.browser
WINDOW = {"width": 1280, "height": 800}  # the table of contents shows beside the page from 1220 px
BATTLE_PAGES = [path.relative_to(ROOT / "book").with_suffix("").as_posix() + "/"
                for path in sorted((ROOT / "book").glob("*/[0-9]*-first-battle.ipynb"))]


def _page(browser, url):  # noqa: F811
    page = browser.new_page(viewport=WINDOW)
    page.route("**/vendor/pyodide/**", lambda route: route.abort())
    page.goto(url, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=30_000)
    return page


def _settled_top(page, heading_id: str) -> float:
    """Where the heading is in the window once the page has drawn what it draws after a scroll."""
    page.wait_for_timeout(500)
    page.evaluate("() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))")
    return page.evaluate(f"document.getElementById({json.dumps(heading_id)}).getBoundingClientRect().top")


def _in_view(top: float) -> bool:
    """In the window's top quarter, below nothing but the theme's header: where a link to it lands."""
    return 0 <= top <= WINDOW["height"] / 4


@pytest.mark.parametrize("page_path", BATTLE_PAGES)
def test_a_deep_link_or_a_contents_click_lands_on_its_heading(browser, site_url, page_path):  # noqa: F811
    page = _page(browser, site_url + page_path)
    headings = page.evaluate("[...document.querySelectorAll('.md-content h2[id]')].map((h) => h.id)")
    assert len(headings) >= 4, f"{page_path} has too few sections to test a link far down"
    height = page.evaluate("document.scrollingElement.scrollHeight")
    targets = [headings[len(headings) // 2], headings[-1]]
    page.close()
    for heading in targets:
        page = _page(browser, f"{site_url}{page_path}#{heading}")
        top = _settled_top(page, heading)
        assert _in_view(top), f"{page_path}#{heading} lands with the heading at {top:.0f} px (page {height} px)"

        page.evaluate("window.scrollTo(0, 0)")
        page.locator(f'.md-sidebar--secondary a[href="#{heading}"]').first.click()
        top = _settled_top(page, heading)
        assert _in_view(top), f"the contents' {heading} on {page_path} puts the heading at {top:.0f} px"
        page.close()
