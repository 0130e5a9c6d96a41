"""The base of every calculator: a VBox that the published site can bring to life.

A subclass builds its widgets in ``__init__`` (every argument with a default, so the
browser can construct it), calls ``super().__init__(children)`` and observes its inputs.
The site pairs the Python widget tree with the page's stored one, so the children must
keep their shape: values change, widgets are not added or removed after construction.
Results are shown in ``HTML`` widgets (not ``Output``, which needs a Jupyter kernel).
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from ..battle import IllegalStep
from ..browser import live_class
from .render import error_line


class Calculator(widgets.VBox):
    """A calculator widget whose class the site's live runtime can construct (``rules_lib.browser``)."""

    def __init__(self, children=(), **kwargs) -> None:
        super().__init__(children, **kwargs)
        self.add_class(live_class(type(self)))


class FormCalculator(Calculator):
    """A calculator made of input widgets and one ``HTML`` result, recomputed on every change.

    Subclasses build their inputs, pass them to ``__init__`` and define ``_compute()``, which
    returns the result's HTML from one library call. A ``ValueError`` (bad input) is shown in
    place of the result; ``_clear()`` may drop what the last good input computed.
    """

    def __init__(self, inputs: list[widgets.Widget]) -> None:
        self.result = widgets.HTML()
        self.error: str | None = None
        super().__init__([*inputs, self.result])
        for widget in inputs:
            widget.observe(self._update, names="value")
        self._update()

    def _update(self, change: object = None) -> None:
        try:
            html_text = self._compute()
        except ValueError as error:
            self.error = str(error)
            self._clear()
            self.result.value = error_line(self.error)
            return
        self.error = None
        self.result.value = html_text

    def _compute(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must define _compute()")

    def _clear(self) -> None:
        """Forget the results of the last good input (nothing by default)."""


class BattleCalculator(Calculator):
    """A guided battle played with buttons: ``do(action)`` applies one step of the system's battle.

    A subclass sets ``step`` (its system's ``battle.step``), keeps ``state``, ``dice``, ``last`` and
    a ``message`` HTML widget, and defines ``_show(message_html)`` to redraw after a step. An
    illegal action is refused with its reason in ``message`` and changes nothing.
    """

    step: Callable
    message: widgets.HTML

    def do(self, action):
        """Apply one action; an illegal one is refused with its reason and changes nothing."""
        try:
            result = type(self).step(self.state, action, self.dice)
        except IllegalStep as error:
            self.message.value = error_line(f"refused: {error}")
            return None
        self.state, self.last = result.state, result
        self._show(self._explanation_html(result))
        return result

    @staticmethod
    def _explanation_html(result) -> str:
        return "<br>".join(html.escape(line) for line in result.explanation)

    def _show(self, message: str) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define _show()")
