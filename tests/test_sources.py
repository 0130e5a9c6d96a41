"""The source texts in the repository, their section index, and the citations of the book linked to them.

The site links every citation (``000 §7-1``, ``line 350``, and the older forms) to a line of
``sources/<code>/`` (``tools/citations.py``); these tests fail when a citation names a section that
is not a heading of its text, a line past its end, or a line with no text to read it in.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import citations  # noqa: E402


def _link(code: str, line: int | None) -> str:
    return f"/sources/{code}/" + (f"#L{line}" if line else "")


def _html(text: str) -> str:
    return markdown.markdown(text, extensions=["tables", "admonition"])


def _book_prose() -> list[tuple[str, str | None, str]]:
    """(where, default text, HTML) for every markdown cell, glossary and rulings part of the book."""
    found = []
    for path in sorted((ROOT / "book").glob("*/*.ipynb")):
        default = citations.CHAPTER_TEXT.get(path.parent.name)
        for number, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "markdown":
                found.append((f"{path.relative_to(ROOT)} cell {number}", default, _html("".join(cell["source"]))))
    for path in sorted((ROOT / "book").glob("*/_*.md")):
        # included into book/glossary.md and book/rulings.md, whose ``## <System>`` names the text
        found.append((str(path.relative_to(ROOT)), None, _html(path.read_text(encoding="utf-8"))))
    return found


@pytest.mark.parametrize(("code", "section", "line", "heading"), [
    ("000", "1", 19, "対ＭＳ戦闘"),
    ("000", "6", 278, "命中判定"),
    ("000", "7-1", 340, "ミサイル"),
    ("000", "7-20", 510, None),
    ("000", "8-2", 587, "脱出判定"),
    ("001", "1-2", 7, "行動順の決定"),
    ("001", "3-2", 45, "攻撃の計算"),
    ("001", "4-5", 80, "カウンター"),
    ("001", "5-2", 117, "ＡＣ強化"),
    ("002", "H1", 5, "パラメーター"),
    ("002", "H6", 405, "インタラプトアクション"),
    ("002", "1-1", 149, "行動決定フェイズ"),
    ("002", "5", 231, "接近フェイズ"),  # a top-level number opens its first part
    ("004", "3-4-2-2", 30, "白兵攻撃と回避"),
    ("004", "3-5-3-2", 217, "機兵特殊行動"),
])
def test_a_section_opens_at_its_heading(code, section, line, heading):
    assert citations.line_of_section(code, section) == line
    if heading:
        assert heading in citations.source_lines(code)[line - 1]


def test_every_numbered_section_of_a_text_is_indexed_in_order():
    for code in citations.TEXTS:
        index = citations.section_index(code)
        numbered = [name for name in index if not name.startswith("H")]
        assert numbered, code
        for name in numbered:
            parent = name.rsplit("-", 1)[0]
            if parent != name and parent in index:
                assert index[parent] < index[name], f"{code} §{name} comes before its parent §{parent}"


def test_an_unknown_section_is_not_linked_but_reported():
    html, unresolved = citations.link_citations("<p><code>000 §9-9</code>, line 900</p><p>line 12</p>", None, _link)
    assert "source-cite" not in html
    assert unresolved == ["000 §9-9 (no such section in 000)", "line 900 (the text 000 has 592 lines)", "line 12"]


def test_citation_formats_of_the_book_become_links_to_their_lines():
    prose = (
        "<p>The text (<code>000 §7-1</code>,\nline 350; <code>§7-12</code>, line 454), lines 223 and 232, "
        "(<code>002 §H1</code>, l.55), l.159–161, <code>004 §3-4-1</code>, L10-L14 and L21; "  # citation-format: keep (the older forms the site links)
        "<code>001</code> lines 50 to 56.</p>"
        '<p>Default text: line 44; <a href="x.ipynb">line 1</a>; <code>3D6</code></p>'
        '<div class="jp-Cell jp-CodeCell"><pre>line 2</pre><div class="jp-OutputArea">line 3 <code>000 §1</code></div></div>'
    )
    html, unresolved = citations.link_citations(prose, "000", _link)
    links = re.findall(r'<a class="source-cite" href="([^"]+)">(.*?)</a>', html, re.S)
    assert links == [
        ("/sources/000/#L340", "<code>000 §7-1</code>"), ("/sources/000/#L350", "line 350"),
        ("/sources/000/#L442", "<code>§7-12</code>"), ("/sources/000/#L454", "line 454"),
        ("/sources/000/#L223", "lines 223"), ("/sources/000/#L232", "232"),
        ("/sources/002/#L5", "<code>002 §H1</code>"), ("/sources/002/#L55", "l.55"), ("/sources/002/#L159", "l.159–161"),  # citation-format: keep (the older forms the site links)
        ("/sources/004/#L5", "<code>004 §3-4-1</code>"), ("/sources/004/#L10", "L10-L14"), ("/sources/004/#L21", "L21"),  # citation-format: keep (the older forms the site links)
        ("/sources/001/", "<code>001</code>"), ("/sources/001/#L50", "lines 50 to 56"),
        ("/sources/000/#L44", "line 44"),
    ]
    assert unresolved == []
    assert '<a href="x.ipynb">line 1</a>' in html and "<pre>line 2</pre>" in html and "line 3 <code>000 §1</code>" in html


def test_every_citation_in_the_book_rulings_and_glossary_links_to_a_line_of_its_text():
    linked = 0
    problems = []
    for where, default, html in _book_prose():
        out, unresolved = citations.link_citations(html, default, _link)
        linked += out.count('class="source-cite"')
        problems += [f"{where}: {what}" for what in unresolved]
    assert problems == []
    assert linked > 900  # about 1,000 citations today: the book cites by line throughout


def docstring_citation_problems(path: Path, default: str | None) -> tuple[list[str], int]:
    """Each docstring citation of one module that links nowhere (``file:line: what``), and the links."""
    import ast

    problems, linked = [], 0
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            docstring = ast.get_docstring(node)
            if docstring:
                out, unresolved = citations.link_citations(_html(docstring), default, _link)
                linked += out.count('class="source-cite"')
                line = getattr(node, "lineno", 1)  # a module has no line: its docstring opens the file
                problems += [f"{path.name}:{line}: {what}" for what in unresolved]
    return problems, linked


def test_every_citation_in_the_librarys_docstrings_links_to_a_line_of_its_text():
    """The API reference shows the docstrings; a module of a system's package cites that system's text."""
    problems = []
    linked = 0
    for path in sorted((ROOT / "rules_lib").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        default = next((citations.PACKAGE_TEXT[p] for p in parts if p in citations.PACKAGE_TEXT), None)
        found, links = docstring_citation_problems(path, default)
        problems += [f"{path.parent.relative_to(ROOT)}/{what}" for what in found]
        linked += links
    assert problems == []
    assert linked > 500


def test_a_bad_citation_in_a_module_docstring_is_reported_at_line_1(tmp_path):
    module = tmp_path / "bad.py"
    module.write_text('"""Misses the text: 000 §99-9."""\n\n\ndef f():\n    """Fine."""\n', encoding="utf-8")
    problems, _ = docstring_citation_problems(module, "000")
    assert problems and all(problem.startswith("bad.py:1: ") for problem in problems), problems


def test_a_source_page_has_one_anchor_per_line_in_japanese():
    html = citations.source_text_html("000")
    lines = citations.source_lines("000")
    assert html.count('class="source-line"') == len(lines) == 592
    assert 'lang="ja"' in html
    assert '<div class="source-line" id="L340"><a class="source-ln" href="#L340">340</a>' in html  # citation-format: keep (anchor ids)
    assert "ミサイル" in html.split('id="L340"')[1].split("</div>")[0]  # citation-format: keep (anchor ids)


def test_the_sources_readme_names_every_text():
    readme = (ROOT / "sources" / "README.md").read_text(encoding="utf-8")
    for code, text in citations.TEXTS.items():
        assert text.path.exists()
        assert f"`{code}`" in readme and text.filename in readme
    assert sorted(p.name for p in (ROOT / "sources").glob("*.txt")) == sorted(t.filename for t in citations.TEXTS.values())


def test_nothing_in_the_repository_points_outside_it():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    outside = re.compile(r"\.\./shared|/wor[k]/")  # [k]: this line does not match itself
    offenders = []
    for name in tracked:
        path = ROOT / name
        if path.suffix in {".png", ".whl", ".gz"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        offenders += [f"{name}: {m.group(0)}" for m in outside.finditer(text)]
    assert offenders == []


def test_one_citation_format_in_every_text_a_reader_or_maintainer_reads():
    """``000 §7-1, line 350`` and ``lines 566–569`` in the rulings, glossaries, catalogue, every string
    and comment of ``rules_lib`` and ``tests``, the notebooks' cells and their stored outputs; the
    older forms are rewritten by ``tools/citation_format.py`` (the build still links them)."""
    import citation_format

    stale = [path.relative_to(ROOT).as_posix() for path in citation_format.files()
             if citation_format.rewritten(path) != path.read_text(encoding="utf-8")]
    assert not stale, f"older line citations: run tools/citation_format.py: {stale}"
    outputs = [path.relative_to(ROOT).as_posix() for path in citation_format.files()
               if path.suffix == ".ipynb" and citation_format.stale_outputs(path)]
    assert not outputs, f"outputs show older line citations: run tools/execute_book.py on {outputs}"
    assert citation_format.convert("(004 §3-4-2-2 L44-L45; 001 §3-1 l.34, L159/L161)") == (  # citation-format: keep
        "(004 §3-4-2-2, lines 44–45; 001 §3-1, line 34, lines 159 and 161)")


#: older forms in a message and a comment, beside code, an anchor and a marked line that look alike
PLANTED_MODULE = """L3 = "#L350"
raise ValueError(f"{L3} ran {L3:>4} (004 §3-4-3-1, L89)")  # as L89 says
ANCHOR = "L350"  # citation-format: keep (an anchor id)
"""  # citation-format: keep (planted)
PLANTED_MODULE_REWRITTEN = """L3 = "#L350"
raise ValueError(f"{L3} ran {L3:>4} (004 §3-4-3-1, line 89)")  # as line 89 says
ANCHOR = "L350"  # citation-format: keep (an anchor id)
"""  # citation-format: keep (planted)


def test_the_citation_format_tool_rewrites_messages_and_notebook_cells_but_not_code(tmp_path):
    """An older form in an error message or a markdown cell is found; code, an f-string's fields,
    anchors and lines marked ``citation-format: keep`` are not touched."""
    import citation_format

    module = tmp_path / "rule.py"
    module.write_text(PLANTED_MODULE, encoding="utf-8")
    assert citation_format.rewritten(module) == PLANTED_MODULE_REWRITTEN
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["The text (`001 §4-4`, l.77)\n", "ends."]},  # citation-format: keep (planted)
             {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": ["x = 'L21'  # L21"],  # citation-format: keep (planted)
              "outputs": [{"name": "stdout", "output_type": "stream", "text": ["(L21)\n"]}]}]  # citation-format: keep (planted)
    notebook = tmp_path / "01-x.ipynb"
    notebook.write_text(json.dumps({"cells": cells, "metadata": {}}, indent=1) + "\n", encoding="utf-8")
    rewritten = json.loads(citation_format.rewritten(notebook))
    assert rewritten["cells"][0]["source"] == ["The text (`001 §4-4`, line 77)\n", "ends."]
    assert rewritten["cells"][1]["source"] == ["x = 'line 21'  # line 21"]
    assert rewritten["cells"][1]["outputs"] == cells[1]["outputs"]  # renewed by executing the notebook
    assert citation_format.stale_outputs(notebook)


def test_no_notebook_keeps_a_merge_record_or_other_stray_metadata():
    """A notebook holds the kernel, its language, stored widget state, cell tags and a Japanese cell's
    ``translation`` (tools/translations.py); nothing else
    (a merge tool's ``nbdime-conflicts`` record once stayed in one, unseen)."""
    stray = []
    for path in sorted((ROOT / "book").glob("*/*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        stray += [f"{path.relative_to(ROOT)}: {key}" for key in notebook["metadata"]
                  if key not in {"kernelspec", "language_info", "widgets"}]
        stray += [f"{path.relative_to(ROOT)} cell {number}: {key}" for number, cell in enumerate(notebook["cells"])
                  for key in cell.get("metadata", {}) if key not in {"tags", "translation"}]
    assert stray == []
