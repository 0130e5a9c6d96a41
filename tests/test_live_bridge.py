"""The Python half of the live calculators, run here in CPython as Pyodide runs it in the browser."""

import json
import sys

import pytest

from rules_lib.browser import (
    LIVE_PREFIX,
    LiveCalculator,
    calculator_names,
    install_ipython_stand_in,
    live_class,
)
from rules_lib.widgets import DiceOddsCalculator

DOTTED = "rules_lib.widgets.dice_odds:DiceOddsCalculator"


def test_calculators_name_their_class_in_a_dom_class():
    calculator = DiceOddsCalculator()
    assert live_class(DiceOddsCalculator) == LIVE_PREFIX + DOTTED
    assert LIVE_PREFIX + DOTTED in calculator._dom_classes


def test_shape_pairs_the_widget_tree_depth_first():
    assert LiveCalculator(DOTTED).shape() == ["VBoxModel", "TextModel", "HTMLModel"]


def test_reader_input_returns_the_recomputed_result():
    live = LiveCalculator(DOTTED)
    changes = dict(json.loads(live.set_input(1, json.dumps({"value": "3D6>=12"}))))
    assert "success 3/8 (37.50%)" in changes[2]["value"]
    assert json.loads(live.set_input(1, json.dumps({"value": "3D6>=12"}))) == []  # nothing new


def test_load_takes_the_pages_stored_inputs():
    live = LiveCalculator(DOTTED)
    changes = dict(json.loads(live.load(json.dumps([{}, {"value": "2D6+"}, {}]))))
    assert "position 5" in changes[2]["value"]


def test_ipython_stand_in_is_only_installed_where_ipython_is_missing():
    real = sys.modules["IPython"]
    install_ipython_stand_in()
    assert sys.modules["IPython"] is real


def test_inline_dice_roll_shows_the_total_or_the_error():
    from rules_lib.browser import roll_inline
    from rules_lib.dice import odds

    rolled = json.loads(roll_inline("3D6+3"))
    assert rolled["ok"] and rolled["total"] in odds("3D6+3").distribution.support
    assert rolled["line"] == f"3D6+3 = {rolled['total']}"
    refused = json.loads(roll_inline("2D6+"))
    assert not refused["ok"] and "position 5" in refused["line"]


def test_a_prebuilt_calculator_is_taken_once_and_untouched():
    from rules_lib import browser

    named = json.dumps([DOTTED, "rules_lib.widgets.base:Calculator", "os:system"])
    assert browser.prebuild_calculators(named) == [DOTTED]  # names that are no live calculator are skipped
    assert browser.prebuild_calculators(named) == []  # one of each, until taken
    prebuilt = browser._PREBUILT[DOTTED]
    first, second = LiveCalculator(DOTTED), LiveCalculator(DOTTED)
    assert first.root is prebuilt and second.root is not prebuilt  # a second calculator is its own
    assert DOTTED not in browser._PREBUILT
    # the prebuilt one computes as a new one does
    changes = dict(json.loads(first.set_input(1, json.dumps({"value": "3D6>=12"}))))
    assert "success 3/8 (37.50%)" in changes[2]["value"]


def _applied(changes: list, states: list[dict]) -> list[dict]:
    """The page's widget states after it applies ``changes`` in order."""
    states = [dict(state) for state in states]
    for index, delta in changes:
        states[index].update(delta)
    return states


