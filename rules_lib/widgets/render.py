"""HTML for calculator results: a table with bars, so no plotting library is needed."""

from __future__ import annotations

import html
from collections.abc import Hashable, Iterable
from fractions import Fraction


def distribution_table(rows: Iterable[tuple[Hashable, Fraction]], outcome_label: str = "result") -> str:
    """An HTML table of outcome, exact fraction, percentage and a bar scaled to the largest chance."""
    # numerators and denominators as plain integers: a long table (200 rows of 150-digit fractions)
    # costs a fraction's arithmetic per row otherwise; the percentages and bars are drawn from floats
    rows = [(outcome, p.numerator, p.denominator, p.numerator / p.denominator) for outcome, p in rows]
    if not rows:
        return "<p>(no outcomes)</p>"
    largest = max(share for *_, share in rows) or 1.0
    body = "".join(
        "<tr>"
        f"<td style='text-align:right;padding:0 0.6em'>{outcome if type(outcome) is int else html.escape(str(outcome))}</td>"
        f"<td style='text-align:right;padding:0 0.6em'>{n if d == 1 else f'{n}/{d}'}</td>"
        f"<td style='text-align:right;padding:0 0.6em'>{share * 100:.2f}%</td>"  # percent(): float(p) is n / d
        f"<td><div style='background:#5c6bc0;height:0.8em;width:{share / largest * 12:.2f}em'></div></td>"
        "</tr>"
        for outcome, n, d, share in rows
    )
    return (
        "<table class='odds-table'><thead><tr>"
        f"<th>{html.escape(outcome_label)}</th><th>chance</th><th>%</th><th></th>"
        f"</tr></thead><tbody>{body}</tbody></table>"
    )


def error_line(message: str) -> str:
    return f"<p class='calculator-error' style='color:#b71c1c'>{html.escape(message)}</p>"
