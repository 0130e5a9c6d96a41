"""The built site's two editions: every page has its pair, each says its language and links the pair.

tools/editions.py builds the Japanese edition under ja/ in the same build; these tests read the
site (tests/conftest.py's ``site_dir``: $RULES_LIB_SITE_DIR, else one built here).
"""

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

from editions import alternate_url, with_english_anchors  # noqa: E402

_LANG = re.compile(r'<html lang="([^"]+)"')
_HREFLANG = re.compile(r'<link rel="alternate" href="([^"]*)" hreflang="([^"]+)">')


def _pages(site_dir: Path) -> dict[str, Path]:
    """Each page by its address (``dice/01-dice-and-odds/``), the theme's 404 page left out."""
    found = {}
    for path in site_dir.rglob("index.html"):
        url = path.parent.relative_to(site_dir).as_posix()
        if "vendor" not in path.parts:
            found["" if url == "." else f"{url}/"] = path
    return found


def test_every_page_has_its_pair_in_the_other_edition(site_dir):
    pages = _pages(site_dir)
    english = {url for url in pages if not url.startswith("ja/")}
    japanese = {url for url in pages if url.startswith("ja/")}
    assert len(english) > 40
    assert {alternate_url(url) for url in english} == japanese


def test_each_page_says_its_language_and_links_its_pair_both_ways(site_dir):
    for url, path in _pages(site_dir).items():
        html = path.read_text(encoding="utf-8")
        lang = "ja" if url.startswith("ja/") else "en"
        assert _LANG.search(html).group(1) == lang, url
        links = {hreflang: href for href, hreflang in _HREFLANG.findall(html)}
        assert set(links) == {"en", "ja"}, url
        other = "en" if lang == "ja" else "ja"
        # the pair's address, relative to this page
        target = (path.parent / links[other]).resolve().relative_to(site_dir.resolve()).as_posix()
        assert target + "/" == alternate_url(url) or (target == "." and alternate_url(url) == ""), url
        assert links[lang] == "./", url


def test_each_edition_has_its_own_search_index(site_dir):
    english = json.loads((site_dir / "search/search_index.json").read_text(encoding="utf-8"))
    japanese = json.loads((site_dir / "ja/search/search_index.json").read_text(encoding="utf-8"))
    assert japanese["config"]["lang"] == ["ja"]
    assert japanese["config"]["separator"] == english["config"]["separator"]
    assert not [d for d in english["docs"] if d["location"].startswith("ja/")]
    assert japanese["docs"] and all(d["location"].startswith("ja/") for d in japanese["docs"])
    # a Japanese page asks for its edition's index
    html = (site_dir / "ja/index.html").read_text(encoding="utf-8")
    assert 'edition = "ja/"' in html
    assert 'edition = ""' in (site_dir / "index.html").read_text(encoding="utf-8")


def test_a_japanese_chapter_shows_its_japanese_prose_with_the_english_anchors(site_dir):
    html = (site_dir / "ja/dice/01-dice-and-odds/index.html").read_text(encoding="utf-8")
    assert re.search(r'<h1 id="dice-and-odds">ダイスと確率', html)
    assert re.search(r'<h2 id="sums-of-dice-ndm">ダイスの合計', html)
    assert "Sums of dice" not in re.sub(r"<script\b.*?</script>", "", html, flags=re.S)
    english = (site_dir / "dice/01-dice-and-odds/index.html").read_text(encoding="utf-8")
    assert "ダイスの合計" not in english
    # the same code cells and outputs: the same stored widgets
    state = re.compile(r'<script type="application/vnd\.jupyter\.widget-state\+json">.*?</script>', re.S)
    assert state.findall(html) == state.findall(english)


def test_a_japanese_heading_takes_the_english_id_and_its_links_follow():
    page = ('<h1 id="">題<a class="anchor-link" href="#">¶</a></h1><a href="#ndm">x</a>'
            '<h2 id="ndm">NdM<a class="anchor-link" href="#ndm">¶</a></h2>')
    renamed, _ = with_english_anchors(page, ["title", "sums-of-dice-ndm"])
    assert renamed == ('<h1 id="title">題<a class="anchor-link" href="#title">¶</a></h1><a href="#sums-of-dice-ndm">x</a>'
                       '<h2 id="sums-of-dice-ndm">NdM<a class="anchor-link" href="#sums-of-dice-ndm">¶</a></h2>')
    # headings that differ in number are left alone (the translation tests fail on them)
    assert with_english_anchors(page, ["title"]) == (page, {})


def test_the_japanese_navigation_is_the_english_one_with_japanese_titles_and_ja_paths():
    from editions import japanese_nav

    english = [{"Home": "index.md"}, {"Gundam Sentinel": ["gundam-sentinel/01-combat-round.ipynb"]},
               {"Source texts": [{"000: Gundam Sentinel": "sources/000.md"}]}]
    assert japanese_nav(english) == [
        {"ホーム": "ja/index.md"}, {"ガンダム・センチネル": ["ja/gundam-sentinel/01-combat-round.ipynb"]},
        {"原文": [{"000: ガンダム・センチネル": "ja/sources/000.md"}]}]
    assert alternate_url("dice/01-dice-and-odds/") == "ja/dice/01-dice-and-odds/"
    assert alternate_url("ja/") == "" and alternate_url("") == "ja/"


def test_the_japanese_glossary_shows_the_same_rows_japanese_first():
    from mkdocs_hooks import japanese_glossary

    part = ("## Dice\n\n| English | Japanese | explained in |\n|---|---|---|\n"
            "| dice | ダイス | [Dice and odds](dice/01-dice-and-odds.ipynb#sums-of-dice-ndm) |")
    assert japanese_glossary(part).splitlines() == [
        "## ダイス", "", "| 日本語 | English | 説明 |", "| --- | --- | --- |",
        "| ダイス | dice | [ダイスと確率](dice/01-dice-and-odds.ipynb#sums-of-dice-ndm) |"]
