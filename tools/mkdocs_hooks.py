"""MkDocs hooks: pages generated from the library's data at build time.

``examples.md`` carries a ``<!-- catalogue -->`` marker that becomes the table of every
worked example, its source and whether the book reproduces it yet.
"""

from __future__ import annotations

from rules_lib.catalogue import load_catalogue

SYSTEM_NAMES = {
    "gundam-sentinel": "GUNDAM SENTINEL RPG -OutLaws Edition- (000)",
    "wis6": "WIS6 (001)",
    "nemesis": "Nemesis-theatre wargame (002)",
    "verse-world": "Verse World RPG (004)",
}


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def catalogue_tables() -> str:
    examples = list(load_catalogue().values())
    parts = []
    for system, name in SYSTEM_NAMES.items():
        rows = [e for e in examples if e.system == system]
        done = sum(e.status == "reproduced" for e in rows)
        parts.append(f"## {name}\n\n{done} of {len(rows)} reproduced.\n")
        parts.append("| id | source | example | status |\n|---|---|---|---|")
        for e in rows:
            status = "✓ reproduced" if e.status == "reproduced" else "pending"
            parts.append(f"| `{e.id}` | {e.source} | {_escape(e.title)} | {status} |")
        parts.append("")
    return "\n".join(parts)


def on_page_markdown(markdown: str, page, config, files) -> str:
    if "<!-- catalogue -->" in markdown:
        markdown = markdown.replace("<!-- catalogue -->", catalogue_tables())
    return markdown
