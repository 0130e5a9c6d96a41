"""On a connection that asks to save data or is slow, Python loads only when the reader first uses a
calculator, and the theme's search index only when the reader goes to search (issue 34, item 6).

The page's <head> reads ``navigator.connection`` (tools/mkdocs_hooks.py, ``hold_search_index``);
live-calculators.js starts Python at the first touch of a calculator. Each page here runs its Python
in a dedicated worker, whose requests Playwright sees (tests/test_browser.py).

Uses the site, server and Chromium of tests/test_browser.py.
"""

from __future__ import annotations

import json

import pytest

from tests.test_browser import (  # noqa: F401  (fixtures shared with the browser tests)
    browser,
    built_site,
    site_url,
    with_dedicated_python,
)

pytestmark = pytest.mark.browser
SAVE_DATA = "Object.defineProperty(Navigator.prototype, 'connection', { get: () => ({ saveData: true, effectiveType: '4g', downlink: 10 }) });"
ON_TOUCH = "Live once you use it: this connection saves data or is slow"
#: what only a started Python fetches, and the theme's search index
PYTHON_FILES = ("/vendor/pyodide/", "/vendor/wheels/", "/javascripts/live-python-worker.js")
SEARCH_INDEX = "/search/search_index.json"


def _saving_page(browser, url):  # noqa: F811
    page = with_dedicated_python(browser.new_page())
    page.add_init_script(SAVE_DATA)
    asked, problems = [], []
    page.on("request", lambda r: asked.append(r.url))
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(url, wait_until="load")
    return page, asked, problems


def _fetched(asked: list[str], parts) -> list[str]:
    return [url for url in asked if any(part in url for part in parts)]


def test_on_a_connection_that_saves_data_python_waits_for_the_first_use_of_a_calculator(browser, site_url):  # noqa: F811
    page, asked, problems = _saving_page(browser, site_url + "wis6/07-calculators/")
    page.wait_for_function("window.rulesLibLive.phases.rendered > 0", timeout=30_000)  # every stored widget drawn
    page.wait_for_timeout(2_000)
    assert page.evaluate("window.rulesLibSavingData") == "save-data"
    assert page.evaluate("window.rulesLibLive.status") == "starting"
    assert _fetched(asked, PYTHON_FILES + (SEARCH_INDEX,)) == [] and page.workers == []
    status = page.locator(".rules-lib-live-status").first
    assert status.inner_text().startswith(ON_TOUCH)
    # the stored results stay readable meanwhile
    assert "ability 20" in page.locator(".widget-subarea").first.inner_text()

    field = page.locator(".widget-subarea").first.locator("input[type=number]").first  # the ability
    field.click()  # the first touch starts Python; what is typed meanwhile is kept and answered
    field.fill("33")
    field.press("Tab")  # a number is taken when the field loses focus, as ipywidgets does
    if page.evaluate("window.rulesLibLive.status") == "starting":
        assert status.inner_text() == "Your change is kept; it is answered when the calculator is live."
    page.wait_for_function("window.rulesLibLive.status === 'live'", timeout=90_000)
    page.wait_for_function("window.rulesLibLive.states(0)[2].value.includes('ability 33')", timeout=30_000)
    assert _fetched(asked, PYTHON_FILES) != []
    assert status.inner_text().startswith("Live: computed in your browser")
    assert _fetched(asked, (SEARCH_INDEX,)) == []  # search waits for the reader, not for Python
    assert problems == []
    page.close()


def test_a_rules_page_on_a_saving_connection_fetches_the_search_index_only_when_the_reader_searches(
        browser, site_url):  # noqa: F811
    page, asked, problems = _saving_page(browser, site_url + "wis6/03-attacks/")
    page.wait_for_timeout(3_000)
    assert _fetched(asked, PYTHON_FILES + (SEARCH_INDEX,)) == []
    page.keyboard.press("s")  # the reader goes to search: the index is fetched, and it answers
    page.keyboard.type("evasion")
    page.locator(".md-search-result__item").first.wait_for(timeout=30_000)
    assert len(_fetched(asked, (SEARCH_INDEX,))) == 1
    assert problems == []
    page.close()


@pytest.mark.parametrize(("connection", "saving"), [
    ({"saveData": False, "effectiveType": "3g", "downlink": 10}, "slow"),
    ({"saveData": False, "effectiveType": "slow-2g", "downlink": 0.05}, "slow"),
    # as a browser with no estimate yet reports any connection (headless Chromium here)
    ({"saveData": False, "effectiveType": "4g", "downlink": 1.6}, None),
])
def test_a_slow_connection_saves_data_and_a_fast_one_starts_python_at_once(browser, site_url, connection, saving):  # noqa: F811
    # as navigator.connection reports it
    page = with_dedicated_python(browser.new_page())
    page.add_init_script(f"Object.defineProperty(Navigator.prototype, 'connection', {{ get: () => ({json.dumps(connection)}) }});")
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(site_url + "gundam-sentinel/07-calculators/", wait_until="load")
    assert page.evaluate("window.rulesLibSavingData") == saving
    if saving:
        page.wait_for_timeout(2_000)
        assert _fetched(asked, PYTHON_FILES) == []
    else:
        page.wait_for_function("window.rulesLibLive.status === 'live'", timeout=90_000)
        assert _fetched(asked, PYTHON_FILES) != []
    page.close()
