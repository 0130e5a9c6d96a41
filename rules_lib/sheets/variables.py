"""Palettes as the sheet sites write them: ``//label=value`` lines and ``{label}`` references.

A palette written with variables names each value it uses once, so a player who raises an ability
edits one value and every line follows:

- on CCFOLIA, ``{label}`` in a palette line is replaced by the character's status or param of that
  label when the line is sent (CCFOLIA's guide, "ステータス" and "パラメータ"): the piece's params
  carry the values (`ccfolia_params`);
- on Udonarium, ``ChatPalette.evaluate`` replaces ``{label}`` (or ``｛label｝``) by the palette's own
  ``//label=value`` line of that name, else by the character's data element of that name, else by
  nothing, and repeats while a reference is left (at most 128 times), the names read with full-width
  letters and digits as half-width (TK11235/udonarium, ``src/app/class/chat-palette.ts``).

`resolve` does what those tables do, so a test can roll each line as the table would send it. The
variables are *not in the source text*: the texts give the values, not how a palette spells them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .palette import PaletteLine, signed
from .text import check_line

#: the characters a variable's name may not hold: Udonarium reads a ``//name=value`` line only when
#: its name has none of them (``parseVariable``)
NAME_REFUSED = frozenset("=＝{}｛｝/／")
#: how many passes Udonarium makes over a line before it stops replacing (``evaluate``'s limit)
MAX_PASSES = 128
_REFERENCE = re.compile(r"[{｛]\s*([^{}｛｝]+?)\s*[}｝]")
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} {value!r:.60} is not text")
    return value


def half_width(text: str) -> str:
    """Full-width ASCII letters, digits and signs as half-width (``ＥＮ`` → ``EN``), as Udonarium reads names."""
    return _text(text, "a name").translate(_FULL_WIDTH)


@dataclass(frozen=True)
class Variable:
    """One ``//name=value`` line: a value the palette's lines refer to as ``{name}``."""

    name: str
    value: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not isinstance(self.value, str):
            raise ValueError(f"palette variable {self.name!r:.60} = {self.value!r:.60}: name and value are texts")
        check_line(self.name, "palette variable name")
        check_line(self.value, f"palette variable {self.name}")
        refused = sorted(c for c in set(self.name) if c in NAME_REFUSED or c.isspace())
        if not self.name or refused:
            raise ValueError(f"palette variable name {self.name!r:.60} must be one word without "
                             f"{' '.join(sorted(NAME_REFUSED))} or spaces"
                             + (f" (it holds {' '.join(map(repr, refused))})" if refused else ""))
        if not self.value.strip() or any(c in "{}｛｝" for c in self.value):
            raise ValueError(f"palette variable {self.name}'s value {self.value!r:.60} must be a text without braces")

    def __str__(self) -> str:
        return f"//{self.name}={self.value}"


class PaletteValues:
    """The values a palette's lines use, written as numbers or, with ``references``, as ``{name}``.

    ``value("反応", 12)`` is ``"12"`` or ``"{反応}"``; ``signed("反応", 12)`` is ``"+12"`` or ``"+{反応}"``
    (a reference keeps its sign in the value, so an edited ``-1`` rolls as ``+-1``, which BCDice and
    ``rules-lib roll`` read as minus one). Each name used is remembered with its value, in order.
    """

    def __init__(self, references: bool) -> None:
        self.references = bool(references)
        self._values: dict[str, str] = {}
        self.written = 0  # references written, to tell them from braces in a sheet's own text

    def value(self, name: str, number: int | str) -> str:
        shown = str(number)
        if self._values.setdefault(name, shown) != shown:
            raise ValueError(f"palette variable {name} is used with two values: {self._values[name]} and {shown}")
        if not self.references:
            return shown
        self.written += 1
        return f"{{{name}}}"

    def signed(self, name: str, number: int) -> str:
        written = self.value(name, number)
        return f"+{written}" if self.references else signed(number)

    def shown(self, name: str, number: int | str, plain: str) -> str:
        """A value in a label: the reference, or ``plain`` (the number as the label writes it)."""
        written = self.value(name, number)
        return written if self.references else plain

    @property
    def variables(self) -> tuple[Variable, ...]:
        return tuple(Variable(name, value) for name, value in self._values.items())


