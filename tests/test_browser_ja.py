"""The Japanese edition in the browser: a chapter page at 360 and 1280 px, the language switch, search.

A Japanese page is the English page's notebook with its Japanese prose (tools/editions.py): its
calculators are the same Python, so they go live there too. Uses the site, server and Chromium of
tests/test_browser.py; axe-core as tests/test_browser_a11y.py runs it.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from tests.test_browser import (  # noqa: F401  (fixtures shared with the browser tests)
    _SEARCH_EACH,
    ROOT,
    _glossary_queries,
    _screenshot,
    browser,
    built_site,
    open_page,
    shown_text,
    site_url,
)
from tests.test_browser_a11y import FAILING_IMPACTS, SERIOUS_VIOLATIONS, _with_axe

pytestmark = pytest.mark.browser
CHAPTER = "dice/01-dice-and-odds/"


def _hreflang_links(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('link[rel=alternate][hreflang]')]
        .map((l) => [l.hreflang, new URL(l.getAttribute('href'), location.href).pathname]))""")


def _switch_to(page, lang: str) -> None:
    """Material's language switch in the header: the link to the other edition's same page."""
    page.locator(".md-header .md-select").first.hover()
    link = page.locator(f'.md-header a.md-select__link[hreflang="{lang}"]').first
    link.wait_for(state="visible", timeout=5_000)
    with page.expect_navigation():
        link.click()


@pytest.mark.parametrize("width", [360, 1280])
def test_a_japanese_chapter_page_is_japanese_live_and_switches_to_its_english_page(browser, site_url, width):  # noqa: F811
    page, problems, outside = open_page(browser, site_url + "ja/" + CHAPTER)
    page.set_viewport_size({"width": width, "height": 900})
    root = urlsplit(site_url).path
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert shown_text(page.locator("h1").first).startswith("ダイスと確率")
    assert page.locator("h2#sums-of-dice-ndm").inner_text().startswith("ダイスの合計")
    # Material's own words in Japanese (its search box)
    assert page.locator("input.md-search__input").get_attribute("placeholder") == "検索"
    # the pair, both ways
    assert _hreflang_links(page) == {"ja": f"{root}ja/{CHAPTER}", "en": f"{root}{CHAPTER}"}
    # the same Python as the English page: the calculator computes
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    expression = page.locator(".widget-text input").first
    expression.fill("3D6>=12")
    expression.press("Enter")
    page.locator(".widget-html").first.filter(has_text="success 3/8").wait_for(timeout=10_000)
    # the Japanese text drawn with the site's own font, its files loaded
    page.evaluate("document.fonts.ready")
    page.wait_for_function(
        "[...document.fonts].some(f => f.family.includes('Noto Sans JP') && f.status === 'loaded')", timeout=15_000)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _screenshot(page, f"ja-dice-01-dice-and-odds-{width}")
    if width < 600:
        page.set_viewport_size({"width": 1280, "height": 900})  # the switch sits in the header's wide layout
    _switch_to(page, "en")
    assert urlsplit(page.url).path == f"{root}{CHAPTER}"
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("h1").first.inner_text().startswith("Dice and odds")
    _switch_to(page, "ja")
    assert urlsplit(page.url).path == f"{root}ja/{CHAPTER}"
    assert problems == [] and outside == []
    page.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_no_serious_violation_on_a_live_japanese_chapter_page(browser, site_url, width):  # noqa: F811
    context = _with_axe(browser.new_context(bypass_csp=True, viewport={"width": width, "height": 900}))
    page = context.new_page()
    page.goto(site_url + "ja/" + CHAPTER, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status === 'live'", timeout=90_000)
    page.add_style_tag(content=".jupyter-wrapper .jp-Cell { content-visibility: visible !important; }")
    found = page.evaluate(SERIOUS_VIOLATIONS, [list(FAILING_IMPACTS), None, []])
    context.close()
    assert found == [], f"ja/{CHAPTER} at {width} px:\n" + "\n".join(found)


def _first_hits(browser, url: str, terms: list[str]) -> list[str | None]:  # noqa: F811
    page = browser.new_page()
    page.goto(url, wait_until="load")
    page.keyboard.press("s")
    firsts = page.evaluate(_SEARCH_EACH, terms)
    page.close()
    return [urlsplit(href).path if href else None for href in firsts]


def test_each_edition_searches_its_own_pages(browser, site_url):  # noqa: F811
    root = urlsplit(site_url).path
    japanese = _first_hits(browser, site_url + "ja/", ["成功レベル", "回避値"])
    assert all(hit and hit.startswith(f"{root}ja/") for hit in japanese), japanese
    english = _first_hits(browser, site_url, ["success level", "evasion value"])
    assert all(hit and not hit.startswith(f"{root}ja/") for hit in english), english


_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef]")


