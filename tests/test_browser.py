"""The published book in a real browser: live calculators recompute with rules_lib in Pyodide.

Builds the site (or uses $RULES_LIB_SITE_DIR, which `make test` builds before these tests), serves
it on 127.0.0.1 and drives the system's headless Chromium. Missing Chromium is a failure, not a
skip: `make test` installs it.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import sys
import threading
from pathlib import Path

import pytest

from rules_lib.dice import odds

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


def _chromium() -> str:
    path = os.environ.get("RULES_LIB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    assert path, "Chromium is needed for the browser tests: `make test` installs the Debian package chromium"
    return path


@pytest.fixture(scope="session")
def built_site(site_dir) -> Path:
    """The built site (tests/conftest.py: $RULES_LIB_SITE_DIR, waited for, else built here)."""
    return site_dir


@pytest.fixture(scope="module")
def site_url(built_site):
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class BypassingThePolicy:
    """The browser, whose contexts and pages bypass the pages' security policy unless asked not to
    (``bypass_csp=False``). Playwright runs a string predicate (``wait_for_function("…")``) as a
    script of the page, which a policy without ``'unsafe-eval'`` refuses; tests/hostile/test_site_policy.py
    drives the pages under their policy."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        return self._browser.new_context(**{"bypass_csp": True, **options})

    def new_page(self, **options):
        return self._browser.new_page(**{"bypass_csp": True, **options})

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=_chromium(), args=CHROMIUM_FLAGS)
        yield BypassingThePolicy(chromium)
        chromium.close()


# Playwright neither routes nor reports a shared worker's requests (microsoft/playwright#33917 and
# #36690): a test that forges or watches the Python worker's downloads runs it as a dedicated worker,
# the same script, as a page does in a browser without shared workers.
WITHOUT_SHARED_WORKERS = "delete window.SharedWorker;"


def with_dedicated_python(target):
    """The page or context, its pages' Python in a dedicated worker (whose requests Playwright sees)."""
    target.add_init_script(WITHOUT_SHARED_WORKERS)
    return target


def record_requests_leaving_the_site(page, outside: list[str]) -> None:
    """Append to ``outside`` every request a page makes beyond the local site. blob: URLs of the
    site's own origin are not downloads: the worker imports the checked runtime from them."""
    page.on("request", lambda r: outside.append(r.url)
            if not r.url.startswith(("http://127.0.0.1", "blob:http://127.0.0.1")) else None)


def open_page(browser, url):
    page = browser.new_page()
    problems, outside = [], []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    record_requests_leaving_the_site(page, outside)
    page.goto(url, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=90_000)
    return page, problems, outside


def shown_text(locator) -> str:
    """The text a reader sees once scrolled to it. A cell off screen is not drawn until the reader
    scrolls near it (content-visibility: auto, book/stylesheets/book.css), and its innerText is empty."""
    locator.scroll_into_view_if_needed()
    # drawn at the next frame the cell is near the screen
    locator.page.evaluate("() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))")
    return locator.inner_text()


def draw_every_cell(page) -> None:
    """Every cell drawn, as for a reader who has scrolled through the page: innerText leaves out the
    cells not drawn."""
    page.add_style_tag(content=".jupyter-wrapper .jp-Cell { content-visibility: visible !important; }")


def test_dice_odds_calculator_recomputes_in_the_browser(browser, site_url):
    page, problems, outside = open_page(browser, site_url + "dice/01-dice-and-odds/")
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    assert shown_text(page.locator(".rules-lib-live-status").first).startswith("Live")

    expression = page.locator(".widget-text input").first
    expression.fill("3D6>=12")
    expression.press("Enter")
    expected = odds("3D6>=12").success
    result = page.locator(".widget-html").first
    result.filter(has_text=f"success {expected}").wait_for(timeout=10_000)
    assert f"success {expected} (37.50%)" in shown_text(result)

    assert problems == []
    assert outside == []
    page.close()


def test_dice_in_the_rule_text_roll_on_a_click(browser, site_url):
    page, problems, outside = open_page(browser, site_url + "dice/01-dice-and-odds/")
    dice = page.locator("code.rules-lib-dice", has_text="2D6")
    assert dice.count() >= 1
    dice.first.click()
    shown = page.locator(".rules-lib-roll").first
    page.wait_for_function("el => el.dataset.total", arg=shown.element_handle(), timeout=60_000)
    total = int(shown.get_attribute("data-total"))
    assert total in odds("2D6").distribution.support
    assert shown_text(shown).strip().startswith("→ 2D6")
    assert problems == [] and outside == []
    page.close()


