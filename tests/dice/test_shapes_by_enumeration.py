"""The dice shapes (rules_lib.dice.shapes) against every roll, enumerated with itertools."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.dice import DiceLimitError, shapes


def _chances(outcomes) -> dict:
    counted = Counter(outcomes)
    total = sum(counted.values())
    return {o: Fraction(n, total) for o, n in counted.items()}


def test_d36_steps_count_tens_then_units_from_11():
    for step, (tens, units) in enumerate(product(range(1, 7), repeat=2)):
        assert shapes.d36_step(10 * tens + units) == step
        assert shapes.d36_result(step) == 10 * tens + units
    assert shapes.d36_distribution().probabilities == _chances(10 * t + u for t, u in product(range(1, 7), repeat=2))


@pytest.mark.parametrize("value", [10, 17, 67, 70, 0])
def test_a_number_with_a_digit_outside_1_to_6_is_no_d36_result(value):
    with pytest.raises(ValueError, match=f"{value} is not a D36 result"):
        shapes.d36_step(value)


def test_d36_steps_run_from_0_to_35():
    assert shapes.d36_result(0) == 11 and shapes.d36_result(35) == 66
    for bad in (-1, 36):
        with pytest.raises(ValueError, match=f"D36 step {bad} is outside 0..35"):
            shapes.d36_result(bad)


def _level_by_trying(roll: int, ability: int) -> int:
    levels = [level for level in (1, 2, 4, 8, 16, 32, 64) if roll * level <= ability]
    return max(levels, default=0)


def test_success_levels_by_trying_each_power_of_two():
    for roll in range(1, 21):
        for ability in range(0, 50):
            assert shapes.success_level(roll, ability) == _level_by_trying(roll, ability), (roll, ability)


def test_a_roll_below_1_is_refused():
    assert shapes.success_level(1, 1) == 1
    with pytest.raises(ValueError, match="a die roll is at least 1, not 0"):
        shapes.success_level(0, 5)


@pytest.mark.parametrize("ability, sides", [(7, 20), (25, 20), (3, 6), (0, 4), (12, 1)])
def test_success_level_distribution_by_enumeration(ability, sides):
    expected = _chances(_level_by_trying(r, ability) for r in range(1, sides + 1))
    assert shapes.success_level_distribution(ability, sides).probabilities == expected


def test_success_level_distribution_takes_dice_of_1_to_1000_sides():
    assert shapes.success_level_distribution(2000, 1000)[2] == Fraction(500, 1000)
    for bad in (0, 1001):
        with pytest.raises(ValueError, match=f"sides {bad} is"):
            shapes.success_level_distribution(5, bad)


def _pattern_by_hand(dice, straight_order) -> str:
    a, b, c = dice
    if a == b == c:
        return "triple"
    low = min(dice)
    if sorted(dice) == [low, low + 1, low + 2]:
        if straight_order == "sorted" or (b - a, c - b) in ((1, 1), (-1, -1)):
            return "straight"
        return "plain"
    return "pair" if len(set(dice)) == 2 else "plain"


@pytest.mark.parametrize("straight_order", ["sorted", "as rolled"])
def test_patterns_of_every_roll_of_three_dice(straight_order):
    for dice in product(range(1, 7), repeat=3):
        assert shapes.pattern(dice, straight_order) == _pattern_by_hand(dice, straight_order), dice
    assert shapes.pattern_distribution(6, straight_order).probabilities == _chances(
        _pattern_by_hand(d, straight_order) for d in product(range(1, 7), repeat=3))


def test_pattern_chances_stated_in_its_docstring():
    assert shapes.pattern_distribution()["triple"] == Fraction(6, 216)
    assert shapes.pattern_distribution()["straight"] == Fraction(24, 216)
    assert shapes.pattern_distribution(6, "as rolled")["straight"] == Fraction(8, 216)


def test_a_pattern_needs_three_dice():
    with pytest.raises(ValueError, match="exactly 3 dice, not 2"):
        shapes.pattern((1, 2))


@pytest.mark.parametrize("face, dice, sides", [(1, 3, 6), (6, 4, 6), (2, 2, 3), (1, 0, 6)])
def test_face_counts_by_enumeration(face, dice, sides):
    expected = _chances(roll.count(face) for roll in product(range(1, sides + 1), repeat=dice))
    assert shapes.face_count_distribution(face, dice, sides).probabilities == expected


def test_a_face_is_1_to_the_sides():
    assert shapes.face_count_distribution(6, 1, 6)[1] == Fraction(1, 6)
    for bad in (0, 7):
        with pytest.raises(ValueError, match=f"face on a d6 {bad} is"):
            shapes.face_count_distribution(bad, 1, 6)


@pytest.mark.parametrize("first, second, sides", [(1, 1, 6), (2, 1, 6), (1, 3, 6), (3, 2, 4), (0, 2, 6)])
def test_opposed_pools_by_enumeration(first, second, sides):
    faces = range(1, sides + 1)
    pairs = [(sum(a), sum(b)) for a in product(faces, repeat=first) for b in product(faces, repeat=second)]
    higher = Fraction(sum(x > y for x, y in pairs), len(pairs))
    tie = Fraction(sum(x == y for x, y in pairs), len(pairs))
    result = shapes.opposed_pools(first, second, sides)
    assert (result.higher, result.tie, result.lower) == (higher, tie, 1 - higher - tie)
    by_pairs = shapes.opposed(shapes.pool_distribution(first, sides), shapes.pool_distribution(second, sides))
    assert by_pairs == result
    assert shapes.pool_distribution(first, sides).probabilities == _chances(
        sum(roll) for roll in product(faces, repeat=first))


def test_a_pool_may_span_2001_totals_not_2002():
    assert len(shapes.pool_distribution(200, 11)) == 2001  # 200..2200
    assert len(shapes.pool_distribution(100, 21)) == 2001
    with pytest.raises(DiceLimitError, match="100 dice of 22 sides can total 2,101 values; exact odds are limited to 2,001"):
        shapes.pool_distribution(100, 22)
    with pytest.raises(ValueError, match="the number of dice 201 is above 200"):
        shapes.pool_distribution(201, 1)
    with pytest.raises(ValueError, match="sides 0 is below 1"):
        shapes.pool_distribution(1, 0)


@pytest.mark.parametrize("modifier", [0, 3, -2])
def test_2d6_with_double_ones_as_a_fumble_by_enumeration(modifier):
    expected = _chances("fumble" if (a, b) == (1, 1) else a + b + modifier for a, b in product(range(1, 7), repeat=2))
    assert shapes.two_d6_with_fumble(modifier).probabilities == expected
