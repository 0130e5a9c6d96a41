"""The worked-example catalogue: what each source text states, and checks against it.

The catalogue lives in ``examples/`` (one TOML file per source text). A notebook
computes an example with the library's general rule and calls `check_example`
with the values it computed; the call fails loudly when a value differs from what
the text states, and otherwise shows a short ✓ line naming the source, with the
values and what each rests on in a table the reader can open.

An entry is one of four kinds (its ``status``):

- ``reproduced``: at least one stated value is computed by a general rule function
  from the text's inputs;
- ``consistent``: the text's number agrees with the book's reading but cannot be
  derived from the text alone (the entry's ``why_consistent`` says why);
- ``fact``: a number the text states as a rule (a die size, a count), checked
  against the library's constant without any computation;
- ``pending``: not yet checked by the book.

Values that rest on a ruling rather than on the text are named in the entry's
``[example.readings]`` table (value name -> title of the ruling in the chapter's
``_rulings.md``); ``facts`` lists values of a ``reproduced`` entry that the text states as
rule facts and no rule computes (they are checked against the library's constant); ``instances``
lists values the book chose as an instance of a rule the text states without an example for it (the
reader can work them out by hand from the rule the entry's note cites); every other value is "as the
text states". ``inputs = "book"`` marks an entry whose inputs the book chose because the text gives none.
"""

from __future__ import annotations

import html
import json
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from . import checks
from .reader import reader_text

STATUSES = ("pending", "reproduced", "consistent", "fact")
#: statuses whose entries a notebook must check
CHECKED_STATUSES = ("reproduced", "consistent", "fact")
INPUTS = ("text", "book")
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
    #: expected value name -> title(s) of the ruling(s) it rests on (``### title`` in ``_rulings.md``)
    readings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: "text" when the inputs are the text's own, "book" when the book chose them
    inputs: str = "text"
    #: for ``consistent`` entries: what the text alone does not give
    why_consistent: str = ""
    #: stated values that are rule facts (a constant, no computation) inside a larger entry
    facts: tuple[str, ...] = ()
    #: stated values that are instances the book chose of a rule the text states (no example in the text)
    instances: tuple[str, ...] = ()

    def basis(self, key: str) -> str:
        """What the stated value ``key`` rests on, in words for the reader."""
        if key in self.readings:
            titles = "; ".join(self.readings[key])
            return f"by the book's reading (ruling{'s' if len(self.readings[key]) > 1 else ''}: {titles})"
        if self.status == "fact" or key in self.facts:
            return "a rule fact the text states (not computed)"
        if key in self.instances:
            return "an instance the book chose of the text's rule"
        if self.inputs == "book":
            return "the text's rule, applied to the book's inputs"
        return "as the text states"


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


def _example(entry: Mapping[str, Any], system: str, file: str) -> Example:
    example = Example(
        id=entry["id"],
        title=entry["title"],
        source=entry["source"],
        status=entry["status"],
        summary=entry["summary"],
        system=system,
        file=file,
        given=entry.get("given", {}),
        expected=entry.get("expected", {}),
        note=entry.get("note", ""),
        readings={
            key: (titles,) if isinstance(titles, str) else tuple(titles)
            for key, titles in entry.get("readings", {}).items()
        },
        inputs=entry.get("inputs", "text"),
        why_consistent=entry.get("why_consistent", ""),
        facts=tuple(entry.get("facts", ())),
        instances=tuple(entry.get("instances", ())),
    )
    where = f"{file}: example {example.id!r}"
    if example.status not in STATUSES:
        raise ValueError(f"{where}: status {example.status!r} is not one of {STATUSES}")
    if example.inputs not in INPUTS:
        raise ValueError(f"{where}: inputs {example.inputs!r} is not one of {INPUTS}")
    for name, keys in (("readings", example.readings), ("facts", example.facts), ("instances", example.instances)):
        unknown = sorted(set(keys) - set(example.expected))
        if unknown:
            raise ValueError(f"{where}: {name} name values that are not expected: {unknown}")
    if (example.status == "consistent") != bool(example.why_consistent):
        raise ValueError(f"{where}: why_consistent is required for, and only for, status 'consistent'")
    return example