def _calculator_pages() -> list[str]:
    pages = sorted((ROOT / "book").glob("*/[0-9]*-calculators.ipynb")) + [ROOT / "book/dice/01-dice-and-odds.ipynb"]
    pages += sorted((ROOT / "book").glob("*/[0-9]*-first-battle.ipynb"))
    return [path.relative_to(ROOT / "book").with_suffix("").as_posix() + "/" for path in pages]


def _changed_input(states):
    """A number input of a calculator (else a text input) with a new value inside its bounds."""
    candidates = [
        (position, state) for position, state in enumerate(states)
        if not state["disabled"] and state["_model_name"] not in ("HTMLModel", "LabelModel")
        and not isinstance(state["value"], bool)
    ]
    for position, state in candidates:
        value = state["value"]
        if isinstance(value, int):
            step = state["step"] if isinstance(state["step"], int) and state["step"] > 0 else 1
            return position, value + step if state["max"] is None or value + step <= state["max"] else value - step
    for position, state in candidates:
        if isinstance(state["value"], str) and state["_model_name"] == "TextModel":
            return position, state["value"] + "+1"
    return None


@pytest.mark.parametrize("page_path", _calculator_pages())
def test_every_calculator_recomputes_as_rules_lib_does(browser, site_url, page_path):
    """Change one input of each calculator in the browser; every shown value must equal CPython's."""
    import json

    from rules_lib.browser import LiveCalculator

    page, problems, outside = open_page(browser, site_url + page_path)
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    classes = page.evaluate("window.rulesLibLive.classes")
    assert classes, f"no live calculator on {page_path}"
    for index, dotted in enumerate(classes):
        before = page.evaluate(f"window.rulesLibLive.states({index})")
        change = _changed_input(before)
        assert change, f"{dotted} has no number or text input to change"
        position, new = change
        page.evaluate(f"window.rulesLibLive.setInput({index}, {position}, {{value: {json.dumps(new)}}})")
        page.wait_for_timeout(200)
        after = page.evaluate(f"window.rulesLibLive.states({index})")

        python = LiveCalculator(dotted)
        python.load(json.dumps([{k: s[k] for k in ("value", "index") if s[k] is not None} for s in before]))
        python.set_input(position, json.dumps({"value": new}))
        expected = [w.get_state().get("value") for w in python.widgets]
        shown = [s["value"] for s in after]
        assert shown == expected, f"{dotted} on {page_path} shows something other than rules_lib computes"

        buttons = [i for i, s in enumerate(after) if s["_model_name"] == "ButtonModel" and not s["disabled"]]
        if buttons:  # a button press, too, must give what the same press gives in CPython
            page.evaluate(f"window.rulesLibLive.click({index}, {buttons[0]})")
            page.wait_for_timeout(300)
            pressed = page.evaluate(f"window.rulesLibLive.states({index})")
            python.click(buttons[0], json.dumps({"event": "click"}))
            assert [s["value"] for s in pressed] == [w.get_state().get("value") for w in python.widgets], (
                f"{dotted} on {page_path}: a button press differs from rules_lib's")
    assert problems == [] and outside == []
    page.close()


def test_gundam_sentinel_to_hit_recomputes_when_evasion_changes(browser, site_url):
    """The page's to-hit calculator is +14 (the weapon) against evasion 54; the reader types 62."""
    import json

    from rules_lib.browser import LiveCalculator
    from rules_lib.dice import percent
    from rules_lib.gundam_sentinel import hit_odds

    page, problems, outside = open_page(browser, site_url + "gundam-sentinel/07-calculators/")
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    calculator = page.locator(".widget-vbox").filter(has=page.locator("text=evasion value (回避値)")).first
    # the result is the HTML before the worked-example line under it
    shown = calculator.locator(".widget-html")
    result = shown.nth(shown.count() - 2)
    before = shown_text(result)
    assert f"hit: {hit_odds(14, 54).hit} " in before
    evasion = calculator.locator(".widget-text", has_text="evasion value").locator("input")
    evasion.fill("62")
    evasion.press("Enter")
    page.wait_for_function("([el, old]) => el.innerText !== old", arg=[result.element_handle(), before], timeout=10_000)
    expected = hit_odds(14, 62).hit
    assert f"hit: {expected} ({percent(expected)})" in shown_text(result)

    # and every value the calculator shows is what CPython's rules_lib shows for the same inputs
    index = page.evaluate("window.rulesLibLive.classes.indexOf('rules_lib.widgets.gundam_sentinel:ToHitCalculator')")
    states = page.evaluate(f"window.rulesLibLive.states({index})")
    python = LiveCalculator("rules_lib.widgets.gundam_sentinel:ToHitCalculator")
    python.load(json.dumps([{k: s[k] for k in ("value", "index") if s[k] is not None} for s in states]))
    assert [w.get_state().get("value") for w in python.widgets] == [s["value"] for s in states]
    assert problems == [] and outside == []
    page.close()


