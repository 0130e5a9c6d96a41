"""Palettes written with variables (``//label=value`` and ``{label}``): each line, sent as the table sends
it, rolls the same as the plain palette's line; the value lives in one place (a ``//`` line, a CCFOLIA
param, an Udonarium data element), and an edited value changes every line that uses it."""

from __future__ import annotations

import json
import tomllib

import pytest

from rules_lib import sheets
from rules_lib.cli import main
from rules_lib.sheets import udonarium
from rules_lib.sheets.palette import PaletteLine
from rules_lib.sheets.variables import (
    PaletteValues,
    Variable,
    ccfolia_params,
    check_references,
    half_width,
    references,
    resolve,
    resolved_lines,
    split_variables,
)
from tests.sheets.test_udonarium import _data_xml, read_piece

TARGETS = {"gundam-sentinel": 46, "nemesis": 6}
VARIANTS = [pytest.param(system, sheet_id, target, own, id=f"{system}:{sheet_id}:target={target}:own={own}")
            for system in sheets.SYSTEMS for sheet_id in sheets.load(system)
            for target in {None, TARGETS.get(system)} for own in (False, True)]


def _palettes(system: str, sheet_id: str, target, own: bool):
    sheet = sheets.get(system, sheet_id)
    options = sheets.palette_options(system, target, own)
    return sheet.palette(**options), sheet.palette(**{**options, "variables": True})


@pytest.mark.parametrize(("system", "sheet_id", "target", "own"), VARIANTS)
def test_each_line_sent_as_the_table_sends_it_is_the_plain_line(system, sheet_id, target, own, capsys):
    plain, written = _palettes(system, sheet_id, target, own)
    variables, lines = split_variables(written)
    assert variables, "every system's palette has a value a player edits"
    assert all(references(str(line)) for line in lines if str(line) != str(plain[lines.index(line)]))
    sent = resolved_lines(written)
    assert len(sent) == len(plain)
    for line, plain_line in zip(sent, plain, strict=True):
        if line.command == plain_line.command:
            continue
        # the command is written another way (BB+{射撃力}+16 for BB+17): its exact odds are the plain one's
        odds = []
        for command in (line.command, plain_line.command):
            assert main(["odds", command, "--system", system, "--json"]) == 0
            shown = json.loads(capsys.readouterr().out)
            shown.pop("expression")
            odds.append(shown)
        assert odds[0] == odds[1], (line.command, plain_line.command)


@pytest.mark.parametrize(("system", "sheet_id", "target", "own"), VARIANTS)
def test_an_edited_value_changes_every_line_that_uses_it(system, sheet_id, target, own, capsys):
    _, written = _palettes(system, sheet_id, target, own)
    variables, lines = split_variables(written)
    edited = [Variable(v.name, "3") for v in variables]  # every value edited once
    for line in lines:
        sent = PaletteLine(resolve(line.command, edited), resolve(line.label, edited))
        assert main(["roll", str(sent), "--system", system, "--seed", "7", "--json"]) == 0, capsys.readouterr().err
        rolled = json.loads(capsys.readouterr().out)
        assert rolled["comment"] == sent.label
        if references(line.command):
            assert "3" in sent.command and "{" not in str(sent)


@pytest.mark.parametrize("system", sheets.SYSTEMS)
def test_ccfolia_params_carry_every_value_the_palette_refers_to(system):
    for sheet in sheets.load(system).values():
        data = json.loads(sheets.export(sheet, "ccfolia", variables=True))["data"]
        params = {p["label"]: p["value"] for p in data["params"]}
        names = {name for line in data["commands"].split("\n") for name in references(line)}
        assert names and names <= {half_width(label) for label in params}
        assert "//" not in data["commands"]  # CCFOLIA reads no variable lines: its params hold the values
        # the palette sent with CCFOLIA's params is the plain palette's (same numbers, after the sums)
        sent = [resolve(line, params) for line in data["commands"].split("\n")]
        plain = json.loads(sheets.export(sheet, "ccfolia"))["data"]
        assert len(sent) == len(plain["commands"].split("\n"))
        # a value is shown once: no second param shows it under a longer label
        labels = [p["label"] for p in data["params"]]
        assert not [label for label in labels if " " in label and label.split(" ")[0] in names]


