"""MkDocs hooks: the source texts as line-numbered pages, and every citation linked to its line.

- ``sources/<code>.md`` pages are generated for the four texts in ``sources/`` (``on_files``):
  each line of the text is a row whose anchor is ``#L<n>``, in Japanese (``lang="ja"``), and
  the raw ``.txt`` files are served beside them. ``sources/index.md`` is the folder's README. The
  Japanese edition's pages (``ja/sources/``) have Japanese headings and introductions around the
  same text; a citation on a Japanese page opens the Japanese edition's source page.
- Citations in the book, the rulings, the glossary, the catalogue and the API reference's
  docstrings become links (``on_page_content``): ``000 §7-1`` written as inline code opens the first line of that
  section, ``line 350`` / ``lines 566–569`` / ``l.34`` / ``L10-L14`` open that line of the text
  cited last in the same paragraph (or of the chapter's own text; on an API page, of the
  module's system). Text inside code cells, their outputs, code blocks and existing links is
  left alone.
- The section index (section -> first line) is built from each text's headings: numbered ones
  (``７−１．ミサイル``, ``3-4-2-2.白兵攻撃と回避``, ``1-1・行動決定フェイズ``) are found by their
  number; the headings the book numbers itself (``sources/README.md`` says how) are listed in
  ``NAMED_HEADINGS`` and found by their text.
"""

from __future__ import annotations

import functools
import html
import re
import sys
import unicodedata
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from mkdocs.structure.files import File

sys.path.insert(0, str(Path(__file__).parent))

from editions import PREFIX, add_japanese, english_uri, is_japanese, japanese_title  # noqa: E402

from rules_lib.systems import systems  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "sources"


@dataclass(frozen=True)
class SourceText:
    code: str  # how the book cites it: 000
    filename: str
    title: str
    chapter: str  # the book folder whose citations mean this text when they name no file
    short: str  # its name in the navigation

    @property
    def path(self) -> Path:
        return SOURCES / self.filename

    @property
    def page(self) -> str:
        return f"sources/{self.code}.md"


#: the source texts, one per system of the registry (``rules_lib.systems``, the catalogue files' headers)
TEXTS = {
    system.code: SourceText(system.code, system.source_file, system.source_title, system.system, system.short_name)
    for system in systems()
}
CHAPTER_TEXT = {text.chapter: code for code, text in TEXTS.items()}
#: a ``## <System>`` heading of the glossary and rulings pages (the system's short name) names the text cited below it
SYSTEM_WORDS = {text.short: code for code, text in TEXTS.items()} | {
    japanese_title(text.short): code for code, text in TEXTS.items()}
_CODES = "|".join(re.escape(code) for code in TEXTS)

#: headings the text does not number, numbered by the book (sources/README.md), found by their text
NAMED_HEADINGS = {
    "000": {
        "1": "１．対ＭＳ戦闘", "2": "２．行動パターンの説明", "3": "３．行動ポイントの消費", "4": "４．移動",
        "5": "５．攻撃", "6": "６．命中判定", "7": "７．特殊な戦闘方法による特別ルール", "8": "８．特殊な判定",
    },
    "001": {
        "1": "Ａ．行動について", "2": "ＥＸ．特殊行動", "3": "※行動の実行について", "3-2": "攻撃の計算",
        "4": "※特殊行動について", "5": "※戦闘終了後", "5-1": "ＰＣ強化：", "5-2": "ＡＣ強化：",
    },
    "002": {
        "H1": "【パラメーター】", "H2": "【サンプル機体】", "H3": "◆戦闘前に", "H4": "◆用語",
        "H5": "【アビリティ判定】", "H6": "【インタラプトアクション】",
    },
}
#: texts whose items ``１．`` number within the book's top-level section (001 §4-5 is ５． under §4)
ITEMS_UNDER_TOP = {"001"}

_DASHES = str.maketrans({"−": "-", "－": "-", "‐": "-", "–": "-"})
_NUMBERED = re.compile(r"(\d{1,2}(?:-\d{1,2}){1,3})[.・ ]")
_ITEM = re.compile(r"(\d{1,2})\.")


def _normal(line: str) -> str:
    return unicodedata.normalize("NFKC", line).translate(_DASHES).strip()


def source_lines(code: str) -> list[str]:
    return TEXTS[code].path.read_text(encoding="utf-8").splitlines()