FIRST_CALCULATOR_PLACED = """
  new MutationObserver((changes, observer) => {
    if (!document.querySelector(".rules-lib-live-status + .widget-subarea")) return;
    window.__firstPlaced = { readyState: document.readyState,
                             bundle: !!document.querySelector("script[src*='assets/javascripts/bundle']") };
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
"""


def test_the_first_calculator_is_placed_and_paired_while_the_page_is_still_parsed(browser, site_url):
    """The build puts the first widget's state and the scripts before it (widgets_as_parsed): the
    first calculator gets its place and status line, and asks Python to pair it, as soon as the parser
    reaches it, before the theme's bundle; the rest of the state is read once the page is parsed."""
    page = browser.new_page()
    page.add_init_script(FIRST_CALCULATOR_PLACED)
    page.goto(site_url + "gundam-sentinel/07-calculators/", wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=90_000)
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    assert page.evaluate("window.__firstPlaced") == {"readyState": "loading", "bundle": False}
    phases = page.evaluate("window.rulesLibLive.phases")
    assert phases["models"] <= phases["parsed"] <= phases["live"]
    assert page.evaluate("window.rulesLibLive.classes.length") == 4
    page.close()


@pytest.mark.parametrize("query", ["回避値", "evasion"])
def test_search_finds_the_evasion_rules_in_english_and_japanese(browser, site_url, query):
    page = browser.new_page()
    page.goto(site_url, wait_until="load")
    page.keyboard.press("s")
    page.keyboard.type(query)
    page.locator(".md-search-result__item").first.wait_for(timeout=15_000)
    links = page.locator(".md-search-result__item > a").evaluate_all("as => as.map(a => a.getAttribute('href'))")
    assert any("gundam-sentinel/03-to-hit" in link for link in links[:8]), links[:8]
    # the results are other pages' text: every face of the Japanese font is declared (japanese-font.js)
    assert page.evaluate("!!document.querySelector('link[href$=\"noto-sans-jp/400.css\"]')")
    page.close()


