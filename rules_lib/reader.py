"""Values in words for the reader: what the book prints and tabulates, never Python's repr.

A list or tuple reads as its items joined by commas, a mapping as ``key: value`` pairs, ``None``
as a dash, a truth value as yes or no (issue 34: no raw Python in reader-facing output).
:class:`OddsTable` is a distribution the book shows: an HTML table with bars in a notebook and on
the site, aligned lines when printed.
"""

from __future__ import annotations

import html
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from . import checks

#: what an absent value (``None``: the text gives none, a dash in the source's tables) reads as
ABSENT = "−"
#: the bar column's header: named for a screen reader (a header needs a name), drawn as nothing, since
#: the bars themselves say what they are
_HIDDEN_BAR_LABEL = ("<span style='position:absolute;width:1px;height:1px;overflow:hidden;"
                     "clip:rect(0 0 0 0);white-space:nowrap'>bar</span>")


def reader_text(value: object) -> str:
    """``value`` in words: items joined by commas, ``key: value`` pairs, a dash for ``None``."""
    if value is None:
        return ABSENT
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{_key_text(key)}: {_nested(item)}" for key, item in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return ", ".join(_nested(item) for item in items) if items else "none"
    return str(value)


def _key_text(key: object) -> str:
    # a data file's keys (level_1, right_arm) read as words
    return key.replace("_", " ") if isinstance(key, str) else reader_text(key)


def _nested(value: object) -> str:
    # a list inside a list or a mapping is bracketed so that its commas stay its own
    text = reader_text(value)
    return f"({text})" if isinstance(value, (list, tuple, set, frozenset, Mapping)) and value else text


def _chance_rows(rows: object) -> tuple[tuple[Hashable, Fraction], ...]:
    """The rows as (outcome, exact chance) pairs, refusing anything else with a reason."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        raise TypeError(f"the rows of a table of chances are (outcome, chance) pairs, not {type(rows).__name__}")
    checked = tuple(rows)
    for row in checked:
        if not (isinstance(row, tuple) and len(row) == 2 and isinstance(row[1], (int, Fraction))
                and not isinstance(row[1], bool) and 0 <= row[1] <= 1):
            raise ValueError(f"a row of a table of chances is an outcome and a chance from 0 to 1, not {type(row).__name__}"
                             f" {checks.shown(row)}")
    return checked


def distribution_table(rows: Iterable[tuple[Hashable, Fraction]], outcome_label: str = "result") -> str:
    """An HTML table of outcome, exact fraction, percentage and a bar scaled to the largest chance."""
    # numerators and denominators as plain integers: a long table (200 rows of 150-digit fractions)
    # costs a fraction's arithmetic per row otherwise; the percentages and bars are drawn from floats
    checks.text(outcome_label, "outcome label")
    rows = [(outcome, p.numerator, p.denominator, p.numerator / p.denominator) for outcome, p in _chance_rows(rows)]
    if not rows:
        return "<p>(no outcomes)</p>"
    largest = max(share for *_, share in rows) or 1.0
    body = "".join(
        "<tr>"
        f"<td style='text-align:right;padding:0 0.6em'>{outcome if type(outcome) is int else html.escape(reader_text(outcome))}</td>"
        f"<td style='text-align:right;padding:0 0.6em'>{n if d == 1 else f'{n}/{d}'}</td>"
        f"<td style='text-align:right;padding:0 0.6em'>{share * 100:.2f}%</td>"  # percent(): float(p) is n / d
        f"<td><div style='background:#5c6bc0;height:0.8em;width:{share / largest * 12:.2f}em'></div></td>"
        "</tr>"
        for outcome, n, d, share in rows
    )
    return (
        "<table class='odds-table'><thead><tr>"
        f"<th>{html.escape(outcome_label)}</th><th>chance</th><th>%</th><th>{_HIDDEN_BAR_LABEL}</th>"
        f"</tr></thead><tbody>{body}</tbody></table>"
    )


@dataclass(frozen=True)
class OddsTable:
    """A distribution as the reader sees it: each outcome, its exact chance and its percentage."""

    rows: tuple[tuple[Hashable, Fraction], ...]
    outcome_label: str = "result"

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", _chance_rows(self.rows))
        checks.text(self.outcome_label, "outcome label")

    def __str__(self) -> str:
        outcomes = [reader_text(outcome) for outcome, _ in self.rows]
        width = max((len(text) for text in outcomes), default=0)
        return "\n".join(f"{text:>{width}}  {p}  ({float(p) * 100:.2f}%)" for text, (_, p) in zip(outcomes, self.rows, strict=True))

    def _repr_html_(self) -> str:
        return distribution_table(self.rows, self.outcome_label)

    __repr__ = __str__


def odds_table(distribution: Mapping[Hashable, Fraction], outcome_label: str = "result") -> OddsTable:
    """The reader's table of a distribution (outcome to exact chance), in the mapping's order."""
    items = getattr(distribution, "items", None)
    if not callable(items):
        raise TypeError(f"a table of chances needs a mapping of outcome to chance, not {type(distribution).__name__}")
    return OddsTable(tuple(items()), outcome_label)
