"""Keyboard and touch on each system's calculators page, at 360 and 1280 px (issue 34, item 4).

Every visible control of the calculators (buttons, inputs, dropdowns, a checkbox with its label,
and on the table sheets' pages the copy buttons) is at least 24 px tall (WCAG 2.2, 2.5.8 Target Size (Minimum)). From the
top of the page, the second Tab reaches "Skip to the calculator", just after the theme's own "Skip
to content", shown when focused (WCAG 2.4.1); following it takes the focus, and the window, to the
page's first calculator, and the next Tab goes on inside it.

The widgets are the stored ones (Python blocked): the live calculators are drawn by the same
views. Uses the site, server and Chromium of tests/test_browser.py; one browser for the module.
"""

from __future__ import annotations

import pytest

from tests.test_browser import (  # noqa: F401  (fixtures shared with the browser tests)
    ROOT,
    browser,
    built_site,
    draw_every_cell,
    site_url,
    with_dedicated_python,
)

pytestmark = pytest.mark.browser
WIDTHS = (360, 1280)
#: WCAG 2.2, 2.5.8 Target Size (Minimum): 24 by 24 CSS px; only the height is checked here (a
#: button's width is that of its text, a choice's that of the row)
MIN_CONTROL_HEIGHT = 24
SKIP_TEXT = "Skip to the calculator"

#: Every visible control of the calculators less than `minHeight` px tall, as readable lines.
SHORT_CONTROLS = r"""
(minHeight) => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const name = (el) => {
    const text = (el.tagName === "SELECT" ? el.selectedOptions[0]?.text
      : el.innerText || el.value || el.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ");
    return `<${el.tagName.toLowerCase()}${el.className ? "." + [...el.classList].join(".") : ""}> "${text.slice(0, 60)}"`;
  };
  const controls = new Set();
  for (const area of document.querySelectorAll(".widget-subarea")) {
    for (const el of area.querySelectorAll("button, input, select, textarea")) {
      if (el.type === "hidden") continue;
      // a checkbox is hit through its label, which holds it
      controls.add(["checkbox", "radio"].includes(el.type) ? el.closest("label") || el : el);
    }
  }
  for (const el of document.querySelectorAll(".md-content button.rules-lib-copy")) controls.add(el);
  const problems = [];
  for (const el of controls) {
    if (!shown(el)) continue;
    const height = el.getBoundingClientRect().height;
    if (height < minHeight - 0.01) problems.push(`${height.toFixed(1)} px tall: ${name(el)}`);
  }
  if (!controls.size) problems.push("no control on the page");
  return problems;
}
"""


def _pages(kind: str) -> list[str]:
    notebooks = sorted((ROOT / "book").glob(f"*/[0-9]*-{kind}.ipynb"))
    return [path.relative_to(ROOT / "book").with_suffix("").as_posix() + "/" for path in notebooks]


def _calculator_pages() -> list[str]:
    return _pages("calculators")


def _pages_with_controls() -> list[str]:
    """The calculators pages, and the table sheets, whose sheets have the copy buttons."""
    return _calculator_pages() + _pages("table-sheet")


def _stored_page(browser, site_url, page_path, width):  # noqa: F811
    """The page with its stored widgets all drawn (Python blocked), every cell drawn."""
    context = with_dedicated_python(browser.new_context(viewport={"width": width, "height": 900}))
    page = context.new_page()
    page.route("**/vendor/pyodide/**", lambda route: route.abort())
    page.goto(site_url + page_path, wait_until="load")
    page.wait_for_function("""() => {
      const views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
      const areas = [...document.querySelectorAll(".widget-subarea")];
      return views.length > 0 && areas.length === views.length && areas.every((a) => a.childElementCount > 0);
    }""", timeout=60_000)
    draw_every_cell(page)
    return context, page


def test_the_pages_are_found():
    assert len(_calculator_pages()) == 4 and len(_pages_with_controls()) == 8, _pages_with_controls()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page_path", _pages_with_controls())
