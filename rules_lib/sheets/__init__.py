"""Unit sheets for the four systems, and their export to the table (CCFOLIA, chat palettes, TOML).

    >>> from rules_lib import sheets
    >>> sorted(sheets.load("wis6"))
    ['asuka-kestrel', 'raider']
    >>> print(sheets.export(sheets.get("wis6", "raider"), "palette").splitlines()[0])
    1D20<=13 【反応】evasion, reaction 13: Lv1 ≤13, Lv2 ≤6, Lv4 ≤3, Lv8 ≤1, 1 critical

Each system's module (``wis6``, ``gundam_sentinel``, ``nemesis``, ``verse_world``) has a sheet
type with ``to_dict``, ``palette``, ``ccfolia`` and ``key_odds``, a ``from_dict`` that validates
against the rules, and ``load_sheets`` for the sample sheets in ``data/<system>/``.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from ..systems import systems
from .ccfolia import to_json
from .limits import parse_toml
from .palette import PaletteLine, split_line
from .toml_text import dumps

#: system name (as ``rules-lib --system`` spells it) -> module of this package: every system of the
#: registry (``rules_lib.systems``) that has a sheet module here, named as its package
MODULES = {s.system: s.package for s in systems() if importlib.util.find_spec(f"{__name__}.{s.package}") is not None}
SYSTEMS: tuple[str, ...] = tuple(MODULES)
FORMATS: tuple[str, ...] = ("ccfolia", "palette", "toml")


def module(system: str):
    """The sheet module of ``system``."""
    if system not in MODULES:
        raise ValueError(f"system {system!r} has no sheets: allowed are {', '.join(SYSTEMS)}")
    return importlib.import_module(f".{MODULES[system]}", __name__)


def load(system: str) -> dict[str, Any]:
    """The sample sheets of ``system``, by id."""
    return module(system).load_sheets()


def get(system: str, sheet_id: str):
    """One sample sheet by id, or an error listing the ids there are."""
    sheets = load(system)
    if sheet_id not in sheets:
        raise ValueError(f"no {system} sheet {sheet_id!r}: the sheets are {', '.join(sheets)}")
    return sheets[sheet_id]


def system_of(sheet) -> str:
    for system, name in MODULES.items():
        if type(sheet).__module__ == f"{__name__}.{name}":
            return system
    raise ValueError(f"{sheet!r} is not a sheet of rules_lib.sheets")


def from_toml(text: str, system: str | None = None):
    """A sheet from its TOML text (an export of this library, or a player's file); ``system`` may be
    given, else the file's ``system`` key says it. The text's size and nesting are bounded before
    it is parsed (:func:`~rules_lib.sheets.limits.parse_toml`)."""
    if not isinstance(text, str):
        raise ValueError(f"a sheet's TOML is text, not {type(text).__name__}")
    data = parse_toml(text)
    named = data.get("system")
    if system is None and named is None:
        raise ValueError(f"the sheet does not say its system: add system = one of {', '.join(SYSTEMS)}")
    if named is not None and (not isinstance(named, str) or named not in SYSTEMS):
        raise ValueError(f"the sheet's system {named!r:.60} has no sheets: allowed are {', '.join(SYSTEMS)}")
    if system is not None and named is not None and named != system:
        raise ValueError(f"the sheet is a {named!r} sheet, not {system!r}")
    return module(system or named).from_dict(data)


def palette_options(system: str, target: int | None = None, own_commands: bool = False,
                    variables: bool = False) -> dict[str, Any]:
    """The keyword arguments of a system's ``palette``/``ccfolia`` for a target value and the command style.

    ``target``: the evasion a Gundam Sentinel ``BB`` line aims at, or the armour a Nemesis attack
    must exceed; the other systems have no target on the sheet. ``variables``: the palette names each
    value once and refers to it (:mod:`rules_lib.sheets.variables`).
    """
    if system == "gundam-sentinel":
        return {"evasion": target, "variables": variables}
    if system == "nemesis":
        return {"armour": target, "own_commands": own_commands, "variables": variables}
    return {"own_commands": own_commands, "variables": variables}


def export(sheet, format: str, *, target: int | None = None, own_commands: bool = False,
           variables: bool = False) -> str:
    """The sheet as CCFOLIA clipboard JSON, its chat palette (one line a roll), or TOML.

    ``variables`` writes the palette as the sheet sites do: ``//label=value`` lines, then lines that
    refer to them as ``{label}``; in CCFOLIA's JSON the values are the params the lines refer to."""
    if format not in FORMATS:
        raise ValueError(f"format {format!r}: allowed are {', '.join(FORMATS)}")
    options = palette_options(system_of(sheet), target, own_commands, variables)
    if format == "ccfolia":
        return to_json(sheet.ccfolia(**options))
    if format == "palette":
        return "\n".join(str(line) for line in sheet.palette(**options))
    header = f"{system_of(sheet)} unit sheet {sheet.id!r} (rules_lib.sheets); load it with rules_lib.sheets.from_toml"
    return dumps(sheet.to_dict(), header)


__all__ = ["FORMATS", "MODULES", "SYSTEMS", "PaletteLine", "dumps", "export", "from_toml", "get", "load", "module",
           "palette_options", "split_line", "system_of"]