def test_a_calculators_page_builds_its_search_index_only_when_asked_or_soon_after_live(browser, site_url):
    # the page's <head> holds the theme's search worker back while Python starts (tools/mkdocs_hooks.py)
    search_workers = lambda page: [w.url for w in page.workers if "/workers/search." in w.url]  # noqa: E731
    page = with_dedicated_python(browser.new_page())
    index_asked = []
    page.on("request", lambda r: index_asked.append(r.url) if r.url.endswith("/search/search_index.json") else None)
    page.route("**/vendor/pyodide/**", lambda route: None)  # the runtime never arrives: still starting
    page.goto(site_url + "gundam-sentinel/07-calculators/", wait_until="load")
    page.wait_for_timeout(1_000)
    assert page.evaluate("window.rulesLibLive.status") == "starting"
    assert search_workers(page) == [] and index_asked == []  # neither fetched nor built
    page.keyboard.press("s")  # the reader goes to search: the index is fetched and built, and it answers
    page.keyboard.type("evasion")
    page.locator(".md-search-result__item").first.wait_for(timeout=15_000)
    assert len(search_workers(page)) == 1
    page.close()

    page = browser.new_page()  # once the calculators are live, without the reader searching
    index_asked = []
    page.on("request", lambda r: index_asked.append(r.url) if r.url.endswith("/search/search_index.json") else None)
    page.goto(site_url + "gundam-sentinel/07-calculators/", wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status === 'live'", timeout=90_000)
    page.wait_for_timeout(1_000)
    assert search_workers(page) == [] and index_asked == []  # the reader's first inputs are answered first
    for _ in range(60):  # then, 3 s after live; the worker is reported a moment after it is created
        if search_workers(page):
            break
        page.wait_for_timeout(100)
    assert len(search_workers(page)) == 1
    page.close()


def test_page_stays_readable_and_says_so_when_python_cannot_start(browser, site_url):
    page = with_dedicated_python(browser.new_page())
    page.route("**/vendor/pyodide/**", lambda route: route.abort())
    page.goto(site_url + "dice/01-dice-and-odds/", wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=60_000)
    assert page.evaluate("window.rulesLibLive.status") == "failed"
    status = shown_text(page.locator(".rules-lib-live-status").first)
    assert status.startswith("Live calculators could not start") and "computed when the book was built" in status
    # the stored result is still on the page
    assert "success 1/6 (16.67%)" in shown_text(page.locator(".widget-html").first)
    page.close()


def test_a_later_page_of_the_same_calculators_finds_python_running_and_another_system_starts_its_own(
        browser, site_url):
    """The page's Python is a shared worker named after the build and the page's snapshot group: a
    reader reloading the page (or following a link to another page of the group) finds it running,
    restored once, and computes at once; a page of another group starts its own."""
    context = browser.new_context()
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(site_url + "dice/01-dice-and-odds/", wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=60_000)
    assert page.evaluate("[window.rulesLibLive.status, window.rulesLibLive.python, window.rulesLibLive.snapshot]") == [
        "live", "started", "restored"]
    # a first page loads its stored inputs as it pairs (Python is ready only after the page drew)
    assert page.evaluate("window.rulesLibLive.preloaded") is None
    page.wait_for_function("window.rulesLibLive.deferred", timeout=30_000)
    for expression_text in ("4D6>=14", "2D6>=9"):
        page.reload(wait_until="load")
        page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=60_000)
        # told what the running Python was restored from, and that its deferred files are in
        assert page.evaluate("[window.rulesLibLive.status, window.rulesLibLive.python, window.rulesLibLive.snapshot,"
                             " window.rulesLibLive.deferred]") == ["live", "reused", "restored", "loaded"]
        phases = page.evaluate("window.rulesLibLive.phases")
        # the first calculator live no later than the page (each is, once paired and drawn)
        assert "python-running" in phases and phases["first-live"] <= phases["live"]
        # Python had loaded the calculator's stored inputs, sent from the page's <head>, while it drew
        assert page.evaluate("window.rulesLibLive.preloaded") == 1
        expression = page.locator(".widget-text input").first
        expression.fill(expression_text)
        expression.press("Enter")
        page.locator(".widget-html", has_text=f"success {odds(expression_text).success}").first.wait_for(timeout=10_000)
        # the page before was closed in Python: no widget is left open that no calculator holds
        assert page.evaluate("window.rulesLibLive.orphanWidgets()") == 0
    page.goto(site_url + "wis6/07-calculators/", wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=60_000)
    assert page.evaluate("[window.rulesLibLive.status, window.rulesLibLive.python]") == ["live", "started"]
    page.close()
    context.close()
    assert problems == []


class _ForgingHandler(_QuietHandler):
    """Serves the site, but forged bytes (never cached) for the paths in ``forged``."""

    forged: set[str] = set()

    def do_GET(self):
        if self.path in self.forged:
            self.send_response(200)
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", "6")
            self.end_headers()
            self.wfile.write(b"forged")
            return
        super().do_GET()


def test_a_shared_python_that_could_not_start_is_not_what_the_next_page_finds(browser, built_site):
    """A runtime file that fails its check (a bad deploy, a broken download) stops the calculators;
    the shared worker then ends, so a reload once the file is right starts Python afresh. (Served
    here by a server of its own: Playwright cannot route a shared worker's requests.)"""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_ForgingHandler, directory=str(built_site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/dice/01-dice-and-odds/"
    context = browser.new_context()
    page = context.new_page()
    try:
        _ForgingHandler.forged = {"/vendor/pyodide/pyodide.asm.wasm.gz"}
        page.goto(url, wait_until="load")
        page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=60_000)
        assert page.evaluate("window.rulesLibLive.status") == "failed"
        assert "pyodide.asm.wasm.gz does not match the build's digest" in page.evaluate("window.rulesLibLive.error")
        _ForgingHandler.forged = set()
        page.wait_for_timeout(500)  # the failed worker ends
        page.reload(wait_until="load")
        page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=60_000)
        assert page.evaluate("[window.rulesLibLive.status, window.rulesLibLive.python]") == ["live", "started"]
    finally:
        _ForgingHandler.forged = set()
        context.close()
        server.shutdown()


