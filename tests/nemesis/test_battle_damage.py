"""What a hit does in the Nemesis battle (rules_lib/nemesis/battle_damage.py): the part roll, and the lines
a destroyed part adds (002 §7-1)."""

from dataclasses import replace

import pytest

from rules_lib.nemesis import (
    ArmourCheck,
    ChooseOrder,
    Damage,
    EndAction,
    IllegalStep,
    Melee,
    OpenMelee,
    RollActionDice,
    Shoot,
    UnitState,
    apply_damage,
    new_battle,
    step,
)
from rules_lib.nemesis.battle_damage import _to_part


@pytest.mark.parametrize("part_damage", ["overflow", "whole"])
def test_the_part_roll_is_asked_for_exactly_when_apply_damage_sends_damage_to_a_part(part_damage):
    """002 §7-1, lines 301-305: at 0 structure the amount below 0 (or, read literally, the whole damage)
    goes to a part rolled on 1D20; the battle rolls that 1D20 only then."""
    fresh = UnitState(20, {"head": 5, "torso": 10, "right_arm": 5, "left_arm": 5, "right_leg": 5, "left_leg": 5})
    for structure in range(0, 5):
        for damage in range(0, 8):
            state = replace(fresh, structure=structure)
            reaches = apply_damage(state, damage, location_roll=10, part_damage=part_damage).part_damage
            assert _to_part(structure, damage, part_damage) == reaches, (structure, damage)


def _at_zero_structure(location):
    """A's rifle hits B, whose structure is already 0: the damage 3D6+2 = 20 goes to the part rolled."""
    state = step(new_battle(), RollActionDice(dice=(4, 3, 1, 2, 2, 1))).state
    state = step(state, ChooseOrder("A")).state
    b = state.unit("B")
    state = replace(state, units=(state.units[0], replace(b, condition=UnitState(0, b.condition.parts))))
    state = step(state, Shoot("A", "assault_rifle", 4)).state
    state = step(state, ArmourCheck(dice=(19,))).state
    return step(state, Damage(dice=(6, 6, 6, location)))


def test_the_hit_location_is_a_1d20_and_a_destroyed_part_says_what_it_does():
    """002 §7-1, lines 305-323: 1D20 for the part, 20 is the head; a destroyed head makes every
    interrupt action cost 1 more."""
    result = _at_zero_structure(20)
    assert result.state.unit("B").destroyed == ("head",)
    assert "SS-01 B: head destroyed: every interrupt action costs 1 more active value" in result.explanation
    with pytest.raises(IllegalStep, match="it is a d20"):
        _at_zero_structure(21)


def test_both_torsos_destroyed_in_a_mutual_duel_is_a_draw():
    """002 §7-2, line 345: the battle ends when a unit is destroyed; a mutual hit (相打ち, §6-2) that
    destroys both torsos leaves no winner."""
    state = new_battle()
    for action in (RollActionDice(dice=(2, 2, 2, 2, 2, 2, 5, 3)), OpenMelee("B"), EndAction("A"), Melee("B")):
        state = step(state, action).state
    frail = [replace(u, condition=UnitState(0, {**u.condition.parts, "torso": 1})) for u in state.units]
    state = replace(state, units=tuple(frail))
    for action in (ArmourCheck(dice=(10,)), Damage(dice=(1, 10)), ArmourCheck(dice=(10,))):
        state = step(state, action).state
    assert state.phase != "over"
    over = step(state, Damage(dice=(1, 10))).state
    assert over.phase == "over" and over.winner is None and over.end_reason == "both units are destroyed"