@functools.cache
def section_index(code: str) -> dict[str, int]:
    """Section -> its heading's line (1-based) in text ``code``."""
    lines = source_lines(code)
    index: dict[str, int] = {}
    for section, heading in NAMED_HEADINGS.get(code, {}).items():
        found = [n for n, line in enumerate(lines, 1) if line.strip() == heading]
        if not found:
            raise ValueError(f"{TEXTS[code].filename}: heading {heading!r} of §{section} is not in the text")
        index[section] = found[0]
    tops = sorted((line, section) for section, line in index.items() if "-" not in section)
    for number, line in enumerate(lines, 1):
        normal = _normal(line)
        numbered = _NUMBERED.match(normal)
        if numbered:
            index.setdefault(numbered.group(1), number)
        elif code in ITEMS_UNDER_TOP and (item := _ITEM.match(normal)):
            top = [section for start, section in tops if start < number]
            if top:
                index.setdefault(f"{top[-1]}-{item.group(1)}", number)
    return index


def line_of_section(code: str, section: str) -> int | None:
    """The first line of ``§section`` of text ``code``; a top-level number falls back to its first part."""
    index = section_index(code)
    if section in index:
        return index[section]
    parts = [line for name, line in index.items() if name.startswith(f"{section}-")]
    return min(parts) if parts else None


# --- the source pages -----------------------------------------------------------------------

def source_page_markdown(code: str, japanese: bool = False) -> str:
    """A source text's page; the Japanese edition's chrome is Japanese, the text is the same."""
    text = TEXTS[code]
    if japanese:
        heading = f"# {code}: {japanese_title(text.short)}の原文"
        about = (f"原文テキスト `{text.filename}` をそのまま載せています（[プレーンテキスト](../../sources/{text.filename})、"
                 f"全{len(source_lines(code))}行）。本書は `{code} §節` と行番号で引用し、下の各行にリンクがあります。"
                 "抽出で失われた部分は[原文について](index.md#known-gaps-and-artefacts-of-the-extraction)にあります。")
    else:
        heading = f"# {code}: {text.title}"
        about = (f"The source text `{text.filename}`, verbatim ([plain text]({text.filename})), "
                 f"{len(source_lines(code))} lines. The book cites it as `{code} §section` and by line; "
                 "each line below has its own link. What the extraction lost is listed in "
                 "[the source texts](index.md#known-gaps-and-artefacts-of-the-extraction).")
    return "\n".join([
        "---", "search:", "  exclude: true", "---", "",
        heading,
        "",
        about,
        "",
        f"<!-- source-text:{code} -->",
        "",
    ])


def source_text_html(code: str, japanese: bool = False) -> str:
    rows = []
    for number, line in enumerate(source_lines(code), 1):
        rows.append(
            f'<div class="source-line" id="L{number}"><a class="source-ln" href="#L{number}">{number}</a>'
            f'<span class="source-lt">{html.escape(line)}</span></div>'
        )
    sections = ", ".join(
        f'<a href="#L{line}">§{name}</a>' for name, line in sorted(section_index(code).items(), key=lambda item: item[1])
    )
    label = f"節：{sections}。" if japanese else f"Sections: {sections}."
    return f'<p class="source-sections">{label}</p>\n<div class="source-text" lang="ja">\n' + "\n".join(rows) + "\n</div>"


def sources_index_markdown(japanese: bool = False) -> str:
    """The source texts' folder README as a page, with the list of the texts' pages; the Japanese
    edition's has Japanese headings and introduction above the README's English."""
    readme = (SOURCES / "README.md").read_text(encoding="utf-8")
    if japanese:
        pages = "\n".join(f"- [`{code}`: {japanese_title(text.short)}の原文]({code}.md)" for code, text in TEXTS.items())
        title, _, rest = readme.partition("\n")
        intro = ("本書が扱う四つのルールテキストの原文です（抽出したまま、UTF-8）。"
                 "この先の説明（引用の書き方、節番号の付け方、抽出で失われたもの）はまだ英語のままです。")
        # the plain texts are served once, beside the English pages
        rest = re.sub(r"\]\(([0-9]{3}_[0-9a-f]{16}\.txt)\)", r"](../../sources/\1)", rest)
        readme = f"# 原文について\n\n{intro}\n{rest}"
        return "---\nsearch:\n  exclude: true\n---\n\n" + readme.replace(
            "\n## How sections are numbered", f"\n## ここで読む\n\n{pages}\n\n## How sections are numbered", 1)
    pages = "\n".join(f"- [`{code}`: {text.title}]({code}.md)" for code, text in TEXTS.items())
    return "---\nsearch:\n  exclude: true\n---\n\n" + readme.replace(
        "\n## How sections are numbered", f"\n## Read them here\n\n{pages}\n\n## How sections are numbered", 1)


