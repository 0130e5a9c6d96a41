"""What a reader does before Python is live is kept and answered once it is (issue 34, item 2).

Each page is opened with Python held back (its Pyodide files are not served until the test lets
them through), the reader changes inputs on the stored widgets (typing a number, ticking a box,
choosing from a list, pressing a battle's buttons), the status line says the change is kept, and
once Python is live the calculator shows the typed inputs and exactly what CPython's rules_lib
computes for them, the buttons' presses replayed in order.

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
HELD = "**/vendor/pyodide/**"
KEPT = "Your change is kept; it is answered when the calculator is live."

#: page, calculator class, and what the reader does before it is live, in order:
#: ("type", description, value), ("tick", description), ("choose", description, option) or ("press", button)
CASES = {
    "wis6/07-calculators/": ("rules_lib.widgets.wis6:AttackCalculator", [
        ("type", "attack ability (実弾/ＥＮ) (1 to 999)", 33), ("tick", "covering (カバーリング): armour halved"),
        ("choose", "an odd value halved rounds (a ruling)", "up")]),
    "gundam-sentinel/07-calculators/": ("rules_lib.widgets.gundam_sentinel:ToHitCalculator", [
        ("type", "weapon modifier at this range (-20 to 40)", 20)]),
    "nemesis/07-calculators/": ("rules_lib.widgets.nemesis:ArmourCalculator", [
        ("type", "armour value (装甲値) (0 to 40)", 9), ("tick", "melee weapon: attenuation (減衰値) does not apply")]),
    "verse-world/08-calculators/": ("rules_lib.widgets.verse_world:MpEndurance", [
        ("type", "starting MP (0 to 200)", 10), ("choose", "MP lost each turn", "mecha MP 1D6 a turn (vernier, magic board)")]),
    "wis6/06-first-battle/": ("rules_lib.widgets.wis6_battle:FirstBattle", [
        ("type", "seed (0 to 1,000,000)", 7), ("press", "New battle"), ("press", "Roll order")]),
}


def _held_page(browser, url):  # noqa: F811
    """A page whose Python cannot start until `_release`: its Pyodide requests wait in the list."""
    page = with_dedicated_python(browser.new_page())
    held, problems = [], []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    def hold(route):
        if held and held[0] == "released":
            route.continue_()
        else:
            held.append(route)

    page.route(HELD, hold)
    page.goto(url, wait_until="load")
    return page, held, problems


def _release(page, held) -> None:
    waiting = list(held)
    held[:] = ["released"]  # what is asked from now on goes through at once
    for route in waiting:
        route.continue_()


def _row(page, area, description):
    """The widget row (or button) whose description is exactly this, inside the calculator's area."""
    return area.locator(".widget-inline-hbox, .widget-checkbox").filter(
        has=page.get_by_text(description, exact=True)).first


def _do(page, area, action) -> None:
    kind, description, *value = action
    if kind == "type":
        field = _row(page, area, description).locator("input")
        field.fill(str(value[0]))
        field.press("Tab")  # a number is taken when the field loses focus, as ipywidgets does
    elif kind == "tick":
        _row(page, area, description).locator("input[type=checkbox]").check()
    elif kind == "choose":
        _row(page, area, description).locator("select").select_option(label=value[0])
    else:
        area.locator("button.widget-button", has_text=description).first.click()


def _cpython(dotted, stored_states, actions):
    """The same calculator in CPython: the stored inputs loaded, then the reader's actions in order."""
    from rules_lib.browser import LiveCalculator

    python = LiveCalculator(dotted)
    python.load(json.dumps([{k: s[k] for k in ("value", "index") if s[k] is not None} for s in stored_states]))
    by_description = {getattr(w, "description", None): i for i, w in enumerate(python.widgets)}
    for kind, description, *value in actions:
        index = by_description[description]
        widget = python.widgets[index]
        if kind == "type":
            python.set_input(index, json.dumps({"value": value[0]}))
        elif kind == "tick":
            python.set_input(index, json.dumps({"value": True}))
        elif kind == "choose":
            python.set_input(index, json.dumps({"index": list(widget._options_labels).index(value[0])}))
        else:
            python.click(index, json.dumps({"event": "click"}))
    return python


@pytest.mark.parametrize("page_path", sorted(CASES))
def test_changes_made_before_python_is_live_are_kept_and_answered(browser, site_url, page_path):  # noqa: F811
    dotted, actions = CASES[page_path]
    page, held, problems = _held_page(browser, site_url + page_path)
    index = page.evaluate(f"window.rulesLibLive.classes.indexOf({json.dumps(dotted)})")
    assert index >= 0, f"{dotted} is not on {page_path}"
    stored = page.evaluate(f"window.rulesLibLive.states({index})")
    status = page.locator(".rules-lib-live-status").nth(index)
    area = page.locator(".rules-lib-live-status + .widget-subarea").nth(index)
    area.locator("input, button").first.wait_for(timeout=30_000)  # the stored widgets are drawn
    # the worker asks for Pyodide once it has checked the manifest: on a loaded machine that can come
    # after the stored widgets are drawn
    for _ in range(300):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the test held back no Pyodide request: Python was not kept from starting"

    for action in actions:
        _do(page, area, action)
    assert page.evaluate("window.rulesLibLive.status") == "starting", "Python went live while held back"
    status.scroll_into_view_if_needed()
    assert status.inner_text() == KEPT

    _release(page, held)
    page.wait_for_function("window.rulesLibLive.status !== 'starting'", timeout=120_000)
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    page.evaluate("window.rulesLibLive.pending")  # the replayed changes answered
    python = _cpython(dotted, stored, actions)
    expected = [w.get_state().get("value") for w in python.widgets]
    same = ("([i, expected]) => JSON.stringify(window.rulesLibLive.states(i).map((s) => s.value ?? null))"
            " === JSON.stringify(JSON.parse(expected))")
    try:  # the replayed changes are answered one message each
        page.wait_for_function(same, arg=[index, json.dumps(expected)], timeout=20_000)
    except Exception:  # noqa: BLE001 - the comparison below names what differs
        pass
    shown = page.evaluate(f"window.rulesLibLive.states({index})")
    assert [s["value"] for s in shown] == expected, f"{dotted}: the live result is not rules_lib's for the inputs shown"
    assert [s["value"] for s in shown] != [s["value"] for s in stored], "the reader's changes changed nothing"
    for kind, description, *value in actions:  # the typed values are still what the fields show
        if kind == "type":
            assert _row(page, area, description).locator("input").input_value() == str(value[0])
    assert status.inner_text().startswith("Live")
    assert problems == []
    page.close()
