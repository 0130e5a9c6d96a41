"""No raw Python in what a reader sees (issue 34): no dataclass, tuple or dict reprs and no bare
``None`` in the book's stored outputs or in a calculator's messages.

The notebooks' stored outputs are what the site shows: stream text, ``text/html`` and
``text/markdown``, and ``text/plain`` only when no richer form exists; and the stored widget views,
drawn before the calculators come alive. A widget's ``text/plain`` (``VBox(children=...)``) is
skipped: the site shows the widget view, never that fallback.
The calculators are swept over the extremes of each input, and their result and refusal
message (``calculator.error``) are scanned the same way; each battle calculator's battle is played
by random legal walks, and every step's explanation and every refused action's reason are scanned.
"""

from __future__ import annotations

import html
import inspect
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest

import rules_lib.widgets.dice_odds
import rules_lib.widgets.gundam_sentinel
import rules_lib.widgets.gundam_sentinel_battle
import rules_lib.widgets.nemesis
import rules_lib.widgets.nemesis_battle
import rules_lib.widgets.sheets
import rules_lib.widgets.verse_world
import rules_lib.widgets.verse_world_battle
import rules_lib.widgets.wis6
import rules_lib.widgets.wis6_battle
from rules_lib.battle import IllegalStep
from rules_lib.dice import SeededDice
from rules_lib.gundam_sentinel import battle as gundam_sentinel_battle
from rules_lib.nemesis import battle as nemesis_battle
from rules_lib.verse_world import battle as verse_world_battle
from rules_lib.widgets.base import FormCalculator
from rules_lib.widgets.sheets import SheetCalculator
from rules_lib.wis6 import battle as wis6_battle

