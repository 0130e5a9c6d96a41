from collections import Counter
from fractions import Fraction

import pytest

from rules_lib.wis6 import (
    Wis6Error,
    Wis6Rules,
    check_ability,
    check_roll,
    highest_roll_for_level,
    level_odds,
    level_sequence,
    maximum_level,
    roll_states,
    success_roll,
)


def brute_level(roll, ability, fixed=None):
    # independent of the library: the levels by their thresholds ability // L
    if roll == 1 and fixed is not None:
        return fixed
    if roll > ability:
        return 0
    return max(level for level in (1, 2, 4, 8, 16, 32, 64, 128, 256) if roll <= ability // level)


@pytest.mark.parametrize("ability", [1, 2, 3, 5, 7, 12, 20, 21, 32, 40, 100])
def test_level_odds_match_enumeration_of_the_20_faces(ability):
    counts = Counter(brute_level(r, ability) for r in range(1, 21))
    odds = level_odds(ability)
    assert odds.levels.probabilities == {lvl: Fraction(n, 20) for lvl, n in counts.items()}
    assert odds.failure == Fraction(counts[0], 20)
    assert odds.critical == Fraction(1, 20)
    assert odds.levels.total() == 1


@pytest.mark.parametrize("ability", [1, 6, 20, 32])
def test_fixed_critical_level_moves_only_the_roll_of_one(ability):
    rules = Wis6Rules(critical_level="fixed", fixed_critical_level=32)
    counts = Counter(brute_level(r, ability, fixed=32) for r in range(1, 21))
    assert level_odds(ability, rules).levels.probabilities == {lvl: Fraction(n, 20) for lvl, n in counts.items()}
    assert level_odds(ability, rules).critical_level == 32


def test_the_texts_example_ability_32():
    assert [highest_roll_for_level(level, 32) for level in (1, 2, 4, 8, 16)] == [32, 16, 8, 4, 2]
    assert [success_roll(r, 32).level for r in (20, 16, 9, 8, 5, 4, 3, 2, 1)] == [1, 2, 2, 4, 4, 8, 8, 16, 32]


def test_thresholds_round_down_without_a_rounding_rule():
    # 20 / 8 = 2.5: a roll of 2 reaches level 8, a roll of 3 does not
    assert highest_roll_for_level(8, 20) == 2
    assert success_roll(2, 20).level == 8 and success_roll(3, 20).level == 4


def test_a_roll_of_one_is_a_critical_at_the_maximum_level():
    result = success_roll(1, 20)
    assert result.critical and result.level == 16 == maximum_level(20)
    assert not success_roll(2, 20).critical
    fixed = Wis6Rules(critical_level="fixed", fixed_critical_level=32)
    assert success_roll(1, 5, fixed).level == 32
    assert "critical" in result.steps[0]


def test_failure_above_the_ability():
    result = success_roll(13, 12)
    assert result.level == 0 and not result.succeeded
    assert "fails" in result.steps[0]


def test_level_sequence_doubles():
    assert level_sequence() == (1, 2, 4, 8, 16, 32)
    assert level_sequence(8)[-1] == 128


def test_roll_states_sum_to_one_and_keep_the_critical_apart():
    states = roll_states(20)
    assert sum(states.values()) == 1
    assert states[(16, True)] == Fraction(1, 20)
    assert (16, False) not in states


@pytest.mark.parametrize("bad", [0, -3])
def test_an_ability_of_zero_or_below_is_refused(bad):
    with pytest.raises(Wis6Error, match=f"ability {bad} is too low: an ability value is 1 or more"):
        check_ability(bad)
    with pytest.raises(ValueError, match="1 or more"):
        level_odds(bad)


@pytest.mark.parametrize("bad", [0, 21, -1])
def test_a_roll_outside_1_to_20_is_refused(bad):
    with pytest.raises(Wis6Error, match=f"roll {bad} is not on a d20: allowed are 1 to 20"):
        check_roll(bad)
    with pytest.raises(ValueError, match="allowed are 1 to 20"):
        success_roll(bad, 12)


def test_non_numbers_are_refused():
    with pytest.raises(Wis6Error, match="'abc' is not a whole number"):
        success_roll(3, "abc")
    with pytest.raises(Wis6Error, match="not a whole number"):
        success_roll(True, 12)


def test_bad_readings_are_refused():
    with pytest.raises(Wis6Error, match="fixed_critical_level 24 must be a level"):
        Wis6Rules(critical_level="fixed", fixed_critical_level=24)
    with pytest.raises(Wis6Error, match="halving 'sideways' is not one of"):
        Wis6Rules(halving="sideways")
    with pytest.raises(Wis6Error, match="used only with"):
        Wis6Rules(fixed_critical_level=32)


def test_success_roll_working_shows_the_quotient():
    # The working prints ability ÷ level: a whole number as is, a fraction as a decimal.
    assert success_roll(5, 14).steps[0].endswith("(14 ÷ 2 = 7)")
    assert success_roll(3, 14).steps[0].endswith("(14 ÷ 4 = 3.5)")


def test_critical_working_names_the_reading():
    # 001 §3-1, line 43: the working names which reading of "the maximum level" gave the critical's level.
    assert "the level a roll of 1 earns" in success_roll(1, 14).steps[1]
    fixed = Wis6Rules(critical_level="fixed", fixed_critical_level=32)
    assert "the fixed top of the scale" in success_roll(1, 14, fixed).steps[1]
