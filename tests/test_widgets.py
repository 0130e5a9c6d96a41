from rules_lib.widgets import DiceOddsCalculator
from tests.html_values import row


def test_dice_odds_calculator_shows_exact_success():
    calculator = DiceOddsCalculator("2D6")
    calculator.expression.value = "2D6>=10"
    assert calculator.odds.success.numerator == 1 and calculator.odds.success.denominator == 6
    assert "success 1/6 (16.67%)" in calculator.result.value
    rows = dict(calculator.odds.distribution.items())
    assert rows[12] == rows[2] and str(rows[12]) == "1/36"
    assert row(calculator.result.value, "12")[0] == "1/36"


def test_dice_odds_calculator_shows_errors_in_place():
    calculator = DiceOddsCalculator()
    calculator.expression.value = "2D6+"
    assert calculator.odds is None
    assert "position 5" in calculator.result.value


# -- labels of every calculator and battle ----------------------------------------------------------

import importlib  # noqa: E402
import inspect  # noqa: E402
import pkgutil  # noqa: E402
import re  # noqa: E402

import ipywidgets  # noqa: E402
import pytest  # noqa: E402

import rules_lib.widgets  # noqa: E402
from rules_lib.widgets import Calculator  # noqa: E402

#: every calculator module of rules_lib.widgets (a new system's are found without an edit)
WIDGET_MODULES = sorted(m.name for m in pkgutil.iter_modules(rules_lib.widgets.__path__)
                        if m.name not in {"base", "layout", "render"})
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


def _calculator_classes():
    for name in WIDGET_MODULES:
        module = importlib.import_module(f"rules_lib.widgets.{name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Calculator) and cls.__module__ == module.__name__:
                yield pytest.param(cls, id=f"{name}.{cls.__name__}")


def _widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _widgets(child)


def _outside_parentheses(label: str) -> str:
    return re.sub(r"\([^()]*\)", "", label)


@pytest.mark.parametrize("cls", list(_calculator_classes()))
def test_labels_are_english_with_japanese_terms_in_parentheses(cls):
    """Each label and fixed choice reads in English; a Japanese term, where the rule names one, is in parentheses."""
    widgets = list(_widgets(cls()))
    descriptions = [w.description for w in widgets if getattr(w, "description", "")]
    choices = [str(label) for w in widgets if isinstance(w, ipywidgets.widgets.widget_selection._Selection)
               for label in w._options_labels]
    assert descriptions, f"{cls.__name__} has no labelled input"
    for label in descriptions + choices:
        assert not JAPANESE.search(_outside_parentheses(label)), (
            f"{cls.__name__}: {label!r} has Japanese outside parentheses")
    for label in descriptions:
        assert re.search(r"[A-Za-z]{2}", _outside_parentheses(label)), f"{cls.__name__}: {label!r} has no English"


# -- the example line under a calculator follows its inputs (issue 34, item 3) -----------------------

from rules_lib.widgets.base import FormCalculator  # noqa: E402
from rules_lib.widgets.render import example_line  # noqa: E402

EXAMPLE_CALCULATORS = [p for p in _calculator_classes()
                       if issubclass(p.values[0], FormCalculator) and p.values[0].example is not None]


def _other_value(widget):
    """Another allowed value of an input: the next number, the other state of a box, another option."""
    if isinstance(widget, ipywidgets.Checkbox):
        return not widget.value
    if isinstance(widget, ipywidgets.SelectMultiple):
        return widget.value[:-1]
    if isinstance(widget, (ipywidgets.Dropdown, ipywidgets.ToggleButtons)):
        values = [o[1] if isinstance(o, tuple) else o for o in widget.options]
        return next(value for value in values if value != widget.value)
    if isinstance(widget.value, str):
        return widget.value + "+1" if widget.value else "6"
    return widget.value + 1 if widget.max is None or widget.value < widget.max else widget.value - 1


def _text(html_text: str) -> str:
    import html as html_module

    return html_module.unescape(re.sub("<[^>]+>", "", html_text))


def test_every_example_line_is_shown_by_some_calculator():
    assert len(EXAMPLE_CALCULATORS) >= 4  # WIS6's four at least


@pytest.mark.parametrize("cls", EXAMPLE_CALCULATORS)
def test_the_example_line_says_whether_the_inputs_are_the_example(cls):
    calculator = cls()
    example = cls.example
    for name, value in example.inputs.items():
        getattr(calculator, name).value = value
    figures = example.figures(**example.inputs)
    shown = _text(calculator.example_view.value)
    whose = "The text's example" if example.from_text else "The book's example"
    assert shown == f"✓ {whose} ({example.source}): {figures}; your inputs are the example."
    assert calculator.example_view in calculator.children  # drawn under the calculator, live on the site
    result_at_example = calculator.result.value

    for name in example.inputs:  # each input changed on its own: the line says so, figures kept
        widget = getattr(calculator, name)
        before = widget.value
        widget.value = _other_value(widget)
        changed = _text(calculator.example_view.value)
        assert changed == (f"{whose} ({example.source}): {figures}; your inputs differ from the example: "
                           "the figures here are the example's, not your inputs'."), name
        widget.value = before
    assert calculator.result.value == result_at_example
    assert _text(calculator.example_view.value) == shown


def test_an_example_line_refuses_an_example_without_its_source():
    from rules_lib.widgets.render import WorkedExample

    with pytest.raises(ValueError, match="needs its source"):
        WorkedExample("", {}, lambda: "")
    with pytest.raises(TypeError, match="must be a function"):
        WorkedExample("001 §3-1", {}, "535/648")
    line = example_line(WorkedExample("001 §3-1", {"ability": 20}, lambda ability: f"ability {ability}"), {"ability": 33})
    assert "ability 20; your inputs differ from the example" in _text(line)
