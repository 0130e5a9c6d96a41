"""The Jupyter stylesheet of the notebook pages, without the rules no page of the site can use.

mkdocs-jupyter brings JupyterLab's whole stylesheet (575 KB, 3,200 rules) to every notebook page;
a book page uses about a twentieth of it. Every rule costs the browser on each page: parsing it,
and matching it against the page in every style recalculation (on a calculators page these ran
inside the longest main-thread tasks). So after the build, a rule is dropped when none of its
selectors can match: a selector needs every class, id and element it names (outside ``:not()``)
to appear in some page of the site or in a string of the site's own scripts (the classes they
add). Anything the check does not read (escaped names, ``:is()``, ``:where()``, ``:has()``, at-rules
other than ``@media`` and ``@supports``) is kept. The file is then named after what it holds, and
the pages' links follow.

Checked by screenshots: the pages looked pixel for pixel the same with the whole stylesheet and
with this one, with code hidden and shown, at 360 and 1280 px (tests/test_site_reading.py keeps
the rules the pages need; the browser tests draw every page).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import tinycss2

_CLASS = re.compile(r'\bclass="([^"]*)"')
_ID = re.compile(r'\bid="([^"]*)"')
_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)")
_STRING = re.compile(r'["\'`]([^"\'`\n]{1,400})["\'`]')
_NAME = re.compile(r"[A-Za-z_][\w-]*")
#: a class a script builds from a prefix (`mod-${style}`): any class with that prefix may appear
_TEMPLATE_PREFIX = re.compile(r"([A-Za-z_][\w-]*-)\$\{")
_NOT = re.compile(r":not\((?:[^()]|\([^()]*\))*\)")
_KEPT_WHOLE = re.compile(r":(?:is|where|has|matches|-webkit-any|-moz-any)\(|\\")
_SELECTOR_CLASS = re.compile(r"\.([A-Za-z_][\w-]*)")
_SELECTOR_ID = re.compile(r"#([A-Za-z_][\w-]*)")
_SELECTOR_TAG = re.compile(r"(?:^|[\s>+~])([a-zA-Z][a-zA-Z0-9-]*)")


class SiteNames:
    """The classes, ids and elements the built site's pages hold, and the names its scripts write."""

    def __init__(self, pages: list[str], scripts: list[str]) -> None:
        self.classes: set[str] = set()
        self.ids: set[str] = set()
        self.tags: set[str] = {"html", "body"}
        self.prefixes: set[str] = set()
        for html in pages:
            for found in _CLASS.finditer(html):
                self.classes.update(found.group(1).split())
            self.ids.update(found.group(1) for found in _ID.finditer(html))
            self.tags.update(tag.lower() for tag in _TAG.findall(html))
        for script in scripts:
            for text in _STRING.findall(script):
                names = _NAME.findall(text)
                self.classes.update(names)
                self.ids.update(names)
                self.tags.update(name.lower() for name in names)
                self.prefixes.update(_TEMPLATE_PREFIX.findall(text))

    def has_class(self, name: str) -> bool:
        return name in self.classes or any(name.startswith(prefix) for prefix in self.prefixes)

    def may_match(self, selector: str) -> bool:
        """Whether one selector (no commas) can match something of the site."""
        if _KEPT_WHOLE.search(selector):
            return True
        selector = _NOT.sub("", selector)
        return (all(self.has_class(name) for name in _SELECTOR_CLASS.findall(selector))
                and all(name in self.ids for name in _SELECTOR_ID.findall(selector))
                and all(tag.lower() in self.tags for tag in _SELECTOR_TAG.findall(_without_brackets(selector))))


def _without_brackets(selector: str) -> str:
    """The selector without attribute tests and pseudo-classes' arguments (their words are no elements)."""
    return re.sub(r"\[[^\]]*\]|\([^()]*\)|::?[\w-]+", " ", selector)


def _split_selectors(prelude: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for at, char in enumerate(prelude):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(prelude[start:at])
            start = at + 1
    return [*parts, prelude[start:]]


def used_rules(css: str, names: SiteNames) -> str:
    """``css`` with only the rules that may apply to the site."""

    def kept(rules: list) -> list:
        out = []
        for rule in rules:
            if rule.type == "qualified-rule":
                if any(names.may_match(selector.strip()) for selector in _split_selectors(tinycss2.serialize(rule.prelude))):
                    out.append(rule)
            elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports") and rule.content is not None:
                inner = kept(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True))
                if inner:
                    rule.content = [token for item in inner for token in (item, tinycss2.ast.WhitespaceToken(0, 0, "\n"))]
                    out.append(rule)
            elif rule.type == "at-rule":
                out.append(rule)
        return out

    return "".join(tinycss2.serialize([rule]) + "\n" for rule in
                   kept(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)))


def drop_unused_notebook_css(site_dir: Path) -> list[str]:
    """Cut every shared notebook stylesheet (``assets/stylesheets/notebook-*.css``) to the rules the
    site may use, rename it after its new content and point the pages at it; the new names."""
    pages = {path: path.read_text(encoding="utf-8") for path in site_dir.rglob("*.html")}
    scripts = [path.read_text(encoding="utf-8", errors="replace")
               for folder in ("javascripts", "assets/javascripts") for path in (site_dir / folder).glob("*.js")]
    names = SiteNames(list(pages.values()), scripts)
    renamed = {}
    for sheet in sorted((site_dir / "assets" / "stylesheets").glob("notebook-*.css")):
        css = used_rules(sheet.read_text(encoding="utf-8"), names)
        name = f"notebook-{hashlib.sha256(css.encode()).hexdigest()[:12]}.css"
        sheet.unlink()
        (sheet.parent / name).write_text(css, encoding="utf-8")
        renamed[sheet.name] = name
    for path, html in pages.items():
        changed = html
        for old, new in renamed.items():
            changed = changed.replace(f"/assets/stylesheets/{old}", f"/assets/stylesheets/{new}")
        if changed != html:
            path.write_text(changed, encoding="utf-8")
    return sorted(renamed.values())
