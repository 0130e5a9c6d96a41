"""A calculator: type a dice expression, see its exact distribution (and success chance)."""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..dice import Odds, odds, percent
from .base import Calculator
from .layout import text_input
from .render import distribution_table, error_line


class DiceOddsCalculator(Calculator):
    """Exact odds of any dice expression of the notation (``rules_lib.dice.odds``)."""

    def __init__(self, expression: str = "2D6>=10") -> None:
        self.expression = text_input("dice expression", expression, placeholder="e.g. 2D6+3, 1D36, 3D6>=12")
        self.result = widgets.HTML()
        self.odds: Odds | None = None
        self.error: str | None = None
        super().__init__([self.expression, self.result])
        self.expression.observe(self._update, names="value")
        self._update()

    def _update(self, change: object = None) -> None:
        try:
            self.odds = odds(self.expression.value)
            self.error = None
        except ValueError as error:
            self.odds, self.error = None, str(error)
            self.result.value = error_line(self.error)
            return
        parts = [f"<p><b>{html.escape(self.odds.expression)}</b>"]
        if self.odds.success is not None:
            parts.append(f": success {self.odds.success} ({percent(self.odds.success)})")
        parts.append(f"; mean of the total {float(self.odds.distribution.mean()):.2f}</p>")
        parts.append(distribution_table(self.odds.distribution.items(), "total"))
        self.result.value = "".join(parts)
