"""The site's own words on a Japanese page: a worked example's check (rules_lib.catalogue writes it in
English into the one notebook's stored output) is put in Japanese by tools/mkdocs_hooks.py, every kind
of it, and an English page's is left as it was."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from rules_lib.catalogue import CheckResult, Example

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from mkdocs_hooks import japanese_example_checks  # noqa: E402

#: the words of a check's summary, head and entry line that are the site's, in English
_ENGLISH_WORD = re.compile(r"\b(?:matches|consistent|rule fact|values|instance|reading|value|computed|rests on|"
                           r"catalogue entry)\b")


def _entry(**changes) -> Example:
    fields = dict(id="x", title="t", source="001 §1", status="reproduced", summary="s", system="wis6", file="f")
    fields["expected"] = {"a": 1, "b": 2}
    return Example(**{**fields, **changes})


def _site_words(html: str) -> str:
    """The summary, the table's head and the entry line."""
    summary = re.search(r"<summary[^>]*>(.*?)</summary>", html).group(1)
    head = re.search(r"<thead>(.*?)</thead>", html).group(1)
    entry = re.search(r'<p class="example-id">(.*?)<code>', html).group(1)
    return re.sub(r"<[^>]+>", " ", f"{summary} {head} {entry}")


@pytest.mark.parametrize(
    ("changes", "japanese"),
    [
        ({}, "✓ 原文と一致、001 §1"),
        ({"inputs": "book"}, "✓ 本書の入力について原文のルールと一致、001 §1"),
        ({"readings": {"b": ("R",)}}, "✓ 原文と一致、001 §1。2個の値のうち1個は本書の読みによる"),
        ({"readings": {"a": ("Q",), "b": ("R", "S")}}, "✓ 本書の読みのもとで原文と整合、001 §1"),
        ({"instances": ("b",)}, "✓ 原文と一致、001 §1。2個の値のうち1個は本書が選んだ例"),
        ({"status": "fact"}, "✓ ルール上の事実（原文の記述どおり）、001 §1"),
        ({"status": "consistent", "why_consistent": "W"}, "✓ 本書の読みのもとで原文と整合（原文だけからは導けません）、001 §1"),
    ],
)
def test_every_kind_of_check_line_is_japanese_on_a_japanese_page(changes, japanese):
    english = CheckResult(_entry(**changes), {"a": 1, "b": 2})._repr_html_()
    assert _ENGLISH_WORD.search(_site_words(english))  # the pattern finds the English it must not leave
    translated = japanese_example_checks(english)
    summary = re.sub(r"<[^>]+>", "", re.search(r"<summary[^>]*>(.*?)</summary>", translated).group(1))
    assert summary == japanese
    assert not _ENGLISH_WORD.search(_site_words(translated)), _site_words(translated)
    assert "<th>値</th><th>計算結果</th><th>根拠</th>" in translated and "例題一覧の項目 <code>x</code>" in translated
    # each value as stored, what it rests on in Japanese (a ruling's title as stored)
    rows = re.findall(r"<tr><td><code>(\w+)</code></td><td>([^<]*)</td><td>([^<]*)</td></tr>", translated)
    assert [(key, value) for key, value, _ in rows] == [("a", "1"), ("b", "2")]
    for _, _, basis in rows:
        assert re.fullmatch(r"[^A-Za-z]*|本書の読みによる（裁定：[A-Z; ]+）", basis), basis


def test_html_without_a_check_is_left_as_it_was():
    page = '<p>value computed rests on</p><details class="other"><summary>✓ matches the text, x</summary></details>'
    assert japanese_example_checks(page) == page
