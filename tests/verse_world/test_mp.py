"""Pilot MP drain and endurance (004 §3-4-1, line 21)."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.verse_world import drain_distribution, endurance, pilot_mp_loss, pilot_mp_loss_distribution
from rules_lib.verse_world import mp as mp_module


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


def turn_by_turn(mp, loss):
    """The plain way: the distribution of MP lost so far, one turn at a time, while any is left."""
    alive, turns, n = {0: Fraction(1)}, {}, 0
    while alive:
        n += 1
        after = Counter()
        for lost, p in alive.items():
            for value, q in loss:
                after[lost + value] += p * q
        ended = sum(p for lost, p in after.items() if lost >= mp)
        if ended:
            turns[n] = ended
        alive = {lost: p for lost, p in after.items() if lost < mp}
    return turns


@pytest.mark.parametrize("drain", ["pilot", "2", "1D6", "2D6", "3D6", "1D3+1", "2D6-1", "1D20"])
@pytest.mark.parametrize("mp", [1, 7, 40, 90])
def test_endurance_matches_the_turn_by_turn_distribution(mp, drain):
    """The packed, sparse recurrence of `_turns` against the plain one, for sums of like dice and others."""
    loss = list(drain_distribution(drain).items())
    result = endurance(mp, drain)
    assert dict(result.turns.items()) == turn_by_turn(mp, loss)
    # the mean summed in whole numbers is the distribution's
    assert result.mean() == result.turns.mean() == sum(n * p for n, p in turn_by_turn(mp, loss).items())


def test_no_mp_is_over_at_once():
    assert dict(endurance(0).turns.items()) == {0: 1}
    assert endurance(0).mean() == 0


def test_a_loss_of_one_counted_many_ways_takes_the_every_sequence_slot():
    # W(1 / 2**16) > 1: the bound by r does not apply, the slot holds any count over D**n
    loss = ((1, Fraction(70_000, 70_001)), (2, Fraction(1, 70_001)))
    assert mp_module._slot_width(30, [(1, 70_000), (2, 1)]) >= (70_001**29).bit_length()
    assert dict(mp_module._turns(30, loss).items()) == turn_by_turn(30, loss)


@pytest.mark.parametrize("loss", [
    ((1, Fraction(3, 8)), (2, Fraction(5, 8))),  # no factor of 1 or 2**k: the sum starts at 0
    ((1, Fraction(2, 3)), (2, Fraction(1, 3))),  # a factor of 2: a shift
    ((1, Fraction(1, 6)), (3, Fraction(4, 6)), (4, Fraction(1, 6))),  # a factor of 4 after a factor of 1
    ((2, Fraction(3, 10)), (3, Fraction(6, 10)), (5, Fraction(1, 10))),  # factors 3 and 6
])
def test_every_kind_of_weight_counts_as_turn_by_turn(loss):
    assert dict(mp_module._turns(25, loss).items()) == turn_by_turn(25, loss)
