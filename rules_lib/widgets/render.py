"""HTML for calculator results: a table with bars, so no plotting library is needed."""

from __future__ import annotations

import html
from collections.abc import Hashable, Iterable
from fractions import Fraction

from ..dice import percent


def distribution_table(rows: Iterable[tuple[Hashable, Fraction]], outcome_label: str = "result") -> str:
    """An HTML table of outcome, exact fraction, percentage and a bar scaled to the largest chance."""
    rows = list(rows)
    if not rows:
        return "<p>(no outcomes)</p>"
    largest = max(p for _, p in rows) or Fraction(1)
    body = "".join(
        "<tr>"
        f"<td style='text-align:right;padding:0 0.6em'>{html.escape(str(outcome))}</td>"
        f"<td style='text-align:right;padding:0 0.6em'>{p}</td>"
        f"<td style='text-align:right;padding:0 0.6em'>{percent(p)}</td>"
        f"<td><div style='background:#5c6bc0;height:0.8em;width:{_ratio(p, largest) * 12:.2f}em'></div></td>"
        "</tr>"
        for outcome, p in rows
    )
    return (
        "<table class='odds-table'><thead><tr>"
        f"<th>{html.escape(outcome_label)}</th><th>chance</th><th>%</th><th></th>"
        f"</tr></thead><tbody>{body}</tbody></table>"
    )


def _ratio(p: Fraction, largest: Fraction) -> float:
    """``float(p / largest)`` without making the fraction: one correctly rounded integer division, the same float."""
    return (p.numerator * largest.denominator) / (p.denominator * largest.numerator)


def error_line(message: str) -> str:
    return f"<p class='calculator-error' style='color:#b71c1c'>{html.escape(message)}</p>"
