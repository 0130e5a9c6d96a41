"""A calculator: type a dice expression, see its exact distribution (and success chance)."""

from __future__ import annotations

import html

from ..dice import Odds, odds, percent
from .base import FormCalculator
from .layout import text_input
from .render import distribution_table


class DiceOddsCalculator(FormCalculator):
    """Exact odds of any dice expression of the notation (``rules_lib.dice.odds``)."""

    def __init__(self, expression: str = "2D6>=10") -> None:
        self.expression = text_input("dice expression", expression, placeholder="e.g. 2D6+3, 1D36, 3D6>=12")
        self.odds: Odds | None = None
        super().__init__([self.expression])

    def _compute(self) -> str:
        self.odds = odds(self.expression.value)
        parts = [f"<p><b>{html.escape(self.odds.expression)}</b>"]
        if self.odds.success is not None:
            parts.append(f": success {self.odds.success} ({percent(self.odds.success)})")
        parts.append(f"; mean of the total {float(self.odds.distribution.mean()):.2f}</p>")
        parts.append(distribution_table(self.odds.distribution.items(), "total"))
        return "".join(parts)

    def _clear(self) -> None:
        self.odds = None