def test_every_control_is_at_least_24_px_tall(browser, site_url, page_path, width):  # noqa: F811
    context, page = _stored_page(browser, site_url, page_path, width)
    problems = page.evaluate(SHORT_CONTROLS, MIN_CONTROL_HEIGHT)
    context.close()
    assert problems == [], f"{page_path} at {width} px:\n" + "\n".join(problems)


def test_a_short_control_is_reported(browser, site_url):  # noqa: F811
    """The control case: a 10 px button planted in a calculator is found."""
    context, page = _stored_page(browser, site_url, _calculator_pages()[0], WIDTHS[0])
    page.evaluate("""() => {
      const planted = document.createElement("button");
      planted.textContent = "planted";
      planted.style.cssText = "height: 10px; min-height: 0; padding: 0; border: 0; font-size: 6px; line-height: 1";
      document.querySelector(".widget-subarea").append(planted);
    }""")
    problems = page.evaluate(SHORT_CONTROLS, MIN_CONTROL_HEIGHT)
    context.close()
    assert problems == ['10.0 px tall: <button> "planted"'], problems


#: the focused element, as the test reads it
FOCUSED = """() => {
  const el = document.activeElement;
  return { tag: el.tagName, classes: [...el.classList], text: (el.textContent || "").trim(), href: el.getAttribute("href") };
}"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page_path", _calculator_pages())
def test_skip_to_the_calculator_from_the_top_of_the_page(browser, site_url, page_path, width):  # noqa: F811
    context, page = _stored_page(browser, site_url, page_path, width)
    page.keyboard.press("Tab")
    first = page.evaluate(FOCUSED)
    assert "md-skip" in first["classes"] and "rules-lib-skip" not in first["classes"], first  # the theme's
    page.keyboard.press("Tab")
    skip = page.evaluate(FOCUSED)
    assert skip["text"] == SKIP_TEXT and "md-skip" in skip["classes"], skip
    page.wait_for_timeout(400)  # the theme's link fades in when focused (0.25 s)
    link = page.locator("a.rules-lib-skip")
    assert link.evaluate("el => getComputedStyle(el).opacity") == "1"
    # drawn over the header: a translucent background let the title show through it at 360 px
    background = link.evaluate("el => getComputedStyle(el).backgroundColor")
    assert background.startswith("rgb("), f"the focused skip link's background {background} is not opaque"
    box = link.bounding_box()
    assert box and box["width"] > 0 and 0 <= box["y"] < 900, box

    page.keyboard.press("Enter")
    page.wait_for_timeout(200)
    target = page.evaluate("""() => {
      const el = document.activeElement;
      const first = document.querySelector('.widget-subarea [class*="rules-lib-live--"]');
      const header = document.querySelector(".md-header").getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return { id: el.id, holdsFirst: !!first && el.contains(first), top: box.top, headerBottom: header.bottom,
               height: window.innerHeight };
    }""")
    assert skip["href"] == f"#{target['id']}", (skip, target)
    assert target["holdsFirst"], target  # the focus is on the first calculator
    assert target["headerBottom"] - 1 <= target["top"] < target["height"], target  # in the window, below the header
    page.keyboard.press("Tab")
    assert page.evaluate(f"() => document.getElementById({target['id']!r}).contains(document.activeElement)")
    context.close()


def test_only_the_pages_with_a_calculator_have_the_link(built_site):  # noqa: F811
    """The link is on every page whose notebook stores a live calculator, in both editions, and on no
    other page."""
    book = ROOT / "book"
    english = {path.relative_to(book).with_suffix("").as_posix() for path in book.glob("*/[0-9]*.ipynb")
               if "rules-lib-live--" in path.read_text(encoding="utf-8")}
    expected = english | {f"ja/{page}" for page in english}
    linked = {page.parent.relative_to(built_site).as_posix() for page in built_site.glob("**/index.html")
              if 'class="md-skip rules-lib-skip"' in page.read_text(encoding="utf-8")}
    assert expected and linked == expected, (sorted(expected - linked), sorted(linked - expected))
