"""The readings object's own guards and defaults (rules_lib.wis6.rules): each bound tested at the
value just refused and the value just accepted, with the message."""

import pytest

from rules_lib.wis6 import Wis6Error, Wis6Rules


def test_the_tie_die_is_a_d20_by_default():
    # ruling "Which die breaks a tie in the action order" (book/wis6/_rulings.md): a d20, not in the source text
    assert Wis6Rules().tie_die_sides == 20


def test_minimum_damage_is_a_whole_number_zero_or_more():
    assert Wis6Rules(minimum_damage=0).minimum_damage == 0
    with pytest.raises(Wis6Error, match=r"minimum_damage -1 must be a whole number, 0 or more"):
        Wis6Rules(minimum_damage=-1)
    with pytest.raises(Wis6Error, match=r"minimum_damage 1\.5 must be a whole number"):
        Wis6Rules(minimum_damage=1.5)
    with pytest.raises(Wis6Error, match=r"minimum_damage True must be a whole number"):
        Wis6Rules(minimum_damage=True)


def test_the_tie_die_has_two_sides_or_more():
    assert Wis6Rules(tie_die_sides=2).tie_die_sides == 2
    with pytest.raises(Wis6Error, match=r"tie_die_sides 1 must be a whole number, 2 or more"):
        Wis6Rules(tie_die_sides=1)
    with pytest.raises(Wis6Error, match=r"tie_die_sides 6\.0 must be a whole number, 2 or more"):
        Wis6Rules(tie_die_sides=6.0)
    with pytest.raises(Wis6Error, match=r"tie_die_sides False must be a whole number"):
        Wis6Rules(tie_die_sides=False)
