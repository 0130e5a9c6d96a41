"""CCFOLIA (ココフォリア) clipboard data for a character piece.

CCFOLIA's developer documentation, "Clipboard API" (v1.19.0, https://docs.ccfolia.com/developer-api/
clipboard-api), defines what may be pasted onto a board: ``{"kind": "character", "data":
Partial<Character>}``, where a character has, among others, ``name``, ``memo``, ``initiative``
(a number), ``status`` (bars: ``label``, ``value``, ``max``, numbers), ``params`` (``label``, ``value``,
strings) and ``commands`` (the chat palette, one command a line). :func:`check_character` checks
those types, and every text by the sheets' text rule (:mod:`rules_lib.sheets.text`): ``memo`` and
``commands`` are lines joined by ``\n`` and nothing else breaks a line, no text holds a control character.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .text import check_line, check_lines

#: the fields of the documented ``Character`` type that a sheet fills, with their JSON types
FIELDS: dict[str, type | tuple[type, ...]] = {
    "name": str, "memo": str, "initiative": (int, float), "externalUrl": str, "status": list,
    "params": list, "iconUrl": (str, type(None)), "faces": list, "x": (int, float), "y": (int, float),
    "angle": (int, float), "width": (int, float), "height": (int, float), "active": bool, "secret": bool,
    "invisible": bool, "hideStatus": bool, "color": str, "commands": str, "owner": (str, type(None)),
}


def character(name: str, *, memo: str = "", initiative: int = 0,
              status: Sequence[tuple[str, int, int]] = (), params: Sequence[tuple[str, object]] = (),
              commands: Sequence[str] = ()) -> dict[str, Any]:
    """The clipboard object of one character piece (``status``: (label, value, max); ``params``: (label, value))."""
    data = {
        "kind": "character",
        "data": {
            "name": name,
            "memo": memo,
            "initiative": initiative,
            "status": [{"label": label, "value": value, "max": most} for label, value, most in status],
            "params": [{"label": label, "value": str(value)} for label, value in params],
            "commands": "\n".join(commands),
        },
    }
    check_character(data)
    return data


def check_character(data: object) -> Mapping[str, Any]:
    """Check ``data`` against the documented clipboard type, naming the first field that is wrong."""
    if not isinstance(data, Mapping) or data.get("kind") != "character" or not isinstance(data.get("data"), Mapping):
        raise ValueError('CCFOLIA clipboard data is {"kind": "character", "data": {...}}')
    piece = data["data"]
    for key, value in piece.items():
        if key not in FIELDS:
            raise ValueError(f"CCFOLIA character field {key!r} is not in the documented type: allowed are {', '.join(FIELDS)}")
        if isinstance(value, bool) and FIELDS[key] is not bool or not isinstance(value, FIELDS[key]):
            raise ValueError(f"CCFOLIA character field {key!r} = {value!r} has the wrong type")
    for key in ("memo", "commands"):
        if isinstance(piece.get(key), str):
            check_lines(piece[key], f"CCFOLIA {key}")
    for key, value in piece.items():
        if isinstance(value, str) and key not in ("memo", "commands"):
            check_line(value, f"CCFOLIA {key}")
    for bar in piece.get("status", []):
        if set(bar) != {"label", "value", "max"} or not isinstance(bar["label"], str) \
                or not all(isinstance(bar[k], int) and not isinstance(bar[k], bool) for k in ("value", "max")):
            raise ValueError(f"CCFOLIA status {bar!r} needs a text label and whole-number value and max")
    for param in piece.get("params", []):
        if set(param) != {"label", "value"} or not all(isinstance(param[k], str) for k in param):
            raise ValueError(f"CCFOLIA param {param!r} needs a text label and a text value")
    for number, entry in enumerate([*piece.get("status", []), *piece.get("params", [])], start=1):
        for key in ("label", "value"):
            if isinstance(entry[key], str):
                check_line(entry[key], f"CCFOLIA status or param #{number} {key}")
    return data


def to_json(data: Mapping[str, Any]) -> str:
    """The clipboard text: compact JSON, Japanese kept as it is."""
    return json.dumps(check_character(data), ensure_ascii=False)
