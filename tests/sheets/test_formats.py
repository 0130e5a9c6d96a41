"""The TOML writer and the CCFOLIA clipboard check, and a property: any valid WIS6 sheet round-trips."""

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_lib import sheets
from rules_lib.gundam_sentinel.commands import parse_command
from rules_lib.sheets import ccfolia
from rules_lib.sheets.palette import PaletteLine, split_line
from rules_lib.sheets.text import BIDI_CONTROLS, LINE_BREAKS
from rules_lib.sheets.toml_text import dumps


def test_toml_writer_reads_back_what_it_wrote():
    data = {"id": "x", "quoted key": "a \"b\" \\ ｃ\n", "n": -3, "ok": True, "list": [1, 2], "names": ["a", "b"],
            "table": {"inline": {"close": 6, "extreme": "―"}, "deep": {"k": 1}}, "rows": [{"a": 1}, {"a": 2, "b": [3]}]}
    assert tomllib.loads(dumps(data, "header\nline two")) == data
    assert dumps({"a": None, "b": 1}) == "b = 1\n"  # None is left out: TOML has no null


def test_toml_writer_refuses_what_toml_cannot_hold():
    with pytest.raises(ValueError, match="cannot be written"):
        dumps({"x": 1.5})
    with pytest.raises(ValueError, match="TOML key"):
        dumps({"": 1})


def test_ccfolia_check_follows_the_documented_type():
    good = ccfolia.character("A", memo="m", initiative=3, status=[("HP", 5, 10)], params=[("luck", 7)],
                             commands=["2D6 roll"])
    assert good["data"]["params"] == [{"label": "luck", "value": "7"}]
    assert ccfolia.to_json(good).startswith('{"kind": "character"')
    for bad, message in [
        ({"kind": "item", "data": {}}, "kind"),
        ({"kind": "character", "data": {"hp": 3}}, "not in the documented type"),
        ({"kind": "character", "data": {"initiative": "3"}}, "wrong type"),
        ({"kind": "character", "data": {"secret": 1}}, "wrong type"),
        ({"kind": "character", "data": {"status": [{"label": "HP", "value": "5", "max": 10}]}}, "whole-number"),
        ({"kind": "character", "data": {"params": [{"label": "a", "value": 7}]}}, "text value"),
    ]:
        with pytest.raises(ValueError, match=message):
            ccfolia.check_character(bad)


def test_palette_lines():
    assert str(PaletteLine("BB+8>46", "label")) == "BB+8>46 label"
    assert split_line("SL<=13 【反応】 evasion") == PaletteLine("SL<=13", "【反応】 evasion")
    with pytest.raises(ValueError, match="one word"):
        PaletteLine("2D6 +3", "x")


_ability = st.integers(min_value=1, max_value=40)


@settings(max_examples=40, deadline=None)
@given(reaction=_ability, ballistic=_ability, energy=_ability, information=_ability,
       mobility=st.integers(0, 12), ap=st.integers(1, 99), armour=st.integers(0, 20),
       attack=st.integers(0, 30), weapon_range=st.integers(0, 9), ammo=st.none() | st.integers(0, 20),
       name=st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc"),  # a sheet's text rule (sheets/text.py)
                                       blacklist_characters="".join(LINE_BREAKS | BIDI_CONTROLS)),
                    min_size=1, max_size=12).filter(str.strip))
def test_any_valid_wis6_sheet_round_trips(reaction, ballistic, energy, information, mobility, ap, armour, attack,
                                          weapon_range, ammo, name):
    weapon = {"name": "gun", "kind": "ballistic", "attack": attack, "range": weapon_range}
    if ammo is not None:
        weapon["ammo"] = ammo
    data = {"id": "mine", "system": "wis6", "name": name, "machine": "M", "side": "PC", "role": "pilot",
            "reaction": reaction, "ballistic": ballistic, "energy": energy, "information": information,
            "mobility": mobility, "ap": ap, "armour": armour, "weapons": [weapon]}
    sheet = sheets.module("wis6").from_dict(data)
    assert sheets.from_toml(sheets.export(sheet, "toml")) == sheet
    ccfolia.check_character(sheet.ccfolia())


_entry = st.one_of(st.integers(0, 9).map(str), st.sampled_from(["−", "-", "?"]))
_d36 = st.sampled_from([10 * t + u for t in range(1, 7) for u in range(1, 7)])


@settings(max_examples=40, deadline=None)
@given(mobility=st.lists(_entry, min_size=4, max_size=4).map("/".join), evasion=_d36,
       pilot=st.lists(st.integers(-3, 5), min_size=6, max_size=6), nt=st.integers(0, 5),
       modifiers=st.lists(st.one_of(st.integers(-5, 9), st.just("―")), min_size=4, max_size=4))
def test_any_valid_gundam_sheet_round_trips(mobility, evasion, pilot, nt, modifiers):
    data = tomllib.loads(sheets.export(sheets.get("gundam-sentinel", "zaku-ii"), "toml"))
    data.pop("sources")
    data["mobility"], data["base_evasion"] = mobility, evasion
    data["pilot"] = dict(zip(("perception", "reaction", "shooting", "piloting", "stamina", "mental"), pilot, strict=True)) | {"nt": nt}
    data["weapons"][0]["range_modifiers"] = dict(zip(("close", "mid", "long", "extreme"), modifiers, strict=True))
    sheet = sheets.module("gundam-sentinel").from_dict(data)
    assert sheets.from_toml(sheets.export(sheet, "toml")) == sheet
    for line in sheet.palette(evasion=evasion):
        if line.command.startswith(("BB", "GS")):
            parse_command(line.command)  # every hit check and GS line is a valid BCDice command
