"""Boundaries of attack.py's input checks, its engine limit and the words of its illustrative rule.

Each test sits at a boundary (the value just refused and the value just accepted), so a guard
moved by one or dropped fails here (issue 31: survivors of ``tools/mutation.py``).
"""

import pytest

from rules_lib.verse_world import (
    MAX_DAMAGE_ROLLS,
    CriticalRule,
    attack_roll,
    damage_expression,
    damage_taken,
    fumble_check,
)
from rules_lib.verse_world.attack import FumbleCheck

NONE = CriticalRule.none()


def test_a_die_is_one_to_six():
    assert attack_roll(0, [1, 6], criticals=NONE).total == 7
    with pytest.raises(ValueError, match=r"attack die 0 is below 1: allowed are 1 to 6"):
        attack_roll(0, [0, 3], criticals=NONE)
    with pytest.raises(ValueError, match=r"attack die 7 is above 6: allowed are 1 to 6"):
        attack_roll(0, [7, 3], criticals=NONE)


def test_damage_rolls_stop_at_the_engine_limit():
    assert MAX_DAMAGE_ROLLS == 20  # not in the source text: an engine limit
    assert damage_expression("1D6", rolls=20) == "+".join(["1D6"] * 20)
    with pytest.raises(ValueError, match=r"damage rolls 21 is above 20: allowed are 1 to 20"):
        damage_expression("1D6", rolls=21)


def test_a_pair_cannot_be_both_critical_and_over_critical():
    with pytest.raises(ValueError, match=r"dice \[\(6, 6\)\] are both critical and over-critical"):
        CriticalRule("both", frozenset({(6, 6)}), frozenset({(6, 6)}))
    assert CriticalRule("apart", frozenset({(5, 6)}), frozenset({(6, 6)})).kind((6, 5)) == "critical"


def test_natural_total_rules_and_their_names():
    rule = CriticalRule.natural_total(10)
    assert rule.critical == {(4, 6), (5, 5), (5, 6), (6, 6)} and rule.over_critical == frozenset()
    assert rule.name == "natural 2D6 >= 10 critical (not in the source text)"
    assert CriticalRule.natural_total(None, 12).name == "natural 2D6 >= 12 over-critical (not in the source text)"
    assert CriticalRule.natural_total(10, 12).name == (
        "natural 2D6 >= 10 critical, >= 12 over-critical (not in the source text)")
    assert CriticalRule.natural_total(None).name == "no criticals (not in the source text)"


def test_direct_hit_damage_never_goes_below_zero():
    # ruling "Fumbles on both sides; damage below zero": HP lost is never negative, with a
    # negative damage bonus too (1D6-3 rolling 1 is -2, so 0 off HP)
    damage = damage_taken("1D6", [1], physical_bonus=-3, direct_hit=True)
    assert (damage.rolled, damage.taken) == (-2, 0)
    assert damage_taken("1D6", [4], physical_bonus=-3, direct_hit=True).taken == 1


@pytest.mark.parametrize(("difficulty", "outside"), [(8, True), (9, False), (16, False), (17, True)])
def test_fumble_difficulty_outside_the_guidance_is_noted(difficulty, outside):
    steps = fumble_check(3, difficulty, [3, 4]).steps
    note = f"difficulty {difficulty}: outside the text's 9-16, set by the GM (line 43)"
    assert (note in steps) is outside


def test_a_fumble_check_made_by_hand_has_not_fumbled_by_default():
    assert FumbleCheck("luck", False, 9, 10, True, "nothing", steps=()).fumbled is False
