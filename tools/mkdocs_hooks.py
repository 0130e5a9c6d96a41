"""MkDocs hooks: navigation, pages assembled from per-chapter parts, self-hosted assets.

- The navigation lists every chapter folder's notebooks in file order (``on_config``), so
  a new notebook needs no edit of ``mkdocs.yml``.
- ``glossary.md`` and ``rulings.md`` carry ``<!-- parts:glossary -->`` / ``<!-- parts:rulings -->``
  markers, replaced by each chapter's ``_glossary.md`` / ``_rulings.md`` in chapter order.
- ``examples.md`` carries a ``<!-- catalogue -->`` marker that becomes the table of every
  worked example, its source and whether the book reproduces it yet, linked to the ✓ line
  of the cell that checks it; ``index.md`` carries ``<!-- catalogue-counts -->``, the sentence of
  how many entries are reproduced, consistent and rule facts.
- ``reference/<module>.md`` pages are generated for every module of ``rules_lib`` (mkdocstrings
  renders their docstrings), so a new system package gets its API page without an edit.
- Search finds the rule: code is left out of the index (``on_page_content``), and each glossary
  row is a search entry keyed by its terms (Material's ``tags`` field) at the section the glossary
  says explains it (``on_post_build``), so that section is the first hit for the term, in English
  or Japanese. Each edition (``tools/editions.py``) has its own index: the English pages' at
  ``search/``, the Japanese pages' at ``ja/search/`` (``split_search_index``), each with its own
  glossary entries; a Japanese page asks for its edition's (``hold_search_index``).
- The Japanese edition's pages get the same markers, in Japanese (``lang``), and its glossary page
  the same ``_glossary.md`` rows, Japanese first (``japanese_glossary``).
- Notebook pages draw their stored widgets with ``javascripts/live-widgets.js``: the widget manager
  that mkdocs-jupyter's template loads from a CDN (require.js and a 3.6 MB bundle) is taken out
  (``without_widget_manager``). The Pyodide core and wheels of the live calculators come from the
  site's own ``vendor/`` folder (``tools/vendor.py``); nothing comes from a CDN. The Jupyter CSS that
  mkdocs-jupyter inlines into every notebook page becomes one shared file (``share_inline_styles``),
  cut after the build to the rules the site's pages may use (``tools/unused_css.py``).
- A page with live calculators starts their Python worker from its ``<head>`` (``start_python_early``),
  so Python downloads and boots while the page loads and draws; the first widget's stored state and
  the scripts that draw and pair the widgets come before it (``widgets_as_parsed``), so the first
  calculator pairs while the rest of the page is parsed. On a connection that asks to save data or
  is slow, Python waits instead for the reader's first touch of a calculator, and on every page the
  theme's search index waits until the reader goes to search (``hold_search_index``).
- The site's ``vendor/`` folder (the runtime, the wheels, their bytecode and the Python snapshots,
  made in Node) does not depend on the pages: it is made in a thread from ``on_pre_build``, beside
  the pages, and moved into the site in ``on_post_build`` (a fresh build took 50 s for it after
  the pages' 66 s).
- Last, every page gets its security policy, its scripts' integrity and its manifest's digest
  (``tools/site_policy.py``); notebook pages lose mkdocs-jupyter's mermaid loader, which imports
  from a CDN (the book draws no mermaid diagram).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import html as html_module
import json
import logging
import posixpath
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).parent))

import translations  # noqa: E402
from editions import JAPANESE, PREFIX, add_japanese, english_uri, is_japanese, japanese_title  # noqa: E402
from mkdocs.structure.files import File  # noqa: E402
from site_policy import apply_site_policy, without_mermaid_loader  # noqa: E402
from unused_css import drop_unused_notebook_css  # noqa: E402
from vendor import CACHE as VENDOR_CACHE  # noqa: E402
from vendor import JAPANESE_FROM, japanese_font_faces, japanese_subsets_for, vendor_into, wheels_into  # noqa: E402

from rules_lib.catalogue import checked_in_notebooks, load_catalogue  # noqa: E402
from rules_lib.messages import message  # noqa: E402
from rules_lib.messages.en import MESSAGES as ENGLISH_MESSAGES  # noqa: E402
from rules_lib.systems import System, systems  # noqa: E402

BOOK = Path(__file__).resolve().parents[1] / "book"
#: chapters of book/ that are no system, before the systems in the navigation, with their titles
GUIDES = {"dice": "Dice and odds"}


def chapters(book: Path = BOOK, registered: tuple[System, ...] | None = None) -> dict[str, str]:
    """Chapter folders of ``book`` in reading order, with their navigation titles: the guides, then
    every system of the registry (``rules_lib.systems``, read from the catalogue files).

    A folder of notebooks that is neither a guide nor a registered system, or a registered system
    without notebooks, is an error: a chapter is never dropped from the navigation in silence.
    """
    registered = systems() if registered is None else registered
    found = dict(GUIDES) | {s.system: s.short_name for s in registered}
    folders = {path.parent.name for path in book.glob("*/[0-9]*.ipynb")}
    unknown = sorted(folders - set(found))
    if unknown:
        raise ValueError(f"book/{unknown[0]}/ has notebooks but no catalogue file names it as a system "
                         f"(examples/NNN-{unknown[0]}.toml, see CONTRIBUTING.md) and it is not a guide {sorted(GUIDES)}")
    empty = sorted(set(found) - folders)
    if empty:
        raise ValueError(f"the registry names the system {empty[0]!r}, but book/{empty[0]}/ has no numbered notebook")
    return found


CHAPTERS = chapters()
log = logging.getLogger("mkdocs.hooks.rules_lib")
#: mkdocs-jupyter's template: a script adding the widget manager's bundle from a CDN (require.js,
#: which only the bundle needed, is off in mkdocs.yml: ``include_requirejs``)
_WIDGET_MANAGER = re.compile(r"<script>\s*\(function\(\) \{\s*function addWidgetsRenderer\(\).*?</script>", re.S)


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def catalogue_counts(lang: str = "en") -> str:
    """The home page's sentence of catalogue counts (the ``<!-- catalogue-counts -->`` marker), so the
    claim stays what the catalogue holds."""
    examples = list(load_catalogue().values())
    count = {kind: sum(e.status == kind for e in examples) for kind in ("reproduced", "consistent", "fact")}
    chosen = sum(e.status == "reproduced" and e.inputs == "book" for e in examples)
    if lang == JAPANESE:
        return (
            f"四つのテキストには例題と明記された数値が{len(examples)}件あり、本書をビルドするたびにすべてを"
            f"確かめています。{count['reproduced']}件は**再現**（ライブラリのルールが例題の入力から記載の値を"
            f"計算する。うち{chosen}件はテキストに数値がなく、入力は本書が選んだ）、{count['consistent']}件は"
            f"不明瞭なテキストについての本書の読みと**矛盾しない**もの、{count['fact']}件は**ルール上の事実**"
            "（テキストが明記する数値で、ライブラリのデータと照合するが、どのルールも計算しない）です。"
        )
    return (
        f"The four texts give {len(examples)} worked examples and stated numbers, and each is checked "
        f"every time the book is built: {count['reproduced']} are **reproduced** (a rule of the library "
        f"computes the stated values from the example's inputs; for {chosen} of them the text gives no "
        f"numbers and the book chose the inputs), {count['consistent']} are **consistent** with the "
        f"book's reading of an unclear text, and {count['fact']} are **rule facts**, numbers the text "
        f"states that are checked against the library's data but computed by no rule."
    )


#: the catalogue's kinds of entry as its tables name them, in each edition
CATALOGUE_KINDS = {
    "en": {"reproduced": "✓ reproduced", "consistent": "✓ consistent", "fact": "✓ rule fact", "pending": "pending"},
    JAPANESE: {"reproduced": "✓ 再現", "consistent": "✓ 矛盾なし", "fact": "✓ ルール上の事実", "pending": "未着手"},
}


def _catalogue_count_line(count: dict[str, int], chosen: int, total: int, lang: str) -> str:
    if lang == JAPANESE:
        return (f"再現{count['reproduced']}件（うち本書が入力を選んだもの{chosen}件）、矛盾なし{count['consistent']}件、"
                f"ルール上の事実{count['fact']}件、未着手{count['pending']}件（全{total}件）。")
    return (f"{count['reproduced']} reproduced ({chosen} with inputs the book chose), "
            f"{count['consistent']} consistent, {count['fact']} rule facts, {count['pending']} pending "
            f"(of {total}).")


def catalogue_tables(lang: str = "en") -> str:
    examples = list(load_catalogue().values())
    checked_by = checked_in_notebooks(BOOK)
    kinds = CATALOGUE_KINDS[lang]
    parts = []
    for system in systems():
        name = f"{system.name} ({system.code})"
        rows = [e for e in examples if e.system == system.system]
        count = {kind: sum(e.status == kind for e in rows) for kind in kinds}
        chosen = sum(e.status == "reproduced" and e.inputs == "book" for e in rows)
        parts.append(f"## {name}\n\n{_catalogue_count_line(count, chosen, len(rows), lang)}\n")
        header = "| ID | 出典 | 例題 | 種類 |" if lang == JAPANESE else "| id | source | example | kind |"
        parts.append(f"{header}\n|---|---|---|---|")
        for e in rows:
            status = kinds[e.status]
            # tests/test_catalogue.py fails if a checked kind has no notebook that checks it
            if e.status != "pending" and e.id in checked_by:
                notebook = checked_by[e.id][0].relative_to(BOOK).as_posix()
                status = f"[{status}]({notebook}#example-{e.id})"
            if e.readings and e.status == "reproduced":
                status += "（本書の読みによる）" if lang == JAPANESE else " (with the book's reading)"
            if e.why_consistent:
                status += f": {_escape(e.why_consistent)}"
            parts.append(f"| `{e.id}` | {e.source} | {_escape(e.title)} | {status} |")
        parts.append("")
    return "\n".join(parts)


def _notebook_title(path: Path, lang: str = "en") -> str:
    cells = translations.edition(json.loads(path.read_text(encoding="utf-8")), lang)["cells"]
    return "".join(cells[0]["source"]).splitlines()[0].lstrip("# ").strip()


#: the home page's table: its heading row and the names of each system's start pages, in each edition
SYSTEMS_TABLE_WORDS = {
    "en": ("| system | source | what kind of game | start here |", "a first battle", "calculators"),
    JAPANESE: ("| システム | 原文 | どんなゲームか（英語） | ここから |", "はじめての戦闘", "計算機"),
}


def systems_table(book: Path = BOOK, lang: str = "en") -> str:
    """The home page's table of the systems (the ``<!-- systems -->`` marker): each system's name,
    source, kind of game and its first chapter, first battle and calculators."""
    header, battle, calculators = SYSTEMS_TABLE_WORDS[lang]
    rows = [header, "|---|---|---|---|"]
    for system in systems():
        notebooks = sorted((book / system.system).glob("[0-9]*.ipynb"))
        short = japanese_title(system.short_name) if lang == JAPANESE else system.short_name
        first = _notebook_title(notebooks[0], lang).removeprefix(f"{short}: ").removeprefix(f"{short}：")
        links = [(first[:1].lower() + first[1:], notebooks[0])]
        for label, ending in ((battle, "-first-battle.ipynb"), (calculators, "-calculators.ipynb")):
            links += [(label, path) for path in notebooks if path.name.endswith(ending)][:1]
        start = " · ".join(f"[{label}]({system.system}/{path.name})" for label, path in links)
        rows.append(f"| {system.name} | `{system.code}` | {system.kind} | {start} |")
    return "\n".join(rows)


def reference_modules() -> list[str]:
    """The documented modules: rules_lib's top-level modules and packages, in a stable order."""
    package = BOOK.parent / "rules_lib"
    names = ["rules_lib.dice", "rules_lib.battle", "rules_lib.catalogue", "rules_lib.reader", "rules_lib.widgets",
             "rules_lib.browser", "rules_lib.cli", "rules_lib.api", "rules_lib.api_lane"]
    for path in sorted(package.iterdir()):
        name = f"rules_lib.{path.stem}"
        if path.is_dir() and (path / "__init__.py").exists() and name not in names:
            names.append(name)
    return names


