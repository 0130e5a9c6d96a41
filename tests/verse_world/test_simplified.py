"""Simplified combat on the seven-zone map (004 §3-5)."""

import pytest

from rules_lib.verse_world import (
    ZONES,
    can_melee_in_zone,
    move_zones,
    mover_key,
    simple_charge,
    simple_mode,
    simple_tackle,
    targetable_zones,
    zone_index,
    zones_per_move,
)


def test_zones_and_aliases():
    assert ZONES == ("敵陣", "E", "D", "C", "B", "A", "自陣")
    assert zone_index("Ｃエリア") == zone_index("C") == 3
    assert zone_index("own camp") == 6
    with pytest.raises(ValueError, match="not on the simplified map"):
        zone_index("F")


def test_moves():
    assert zones_per_move("on-foot", combat="character") == 1
    assert zones_per_move("steam-bike", combat="character") == 2
    assert zones_per_move("hover", combat="mecha") == 2
    assert zones_per_move("steam-bike", combat="mecha", size="human") == 1
    with pytest.raises(ValueError, match="cannot take part"):
        zones_per_move("on-foot", combat="character", size="mecha")
    assert move_zones("B", 2, towards="enemy camp", mover="hover", combat="mecha").end == "D"
    with pytest.raises(ValueError, match="forward towards the opposing camp"):
        move_zones("B", 1, towards="own camp", mover="thruster", combat="mecha")
    assert move_zones("D", 2, towards="own camp", mover="thruster", combat="mecha", side="enemy").end == "B"
    with pytest.raises(ValueError, match="at most 1"):
        move_zones("B", 2, towards="enemy camp", mover="on-foot", combat="mecha")


def test_attacks():
    assert can_melee_in_zone("C", "Ｃエリア") and not can_melee_in_zone("C", "D")
    assert targetable_zones("B", "missile", include_own=False) == ("C", "A")
    assert targetable_zones("B", "missile") == ("C", "B", "A")
    assert targetable_zones("B", "magic", include_own=False) == ("D", "C", "A", "自陣")


def test_charge_and_tackle():
    assert simple_charge("roller", 2).extra_damage_rolls == 1
    assert simple_charge("thruster", 2).extra_damage_rolls == 2
    assert simple_charge("glide-pack", 2).extra_damage_rolls == 2
    assert simple_charge("steam-bike", 2, combat="character").attack_modifier == -4
    with pytest.raises(ValueError, match="only 1 zone"):
        simple_charge("on-foot", 2)
    with pytest.raises(ValueError, match="needs 2 zones"):
        simple_charge("hover", 1)
    assert simple_tackle(1).attack_modifier == -2
    with pytest.raises(ValueError, match="at least 1 zone"):
        simple_tackle(0)


def test_simple_modes():
    assert [simple_mode(m).mecha_mp_per_turn for m in ("roller", "vernier", "hover", "thruster", "glide pack", "magic board")] == [
        "2", "1D6", "2D6", "3D6", "2D6", "1D6"]
    assert simple_mode("thruster").direction == "forward towards the enemy camp only"


SPELLINGS = ("glide pack", "glide_pack", "Glide-Pack", "GLIDE PACK", "Thruster", " thruster ")


@pytest.mark.parametrize("mover", SPELLINGS)
def test_simple_charge_gives_the_fast_modes_their_second_roll_however_they_are_spelled(mover):
    # 004 §3-5-3-1, line 210: thruster or glide pack adds one more damage roll to the charge's one
    assert simple_charge(mover, 2).extra_damage_rolls == 2
    assert mover_key(mover) in ("glide-pack", "thruster")


@pytest.mark.parametrize("mover", ["Roller", "hover", "Magic_Board", "VERNIER"])
def test_simple_charge_other_modes_one_extra_roll(mover):
    assert simple_charge(mover, 2).extra_damage_rolls == 1


@pytest.mark.parametrize("mover", ["Thruster", "THRUSTER", " thruster", "thruster"])
def test_a_thruster_never_moves_backwards_however_it_is_spelled(mover):
    # 004 §3-5-3-2, line 240: forward towards the opposing camp only
    with pytest.raises(ValueError, match="not backwards"):
        move_zones("B", 1, towards="own camp", mover=mover, combat="mecha")
    with pytest.raises(ValueError, match="not backwards"):
        move_zones("D", 1, towards="enemy camp", mover=mover, combat="mecha", side="enemy")
    assert move_zones("B", 2, towards="enemy camp", mover=mover, combat="mecha").end == "D"


@pytest.mark.parametrize(("mover", "zones"), [("Riding Animal", 2), ("steam_bike", 2), ("On Foot", 1)])
def test_character_movers_are_normalised_too(mover, zones):
    assert zones_per_move(mover, combat="character") == zones


def test_mover_key_refuses_unknown_names():
    with pytest.raises(ValueError, match="unknown"):
        mover_key("jet ski")
    with pytest.raises(ValueError, match="not a name"):
        mover_key(3)  # type: ignore[arg-type]
