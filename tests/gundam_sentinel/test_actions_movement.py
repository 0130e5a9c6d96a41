from fractions import Fraction

import pytest

from rules_lib.geometry.hex import Hex
from rules_lib.gundam_sentinel import actions, movement
from rules_lib.gundam_sentinel.units import Mobility, load_units, unit


def test_zaku_mobility_and_move_costs():
    zaku = unit("zaku-ii")
    assert (zaku.mobility.land, zaku.mobility.space, zaku.mobility.air, zaku.mobility.water) == (3, 4, None, None)
    assert actions.ap_to_move(4, 3, "normal MS") == 10 and actions.ap_to_move(7, 3, "normal MS") == 16
    assert actions.ap_to_move(3, 3, "normal MS") == 4 and actions.ap_to_move(6, 3, "normal MS") == 10


@pytest.mark.parametrize("bad", ["3/4", "3/x/4/-", 3, "3/−/4/−/5"])
def test_bad_mobility_strings(bad):
    with pytest.raises(ValueError, match="mobility"):
        Mobility.parse(bad)


def test_sample_units_mark_what_is_missing():
    units = load_units()
    assert {"zaku-ii", "nouvelle-gm-iii", "core-booster-easy"} <= set(units)
    with pytest.raises(ValueError, match="not in the source text"):
        units["zaku-ii"].require("durability")


def test_costs_given_and_missing():
    assert [actions.ap_cost("additional move", c) for c in ("normal MS", "high-mobility MS", "MA or aircraft")] == [6, 5, 4]
    assert actions.ap_cost("large weapon use", "normal MS") == 6
    with pytest.raises(ValueError, match="not in the source text"):
        actions.ap_cost("aim", "normal MS")
    assert actions.ap_cost("aim", "normal MS", actions.ActionCosts({"aim": 2})) == 2
    with pytest.raises(ValueError, match="unit class"):
        actions.ap_cost("normal move", "tank")


def test_action_points_and_borrowing():
    assert actions.action_points(4, 2).available == 6
    borrowed = actions.action_points(4, 2, borrow=2, anticipation=True, max_borrow=3)
    assert borrowed.available == 8 and borrowed.owed_next_round == 2
    assert actions.action_points(1, 0, owed=2).available == 0
    with pytest.raises(ValueError, match="又借り"):
        actions.action_points(4, 2, owed=2, borrow=1, anticipation=True, max_borrow=3)
    with pytest.raises(ValueError, match="max_borrow"):
        actions.action_points(4, 2, borrow=1, anticipation=True)
    with pytest.raises(ValueError, match="anticipation"):
        actions.action_points(4, 2, borrow=1, max_borrow=3)
    assert actions.ap_at_least(6, 2) == Fraction(1, 2)


def test_plans():
    plan = actions.plan_actions(["normal move", "additional move", "charge/disengage"], 12, "normal MS", acting_first=False)
    assert plan.cost == 12 and plan.fits
    with pytest.raises(ValueError, match="acting first"):
        actions.plan_actions(["use of cover"], 12, "normal MS", acting_first=False)
    with pytest.raises(ValueError, match="on top of"):
        actions.plan_actions(["additional move"], 12, "normal MS", acting_first=True)
    plans = actions.fitting_plans(6, ["normal move", "charge/disengage", "large weapon use"], "normal MS",
                                  acting_first=True)
    assert {p.patterns for p in plans} == {("normal move",), ("charge/disengage", "normal move"), ("large weapon use",)}
    rp = actions.plan_round(4, 2, ["normal move"], "normal MS", acting_first=True)
    assert rp.plans[0][1] == Fraction(5, 6)


def test_initiative_and_its_odds_by_brute_force():
    assert actions.initiative((6, 6), 0, (1, 1), 3).first == "A"
    assert actions.initiative((3, 3), 0, (2, 4), 0).first == "tie"
    odds = actions.initiative_odds(1, 0)
    wins = sum(a + b + 1 > c + d for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) for d in range(1, 7))
    assert odds["A"] == Fraction(wins, 1296) and sum(odds.values()) == 1


def test_moves_only_forward_and_one_turn_per_hex():
    result = movement.move(Hex(0, 0), 0, [(Hex(0, -1), 1), Hex(1, -2)], mobility=3)
    assert result.position == Hex(1, -2) and result.facing == 1
    with pytest.raises(ValueError, match=r"behind the unit.*three front hexes"):
        movement.move(Hex(0, 0), 0, [Hex(0, 1)], mobility=3)
    with pytest.raises(ValueError, match="up to the mobility"):
        movement.move(Hex(0, 0), 0, [Hex(0, -1), Hex(0, -2), Hex(0, -3), Hex(0, -4)], mobility=3)
    with pytest.raises(ValueError, match="no stacking"):
        movement.move(Hex(0, 0), 0, [Hex(0, -1)], mobility=3, occupied=[Hex(0, -1)])
    with pytest.raises(ValueError, match="one 60-degree turn"):
        movement.move(Hex(0, 0), 0, [(Hex(0, -1), 2)], mobility=3)
    assert movement.move(Hex(0, 0), 0, [Hex(0, -1)], mobility=3, enemies=[Hex(0, -2)]).charge_disengage
    assert not movement.move(Hex(0, 0), 0, [Hex(0, -1)], mobility=3, enemies=[Hex(0, -5)]).charge_disengage
    assert movement.rear_hexes_allowed(Hex(0, 0), 4) == 0


def test_turn_only_and_propellant():
    assert movement.turn_only(0, 3) == 3
    with pytest.raises(ValueError, match="current facing"):
        movement.turn_only(2, 2)
    assert movement.spend_propellant(2, move_patterns=2).drifting
    with pytest.raises(ValueError, match="only 1 left"):
        movement.spend_propellant(1, move_patterns=2)
