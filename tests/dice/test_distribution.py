"""`Distribution`'s own behaviour: its order, its mean, its refusals; and `counts`, `percent`,
`binomial` at their edges. Each expected value is worked out by hand or by enumerating the dice."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.dice.exact import Distribution, binomial, counts, percent

HALF, QUARTER = Fraction(1, 2), Fraction(1, 4)


def test_whole_number_outcomes_are_in_numeric_order_whatever_their_chance_or_insertion():
    # inserted high to low, the chances rising then falling: neither order is the outcomes'
    dist = Distribution({3: QUARTER, 1: QUARTER, 2: HALF})
    assert dist.support == (1, 2, 3)


def test_other_outcomes_are_ordered_numbers_first_then_flags_then_by_text():
    dist = Distribution({"b": Fraction(1, 8), "a": Fraction(3, 8), True: Fraction(1, 8),
                         2.0: Fraction(1, 8), False: Fraction(1, 8), Fraction(1, 2): Fraction(1, 8)})
    assert dist.support == (Fraction(1, 2), 2.0, False, True, "a", "b")


def test_text_outcomes_are_ordered_by_text_not_by_chance():
    assert Distribution({"miss": QUARTER, "hit": Fraction(3, 4)}).support == ("hit", "miss")
    assert Distribution({"hit": QUARTER, "miss": Fraction(3, 4)}).support == ("hit", "miss")


def test_the_mean_of_fractional_and_decimal_outcomes():
    assert Distribution({Fraction(1, 2): HALF, Fraction(3, 2): HALF}).mean() == 1
    assert Distribution({0.5: HALF, 1.5: HALF}).mean() == 1.0
    assert Distribution({1: HALF, 0.5: HALF}).mean() == 0.75


def test_the_mean_of_whole_number_outcomes_is_exact():
    assert Distribution({1: Fraction(1, 3), 2: Fraction(2, 3)}).mean() == Fraction(5, 3)


def test_from_counts_refuses_anything_but_a_mapping_by_name():
    with pytest.raises(ValueError, match="not a mapping of outcome to count"):
        Distribution.from_counts([1, 2])
    assert Distribution.from_counts({1: 1, 2: 3}).probabilities == {1: QUARTER, 2: Fraction(3, 4)}


@pytest.mark.parametrize("expression, dice", [
    ("2D6", [range(1, 7)] * 2),
    ("1D4*1D3", [range(1, 5), range(1, 4)]),
    ("3D2-1", [range(1, 3)] * 3),
    ("1D6/1D2", [range(1, 7), range(1, 3)]),
])
def test_counts_are_the_number_of_rolls_giving_each_value(expression, dice):
    by_value = {
        "2D6": lambda roll: sum(roll), "1D4*1D3": lambda roll: roll[0] * roll[1], "3D2-1": lambda roll: sum(roll) - 1,
        "1D6/1D2": lambda roll: roll[0] // roll[1],  # rounded down
    }[expression]
    expected = Counter(by_value(roll) for roll in product(*dice))
    values, total = counts(expression)
    assert values == dict(expected)
    assert total == len(list(product(*dice)))


def test_d66_counts_one_roll_for_each_of_its_36_results():
    values, total = counts("D66")
    assert total == 36 and set(values.values()) == {1}


def test_percent_shows_a_chance_out_of_a_hundred():
    assert percent(Fraction(1, 6)) == "16.67%"
    assert percent(Fraction(1, 2), 0) == "50%"
    assert percent(Fraction(1, 4), 20) == "25." + "0" * 20 + "%"


def test_percent_refuses_more_than_twenty_decimals():
    with pytest.raises(ValueError, match="decimals 21 is above 20"):
        percent(Fraction(1, 3), 21)


def test_binomial_of_a_one_sided_die_and_its_refusal_of_none():
    assert binomial(3, 1, 1).probabilities == {3: 1}
    with pytest.raises(ValueError, match="sides 0 is below 1"):
        binomial(1, 0, 0)
