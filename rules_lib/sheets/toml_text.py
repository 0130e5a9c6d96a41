"""Write a sheet as TOML text (``tomllib`` only reads).

Sheets hold strings, whole numbers, booleans, lists of those, tables and lists of tables, so
a small writer is enough; ``tomllib.loads(dumps(data)) == data`` is tested for every sheet.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .. import checks

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    if not isinstance(key, str) or not key:
        raise ValueError(f"TOML key {key!r} is not a non-empty string")
    return key if _BARE.match(key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"{value!r} ({type(value).__name__}) cannot be written to a sheet's TOML")


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list | tuple) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _table(data: Mapping[str, Any], path: tuple[str, ...], lines: list[str]) -> None:
    nested = []
    for key, value in data.items():
        if value is None:
            continue  # TOML has no null: an absent key is "not given"
        if isinstance(value, Mapping) or _is_table_list(value):
            nested.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in nested:
        sub = (*path, _key(key))
        if isinstance(value, Mapping):
            lines.append("")
            lines.append(f"[{'.'.join(sub)}]")
            _table(value, sub, lines)
        else:
            for item in value:
                lines.append("")
                lines.append(f"[[{'.'.join(sub)}]]")
                _table(item, sub, lines)


@checks.checked_arguments
def dumps(data: Mapping[str, Any], header: str = "") -> str:
    """``data`` as TOML text, with ``header`` as leading comment lines."""
    checks.text(header, "header", max_length=2_000)
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    _table(data, (), lines)
    return "\n".join(lines).lstrip("\n") + "\n"
