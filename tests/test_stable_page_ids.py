"""Two builds of one notebook page write the same HTML (issue 34): nbconvert's random output ids
are renamed after their cells (tools/mkdocs_hooks.py, ``stable_output_ids``), so the "Skip to the
calculator" link's target can be bookmarked."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from mkdocs_hooks import SKIP_TO_CALCULATOR, stable_output_ids  # noqa: E402

UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
#: a notebook whose calculators are widget outputs
NOTEBOOK = ROOT / "book" / "wis6" / "07-calculators.ipynb"


def page(first: str, second: str, third: str) -> str:
    """A converted notebook's body as nbconvert writes it, with the given output ids."""
    output = ('<div class="jupyter-widgets jp-OutputArea-output" id="{0}">\n<script type="text/javascript">\n'
              "var element = document.getElementById('{0}');\n</script></div>\n")
    return ('<div class="jp-Cell" id="cell-id=aa11">' + output.format(first) + output.format(second) + "</div>"
            '<div class="jp-Cell" id="cell-id=bb22">' + output.format(third) + "</div>")


def test_each_output_is_named_after_its_cell_and_every_mention_follows():
    ids = ["0b8a051b-d462-4c4a-a0ed-08a0f44862ef", "160cc522-05af-451c-9fdb-32a7df0ea6bd",
           "6ed54b34-9842-41ff-853b-0624d9017079"]
    renamed = stable_output_ids(page(*ids))
    assert not UUID4.search(renamed)
    assert renamed == page("cell-aa11-output-1", "cell-aa11-output-2", "cell-bb22-output-1")


def test_two_conversions_with_different_random_ids_become_one():
    first = page("0b8a051b-d462-4c4a-a0ed-08a0f44862ef", "160cc522-05af-451c-9fdb-32a7df0ea6bd",
                 "6ed54b34-9842-41ff-853b-0624d9017079")
    second = page("aaf44e51-3b02-404f-bd3a-57d2ae9ed918", "e1c84e26-7c19-4384-9667-0d69e095f57d",
                  "fa24e0c1-0d5e-4b8a-9f3e-0123456789ab")
    assert first != second
    assert stable_output_ids(first) == stable_output_ids(second)


def test_a_page_without_random_ids_is_left_as_it_is():
    html = '<div class="jp-Cell" id="cell-id=aa11"><a href="#a-heading">x</a></div>'
    assert stable_output_ids(html) is html


def test_two_conversions_of_a_notebook_page_give_the_same_html():
    from mkdocs_jupyter.nbconvert2 import nb2html

    first, second = nb2html(str(NOTEBOOK)), nb2html(str(NOTEBOOK))
    assert UUID4.search(first), "nbconvert names outputs otherwise now: this test no longer tests anything"
    assert first != second
    assert stable_output_ids(first) == stable_output_ids(second)


def test_the_built_page_s_skip_link_leads_to_a_cell_s_output(site_dir):
    html = (site_dir / "wis6" / "07-calculators" / "index.html").read_text(encoding="utf-8")
    target = re.search(rf'<a href="#([^"]+)" class="md-skip rules-lib-skip">{SKIP_TO_CALCULATOR}</a>', html)
    assert target, "the page has no skip link to its calculator"
    assert re.fullmatch(r"cell-[0-9a-f]+-output-\d+", target.group(1))
    assert f'id="{target.group(1)}"' in html
    assert not UUID4.search(html)