BOOK = Path(__file__).resolve().parents[1] / "book"
NOTEBOOKS = sorted(BOOK.rglob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

#: what Python's repr looks like, and a reader should never see
REPR_PATTERNS = {
    "a dataclass or call repr": re.compile(r"\b[A-Z]\w*\(\w+="),
    "a one-item tuple": re.compile(r"\(\d+,\)"),
    "a tuple of strings": re.compile(r"\('[^'\n]*',"),
    "a dict": re.compile(r"\{'[^'\n]*':|\{\d+: "),
    "a list of strings or tuples": re.compile(r"\['|\[\("),
    "None": re.compile(r"\bNone\b"),
}


def repr_found(text: str) -> list[str]:
    """Each repr in the text, named with a little of its context."""
    found = []
    for name, pattern in REPR_PATTERNS.items():
        for match in pattern.finditer(text):
            context = text[max(0, match.start() - 40):match.end() + 40]
            found.append(f"{name}: ...{context}...")
    return found


def shown_texts(notebook: Path) -> Iterator[tuple[int, str]]:
    """(cell number, text) of each stored output a reader sees on the site."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    for number, cell in enumerate(cells):
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                yield number, "".join(output["text"])
            elif output["output_type"] == "error":
                yield number, f"{output['ename']}: {output['evalue']}"
            elif output["output_type"] in {"execute_result", "display_data"}:
                data = output["data"]
                if WIDGET_VIEW in data:
                    continue
                richest = next((kind for kind in ("text/html", "text/markdown", "text/plain") if kind in data), None)
                if richest is not None:
                    text = "".join(data[richest])
                    yield number, html.unescape(text) if richest == "text/html" else text


def widget_texts(notebook: Path) -> Iterator[str]:
    """The text of each stored widget view the site draws before Python starts: HTML results,
    labels and the options of a menu."""
    metadata = json.loads(notebook.read_text(encoding="utf-8")).get("metadata", {})
    models = metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for model in models.values():
        state = model.get("state", {})
        for field in ("value", "description", "tooltip", "placeholder"):
            if isinstance(state.get(field), str):
                yield html.unescape(state[field])
        yield from state.get("_options_labels", ())


def test_the_scan_finds_a_planted_repr():
    planted = {"cells": [{"cell_type": "code", "outputs": [
        {"output_type": "stream", "name": "stdout", "text": ["Zaku II Pilot(perception=1, reaction=2)\n"]},
        {"output_type": "execute_result", "data": {"text/plain": ["{'air': None}"]}},
        {"output_type": "display_data", "data": {"text/html": ["<td>None</td>"], "text/plain": ["<table>"]}},
        {"output_type": "display_data", "data": {WIDGET_VIEW: {}, "text/plain": ["VBox(children=(HTML(value=''),))"]}},
        {"output_type": "stream", "name": "stdout", "text": ["fires on (1,)\n"]},
    ]}]}
    path = Path(__file__).with_name("planted.ipynb.tmp")
    try:
        path.write_text(json.dumps(planted), encoding="utf-8")
        found = [repr_found(text) for _, text in shown_texts(path)]
    finally:
        path.unlink()
    assert [len(each) > 0 for each in found] == [True, True, True, True]
    assert any("a dataclass" in line for line in found[0]) and any("a dict" in line for line in found[1])
    assert repr_found("Zaku II at (2, 8) facing north, 3/−/4/−, none of them") == []


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[str(path.relative_to(BOOK)) for path in NOTEBOOKS])
def test_no_repr_in_a_notebooks_shown_output(notebook):
    found = [f"cell {number}: {line}" for number, text in shown_texts(notebook) for line in repr_found(text)]
    found += [f"a stored widget view: {line}" for text in widget_texts(notebook) for line in repr_found(text)]
    assert found == []


def test_the_stored_widget_views_are_read():
    calculators = [path for path in NOTEBOOKS if path.stem.endswith("calculators")]
    assert calculators and all(any("<table" in text for text in widget_texts(path)) for path in calculators)


def _calculator_classes() -> list[type[FormCalculator]]:
    modules = (rules_lib.widgets.dice_odds, rules_lib.widgets.gundam_sentinel, rules_lib.widgets.nemesis,
               rules_lib.widgets.sheets, rules_lib.widgets.verse_world, rules_lib.widgets.wis6)
    return [cls for module in modules for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, FormCalculator) and cls.__module__ == module.__name__
            and cls not in (FormCalculator, SheetCalculator)]


def _inputs(widget: widgets.Widget) -> Iterator[widgets.ValueWidget]:
    if isinstance(widget, widgets.Box):
        for child in widget.children:
            yield from _inputs(child)
    elif isinstance(widget, (widgets.IntText, widgets.BoundedIntText, widgets.Text, widgets.Dropdown,
                             widgets.Checkbox, widgets.ToggleButtons, widgets.Textarea)):
        yield widget


#: text typed into a text input: empty, a word, numbers out of range, a stray bracket
TYPED_TEXT = ("", "x", "0", "-1", "999", "1D6", "(", "6,6")


def _values_to_try(widget: widgets.ValueWidget) -> list[object]:
    if isinstance(widget, widgets.BoundedIntText):
        return [widget.min, widget.max]
    if isinstance(widget, widgets.IntText):
        return [-1, 0, 999]
    if isinstance(widget, widgets.Checkbox):
        return [not widget.value]
    if isinstance(widget, (widgets.Dropdown, widgets.ToggleButtons)):
        return [value for _, value in widget.options] if widget.options and isinstance(widget.options[0], tuple) \
            else list(widget.options)
    return list(TYPED_TEXT)


CALCULATORS = _calculator_classes()


@pytest.mark.parametrize("calculator_class", CALCULATORS, ids=[cls.__qualname__ for cls in CALCULATORS])
def test_no_repr_in_a_calculators_result_or_refusal(calculator_class):
    calculator = calculator_class()
    found = []
    for widget in list(_inputs(calculator)):
        kept = widget.value
        for value in _values_to_try(widget):
            widget.value = value
            shown = f"{calculator.error or ''}\n{calculator.result.value}"
            found += [f"{widget.description}={value!r}: {line}" for line in repr_found(shown)]
        widget.value = kept
    assert found == []


#: each system's battle module and its calculator, which starts a new battle as the page does
BATTLES = {"gundam-sentinel": (gundam_sentinel_battle, rules_lib.widgets.gundam_sentinel_battle.FirstBattle),
           "nemesis": (nemesis_battle, rules_lib.widgets.nemesis_battle.FirstBattle),
           "verse-world": (verse_world_battle, rules_lib.widgets.verse_world_battle.FirstBattle),
           "wis6": (wis6_battle, rules_lib.widgets.wis6_battle.FirstBattle)}
#: random legal walks per system, each at most this many steps: enough to reach every phase
BATTLE_SEEDS, BATTLE_STEPS = (0, 1, 2), 200


@pytest.mark.parametrize("system", sorted(BATTLES))
def test_no_repr_in_a_battles_log_or_refusals(system):
    """A battle calculator shows each step's explanation and the reason an action is refused."""
    module, calculator = BATTLES[system]
    found, refusals = [], 0
    for seed in BATTLE_SEEDS:
        state, choose, dice = calculator.start(), random.Random(seed), SeededDice(seed)
        for _ in range(BATTLE_STEPS):
            actions = module.REFEREE.legal_actions(state)
            if not actions:
                break
            for action in module.REFEREE.candidates(state):
                try:
                    module.REFEREE.check(state, action)
                except IllegalStep as refusal:
                    refusals += 1
                    found += [f"refusal: {line}" for line in repr_found(str(refusal))]
            result = module.REFEREE.step(state, choose.choice(actions), dice)
            found += [f"log: {line}" for text in result.explanation for line in repr_found(text)]
            state = result.state
    assert refusals > 0 and sorted(set(found)) == []
