"""``rules-lib sheet --format udonarium``: the ZIP of every sample sheet, unzipped and read as Udonarium
reads it (TK11235/udonarium: ``FileArchiver`` loads each entry of a dropped ZIP, ``ObjectSerializer``
builds a ``<character>`` whose ``data name="character"`` holds image, common and detail, and its
``<chat-palette dicebot>``), against the sheet's CCFOLIA piece; every palette line rolls with the CLI."""

from __future__ import annotations

import io
import json
import re
import tomllib
import xml.etree.ElementTree as ET
import zipfile

import pytest

from rules_lib import sheets
from rules_lib.cli import main
from rules_lib.sheets import udonarium

#: each system's dicebot: BCDice's own id for Gundam Sentinel, the BCDice-API server's for the others
DICEBOTS = {"gundam-sentinel": "GundamSentinel", "wis6": "RulesLib_WIS6", "nemesis": "RulesLib_Nemesis",
            "verse-world": "RulesLib_VerseWorld"}
SHEETS = [pytest.param(system, sheet_id, own, id=f"{system}:{sheet_id}:own={own}")
          for system in sheets.SYSTEMS for sheet_id in sheets.load(system) for own in (False, True)]


def _export(tmp_path, system: str, sheet_id: str, own: bool, capsys) -> bytes:
    output = tmp_path / "piece.zip"
    argv = ["sheet", "--system", system, sheet_id, "--format", "udonarium", "--output", str(output)]
    assert main(argv + (["--own-commands"] if own else [])) == 0, capsys.readouterr().err
    assert str(output) in capsys.readouterr().out
    return output.read_bytes()


def _data_xml(archive: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(archive)) as zipped:
        assert zipped.namelist() == ["data.xml"]  # no image: the sample sheets have none
        return zipped.read("data.xml").decode("utf-8")


def _children(element: ET.Element) -> list[str]:
    return [child.get("name") for child in element]


def _named(element: ET.Element, name: str) -> ET.Element:
    found = [child for child in element if child.tag == "data" and child.get("name") == name]
    assert len(found) == 1, f"{name!r} in {_children(element)}"
    return found[0]


def read_piece(text: str) -> dict:
    """What Udonarium takes from ``data.xml``, checking each element where it looks for it."""
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(text)
    assert root.tag == "character" and root.get("location.name") == "table"
    assert [child.tag for child in root] == ["data", "chat-palette"]
    whole = root[0]
    assert whole.get("name") == "character" and _children(whole) == ["image", "common", "detail"]
    image = _named(_named(whole, "image"), "imageIdentifier")
    assert image.get("type") == "image" and not image.text
    common = _named(whole, "common")
    assert _children(common) == ["name", "size"] and _named(common, "size").text == str(udonarium.PIECE_SIZE)
    detail = _named(whole, "detail")
    assert _children(detail) == ["リソース", "能力", "情報"]
    resources = []
    for bar in _named(detail, "リソース"):
        assert bar.tag == "data" and bar.get("type") == "numberResource"
        resources.append({"label": bar.get("name"), "value": int(bar.get("currentValue")), "max": int(bar.text)})
    abilities = [(item.get("name"), item.text or "") for item in _named(detail, "能力")]
    assert all(len(item) == 0 and item.get("type") is None for item in _named(detail, "能力"))
    note = _named(_named(detail, "情報"), "説明")
    assert note.get("type") == "note"
    palette = root[1]
    assert len(palette) == 0 and set(palette.attrib) == {"dicebot"}
    return {"name": _named(common, "name").text, "status": resources, "abilities": abilities,
            "memo": note.text or "", "dicebot": palette.get("dicebot"), "commands": palette.text or ""}


@pytest.mark.parametrize(("system", "sheet_id", "own"), SHEETS)
def test_the_piece_holds_the_ccfolia_lines_and_numbers(system, sheet_id, own, tmp_path, capsys):
    piece = read_piece(_data_xml(_export(tmp_path, system, sheet_id, own, capsys)))
    ccfolia = json.loads(sheets.export(sheets.get(system, sheet_id), "ccfolia", own_commands=own))["data"]
    assert piece["dicebot"] == DICEBOTS[system]
    assert piece["name"] == ccfolia["name"] and piece["memo"] == ccfolia["memo"]
    assert piece["status"] == ccfolia["status"] and piece["status"]
    assert piece["abilities"] == [("イニシアチブ initiative", str(ccfolia["initiative"])),
                                  *((param["label"], param["value"]) for param in ccfolia["params"])]
    assert piece["commands"] == ccfolia["commands"] and piece["commands"].count("\n") >= 2


@pytest.mark.parametrize(("system", "sheet_id", "own"), SHEETS)
def test_every_palette_line_rolls_with_the_cli(system, sheet_id, own, tmp_path, capsys):
    commands = read_piece(_data_xml(_export(tmp_path, system, sheet_id, own, capsys)))["commands"]
    for line in commands.split("\n"):
        assert main(["roll", line, "--system", system, "--seed", "7"]) == 0, (line, capsys.readouterr().err)
    capsys.readouterr()


def test_the_same_sheet_gives_the_same_bytes():
    sheet = sheets.get("wis6", "raider")
    assert udonarium.export(sheet) == udonarium.export(sheet)


def _renamed(name: str):
    data = tomllib.loads(sheets.export(sheets.get("wis6", "raider"), "toml"))
    data["name"] = name
    return sheets.module("wis6").from_dict(data)


def test_a_hostile_name_is_escaped_and_read_back_as_written(tmp_path):
    hostile = '</data><data name="x">&amp; "\' <!-- ]]>'
    text = _data_xml(udonarium.export(_renamed(hostile)))
    assert hostile not in text and "&lt;/data&gt;" in text
    piece = read_piece(text)
    assert piece["name"].startswith(hostile)
    assert all(hostile in line for line in piece["memo"].split("\n")[:1])


@pytest.mark.parametrize(("bad", "named"), [("\x1b[31m", "U+001B"), ("a\u2028b", "U+2028"), ("\u202e", "U+202E"),
                                            ("\ufffe", "U+FFFE")])
def test_refused_text_never_reaches_the_xml(bad, named):
    piece = {"kind": "character", "data": {"name": "ok", "memo": "", "commands": "1D20 label"}}
    for field in ("name", "memo", "commands"):
        broken = {"kind": "character", "data": {**piece["data"], field: f"x{bad}"}}
        with pytest.raises(ValueError, match=re.escape(named)):
            udonarium.data_xml(broken, "RulesLib_WIS6")
    assert "<character" in udonarium.data_xml(piece, "RulesLib_WIS6")


def test_a_brace_in_the_palette_is_refused():
    piece = {"kind": "character", "data": {"name": "ok", "commands": "1D20 {HP} left"}}
    with pytest.raises(ValueError, match="Udonarium reads as a variable"):
        udonarium.data_xml(piece, "RulesLib_WIS6")


def test_udonarium_needs_an_output_file(capsys):
    assert main(["sheet", "--system", "wis6", "raider", "--format", "udonarium"]) == 2
    assert "--output" in capsys.readouterr().err


def test_an_output_that_cannot_be_written_is_one_line(tmp_path, capsys):
    assert main(["sheet", "--system", "wis6", "raider", "--format", "udonarium", "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "could not be written" in err and err.count("\n") == 1
