"""Re-execute every notebook of the book in place, deterministically.

Outputs and widget state are stored (the site shows the widgets from that state);
execution timestamps are not, and widget model ids come from a seeded generator (an
IPython startup file in a private IPYTHONDIR), so a re-run changes only what the
library changed.
Usage: python tools/execute_book.py [notebook ...]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

BOOK = Path(__file__).resolve().parents[1] / "book"
# widget (comm) ids are uuid4().hex: draw them from a seeded generator instead
DETERMINISTIC_IDS = """\
import random as _random
import uuid as _uuid

_ids = _random.Random(20261130)
_uuid.uuid4 = lambda: _uuid.UUID(int=_ids.getrandbits(128), version=4)
"""


def merged_streams(outputs: list) -> list:
    """Join consecutive stdout (or stderr) chunks: how the kernel splits a stream depends on timing."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (
            output.output_type == "stream"
            and previous is not None
            and previous.output_type == "stream"
            and previous.name == output.name
        ):
            previous.text += output.text
        else:
            merged.append(output)
    return merged


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
        if cell.cell_type == "code":
            cell.outputs = merged_streams(cell.outputs)
    notebook.metadata.get("kernelspec", {}).update(
        {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    )
    nbformat.write(notebook, path)
    print(f"executed {path.relative_to(BOOK.parent)}")


def book_notebook(given: str) -> Path:
    """The notebook of the book a command-line argument names; a sentence for anything else."""
    path = Path(given).resolve()
    if not path.is_relative_to(BOOK) or path.suffix != ".ipynb":
        raise SystemExit(f"execute_book: {given!r} is not a notebook under book/ "
                         "(give a path such as book/wis6/02-success-levels.ipynb, or none for all)")
    if not path.is_file():
        raise SystemExit(f"execute_book: {given!r} does not exist")
    return path


def main(paths: list[str]) -> None:
    notebooks = [book_notebook(p) for p in paths] or sorted(
        p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
    )
    ipython_dir = Path(tempfile.mkdtemp(prefix="rules-lib-ipython-"))
    startup = ipython_dir / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-deterministic-ids.py").write_text(DETERMINISTIC_IDS)
    os.environ["IPYTHONDIR"] = str(ipython_dir)
    # the stored outputs are the English edition's, whatever the machine's locale (rules_lib.messages)
    os.environ["RULES_LIB_LANG"] = "en"
    for path in notebooks:
        execute(path)


if __name__ == "__main__":
    main(sys.argv[1:])
