"""Re-execute every notebook of the book in place, deterministically.

Outputs and widget state are stored (the site shows the widgets from that state);
execution timestamps are not, so a re-run changes only what the library changed.
Usage: python tools/execute_book.py [notebook ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

BOOK = Path(__file__).resolve().parents[1] / "book"


def execute(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=600,
        record_timing=False,
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    notebook.metadata.get("kernelspec", {}).update(
        {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    )
    nbformat.write(notebook, path)
    print(f"executed {path.relative_to(BOOK.parent)}")


def main(paths: list[str]) -> None:
    notebooks = [Path(p).resolve() for p in paths] or sorted(
        p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
    )
    for path in notebooks:
        execute(path)


if __name__ == "__main__":
    main(sys.argv[1:])
