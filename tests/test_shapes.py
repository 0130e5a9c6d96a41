from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.dice import (
    D36_RESULTS,
    FUMBLE,
    d36_distribution,
    d36_result,
    d36_step,
    face_count_distribution,
    opposed_pools,
    pattern,
    pattern_distribution,
    pool_distribution,
    success_level,
    success_level_distribution,
    two_d6_with_fumble,
)


def as_distribution(outcomes):
    counts = Counter(outcomes)
    total = sum(counts.values())
    return {o: Fraction(n, total) for o, n in counts.items()}


def test_d36_steps_count_results_not_numbers():
    assert D36_RESULTS[:7] == (11, 12, 13, 14, 15, 16, 21)
    assert d36_step(62) - d36_step(54) == 4
    assert d36_result(d36_step(45)) == 45
    assert d36_distribution().probabilities == as_distribution(10 * a + b for a, b in product(range(1, 7), repeat=2))
    with pytest.raises(ValueError, match="not a D36 result"):
        d36_step(17)
    with pytest.raises(ValueError, match="outside 0..35"):
        d36_result(36)


def _level_by_division(roll, ability):
    # independent formula: the highest power of two not above ability // roll
    if roll > ability:
        return 0
    quotient, level = ability // roll, 1
    while level * 2 <= quotient:
        level *= 2
    return level


@pytest.mark.parametrize("ability", [0, 1, 5, 12, 20, 32, 40, 100])
def test_success_levels_match_enumeration(ability):
    expected = as_distribution(_level_by_division(r, ability) for r in range(1, 21))
    assert success_level_distribution(ability).probabilities == expected


def test_success_levels_for_ability_32():
    assert [success_level(r, 32) for r in (32, 17, 16, 9, 8, 5, 4, 3, 2, 1)] == [1, 1, 2, 2, 4, 4, 8, 8, 16, 32]
    assert success_level(33, 32) == 0


def test_pattern_classes_match_enumeration():
    counts = Counter(pattern(r) for r in product(range(1, 7), repeat=3))
    assert counts == {"triple": 6, "straight": 24, "pair": 90, "plain": 96}
    assert pattern_distribution().probabilities == as_distribution(counts.elements())
    assert pattern((3, 1, 2)) == "straight" and pattern((6, 4, 5)) == "straight"
    assert pattern((1, 2, 4)) == "plain"


@pytest.mark.parametrize(("face", "dice"), [(1, 3), (6, 3), (3, 2), (2, 0)])
def test_face_counts_match_enumeration(face, dice):
    expected = as_distribution(r.count(face) for r in product(range(1, 7), repeat=dice))
    assert face_count_distribution(face, dice).probabilities == expected


@pytest.mark.parametrize(("n", "m"), [(1, 1), (2, 1), (3, 2), (2, 3), (0, 2)])
def test_opposed_pools_match_enumeration(n, m):
    higher = tie = total = 0
    for a in product(range(1, 7), repeat=n):
        for b in product(range(1, 7), repeat=m):
            total += 1
            higher += sum(a) > sum(b)
            tie += sum(a) == sum(b)
    result = opposed_pools(n, m)
    assert (result.higher, result.tie) == (Fraction(higher, total), Fraction(tie, total))
    assert result.higher + result.tie + result.lower == 1
    assert pool_distribution(n).total() == 1


def test_two_d6_fumble_matches_enumeration():
    outcomes = [FUMBLE if (a, b) == (1, 1) else a + b + 4 for a, b in product(range(1, 7), repeat=2)]
    assert two_d6_with_fumble(4).probabilities == as_distribution(outcomes)
    assert two_d6_with_fumble()[FUMBLE] == Fraction(1, 36)


@pytest.mark.parametrize("bad", [lambda: face_count_distribution(7), lambda: pool_distribution(-1),
                                 lambda: pattern((1, 2)), lambda: success_level(0, 10)])
def test_bad_shape_inputs_are_refused(bad):
    with pytest.raises(ValueError):
        bad()
