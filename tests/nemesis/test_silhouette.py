import pytest

from rules_lib.dice import DiceSyntaxError
from rules_lib.nemesis import (
    Grip,
    load_silhouette,
    parse_ability,
    parse_proper_range,
    silhouette_from_dict,
    weapon_from_dict,
)
from rules_lib.nemesis.silhouette import grip_defaults


def test_ss01_sheet_is_loaded_verbatim():
    unit = load_silhouette("SS-01")
    assert (unit.armour, unit.attenuation, unit.structure, unit.active) == (6, 0, 20, 2)
    assert (unit.agility, unit.mobility, unit.stealth, unit.output, unit.stability, unit.sensors) == (1, 1, 0, 2, 2, 2)
    assert unit.control is None and unit.weight is None and unit.load is None
    assert unit.part_durability == {"head": 5, "torso": 10, "right_arm": 5, "left_arm": 5, "right_leg": 5, "left_leg": 5}
    rifle, bayonet = unit.weapon("assault_rifle"), unit.weapon("銃剣")
    assert rifle.attack == "1D20＋1" and rifle.damage == "3D6＋2" and rifle.attacks == 30
    assert rifle.proper_range.faces == (3, 4) and rifle.proper_range.extended == (5,)
    assert rifle.ability("interception").value == 1 and not rifle.is_melee
    assert bayonet.is_melee and bayonet.range == 1 and bayonet.has("no_swap")
    sheet = unit.as_sheet()
    assert sheet["weapons"]["bayonet"] == {"name": "銃剣", "attack": "1D20＋1", "damage": "1D10＋10",
                                           "range": 1, "abilities": ["持替不要"]}
    assert unit.sheet_lines()[0] == "◆SS-01 ソルジャー1"
    assert unit.derived_stability() is None and unit.evasion_value() is None and unit.evasion_value(1) == 0


def test_unknown_model_is_a_clear_error():
    with pytest.raises(ValueError, match="no unit sheet for model 'SS-99': known are SS-01"):
        load_silhouette("SS-99")


@pytest.mark.parametrize("text, faces, extended", [
    ("34(5)", (3, 4), (5,)), ("3", (3,), ()), ("1", (1,), ()), ("56", (5, 6), ()), ("３４（５）", (3, 4), (5,)), (6, (6,), ()),
])
def test_proper_ranges_parse(text, faces, extended):
    parsed = parse_proper_range(text)
    assert (parsed.faces, parsed.extended) == (faces, extended)


@pytest.mark.parametrize("text, message", [
    ("7x", "proper range '7x': 'x' is not a die face"),
    ("7", "face 7 is not on a d6"),
    ("0", "face 0 is not on a d6"),
    ("33", "face 3 is written twice"),
    ("3(3)", "face 3 is written twice"),
    ("", "is not written as die faces"),
    ("(5)", "is not written as die faces"),
    ("34()", "empty brackets"),
    ("3(4", "is not written as die faces"),
])
def test_bad_proper_ranges_are_clear_errors(text, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_proper_range(text)


def test_abilities_parse_and_unknown_ones_fail():
    assert parse_ability("迎撃1").value == 1 and parse_ability("interception 2").text == "迎撃2"
    assert parse_ability("格闘", "unit").key == "melee"
    with pytest.raises(ValueError, match="unknown ability 'ビーム': known are 迎撃"):
        parse_ability("ビーム")
    with pytest.raises(ValueError, match="needs a value"):
        parse_ability("迎撃")
    with pytest.raises(ValueError, match="takes no value"):
        parse_ability("持替不要2")
    with pytest.raises(ValueError, match="is a unit ability, not a weapon ability"):
        parse_ability("飛行", "weapon")


def test_bad_weapons_and_units_are_clear_errors():
    with pytest.raises(ValueError, match="exactly one of a proper range"):
        weapon_from_dict({"name": "x", "attack": "1D20", "damage": "1D6"})
    with pytest.raises(DiceSyntaxError):
        weapon_from_dict({"name": "x", "attack": "1D", "damage": "1D6", "range": 1})
    with pytest.raises(ValueError, match="unknown ability"):
        weapon_from_dict({"name": "x", "attack": "1D20", "damage": "1D6", "range": 1, "abilities": ["謎"]})
    base = {"model": "X", "name": "x", "parameters": {"armour": 1}, "part_durability": {"torso": 3}, "body": "vehicle"}
    assert silhouette_from_dict(base).part_durability == {"torso": 3}
    with pytest.raises(ValueError, match="parameter armour -1 is below 0: allowed are 0 or more"):
        silhouette_from_dict({**base, "parameters": {"armour": -1}})
    with pytest.raises(ValueError, match="unknown parameter 'speed'"):
        silhouette_from_dict({**base, "parameters": {"speed": 1}})
    with pytest.raises(ValueError, match="a humanoid has the parts head, torso"):
        silhouette_from_dict({**base, "body": "humanoid"})


def test_grip_defaults():
    single = grip_defaults(ranged_weapons=1, melee_weapons=1)
    assert single.grip is Grip.TWO_HANDED and single.grip.label == "両手持ち" and single.equipped_label == "射撃武器"
    assert grip_defaults(2, both_arms_armed=True).grip.label == "片手持ち"
    assert grip_defaults(2).grip is None
    assert grip_defaults(1, melee_weapons=1, declared="melee").equipped == "melee"
    with pytest.raises(ValueError, match="ranged_weapons -1"):
        grip_defaults(-1)


def test_a_weapon_s_faces_and_a_unit_s_abilities():
    """002 §1-1, line 167: a melee weapon is used on its range's face (射程 1: a die showing 1); a ranged
    weapon on its proper faces. §H2: a unit has only the abilities its sheet lists (SS-01: 無し)."""
    unit = load_silhouette()
    assert unit.weapon("bayonet").faces == (1,) and unit.weapon("assault_rifle").faces == (3, 4)
    assert not unit.has("flight")
    flyer = silhouette_from_dict({"model": "X", "name": "x", "parameters": {}, "part_durability": {"torso": 1},
                                  "body": "aircraft", "abilities": ["飛行", "ステルス"]})
    assert flyer.has("flight") and flyer.has("stealth") and not flyer.has("melee")
    with pytest.raises(ValueError, match="unknown ability 'wings'"):
        flyer.has("wings")