def test_without_shared_workers_every_visit_restores_the_snapshot_of_its_calculators_and_still_computes(
        browser, site_url):
    context = with_dedicated_python(browser.new_context())
    for visit in ("first", "later"):
        page = context.new_page()
        problems, asked = [], []
        page.on("console", lambda m, problems=problems: problems.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r, asked=asked: asked.append(r.url.rsplit("/", 1)[-1]) if "/vendor/" in r.url else None)
        page.goto(site_url + "dice/01-dice-and-odds/", wait_until="load")
        page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=60_000)
        assert page.evaluate("window.rulesLibLive.status") == "live", visit
        assert page.evaluate("[window.rulesLibLive.fromSnapshot, window.rulesLibLive.snapshot]") == [True, "restored"]
        # the dice page's own snapshot; the standard library and the wheels not before the page is live
        assert [name for name in asked if name.startswith("python-snapshot-")] == [
            name for name in asked if name.startswith("python-snapshot-dice-odds-")] != []
        assert not any(name.endswith((".whl", ".zip")) for name in asked), asked
        expression = page.locator(".widget-text input").first
        expression.fill("4D6>=14")
        expression.press("Enter")
        expected = odds("4D6>=14").success
        page.locator(".widget-html", has_text=f"success {expected}").first.wait_for(timeout=10_000)
        # once the page is quiet, the files the restore deferred arrive
        page.wait_for_function("window.rulesLibLive.deferred", timeout=30_000)
        assert page.evaluate("window.rulesLibLive.deferred") == "loaded"
        assert problems == []
        page.close()
    context.close()


def test_a_restored_python_fetches_the_files_it_deferred_at_once_when_it_needs_them(browser, site_url):
    """The calculators page's snapshot holds no dice commands (rules_lib.cli): a roll clicked the
    moment the page is live imports them from the wheels and the standard library, which arrive
    synchronously then, checked, rather than 2 s later."""
    page, problems, outside = open_page(browser, site_url + "gundam-sentinel/07-calculators/")
    assert page.evaluate("[window.rulesLibLive.status, window.rulesLibLive.snapshot]") == ["live", "restored"]
    dice = page.locator("code.rules-lib-dice", has_text="1D3+4/2").first
    dice.click()
    shown = page.locator(".rules-lib-roll").first
    page.wait_for_function("el => el.dataset.total", arg=shown.element_handle(), timeout=60_000)
    assert shown_text(shown).strip().startswith("→ 1D3+4/2")
    page.wait_for_function("window.rulesLibLive.deferred", timeout=30_000)
    assert page.evaluate("window.rulesLibLive.deferred") == (
        "loaded; the wheels and the standard library when Python first needed them")
    assert problems == [] and outside == []
    page.close()


# the same folder as tests/test_browser_layout.py (build/ is ignored by git)
SCREENSHOTS = Path(os.environ.get("RULES_LIB_SCREENSHOTS") or ROOT / "build" / "screenshots")


def _screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


@pytest.mark.parametrize("width", [360, 1280])
def test_a_citation_on_a_rules_page_opens_the_source_text_at_that_line(browser, site_url, width):
    """`000 §7-1`, line 350 on the to-hit page: the link opens sources/000/ with line 350 in view."""
    source = (ROOT / "sources" / "000_44ba26957e1b4e1d.txt").read_text(encoding="utf-8").splitlines()
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(site_url + "gundam-sentinel/03-to-hit/", wait_until="load")
    section = page.locator("a.source-cite", has_text=re.compile(r"^000 §7-1$")).first
    assert section.get_attribute("href").endswith("sources/000/#L340")
    line = page.locator("a.source-cite", has_text="line 350").first
    line.scroll_into_view_if_needed()
    _screenshot(page, f"citations-gundam-sentinel-03-to-hit-{width}")
    line.click()
    page.wait_for_url("**/sources/000/#L350")
    target = page.locator("#L350")
    assert shown_text(target.locator(".source-lt")) == source[349]
    # in view, below the sticky header, and marked as the line the citation named
    box = target.bounding_box()
    header = page.locator(".md-header").bounding_box()
    assert header["height"] <= box["y"] < 900 - box["height"]
    assert page.evaluate("document.querySelector(':target').id") == "L350"  # citation-format: keep (an anchor id)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scrolling
    _screenshot(page, f"citation-opens-sources-000-L350-{width}")  # citation-format: keep (an anchor id)
    page.close()


