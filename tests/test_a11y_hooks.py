"""The site hooks' accessibility fixes on every built page (issue 34): the search dialog has a name,
and the worked examples' value names may wrap after an underscore only.

Uses the site in $RULES_LIB_SITE_DIR (`make test` builds it beside these tests), else builds one.
The pages themselves are checked in a browser by axe-core (tests/test_browser_a11y.py) and for
split words (tests/test_browser_layout.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from mkdocs_hooks import SEARCH_DIALOG_NAME, SEARCH_DIALOG_NAME_JA, break_value_names_at_underscores  # noqa: E402


def test_every_page_names_its_search_dialog(site_dir):
    """In its edition's language."""
    pages = sorted(site_dir.glob("**/index.html"))
    def name(page: Path) -> str:
        return SEARCH_DIALOG_NAME_JA if page.relative_to(site_dir).parts[0] == "ja" else SEARCH_DIALOG_NAME
    unnamed = [str(page.relative_to(site_dir)) for page in pages
               if f'role="dialog" aria-label="{name(page)}"' not in page.read_text(encoding="utf-8")]
    assert len(pages) > 40 and unnamed == [], unnamed


def test_value_names_wrap_after_an_underscore_and_only_in_the_values_table():
    table = ('<table class="example-values"><tr><td><code>extra_check_if_through</code></td>'
             '<td><code>x</code></td></tr></table>')
    other = "<table><tr><td><code>not_a_value_name</code></td></tr></table>"
    assert break_value_names_at_underscores(table + other) == (
        '<table class="example-values"><tr><td><code>extra_<wbr>check_<wbr>if_<wbr>through</code></td>'
        '<td><code>x</code></td></tr></table>' + other)


def test_the_built_value_names_have_their_breaks(site_dir):
    page = (site_dir / "gundam-sentinel" / "05-damage-and-checks" / "index.html").read_text(encoding="utf-8")
    names = re.findall(r'<table class="example-values">.*?</table>', page, re.S)
    assert names and all("_<wbr>" in table for table in names if "_" in table)


_EMPTY_HEADER = re.compile(r"<th(?:\s[^>]*)?>\s*</th>")


def test_every_table_header_has_a_name(site_dir):
    """axe-core's empty-table-header: a header cell names its column or row (a corner is a ``<td>``)."""
    pages = sorted(site_dir.glob("**/index.html"))
    empty = {str(page.relative_to(site_dir)): len(found) for page in pages
             if (found := _EMPTY_HEADER.findall(page.read_text(encoding="utf-8")))}
    assert len(pages) > 40 and empty == {}, empty
