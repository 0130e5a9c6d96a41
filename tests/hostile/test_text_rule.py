"""The sheets' one text rule (issue 33, item 1): line breaks, control characters and bidirectional
controls are refused in every field of every system that reaches a palette, a chat line, a terminal
or a page, with the field and the character named."""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata

import pytest

from rules_lib import sheets
from rules_lib.sheets import ccfolia
from rules_lib.sheets.palette import PaletteLine
from rules_lib.sheets.text import BIDI_CONTROLS, LINE_BREAKS, check_line, check_lines, kind_of

#: one of each kind the rule refuses, by the name a test id shows
REFUSED = {"CR": "\r", "LF": "\n", "VT": "\v", "FF": "\f", "FS": "\x1c", "GS": "\x1d", "RS": "\x1e", "NEL": "\x85",
           "LS": "\u2028", "PS": "\u2029", "NUL": "\x00", "BEL": "\x07", "ESC": "\x1b", "TAB": "\t", "DEL": "\x7f",
           "CSI": "\x9b", "RLO": "\u202e", "LRE": "\u202a", "RLI": "\u2067", "PDI": "\u2069", "LRM": "\u200e",
           "RLM": "\u200f", "ALM": "\u061c"}
#: a field of each system's sample sheet that reaches its palette or CCFOLIA piece, and how its
#: refusal names it
FIELDS = {
    "gundam-sentinel": ("zaku-ii", ("weapons", 0, "name"), "weapons[1].name"),
    "wis6": ("raider", ("weapons", 1, "name"), "weapons[2].name"),
    "nemesis": ("ss-01", ("weapons", 1, "name"), "weapons[2].name"),
    "verse-world": ("bandit", ("weapons", 0, "japanese"), "weapons[1].japanese"),
}


def test_the_line_breaks_are_every_character_splitlines_splits_on():
    splits = {chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF and len(f"a{chr(c)}b".splitlines()) > 1}
    assert splits == LINE_BREAKS


def test_every_control_character_line_break_and_bidi_control_is_refused():
    refused = {chr(c) for c in range(0x10000) if kind_of(chr(c)) is not None}
    controls = {chr(c) for c in range(0x10000) if unicodedata.category(chr(c)) == "Cc"}
    surrogates = {chr(c) for c in range(0xD800, 0xE000)}
    assert refused == controls | LINE_BREAKS | BIDI_CONTROLS | surrogates
    for char in refused:
        with pytest.raises(ValueError, match=f"U\\+{ord(char):04X}"):
            check_line(f"name{char}x", "name")


def test_the_texts_of_the_sheets_pass():
    for text in ("【反応】evasion", "ソルジャー1", "Ｘ－１ ＋３", "迎撃1、持替不要", "ザク II", "😀", "a\u200db", ""):
        assert check_line(text, "name") == text
    assert check_lines("line one\nline two", "memo") == "line one\nline two"
    with pytest.raises(ValueError, match="memo, line 2 holds U\\+000D"):
        check_lines("line one\nline\rtwo", "memo")


@pytest.mark.parametrize("system", list(FIELDS))
@pytest.mark.parametrize("kind", list(REFUSED))
def test_each_kind_is_refused_in_every_system_naming_the_field_and_character(system, kind):
    sheet_id, path, where = FIELDS[system]
    data = tomllib.loads(sheets.export(sheets.get(system, sheet_id), "toml"))
    *parents, last = path
    table = data
    for key in parents:
        table = table[key]
    table[last] = f"{table[last]}{REFUSED[kind]}ECHC"
    with pytest.raises(ValueError, match=rf"^{re.escape(where)} holds U\+{ord(REFUSED[kind]):04X} \("):
        sheets.module(system).from_dict(data)


def test_the_x_cr_echc_weapon_makes_no_new_palette_line():
    # issue 33: a weapon named "x\rECHC ..." turned 14 palette lines into 21, each a rollable command
    data = tomllib.loads(sheets.export(sheets.get("gundam-sentinel", "zaku-ii"), "toml"))
    data["weapons"][0].pop("japanese", None)
    data["weapons"][0]["name"] = "x\rECHC injected"
    with pytest.raises(ValueError, match=r"weapons\[1\]\.name holds U\+000D \(a line break\)"):
        sheets.module("gundam-sentinel").from_dict(data)
    # built in Python, past the loader: the palette line refuses it itself
    zaku = sheets.get("gundam-sentinel", "zaku-ii")
    weapon = zaku.weapons[0]
    injected = type(weapon)(**{**{f: getattr(weapon, f) for f in weapon.__dataclass_fields__},
                               "name": "x\rECHC", "japanese": ""})
    sheet = type(zaku)(**{**{f: getattr(zaku, f) for f in zaku.__dataclass_fields__}, "weapons": (injected,)})
    with pytest.raises(ValueError, match="U\\+000D"):
        sheets.export(sheet, "palette")
    with pytest.raises(ValueError, match="U\\+000D"):
        sheets.export(sheet, "ccfolia")


@pytest.mark.parametrize("kind", ["CR", "LS", "NEL", "ESC", "RLO"])
def test_a_palette_line_and_a_ccfolia_piece_refuse_them_too(kind):
    char = REFUSED[kind]
    with pytest.raises(ValueError, match=f"palette label of 2D6 holds U\\+{ord(char):04X}"):
        PaletteLine("2D6", f"x{char}ECHC")
    with pytest.raises(ValueError, match=f"U\\+{ord(char):04X}"):
        PaletteLine(f"2D6{char}", "x")
    good = ccfolia.character("A", memo="m", commands=["2D6 roll"])
    for key, value in (("name", f"A{char}"), ("memo", f"m{char}x"), ("commands", f"2D6 roll\nECHC{char}x")):
        with pytest.raises(ValueError, match=f"CCFOLIA {key}.* holds U\\+{ord(char):04X}"):
            ccfolia.check_character({"kind": "character", "data": good["data"] | {key: value}})
    for table in ("status", "params"):
        entry = {"label": f"HP{char}", "value": 5, "max": 5} if table == "status" else {"label": "a", "value": f"7{char}"}
        with pytest.raises(ValueError, match=f"U\\+{ord(char):04X}"):
            ccfolia.check_character({"kind": "character", "data": good["data"] | {table: [entry]}})


def test_the_sample_sheets_export_clean_text():
    for system in sheets.SYSTEMS:
        for sheet in sheets.load(system).values():
            for format in sheets.FORMATS:
                check_lines(sheets.export(sheet, format), f"{system} {format}")
            json.loads(sheets.export(sheet, "ccfolia"))
