"""Unit sheets of the four systems: sample data, validation, export (CCFOLIA, palette, TOML) and import."""

from __future__ import annotations

import json
import tomllib

import pytest

from rules_lib import sheets
from rules_lib.cli import main
from rules_lib.geometry.hex import Hex
from rules_lib.geometry.square import Facing, Pose, Square
from rules_lib.sheets import ccfolia, gundam_sentinel, nemesis, verse_world, wis6
from rules_lib.verse_world import CriticalRule
from rules_lib.verse_world import new_battle as vw_new_battle

SAMPLES = [(system, sheet_id) for system in sheets.SYSTEMS for sheet_id in sheets.load(system)]
# every palette line rolls whole with the CLI and the site's roller: test_palette_rolls.py


def test_every_system_has_sample_sheets():
    assert {system for system, _ in SAMPLES} == set(sheets.SYSTEMS)


@pytest.mark.parametrize("system", sheets.SYSTEMS)
def test_list_prints_one_sheet_per_line_id_first(system, capsys):
    assert main(["sheet", "--system", system, "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == list(sheets.load(system))


@pytest.mark.parametrize("system, sheet_id", SAMPLES)
def test_ccfolia_json_is_the_documented_character(system, sheet_id, capsys):
    assert main(["sheet", "--system", system, sheet_id, "--format", "ccfolia"]) == 0
    data = json.loads(capsys.readouterr().out)
    ccfolia.check_character(data)
    piece = data["data"]
    assert data["kind"] == "character" and piece["name"]
    assert isinstance(piece["initiative"], int) and piece["memo"]
    assert piece["status"] and all(0 <= bar["value"] <= bar["max"] for bar in piece["status"])
    assert piece["params"] and piece["commands"].splitlines() == sheets.export(
        sheets.get(system, sheet_id), "palette").splitlines()


@pytest.mark.parametrize("system, sheet_id", SAMPLES)
def test_toml_round_trip(system, sheet_id, tmp_path, capsys):
    sheet = sheets.get(system, sheet_id)
    text = sheets.export(sheet, "toml")
    assert sheets.from_toml(text) == sheet
    # the sample checks hold for the export too: every value keeps its source
    assert sheets.module(system).from_dict(tomllib.loads(text), sample=True) == sheet
    path = tmp_path / "sheet.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["sheet", "--system", system, "--file", str(path), "--format", "toml"]) == 0
    assert capsys.readouterr().out == text + "\n"


def test_battle_sample_units_are_the_sheets():
    from rules_lib.gundam_sentinel.battle import sample_units as gundam_units
    from rules_lib.nemesis.battle import new_battle as nemesis_battle
    from rules_lib.verse_world.battle import sample_units as verse_units
    from rules_lib.wis6.battle import sample_units as wis6_units

    zaku, gm = gundam_units()
    g = gundam_sentinel.load_sheets()
    assert g["zaku-ii"].to_unit(zaku.position, zaku.facing) == zaku
    assert g["nouvelle-gm-iii"].to_unit(gm.position, gm.facing) == gm
    asuka, raider = wis6_units()
    w = wis6.load_sheets()
    assert (w["asuka-kestrel"].to_unit(asuka.square), w["raider"].to_unit(raider.square)) == (asuka, raider)
    lance, bandit = verse_units()
    v = verse_world.load_sheets()
    assert (v["lance"].to_unit(lance.pose), v["bandit"].to_unit(bandit.pose)) == (lance, bandit)
    assert all(u.sheet == nemesis.load_sheets()["ss-01"].silhouette for u in nemesis_battle().units)


# -- validation ----------------------------------------------------------------------------


def _data(system, sheet_id):
    return tomllib.loads(sheets.export(sheets.get(system, sheet_id), "toml"))


@pytest.mark.parametrize("mobility, message", [
    ("3/−/4", "four entries"), ("3/x/4/−", "neither a whole number nor a dash"), (34, "mobility 34 is not a text"),
])
def test_gundam_mobility_is_checked(mobility, message):
    data = _data("gundam-sentinel", "zaku-ii") | {"mobility": mobility}
    with pytest.raises(ValueError, match=message):
        gundam_sentinel.from_dict(data)


def test_gundam_unknown_mobility_entry_is_refused_when_used():
    sheet = gundam_sentinel.load_sheets()["nouvelle-gm-iii"]
    assert sheet.hexes("space") == 4
    with pytest.raises(ValueError, match="not in the source text"):
        sheet.hexes("land")


def test_gundam_hit_locations_cover_each_total_once_with_rows_above_6_allowed():
    data = _data("gundam-sentinel", "zaku-ii")
    # the mission level and skills are added to the 1D6 (000 §6, line 321): a sheet may have rows above 6
    data["hit_locations"][-1]["rolls"] = [6, 7, 8]
    sheet = gundam_sentinel.from_dict(data)
    assert sheet.hit_locations[-1].rolls == (6, 7, 8)
    unit = sheet.to_unit(Hex(0, 0), 0)
    assert unit.location(5, mission_level=2).name == "head" and unit.location(4, mission_level=2).name == "head"
    assert unit.location(6, mission_level=3).name == "head"  # 9 is above the last row: reads it (ruling)
    for rolls in ([6, 8], [7], []):  # a gap, a missing 6, no row
        data["hit_locations"][-1]["rolls"] = rolls
        with pytest.raises(ValueError, match="each of 1 to 6, and any above .* exactly once and without a gap"):
            gundam_sentinel.from_dict(data)
    data = _data("gundam-sentinel", "zaku-ii")
    data["hit_locations"] = data["hit_locations"][:-1]
    with pytest.raises(ValueError, match="cover the totals \\[1, 2, 3, 4, 5\\]"):
        gundam_sentinel.from_dict(data)


def test_gundam_range_modifiers_take_full_width_signs_and_any_dash():
    data = _data("gundam-sentinel", "zaku-ii")
    data["weapons"][0]["range_modifiers"] |= {"long": "－2", "mid": "＋4", "extreme": "－"}
    weapon = gundam_sentinel.from_dict(data).weapons[0]
    assert dict(weapon.range_modifiers) == {"close": 6, "mid": 4, "long": -2, "extreme": None}
    data["weapons"][0]["range_modifiers"]["long"] = "－x"
    with pytest.raises(ValueError, match="long modifier '－x' is neither a whole number nor a dash"):
        gundam_sentinel.from_dict(data)


def test_gundam_launcher_records_the_text_s_lower_bound_and_the_sheet_s_capacity():
    weapon = gundam_sentinel.load_sheets()["nouvelle-gm-iii"].weapons[0]
    assert (weapon.salvo_at_least, weapon.capacity, weapon.ammo) == (15, 15, 15)
    assert "salvo_at_least 15: 000 §7-1, line 350" in weapon.source and "capacity 15 not in the source text" in weapon.source
    data = _data("gundam-sentinel", "nouvelle-gm-iii")
    data["weapons"][0]["capacity"] = 12
    with pytest.raises(ValueError, match="capacity 12 is below the 15 the text shows it fires at once"):
        gundam_sentinel.from_dict(data)
    del data["weapons"][0]["capacity"]  # no capacity: no cap but the missiles aboard
    assert gundam_sentinel.from_dict(data).weapons[0].capacity is None


def test_wis6_growth_within_the_points_banked():
    data = _data("wis6", "raider")
    del data["sources"]
    with pytest.raises(ValueError, match="spends 3 AC growth points but only 2 are banked"):
        wis6.from_dict(data | {"ac_points": 2, "growth": {"armour": 1}})
    grown = wis6.from_dict(data | {"ac_points": 3, "pilot_points": 2, "growth": {"armour": 1, "abilities": {"reaction": 2}}})
    assert grown.grown().sheet.armour == 4 and grown.grown().sheet.abilities["reaction"] == 15
    with pytest.raises(ValueError, match="unknown field"):
        wis6.from_dict(data | {"growth": {"armor": 1}})


def test_wis6_abilities_and_weapons_are_checked():
    data = _data("wis6", "raider")
    with pytest.raises(ValueError, match="reaction .* 0 is too low"):
        wis6.from_dict(data | {"reaction": 0})
    data["weapons"][0]["kind"] = "laser"
    with pytest.raises(ValueError, match="weapon kind 'laser'"):
        wis6.from_dict(data)


def test_nemesis_parts_and_weapons_as_the_data_sheet_lists_them():
    data = _data("nemesis", "ss-01")
    parts = dict(data["part_durability"])
    del parts["head"]
    with pytest.raises(ValueError, match="a humanoid has the parts"):
        nemesis.from_dict(data | {"part_durability": parts})
    data["weapons"][0]["proper_range"] = "37"
    with pytest.raises(ValueError, match="face 7 is not on a d6"):
        nemesis.from_dict(data)


def test_verse_world_locomotion_modes():
    data = _data("verse-world", "lance")
    assert verse_world.from_dict(data | {"modes": ["walk", "hover"]}).unit.modes == ("walk", "hover")
    with pytest.raises(ValueError, match="jetpack"):
        verse_world.from_dict(data | {"modes": ["walk", "jetpack"]})
    with pytest.raises(ValueError, match="must include 'walk'"):
        verse_world.from_dict(data | {"modes": ["thruster"]})


def test_verse_world_sheets_take_every_ranged_class_and_a_damage_constant():
    data = _data("verse-world", "bandit")
    data["weapons"][0]["damage"] = "２Ｄ６＋１"
    data["weapons"] += [
        {"name": "crossbow", "japanese": "弩弓", "kind": "ranged", "damage": "3D6", "ranged_class": "crossbow"},
        {"name": "bow", "japanese": "弓", "kind": "ranged", "damage": "2D6－1", "ranged_class": "bow"},
        {"name": "sling", "japanese": "スリング", "kind": "ranged", "damage": "1D6", "ranged_class": "sling",
         "assumed_bonus": False},
        {"name": "dagger", "japanese": "投げ短剣", "kind": "ranged", "damage": "1D6", "ranged_class": "thrown",
         "assumed_bonus": True},
        {"name": "old gun", "japanese": "先込め銃", "kind": "ranged", "damage": "2D6", "ranged_class": "muzzle-loader"},
    ]
    sheet = verse_world.from_dict(data)
    weapons = {w.name: w for w in sheet.unit.weapons}
    assert weapons["heavy axe"].damage == "2D6+1" and weapons["bow"].damage == "2D6-1"
    assert [weapons[n].bonus_applies for n in ("crossbow", "bow", "sling", "dagger", "old gun")] == [True, True, False, True, False]
    assert sheet.damage(weapons["heavy axe"], rolls=2) == "2D6+2D6+1+2"  # a critical rolls the dice, the +1 once
    assert sheets.from_toml(sheets.export(sheet, "toml"), "verse-world") == sheet
    entries = {w["name"]: w for w in data["weapons"]}
    for bad, message in ((dict(entries["sling"], assumed_bonus=None), "not in the source text"),
                         (dict(entries["crossbow"], magazine=2), "only a magic gun has a magazine"),
                         (dict(entries["crossbow"], assumed_bonus=True), "only for slings and thrown weapons"),
                         (dict(entries["heavy axe"], damage="2D8"), "dice of six sides with an optional constant")):
        entry = {k: v for k, v in bad.items() if v is not None}
        with pytest.raises(ValueError, match=message):
            verse_world.from_dict(data | {"weapons": [entry]})
    lance = verse_world.load_sheets()["lance"].to_unit(Pose(Square(2, 8), Facing.NORTH))
    with pytest.raises(ValueError, match="crossbow is a crossbow: the first battle plays magic guns only"):
        vw_new_battle(criticals=CriticalRule.none(), units=(lance, sheet.to_unit(Pose(Square(2, 1), Facing.SOUTH))))


def test_sample_sheets_need_a_source_for_every_value():
    data = _data("verse-world", "lance")
    del data["sources"]["luck"]
    with pytest.raises(ValueError, match="no source for luck"):
        verse_world.from_dict(data, sample=True)
    verse_world.from_dict({k: v for k, v in data.items() if k != "sources"})  # a player's sheet needs none


def test_bad_cli_input_exits_2(capsys):
    assert main(["sheet", "--system", "wis6", "nope"]) == 2
    assert "the sheets are asuka-kestrel, raider" in capsys.readouterr().err
    assert main(["sheet", "--system", "wis6"]) == 2
    assert main(["sheet", "--system", "gundam-sentinel", "zaku-ii", "--format", "palette", "--target", "47"]) == 2
    assert "not on the 1D36 scale" in capsys.readouterr().err


def test_from_toml_errors():
    with pytest.raises(ValueError, match="not valid TOML"):
        sheets.from_toml("id = ")
    with pytest.raises(ValueError, match="does not say its system"):
        sheets.from_toml('id = "x"')


def _damaged(data):
    """Every sample sheet with one field removed or given a value of the wrong kind."""
    wrong = ("x", -1, [], {}, 1.5, True)
    for key in list(data):
        yield f"without {key}", {k: v for k, v in data.items() if k != key}
        for value in wrong:
            yield f"{key} = {value!r}", data | {key: value}
    for table in ("weapons", "hit_locations"):
        for key in list(data.get(table, [{}])[0]):
            first = data[table][0]
            yield f"{table}[0] without {key}", data | {table: [{k: v for k, v in first.items() if k != key}]}
            for value in wrong:
                yield f"{table}[0].{key} = {value!r}", data | {table: [first | {key: value}]}


@pytest.mark.parametrize("system, sheet_id", SAMPLES)
def test_a_damaged_sheet_is_refused_with_a_value_error(system, sheet_id):
    data = _data(system, sheet_id)
    for label, damaged in _damaged(data):
        try:
            sheets.module(system).from_dict(damaged)
        except ValueError:
            continue
        except Exception as error:  # noqa: BLE001 - the point: nothing but a ValueError escapes
            pytest.fail(f"{system} {sheet_id}, {label}: {type(error).__name__}: {error}")