def chapter_nav(book: Path = BOOK, registered: tuple[System, ...] | None = None) -> list:
    nav: list = [{"Home": "index.md"}]
    for folder, title in chapters(book, registered).items():
        notebooks = sorted((book / folder).glob("[0-9]*.ipynb"))
        nav.append({title: [f"{folder}/{path.name}" for path in notebooks]})
    reference = [{name: f"reference/{name}.md"} for name in reference_modules()]
    return nav + [
        {"Worked examples": "examples.md"},
        {"Rulings and gaps": "rulings.md"},
        {"Glossary": "glossary.md"},
        {"API reference": reference},
    ]


def on_files(files, config):
    for name in reference_modules():
        content = f"# `{name}`\n\n::: {name}\n"
        files.append(File.generated(config, f"reference/{name}.md", content=content))
        add_japanese(files, config, f"reference/{name}.md", content)
    return files


def chapter_parts(kind: str, lang: str = "en") -> str:
    """Each chapter's ``_glossary.md`` or ``_rulings.md``, in chapter order; for the Japanese edition
    its ``_rulings.ja.md`` where there is one, and the glossary's tables Japanese first."""
    texts = []
    for folder in CHAPTERS:
        path = BOOK / folder / f"_{kind}.md"
        translated = translations.japanese_page(path)
        if lang == JAPANESE and translated.exists():
            texts.append(translations.page_front_matter(translated.read_text(encoding="utf-8"))[1].strip())
        elif path.exists():
            text = path.read_text(encoding="utf-8").strip()
            texts.append(japanese_glossary(text) if lang == JAPANESE and kind == "glossary" else text)
    return "\n\n".join(texts)


def japanese_glossary(text: str) -> str:
    """A chapter's glossary for the Japanese edition: its heading in Japanese, the Japanese column
    first, and each link named by the Japanese page it leads to. The same rows: no term has a second copy."""
    lines = []
    for line in text.splitlines():
        if line.startswith("## "):
            lines.append(f"## {japanese_title(line[3:].strip())}")
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))] if line.startswith("|") else []
        if len(cells) != 3:
            lines.append(line)
            continue
        english, japanese, where = cells
        if english == "English":
            english, japanese, where = "English", "日本語", "説明"
        elif not english.strip("-: "):
            pass
        else:
            where = _GLOSSARY_LINK_TEXT.sub(lambda found: f"[{_japanese_page_title(found.group(2))}]({found.group(2)})",
                                            where)
        lines.append(f"| {japanese} | {english} | {where} |")
    return "\n".join(lines)


_GLOSSARY_LINK_TEXT = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")