def test_a_calculator_preloaded_with_the_pages_inputs_answers_its_load_as_a_new_one_would():
    from rules_lib import browser

    stored = [{}, {"value": "4D6>=14"}, {"value": "(stored)"}]
    stored_json = json.dumps({DOTTED: stored})
    fresh = LiveCalculator(DOTTED)
    expected = json.loads(fresh.load(json.dumps(stored)))
    assert browser.prebuild_calculators(json.dumps([DOTTED]), stored_json) == [DOTTED]
    preloaded = LiveCalculator(DOTTED)
    assert preloaded.preloaded is not None
    assert json.loads(preloaded.load(json.dumps(stored))) == expected and preloaded.answered_from_preload
    # a prebuilt calculator is loaded too, once; other inputs than the preloaded ones are applied after
    browser.prebuild_calculators(json.dumps([DOTTED]))
    browser.prebuild_calculators(json.dumps([DOTTED]), stored_json)
    other = [{}, {"value": "2D6>=9"}, {"value": "(stored)"}]
    late = LiveCalculator(DOTTED)
    changes = json.loads(late.load(json.dumps(other)))
    assert not late.answered_from_preload
    new = LiveCalculator(DOTTED)
    assert _applied(changes, other) == _applied(json.loads(new.load(json.dumps(other))), other)
    assert _applied(changes, other)[1]["value"] == "2D6>=9"


def test_a_calculator_whose_wheel_is_refused_raises_that_error_when_the_page_asks_for_it(monkeypatch):
    from rules_lib import browser

    def wheel_refused(dotted):
        raise ImportError("the wheel icepool does not match the build's digest")

    monkeypatch.setattr(browser, "calculator_class", wheel_refused)
    # the error is kept, and raised when the page asks for the calculator
    assert browser.prebuild_calculators(json.dumps([DOTTED])) == [DOTTED]
    with pytest.raises(ImportError, match="does not match the build's digest"):
        LiveCalculator(DOTTED)
    assert DOTTED not in browser._PREBUILT


def test_the_snapshot_starts_with_every_calculator_module_and_names_the_calculators_to_build():
    from rules_lib import browser

    order = browser.prepare_snapshot()
    assert sorted(order) == sorted(browser.calculator_names())
    assert all(module in sys.modules for module in browser.calculator_modules())
    # the calculators first, then the guided battles, then the table sheets
    kinds = ["sheet" if name.startswith("rules_lib.widgets.sheets:") else
             "battle" if name.partition(":")[0].endswith("_battle") else "calculator" for name in order]
    assert kinds == sorted(kinds, key=["calculator", "battle", "sheet"].index) and set(kinds) == {"calculator", "battle", "sheet"}


def test_each_calculator_module_is_in_one_snapshot_group_and_a_group_names_its_calculators():
    from rules_lib import browser

    groups = browser.snapshot_groups()
    held = [module for modules in groups.values() for module in modules if module in browser.calculator_modules()]
    assert sorted(held) == sorted(browser.calculator_modules())  # each once
    assert [group for group, modules in groups.items() if browser.ROLLING_MODULE in modules] == ["dice_odds"]
    for group, modules in groups.items():
        names = browser.prepare_snapshot(group)
        assert names and {name.partition(":")[0] for name in names} <= set(modules), group
        assert all(module in sys.modules for module in modules)


def test_a_closed_calculator_leaves_no_widget_open():
    """The shared worker closes a page's calculators when it leaves: ipywidgets keeps every open widget."""
    from ipywidgets.widgets.widget import _instances

    for dotted in calculator_names():
        before = set(_instances)
        calculator = LiveCalculator(dotted)
        assert set(_instances) - before, f"{dotted} made no widget"
        calculator.close()
        assert set(_instances) == before, f"{dotted} left widgets open"
        calculator.close()  # twice is harmless (a page that leaves again)


def test_a_calculator_let_go_unclosed_leaves_orphan_widgets_and_a_closed_one_none():
    from rules_lib import browser

    dotted = "rules_lib.widgets.verse_world:MpEndurance"
    before = browser.orphan_widgets()
    calculator = LiveCalculator(dotted)
    assert browser.orphan_widgets() == before  # in use
    calculator.close()
    del calculator
    assert browser.orphan_widgets() == before
    calculator = LiveCalculator(dotted)
    made = len(browser._widget_graph(calculator.root))
    del calculator  # what the worker did before it closed them
    assert browser.orphan_widgets() == before + made
