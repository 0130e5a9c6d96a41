"""Udonarium (ユドナリウム) character pieces: a ZIP holding ``data.xml``, dropped on the table to import.

The format is what Udonarium itself saves and reads (TK11235/udonarium: ``GameCharacter``,
``TabletopObject``, ``DataElement`` and ``ChatPalette`` in ``src/app/class/``; ``SaveDataService``
writes ``data.xml`` into a ZIP, ``FileArchiver`` reads each entry of a dropped ZIP and places a
``<character>`` on the table)::

    <character location.name="table" location.x="0" location.y="0" posZ="0" rotate="0" roll="0">
      <data name="character">
        <data name="image"><data type="image" name="imageIdentifier"></data></data>
        <data name="common"><data name="name">…</data><data name="size">1</data></data>
        <data name="detail">
          <data name="リソース"><data type="numberResource" currentValue="24" name="耐久力">24</data>…</data>
          <data name="能力"><data name="回避値 evasion">54</data>…</data>
          <data name="情報"><data type="note" name="説明">memo lines</data></data>
        </data>
      </data>
      <chat-palette dicebot="GundamSentinel">palette lines</chat-palette>
    </character>

The piece is made from the sheet's CCFOLIA piece (:mod:`rules_lib.sheets.ccfolia`): its bars are
the resources (value the current value, max the element's text), its params the abilities, its
memo the note, its commands the palette; so both tables get the same lines and numbers. The
sample sheets have no image, so ``imageIdentifier`` is empty and the ZIP holds ``data.xml`` alone.
``dicebot`` is the system's BCDice-API id (``rules_lib.api_systems``, served by :mod:`rules_lib.api`): BCDice's own
``GundamSentinel``, and this project's ``RulesLib_`` ids, which Udonarium, not knowing them,
reads as BCDice's generic ``DiceBot`` (``DiceBot.loadGameSystemAsync``): the generic palette
lines roll there, and the ``--own-commands`` lines only with a BCDice-API server of this library.
Every text passes the sheets' text rule (:mod:`rules_lib.sheets.text`), and ElementTree escapes it;
a brace in the palette is refused (`PALETTE_REFERENCE`), except, in a palette written with
variables, a ``{label}`` that names one of the piece's own params: Udonarium finds it among the
character's data elements (``evaluate(text, character.rootDataElement)``), so the value is edited
once, on the character, and every line follows.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Mapping
from typing import Any

from ..api_systems import game_systems
from . import palette_options, system_of
from .ccfolia import check_character
from .text import check_line, check_lines
from .variables import check_references

#: the piece's size in grid squares: Udonarium's default for a new character (not in the source text)
PIECE_SIZE = 1
#: the date written into the ZIP for data.xml, fixed so the same sheet gives the same bytes
#: (ZIP's earliest date; not in the source text)
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
#: what Udonarium's palette reads as a reference to a variable (``ChatPalette.evaluate``), so a
#: label holding one would not show as written: refused rather than changed
PALETTE_REFERENCE = frozenset("{}｛｝")
#: characters XML 1.0 does not allow (its Char production) that the text rule lets through
_NOT_XML = frozenset("\ufffe\uffff")


def dicebot(system: str) -> str:
    """The dicebot id of ``system`` (a ``rules-lib --system`` name), as the BCDice-API server serves it."""
    for game in game_systems().values():
        if game.system == system:
            return game.id
    raise ValueError(f"system {system!r} has no dice commands for a dicebot id")


def _text(value: str, where: str, *, lines: bool = False) -> str:
    checked = check_lines(value, where) if lines else check_line(value, where)
    if any(char in _NOT_XML for char in checked):
        raise ValueError(f"{where} holds U+FFFE or U+FFFF, which XML does not allow")
    return checked


def _data(parent: ET.Element, name: str, value: str = "", **attributes: str) -> ET.Element:
    # attributes before name, as Udonarium writes them (type, currentValue, name)
    element = ET.SubElement(parent, "data", {**attributes, "name": _text(name, "Udonarium data name")})
    element.text = _text(value, f"Udonarium {name}", lines=attributes.get("type") == "note")
    return element


def character(piece: Mapping[str, Any], dicebot_id: str, *, references: bool = False) -> ET.Element:
    """The ``<character>`` element of a CCFOLIA clipboard piece (``{"kind": "character", "data": ...}``);
    ``references``: the palette may refer to the piece's params as ``{label}``."""
    data = check_character(piece)["data"]
    root = ET.Element("character", {"location.name": "table", "location.x": "0", "location.y": "0",
                                    "posZ": "0", "rotate": "0", "roll": "0"})
    whole = _data(root, "character")
    _data(_data(whole, "image"), "imageIdentifier", type="image")
    common = _data(whole, "common")
    _data(common, "name", data.get("name", ""))
    _data(common, "size", str(PIECE_SIZE))
    detail = _data(whole, "detail")
    resources = _data(detail, "リソース")
    for bar in data.get("status", []):
        _data(resources, bar["label"], str(bar["max"]), type="numberResource", currentValue=str(bar["value"]))
    abilities = _data(detail, "能力")
    if "initiative" in data:
        _data(abilities, "イニシアチブ initiative", str(data["initiative"]))
    for param in data.get("params", []):
        _data(abilities, param["label"], param["value"])
    _data(_data(detail, "情報"), "説明", data.get("memo", ""), type="note")
    palette = ET.SubElement(root, "chat-palette", {"dicebot": _text(dicebot_id, "Udonarium dicebot")})
    palette.text = _text(data.get("commands", ""), "Udonarium chat palette", lines=True)
    if references:
        check_references(palette.text, [p["label"] for p in data.get("params", [])], "the Udonarium chat palette")
    elif any(char in PALETTE_REFERENCE for char in palette.text):
        raise ValueError("a chat palette line holds a brace ({ or ｛), which Udonarium reads as a variable: "
                         "rename what holds it")
    return root


def data_xml(piece: Mapping[str, Any], dicebot_id: str, *, references: bool = False) -> str:
    """``data.xml`` as Udonarium saves it: the declaration, then the character indented."""
    root = character(piece, dicebot_id, references=references)
    ET.indent(root)  # indents elements with children only: no text value changes
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode",
                                                                    short_empty_elements=False) + "\n"


def export(sheet, *, target: int | None = None, own_commands: bool = False, variables: bool = False) -> bytes:
    """The Udonarium ZIP of a sheet, with the lines and numbers of its CCFOLIA piece
    (``target``, ``own_commands`` and ``variables`` as for :func:`rules_lib.sheets.export`)."""
    system = system_of(sheet)
    piece = sheet.ccfolia(**palette_options(system, target, own_commands, variables))
    return archive(piece, dicebot(system), references=variables)


def archive(piece: Mapping[str, Any], dicebot_id: str, *, references: bool = False) -> bytes:
    """The ZIP Udonarium imports: ``data.xml`` (UTF-8), and nothing else (the sheets have no image)."""
    buffer = io.BytesIO()
    xml = data_xml(piece, dicebot_id, references=references)
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr(zipfile.ZipInfo("data.xml", date_time=ZIP_DATE), xml.encode(),
                        compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


__all__ = ["PIECE_SIZE", "archive", "character", "data_xml", "dicebot", "export"]
