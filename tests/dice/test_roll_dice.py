"""The dice a roll draws and the dice a replay is given, each check at its edge (`make mutation`, issue 31)."""

from collections import Counter

import pytest

from rules_lib.dice import roll
from rules_lib.dice.errors import DiceReplayError
from rules_lib.dice.roll import GivenDice, SeededDice


def test_a_replay_needs_exactly_the_dice_it_uses():
    assert roll("2D6", dice=[3, 4]).total == 7
    with pytest.raises(DiceReplayError, match="the expression needs more dice than the 1 given"):
        roll("2D6", dice=[3])
    with pytest.raises(DiceReplayError, match="3 dice were given but the expression uses only 2"):
        roll("2D6", dice=[3, 4, 5])


@pytest.mark.parametrize("value", [0, 7, True, 2.0, "3"])
def test_a_given_die_is_a_face_of_its_die(value):
    with pytest.raises(DiceReplayError, match=f"die 1 was given as {value!r}, but it is a d6: allowed are 1 to 6"):
        roll("1D6", dice=[value])


@pytest.mark.parametrize("value", [1, 6])
def test_the_faces_at_the_edges_are_accepted(value):
    assert GivenDice([value]).draw(6) == value


def test_seeded_dice_show_every_face_and_no_other():
    dice = SeededDice(1)
    faces = Counter(dice.draw(3) for _ in range(300))
    assert set(faces) == {1, 2, 3}


def test_d66_draws_two_d6_and_refuses_a_seven():
    assert roll("1D66", dice=[6, 6]).total == 66
    assert [d.sides for d in roll("1D66", dice=[1, 2]).dice] == [6, 6]
    with pytest.raises(DiceReplayError, match="it is a d6"):
        roll("1D66", dice=[7, 1])
    with pytest.raises(DiceReplayError, match="it is a d6"):
        roll("1D66", dice=[1, 7])
    faces = Counter(d.value for _ in range(60) for d in roll("1D66", seed=_).dice)
    assert set(faces) == set(range(1, 7))
