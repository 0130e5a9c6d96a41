"""The Nemesis battle's pieces (rules_lib/nemesis/battle_state.py): units, hits, sides and the actions'
defaults (002 §1-1, §H3, §7-1)."""

from dataclasses import replace

import pytest

from rules_lib.nemesis import (
    Approach,
    ArmourCheck,
    ChooseOrder,
    Damage,
    EndAction,
    IllegalStep,
    ResponseAction,
    RollActionDice,
    Shoot,
    UnitState,
    load_silhouette,
    new_battle,
    step,
)
from rules_lib.nemesis.battle_state import Hit, make_unit


def run(state, *actions):
    for action in actions:
        state = step(state, action).state
    return state


def test_a_fresh_unit_has_neither_approached_nor_fought_a_duel():
    unit = make_unit("A", load_silhouette())
    assert not unit.approached and not unit.dueled


def test_a_sheet_with_two_ranged_weapons_has_no_default_grip():
    """002 §H3, lines 133-137: the text gives a default grip for one ranged weapon only."""
    sheet = load_silhouette()
    rifle = sheet.weapon("assault_rifle")
    two_guns = replace(sheet, weapons=(rifle, replace(rifle, key="second_rifle", name="second rifle")))
    with pytest.raises(ValueError, match="2 ranged weapons: the text gives no default grip"):
        make_unit("A", two_guns)


def test_a_side_is_a_or_b():
    with pytest.raises(IllegalStep, match="side 'C' is not A or B"):
        new_battle().unit("C")


def test_action_dice_are_d6():
    """002 §1-1, line 151: the action roll is 3D6; a 7 is no face of it."""
    with pytest.raises(IllegalStep, match="die 1 was given as 7, but it is a d6: allowed are 1 to 6"):
        step(new_battle(), RollActionDice(dice=(7, 3, 1, 5, 5, 1)))


def test_choose_order_goes_first_unless_told_otherwise():
    rolled = step(new_battle(), RollActionDice(dice=(4, 3, 1, 5, 5, 1))).state
    assert step(rolled, ChooseOrder("B")).state.first == "B"


def test_an_approach_spends_no_active_value_unless_told():
    """002 §5-1, lines 243-245: the approacher rolls its mobility in dice, one more per active value spent."""
    state = run(new_battle(), RollActionDice(dice=(4, 3, 1, 5, 5, 1)), ChooseOrder("B", go_first=False),
                Shoot("A", "assault_rifle", 4), ArmourCheck(dice=(12,)), Damage(dice=(4, 5, 3)), EndAction("A"))
    approached = step(state, Approach("B", dice=(6, 1, 1, 1, 1))).state  # 1 die (mobility 1) against 4
    assert approached.unit("B").active == 2 and approached.phase == "armour"


def test_a_hit_is_melee_unless_it_is_a_shot():
    """002 §5-2, line 253, §4-1, line 217: approach and duel hits are melee (no attenuation), shots are not."""
    assert not Hit("A", "assault_rifle", "shooting").melee
    assert Hit("A", "bayonet", "approach").melee and Hit("A", "bayonet", "duel").melee


def test_a_destroyed_head_is_known_to_the_unit():
    unit = make_unit("A", load_silhouette())
    assert not unit.head_destroyed
    hurt = replace(unit, condition=UnitState(0, {**unit.condition.parts, "head": 0}, ("head",)))
    assert hurt.head_destroyed


def test_spent_dice_are_the_rolled_ones_no_longer_in_hand():
    state = run(new_battle(), RollActionDice(dice=(5, 5, 1, 4, 3, 1)), ChooseOrder("A"), ResponseAction("A", (5, 1)))
    a = state.unit("A")
    assert a.dice == (5,) and a.spent == (5, 1)
    assert state.unit("B").spent == ()


def test_a_weapon_of_both_destroyed_arms_names_the_right_arm_first():
    unit = make_unit("A", load_silhouette())
    parts = {**unit.condition.parts, "right_arm": 0, "left_arm": 0}
    hurt = replace(unit, condition=UnitState(0, parts, ("left_arm", "right_arm")))
    assert "right arm is destroyed" in hurt.unusable_reason(unit.sheet.weapon("assault_rifle"))
    assert unit.unusable_reason(unit.sheet.weapon("assault_rifle")) is None