def with_variables(values: PaletteValues, lines: Sequence[PaletteLine]) -> tuple[Variable | PaletteLine, ...]:
    """The palette as it is written: its variables' ``//`` lines first (only with references), then its lines.

    With references, a brace that ``values`` did not write (a weapon named ``{HP}`` or ``{反応}``) is
    refused: the table would replace it, and the line would say something other than the sheet.
    """
    if not values.references:
        return tuple(lines)
    text = "\n".join(str(line) for line in lines)
    found = len(_REFERENCE.findall(text))
    if found != values.written or any(c in "{}｛｝" for c in _REFERENCE.sub("", text)):
        raise ValueError("a name or label on the sheet holds a brace ({ or ｛), which a table reads as a reference "
                         "to a value: rename what holds it to write the palette with variables")
    return (*values.variables, *lines)


def split_variables(palette: Iterable[Variable | PaletteLine]) -> tuple[tuple[Variable, ...], tuple[PaletteLine, ...]]:
    """A written palette's variables and its lines, apart."""
    palette = tuple(palette)
    return (tuple(p for p in palette if isinstance(p, Variable)), tuple(p for p in palette if isinstance(p, PaletteLine)))


def references(text: str) -> list[str]:
    """The names ``text`` refers to, as a table reads them (half-width), in order."""
    return [half_width(name) for name in _REFERENCE.findall(_text(text, "palette text"))]


def resolve(text: str, variables: Mapping[str, str] | Iterable[Variable], *, strict: bool = True) -> str:
    """``text`` as the table sends it: each ``{name}`` replaced by its variable's value, pass after pass.

    ``strict`` refuses a reference to no variable (Udonarium would send nothing in its place).
    """
    _text(text, "palette text")
    if isinstance(variables, Mapping):
        table = {half_width(name): _text(value, f"the value of {name}") for name, value in variables.items()}
    else:
        found = tuple(variables) if isinstance(variables, Iterable) and not isinstance(variables, str) else None
        if found is None or not all(isinstance(v, Variable) for v in found):
            raise ValueError(f"variables {variables!r:.60} are neither a mapping of names to values nor Variables")
        table = {half_width(v.name): v.value for v in found}

    def replace(match: re.Match) -> str:
        name = half_width(match.group(1))
        if name not in table and strict:
            raise ValueError(f"{text!r:.80} refers to {{{name}}}, which no variable of the palette names: "
                             f"it has {', '.join(table) or 'none'}")
        return table.get(name, "")

    for _ in range(MAX_PASSES):
        replaced = _REFERENCE.sub(replace, text)
        if replaced == text:
            break
        text = replaced
    return text


def resolved_lines(palette: Iterable[Variable | PaletteLine]) -> tuple[PaletteLine, ...]:
    """A written palette's lines with their references replaced by its variables' values."""
    variables, lines = split_variables(palette)
    return tuple(PaletteLine(resolve(line.command, variables), resolve(line.label, variables)) for line in lines)


def check_references(text: str, names: Iterable[str], where: str) -> str:
    """``text`` if every brace in it is a reference to one of ``names``; else an error naming ``where``.

    A table replaces any ``{…}`` it finds, so a brace that came from a sheet's own text (a weapon
    named ``{HP}``) would send something other than what was written.
    """
    _text(where, "where")
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise ValueError(f"names {names!r:.60} are not a list of texts")
    allowed = {half_width(n) for n in names}
    for name in references(text):
        if name not in allowed:
            raise ValueError(f"{where} refers to {{{name}}}, which is none of the palette's values "
                             f"({', '.join(sorted(allowed)) or 'none'}): a brace in a name would be read as one")
    if any(c in "{}｛｝" for c in _REFERENCE.sub("", text)):
        raise ValueError(f"{where} holds a brace that is no reference ({{name}}): a table would read it as one")
    return text


def ccfolia_params(variables: Sequence[Variable], params: Sequence[tuple[str, object]]) -> list[tuple[str, object]]:
    """A piece's params for a palette with references: one param per variable, named as the palette
    refers to it, then the other params (those that show the same value under another label, such as
    ``反応 reaction`` beside ``反応``, are left out, so a value is edited in one place)."""
    names = {v.name for v in variables}
    kept = [(label, value) for label, value in params if label not in names and label.split(" ")[0] not in names]
    return [(v.name, v.value) for v in variables] + kept


__all__ = ["MAX_PASSES", "PaletteValues", "Variable", "ccfolia_params", "check_references", "half_width",
           "references", "resolve", "resolved_lines", "split_variables", "with_variables"]
