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
