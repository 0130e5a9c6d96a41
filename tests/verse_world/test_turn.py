"""Turn flow: initiative, delay, end of turn, extra action (004 §3-4-1)."""

from fractions import Fraction
from itertools import product

import pytest

from rules_lib.verse_world import (
    Combatant,
    end_of_turn_steps,
    extra_action_chance,
    extra_action_check,
    extra_action_roll,
    initiative_roll,
    turn_order,
)


def test_initiative_roll_is_bonus_plus_2d6():
    result = initiative_roll(4, dice=[3, 5])
    assert result.total == 12 and result.expression == "2D6+4"
    with pytest.raises(ValueError, match="not a whole number"):
        initiative_roll("4")


def party():
    return [
        Combatant("Orc", "gm", 10),
        Combatant("Aria", "pc", 10),
        Combatant("Bel", "pc", 14, delays=True),
        Combatant("Cid", "pc", 7),
        Combatant("Gob", "gm", 3, delays=True),
    ]


def test_order_highest_first_pcs_win_ties_delayers_last_by_real_value():
    order = turn_order(party())
    assert order.names == ("Aria", "Orc", "Cid", "Bel", "Gob")
    assert [s.acts_at for s in order.slots] == [10, 10, 7, 0, 0]


def test_npcs_always_after_pcs_reading():
    order = turn_order(party(), npcs_after_pcs="always")
    assert order.names == ("Aria", "Cid", "Orc", "Bel", "Gob")


def test_bad_side_and_duplicates():
    with pytest.raises(ValueError, match="allowed are 'pc'"):
        Combatant("X", "npc", 3)
    with pytest.raises(ValueError, match="share a name"):
        turn_order([Combatant("X", "pc", 3), Combatant("X", "gm", 4)])


def test_extra_action_candidate_and_passive():
    order = turn_order(party())
    check = extra_action_check(order)
    assert (check.candidate, check.passive) == ("Aria", "Gob")
    check = extra_action_check(order, fallen=["Gob"])
    assert (check.candidate, check.passive) == ("Aria", "Orc")
    assert extra_action_check(order, fallen=["Aria"]).candidate is None
    # Bel had the highest value but delayed: under the other reading nobody re-acts
    assert extra_action_check(order, candidate_rule="highest-initiative").candidate is None


def test_end_of_turn_steps():
    assert end_of_turn_steps(riding_mecha=False) == ("delayed-actions", "ongoing-effects", "extra-action")
    assert end_of_turn_steps(riding_mecha=True)[-1] == "pilot-mp-drain"


def test_extra_action_roll_ignores_fumbles_and_needs_a_win():
    won, _ = extra_action_roll(5, 3, active_dice=[1, 1], passive_dice=[1, 1])
    assert won  # 7 > 5: double ones are just 2 here
    won, _ = extra_action_roll(3, 3, active_dice=[4, 2], passive_dice=[3, 3])
    assert not won  # a tie is not a win


@pytest.mark.parametrize("a,b", [(0, 0), (5, 3), (2, 6)])
def test_extra_action_chance_by_enumeration(a, b):
    wins = sum(a + x + y > b + u + v for x, y, u, v in product(range(1, 7), repeat=4))
    assert extra_action_chance(a, b) == Fraction(wins, 6**4)


def test_one_move_then_one_attack_per_action():
    from rules_lib.verse_world import action_step_allowed

    # 004 §3-4-2, line 23
    assert action_step_allowed([], "move") and action_step_allowed([], "attack")
    assert action_step_allowed(["move"], "attack")
    assert not action_step_allowed(["move"], "move")
    assert not action_step_allowed(["attack"], "attack")
    assert not action_step_allowed(["attack"], "move")
    with pytest.raises(ValueError, match="action step 'cast' is unknown"):
        action_step_allowed([], "cast")