def on_files(files, config):
    files.append(File.generated(config, "sources/index.md", content=sources_index_markdown()))
    add_japanese(files, config, "sources/index.md", sources_index_markdown(japanese=True))
    for code, text in TEXTS.items():
        files.append(File.generated(config, text.page, content=source_page_markdown(code)))
        add_japanese(files, config, text.page, source_page_markdown(code, japanese=True))
        files.append(File.generated(config, f"sources/{text.filename}", content=text.path.read_bytes()))
    return files


def on_config(config):
    nav = config.get("nav")
    if nav is not None and not any(isinstance(item, dict) and "Source texts" in item for item in nav):
        pages = [{"About the texts": "sources/index.md"}]
        pages += [{f"{code}: {text.short}": text.page} for code, text in TEXTS.items()]
        position = next((i for i, item in enumerate(nav) if isinstance(item, dict) and "API reference" in item), len(nav))
        nav.insert(position, {"Source texts": pages})
    return config


# --- citations ------------------------------------------------------------------------------

#: inline code that cites a text: ``000 §7-1``, ``§7-12``, ``002 §H1``, ``000``, ``000_44ba26957e1b4e1d.txt``
_CODE_CITE = re.compile(rf"(?:(?P<file>{_CODES})(?:_[0-9a-f]{{16}}\.txt)?)?\s?(?:§(?P<section>H?\d{{1,2}}(?:-\d{{1,2}}){{0,3}}))?")
#: a section written in prose: ``§7-1``, ``002 §H1``
_TEXT_SECTION = re.compile(rf"(?:\b(?P<file>{_CODES})\s)?§(?P<section>H?\d{{1,2}}(?:-\d{{1,2}}){{0,3}})")
#: a line or lines: ``line 350``, ``lines 566–569``, ``lines 50 to 56``, ``l.34``, ``L10-L14``
_TEXT_LINE = re.compile(r"\b(?:(?P<word>lines?)\s|l\.\s?|L)(?P<line>\d{1,4})\b(?P<range>(?:\s?[–-]\s?|\sto\s)L?\d{1,4}\b)?")
#: more lines after ``lines 223`` in the same list: ``and 232``, ``, 240``
_MORE_LINES = re.compile(r"(?:,\s|\sand\s|,\sand\s)(?P<item>L?(?P<line>\d{1,4})\b(?:(?:\s?[–-]\s?|\sto\s)L?\d{1,4}\b)?)")

