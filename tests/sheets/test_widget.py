"""The live sheet builder shows what rules_lib.sheets computes, and refuses a bad sheet with its reason."""

import base64
import html
import json
import re

import pytest

from rules_lib import sheets
from rules_lib.sheets import udonarium
from rules_lib.widgets.sheets import CALCULATORS, YOUR_SHEET, SheetCalculator


def _copied(calculator, cls):
    match = re.search(rf"<pre class='{cls}'[^>]*>(.*?)</pre>", calculator.result.value, re.S)
    return html.unescape(match.group(1))


@pytest.mark.parametrize("system", sheets.SYSTEMS)
def test_each_sample_sheet_exports_as_the_library_does(system):
    calculator = SheetCalculator(system)
    for sheet_id, sheet in sheets.load(system).items():
        calculator.choice.value = sheet_id
        assert calculator.error is None and calculator.sheet == sheet
        assert _copied(calculator, "rules-lib-ccfolia-json") == sheets.export(sheet, "ccfolia")
        assert json.loads(_copied(calculator, "rules-lib-ccfolia-json"))["kind"] == "character"
        assert _copied(calculator, "rules-lib-palette") == sheets.export(sheet, "palette")
        piece = re.search(r"download='[^']*-udonarium\.zip' href='data:application/zip;base64,([^']*)'",
                          calculator.result.value)
        assert base64.b64decode(piece.group(1)) == udonarium.export(sheet)
        for label, mean in sheet.damage_rows():
            assert f"<td>{html.escape(label)}</td><td style='text-align:right;padding:0 0.6em'>{mean}</td>" in calculator.result.value
        for label, p in sheet.odds_rows():
            assert f"<td>{html.escape(label)}</td><td style='text-align:right;padding:0 0.6em'>{p}</td>" in calculator.result.value


def test_editing_the_toml_validates_it_live():
    calculator = SheetCalculator("wis6", "raider")
    calculator.choice.value = YOUR_SHEET
    calculator.toml.value = calculator.toml.value.replace("armour = 3", "armour = -1")
    assert "armour (装甲値) -1 is below 0" in calculator.error and calculator.sheet is None
    calculator.toml.value = calculator.toml.value.replace("armour = -1", "armour = 5")
    assert calculator.error is None and calculator.sheet.armour == 5
    calculator.choice.value = "raider"
    assert calculator.sheet == sheets.get("wis6", "raider")


def test_choosing_a_sample_computes_the_sheet_once(monkeypatch):
    calculator = SheetCalculator("gundam-sentinel")
    parse, parsed = sheets.from_toml, []
    monkeypatch.setattr(sheets, "from_toml", lambda *args: parsed.append(args) or parse(*args))
    other = next(sheet_id for sheet_id in calculator.samples if sheet_id != calculator.choice.value)
    calculator.choice.value = other  # fills in its TOML: one update, not one more for the filled-in text
    assert len(parsed) == 1 and calculator.sheet == sheets.get("gundam-sentinel", other)


def test_target_completes_the_gundam_hit_checks():
    calculator = SheetCalculator("gundam-sentinel", "zaku-ii", target="46")
    assert "BB+8&gt;46" in calculator.result.value
    calculator.target.value = "47"
    assert "not on the 1D36 scale" in calculator.error
    calculator.target.value = "x"
    assert "evasion 'x' is not a whole number" in calculator.error


@pytest.mark.parametrize("system", sheets.SYSTEMS)
def test_each_system_has_a_builder_the_site_can_construct_without_arguments(system):
    calculator = CALCULATORS[system]()  # how rules_lib.browser builds it
    assert calculator.system == system and calculator.error is None
    assert list(calculator.choice.options)[:-1] == list(sheets.load(system))


@pytest.mark.parametrize("char, written", [("\r", "\\r"), ("\u2028", "\u2028")], ids=["CR", "LS"])
def test_a_refused_sheet_shows_the_refusal_with_the_copy_buttons_disabled(char, written):
    # a raw CR is not valid TOML, so the escape writes it; a raw U+2028 is valid TOML
    calculator = SheetCalculator("wis6", "raider")
    calculator.choice.value = YOUR_SHEET
    calculator.toml.value = calculator.toml.value.replace('name = "heat axe"', f'name = "heat axe{written}ECHC"')
    assert calculator.sheet is None
    assert calculator.error.startswith(f"weapons[2].name holds U+{ord(char):04X} (a line break)")
    shown = calculator.result.value
    assert html.escape(calculator.error) in shown and "rules-lib-palette'>" not in shown
    buttons = re.findall(r"<button[^>]*>", shown)
    assert len(buttons) == 2 and all(" disabled" in b and "onclick" not in b for b in buttons)
