"""The calculators fit the screen: every calculators and first-battle page at 360, 768 and 1280 px.

Each page is opened twice: with Python blocked (the widgets as stored when the book was built)
and live (the same widgets driven by rules_lib in Pyodide, then again after a few button
presses on the battles). At every width the page must not scroll sideways; no widget input may
be narrower than 40 px or than its value; no label, button or widget box may cut its content;
and anything wider than the window must sit in a box that scrolls sideways (a wide board).
With $RULES_LIB_SCREENSHOTS set to a folder, screenshots of each widget, live, at 360 and 1280 px
go there, for a person to look at (they cost about 25 s of a run, so only when asked).

Uses the site, server and Chromium of tests/test_browser.py; one browser for the module.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.test_browser import (  # noqa: F401  (fixtures shared with the browser tests)
    ROOT,
    browser,
    built_site,
    site_url,
    with_dedicated_python,
)

pytestmark = pytest.mark.browser
WIDTHS = (360, 768, 1280)
SCREENSHOT_WIDTHS = (360, 1280)
MIN_INPUT_WIDTH = 40
#: presses of enabled battle buttons before the second look (boards, odds and logs grow)
BATTLE_PRESSES = 6
SCREENSHOTS = Path(os.environ["RULES_LIB_SCREENSHOTS"]) if os.environ.get("RULES_LIB_SCREENSHOTS") else None

#: Each box of the page's main column that scrolls sideways and does not say so: it must be
#: reachable by Tab (tabindex 0), a region named "… scrolls sideways", and show the visible cue
#: (class rules-lib-scrolls, book/javascripts/scroll-boxes.js).
UNMARKED_SCROLL_BOXES = r"""
() => {
  const problems = [];
  for (const box of document.querySelectorAll(".md-content *")) {
    const style = getComputedStyle(box);
    // a box in a cell not drawn yet is marked once drawn, as the reader scrolls near it
    if (!box.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true })
        || !["auto", "scroll"].includes(style.overflowX) || box.scrollWidth <= box.clientWidth + 1) continue;
    const marked = box.tabIndex === 0 && box.getAttribute("role") === "region"
      && (box.getAttribute("aria-label") || "").endsWith("scrolls sideways") && box.classList.contains("rules-lib-scrolls");
    if (!marked) {
      const text = (box.innerText || "").trim().replace(/\s+/g, " ").slice(0, 60);
      problems.push(`scrolls sideways (${box.scrollWidth} px in ${box.clientWidth} px) without saying so: `
        + `<${box.tagName.toLowerCase()}.${[...box.classList].join(".")}> "${text}"`);
    }
  }
  return problems;
}
"""

#: Everything on the page that does not fit, as readable lines (empty when it all fits).
LAYOUT_PROBLEMS = r"""
(minInput) => {
  const problems = [];
  const name = (el) => {
    const cls = [...el.classList].filter((c) => c.startsWith("widget") || c.startsWith("jupyter")).join(".");
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ");
    return `<${el.tagName.toLowerCase()}${cls ? "." + cls : ""}> "${text.slice(0, 60)}"`;
  };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const scrolls = (value) => value === "auto" || value === "scroll";
  const page = document.scrollingElement;
  if (page.scrollWidth > window.innerWidth) {
    const wide = [...document.querySelectorAll("body *")].filter(
      (el) => shown(el) && el.getBoundingClientRect().right > window.innerWidth + 1);
    problems.push(`the page scrolls sideways: ${page.scrollWidth} px wide in a ${window.innerWidth} px window`
      + (wide.length ? `; for example ${name(wide[wide.length - 1])}` : ""));
  }
  // anything of the page past the window's right edge, unless a box that scrolls sideways holds it
  const inScrollBox = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
      if (scrolls(getComputedStyle(up).overflowX)) return true;
    return false;
  };
  const past = [...document.querySelectorAll(".md-content *")].filter(
    (el) => el.getBoundingClientRect().right > window.innerWidth + 1 && shown(el) && !inScrollBox(el));
  for (const el of past.slice(0, 5)) problems.push(`past the window's right edge, not scrollable: ${name(el)}`);
  // outputs of the page (boards and tables drawn by code cells): a wide one scrolls in its own box
  for (const output of document.querySelectorAll(".jp-OutputArea-output")) {
    if (shown(output) && output.scrollWidth > output.clientWidth + 1 && !scrolls(getComputedStyle(output).overflowX))
      problems.push(`output ${output.scrollWidth} px wide in ${output.clientWidth} px, cut: ${name(output)}`);
  }
  problems.push(...(@UNMARKED@)());
  const widgets = document.querySelectorAll(".widget-subarea");
  const measure = document.createElement("canvas").getContext("2d");
  for (const area of widgets) {
    for (const input of area.querySelectorAll("input, select, textarea")) {
      if (["checkbox", "radio", "hidden"].includes(input.type) || !shown(input)) continue;
      const width = input.getBoundingClientRect().width;
      const row = name(input.closest(".widget-inline-hbox") || input);
      if (width < minInput) problems.push(`input ${Math.round(width)} px wide: ${row}`);
      else if (input.tagName === "INPUT" && input.scrollWidth > input.clientWidth + 1)
        problems.push(`value "${input.value}" wider than its input: ${row}`);
      else if (input.tagName === "SELECT" && !input.multiple && input.selectedOptions.length) {
        measure.font = getComputedStyle(input).font;  // the choice shown, beside the arrow (about 24 px)
        const text = input.selectedOptions[0].text;
        if (measure.measureText(text).width > input.clientWidth - 24)
          problems.push(`choice "${text}" wider than its dropdown: ${row}`);
      }
    }
    const boxes = area.querySelectorAll(
      ".widget-label, .widget-label-basic, .widget-label-basic span, button, .widget-box, .widget-inline-hbox, "
      + ".widget-html, .widget-html-content, .widget-dropdown select, .widget-readout");
    for (const el of boxes) {
      if (!shown(el)) continue;
      const style = getComputedStyle(el);
      if (el.matches(".widget-label, .widget-label-basic, button") && style.textOverflow === "ellipsis")
        problems.push(`cut with an ellipsis when too long: ${name(el)}`);
      if (el.scrollWidth > el.clientWidth + 1 && !scrolls(style.overflowX))
        problems.push(`content ${el.scrollWidth} px wide in ${el.clientWidth} px: ${name(el)}`);
      if (el.matches(".widget-label, .widget-label-basic, button") && el.scrollHeight > el.clientHeight + 1
          && !scrolls(style.overflowY))
        problems.push(`content ${el.scrollHeight} px tall in ${el.clientHeight} px: ${name(el)}`);
      const box = el.getBoundingClientRect();
      if (box.width > 0 && (box.left < -1 || box.right > window.innerWidth + 1))
        problems.push(`outside the window (${Math.round(box.left)} to ${Math.round(box.right)} px): ${name(el)}`);
    }
  }
  if (!widgets.length) problems.push("no widget on the page");
  // a numbered list's markers sit left of its items: the longest ("168.") must fit between an item
  // and the nearest box that clips, or that box cuts its first digits ("11." read as ".1.")
  const clipLeft = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
      if (getComputedStyle(up).overflowX !== "visible") return up.getBoundingClientRect().left;
    return 0;
  };
  for (const list of document.querySelectorAll("ol")) {
    const items = [...list.querySelectorAll(":scope > li")];
    if (!shown(list) || items.length < 10 || getComputedStyle(list).listStylePosition !== "outside") continue;
    const last = items[items.length - 1];
    const style = getComputedStyle(last);
    measure.font = `${style.fontSize} ${style.fontFamily}`;
    const marker = measure.measureText(`${items.length}.`).width;
    const room = last.getBoundingClientRect().left - clipLeft(list);
    if (room < marker)
      problems.push(`${name(list)}: its marker "${items.length}." needs ${Math.ceil(marker)} px, has ${Math.floor(room)} px`);
  }
  return problems;
}
""".replace("@UNMARKED@", UNMARKED_SCROLL_BOXES.strip())


def _pages() -> list[str]:
    """Every calculators and first-battle page, and any other page that shows a calculator."""
    book = ROOT / "book"
    notebooks = sorted(book.glob("*/[0-9]*-calculators.ipynb")) + sorted(book.glob("*/[0-9]*-first-battle.ipynb"))
    notebooks += [path for path in sorted(book.glob("*/[0-9]*.ipynb"))
                  if path not in notebooks and "application/vnd.jupyter.widget-view+json" in path.read_text(encoding="utf-8")]
    return [path.relative_to(book).with_suffix("").as_posix() + "/" for path in notebooks]


def _problems_at_each_width(page, what: str) -> list[str]:
    found = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)  # a frame for the re-layout
        problems = page.evaluate(LAYOUT_PROBLEMS, MIN_INPUT_WIDTH)
        if problems:  # look again once the theme's transitions after a resize are over (a loaded machine is slow)
            page.wait_for_timeout(600)
            problems = page.evaluate(LAYOUT_PROBLEMS, MIN_INPUT_WIDTH)
        found += [f"{what} at {width} px: {problem}" for problem in problems]
    return found


def _screenshots(page, page_path: str, suffix: str = "") -> None:
    """One picture of each widget of the page at each of `SCREENSHOT_WIDTHS`, when `SCREENSHOTS` names a folder."""
    if SCREENSHOTS is None:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    stem = page_path.strip("/").replace("/", "--")
    # the theme's header stays at the top of the window: let it scroll away so it covers no widget
    page.add_style_tag(content=".md-header { position: static !important; }")
    for width in SCREENSHOT_WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        for number, widget in enumerate(page.locator(".widget-subarea").all(), 1):
            widget.screenshot(path=SCREENSHOTS / f"{stem}--{width}px--widget{number}{suffix}.png")


@pytest.fixture(scope="module")
def live_context(browser):  # noqa: F811  (the shared fixture)
    """One browser context for every live page: the runtime and the snapshots from its HTTP cache after the first."""
    context = browser.new_context()
    yield context
    context.close()


@pytest.mark.parametrize("page_path", _pages())
def test_stored_calculators_fit_at_every_width(browser, site_url, page_path):  # noqa: F811
    """Before Python starts (here: never, it is blocked) the stored widgets already fit."""
    context = with_dedicated_python(browser.new_context())  # its requests routed
    page = context.new_page()
    page.route("**/vendor/pyodide/**", lambda route: route.abort())
    page.set_viewport_size({"width": WIDTHS[-1], "height": 900})
    page.goto(site_url + page_path, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=60_000)
    problems = _problems_at_each_width(page, "stored")
    context.close()
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("page_path", _pages())
def test_live_calculators_fit_at_every_width(live_context, site_url, page_path):  # noqa: F811
    """Live, and again after a few presses of the battle buttons; screenshots for a person to look at."""
    page = live_context.new_page()
    page.set_viewport_size({"width": WIDTHS[-1], "height": 900})
    page.goto(site_url + page_path, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=90_000)
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    problems = _problems_at_each_width(page, "live")
    _screenshots(page, page_path)
    if "first-battle" in page_path:
        page.set_viewport_size({"width": WIDTHS[-1], "height": 900})
        enabled = page.locator(".widget-subarea button:not([disabled])").filter(has_not_text="New battle")
        for _ in range(BATTLE_PRESSES):
            if not enabled.count():
                break
            enabled.first.click()
            # the press's answer may disable or enable buttons: the next press is chosen after it
            page.evaluate("async () => { await window.rulesLibLive.pending; }")
        problems += _problems_at_each_width(page, f"live after {BATTLE_PRESSES} button presses")
        _screenshots(page, page_path, "--played")
    page.close()
    assert problems == [], "\n".join(problems)


#: Pages of wide tables and no calculator: the home page's table of systems ("start here" column)
#: and the Gundam Sentinel chart commands
#: the home page and a chapter (wide tables), and an API reference page (wide signatures in code blocks)
WIDE_TABLE_PAGES = ("", "gundam-sentinel/05-damage-and-checks/", "reference/rules_lib.sheets/")
SPLIT_WORDS_WIDTHS = (360, 390, 1280)

#: What of the main column does not fit it: anything past its right edge outside a box that
#: scrolls sideways, a scroll box that does not say so, and an English word of a table split over
#: two lines
COLUMN_PROBLEMS = r"""
() => {
  const problems = [];
  const column = document.querySelector(".md-content").getBoundingClientRect();
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const inScrollBox = (el) => {
    for (let up = el.parentElement; up && !up.matches(".md-content"); up = up.parentElement)
      if (["auto", "scroll"].includes(getComputedStyle(up).overflowX)) return true;
    return false;
  };
  for (const el of document.querySelectorAll(".md-content *")) {
    if (el.getBoundingClientRect().right > column.right + 1 && shown(el) && !inScrollBox(el))
      problems.push(`past the column's right edge, not in a scroll box: <${el.tagName.toLowerCase()}> "${el.textContent.trim().slice(0, 40)}"`);
  }
  problems.push(...(@UNMARKED@)());
  const range = document.createRange();
  for (const cell of document.querySelectorAll(".md-content :is(td, th)")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/[A-Za-z]{2,}/g)) {
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) problems.push(`"${word[0]}" split over ${lines.size} lines in a table cell`);
      }
    }
  }
  return problems;
}
""".replace("@UNMARKED@", UNMARKED_SCROLL_BOXES.strip())


@pytest.mark.parametrize("page_path", WIDE_TABLE_PAGES)
def test_wide_tables_scroll_in_a_box_that_says_so(browser, site_url, page_path):  # noqa: F811
    page = browser.new_page()
    page.goto(site_url + page_path, wait_until="load")
    # every cell drawn, as for a reader who scrolled through the page
    page.add_style_tag(content=".jupyter-wrapper .jp-Cell { content-visibility: visible !important; }")
    problems = []
    for width in SPLIT_WORDS_WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
        page.wait_for_timeout(200)  # the scroll boxes are looked at when they change size (a frame)
        problems += [f"at {width} px: {problem}" for problem in page.evaluate(COLUMN_PROBLEMS)]
    page.close()
    assert problems == [], f"/{page_path}:\n" + "\n".join(problems)


def test_a_split_word_and_an_unmarked_box_are_reported(browser, site_url):  # noqa: F811
    """The control case: a table planted in a narrow box, its words allowed to break anywhere, and
    a box that scrolls sideways without saying so, are both found."""
    page = browser.new_page(viewport={"width": 360, "height": 900})
    page.goto(site_url, wait_until="load")
    page.evaluate("""() => {
      const planted = document.createElement("div");
      planted.innerHTML = '<table style="width: 40px; word-break: break-all"><tr><td>sources</td></tr></table>'
        + '<div class="planted-box" style="overflow-x: auto; width: 100px"><div style="width: 400px">wide</div></div>';
      document.querySelector(".md-content__inner").prepend(planted);
    }""")
    page.wait_for_timeout(200)
    page.evaluate("() => { const box = document.querySelector('.planted-box'); box.removeAttribute('tabindex'); "
                  "box.removeAttribute('role'); box.classList.remove('rules-lib-scrolls'); }")
    problems = page.evaluate(COLUMN_PROBLEMS)
    page.close()
    assert any(p.startswith('"sources" split over') for p in problems), problems
    assert any(p.startswith("scrolls sideways (") and "planted-box" in p for p in problems), problems
