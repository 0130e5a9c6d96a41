"""One citation format: ``000 §7-1, line 350`` and ``lines 566–569``, never ``l.34`` or ``L10-L14``.

    python tools/citation_format.py            # rewrite the older forms in the files below
    python tools/citation_format.py --check    # exit 1 and list what is still in an older form

It reads every text a reader or maintainer reads: the chapters' ``_rulings.md`` and
``_glossary.md``, the catalogue files, the data files of ``rules_lib`` (their ``lines`` and
``source`` values show in steps), every string literal and comment of ``rules_lib`` and
``tests`` (an f-string's literal parts only, never its ``{...}`` fields), and the notebooks'
markdown cells and their code cells' strings and comments. A notebook's stored outputs are not
rewritten: they show the library's strings, so ``python tools/execute_book.py`` renews them, and
``--check`` lists a notebook whose outputs still show an older form.
A Python line whose comment says ``citation-format: keep`` is left as it is (test data of the
older forms, an anchor id such as ``"L350"``). ``tools/citations.py`` still links the older forms.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: files left out of the conversion (none since the battle engine landed)
PENDING: tuple[str, ...] = ()
#: a comment marking a line whose older forms are meant (the tests of the linker and of this tool)
KEEP = "citation-format: keep"
OLD = re.compile(r"\bl\.\s?\d|(?<![\w#])L\d{1,4}\b")
_RANGE = "[–-]"
_RULES = (
    (re.compile(rf"\bl\.\s?(\d{{1,4}}){_RANGE}(\d{{1,4}})\b"), r"lines \1–\2"),
    (re.compile(r"\bl\.\s?(\d{1,4})\b"), r"line \1"),
    (re.compile(rf"(?<![\w#])L(\d{{1,4}}){_RANGE}L?(\d{{1,4}})\b"), r"lines \1–\2"),
    (re.compile(r"(?<![\w#])L(\d{1,4})/L(\d{1,4})\b"), r"lines \1 and \2"),
    (re.compile(r"(?<![\w#])L(\d{1,4})\b"), r"line \1"),
    (re.compile(r"(§H?\d{1,2}(?:-\d{1,2}){0,3}`?)(\s+)(lines? \d)"), r"\1,\2\3"),  # `000 §7-1`, line 350
)
#: an SVG's path data draws with ``L10 20``: not a citation
_SVG = re.compile(r"<svg\b.*?</svg>", re.S)


def convert(text: str) -> str:
    """``text`` with every older line citation in the one format."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


def _fields(literal: str) -> Iterator[tuple[int, int]]:
    """Spans of an f-string's ``{...}`` fields (``{{`` and ``}}`` are text)."""
    index, depth, start = 0, 0, 0
    while index < len(literal):
        char = literal[index]
        if depth == 0 and literal.startswith(("{{", "}}"), index):
            index += 2
            continue
        if char == "{":
            start = index if depth == 0 else start
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                yield start, index + 1
        index += 1


def _string(token: str) -> str:
    """A string literal converted; in an f-string only the text between its fields."""
    if "f" not in token[: len(token) - len(token.lstrip("rRbBuUfF"))].lower():
        return convert(token)
    parts, last = [], 0
    for start, end in _fields(token):
        parts += [convert(token[last:start]), token[start:end]]
        last = end
    return "".join([*parts, convert(token[last:])])


def _python(text: str) -> str:
    """Comments and string literals converted; code, and lines marked ``KEEP``, left as they are."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    kept = {token.start[0] for token in tokens if token.type == tokenize.COMMENT and KEEP in token.string}
    edits = []
    for token in tokens:
        if token.type not in (tokenize.COMMENT, tokenize.STRING):
            continue
        if kept.intersection(range(token.start[0], token.end[0] + 1)):
            continue
        new = convert(token.string) if token.type == tokenize.COMMENT else _string(token.string)
        if new != token.string:
            edits.append((starts[token.start[0] - 1] + token.start[1], starts[token.end[0] - 1] + token.end[1], new))
    for start, end, new in reversed(edits):
        text = text[:start] + new + text[end:]
    return text


def _notebook(text: str) -> str:
    """Markdown cells, and code cells' strings and comments, converted; the JSON written as nbformat does."""
    notebook = json.loads(text)
    changed = False
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        new = convert(source) if cell["cell_type"] == "markdown" else _python(source)
        if cell["cell_type"] in ("markdown", "code") and new != source:
            cell["source"] = new.splitlines(keepends=True)
            changed = True
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n" if changed else text


def _texts(value: object) -> Iterator[str]:
    """Every string inside a notebook's outputs or metadata."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def stale_outputs(path: Path) -> bool:
    """Whether a notebook's stored outputs or widget state still show an older form (re-execute it)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    stored = [notebook["metadata"].get("widgets", {}), *(cell.get("outputs", []) for cell in notebook["cells"])]
    texts = (_SVG.sub("", text) for text in _texts(stored))
    return any(convert(text) != text for text in texts)


def files(root: Path = ROOT) -> list[Path]:
    pending = {path for pattern in PENDING for path in root.glob(pattern)}
    found = [*root.glob("book/*/_rulings.md"), *root.glob("book/*/_glossary.md"), *root.glob("examples/*.toml")]
    found += [*root.glob("book/*/*.ipynb"), *root.glob("rules_lib/**/*.py"), *root.glob("tests/**/*.py")]
    found += root.glob("rules_lib/**/*.toml")  # data whose ``lines`` and ``source`` values the steps show
    return sorted(path for path in found if path not in pending)


def rewritten(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return _python(text)
    return _notebook(text) if path.suffix == ".ipynb" else convert(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list the older forms, change nothing")
    args = parser.parse_args(argv)
    stale = []
    for path in files():
        new = rewritten(path)
        if new != path.read_text(encoding="utf-8"):
            stale.append(path.relative_to(ROOT).as_posix())
            if not args.check:
                path.write_text(new, encoding="utf-8")
    outputs = [path.relative_to(ROOT).as_posix() for path in files() if path.suffix == ".ipynb" and stale_outputs(path)]
    if outputs:
        print("outputs still show older citations: run tools/execute_book.py on " + " ".join(outputs))
    if args.check and stale:
        print("older line citations (l.34, L10) in: " + ", ".join(stale))
    if args.check and (stale or outputs):
        return 1
    print(("rewrote " if stale else "nothing to rewrite in ") + f"{len(stale) or len(files())} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
