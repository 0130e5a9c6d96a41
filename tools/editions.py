"""MkDocs hooks: the Japanese edition of every page, under ``ja/``, in the same build as the English.

- Files (``on_files``, before mkdocs-jupyter wraps the notebooks): each bilingual notebook of the
  book is split into its two editions (``translations.edition``), written into a temporary folder of
  the build (never into ``book/``): ``X/NN.ipynb`` is the English edition, ``ja/X/NN.ipynb`` the
  Japanese one. A Markdown page ``X.md`` gets ``ja/X.md`` from ``X.ja.md``, or from ``X.md`` itself
  while it waits for its translation (``book/translations-pending.txt``). Generated pages (the API
  reference, the source texts) add their ``ja/`` pages themselves (`add_japanese`).
- Navigation (``on_config``, ``on_nav``): the Japanese navigation is the English one with ``ja/``
  paths and Japanese titles; a chapter page's title is its first heading, the Japanese edition's.
  Both are one nav for MkDocs, split here in two; each page is drawn with its edition's.
- Each page (``on_page_context``): its edition's theme language (``<html lang="ja">`` and
  Material's own words in Japanese), site name, and language switch (``extra.alternate``) to the
  same page of the other edition; Material writes the switch's ``<link rel="alternate" hreflang>``.
- Anchors (``on_page_content``): a Japanese heading keeps its English heading's id, so a link to
  ``02-movement.ipynb#facing`` leads to the same section in either edition (the translation units
  keep the heading levels in order, ``translations.mismatches``).

Why not mkdocs-static-i18n (1.3.1, tried first): it builds each language by running the whole
build again, so every hook of the site ran twice (the vendor thread of ``tools/mkdocs_hooks.py``
was dropped and made again, the site policy and snapshot digests applied to half a site, and the
search index it merges at the end overwrote the one the hooks had written); it copies each file as
a plain ``File`` from ``docs_dir``, which turns a notebook into a downloadable asset (its issue #198,
open) and loses a generated page's content. Here the two editions are pages of one build, and each
hook sees both.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section

sys.path.insert(0, str(Path(__file__).parent))

import translations  # noqa: E402

JAPANESE = "ja"
PREFIX = f"{JAPANESE}/"
#: the top-level section that holds the Japanese navigation until ``on_nav`` splits it off
_JAPANESE_SECTION = "日本語版"
SWITCH_NAMES = {"en": "English", JAPANESE: "日本語"}
SITE_NAME_JA = "rules_lib：四つのロボット戦闘TRPGを読み解くルールブック"

#: the chapters' and navigation sections' titles in the Japanese edition (a chapter's own pages
#: take their first heading's)
JAPANESE_TITLES = {
    "Home": "ホーム",
    "Dice": "ダイス",
    "Dice and odds": "ダイスと確率",
    "Gundam Sentinel": "ガンダム・センチネル",
    "WIS6": "WIS6",
    "Nemesis wargame": "ネメシス戦域ウォーゲーム",
    "Verse World": "ヴァース・ワールド",
    "Worked examples": "例題一覧",
    "Rulings and gaps": "裁定と空白",
    "Glossary": "用語集",
    "Source texts": "原文",
    "About the texts": "原文について",
    "API reference": "API リファレンス",
}


def is_japanese(src_uri: str) -> bool:
    return src_uri.startswith(PREFIX)


def english_uri(src_uri: str) -> str:
    """The English page's path of a page of either edition."""
    return src_uri.removeprefix(PREFIX)


def japanese_title(title: str) -> str:
    """A navigation or chapter title in Japanese: ``000: Gundam Sentinel`` -> ``000: ガンダム・センチネル``."""
    code, sep, rest = title.partition(": ")
    if sep and code.isdigit():
        return f"{code}: {JAPANESE_TITLES.get(rest, rest)}"
    return JAPANESE_TITLES.get(title, title)


def add_japanese(files: Files, config, src_uri: str, content: str | bytes) -> None:
    """A generated page and its Japanese edition's page (the same content unless told otherwise)."""
    files.append(File.generated(config, f"{PREFIX}{src_uri}", content=content))


# --- files ----------------------------------------------------------------------------------

#: the build's folder of notebook editions (mkdocs-jupyter reads a notebook from a path)
_editions_dir: Path | None = None


