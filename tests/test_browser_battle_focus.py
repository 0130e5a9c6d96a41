"""A battle played by keyboard alone keeps the focus in the battle (issue 34, item 4).

On each first-battle page, live: the first battle button is focused and pressed with Enter, then
whatever has the focus is pressed again, up to `PRESSES` times. After each press's answer the focus
must be on an enabled control of the same battle, never dropped to the page, although a pressed
button often disables itself (book/javascripts/live-widgets.js moves the focus on); and Tab from
there goes on inside the battle (unless it was on the battle's last control). At least one press on each page must have disabled its button,
or the test would not see the case it is for.

Uses the site, server and Chromium of tests/test_browser.py; one browser for the module.
"""

from __future__ import annotations

import pytest

from tests.test_browser import (  # noqa: F401  (fixtures shared with the browser tests)
    ROOT,
    browser,
    built_site,
    site_url,
)

pytestmark = pytest.mark.browser
#: Enter presses of a battle by keyboard (each on whatever has the focus)
PRESSES = 6

#: where the focus is, against the battle (the .widget-subarea) of the given button
FOCUS = """(pressed) => {
  const el = document.activeElement;
  const battle = pressed.closest(".widget-subarea");
  return { tag: el.tagName, text: (el.textContent || el.value || "").trim(), disabled: !!el.disabled,
           inBattle: battle.contains(el), pressedDisabled: pressed.disabled };
}"""


def _battle_pages() -> list[str]:
    notebooks = sorted((ROOT / "book").glob("*/[0-9]*-first-battle.ipynb"))
    return [path.relative_to(ROOT / "book").with_suffix("").as_posix() + "/" for path in notebooks]


def test_the_pages_are_found():
    assert len(_battle_pages()) == 4, _battle_pages()


@pytest.mark.parametrize("page_path", _battle_pages())
def test_focus_stays_in_the_battle_after_each_press(browser, site_url, page_path):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(site_url + page_path, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=90_000)
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    first = page.locator(".widget-subarea button:not([disabled])").filter(has_not_text="New battle").first
    first.focus()
    seen, disabled_itself = [], 0
    for _ in range(PRESSES):
        pressed = page.evaluate_handle("document.activeElement")
        if page.evaluate("(el) => el.tagName", pressed) != "BUTTON":
            break  # an input or a choice: the keyboard's next step is to type, not to press
        page.keyboard.press("Enter")
        page.evaluate("async () => { await window.rulesLibLive.pending; }")
        page.wait_for_timeout(100)  # the focus moves on once the answer is drawn
        focus = page.evaluate(FOCUS, pressed)
        seen.append(focus)
        disabled_itself += focus["pressedDisabled"]
        assert focus["inBattle"] and not focus["disabled"] and focus["tag"] != "BODY", (page_path, seen)
    assert disabled_itself, f"no press on {page_path} disabled its button: {seen}"
    battle = page.evaluate_handle("document.activeElement.closest('.widget-subarea')")
    last = page.evaluate("""(battle) => {
      const usable = [...battle.querySelectorAll("button, input, select, textarea")].filter((el) => !el.disabled);
      return usable[usable.length - 1] === document.activeElement;
    }""", battle)
    page.keyboard.press("Tab")
    assert last or page.evaluate("(battle) => battle.contains(document.activeElement)", battle), page_path
    page.close()