def test_each_japanese_glossary_term_finds_its_japanese_page_first(browser, site_url):  # noqa: F811
    """In the Japanese edition, each glossary term written in Japanese: the first hit is the Japanese
    page of the section the glossary names (its entry's tags, tools/mkdocs_hooks.py)."""
    root = urlsplit(site_url).path
    queries = {term: pages for term, pages in _glossary_queries().items() if _JAPANESE.search(term)}
    assert len(queries) > 200
    terms = list(queries)
    wrong = []
    for term, hit in zip(terms, _first_hits(browser, site_url + "ja/", terms), strict=True):
        first = hit[len(root):] if hit else None
        # a hit is right when it is a page the glossary names for this term, or for a term holding it
        right = {f"ja/{p}" for other, pages in queries.items() if term in other for p in pages}
        if first not in right:
            wrong.append((term, first, sorted(right)))
    assert wrong == [], f"{len(wrong)} of {len(terms)} Japanese glossary terms: {wrong}"


def test_the_glossary_of_the_japanese_edition_is_japanese_first(browser, site_url):  # noqa: F811
    page = browser.new_page()
    page.goto(site_url + "ja/glossary/", wait_until="load")
    headers = page.locator("table").first.locator("th").all_inner_texts()
    assert headers == ["日本語", "English", "説明"]
    first_row = page.locator("table").first.locator("tbody tr").first.locator("td").all_inner_texts()
    assert first_row[:2] == ["ダイス", "dice"] and first_row[2] == "ダイスと確率"
    assert (ROOT / "book/dice/_glossary.md").read_text(encoding="utf-8").count("| dice | ダイス |") == 1
    page.close()


#: the site's own words on a chapter page, per edition: the code toggle and switch
#: (code-toggle.js), a calculator's status before Python on a connection that saves data
#: (live-calculators.js), the first ✓ check (tools/mkdocs_hooks.py on a Japanese page), the scroll
#: cue and region name (scroll-boxes.js, book.css)
_CHROME = {
    "ja/": {"toggle": "コードを表示", "switch": "すべてのページでコードをすべて表示", "status": "使い始めるとライブになります",
            "check": "✓ 原文と一致、", "region": "コード — 横にスクロールします", "cue": '"⇆ 横にスクロールします"'},
    "": {"toggle": "show code", "switch": "show all code on every page", "status": "Live once you use it",
         "check": "✓ matches the text, ", "region": "Code — scrolls sideways", "cue": '"⇆ scrolls sideways"'},
}
_SAVE_DATA = ("Object.defineProperty(Navigator.prototype, 'connection', "
              "{ get: () => ({ saveData: true, effectiveType: '4g', downlink: 10 }) });")
#: a code block wider than the page, put into the article: scroll-boxes.js names it and marks it
_WIDE_CODE = """() => {
  const pre = document.createElement("pre");
  const code = pre.appendChild(document.createElement("code"));
  code.id = "planted-wide-code";
  code.textContent = "x".repeat(600);
  document.querySelector(".md-content article").append(pre);
}"""


@pytest.mark.parametrize("edition", ["ja/", ""])
def test_the_sites_own_words_are_in_the_pages_language(browser, site_url, edition):  # noqa: F811
    words = _CHROME[edition]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(_SAVE_DATA)  # Python waits for a touch: the status line is read without it
    page = context.new_page()
    page.goto(site_url + edition + CHAPTER, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.phases.rendered > 0", timeout=30_000)
    assert shown_text(page.locator(".rules-lib-code-toggle").first) == words["toggle"]
    assert shown_text(page.locator(".rules-lib-code-switch")).strip() == words["switch"]
    assert shown_text(page.locator(".rules-lib-live-status").first).startswith(words["status"])
    assert page.locator(".example-check summary").first.text_content().startswith(words["check"])
    page.evaluate(_WIDE_CODE)
    wide = page.locator("#planted-wide-code")
    wide.and_(page.locator(".rules-lib-scrolls")).wait_for(timeout=5_000)
    assert wide.get_attribute("aria-label") == words["region"]
    assert wide.evaluate("(code) => getComputedStyle(code, '::before').content") == words["cue"]
    context.close()
