"""The Japanese edition's translation units: where they live, whether they are current, one edition.

A chapter is one notebook for both editions, so its code cells and stored outputs are one and nbval
runs each of them once. Its prose is in both languages:

- an English markdown cell has no ``translation`` metadata;
- its Japanese counterpart is the markdown cell right after it, with the metadata
  ``{"translation": {"lang": "ja", "of": "<the English cell's id>", "source_sha256": "<hash>"}}``,
  where the hash is ``source_sha256`` of the English cell's text when it was translated. A change to
  the English makes the stored hash differ: the Japanese is *stale* until it is brought up to date
  and stamped again.
- A Markdown page ``X.md`` has its Japanese edition in ``X.ja.md``, whose front matter names the hash
  of the English page it translates (``translation_source_sha256: <hash>``).
- A chapter's ``_glossary.md`` is no unit: its tables are written in both languages already (an
  English and a Japanese column), and the Japanese glossary page shows the same rows Japanese first
  (``tools/mkdocs_hooks.py``, ``japanese_glossary``), so no term has a second copy to fall behind.

Structure must match, so the Japanese edition's links and anchors can be the English ones: the same
heading levels in the same order, and the same link targets, in each pair of cells (``mismatches``).

``python tools/translations.py status [PATH ...]`` lists missing, stale and mismatched units;
``export NOTEBOOK`` prints a notebook's English prose cells between ``<!-- cell: ID -->`` markers, and
``import NOTEBOOK FILE`` puts the Japanese cells of a file in that shape after their English cells,
stamped with the English text's current hash (see CONTRIBUTING.md, "Translating").
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

# the one hash that ties a translation to its English: the book's prose and the library's messages
from rules_lib.messages import source_sha256

BOOK = Path(__file__).resolve().parents[1] / "book"
LANGUAGES = ("en", "ja")
TRANSLATED = "ja"
#: pages written in both languages, which no translation unit follows
BILINGUAL_PAGES = ("_glossary.md",)
#: the files (relative to the repository) whose translation is not done yet, one a line
PENDING = BOOK / "translations-pending.txt"
CELL_MARKER = re.compile(r"^<!-- cell: (?P<id>[A-Za-z0-9_-]+) -->\s*$", re.MULTILINE)
FRONT_MATTER = re.compile(r"\A---\n(?P<body>.*?)\n---\n", re.DOTALL)
HASH_KEY = "translation_source_sha256"
_HEADING = re.compile(r"^(#{1,6})\s", re.MULTILINE)
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_LINK_TARGET = re.compile(r"\]\(([^)\s]+)")



def cell_text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def translation_of(cell: dict) -> dict | None:
    """A Japanese cell's ``translation`` metadata, or None for a cell of the English (shared) text."""
    meta = cell.get("metadata", {}).get("translation")
    return meta if isinstance(meta, dict) else None


def _without_fences(text: str) -> str:
    return _FENCE.sub("", text)