def _drop_editions() -> None:
    global _editions_dir
    if _editions_dir is not None:
        shutil.rmtree(_editions_dir, ignore_errors=True)
        _editions_dir = None


def _edition_file(notebook: dict, lang: str, src_uri: str, config) -> File:
    """One edition of a notebook as a file of the build's editions folder: ``en/X/NN.ipynb`` is the
    page ``X/NN.ipynb``, ``ja/X/NN.ipynb`` the page ``ja/X/NN.ipynb``. A real file, not a generated
    one: mkdocs-jupyter reads a notebook from its ``abs_src_path``, which its wrapper of a generated
    file loses."""
    assert _editions_dir is not None
    path = _editions_dir / lang / src_uri
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(translations.edition(notebook, lang), ensure_ascii=False, indent=1), encoding="utf-8")
    if lang == JAPANESE:
        return File(f"{PREFIX}{src_uri}", str(_editions_dir), config["site_dir"], config["use_directory_urls"])
    return File(src_uri, str(_editions_dir / lang), config["site_dir"], config["use_directory_urls"])


@event_priority(50)  # before mkdocs-jupyter, which wraps the notebooks it finds
def on_files(files: Files, config) -> Files:
    global _editions_dir
    _drop_editions()
    _editions_dir = Path(tempfile.mkdtemp(prefix="rules-lib-editions-"))
    docs = Path(config["docs_dir"])
    for file in list(files):
        if file.src_uri.endswith(f".{JAPANESE}.md") or not file.inclusion.is_included():
            continue
        if file.src_uri.endswith(".ipynb"):
            notebook = json.loads(Path(file.abs_src_path).read_text(encoding="utf-8"))
            files.remove(file)
            files.append(_edition_file(notebook, "en", file.src_uri, config))
            files.append(_edition_file(notebook, JAPANESE, file.src_uri, config))
        elif file.is_documentation_page():
            source = translations.japanese_page(docs / file.src_uri)
            chosen = source if source.exists() else docs / file.src_uri
            files.append(File.generated(config, f"{PREFIX}{file.src_uri}", abs_src_path=str(chosen)))
    return files


def on_post_build(config) -> None:
    _drop_editions()


def on_build_error(error) -> None:
    _drop_editions()


# --- navigation -----------------------------------------------------------------------------

def japanese_nav(items):
    """The navigation's items with ``ja/`` paths and Japanese titles."""
    if isinstance(items, str):
        return f"{PREFIX}{items}"
    if isinstance(items, list):
        return [japanese_nav(item) for item in items]
    return {japanese_title(title): japanese_nav(value) for title, value in items.items()}


@event_priority(-50)  # after the other hooks have made the English navigation
def on_config(config):
    nav = config.get("nav") or []
    if not any(isinstance(item, dict) and _JAPANESE_SECTION in item for item in nav):
        config["nav"] = [*nav, {_JAPANESE_SECTION: japanese_nav(nav)}]
    return config


#: each edition's navigation, made in ``on_nav``
_navigation: dict[str, Navigation] = {}


def on_nav(nav: Navigation, config, files) -> Navigation:
    section = nav.items[-1]
    if not isinstance(section, Section) or section.title != _JAPANESE_SECTION:
        raise ValueError(f"the navigation's last item is not the Japanese edition's ({_JAPANESE_SECTION})")
    japanese_items = section.children
    for item in japanese_items:
        item.parent = None
    english_pages = [page for page in nav.pages if not is_japanese(page.file.src_uri)]
    japanese_pages = [page for page in nav.pages if is_japanese(page.file.src_uri)]
    english_pages[-1].next_page = None
    japanese_pages[0].previous_page = None
    english = Navigation(nav.items[:-1], english_pages)
    english.homepage = nav.homepage
    japanese = Navigation(japanese_items, japanese_pages)
    japanese.homepage = next(page for page in japanese_pages if page.file.src_uri == f"{PREFIX}index.md")
    _navigation.update(en=english, ja=japanese)
    return english


# --- pages ----------------------------------------------------------------------------------

#: the English settings the Japanese pages change, as the configuration gave them
_english_settings: dict[str, str] = {}


