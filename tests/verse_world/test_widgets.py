"""Verse World calculators: set inputs, check the shown result against the library."""

from fractions import Fraction

from rules_lib.dice import percent
from rules_lib.geometry.square import Facing, Pose, Square
from rules_lib.verse_world import CriticalRule, attack_odds, endurance, plan_charge, plan_move
from rules_lib.widgets.verse_world import AttackCalculator, ChargePlanner, MovementPlanner, MpEndurance


def test_attack_calculator_matches_the_library():
    calc = AttackCalculator(to_hit=5, evasion=5, weapon_damage="1D6", physical_bonus=1, protection=2)
    calc.attack_modifier.value = -4  # a charge
    calc.evasion_modifier.value = 5  # full defence
    calc.critical_at.value = 12
    expected = attack_odds(1, 10, criticals=CriticalRule.natural_total(12), weapon_damage="1D6",
                           physical_bonus=1, protection=2)
    assert calc.odds == expected
    assert f"hit {expected.hit} ({percent(expected.hit)})" in calc.result.value
    assert "not in the source text" in calc.result.value
    calc.waive.value = True
    assert calc.odds.hit == Fraction(35, 36)


def test_attack_calculator_shows_errors_in_place():
    calc = AttackCalculator()
    calc.weapon.value = "3D6+"
    assert calc.odds is None and "calculator-error" in calc.result.value
    calc.weapon.value = "2D6"
    assert calc.error is None


def test_charge_planner():
    calc = ChargePlanner(points=45, mode="thruster")
    assert calc.plan == plan_charge(45, mode="thruster")
    assert "12 squares: charge: attack -4, 2 extra damage roll(s)" in calc.result.value
    calc.mode.value = "walk"
    assert "5 squares: charge: attack -4, 1 extra damage roll(s)" in calc.result.value
    calc.squares.value = 9
    assert calc.plan is None and "cost more" in calc.result.value


def test_movement_planner():
    calc = MovementPlanner(points=20, mode="walk", scale="mecha", size=9)
    expected = plan_move(20, scale="mecha", start=Pose(Square(4, 4), Facing.NORTH), bounds=(9, 9))
    assert calc.plan.squares() == expected.squares()
    assert f"<b>{len(expected.squares())} squares reachable</b>" in calc.result.value
    assert "<svg" in calc.result.value
    calc.mode.value = "thruster"
    calc.scale.value = "character"
    assert "mecha special action" in calc.result.value


def test_mp_endurance():
    calc = MpEndurance(mp=6)
    result = endurance(6)
    assert calc.endurance == result
    assert f"exactly {result.mean()}" in calc.result.value
    calc.drain.value = "2"
    assert dict(calc.endurance.turns.items()) == {3: 1}