def structure(text: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The parts a translation keeps: heading levels in order, and link targets in order."""
    prose = _without_fences(text)
    headings = tuple(len(m.group(1)) for m in _HEADING.finditer(prose))
    return headings, tuple(_LINK_TARGET.findall(prose))


def mismatches(english: str, japanese: str) -> list[str]:
    """How a translation's structure differs from its English text (empty when it matches)."""
    (en_heads, en_links), (ja_heads, ja_links) = structure(english), structure(japanese)
    problems = []
    if en_heads != ja_heads:
        problems.append(f"heading levels {list(ja_heads)}, the English has {list(en_heads)}")
    if en_links != ja_links:
        problems.append(f"link targets {list(ja_links)}, the English has {list(en_links)}")
    return problems


@dataclass(frozen=True)
class Unit:
    """One piece of English prose and its Japanese counterpart, if any."""

    path: Path
    key: str  # the English cell's id, or "page" for a Markdown page
    english: str
    japanese: str | None
    stamped: str | None  # the English hash stored with the translation

    @property
    def state(self) -> str:
        if self.japanese is None:
            return "missing"
        if self.stamped != source_sha256(self.english):
            return "stale"
        if mismatches(self.english, self.japanese):
            return "mismatched"
        return "current"


def notebook_units(path: Path, notebook: dict | None = None) -> list[Unit]:
    """The translation units of a bilingual notebook: each English markdown cell with its translation.

    Raises ValueError for a Japanese cell that does not follow the English cell it names.
    """
    notebook = notebook if notebook is not None else json.loads(path.read_text(encoding="utf-8"))
    cells = notebook["cells"]
    units = []
    for index, cell in enumerate(cells):
        meta = translation_of(cell)
        if meta is not None:
            before = cells[index - 1] if index else None
            if before is None or before.get("id") != meta.get("of") or translation_of(before):
                raise ValueError(
                    f"{path}: the {meta.get('lang')} cell {cell.get('id')} translates {meta.get('of')!r}, "
                    "but is not right after that English cell"
                )
            continue
        if cell["cell_type"] != "markdown":
            continue
        after = cells[index + 1] if index + 1 < len(cells) else None
        after_meta = translation_of(after) if after else None
        japanese = cell_text(after) if after_meta and after_meta.get("lang") == TRANSLATED else None
        units.append(
            Unit(path, cell["id"], cell_text(cell), japanese, after_meta.get("source_sha256") if japanese else None)
        )
    return units


def japanese_page(path: Path) -> Path:
    return path.with_name(f"{path.stem}.{TRANSLATED}{path.suffix}")


def page_front_matter(text: str) -> tuple[dict[str, str], str]:
    """A page's front matter as plain ``key: value`` pairs, and the text after it."""
    match = FRONT_MATTER.match(text)
    if not match:
        return {}, text
    pairs = {}
    for line in match.group("body").splitlines():
        key, _, value = line.partition(":")
        pairs[key.strip()] = value.strip()
    return pairs, text[match.end() :]


def page_unit(path: Path) -> Unit:
    english = path.read_text(encoding="utf-8")
    translated = japanese_page(path)
    if not translated.exists():
        return Unit(path, "page", english, None, None)
    meta, japanese = page_front_matter(translated.read_text(encoding="utf-8"))
    return Unit(path, "page", english, japanese, meta.get(HASH_KEY))


def english_pages(book: Path = BOOK) -> list[Path]:
    """The Markdown pages of the book that are written in English (not ``*.ja.md``, not bilingual)."""
    return sorted(p for p in book.rglob("*.md")
                  if not p.name.endswith(f".{TRANSLATED}.md") and p.name not in BILINGUAL_PAGES)


def pending(path: Path = PENDING) -> list[str]:
    """The files listed as waiting for their translation (paths from the repository's root)."""
    if not path.exists():
        return []
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def units(book: Path = BOOK) -> Iterator[Unit]:
    """Every translation unit of the book: notebook prose cells, then Markdown pages."""
    for path in sorted(book.rglob("*.ipynb")):
        if ".ipynb_checkpoints" not in path.parts:
            yield from notebook_units(path)
    for path in english_pages(book):
        yield page_unit(path)


def edition(notebook: dict, lang: str) -> dict:
    """One language's edition of a bilingual notebook: the same code cells and outputs, its prose.

    English keeps the English cells; Japanese puts each translation in its English cell's place (an
    untranslated cell stays English), keeping the English cell's id so anchors and outputs agree.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: the book is written in {', '.join(LANGUAGES)}")
    cells = notebook["cells"]
    kept = []
    for index, cell in enumerate(cells):
        meta = translation_of(cell)
        if meta is not None:
            continue
        after = cells[index + 1] if index + 1 < len(cells) else None
        after_meta = translation_of(after) if after else None
        if lang != "en" and after_meta and after_meta.get("lang") == lang:
            translated = copy.deepcopy(cell)
            translated["source"] = cell_text(after)
            kept.append(translated)
        else:
            kept.append(cell)
    result = dict(notebook)
    result["cells"] = kept
    return result


def export_cells(notebook: dict) -> str:
    """A notebook's English prose cells between ``<!-- cell: ID -->`` markers, for a translator."""
    parts = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown" and translation_of(cell) is None:
            parts.append(f"<!-- cell: {cell['id']} -->\n{cell_text(cell).rstrip()}\n")
    return "\n".join(parts)


def parse_cells(text: str) -> dict[str, str]:
    """The cells of a file in ``export_cells``'s shape: English cell id → text."""
    markers = list(CELL_MARKER.finditer(text))
    found = {}
    for marker, following in zip(markers, [*markers[1:], None], strict=True):
        end = following.start() if following else len(text)
        found[marker.group("id")] = text[marker.end() : end].strip("\n")
    return found


def import_cells(notebook: dict, translations: dict[str, str], lang: str = TRANSLATED) -> list[str]:
    """Put translations after their English cells (replacing earlier ones), stamped with today's hash.

    Returns the ids translated. Raises ValueError for an id that is no English prose cell of the
    notebook, or a translation whose headings or links differ from its English text's.
    """
    cells = notebook["cells"]
    english = {c["id"]: c for c in cells if c["cell_type"] == "markdown" and translation_of(c) is None}
    unknown = sorted(set(translations) - set(english))
    if unknown:
        raise ValueError(f"no English prose cell has the id {', '.join(unknown)}")
    problems = [
        f"cell {key}: {problem}"
        for key, text in translations.items()
        for problem in mismatches(cell_text(english[key]), text)
    ]
    if problems:
        raise ValueError("; ".join(problems))
    rebuilt = []
    for cell in cells:
        meta = translation_of(cell)
        if meta is not None and meta.get("lang") == lang and meta.get("of") in translations:
            continue  # replaced below
        rebuilt.append(cell)
        if cell.get("id") in translations and meta is None:
            rebuilt.append(
                {
                    "cell_type": "markdown",
                    "id": f"{cell['id']}-{lang}",
                    "metadata": {
                        "translation": {
                            "lang": lang,
                            "of": cell["id"],
                            "source_sha256": source_sha256(cell_text(cell)),
                        }
                    },
                    "source": translations[cell["id"]],
                }
            )
    notebook["cells"] = rebuilt
    return list(translations)


def _write_notebook(path: Path, notebook: dict) -> None:
    # the same layout as Jupyter's own writer (nbformat): one-space indents, non-ASCII kept
    import nbformat

    node = nbformat.from_dict(notebook)
    nbformat.write(node, str(path))


def _shown(path: Path) -> str:
    return str(path.relative_to(BOOK.parent)) if path.is_relative_to(BOOK.parent) else str(path)


def _report(found: Iterable[Unit]) -> int:
    counts: dict[str, int] = {}
    for unit in found:
        counts[unit.state] = counts.get(unit.state, 0) + 1
        if unit.state != "current":
            detail = ""
            if unit.state == "mismatched":
                detail = ": " + "; ".join(mismatches(unit.english, unit.japanese or ""))
            print(f"{unit.state:10} {_shown(unit.path)} {unit.key}{detail}")
    print(", ".join(f"{n} {state}" for state, n in sorted(counts.items())) or "no units")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    status = commands.add_parser("status", help="missing, stale and mismatched translations")
    status.add_argument("paths", nargs="*", type=Path, help="notebooks or pages (default: the whole book)")
    export = commands.add_parser("export", help="a notebook's English prose cells, for a translator")
    export.add_argument("notebook", type=Path)
    put = commands.add_parser("import", help="put a file of translated cells into its notebook")
    put.add_argument("notebook", type=Path)
    put.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    if args.command == "status":
        if not args.paths:
            return _report(units())
        chosen: list[Unit] = []
        for path in args.paths:
            path = path.resolve()
            chosen.extend(notebook_units(path) if path.suffix == ".ipynb" else [page_unit(path)])
        return _report(chosen)
    notebook = json.loads(args.notebook.read_text(encoding="utf-8"))
    if args.command == "export":
        sys.stdout.write(export_cells(notebook))
        return 0
    try:
        done = import_cells(notebook, parse_cells(args.file.read_text(encoding="utf-8")))
    except ValueError as error:
        print(f"{args.notebook}: {error}", file=sys.stderr)
        return 2
    _write_notebook(args.notebook, notebook)
    print(f"{args.notebook}: {len(done)} cells translated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
