"""The table-sheet pages in Chromium: the copy button puts valid CCFOLIA JSON on the clipboard,
the sheet builder recomputes live, and the new dice commands roll on a click.

Uses the site and Chromium fixtures of ``tests/test_browser.py`` (``RULES_LIB_SITE_DIR`` to reuse a build).
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from rules_lib import sheets
from tests.test_browser import (  # noqa: F401  (pytest fixtures)
    browser,
    built_site,
    record_requests_leaving_the_site,
    shown_text,
    site_url,
)

pytestmark = pytest.mark.browser
PAGES = {"gundam-sentinel": "gundam-sentinel/08-table-sheet/", "wis6": "wis6/08-table-sheet/",
         "nemesis": "nemesis/08-table-sheet/", "verse-world": "verse-world/09-table-sheet/"}


def _open(browser, url):  # noqa: F811
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    problems, outside = [], []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    record_requests_leaving_the_site(page, outside)
    page.goto(url, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=90_000)
    return context, page, problems, outside


def _copy(page, what: str) -> str:
    """Click a copy button once Python's answer to the last input is on the page, and read the clipboard.

    On a loaded CI machine one click in many never said "copied" (not seen when run alone); the
    click is tried three times, and a failure says what the page showed.
    """
    state = None
    for _ in range(3):
        page.evaluate("() => window.rulesLibLive.pending")
        button = page.locator(f"button.rules-lib-copy[data-copies='{what}']").first.element_handle()
        button.click()
        try:
            page.wait_for_function("el => el.textContent.includes('copied')", arg=button, timeout=10_000)
            return page.evaluate("navigator.clipboard.readText()")
        except PlaywrightTimeout:
            state = page.evaluate("el => [el.isConnected, el.textContent, document.hasFocus()]", button)
    raise AssertionError(f"{what} was not copied in three clicks: button connected, text, focus = {state}")


#: each page's builder: the sheet it shows first, another to switch to (live), and its target
BUILDERS = {"gundam-sentinel": ("zaku-ii", "nouvelle-gm-iii", 46), "wis6": ("asuka-kestrel", "raider", None),
            "nemesis": ("ss-01", None, 6), "verse-world": ("lance", "bandit", None)}


@pytest.mark.parametrize("system", list(PAGES))
def test_copy_button_puts_ccfolia_json_on_the_clipboard(browser, site_url, system):  # noqa: F811
    first, second, target = BUILDERS[system]
    context, page, problems, outside = _open(browser, site_url + PAGES[system])
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    data = json.loads(_copy(page, "rules-lib-ccfolia-json"))
    sheets.ccfolia.check_character(data)
    assert data == json.loads(sheets.export(sheets.get(system, first), "ccfolia", target=target))
    assert _copy(page, "rules-lib-palette") == data["data"]["commands"]
    if second:  # the page's Python builds the other sample sheet of the same system
        page.locator(".widget-dropdown select").first.select_option(second)
        name = sheets.get(system, second).name
        page.locator(".rules-lib-sheet b", has_text=name).first.wait_for(timeout=20_000)
        expected = json.loads(sheets.export(sheets.get(system, second), "ccfolia", target=target))
        assert json.loads(_copy(page, "rules-lib-ccfolia-json")) == expected
    assert problems == [] and outside == []
    context.close()


def test_the_builder_recomputes_live_and_copies_the_new_sheet(browser, site_url):  # noqa: F811
    context, page, problems, outside = _open(browser, site_url + PAGES["wis6"])
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    page.locator(".widget-dropdown select").first.select_option("raider")
    raider = sheets.get("wis6", "raider")
    page.locator(".rules-lib-sheet", has_text="Raider").first.wait_for(timeout=20_000)
    assert json.loads(_copy(page, "rules-lib-ccfolia-json")) == json.loads(sheets.export(raider, "ccfolia"))

    toml = page.locator(".widget-textarea textarea").first
    toml.fill(sheets.export(raider, "toml").replace("armour = 3", "armour = -1"))
    toml.press("Tab")  # continuous_update is off: the change is sent on blur
    page.locator(".calculator-error", has_text="armour (装甲値) -1 is below 0").first.wait_for(timeout=20_000)
    assert problems == [] and outside == []
    context.close()


@pytest.mark.parametrize("written, code", [("\\r", "U+000D"), ("\u2028", "U+2028")], ids=["CR", "LS"])
def test_a_weapon_name_with_a_line_break_puts_no_line_on_the_clipboard(browser, site_url, written, code):  # noqa: F811
    # issue 33: "x\rECHC" in a weapon name made the copied palette 21 lines, each a rollable command
    context, page, problems, outside = _open(browser, site_url + PAGES["gundam-sentinel"])
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    page.evaluate("navigator.clipboard.writeText('clipboard before')")
    toml = page.locator(".widget-textarea textarea").first
    zaku = sheets.export(sheets.get("gundam-sentinel", "zaku-ii"), "toml")
    toml.fill(zaku.replace('name = "Zaku machine gun"', f'name = "x{written}ECHC injected"'))
    toml.press("Tab")  # continuous_update is off: the change is sent on blur
    refusal = page.locator(".calculator-error", has_text=f"weapons[1].name holds {code} (a line break)").first
    refusal.wait_for(timeout=20_000)
    palette = page.locator("button.rules-lib-copy[data-copies='rules-lib-palette']")
    assert palette.count() == 1 and palette.first.is_disabled()
    palette.first.click(force=True)  # a disabled button does nothing, even when clicked
    assert page.locator("pre.rules-lib-palette").count() == 0
    assert page.evaluate("navigator.clipboard.readText()") == "clipboard before"
    assert problems == [] and outside == []
    context.close()


@pytest.mark.parametrize("system, command", [("wis6", "SL<=13"), ("nemesis", "AD[34(5)]"),
                                             ("nemesis", "OP1>3"), ("verse-world", "VW+8@11")])
def test_the_new_dice_commands_roll_on_a_click(browser, site_url, system, command):  # noqa: F811
    context, page, problems, outside = _open(browser, site_url + PAGES[system])
    dice = page.locator("code.rules-lib-dice", has_text=command)
    assert dice.count() >= 1, f"{command} is not a clickable die on {PAGES[system]}"
    dice.first.click()
    shown = dice.first.locator("xpath=following-sibling::span[contains(@class, 'rules-lib-roll')][1]")
    page.wait_for_function("el => el.textContent.includes('→') || el.textContent.includes('✗')",
                           arg=shown.element_handle(), timeout=60_000)
    assert shown_text(shown).strip().startswith(f"→ {command}")
    assert problems == [] and outside == []
    context.close()