@functools.cache
def _japanese_page_title(target: str) -> str:
    path = BOOK / target.partition("#")[0]
    return _notebook_title(path, JAPANESE) if path.suffix == ".ipynb" and path.exists() else target


def on_config(config):
    config["nav"] = chapter_nav()
    return config


def page_title(title: str, src_uri: str, chapters_by_folder: dict[str, str] = CHAPTERS) -> str:
    """A page's title in the browser tab and the header: a chapter page names its chapter's system or
    guide (four pages are "A first battle"), unless its title already does; in its edition's language."""
    japanese = is_japanese(src_uri)
    src_uri = english_uri(src_uri)
    folder = src_uri.split("/", 1)[0] if "/" in src_uri else ""
    chapter = chapters_by_folder.get(folder)
    if chapter and japanese:
        chapter = japanese_title(chapter)
    if not chapter or chapter.casefold() in title.casefold():
        return title
    return f"{title} · {chapter}"


def on_page_context(context, page, config, nav):
    # meta.title is what Material puts in <title> and the header; the navigation keeps the short title
    if page.title:
        page.meta["title"] = page_title(str(page.title), page.file.src_uri)
    return context


def on_page_markdown(markdown: str, page, config, files) -> str:
    lang = JAPANESE if is_japanese(page.file.src_uri) else "en"
    if "<!-- systems -->" in markdown:
        markdown = markdown.replace("<!-- systems -->", systems_table(lang=lang))
    if "<!-- catalogue-counts -->" in markdown:
        markdown = markdown.replace("<!-- catalogue-counts -->", catalogue_counts(lang))
    if "<!-- catalogue -->" in markdown:
        markdown = markdown.replace("<!-- catalogue -->", catalogue_tables(lang))
    for kind in ("glossary", "rulings"):
        marker = f"<!-- parts:{kind} -->"
        if marker in markdown:
            markdown = markdown.replace(marker, chapter_parts(kind, lang))
    return markdown


_CODE_CELL = re.compile(r'<div (class="jp-Cell jp-CodeCell\b)')
_DIV = re.compile(r"<(/?)div\b")


