"""One citation format: ``000 §7-1, line 350`` and ``lines 566–569``, never ``l.34`` or ``L10-L14``.

    python tools/citation_format.py            # rewrite the older forms in the files below
    python tools/citation_format.py --check    # exit 1 and list what is still in an older form

It reads the chapters' ``_rulings.md`` and ``_glossary.md``, the catalogue files and the
docstrings and comments of ``rules_lib`` (strings a rule shows the reader change with the book's
outputs, and the files in ``PENDING``: both are left alone).
``tools/citations.py`` still links the older forms, so a page never loses a link.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: rule modules left out of the conversion (none since the battle engine landed)
PENDING: tuple[str, ...] = ()
OLD = re.compile(r"\bl\.\s?\d|(?<![\w#])L\d{1,4}\b")
_RANGE = "[–-]"
_RULES = (
    (re.compile(rf"\bl\.\s?(\d{{1,4}}){_RANGE}(\d{{1,4}})\b"), r"lines \1–\2"),
    (re.compile(r"\bl\.\s?(\d{1,4})\b"), r"line \1"),
    (re.compile(rf"(?<![\w#])L(\d{{1,4}}){_RANGE}L?(\d{{1,4}})\b"), r"lines \1–\2"),
    (re.compile(r"(?<![\w#])L(\d{1,4})/L(\d{1,4})\b"), r"lines \1 and \2"),
    (re.compile(r"(?<![\w#])L(\d{1,4})\b"), r"line \1"),
    (re.compile(r"(§H?\d{1,2}(?:-\d{1,2}){0,3}) (lines? \d)"), r"\1, \2"),  # 000 §7-1, line 350
)


def convert(text: str) -> str:
    """``text`` with every older line citation in the one format."""
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


def _python(text: str) -> str:
    """Docstrings (triple-quoted strings) and comments converted; other strings left as they are."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    edits = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        quoted = token.string.lstrip("rRuU")
        if token.type == tokenize.COMMENT or (token.type == tokenize.STRING and quoted.startswith(('"""', "'''"))):
            start = starts[token.start[0] - 1] + token.start[1]
            end = starts[token.end[0] - 1] + token.end[1]
            edits.append((start, end, convert(token.string)))
    for start, end, new in reversed(edits):
        text = text[:start] + new + text[end:]
    return text


def files(root: Path = ROOT) -> list[Path]:
    pending = {path for pattern in PENDING for path in root.glob(pattern)}
    found = [*root.glob("book/*/_rulings.md"), *root.glob("book/*/_glossary.md"), *root.glob("examples/*.toml")]
    found += [path for path in root.glob("rules_lib/**/*.py") if path not in pending]
    return sorted(found)


def rewritten(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return _python(text) if path.suffix == ".py" else convert(text)


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
    if args.check and stale:
        print("older line citations (l.34, L10) in: " + ", ".join(stale))
        return 1
    print(("rewrote " if stale else "nothing to rewrite in ") + f"{len(stale) or len(files())} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
