"""Pilot MP drain and endurance (004 §3-4-1, L21)."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.verse_world import endurance, pilot_mp_loss, pilot_mp_loss_distribution


def test_loss_per_die():
    assert [pilot_mp_loss(d).loss for d in range(1, 7)] == [1, 1, 1, 1, 2, 3]
    assert pilot_mp_loss(2).raw == -1
    assert pilot_mp_loss(6, riding_mecha=False).loss == 0
    with pytest.raises(ValueError, match="above 6"):
        pilot_mp_loss(7)


def test_loss_distribution():
    assert dict(pilot_mp_loss_distribution().items()) == {1: Fraction(2, 3), 2: Fraction(1, 6), 3: Fraction(1, 6)}


def brute_turns(mp):
    """Every sequence of mp dice (enough: each turn loses at least 1)."""
    counts = Counter()
    for dice in product(range(1, 7), repeat=mp):
        left, turns = mp, 0
        for d in dice:
            if left <= 0:
                break
            left -= max(d - 3, 1)
            turns += 1
        counts[turns] += 1
    return {t: Fraction(n, 6**mp) for t, n in counts.items()}


@pytest.mark.parametrize("mp", [0, 1, 2, 3, 4, 5, 6])
def test_endurance_matches_brute_force(mp):
    assert dict(endurance(mp).turns.items()) == brute_turns(mp)


def test_mode_drains():
    assert dict(endurance(4, "2").turns.items()) == {2: 1}
    assert endurance(30, "3D6").turns.total() == 1
    with pytest.raises(ValueError, match="is below 0"):
        endurance(-3)
    with pytest.raises(ValueError, match="never run out"):
        endurance(5, "1D6-1")
