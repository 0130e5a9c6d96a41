"""The worked-example catalogue: what each source text states, and checks against it.

The catalogue lives in ``examples/`` (one TOML file per source text). A notebook
computes an example with the library's general rule and calls `check_example`
with the values it computed; the call fails loudly when a value differs from what
the text states, and otherwise shows a ✓ line naming the source.
"""

from __future__ import annotations

import html
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

STATUSES = ("pending", "reproduced")
_CHECK_CALL = re.compile(r"check_example\(\s*[\"']([a-z0-9-]+)[\"']")


@dataclass(frozen=True)
class Example:
    """One worked example: where the text gives it, its inputs, and the values it states."""

    id: str
    title: str
    source: str
    status: str
    summary: str
    system: str
    file: str
    given: Mapping[str, Any] = field(default_factory=dict)
    expected: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""


class ExampleMismatch(AssertionError):
    """A computed value differs from what the source text states."""


def catalogue_dir() -> Path:
    """Where the catalogue files are: ``$RULES_LIB_EXAMPLES``, the wheel's copy, or the checkout."""
    override = os.environ.get("RULES_LIB_EXAMPLES")
    if override:
        return Path(override)
    packaged = Path(__file__).parent / "_examples"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[1] / "examples"


@cache
def load_catalogue(directory: Path | None = None) -> dict[str, Example]:
    """Every example of every catalogue file, by id. Duplicate ids are an error."""
    directory = directory or catalogue_dir()
    examples: dict[str, Example] = {}
    for path in sorted(directory.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for entry in data.get("example", []):
            example = Example(
                id=entry["id"],
                title=entry["title"],
                source=entry["source"],
                status=entry["status"],
                summary=entry["summary"],
                system=data["system"],
                file=path.name,
                given=entry.get("given", {}),
                expected=entry.get("expected", {}),
                note=entry.get("note", ""),
            )
            if example.id in examples:
                raise ValueError(f"example id {example.id!r} appears twice ({path.name})")
            examples[example.id] = example
    return examples


def get_example(example_id: str) -> Example:
    examples = load_catalogue()
    try:
        return examples[example_id]
    except KeyError:
        raise KeyError(f"no worked example {example_id!r} in the catalogue ({catalogue_dir()})") from None


@dataclass(frozen=True)
class CheckResult:
    """A passed check: shown in a notebook as one ✓ line with the source."""

    example: Example
    values: Mapping[str, Any]

    def line(self) -> str:
        shown = ", ".join(f"{key} = {value}" for key, value in self.values.items())
        return f"✓ {self.example.id} ({self.example.source}): {shown}, as the text states"

    def __repr__(self) -> str:
        return self.line()

    def _repr_html_(self) -> str:
        return (
            f'<p class="example-check" id="example-{self.example.id}" style="color:#1b5e20;font-weight:600">'
            f"{html.escape(self.line())}</p>"
        )


def check_example(example_id: str, **computed: Any) -> CheckResult:
    """Check computed values against what the text states for ``example_id``.

    Every stated value must be given, under its catalogue name, and equal it.
    """
    example = get_example(example_id)
    stated = dict(example.expected)
    missing = sorted(set(stated) - set(computed))
    unknown = sorted(set(computed) - set(stated))
    if missing or unknown:
        raise ExampleMismatch(
            f"{example_id}: the check must give exactly the stated values {sorted(stated)}; "
            f"missing {missing}, not in the catalogue {unknown}"
        )
    wrong = {k: (computed[k], stated[k]) for k in stated if not _same(computed[k], stated[k])}
    if wrong:
        details = "; ".join(f"{k}: computed {c!r}, the text states {s!r}" for k, (c, s) in wrong.items())
        raise ExampleMismatch(f"{example_id} ({example.source}): {details}")
    return CheckResult(example, {k: computed[k] for k in stated})


def _same(computed: Any, stated: Any) -> bool:
    if isinstance(stated, bool) or isinstance(computed, bool):
        return type(stated) is type(computed) and stated == computed
    if isinstance(stated, (list, tuple)) and isinstance(computed, (list, tuple)):
        return len(stated) == len(computed) and all(map(_same, computed, stated))
    return computed == stated


def checked_in_notebooks(book: Path) -> dict[str, list[Path]]:
    """Example id -> the notebooks under ``book`` whose code cells call ``check_example`` on it."""
    found: dict[str, list[Path]] = {}
    for path in sorted(book.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                for example_id in _CHECK_CALL.findall("".join(cell["source"])):
                    found.setdefault(example_id, []).append(path)
    return found