def alternate_url(url: str) -> str:
    """The same page's address in the other edition (the Japanese pages mirror the English under ja/)."""
    return url.removeprefix(PREFIX) if url.startswith(PREFIX) else f"{PREFIX}{url}"


def on_page_context(context, page, config, nav):
    if not _english_settings:
        _english_settings.update(language=config.theme["language"], site_name=config["site_name"])
    japanese = is_japanese(page.file.src_uri)
    lang = JAPANESE if japanese else "en"
    config.theme["language"] = JAPANESE if japanese else _english_settings["language"]
    config["site_name"] = SITE_NAME_JA if japanese else _english_settings["site_name"]
    context["config"] = config
    if _navigation:
        context["nav"] = _navigation[lang]
    other = alternate_url(page.url)
    links = {lang: page.url, ("en" if japanese else JAPANESE): other}
    config.extra["alternate"] = [{"name": SWITCH_NAMES[code], "link": links[code] or "./", "lang": code}
                                 for code in ("en", JAPANESE)]
    return context


def on_post_page(output: str, page, config) -> str:
    # the theme's own templates (404.html, the sitemap) are English
    if _english_settings:
        config.theme["language"] = _english_settings["language"]
        config["site_name"] = _english_settings["site_name"]
    return output


_HEADING = re.compile(r"<(h[1-6])\b[^>]*>.*?</\1>", re.S)
_ID = re.compile(r'\bid="([^"]*)"')


def heading_ids(html: str) -> list[str]:
    """Each heading's id in order ("" for a heading without one)."""
    ids = []
    for heading in _HEADING.finditer(html):
        found = _ID.search(heading.group(0), 0, heading.group(0).index(">"))
        ids.append(found.group(1) if found else "")
    return ids


def _with_id(heading: str, own: str, wanted: str) -> str:
    opening = heading.index(">")
    tag = heading[:opening]
    tag = _ID.sub(f'id="{wanted}"', tag, count=1) if _ID.search(tag) else f'{tag} id="{wanted}"'
    # the heading's own permalink (nbconvert's "anchor-link", Markdown's "headerlink")
    rest = heading[opening:].replace(f'href="#{own}"', f'href="#{wanted}"')
    return tag + rest


def with_english_anchors(html: str, english_ids: list[str]) -> tuple[str, dict[str, str]]:
    """A Japanese page's headings with the ids of the English page's, in order, and their links too.

    A Japanese heading's own id is the slug of its Latin letters, or empty (``ダイスと確率``).
    Returns the page and the ids changed (Japanese id -> English id); a page whose headings differ
    in number from the English keeps its own (tests/test_translations.py catches it).
    """
    own = heading_ids(html)
    if len(own) != len(english_ids):
        return html, {}
    wanted = iter(zip(own, english_ids, strict=True))

    def rename(heading: re.Match) -> str:
        mine, theirs = next(wanted)
        return _with_id(heading.group(0), mine, theirs)

    html = _HEADING.sub(rename, html)
    renamed = {mine: theirs for mine, theirs in zip(own, english_ids, strict=True) if mine and mine != theirs}
    if renamed:
        links = re.compile(r'href="#(' + "|".join(re.escape(mine) for mine in renamed) + r')"')
        html = links.sub(lambda found: f'href="#{renamed[found.group(1)]}"', html)
    return html, dict(zip(own, english_ids, strict=True))


def _toc_items(items) -> list:
    return [found for item in items for found in (item, *_toc_items(item.children))]


def _rename_toc(toc, english_ids: list[str], renamed: dict[str, str]) -> None:
    items = _toc_items(toc)
    if len(items) == len(english_ids):
        for item, wanted in zip(items, english_ids, strict=True):
            item.id = wanted
        return
    for item in items:
        item.id = renamed.get(item.id, item.id)


def on_page_content(html: str, page, config, files) -> str:
    if not is_japanese(page.file.src_uri):
        return html
    english = files.get_file_from_path(english_uri(page.file.src_uri))
    if english is None or english.page is None or english.page.content is None:
        raise ValueError(f"{page.file.src_uri}: its English page {english_uri(page.file.src_uri)} is not built before it")
    english_ids = heading_ids(english.page.content)
    html, renamed = with_english_anchors(html, english_ids)
    if renamed:
        _rename_toc(page.toc, english_ids, renamed)
    return html