@cache
def load_catalogue(directory: Path | None = None) -> dict[str, Example]:
    """Every example of every catalogue file, by id. Duplicate ids are an error."""
    directory = directory or catalogue_dir()
    examples: dict[str, Example] = {}
    for path in sorted(directory.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for entry in data.get("example", []):
            example = _example(entry, data["system"], path.name)
            if example.id in examples:
                raise ValueError(f"example id {example.id!r} appears twice ({path.name})")
            examples[example.id] = example
    return examples


class UnknownExample(KeyError, ValueError):
    """An id the catalogue does not hold (a ``KeyError`` as before, and a ``ValueError`` as every
    refusal of bad input is)."""

    def __str__(self) -> str:  # a KeyError would show its message in quotes
        return str(self.args[0])


def get_example(example_id: str) -> Example:
    examples = load_catalogue()
    try:
        return examples[example_id]
    except (KeyError, TypeError):
        raise UnknownExample(f"no worked example {checks.shown(example_id)} in the catalogue "
                             f"({catalogue_dir()})") from None


@dataclass(frozen=True)
class CheckResult:
    """A passed check: a short ✓ line with the source, and each value with what it rests on."""

    example: Example
    values: Mapping[str, Any]

    def verdict(self) -> str:
        """The ✓ line's words, without the source: what kind of agreement this is."""
        e = self.example
        if e.status == "fact":
            return "✓ rule fact, as the text states"
        if e.status == "consistent":
            return "✓ consistent with the text under the book's reading (not derivable from the text alone)"
        if all(key in e.readings for key in self.values):
            return "✓ consistent with the text under the book's reading"
        return "✓ matches the text's rule for the book's inputs" if e.inputs == "book" else "✓ matches the text"

    def partly_read(self) -> str:
        """"; n of m values by the book's reading" when some, not all, values rest on a ruling, and
        "; n of m values an instance the book chose" when some are the book's instances of a rule."""
        total = len(self.values)
        read = sum(key in self.example.readings for key in self.values)
        chosen = sum(key in self.example.instances and key not in self.example.readings for key in self.values)
        parts = [f"; {read} of {total} values by the book's reading"] if 0 < read < total else []
        if chosen:
            parts.append(f"; {chosen} of {total} values an instance the book chose")
        return "".join(parts)

    def line(self) -> str:
        """The short ✓ line: verdict, source, and how many values rest on a reading."""
        return f"{self.verdict()}, {self.example.source}{self.partly_read()}"

    def rows(self) -> list[tuple[str, str, str]]:
        """(name, value, basis) for every stated value, in catalogue order."""
        return [(key, _shown(value), self.example.basis(key)) for key, value in self.values.items()]

    def __repr__(self) -> str:
        lines = [f"{self.line()} ({self.example.id})"]
        lines += [f"  {key} = {value}: {basis}" for key, value, basis in self.rows()]
        if self.example.why_consistent:
            lines.append(f"  not derivable from the text alone: {self.example.why_consistent}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        e = self.example
        esc = html.escape
        body = "".join(
            f"<tr><td><code>{esc(key)}</code></td><td>{esc(value)}</td><td>{esc(basis)}</td></tr>"
            for key, value, basis in self.rows()
        )
        why = f'<p class="example-why">{esc(e.why_consistent)}</p>' if e.why_consistent else ""
        return (
            f'<details class="example-check" id="example-{e.id}" data-kind="{e.status}">'
            f'<summary style="color:#1b5e20;font-weight:600">{esc(self.verdict())}, '
            f"<code>{esc(e.source)}</code>{esc(self.partly_read())}</summary>"
            f'<table class="example-values"><thead><tr><th>value</th><th>computed</th><th>rests on</th></tr>'
            f"</thead><tbody>{body}</tbody></table>{why}"
            f'<p class="example-id">catalogue entry <code>{e.id}</code></p></details>'
        )


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return reader_text(value)


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


def refuses(rule: Callable[..., Any], /, *args: Any, **kwargs: Any) -> bool:
    """Whether ``rule(*args, **kwargs)`` refuses, with a ``ValueError`` (an ``IllegalStep`` of a battle
    is one): the value a check of a refusal rule passes, once for the case the text forbids (``True``)
    and once for the case it allows (``False``), so that a wrong limit on either side fails the check.
    Any other error is not a refusal: it propagates, and the cell fails."""
    try:
        rule(*args, **kwargs)
    except ValueError:
        return True
    return False


def _same(computed: Any, stated: Any) -> bool:
    if isinstance(stated, bool) or isinstance(computed, bool):
        return type(stated) is type(computed) and stated == computed
    if isinstance(stated, (list, tuple)) and isinstance(computed, (list, tuple)):
        return len(stated) == len(computed) and all(map(_same, computed, stated))
    if isinstance(stated, Mapping) and isinstance(computed, Mapping):
        return stated.keys() == computed.keys() and all(_same(computed[k], stated[k]) for k in stated)
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
