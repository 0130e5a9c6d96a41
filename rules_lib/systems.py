"""The registry of systems, read from the header of each catalogue file (``examples/*.toml``).

Everything that lists the systems reads it: the site's navigation, home page, worked-examples
page and source-text pages (``tools/mkdocs_hooks.py``, ``tools/citations.py``), the catalogue
tests, the ``rules-lib --system`` choices and the sheets. Adding a system is adding its catalogue
file (``tools/new_system.py`` writes one with the rest of the skeleton); no list elsewhere names
the systems.

A catalogue file's header::

    source_file = "000_44ba26957e1b4e1d.txt"   # in sources/; its first three digits are the code
    system = "gundam-sentinel"                  # rules-lib --system NAME, and the book folder
    title = "..."                               # the catalogue's own title
    name = "GUNDAM SENTINEL RPG -OutLaws Edition-"   # the system's display name
    short_name = "Gundam Sentinel"              # in the navigation, and the glossary/rulings heading
    package = "gundam_sentinel"                 # rules_lib.<package>
    id_prefix = "gs-"                           # of every worked example's id
    source_title = "..."                        # the heading of the source text's page
    kind = "..."                                # what kind of game, for the home page
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .catalogue import catalogue_dir

#: header keys every catalogue file must have
FIELDS = ("source_file", "system", "name", "short_name", "package", "id_prefix", "source_title", "kind")
_SYSTEM_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
_PACKAGE = re.compile(r"[a-z][a-z0-9_]*")
_PREFIX = re.compile(r"[a-z][a-z0-9]*-")
_SOURCE_FILE = re.compile(r"(\d{3})_[0-9a-f]{16}\.txt")


@dataclass(frozen=True)
class System:
    """One system of the book, as its catalogue file's header states it."""

    system: str  # rules-lib --system NAME, and the book folder book/<system>/
    name: str  # display name: GUNDAM SENTINEL RPG -OutLaws Edition-
    short_name: str  # navigation title: Gundam Sentinel
    code: str  # how the book cites its text: 000
    source_file: str  # the text in sources/
    source_title: str
    package: str  # rules_lib.<package>
    id_prefix: str  # gs-
    kind: str  # what kind of game, in a phrase
    catalogue: str  # the catalogue file's name

    @property
    def book_folder(self) -> str:
        return self.system


def _system(data: dict, file: str) -> System:
    missing = [key for key in FIELDS if not isinstance(data.get(key), str) or not data[key].strip()]
    if missing:
        raise ValueError(f"{file}: the registry header lacks {', '.join(missing)} (every catalogue file has {FIELDS})")
    checks = (("system", _SYSTEM_NAME, "lower-case words joined by '-'"),
              ("package", _PACKAGE, "a lower-case Python module name"),
              ("id_prefix", _PREFIX, "lower-case letters and digits ending in '-'"),
              ("source_file", _SOURCE_FILE, "NNN_<16 hex digits>.txt"))
    for key, pattern, allowed in checks:
        if not pattern.fullmatch(data[key]):
            raise ValueError(f"{file}: {key} {data[key]!r} is not {allowed}")
    code = data["source_file"][:3]
    if not file.startswith(code):
        raise ValueError(f"{file}: the file name does not start with its source text's code {code}")
    return System(system=data["system"], name=data["name"], short_name=data["short_name"], code=code,
                  source_file=data["source_file"], source_title=data["source_title"], package=data["package"],
                  id_prefix=data["id_prefix"], kind=data["kind"], catalogue=file)


@cache
def systems(directory: Path | None = None) -> tuple[System, ...]:
    """Every system, in the order of their catalogue files (by source code)."""
    directory = directory or catalogue_dir()
    found = tuple(_system(tomllib.loads(path.read_text(encoding="utf-8")), path.name)
                  for path in sorted(directory.glob("*.toml")))
    for key in ("system", "package", "id_prefix", "code", "short_name"):
        values = [getattr(s, key) for s in found]
        twice = sorted({v for v in values if values.count(v) > 1})
        if twice:
            raise ValueError(f"{directory}: two catalogue files name the same {key}: {twice}")
    return found


def names() -> tuple[str, ...]:
    """The systems' names, as ``rules-lib --system`` spells them."""
    return tuple(s.system for s in systems())


def get(name: str) -> System:
    """The system called ``name`` (``gundam-sentinel``), or an error naming those there are."""
    for found in systems():
        if found.system == name:
            return found
    raise ValueError(f"no system {name!r}: the systems are {', '.join(names())}")


__all__ = ["FIELDS", "System", "get", "names", "systems"]
