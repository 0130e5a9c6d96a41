"""What every system's sheet shares: loading the data files, provenance, export.

A sheet is a frozen dataclass with ``id``, ``name`` and ``sources`` (the provenance of each value:
``"001 §3-1"``, ``"000 §4, line 222"`` or ``"not in the source text"``). It converts to the plain
mapping its TOML file holds (``to_dict``) and back (``from_dict``), and gives its chat palette
and CCFOLIA character. The sample sheets are TOML files in ``data/<system>/``, read through
``rules_lib.samples`` (where the guided battles read them too); each of their values has a source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from .. import checks
from ..samples import sample_tables
from .limits import check_tree

NOT_IN_TEXT = "not in the source text"
PLAYER = "a player's sheet"

T = TypeVar("T")


def whole(value: object, what: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a whole number in range, or an error naming it and what is allowed (`rules_lib.checks.whole`)."""
    return checks.whole(value, what, minimum=minimum, maximum=maximum)


def text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} {value!r} is not a non-empty text")
    return value


def cited_or_default(value: T, field: str, sources: Mapping[str, str]) -> T | None:
    """``value`` as an export writes it: ``None`` (left out, as the sample files leave it) when it is
    empty, false or 0 and the sheet cites no source for ``field``. A cited field is written even
    when empty, so that its source has a field to belong to and the export reads back to the same sheet."""
    return value if value or field in sources else None


def armed(weapons: Sequence[object], owner: str, source: str = "") -> None:
    """Refuse a sheet without weapons: every system's sheet lists at least one (``source`` cites
    where the text says so, when it does)."""
    if not weapons:
        raise ValueError(f"{owner} has no weapons: a sheet lists at least one{source}")


def known_keys(data: Mapping[str, Any], allowed: Iterable[str], what: str) -> None:
    """Refuse unknown keys, so that a misspelt field is not silently dropped."""
    allowed = tuple(allowed)
    unknown = [k for k in data if k not in allowed]
    if unknown:
        named = ", ".join(map(repr, unknown[:5])) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
        raise ValueError(f"{what}: unknown field(s) {named}; allowed are {', '.join(allowed)}")


@checks.checked_arguments
def check_sources(data: Mapping[str, Any], fields: Iterable[str], what: str, *, sample: bool) -> dict[str, str]:
    """The ``sources`` table: a text per value field present (a sample sheet must cite every value;
    a player's sheet may cite some or none), and no source for a field the sheet does not have."""
    if not sample and "sources" not in data:
        return {}
    sources = dict(data.get("sources", {}))
    present = [f for f in fields if f in data]
    # a player's sheet may cite some values and not others; a sample cites every one
    missing = [f for f in (present if sample else sources) if not isinstance(sources.get(f), str) or not sources[f].strip()]
    if missing:
        raise ValueError(f"{what}: no source for {', '.join(missing)} (write the file and section, or {NOT_IN_TEXT!r})")
    extra = [k for k in sources if k not in present]
    if extra:
        raise ValueError(f"{what}: sources for fields that are not on the sheet: {', '.join(extra)}")
    return sources


def load_directory(system_folder: str, from_dict: Callable[..., T]) -> dict[str, T]:
    """Every sample sheet of ``data/<system_folder>/`` (``rules_lib.samples.sample_tables``), by id,
    in file-name order, each validated as a sample (a source per value)."""
    return {sheet_id: from_dict(table, sample=True) for sheet_id, table in sample_tables(system_folder).items()}


#: a field's expected TOML kind: ``int``, ``str``, ``bool``, ``dict`` (any table), a nested schema
#: (a table with those fields), ``[kind]`` (a list of that kind), or a tuple of kinds (any of them)
Kind = Any
_KIND_NAMES = {int: "a whole number", str: "a text", bool: "true or false", dict: "a table"}


def _kind_name(kind: Kind) -> str:
    if isinstance(kind, tuple):
        return " or ".join(_kind_name(k) for k in kind)
    if isinstance(kind, list):
        return "a list"
    if isinstance(kind, Mapping):
        return "a table"
    return _KIND_NAMES[kind]


def _matches(value: Any, kind: Kind) -> bool:
    if isinstance(kind, tuple):
        return any(_matches(value, k) for k in kind)
    if isinstance(kind, list):
        return isinstance(value, list)
    if isinstance(kind, Mapping) or kind is dict:
        return isinstance(value, Mapping)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def check_shape(value: Any, kind: Kind, where: str) -> None:
    """Check the TOML shape of ``value`` (kinds of values, lists, tables) before the rules read it,
    so a wrong kind is refused with a message naming the field instead of failing deep inside."""
    if not _matches(value, kind):
        raise ValueError(f"{where} {value!r} is not {_kind_name(kind)}")
    if isinstance(kind, tuple):
        kind = next(k for k in kind if _matches(value, k))
    if isinstance(kind, list):
        for position, item in enumerate(value, start=1):
            check_shape(item, kind[0], f"{where} #{position}")
    elif isinstance(kind, Mapping):
        for key, sub in kind.items():
            if key in value:
                check_shape(value[key], sub, f"{where}: {key}")


def check_sheet(data: Mapping[str, Any], allowed: Iterable[str], shape: Kind, system: str, what: str) -> None:
    """What a sheet's TOML passes before its values are read: the sheet limits and the text rule
    (:func:`~rules_lib.sheets.limits.check_tree`), no unknown field, each value of its kind, and the
    system it is written for (``system`` when it names none)."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{what} {type(data).__name__} is not a table")
    check_tree(data)
    known_keys(data, allowed, what)
    check_shape(data, shape, what)
    if data.get("system", system) != system:
        raise ValueError(f"sheet system {data.get('system')!r} is not {system!r}")


def sheet_named(data: Mapping[str, Any]) -> str:
    """How an error names a sheet: its id quoted, or that it has none."""
    return repr(data["id"]) if "id" in data else "without an id"


def require(data: Mapping[str, Any], keys: Iterable[str], what: str) -> None:
    """Refuse a table that lacks one of ``keys``, naming them."""
    missing = [k for k in keys if k not in data]
    if missing:
        raise ValueError(f"{what} lacks {', '.join(missing)}")
