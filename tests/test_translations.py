"""The Japanese edition cannot rot: every unit is current, or its file is listed as pending.

A unit is an English prose cell of a notebook, or an English Markdown page, and its Japanese
counterpart (tools/translations.py). Stale (the English changed after it was translated) and
mismatched (other headings or links) units fail always; a missing one fails unless its file is in
book/translations-pending.txt, and a listed file with nothing missing fails too, so the list only
shrinks. CONTRIBUTING.md, "Translating", says how to bring a unit up to date.
"""

import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import translations  # noqa: E402

UNITS = list(translations.units())
PENDING = translations.pending()


def _shown(unit) -> str:
    return f"{unit.path.relative_to(ROOT)} {unit.key}"


def test_no_translation_is_stale_or_mismatched():
    bad = [f"{_shown(u)}: {u.state}" for u in UNITS if u.state in ("stale", "mismatched")]
    assert not bad, "bring these up to date (CONTRIBUTING.md, Translating):\n" + "\n".join(bad)


def test_a_missing_translation_is_listed_as_pending():
    unlisted = [_shown(u) for u in UNITS
                if u.state == "missing" and str(u.path.relative_to(ROOT)) not in PENDING]
    assert not unlisted, "translate these, or list their files in book/translations-pending.txt:\n" + "\n".join(unlisted)


def test_a_pending_file_still_waits_for_a_translation():
    missing = defaultdict(int)
    for unit in UNITS:
        missing[str(unit.path.relative_to(ROOT))] += unit.state == "missing"
    done = [path for path in PENDING if missing.get(path, 0) == 0]
    assert not done, "translated or gone: take these off book/translations-pending.txt:\n" + "\n".join(done)
    assert len(PENDING) == len(set(PENDING)), "a file is listed twice"


def test_every_japanese_page_translates_an_english_page():
    for page in translations.BOOK.rglob(f"*.{translations.TRANSLATED}.md"):
        english = page.with_name(page.name.replace(f".{translations.TRANSLATED}.md", ".md"))
        assert english.exists(), f"{page.relative_to(ROOT)} has no English page {english.name}"
        meta, _ = translations.page_front_matter(page.read_text(encoding="utf-8"))
        assert translations.HASH_KEY in meta, f"{page.relative_to(ROOT)}: no {translations.HASH_KEY} in its front matter"


def test_a_bilingual_page_has_no_japanese_copy():
    copies = [p for name in translations.BILINGUAL_PAGES
              for p in translations.BOOK.rglob(name.replace(".md", f".{translations.TRANSLATED}.md"))]
    assert not copies, f"written in both languages already, so no copy: {copies}"


@pytest.mark.parametrize("state", ["stale", "missing"])
def test_the_checks_fail_on_a_bad_unit(tmp_path, state):
    """The test above can fail: a translated page whose English then changes is stale, an English
    page without its Japanese is missing."""
    english = tmp_path / "page.md"
    english.write_text("# Title\n", encoding="utf-8")
    if state == "stale":
        stamp = translations.source_sha256("# Title\n")
        translations.japanese_page(english).write_text(f"---\n{translations.HASH_KEY}: {stamp}\n---\n# 題\n",
                                                       encoding="utf-8")
        assert translations.page_unit(english).state == "current"
        english.write_text("# Title, changed\n", encoding="utf-8")
    assert translations.page_unit(english).state == state