def _fonts_used(page, selector: str) -> list[dict]:
    """The fonts Chromium actually drew the element's text with (DevTools' platform fonts)."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    return session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize(("page_path", "term", "most_subsets"), [
    ("gundam-sentinel/03-to-hit/", "回避値", 40),  # a rules page: Japanese terms in the prose
    ("sources/000/", "ミサイル", 80),  # a whole Japanese text (592 lines)
])
def test_japanese_is_drawn_with_the_sites_own_font(browser, site_url, page_path, width, term, most_subsets):
    page = browser.new_page(viewport={"width": width, "height": 800})
    fonts = []
    page.on("request", lambda r: fonts.append(r.url) if "/noto-sans-jp/files/" in r.url else None)
    outside = []
    record_requests_leaving_the_site(page, outside)
    page.goto(site_url + page_path, wait_until="load")
    # the first element whose own text holds the term, marked so DevTools can find it
    found = page.evaluate(
        """term => {
            const walker = document.createTreeWalker(document.querySelector('.md-content'), NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                if (node.textContent.includes(term)) {
                    node.parentElement.dataset.japaneseProbe = '';
                    node.parentElement.scrollIntoView({block: 'center'});
                    return node.parentElement.textContent.slice(0, 80);
                }
            }
            return null;
        }""",
        term,
    )
    assert found, f"no {term} on {page_path}"
    page.evaluate("document.fonts.ready")
    page.wait_for_function(
        "[...document.fonts].some(f => f.family.includes('Noto Sans JP') && f.status === 'loaded')", timeout=15_000)
    used = _fonts_used(page, "[data-japanese-probe]")
    # the web font (its internal name is "Noto Sans JP Thin", a variable font), not a box-drawing fallback
    japanese = [f for f in used if f["familyName"].startswith("Noto Sans JP") and f["isCustomFont"]]
    assert japanese and japanese[0]["glyphCount"] >= len(term), used
    # only the subsets of the characters shown, never all 119 of the font
    assert 0 < len(set(fonts)) <= most_subsets, len(set(fonts))
    assert outside == []
    _screenshot(page, f"japanese-{page_path.strip('/').replace('/', '-')}-{width}")
    page.close()


def test_japanese_a_page_does_not_show_is_declared_when_a_calculator_shows_it(browser, site_url):
    """A page declares the Japanese font's faces of its own text only; a sheet renamed in a character
    the page lacks (鬱) has every face declared and is drawn with the site's font, not as boxes."""
    page = browser.new_page()
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/noto-sans-jp/" in r.url else None)
    page.goto(site_url + "gundam-sentinel/08-table-sheet/", wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status === 'live'", timeout=90_000)
    faces = "[...document.fonts].filter(f => f.family.includes('Noto Sans JP')).length"
    assert 0 < page.evaluate(faces) < 119 and not [url for url in asked if url.endswith("400.css")]
    position = page.evaluate("window.rulesLibLive.states(0).findIndex(s => s._model_name === 'TextareaModel')")
    toml = page.evaluate(f"window.rulesLibLive.states(0)[{position}].value")
    assert 'name = "Zaku II"' in toml
    page.evaluate("([position, toml]) => window.rulesLibLive.setInput(0, position, { value: toml })",
                  [position, toml.replace('name = "Zaku II"', 'name = "鬱金"')])
    page.wait_for_function("[...document.querySelectorAll('.rules-lib-sheet b')].some(b => b.textContent === '鬱金')")
    assert [url for url in asked if url.endswith("400.css")]
    page.wait_for_function(f"{faces} >= 119")  # once the stylesheet it asked for has arrived
    page.evaluate("""() => {
        const name = [...document.querySelectorAll('.rules-lib-sheet b')].find(b => b.textContent === '鬱金');
        name.dataset.japaneseProbe = '';
        name.scrollIntoView({ block: 'center' });
    }""")
    page.wait_for_function("document.fonts.status === 'loaded'")
    used = _fonts_used(page, "[data-japanese-probe]")
    japanese = [f for f in used if f["familyName"].startswith("Noto Sans JP") and f["isCustomFont"]]
    assert japanese and japanese[0]["glyphCount"] >= 2, used
    page.close()


def test_dice_written_in_prose_roll_on_a_click_and_code_cells_are_left_alone(browser, site_url):
    page, problems, outside = open_page(browser, site_url + "verse-world/03-attack-and-evasion/")
    prose = page.locator(".rules-lib-dice-prose", has_text=re.compile(r"^3D6\+3$")).first
    prose.scroll_into_view_if_needed()
    prose.click()
    shown = page.locator(".rules-lib-dice-prose + .rules-lib-roll").filter(has_text="3D6+3").first
    shown.wait_for(timeout=60_000)
    page.wait_for_function("el => el.dataset.total", arg=shown.element_handle(), timeout=60_000)
    assert int(shown.get_attribute("data-total")) in odds("3D6+3").distribution.support
    assert shown_text(shown).strip().startswith("→ 3D6+3 = ")
    _screenshot(page, "dice-in-prose-1280")
    # code cells, their outputs, code blocks, links and headings keep their text as it is
    untouched = ".jp-CodeCell .rules-lib-dice, pre .rules-lib-dice, a .rules-lib-dice, h2 .rules-lib-dice, h3 .rules-lib-dice"
    assert page.locator(untouched).count() == 0
    assert shown_text(page.locator(".jp-CodeCell").first).count("→") == 0
    assert problems == [] and outside == []
    page.close()


def test_a_roll_with_a_comparison_shows_success_or_failure_in_its_text(browser, site_url):
    page, problems, outside = open_page(browser, site_url + "dice/01-dice-and-odds/")
    dice = page.locator("code.rules-lib-dice", has_text=re.compile(r"^2D6>=10$")).first
    dice.scroll_into_view_if_needed()
    dice.click()
    shown = page.locator("code.rules-lib-dice + .rules-lib-roll").filter(has_text="2D6>=10").first
    page.wait_for_function("el => el.dataset.total", arg=shown.element_handle(), timeout=60_000)
    total = int(shown.get_attribute("data-total"))
    outcome = "success" if total >= 10 else "failure"
    assert shown_text(shown).strip() == f"→ 2D6>=10 = {total}: {outcome}"
    assert shown.get_attribute("data-outcome") == outcome
    _screenshot(page, "dice-comparison-1280")
    assert problems == [] and outside == []
def _glossary_queries() -> dict[str, set[str]]:
    """Every glossary term (English and Japanese) and the pages the glossary says explain it."""
    sys.path.insert(0, str(ROOT / "tools"))
    from mkdocs_hooks import glossary_rows

    pages: dict[str, set[str]] = {}
    for entry in glossary_rows():
        for term in entry.terms:
            pages.setdefault(term, set()).add(entry.page)
    return pages


#: lunr's English stop words (lunr.stopWordFilter): Material's search drops them from a query
LUNR_STOP_WORDS = set("""a able about across after all almost also am among an and any are as at be because been but by
can cannot could dear did do does either else ever every for from get got had has have he her hers him his how however
i if in into is it its just least let like likely may me might most must my neither no nor not of off often on only or
other our own rather said say says she should since so some than that the their them then there these they this tis to
too twas us wants was we were what when where which while who whom why will with would yet you your""".split())

#: Kanji compounds whose entry may not rank first, with the reason. None since the search worker keeps
#: glossary tags whole and searches a compound's pieces exactly (tools/mkdocs_hooks.py, _SEGMENTER_FIX);
#: before, TinySegmenter's pieces let a shorter term sharing them win (回避値 for 回避行動).
KANJI_RANKING_GAPS: dict[str, str] = {}


def _explains(searched: list[str], glossary_term: str) -> bool:
    """Material's search looks for each searched word as the start of a word (it appends `*`)."""
    words = [w.lower() for w in glossary_term.split()]
    searched = [s for s in searched if s.lower() not in LUNR_STOP_WORDS] or searched
    return all(any(w.startswith(s.lower()) for w in words) or s in glossary_term for s in searched)


# Types each term into Material's search box (which reads the query on keyup) and returns the first
# hit's address, or null for "No matching documents"; the list is emptied between terms, so a hit
# is never the previous term's.
_SEARCH_EACH = """async (terms) => {
  const box = document.querySelector("input.md-search__input");
  const list = document.querySelector(".md-search-result__list");
  const meta = document.querySelector(".md-search-result__meta");
  const until = async (done) => {
    for (const start = performance.now(); !done(); ) {
      if (performance.now() - start > 10000) throw new Error(`search did not answer for ${box.value}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const type = (text) => {
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    box.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
  };
  const firsts = [];
  for (const term of terms) {
    type("");
    await until(() => !list.children.length);
    type(term);
    await until(() => list.children.length || /No matching/.test(meta.textContent));
    const link = document.querySelector(".md-search-result__item > a");
    firsts.push(link ? link.href : null);
  }
  return firsts;
}"""


def test_search_puts_the_page_explaining_each_glossary_term_first(browser, site_url):
    """Type each glossary term into the site's search box; the first hit is the page the glossary names.

    Material appends `*` to each word, so `move` also finds `movement`: a hit is right when the glossary
    names its page for a term the searched words begin. For a kanji compound, Material searches only the
    pieces its segmenter finds in the index; those pieces, when the hit's `?h=` parameter shows them, are
    what the hit is judged against. English stop words (`only`, `off`) are not searched. A kanji
    compound the index cannot separate would be listed, with the reason, in KANJI_RANKING_GAPS.
    """
    from urllib.parse import parse_qs, urlsplit

    queries = _glossary_queries()
    assert len(queries) > 500
    by_term = [(term, pages) for term, pages in queries.items()]
    page = browser.new_page()
    page.goto(site_url, wait_until="load")
    page.keyboard.press("s")
    # every term in one call (a round trip per term was most of this test's two minutes)
    firsts = page.evaluate(_SEARCH_EACH, [term for term, _ in by_term])
    wrong = []
    for (term, _), href in zip(by_term, firsts, strict=True):
        if href is None:
            wrong.append((term, "no result"))
            continue
        url = urlsplit(href)
        first = url.path[len(urlsplit(site_url).path):]
        searched = parse_qs(url.query).get("h", [""])[0].split() or term.split()
        right = {p for other, pages in queries.items() if _explains(searched, other) for p in pages}
        if first not in right and term not in KANJI_RANKING_GAPS:
            wrong.append((term, first, searched, sorted(queries[term])))
    page.close()
    assert wrong == [], f"{len(wrong)} of {len(by_term)} glossary terms: {wrong}"


_VISIBLE_CODE = """() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea')]
    .filter(e => e.getClientRects().length).length"""


def test_code_is_hidden_on_a_rules_page_and_shown_per_cell_or_for_every_page(browser, site_url):
    context = browser.new_context()  # its own localStorage
    page = context.new_page()
    page.goto(site_url + "gundam-sentinel/03-to-hit/", wait_until="load")
    cells = page.locator(".rules-lib-cell")
    assert cells.count() > 10
    assert page.evaluate(_VISIBLE_CODE) == 0
    draw_every_cell(page)
    text = page.locator("article").inner_text()
    assert "from rules_lib" not in text and "In [" not in text and "Out[" not in text  # set-up cell, prompts
    assert page.locator(".celltag_output-only .rules-lib-code-toggle").count() == 0  # ✓ checks: output only

    toggle = page.locator(".rules-lib-code-toggle").first
    assert shown_text(toggle) == "show code"
    toggle.click()
    assert shown_text(toggle) == "hide code"
    assert page.evaluate(_VISIBLE_CODE) == 1
    toggle.click()
    assert page.evaluate(_VISIBLE_CODE) == 0

    switch = page.locator(".rules-lib-code-switch input")
    switch.check()
    assert page.evaluate(_VISIBLE_CODE) == cells.count()  # check cells too
    page.goto(site_url + "wis6/03-attacks/", wait_until="load")  # remembered on another page
    assert page.locator(".rules-lib-code-switch input").is_checked()
    assert page.evaluate(_VISIBLE_CODE) == page.locator(".rules-lib-cell").count() > 0
    page.locator(".rules-lib-code-switch input").uncheck()
    page.reload(wait_until="load")
    assert page.evaluate(_VISIBLE_CODE) == 0
    context.close()


def test_a_calculator_cell_shows_only_the_calculator(browser, site_url):
    page = browser.new_page()
    page.goto(site_url + "wis6/07-calculators/", wait_until="load")
    calculators = page.locator(".celltag_output-only")
    assert calculators.count() >= 4
    assert page.evaluate(_VISIBLE_CODE) == 0
    assert calculators.locator(".rules-lib-code-toggle").count() == 0
    assert calculators.first.locator(".jp-OutputArea").is_visible()
    page.close()
