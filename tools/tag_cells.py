"""Tag the book's code cells for the published site; JupyterLab ignores the tags.

The site hides code by default (a reader opens it per cell or for the whole page). These tags
say what else a cell needs, read from the cell's code and its stored outputs:

- ``remove-cell``: the set-up cell (imports, helper functions, shared values; no output) is not
  on the site at all (mkdocs-jupyter ``remove_tag_config``).
- ``output-only``: a calculator or battle widget, or a cell that only calls ``check_example``,
  shows its output alone, with no per-cell "show code" control; the page-wide switch still
  shows its code.

Only these two tags are managed here; tags written by hand (``remove-input``, ``show-input``,
nbval's) are kept. Cell sources and outputs are never changed, so nbval is unaffected.

    python tools/tag_cells.py            # tag every notebook of book/
    python tools/tag_cells.py --check    # exit 1 and name the cells whose tags are out of date
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

BOOK = Path(__file__).resolve().parents[1] / "book"
MANAGED = ("remove-cell", "output-only")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SET_UP_STATEMENTS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)


def _statements(source: str) -> list[ast.stmt]:
    try:
        return ast.parse(source).body
    except SyntaxError:  # IPython magics: leave the cell as it is
        return []


def _calls_check_example(node: ast.expr) -> bool:
    """``check_example(...)`` or ``display(check_example(...), ...)``."""
    if not isinstance(node, ast.Call):
        return False
    name = node.func.id if isinstance(node.func, ast.Name) else None
    if name == "check_example":
        return True
    return name == "display" and bool(node.args) and all(_calls_check_example(a) for a in node.args)


def wanted_tag(cell: dict) -> str | None:
    """The managed tag a code cell should carry, or None."""
    statements = _statements("".join(cell["source"]))
    if not statements:
        return None
    outputs = cell.get("outputs", [])
    if not outputs:
        starts_with_import = isinstance(statements[0], (ast.Import, ast.ImportFrom))
        if starts_with_import and all(isinstance(s, SET_UP_STATEMENTS) for s in statements):
            return "remove-cell"
        return None
    if any(WIDGET_VIEW in output.get("data", {}) for output in outputs):
        return "output-only"
    if all(isinstance(s, ast.Expr) and _calls_check_example(s.value) for s in statements):
        return "output-only"
    return None


def retag(notebook: dict) -> list[int]:
    """Set the managed tags of every code cell; returns the indices of the cells changed."""
    changed = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        tags = cell["metadata"].get("tags", [])
        kept = [t for t in tags if t not in MANAGED]
        tag = wanted_tag(cell)
        new = kept + ([tag] if tag else [])
        if new != tags:
            changed.append(index)
            if new:
                cell["metadata"]["tags"] = new
            else:
                del cell["metadata"]["tags"]
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every notebook of book/")
    parser.add_argument("--check", action="store_true", help="change nothing; fail if a tag is out of date")
    args = parser.parse_args(argv)
    stale = []
    for path in args.notebooks or sorted(BOOK.glob("*/*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        changed = retag(notebook)
        if not changed:
            continue
        stale += [f"{path}: cell {i}" for i in changed]
        if not args.check:
            # the layout nbformat writes, so only the tags show in a diff
            path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    if args.check and stale:
        print("cell tags out of date (run python tools/tag_cells.py):", *stale, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
