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

from ..battle import IllegalStep, log_html, step
from ..dice import SeededDice
from ..live import live_class
from .layout import LABEL_STYLE, inline_row
from .render import WorkedExample, error_line, example_line

#: the largest seed a battle's seed input takes
SEED_MAX = 1_000_000


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

    #: the example the calculator is preset with: a line under the result names it and says whether
    #: the inputs shown are that example (`rules_lib.widgets.render.example_line`); None: no line
    example: WorkedExample | None = None

    def __init__(self, inputs: list[widgets.Widget]) -> None:
        self.result = widgets.HTML()
        self.error: str | None = None
        # the example's figures are computed once: they do not follow the inputs
        self.example_view = widgets.HTML() if self.example is not None else None
        self._example_figures = self.example.figures(**self.example.inputs) if self.example is not None else ""
        super().__init__([*inputs, self.result, *([self.example_view] if self.example_view else [])])
        for widget in inputs:
            widget.observe(self._update, names="value")
        self._update()

    def example_inputs(self) -> dict[str, object]:
        """The current value of each input the example sets (by attribute name)."""
        return {name: getattr(self, name).value for name in (self.example.inputs if self.example else {})}

    def _update(self, change: object = None) -> None:
        if self.example_view is not None:
            self.example_view.value = example_line(self.example, self.example_inputs(), self._example_figures)
        try:
            html_text = self._compute()
        except ValueError as error:
            self.error = str(error)
            self._clear()
            self.result.value = self._error_html(self.error)
            return
        self.error = None
        self.result.value = html_text

    def _compute(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must define _compute()")

    def _clear(self) -> None:
        """Forget the results of the last good input (nothing by default)."""

    def _error_html(self, message: str) -> str:
        """What shows in place of the result when the input is refused: the reason."""
        return error_line(message)


class BattleCalculator(Calculator):
    """A guided battle played with buttons: ``do(action)`` applies one step of the system's battle.

    The shared scaffolding is built here: the seed input and the new-battle button on the first
    row, the status line, the subclass's ``rows`` of controls, then the board, the unit table
    (``units=True``), the odds, the message and the log. Every step is the engine's
    (:func:`rules_lib.battle.step`); a subclass sets ``start`` (a new battle's state), builds its controls, calls
    ``super().__init__(seed, rows)`` and defines ``_show(message_html)`` to redraw after a step,
    usually through :meth:`_show_common`. An illegal action is refused with its reason in
    ``message`` and changes nothing.
    """

    start: Callable[[], object]
    #: the opening line of a new battle, after "a new battle" (``: roll initiative``)
    opening: str = ""

    def __init__(self, seed: int, rows: list[widgets.Widget], *, units: bool = True,
                 new_battle_tooltip: str = "start again with this seed") -> None:
        self.seed = widgets.BoundedIntText(value=seed, min=0, max=SEED_MAX, description=f"seed (0 to {SEED_MAX:,})",
                                           style=LABEL_STYLE, layout=inline_row("20em"))
        self.new_battle = widgets.Button(description="New battle", tooltip=new_battle_tooltip)
        self.status, self.board, self.odds, self.message, self.log_view = (widgets.HTML() for _ in range(5))
        self.units = widgets.HTML() if units else None
        self.state = type(self).start()
        self.dice = SeededDice(seed)
        self.last = None
        shown = [self.board, *([self.units] if units else []), self.odds, self.message, self.log_view]
        super().__init__([widgets.HBox([self.seed, self.new_battle]), self.status, *rows, *shown])
        self.new_battle.on_click(lambda _: self.reset())

    def reset(self) -> None:
        """A new battle with the seed input's dice."""
        self.state, self.dice, self.last = type(self).start(), SeededDice(self.seed.value), None
        self._started(f"a new battle with seed {self.seed.value}")

    def _started(self, head: str) -> None:
        self._show(f"{head}{self.opening}")

    def do(self, action):
        """Apply one action; an illegal one is refused with its reason and changes nothing."""
        try:
            result = step(self.state, action, self.dice)
        except IllegalStep as error:
            self.message.value = error_line(f"refused: {error}")
            return None
        self.state, self.last = result.state, result
        self._show(self._explanation_html(result))
        return result

    def _show_common(self, status: str, board: str | None, units: str | None, message: str) -> None:
        """Redraw what every battle shows: status line, board, unit table, message and log."""
        self.status.value = f"<p><b>{html.escape(status)}</b></p>"
        if board is not None:
            self.board.value = board
        if units is not None and self.units is not None:
            self.units.value = units
        self.message.value = message
        self.log_view.value = "<details><summary>battle log</summary>" + log_html(self.state.log) + "</details>"

    def _actor(self) -> str:
        """The name of the unit whose turn it is (``""`` when none is acting)."""
        return self.state.actor or ""

    @staticmethod
    def _options(dropdown: widgets.Dropdown, names: list[str]) -> None:
        """Offer ``names`` in ``dropdown`` (the acting unit's weapons), the first chosen when they change."""
        if list(dropdown.options) != names:
            dropdown.options = names
            dropdown.value = names[0]

    @staticmethod
    def _explanation_html(result) -> str:
        return "<br>".join(html.escape(line) for line in result.explanation)

    def _show(self, message: str) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define _show()")
