"""What a calculator's HTML shows, as values: the rows of its tables, cell text only.

Widget tests assert these values (``["level 8", "1/20", "5.00%", ""]``), not the markup that
styles them, so a change of style never breaks a test and a wrong value always does.
"""

from __future__ import annotations

from html.parser import HTMLParser


class _Rows(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None and self.rows:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def table_rows(html: str) -> list[list[str]]:
    """Every table row of ``html`` (headers too), each a list of its cells' text."""
    parser = _Rows()
    parser.feed(html)
    return parser.rows


def row(html: str, first: str) -> list[str]:
    """The cells after the first of the (first) row whose first cell is ``first``."""
    for cells in table_rows(html):
        if cells and cells[0] == first:
            return cells[1:]
    raise AssertionError(f"no table row starts with {first!r}: {[cells[:1] for cells in table_rows(html)]}")
