from fractions import Fraction

import pytest

from rules_lib.dice import DiceLimitError, distribution, odds
from rules_lib.dice.enumeration import enumerate_distribution
from rules_lib.dice.exact import counts

CROSS_CHECKED = [
    "2D6", "2D6+3", "1D36", "D66+3", "1D3*3+12/2", "3D6/2U", "1D10/3R", "-1D6+1D4",
    "1D6*1D6", "(1D6+2)*3/2", "2D6>=10", "3D6>1D20", "1D6=1D6", "1D8<>4", "1D6-1D6<=0",
    "2D3+1D4-2", "1D20/1D4",
]


@pytest.mark.parametrize("expression", CROSS_CHECKED)
def test_exact_distribution_matches_enumeration(expression):
    exact = distribution(expression)
    assert exact.probabilities == enumerate_distribution(expression).probabilities
    assert exact.total() == 1


@pytest.mark.parametrize("expression", CROSS_CHECKED)
def test_counts_are_the_distribution_in_whole_numbers(expression):
    values, total = counts(expression)
    assert {o: Fraction(n, total) for o, n in values.items()} == enumerate_distribution(expression).probabilities


def test_two_d6_at_least_ten_is_one_sixth():
    assert odds("2D6>=10").success == Fraction(1, 6)


def test_odds_of_a_comparison_show_the_left_sides_distribution():
    result = odds("2D6>=10")
    assert result.distribution[7] == Fraction(1, 6)
    assert result.to_dict()["success"] == "1/6"


def test_d36_has_36_equal_results():
    dist = distribution("1D36")
    assert len(dist) == 36 and set(dist.probabilities.values()) == {Fraction(1, 36)}
    assert min(dist.support) == 11 and max(dist.support) == 66


def test_exact_odds_refuse_huge_spans():
    with pytest.raises(DiceLimitError, match="exact odds are limited"):
        odds("100D100")


def test_binomial_equals_icepool_s_pool_of_dice_showing_given_faces():
    import icepool

    from rules_lib.dice.exact import binomial, from_die

    for sides in range(1, 9):
        for faces in range(sides + 1):
            hit = icepool.Die({1: faces, 0: sides - faces}) if 0 < faces < sides else icepool.Die([int(faces == sides)])
            for dice in range(13):
                expected = from_die(dice @ hit if dice else icepool.Die([0]))
                assert binomial(dice, faces, sides) == expected, (dice, faces, sides)