@pytest.mark.parametrize("system", sheets.SYSTEMS)
def test_the_udonarium_piece_holds_each_value_once_as_a_data_element(system):
    for sheet in sheets.load(system).values():
        piece = read_piece(_data_xml(udonarium.export(sheet, variables=True)))
        abilities = dict(piece["abilities"])
        names = {name for line in piece["commands"].split("\n") for name in references(line)}
        assert names and names <= {half_width(label) for label in abilities}
        assert "//" not in piece["commands"]  # the data elements are the values, edited on the character


def test_the_cli_writes_variable_lines_first_and_references_after(capsys):
    assert main(["sheet", "--system", "wis6", "raider", "--format", "palette", "--variables"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == ["//反応=13", "//実弾=14", "//ＥＮ=12"]
    assert lines[3].startswith("1D20<={反応} 【反応】evasion, reaction {反応}")
    # the plain palette is what it was: numbers, and the levels the value gives
    assert main(["sheet", "--system", "wis6", "raider", "--format", "palette"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("1D20<=13 【反応】evasion, reaction 13: Lv1 ≤13")


def test_resolve_reads_as_udonarium_does():
    table = [Variable("ＥＮ", "14"), Variable("a", "5"), Variable("x", "1")]
    assert resolve("1D20<={EN}", table) == "1D20<=14"  # full-width names read as half-width
    assert resolve("1D20<=｛ ＥＮ ｝", table) == "1D20<=14"  # full-width braces and spaces inside
    assert resolve("{x}D6+{a}", table) == "1D6+5"
    with pytest.raises(ValueError, match=r"refers to \{HP\}, which no variable"):
        resolve("2D6 {HP}", table)
    assert resolve("2D6 {HP}", table, strict=False) == "2D6 "  # what Udonarium would send


def test_a_variable_name_is_one_word_the_table_can_read():
    for bad in ("", "two words", "a=b", "{a}", "a/b"):
        with pytest.raises(ValueError, match="must be one word"):
            Variable(bad, "1")
    with pytest.raises(ValueError, match="without braces"):
        Variable("a", "{b}")
    assert str(Variable("反応", "12")) == "//反応=12"


def test_a_value_is_named_with_one_number():
    values = PaletteValues(True)
    assert values.value("反応", 12) == "{反応}" and values.signed("反応", 12) == "+{反応}"
    with pytest.raises(ValueError, match="used with two values: 12 and 13"):
        values.value("反応", 13)
    plain = PaletteValues(False)
    assert plain.value("反応", 12) == "12" and plain.signed("体力", 0) == "" and plain.signed("精神力", -1) == "-1"
    assert plain.variables == (Variable("反応", "12"), Variable("体力", "0"), Variable("精神力", "-1"))


def test_a_brace_from_a_sheets_own_text_is_refused():
    assert check_references("1D20<={反応} x", ["反応"], "line") == "1D20<={反応} x"
    with pytest.raises(ValueError, match=r"refers to \{HP\}"):
        check_references("1D20<={反応} {HP}", ["反応"], "line")
    with pytest.raises(ValueError, match="a brace that is no reference"):
        check_references("1D20<={反応} a}b", ["反応"], "line")


@pytest.mark.parametrize("name", ["{ＥＮ}", "{HP}", "a}b", "｛反応｝"])
def test_a_brace_in_a_weapon_name_cannot_become_a_reference(name):
    data = tomllib.loads(sheets.export(sheets.get("wis6", "raider"), "toml"))
    data["weapons"][0]["name"] = name
    sheet = sheets.module("wis6").from_dict(data)
    for export in (lambda: sheets.export(sheet, "palette", variables=True),
                   lambda: sheets.export(sheet, "ccfolia", variables=True),
                   lambda: udonarium.export(sheet, variables=True)):
        with pytest.raises(ValueError, match="holds a brace"):
            export()


def test_params_named_by_the_palette_replace_the_longer_labels():
    params = ccfolia_params((Variable("反応", "12"),), [("反応 reaction", 12), ("機動値 mobility", 5)])
    assert params == [("反応", "12"), ("機動値 mobility", 5)]