_SKIPPED_TAGS = {"a", "autoref", "pre", "script", "style", "textarea", "svg", "h1"}
_SKIPPED_CLASSES = {"jp-CodeCell", "highlight", "source-text", "widget-subarea"}
_BLOCK_TAGS = {"p", "li", "td", "th", "dd", "dt", "h2", "h3", "h4", "blockquote", "figcaption"}
_VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Citations(HTMLParser):
    """Finds the citations of a page's HTML: (start, end, replacement) edits of the raw text."""

    def __init__(self, text: str, default: str | None, link) -> None:
        super().__init__(convert_charrefs=False)
        self.raw = text
        self.default = default
        self.follow_headings = default is None  # glossary and rulings: each ``## <System>`` names its text
        self.link = link  # (code, line or None) -> href
        self.line_starts = [0]
        for found in re.finditer("\n", text):
            self.line_starts.append(found.end())
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.current: str | None = None  # the text cited last in this block
        self.code: tuple[int, list[str]] | None = None  # an open <code>: its start and text
        self.heading: list[str] | None = None  # the text of an open <h2>
        self.edits: list[tuple[int, int, str]] = []
        self.unresolved: list[str] = []

    def _position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    @property
    def skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        if tag == "code" and not self.skipped:
            self.code = (self._position(), [])
        if tag in _BLOCK_TAGS:
            self.current = None
        if tag == "h2":
            self.heading = []
        if tag not in _VOID_TAGS:
            self.stack.append((tag, self.skipped or tag in _SKIPPED_TAGS or bool(classes & _SKIPPED_CLASSES)))

    def handle_endtag(self, tag):
        if tag == "code" and self.code is not None:
            start, parts = self.code
            self.code = None
            end = self.raw.index(">", self._position()) + 1
            self._cite_code(start, end, "".join(parts))
        if tag == "h2" and self.heading is not None and self.follow_headings:
            words = "".join(self.heading)
            found = [code for word, code in SYSTEM_WORDS.items() if word in words]
            self.default = found[0] if found else None
            self.heading = None
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break

    def handle_data(self, data):
        if self.heading is not None:
            self.heading.append(data)
        if self.code is not None:
            self.code[1].append(data)
        elif not self.skipped:
            self._cite_text(self._position(), data)

    def _add(self, start: int, end: int, code: str | None, line: int | None, what: str) -> None:
        if code is None:
            self.unresolved.append(what)
            return
        if line is not None and not 1 <= line <= len(source_lines(code)):
            self.unresolved.append(f"{what} (the text {code} has {len(source_lines(code))} lines)")
            return
        inner = self.raw[start:end]
        self.edits.append((start, end, f'<a class="source-cite" href="{self.link(code, line)}">{inner}</a>'))

    def _cite_code(self, start: int, end: int, text: str) -> None:
        cited = _CODE_CITE.fullmatch(text.strip())
        if not cited or not (cited.group("file") or cited.group("section")):
            return
        code = cited.group("file") or self.current or self.default
        self.current = code
        section = cited.group("section")
        line = line_of_section(code, section) if code and section else None
        if section and line is None:
            self.unresolved.append(f"{text} (no such section in {code})")
            return
        self._add(start, end, code, line, text)

    def _cite_text(self, start: int, data: str) -> None:
        position = 0
        while True:
            section = _TEXT_SECTION.search(data, position)
            line = _TEXT_LINE.search(data, position)
            found = min((m for m in (section, line) if m), key=lambda m: m.start(), default=None)
            if found is None:
                return
            if found is section:
                code = found.group("file") or self.current or self.default
                self.current = code
                target = line_of_section(code, found.group("section")) if code else None
                if target is None:
                    self.unresolved.append(f"{found.group(0)} (no such section in {code})")
                else:
                    self._add(start + found.start(), start + found.end(), code, target, found.group(0))
                position = found.end()
                continue
            code = self.current or self.default
            self._add(start + found.start(), start + found.end(), code, int(found.group("line")), found.group(0))
            position = found.end()
            if found.group("word") == "lines" or found.group(0).startswith("L"):
                while more := _MORE_LINES.match(data, position):
                    self._add(start + more.start("item"), start + more.end("item"), code, int(more.group("line")),
                              more.group("item"))
                    position = more.end()


def link_citations(text: str, default: str | None, link) -> tuple[str, list[str]]:
    """``text`` (a page's HTML) with every citation a link; also the citations that name no line."""
    parser = _Citations(text, default, link)
    parser.feed(text)
    parser.close()
    for start, end, replacement in sorted(parser.edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, parser.unresolved


#: an API page's module names the text its docstrings cite (rules_lib.widgets.nemesis -> 002)
PACKAGE_TEXT = {system.package: system.code for system in systems()}


def _page_default(src_uri: str) -> str | None:
    if src_uri.startswith("reference/"):
        parts = src_uri.removeprefix("reference/").removesuffix(".md").split(".")
        found = [PACKAGE_TEXT[part] for part in parts if part in PACKAGE_TEXT]
        return found[0] if found else None
    return CHAPTER_TEXT.get(src_uri.split("/")[0])


def on_page_content(html_text: str, page, config, files) -> str:
    japanese = is_japanese(page.file.src_uri)
    src_uri = english_uri(page.file.src_uri)
    if src_uri.startswith("sources/"):
        code = src_uri.removeprefix("sources/").removesuffix(".md")
        marker = f"<!-- source-text:{code} -->"
        return html_text.replace(marker, source_text_html(code, japanese)) if code in TEXTS else html_text
    edition = PREFIX if japanese else ""

    def link(code: str, line: int | None) -> str:
        target = files.get_file_from_path(f"{edition}{TEXTS[code].page}")
        return target.url_relative_to(page.file) + (f"#L{line}" if line else "")

    linked, _ = link_citations(html_text, _page_default(src_uri), link)
    return linked