def exclude_code_from_search(html: str) -> str:
    """A notebook's code cells (input and output) are left out of the search index: hits and snippets are prose.

    Material's indexer skips an element carrying ``data-search-exclude``, but it matches the
    element's end by tag name, so the first nested ``</div>`` would end the skip. Each code cell
    becomes a ``<section>`` (no code cell contains one), which keeps its classes and layout.
    """
    parts, at = [], 0
    for start in _CODE_CELL.finditer(html):
        if start.start() < at:
            continue  # never nested, but do not count a cell twice
        depth, end = 0, None
        for tag in _DIV.finditer(html, start.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = tag
                break
        if end is None:
            raise ValueError(f"unbalanced <div> in a notebook code cell at character {start.start()}")
        parts += [html[at:start.start()], f'<section data-search-exclude="code" {start.group(1)}',
                  html[start.end():end.start()], "</section"]
        at = end.end()
    return "".join(parts) + html[at:]


_RELATIVE_LINK = re.compile(r'href="(?![a-z]+:|/|#)([^"#]+\.(?:ipynb|md))(#[^"]*)?"')


def on_page_content(html: str, page, config, files) -> str:
    """Links between notebooks, as written for JupyterLab, become links between site pages.

    mkdocs rewrites ``.md`` links in Markdown pages itself; mkdocs-jupyter leaves a notebook's
    links as they are. A link that points to no page fails the build.
    """
    # search: the rules (chapter pages) rank above the API reference that names them
    src_uri = english_uri(page.file.src_uri)
    boost = 2 if src_uri.split("/")[0] in CHAPTERS else 0.5 if src_uri.startswith("reference/") else 1
    page.meta.setdefault("search", {}).setdefault("boost", boost)
    # code blocks (API signatures, commands) are not searched either; a <pre> never nests
    html = re.sub(r"<pre\b", '<pre data-search-exclude="code"', html)
    html = term_anchors(html, english_uri(page.url))
    if not page.file.src_path.endswith(".ipynb"):
        return html
    html = stable_output_ids(exclude_code_from_search(html))
    base = posixpath.dirname(page.file.src_uri)

    def to_page(match: re.Match) -> str:
        target_uri = posixpath.normpath(posixpath.join(base, match.group(1)))
        target = files.get_file_from_path(target_uri)
        if target is None:
            raise ValueError(f"{page.file.src_uri}: link to {match.group(1)!r}, which is not a page of the book")
        return f'href="{target.url_relative_to(page.file)}{match.group(2) or ""}"'

    return _RELATIVE_LINK.sub(to_page, html)


_INLINE_STYLE = re.compile(r'<style type="text/css">(.*?)</style>', re.S)
#: an inline stylesheet longer than this becomes a shared file (mkdocs-jupyter's Jupyter CSS is ~590 KB)
SHARED_STYLE_FROM = 2000


def share_inline_styles(html: str, site_dir: Path, up: str) -> str:
    """Every large inline stylesheet becomes a file named by its content, linked from the page.

    mkdocs-jupyter inlines the same 590 KB of Jupyter CSS into every notebook page; as one file
    the browser downloads it once for the whole site instead of once a page.
    """
    def to_link(match: re.Match) -> str:
        css = match.group(1)
        if len(css) < SHARED_STYLE_FROM:
            return match.group(0)
        name = f"notebook-{hashlib.sha256(css.encode()).hexdigest()[:12]}.css"
        path = site_dir / "assets" / "stylesheets" / name
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(css, encoding="utf-8")
        return f'<link rel="stylesheet" href="{up}/assets/stylesheets/{name}">'

    return _INLINE_STYLE.sub(to_link, html)


_WIDGET_STATE = re.compile(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>', re.S)
#: as live-calculators.js reads them (pageClasses): the calculator classes a page's stored widgets name
_LIVE_CLASS = re.compile(r'"rules-lib-live--([A-Za-z0-9_.:]{1,200})"')
_CHARSET = re.compile(r"<meta charset=[^>]*>")
_VIEW = re.compile(r'<script type="application/vnd\.jupyter\.widget-view\+json">(.*?)</script>', re.S)
#: on every page, before anything else: whether this connection saves data (``rulesLibSavingData``,
#: read by the early start below and by live-calculators.js): it asks to (``saveData``, a phone's data
#: saver), or the browser classes it 3G or slower (``effectiveType``; not ``downlink``, which a
#: browser without an estimate yet reports as 1.6 Mbit/s however fast it is); and the theme's search index (1 MB)
#: and its worker held back: on a saving connection until the reader goes to search; on a page with
#: calculators (whose cores Python starts on) until then or a few seconds after the calculators are
#: live, the reader's first inputs answered first
_CONNECTION_AND_SEARCH = """<script>/* the connection, and the search index held back (tools/mkdocs_hooks.py) */
(function () {{
  var connection = navigator.connection, calculators = {calculators}, edition = {edition};
  /* each edition searches its own index: Material asks for the site root's (its bundle's "ks").
     Material's language switch, made for links to each language's root, asks for a sitemap beside
     each alternate link to map the page; the book links each page's pair itself (tools/editions.py),
     so that request is never sent (it would be a 404 a page) */
  var openRequest = XMLHttpRequest.prototype.open, sendRequest = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {{
    var args = Array.prototype.slice.call(arguments);
    if (edition) args[1] = String(url).replace(/\\/search\\/search_index\\.json$/, "/" + edition + "search/search_index.json");
    this.rulesLibSitemap = /\\/sitemap\\.xml$/.test(String(url));
    return openRequest.apply(this, args);
  }};
  XMLHttpRequest.prototype.send = function () {{
    if (!this.rulesLibSitemap) return sendRequest.apply(this, arguments);
  }};
  var saving = connection && (connection.saveData ? "save-data"
    : /(^|-)2g$|^3g$/.test(connection.effectiveType || "") ? "slow" : null);
  window.rulesLibSavingData = saving || null;
  if (!saving && !calculators) return;
  var RealWorker = window.Worker, release;
  var wanted = new Promise(function (resolve) {{ release = resolve; }});
  document.addEventListener("focusin", function (event) {{
    if (event.target.matches && event.target.matches(".md-search__input")) release();
  }});
  if (!saving) {{
    window.addEventListener("rules-lib-live-settled", function () {{ setTimeout(release, 3000); }});
    setTimeout(release, 15000);
  }}
  /* Material asks for the index with an XMLHttpRequest (its bundle's "to"); the request waits */
  var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {{
    this.rulesLibSearchIndex = /\\/search\\/search_index\\.json$/.test(String(url));
    return open.apply(this, arguments);
  }};
  XMLHttpRequest.prototype.send = function () {{
    var request = this, args = arguments;
    if (!request.rulesLibSearchIndex) return send.apply(request, args);
    wanted.then(function () {{ send.apply(request, args); }});
  }};
  if (!RealWorker) return;
  window.Worker = function (url, options) {{
    if (String(url).indexOf("/workers/search.") < 0) return new RealWorker(url, options);
    window.Worker = RealWorker;
    var real = null, queued = [], listeners = [];
    wanted.then(function () {{
      real = new RealWorker(url, options);
      listeners.forEach(function (l) {{ real.addEventListener(l[0], l[1], l[2]); }});
      queued.forEach(function (message) {{ real.postMessage(message); }});
      queued = listeners = null;
    }});
    return {{
      postMessage: function (message) {{ if (real) real.postMessage(message); else queued.push(message); }},
      addEventListener: function (type, listener, options) {{
        if (real) real.addEventListener(type, listener, options); else listeners.push([type, listener, options]);
      }},
      removeEventListener: function (type, listener, options) {{
        if (real) real.removeEventListener(type, listener, options);
        else listeners = listeners.filter(function (l) {{ return l[0] !== type || l[1] !== listener; }});
      }},
      terminate: function () {{ if (real) real.terminate(); }},
    }};
  }};
}})();
</script>"""
#: the worker is started here and adopted by live-calculators.js (startPython); the messages it posts
#: before then are kept for it. On a saving connection it is not started here: live-calculators.js
#: starts it (``rulesLibStartPython``) at the reader's first touch of a calculator
_EARLY_START = """<script>/* live calculators: Python starts before the page draws (tools/mkdocs_hooks.py) */
(function () {{
  if (!window.Worker) return;
  window.rulesLibStartPython = function () {{
    window.rulesLibStartPython = null;
    var root = new URL("{root}/", location.href), early = {{ messages: [], errors: [] }};
    var url = new URL("javascripts/live-python-worker.js", root);
    /* one Python for the pages of a build's snapshot group, outliving them a while (live-python-worker.js) */
    if (window.SharedWorker) {{
      early.errorSource = new SharedWorker(url, {{ type: "module", name: {name}, extendedLifetime: true }});
      early.worker = early.errorSource.port;
    }} else {{
      early.worker = early.errorSource = new Worker(url, {{ type: "module" }});
    }}
    early.worker.onmessage = function (event) {{ early.messages.push(event.data); }};
    early.errorSource.onerror = function (event) {{ early.errors.push(event); }};
    var manifest = document.querySelector('meta[name="rules-lib-manifest"]');
    early.worker.postMessage({{ op: "start", vendor: new URL("vendor/", root).href, manifest: manifest ? manifest.content : "",
      classes: {classes}, stored: {stored} }});
    /* a page gone for good frees its calculators in a Python other pages keep */
    window.addEventListener("pagehide", function (event) {{
      if (!event.persisted) early.worker.postMessage({{ op: "leave" }});
    }});
    window.rulesLibPython = early;
  }};
  if (!window.rulesLibSavingData) window.rulesLibStartPython();
}})();
</script>"""


def hold_search_index(html: str, edition: str = "") -> str:
    """Every page: the connection read, and the theme's search index held back where it would compete
    with Python or cost a saving connection (``_CONNECTION_AND_SEARCH``); just after the charset. A
    page of the Japanese edition (``edition`` ``"ja/"``) searches ``ja/search/search_index.json``."""
    charset = _CHARSET.search(html)
    if charset is None:
        return html
    state = _WIDGET_STATE.search(html)
    calculators = bool(state and _LIVE_CLASS.search(state.group(1)))
    script = _CONNECTION_AND_SEARCH.format(calculators=json.dumps(calculators), edition=json.dumps(edition))
    return f"{html[:charset.end()]}\n{script}{html[charset.end():]}"


def start_python_early(html: str, root: str) -> str:
    """Start the live calculators' Python worker from the page's ``<head>``, if the page has calculators.

    live-calculators.js runs at the end of the body, after the theme's scripts; started from the
    head, the worker downloads and boots Python while the rest of the page loads. It goes just after
    the charset, before the stylesheets, which would hold a script back; not on a connection that
    saves data (``hold_search_index``, whose script goes before it, says which).
    """
    state = _WIDGET_STATE.search(html)
    classes = list(dict.fromkeys(_LIVE_CLASS.findall(state.group(1)))) if state else []
    charset = _CHARSET.search(html)
    if not classes or charset is None:
        return html
    name = f"rules-lib-python {BUILD_PLACEHOLDER} {snapshot_group_of(classes)}"
    stored = json.dumps(stored_inputs(html), separators=(",", ":")).replace("</", "<\\/")
    script = _EARLY_START.format(root=root, classes=json.dumps(classes), name=json.dumps(name), stored=stored)
    return f"{html[:charset.end()]}\n{script}{html[charset.end():]}"


def stored_models(html: str) -> dict[str, dict]:
    """The page's stored widget models by id (those with a state), or none."""
    state = _WIDGET_STATE.search(html)
    if not state:
        return {}
    return {model_id: model for model_id, model in json.loads(state.group(1)).get("state", {}).items()
            if isinstance(model, dict) and "state" in model}


def live_views(html: str, models: dict[str, dict]) -> Iterator[tuple[re.Match, str, str]]:
    """Each stored view of a live calculator, in page order: its view tag, its model id and the
    calculator's class (a ``rules-lib-live--`` class of the model, `rules_lib.browser.LIVE_PREFIX`)."""
    from rules_lib.browser import LIVE_PREFIX

    for view in _VIEW.finditer(html):
        model_id = json.loads(view.group(1))["model_id"]
        if model_id not in models:
            continue
        live = [c.removeprefix(LIVE_PREFIX) for c in models[model_id]["state"].get("_dom_classes", [])
                if c.startswith(LIVE_PREFIX)]
        if live:
            yield view, model_id, live[0]


def stored_inputs(html: str) -> dict[str, list[dict]]:
    """The stored inputs of each calculator class a page shows (its first view of the class): its
    widgets depth-first, each with the `INPUT_KEYS` its stored state has, as the page sends them when it
    pairs the calculator (live-calculators.js), but none for the results (`OUTPUT_MODELS`). Sent
    from the ``<head>``, they let Python load them while the page draws
    (`rules_lib.browser.prebuild_calculators`)."""
    from rules_lib.browser import INPUT_KEYS, OUTPUT_MODELS

    models = stored_models(html)

    def depth_first(model_id: str) -> list[dict]:
        model = models[model_id]["state"]
        found = [{} if model.get("_model_name") in OUTPUT_MODELS else {key: model[key] for key in INPUT_KEYS if key in model}]
        for child in model.get("children", []):
            found += depth_first(child.removeprefix(_REFERENCE))
        return found

    stored: dict[str, list[dict]] = {}
    for _, model_id, live in live_views(html, models):
        if live not in stored:
            stored[live] = depth_first(model_id)
    return stored


#: where a page names its build (`build_id`) before the build is done; `name_the_build` replaces it
BUILD_PLACEHOLDER = "@rules-lib-build@"


def snapshot_group_of(classes: list[str]) -> str:
    """The snapshot group (`rules_lib.browser.snapshot_groups`) that holds every calculator module of
    a page's classes, as the worker picks its snapshot; "mixed" if none does (it imports the rest)."""
    from rules_lib.browser import snapshot_groups

    modules = {dotted.partition(":")[0] for dotted in classes}
    return next((group for group, held in snapshot_groups().items() if modules <= set(held)), "mixed")


def build_id(site_dir: Path) -> str:
    """What a page's shared Python worker is named after with its group: the build's manifest (every
    runtime file, wheel and snapshot by digest) and the worker's scripts. A page of another build
    never talks to a Python this build did not make."""
    digest = hashlib.sha256()
    for path in [site_dir / "vendor" / "wheels" / "manifest.json", *sorted((site_dir / "javascripts").glob("*.js"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def name_the_build(site_dir: Path) -> int:
    """Put the build's id in every page that names it; how many pages did."""
    named = 0
    build = build_id(site_dir)
    for path in site_dir.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        if BUILD_PLACEHOLDER in html:
            path.write_text(html.replace(BUILD_PLACEHOLDER, build), encoding="utf-8")
            named += 1
    return named


_SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b.*?</\1>", re.S)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [text for item in items for text in _strings(item)]


def japanese_subsets_shown(html: str) -> list[str]:
    """The Japanese font's subset files (paths under ``vendor/``) of the characters a page shows: its
    text and its stored widgets' (never a script's or stylesheet's), mapped to subsets as the font's
    CSS does."""
    shown = [html_module.unescape(_SCRIPT_OR_STYLE.sub(" ", html))]
    for state in _WIDGET_STATE.finditer(html):
        shown += [html_module.unescape(text) for text in _strings(json.loads(state.group(1)))]
    return japanese_subsets_for(" ".join(shown))


def preload_japanese_fonts(html: str, root: str, subsets: list[str] | None = None) -> str:
    """Ask for the Japanese font subsets the page shows from its ``<head>``, before anything draws.

    The browser otherwise finds a subset is needed only when it lays out text holding one of its
    characters: a calculators page asked for its 20 subsets in three waves as its widgets were
    drawn, and each wave laid the whole page out again.
    """
    subsets = japanese_subsets_shown(html) if subsets is None else subsets
    links = "".join(f'<link rel="preload" as="font" type="font/woff2" crossorigin href="{root}/vendor/{path}">'
                    for path in subsets)
    charset = _CHARSET.search(html)
    if not links or charset is None:
        return html
    return f"{html[:charset.end()]}\n{links}{html[charset.end():]}"


#: declares every subset when text not the page's own needs one the page lacks (inlined in the head)
JAPANESE_FONT_SCRIPT = BOOK / "javascripts" / "japanese-font.js"


@functools.cache
def _japanese_font_script() -> str:
    return JAPANESE_FONT_SCRIPT.read_text(encoding="utf-8")  # once a build (on_pre_build clears it)
_FIRST_STYLESHEET = re.compile(r'<link rel="stylesheet"')


def declare_japanese_faces(html: str, root: str, subsets: list[str] | None = None) -> str:
    """Declare, in the page's ``<head>``, only the Japanese font's faces of the subsets the page shows,
    with the script that declares all of them (``vendor/noto-sans-jp/400.css``) for text that is not
    the page's own: a value from Python, a reader's typing, a search result.

    The site's stylesheet declared all 119 faces on every page, fetched by an ``@import`` (one request
    after another): Chromium looked each face up for every font the page lays out, most of a
    calculators page's 1,200-2,300 font lookups. With its own 17-20 faces, the layout in the first
    0.6 s of a warm load of gundam-sentinel's calculators took 62-74 ms of the page's thread instead
    of 111-124 ms (three traces each).
    """
    subsets = japanese_subsets_shown(html) if subsets is None else subsets
    first = _FIRST_STYLESHEET.search(html)
    if first is None:
        return html
    script = _japanese_font_script()
    faces = japanese_font_faces(subsets, root)
    declared = (f"<style>{faces}</style>" if faces else "") + (
        f'<script data-all="{root}/vendor/noto-sans-jp/400.css" data-from="{JAPANESE_FROM}">{script}</script>\n')
    return f"{html[:first.start()]}{declared}{html[first.start():]}"


#: the element that holds a stored widget's view tag (nbconvert's lab template), and where
#: live-calculators.js draws the widget
_VIEW_HOLDER = re.compile(r'<div class="(jupyter-widgets jp-OutputArea-output[^"]*)" id="([^"]+)"([^>]*)>')
#: Material's own skip link sits in this element, the first of the body that a reader can focus
_MATERIAL_SKIP = re.compile(r'<div data-md-component="skip">.*?(?=</div>)', re.S)
SKIP_TO_CALCULATOR = message("site.skip_to_calculator", "en")
SKIP_TO_CALCULATOR_JA = message("site.skip_to_calculator", JAPANESE)


def first_calculator_holder(html: str) -> re.Match | None:
    """The element that holds the page's first live calculator (as `stored_inputs` finds them), if
    the page has one."""
    for view, _, _ in live_views(html, stored_models(html)):
        holders = list(_VIEW_HOLDER.finditer(html, 0, view.start()))
        return holders[-1] if holders else None
    return None


#: the ids nbconvert's template gives a JavaScript or widget output's element: a new uuid4 each build
_RANDOM_OUTPUT_ID = re.compile(r'\bid="([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})"')
#: each cell's anchor, from the cell's id stored in the notebook (nbformat 4.5)
_CELL_ANCHOR = re.compile(r'\bid="cell-id=([^"]+)"')


def stable_output_ids(html: str) -> str:
    """Each output element nbconvert names with a random uuid4 renamed after its cell:
    ``cell-<the cell's id>-output-<n>``, every mention of it too (the output's own script, and the
    "Skip to the calculator" link made later). Two builds of a page then write the same bytes, and a
    link to a calculator (``page/#cell-…-output-1``) still leads to it after the next build."""
    cells = [(found.start(), found.group(1)) for found in _CELL_ANCHOR.finditer(html)]
    renamed: dict[str, str] = {}
    outputs_of_cell: dict[str, int] = {}
    for found in _RANDOM_OUTPUT_ID.finditer(html):
        if found.group(1) in renamed:
            continue
        before = bisect.bisect_right(cells, found.start(), key=lambda cell: cell[0])
        cell = cells[before - 1][1] if before else "none"  # an output above every cell: none here yet
        outputs_of_cell[cell] = outputs_of_cell.get(cell, 0) + 1
        renamed[found.group(1)] = f"cell-{cell}-output-{outputs_of_cell[cell]}"
    if not renamed:
        return html
    return re.sub("|".join(map(re.escape, renamed)), lambda found: renamed[found.group(0)], html)


def skip_to_first_calculator(html: str, lang: str = "en") -> str:
    """A "Skip to the calculator" link just after Material's "Skip to content" (the second stop of
    the keyboard from the top of the page, with the same look: shown when focused), to the page's
    first live calculator (WCAG 2.4.1). The calculator's holder takes the focus (``tabindex``), so
    that the next Tab goes on inside the calculator."""
    holder = first_calculator_holder(html)
    skip = _MATERIAL_SKIP.search(html)
    if holder is None or skip is None:
        return html
    classes, element_id, rest = holder.groups()
    words = SKIP_TO_CALCULATOR_JA if lang == JAPANESE else SKIP_TO_CALCULATOR
    link = f'<a href="#{element_id}" class="md-skip rules-lib-skip">{words}</a>\n'
    # nbconvert makes an output focusable (tabindex="0", it may scroll); else it is made so here
    rest = rest if "tabindex=" in rest else f'{rest} tabindex="-1"'
    focusable = f'<div class="{classes} rules-lib-first-calculator" id="{element_id}"{rest}>'
    html = html[:holder.start()] + focusable + html[holder.end():]
    return html[:skip.end()] + link + html[skip.end():]


_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_DIALOG_NAME = message("site.search_dialog", "en")
SEARCH_DIALOG_NAME_JA = message("site.search_dialog", JAPANESE)


def name_the_search_dialog(html: str, lang: str = "en") -> str:
    """The theme's search is a dialog without a name (axe-core: aria-dialog-name): a screen reader
    announces it as "dialog" only; it is named here."""
    name = SEARCH_DIALOG_NAME_JA if lang == JAPANESE else SEARCH_DIALOG_NAME
    return html.replace(_SEARCH_DIALOG, f'{_SEARCH_DIALOG[:-1]} aria-label="{name}">', 1)


#: a worked example's check as rules_lib.catalogue writes it (CheckResult._repr_html_), in English:
#: its summary (verdict, source, how many values rest on a reading), its table's head, its entry line
_CHECK_SUMMARY = re.compile(
    r'(<details class="example-check"[^>]*><summary[^>]*>)([^<]*), (<code>[^<]*</code>)([^<]*)(</summary>)')
_CHECK_WORDS = re.compile(r'(<table class="example-values"><thead><tr><th>)value(</th><th>)computed(</th><th>)rests on'
                          r'|(<p class="example-id">)catalogue entry(?= <code>)')
_CHECK_VERDICTS = ("fact", "consistent_only", "consistent", "matches_for_inputs", "matches")
_CHECK_COUNTS = ("read", "chosen")
#: a value's basis, the last cell of its row (rules_lib.catalogue's Example.basis)
_CHECK_BASIS = re.compile(r"(</td><td>)([^<]*)(</td></tr>)")
_CHECK_BASES = ("text", "fact", "instance", "book_inputs")
_CHECK_READINGS = ("reading", "readings")  # "(ruling: …)" and "(rulings: …)": the titles stay the stored ones


def _escaped(key: str) -> str:
    return html_module.escape(ENGLISH_MESSAGES[key])  # as html.escape wrote it in the cell's output, fields unfilled


def japanese_example_checks(html: str) -> str:
    """A Japanese page's worked-example checks in Japanese: the stored output is the one English
    notebook's (tools/translations.py keeps the outputs), so its ✓ line, table head and entry line
    are put in the Japanese edition's words here, and each value's basis; the values, and the rulings'
    titles a basis names, stay as stored.
    A verdict this does not know stays English (tests/test_site_words.py checks every kind)."""
    verdicts = {_escaped(f"site.check.{kind}"): message(f"site.check.{kind}", JAPANESE) for kind in _CHECK_VERDICTS}
    counts = []
    for key in _CHECK_COUNTS:  # "; {read} of {total} values …": the numbers are what the English had
        pattern = re.escape(_escaped(f"site.check.{key}"))
        for field in (key, "total"):
            pattern = pattern.replace(re.escape("{" + field + "}"), rf"(?P<{field}>\d+)")
        counts.append((re.compile(pattern), key))

    def partly(text: str) -> str:
        for pattern, key in counts:
            text = pattern.sub(lambda m, key=key: message(f"site.check.{key}", JAPANESE, **m.groupdict()), text)
        return text

    bases = {_escaped(f"site.check.basis.{kind}"): message(f"site.check.basis.{kind}", JAPANESE) for kind in _CHECK_BASES}
    readings = [(re.compile(re.escape(_escaped(f"site.check.basis.{kind}")).replace(re.escape("{titles}"), "(?P<titles>.*)")),
                 f"site.check.basis.{kind}") for kind in _CHECK_READINGS]

    def basis(found: re.Match) -> str:
        start, text, end = found.groups()
        if text in bases:
            return f"{start}{bases[text]}{end}"
        for pattern, key in readings:
            if read := pattern.fullmatch(text):
                return f"{start}{message(key, JAPANESE, titles=read.group('titles'))}{end}"
        return found.group(0)

    def table(found: re.Match) -> str:
        return _CHECK_BASIS.sub(basis, found.group(0))

    def summary(found: re.Match) -> str:
        start, verdict, source, rest, end = found.groups()
        verdict = verdicts.get(verdict, verdict)
        return f"{start}{verdict}{message('site.check.source', JAPANESE)}{source}{partly(rest)}{end}"

    def words(found: re.Match) -> str:
        if found.group(4) is not None:
            return found.group(4) + message("site.check.entry", JAPANESE)
        head = (message(f"site.check.{key}", JAPANESE) for key in ("value", "computed", "rests_on"))
        return "".join(part + word for part, word in zip(found.groups()[:3], head, strict=True))

    html = _EXAMPLE_VALUES.sub(table, _CHECK_SUMMARY.sub(summary, html))
    return _CHECK_WORDS.sub(words, html)


_EXAMPLE_VALUES = re.compile(r'<table class="example-values">.*?</table>', re.S)
_VALUE_NAME = re.compile(r"<td><code>([a-z0-9_]+)</code>")


def break_value_names_at_underscores(html: str) -> str:
    """A worked example's value names (``extra_check_if_through_at_least``) may wrap after an
    underscore, never inside a word: on a phone their column was a few letters wide, and the words
    read split ("thro / ugh")."""
    def names(table: re.Match) -> str:
        return _VALUE_NAME.sub(lambda m: f"<td><code>{m.group(1).replace('_', '_<wbr>')}</code>", table.group(0))
    return _EXAMPLE_VALUES.sub(names, html)


def on_post_page(output: str, page, config) -> str:
    root = posixpath.relpath(".", posixpath.dirname(page.url.rstrip("/") + "/x") or ".")
    lang = JAPANESE if is_japanese(page.file.src_uri) else "en"
    edition = PREFIX if lang == JAPANESE else ""
    output = name_the_search_dialog(output, lang)
    if page.file.src_path.endswith(".ipynb"):
        # before the fonts: the Japanese edition's link is Japanese text the page shows
        output = skip_to_first_calculator(output, lang)
        output = japanese_example_checks(output) if lang == JAPANESE else output
    subsets = japanese_subsets_shown(output)
    output = declare_japanese_faces(output, root, subsets)
    if not page.file.src_path.endswith(".ipynb"):
        return hold_search_index(output, edition)
    # the font links after Python's early start: both go before the stylesheets, and the connection's
    # script before them all
    output = preload_japanese_fonts(output, root, subsets)
    output = hold_search_index(start_python_early(output, root), edition)
    output = break_value_names_at_underscores(output)
    output = share_inline_styles(output, Path(config["site_dir"]), root)
    return widgets_as_parsed(without_mermaid_loader(without_widget_manager(output)), root)


#: the theme's stylesheet, after the site's root as the page writes it
_THEME_STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]*)assets/stylesheets/main\.')


def on_post_template(output: str, template_name: str, config) -> str:
    """The 404 page (a theme template, not a page) declares its Japanese faces too; its links start
    from the site's root, as the theme writes them there."""
    if template_name != "404.html":
        return output
    found = _THEME_STYLESHEET.search(output)
    return declare_japanese_faces(output, found.group(1).rstrip("/")) if found else output


def without_widget_manager(html: str) -> str:
    """The page without the widget manager mkdocs-jupyter's template adds (the html-manager bundle,
    from a CDN): ``javascripts/live-widgets.js`` draws the stored widgets.

    A template that adds it some other way is an error, not a page that loads a CDN.
    """
    html, found = _WIDGET_MANAGER.subn("", html)
    if found > 1 or "addWidgetsRenderer" in html or "@jupyter-widgets/html-manager" in html:
        raise RuntimeError("mkdocs-jupyter's template adds the widget manager in a way the hook does not know: "
                           "see _WIDGET_MANAGER in tools/mkdocs_hooks.py")
    return html


#: the scripts that draw the stored widgets and pair the calculators (mkdocs.yml's extra_javascript)
_WIDGET_SCRIPTS = re.compile(r'<script src="[^"]*javascripts/live-(?:widgets|calculators)\.js"></script>')
#: after each widget's view tag: live-calculators.js places (and pairs) it before the parser goes on
#: how a stored widget state refers to another model
_REFERENCE = "IPY_MODEL_"
_PLACE_VIEW = "<script>window.rulesLibLive&&rulesLibLive.place&&rulesLibLive.place()</script>"


def widgets_as_parsed(html: str, root: str) -> str:
    """A page with stored widgets: the first widget's state and the scripts that draw the widgets go
    just before it, and each widget is placed as the parser reaches it.

    Left at the end of the body, they ran only once the whole page was parsed, after the theme's
    bundle: a warm load's first calculator was live 0.4-0.7 s after navigation, though Python was
    running after 0.1 s. Now the first calculator is paired (and, on a warm load, drawn) while the
    rest of the page is parsed. The other widgets' state stays where it was, the page's last part,
    read once the page is parsed: all of it read early (110 KB of JSON) made the theme's
    DOMContentLoaded work wait for the garbage collector (10-40 ms more). The state is split, not copied: each model is in one
    part (`_first_widget_state`). The two scripts are asked for from the ``<head>`` too, so that the
    parser, which waits for them, finds them loaded.
    """
    state = _WIDGET_STATE.search(html)
    scripts = _WIDGET_SCRIPTS.findall(html)
    first = _VIEW.search(html)
    if not state or len(scripts) != 2 or first is None or first.start() > state.start():
        return html
    early, rest = _first_widget_state(json.loads(state.group(1)), json.loads(first.group(1))["model_id"])
    rest_tag = _state_tag(rest) if rest["state"] else ""
    html = _WIDGET_SCRIPTS.sub("", html[:state.start()] + rest_tag + html[state.end():])
    html = _VIEW.sub(lambda view: view.group(0) + _PLACE_VIEW, html)
    first = _VIEW.search(html)
    html = html[:first.start()] + _state_tag(early) + "".join(scripts) + html[first.start():]
    charset = _CHARSET.search(html)
    if charset is None:
        return html
    preloads = "".join(f'<link rel="preload" as="script" href="{root}/javascripts/live-{name}.js">'
                       for name in ("widgets", "calculators"))
    return f"{html[:charset.end()]}\n{preloads}{html[charset.end():]}"


def _first_widget_state(stored: dict, model_id: str) -> tuple[dict, dict]:
    """The stored state split in two: the models the widget ``model_id`` refers to (its children,
    layouts and styles, and theirs), and every other model; each part keeps the state's other keys."""
    models = stored.get("state", {})
    wanted, todo = set(), [model_id]
    while todo:
        current = todo.pop()
        if current in wanted or current not in models:
            continue
        wanted.add(current)
        todo += [text.removeprefix(_REFERENCE) for text in _strings(models[current].get("state", {}))
                 if text.startswith(_REFERENCE)]
    def part(keep) -> dict:
        return {**stored, "state": {key: model for key, model in models.items() if keep(key)}}
    return part(lambda key: key in wanted), part(lambda key: key not in wanted)


def _state_tag(stored: dict) -> str:
    # "</" written "<\/" as nbconvert writes it, so no text in the state ends the script early
    text = json.dumps(stored, ensure_ascii=False).replace("</", "<\\/")
    return f'<script type="application/vnd.jupyter.widget-state+json">{text}</script>'


_GLOSSARY_LINK = re.compile(r"\]\(([^)#\s]+)\.(?:ipynb|md)(#[^)\s]*)?\)")


def glossary_terms(cell: str) -> list[str]:
    """The search terms a glossary cell names: ``hex sheet, hex, hexside`` gives three.

    Terms are separated by ``,`` ``;`` ``、`` or `` / ``; notes in parentheses and code marks are dropped.
    """
    cell = re.sub(r"\([^)]*\)|（[^）]*）|`", "", cell)
    return [term.strip() for term in re.split(r"[;,、]| / ", cell) if term.strip()]


class GlossaryEntry(NamedTuple):
    """One glossary row's link: its terms, the page and heading it names, and the term's own anchor there."""

    terms: list[str]
    english: str
    japanese: str
    page: str  # search location of the page, e.g. "gundam-sentinel/02-movement/"
    heading: str  # id of the heading the row links to ("" for the page's first heading)
    anchor: str  # "term-…", set just before that heading


def glossary_rows() -> list[GlossaryEntry]:
    """Every link of every glossary row, in chapter order."""
    entries: list[GlossaryEntry] = []
    taken: set[tuple[str, str]] = set()
    for folder in CHAPTERS:
        path = BOOK / folder / "_glossary.md"
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            if not line.startswith("|") or len(cells) != 3 or cells[0] == "English" or not cells[0].strip("-: "):
                continue
            terms = glossary_terms(cells[0]) + glossary_terms(cells[1])
            for link in _GLOSSARY_LINK.finditer(cells[2]):
                page = f"{link.group(1)}/"
                slug = "term-" + (re.sub(r"[^a-z0-9]+", "-", terms[0].lower()).strip("-") or "ja")
                anchor, n = slug, 1
                while (page, anchor) in taken:
                    n += 1
                    anchor = f"{slug}-{n}"
                taken.add((page, anchor))
                english, japanese = (re.sub(r"\s+", " ", c.replace("`", "")) for c in cells[:2])
                entries.append(GlossaryEntry(terms, english, japanese, page, (link.group(2) or "#")[1:], anchor))
    return entries


def term_anchors(html: str, page_location: str) -> str:
    """An empty ``<span id="term-…">`` before each heading a glossary row links to, for search hits on the term."""
    for entry in glossary_rows():
        if entry.page != page_location:
            continue
        heading = re.compile(rf'<h[1-6][^>]*\bid="{re.escape(entry.heading)}"' if entry.heading else r"<h1\b")
        found = heading.search(html)
        if found is None:
            log.warning("glossary: %s#%s (%s) is no heading of the built site", entry.page, entry.heading, entry.english)
            continue
        html = f'{html[:found.start()]}<span id="{entry.anchor}"></span>{html[found.start():]}'
    return html


def index_glossary_terms(index_path: Path, lang: str = "en") -> None:
    """Each glossary row becomes a search entry of its own at the section it names, keyed by its terms.

    Material's search boosts ``tags`` far above text, so the entry is the first hit for its terms,
    English or Japanese. One entry per row, not keywords on the section: the index adds up every
    keyword a query word (or a longer word it begins) matches, so a section explaining several
    related terms (``combat turn``, ``combat map``) would outrank the one explaining the term asked
    for. Among rows matching equally, the one with fewer words (the term itself) ranks first.
    """
    index = json.loads(index_path.read_text(encoding="utf-8"))
    separator = re.compile(index["config"]["separator"])
    by_location = {doc["location"]: doc for doc in index["docs"]}
    edition = PREFIX if lang == JAPANESE else ""
    for entry in glossary_rows():
        page = f"{edition}{entry.page}"
        section = by_location.get(f"{page}#{entry.heading}") or by_location.get(page)
        if section is None:
            log.warning("glossary: %s (%s) is no page of the built site", page, entry.english)
            continue
        # a term as the search will cut a query of it (the index's own separator: １ゾロ is 1 + ゾロ), and whole
        pieces = [piece for term in entry.terms for piece in separator.split(term) if piece.strip()]
        words = list(dict.fromkeys([*(w for term in entry.terms for w in term.split()), *pieces]))
        text = (f"<p>{entry.japanese}（{entry.english}）、用語集より</p>" if lang == JAPANESE
                else f"<p>{entry.english} ({entry.japanese}), in the glossary</p>")
        index["docs"].append({
            "location": f"{page}#{entry.anchor}",
            "title": section["title"],
            "text": text,
            "tags": words,
            "boost": section.get("boost", 1) * (1 + 0.1 / len(words)),
        })
    index_path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


#: Material's query segmenter for kanji (``segment`` in its search worker) never tries a piece that
#: ends the query, so 回避行動 is searched as 回避 alone; the first two edits let it (upstream
#: "@todo hotfix"). Material also cuts every kanji compound of the index into TinySegmenter's pieces,
#: glossary tags included, and searches a compound as those pieces, each with a trailing wildcard:
#: then 回避行動 finds 回避値 first (回避* matches both its 回避 and its 回避値) and 武器攻撃力 never
#: finds its own entry (攻撃力 is a word of the index, but the entry holds only 攻撃 and 力). The last
#: two edits keep a glossary tag whole (a tags field is a list, text and title are strings) and search
#: each piece of a compound exactly, weighted ^100, beside TinySegmenter's pieces of it at ^1: the
#: entry whose tag is the term comes first, and prose naming its pieces is still found.
_SEGMENTER_FIX = {
    "for(let o=s+1;o<t.length;o++)t.slice(s,o)in e": "for(let o=s+1;o<=t.length;o++)t.slice(s,o)in e",
    "n[a]&&a<t.length-1&&(i[s++]=a)": "n[a]&&a<t.length&&(i[s++]=a)",
    'if(typeof lunr.segmenter!="undefined"){let x=g.slice(l,m)':
        'if(typeof lunr.segmenter!="undefined"&&!Array.isArray(t)){let x=g.slice(l,m)',
    '[...fe(s,this.index.invertedIndex)].join("* ")':
        '[...fe(s,this.index.invertedIndex)].map(x=>{let v=lunr.segmenter?lunr.segmenter.segment(x):[x];'
        'return[x+"^100",...v.length>1?v.map(y=>y+"^1"):[]].join(" ")}).join(" ")+" "',
}


def split_search_index(site_dir: Path) -> Path:
    """The search plugin's one index split by edition: the English pages stay in
    ``search/search_index.json``; the Japanese go to ``ja/search/search_index.json``, searched as
    Japanese only (``lang: [ja]``, the project's separator). Returns the Japanese index's path."""
    english_path = site_dir / "search" / "search_index.json"
    index = json.loads(english_path.read_text(encoding="utf-8"))
    japanese = {**index, "config": {**index["config"], "lang": [JAPANESE]},
                "docs": [doc for doc in index["docs"] if doc["location"].startswith(PREFIX)]}
    index["docs"] = [doc for doc in index["docs"] if not doc["location"].startswith(PREFIX)]
    english_path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    japanese_path = site_dir / PREFIX / "search" / "search_index.json"
    japanese_path.parent.mkdir(parents=True, exist_ok=True)
    japanese_path.write_text(json.dumps(japanese, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    return japanese_path


def fix_kanji_query_segmenter(site_dir: Path) -> None:
    workers = sorted((site_dir / "assets/javascripts/workers").glob("search.*.min.js"))
    for worker in workers:
        code = worker.read_text(encoding="utf-8")
        # an edit already in place was kept by a dirty rebuild
        if not all(old in code or new in code for old, new in _SEGMENTER_FIX.items()):
            log.warning("%s: Material's kanji query segmenter changed; check _SEGMENTER_FIX", worker.name)
            continue
        for old, new in _SEGMENTER_FIX.items():
            code = code.replace(old, new)
        worker.write_text(code, encoding="utf-8")


def make_vendor_folder(folder: Path) -> Path:
    """The site's ``vendor/`` folder, made in ``folder``: the pinned assets, the wheels, their manifest."""
    vendor_into(folder)
    wheels_into(folder / "wheels")
    return folder


#: the vendor folder being made for the build under way, and where
_vendor_ahead: tuple[Future, Path] | None = None


def _drop_vendor_ahead() -> None:
    global _vendor_ahead
    if _vendor_ahead is not None:
        future, folder = _vendor_ahead
        future.exception()  # waited for: the next one uses the same caches
        shutil.rmtree(folder, ignore_errors=True)
        _vendor_ahead = None


def on_pre_build(config) -> None:
    global _vendor_ahead
    _drop_vendor_ahead()  # a rebuild (make serve) that started before the last one ended
    _japanese_font_script.cache_clear()  # make serve: an edited script is inlined in the rebuild
    VENDOR_CACHE.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="vendor-ahead-", dir=VENDOR_CACHE))
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vendor")
    future = pool.submit(make_vendor_folder, folder)
    pool.shutdown(wait=False)  # its one thread ends with the task
    _vendor_ahead = (future, folder)


def on_build_error(error) -> None:
    _drop_vendor_ahead()


def on_post_build(config) -> None:
    site_dir = Path(config["site_dir"])
    drop_unused_notebook_css(site_dir)
    fix_kanji_query_segmenter(site_dir)
    # hooks run after plugins: the search plugin has written its index
    japanese_index = split_search_index(site_dir)
    index_glossary_terms(site_dir / "search" / "search_index.json")
    index_glossary_terms(japanese_index, JAPANESE)
    future, _ = _vendor_ahead  # made from on_pre_build, which MkDocs runs before every build
    try:
        made = future.result()
        shutil.rmtree(site_dir / "vendor", ignore_errors=True)
        shutil.move(made, site_dir / "vendor")
    finally:
        _drop_vendor_ahead()
    name_the_build(site_dir)
    # last: the policy holds the hashes of the pages' inline scripts as they are now (tools/site_policy.py)
    apply_site_policy(site_dir)
