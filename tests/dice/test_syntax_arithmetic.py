"""The notation's division and comparisons (rules_lib.dice.syntax) against exact fractions."""

import math
from fractions import Fraction

import pytest

from rules_lib.dice.syntax import compare, divide


def _nearest_halves_away_from_zero(value: Fraction) -> int:
    whole = math.floor(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


def test_division_rounds_down_up_or_to_the_nearest_half_away_from_zero():
    for left in range(-13, 14):
        for right in [r for r in range(-5, 6) if r]:
            exact = Fraction(left, right)
            assert divide(left, right, "down") == math.floor(exact), (left, right)
            assert divide(left, right, "up") == math.ceil(exact), (left, right)
            assert divide(left, right, "nearest") == _nearest_halves_away_from_zero(exact), (left, right)


def test_a_division_by_0_is_refused():
    with pytest.raises(ValueError, match="7 / 0: a division by 0 has no value"):
        divide(7, 0, "down")


def test_each_comparison_of_the_notation():
    cases = {">": (False, False, True), ">=": (False, True, True), "<": (True, False, False),
             "<=": (True, True, False), "=": (False, True, False), "<>": (True, False, True)}
    for op, expected in cases.items():
        assert tuple(compare(op, left, 5) for left in (4, 5, 6)) == expected, op
    with pytest.raises(ValueError, match="comparison '==' is unknown: allowed are >, >=, <, <=, =, <>"):
        compare("==", 1, 1)
