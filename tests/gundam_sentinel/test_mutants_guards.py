"""Input guards of the Gundam Sentinel rules at their boundaries: the bad value refused with a message
naming it, and the nearest good value accepted (damage.py, movement.py, actions.py, checks.py).

`make mutation` found these unchecked: dropping a guard or moving its bound by one changed no value
of the book's checks.
"""

import pytest

from rules_lib.geometry.hex import Hex
from rules_lib.gundam_sentinel import actions, checks, damage, movement
from rules_lib.gundam_sentinel.units import HitLocation

TABLE = (HitLocation("legs", (1, 2), 6, 5), HitLocation("body", (3, 4), 8, 6), HitLocation("head", (5, 6), 4, 7))


def test_apply_damage_refuses_negative_numbers_and_accepts_zero():
    """000 §6, line 323: armour 6 stops 6 damage or less; damage, armour and durability are counts."""
    for bad in ({"damage": -1}, {"armour": -1}, {"durability": -1}):
        args = {"damage": 7, "armour": 6, "durability": 5} | bad
        with pytest.raises(ValueError, match="allowed are 0 or more"):
            damage.apply_damage(**args)
    zero = damage.apply_damage(0, 0, 0)
    assert (zero.through, zero.durability, zero.destroyed) == (0, 0, True)


def test_the_additional_damage_check_needs_its_value_and_two_faces():
    """000 §6, line 324: 1 damage through means 2D6 against the additional value (追加値); at most
    the value is secondary damage. The roll needs the value, and two d6 faces of 1 to 6."""
    with pytest.raises(ValueError, match="needs the hit location's additional value"):
        damage.apply_damage(7, 6, 5, additional_dice=(1, 1))
    for dice in ((0, 3), (3, 7), (3,), (True, 3)):
        with pytest.raises(ValueError, match="additional-damage dice .*: give two d6 faces"):
            damage.apply_damage(7, 6, 5, additional_value=5, additional_dice=dice)
    assert damage.apply_damage(7, 6, 5, additional_value=5, additional_dice=(1, 4)).secondary_damage is True
    assert damage.apply_damage(7, 6, 5, additional_value=5, additional_dice=(6, 6)).secondary_damage is False


def test_the_hit_location_die_is_a_d6_and_the_table_has_rows():
    """000 §6, line 321: the hit location is 1D6 + mission level + skills, read on the sheet's table."""
    for bad in (0, 7):
        with pytest.raises(ValueError, match=f"hit-location die {bad}: a d6 shows 1 to 6"):
            damage.hit_location(bad, TABLE)
    assert damage.hit_location(1, TABLE).location.name == "legs"
    assert damage.hit_location(6, TABLE).location.name == "head"
    assert damage.hit_location(3, TABLE, mission_level=2).total == 5
    with pytest.raises(ValueError, match="has no hit-location table"):
        damage.hit_location(3, ())


def test_a_hit_location_table_covers_one_to_six_without_a_gap():
    """000 §6, line 321: every total of 1D6 (and above, for the mission level) needs a row."""
    with pytest.raises(ValueError, match="hit locations cover the totals \\[1, 2, 3, 4, 5\\]"):
        damage.check_hit_location_table(TABLE[:2] + (HitLocation("head", (5,), 4, 7),))
    with pytest.raises(ValueError, match="hit locations cover the totals \\[1, 2, 5, 6\\]"):
        damage.check_hit_location_table((TABLE[0], TABLE[2]))
    assert damage.check_hit_location_table(TABLE) == TABLE
    longer = TABLE + (HitLocation("backpack", (7,), 3, 8),)
    assert damage.check_hit_location_table(longer) == longer


def test_stacking_is_refused_and_an_empty_hex_entered():
    """000 §4, line 244: one hex never holds two units (no stacking)."""
    with pytest.raises(ValueError, match="already holds a unit: one unit per hex"):
        movement.check_hex_free(Hex(0, -1), [Hex(0, -1)])
    assert movement.check_hex_free(Hex(0, -1), [Hex(1, -1)]) == 1
    with pytest.raises(ValueError, match="already holds a unit"):
        movement.move(Hex(0, 0), 0, [Hex(0, -1)], mobility=3, occupied=[Hex(0, -1)])


def test_a_move_turns_at_most_once_per_hex_and_spends_at_most_its_mobility():
    """000 §4, lines 222-223: the Zaku II's mobility 3 covers 3 hexes in one normal move, turning
    60 degrees at most once per hex moved."""
    with pytest.raises(ValueError, match="turn 2 after entering .*: allowed are -1, 0, \\+1"):
        movement.move(Hex(0, 0), 0, [(Hex(0, -1), 2)], mobility=3)
    turned = movement.move(Hex(0, 0), 0, [(Hex(0, -1), -1)], mobility=3)
    assert turned.facing == 5
    straight = [Hex(0, -1), Hex(0, -2), Hex(0, -3)]
    assert movement.move(Hex(0, 0), 0, straight, mobility=3).mobility_spent == 3
    with pytest.raises(ValueError, match="needs 4 mobility in this move: allowed are up to the mobility, 3"):
        movement.move(Hex(0, 0), 0, [*straight, Hex(0, -4)], mobility=3)


def test_a_turn_only_action_turns_60_to_180_degrees():
    """000 §4, line 236: one turn changes facing by any amount from 60 to 180 degrees; no turn is no
    turn-only action."""
    with pytest.raises(ValueError, match="facing 0 is the current facing"):
        movement.turn_only(0, 0)
    assert [movement.turn_only(0, new) for new in (1, 3, 5)] == [1, 3, 5]
    assert movement.turn_only_options(0) == {1: 60, 2: 120, 3: 180, 4: -120, 5: -60}


def test_propellant_cannot_be_overspent_and_reaching_zero_drifts():
    """000 §4, line 248: 1 propellant per normal or additional move and per scenario-map hex."""
    with pytest.raises(ValueError, match="2 propellant needed but only 1 left"):
        movement.spend_propellant(1, move_patterns=1, scenario_hexes=1)
    last = movement.spend_propellant(2, move_patterns=1, scenario_hexes=1)
    assert (last.remaining, last.drifting) == (0, True)
    with pytest.raises(ValueError, match="allowed are 0 or more"):
        movement.spend_propellant(-1)
    with pytest.raises(ValueError, match="allowed are 0 or more"):
        movement.spend_propellant(3, move_patterns=-1)
    assert movement.spend_propellant(0).remaining == 0


def test_movement_costs_are_one_or_more():
    """000 §4, line 222: a hex costs at least 1 of the mobility (the cost table of line 225 is missing)."""
    with pytest.raises(ValueError, match="movement cost of 'woods' is 0: allowed are 1 or more"):
        movement.MovementCosts(per_terrain={"woods": 0})
    assert movement.MovementCosts(per_terrain={"woods": 1}).cost("woods") == 1


def test_the_ap_roll_is_a_d6_and_borrowing_needs_anticipation():
    """000 §1, line 54: AP = 1D6 + reaction; a pilot with anticipation (予想行動) may borrow from the
    next round and must repay it, and a repaying round may not borrow again."""
    for bad in (0, 7):
        with pytest.raises(ValueError, match=f"AP roll {bad} is not a d6 face"):
            actions.action_points(bad, 0)
    assert actions.action_points(1, 0).available == 1 and actions.action_points(6, 0).available == 6
    with pytest.raises(ValueError, match="allowed are 0 or more"):
        actions.action_points(3, 0, borrow=-1)
    with pytest.raises(ValueError, match="allowed are 0 or more"):
        actions.action_points(3, 0, owed=-1)
    with pytest.raises(ValueError, match="needs the skill anticipation"):
        actions.action_points(3, 0, borrow=1, max_borrow=2)
    with pytest.raises(ValueError, match="pass max_borrow"):
        actions.action_points(3, 0, borrow=1, anticipation=True)
    with pytest.raises(ValueError, match="borrow 3 AP: allowed are 0 to 2"):
        actions.action_points(3, 0, borrow=3, anticipation=True, max_borrow=2)
    borrowed = actions.action_points(3, 0, borrow=2, anticipation=True, max_borrow=2)
    assert (borrowed.available, borrowed.owed_next_round) == (5, 2)
    assert actions.action_points(3, 0, owed=2).available == 1
    assert actions.action_points(1, -3).available == 0


def test_moves_needed_refuses_no_hexes_and_no_mobility():
    """000 §4, lines 222, 231: mobility 3 covers 3 hexes a move, so 4 hexes take two moves."""
    with pytest.raises(ValueError, match="hexes 0: allowed are 1 or more"):
        actions.moves_needed(0, 3)
    with pytest.raises(ValueError, match="mobility 0: a unit with mobility 0"):
        actions.moves_needed(3, 0)
    assert [actions.moves_needed(h, 3) for h in (1, 3, 4, 7)] == [1, 1, 2, 3]
    assert actions.moves_needed(1, 1) == 1


def test_a_plan_refuses_second_mover_patterns_lone_extras_and_two_normal_moves():
    """000 §2, lines 62, 67, 72, 81: evasive action and use of cover only for the side acting first;
    an additional move and a charge/disengage come on top of a move; one normal move a round."""
    with pytest.raises(ValueError, match="may be chosen only by the side acting first"):
        actions.plan_actions(["evasive action"], 10, "normal MS", acting_first=False)
    with pytest.raises(ValueError, match="'additional move' is chosen on top of 'normal move'"):
        actions.plan_actions(["additional move"], 10, "normal MS", acting_first=True)
    with pytest.raises(ValueError, match="one normal move"):
        actions.plan_actions(["normal move", "normal move"], 10, "normal MS", acting_first=True)
    with pytest.raises(ValueError, match="no action pattern 'walk'"):
        actions.plan_actions(["walk"], 10, "normal MS", acting_first=True)
    plan = actions.plan_actions(["normal move", "additional move"], 10, "normal MS", acting_first=True)
    assert (plan.cost, plan.fits) == (10, True)
    assert actions.plan_actions(["normal move", "additional move"], 9, "normal MS", acting_first=True).fits is False


def test_may_choose_and_ap_cost_refuse_unknown_patterns():
    """000 §2, line 62: ※ patterns only when acting first; line 67: a normal move costs 4/3/2 AP."""
    assert actions.may_choose("use of cover", acting_first=False) is False
    assert actions.may_choose("use of cover", acting_first=True) is True
    with pytest.raises(ValueError, match="no action pattern 'walk'"):
        actions.may_choose("walk", acting_first=True)
    with pytest.raises(ValueError, match="no action pattern 'walk'"):
        actions.ap_cost("walk", "normal MS")
    assert actions.ap_cost("normal move", "high-mobility MS") == 3
    with pytest.raises(ValueError, match="is not in the source text"):
        actions.ap_cost("aim", "normal MS")
    assert actions.ap_cost("aim", "normal MS", actions.ActionCosts({"aim": 0})) == 0
    with pytest.raises(ValueError, match="AP cost of 'aim' is -1: allowed are 0 or more"):
        actions.ActionCosts({"aim": -1})
    with pytest.raises(ValueError, match="no action pattern 'walk'"):
        actions.ActionCosts({"walk": 1})


def test_scenario_turns_needs_a_round_count_per_battle():
    """000 §1, line 26: one scenario turn per hex moved and one per battle, however many rounds."""
    with pytest.raises(ValueError, match="1 round counts given for 2 battles"):
        actions.scenario_turns(battles=2, rounds_per_battle=(3,))
    assert actions.scenario_turns(hexes_moved=2, battles=2, rounds_per_battle=(3, 5)) == 4


def test_the_special_checks_take_two_d6_faces():
    """000 §8-1, line 582: the fainting check is 2D6 + stamina; 10 or less faints."""
    for dice in ((0, 3), (3, 7), (3,), (True, 3)):
        with pytest.raises(ValueError, match="give two d6 faces, each 1 to 6"):
            checks.faint_check(dice, 0)
    assert checks.faint_check((1, 1), 20).result is True  # a natural 2 always faints
    assert checks.faint_check((6, 5), -1).result is True and checks.faint_check((6, 5), 0).result is False
    with pytest.raises(ValueError, match="escape total 13 is not on the chart given"):
        checks.escape_check((6, 6), fainted=False, chart={2: "escaped", 12: "killed"}, modifier=1)
    assert checks.escape_check((6, 6), fainted=False, chart={2: "escaped", 12: "killed"}) == "killed"


def test_a_repaying_round_may_not_borrow_again():
    """000 §1, line 54: AP borrowed with anticipation must be repaid next round, and that round may
    not borrow again (又借り)."""
    with pytest.raises(ValueError, match="this round repays 1 AP: it may not borrow again"):
        actions.action_points(3, 0, borrow=1, owed=1, anticipation=True, max_borrow=2)
    assert actions.action_points(3, 0, borrow=1, anticipation=True, max_borrow=2).available == 4


def test_fitting_plans_refuses_bad_candidates_and_sizes():
    """000 §1-§3: the plans are combinations of action patterns; a bare string, an unknown pattern,
    fewer than 1 pattern or more than MAX_PLAN_COMBINATIONS combinations (a bound on the work, not in
    the source text) are refused."""
    with pytest.raises(ValueError, match="candidates 'aim' are not a list"):
        actions.fitting_plans(4, "aim", "normal MS", acting_first=True)
    with pytest.raises(ValueError, match="no action pattern 'walk'"):
        actions.fitting_plans(4, ["walk"], "normal MS", acting_first=True)
    with pytest.raises(ValueError, match="max_patterns 0 is below 1"):
        actions.fitting_plans(4, ["normal move"], "normal MS", acting_first=True, max_patterns=0)
    plans = actions.fitting_plans(4, ["normal move"], "normal MS", acting_first=True, max_patterns=1)
    assert [p.patterns for p in plans] == [("normal move",)]
    with pytest.raises(ValueError, match="combinations to try: allowed are at most 100,000"):
        actions.fitting_plans(4, list(actions.PATTERNS), "normal MS", acting_first=True, max_patterns=5)


def test_action_costs_need_a_mapping():
    """000 §1-§2: the missing costs are given per pattern name."""
    with pytest.raises(ValueError, match="is not a mapping of pattern name to AP cost"):
        actions.ActionCosts([("aim", 1)])  # type: ignore[arg-type]


def test_initiative_takes_two_d6_faces_a_side():
    """000 §1, line 44: each side's representative rolls 2D6 + perception; the higher acts first."""
    for dice in ((0, 3), (3, 7), (3,), (True, 3)):
        with pytest.raises(ValueError, match="side A's dice .*: give two d6 faces"):
            actions.initiative(dice, 0, (3, 3), 0)
    assert actions.initiative((1, 1), 0, (6, 6), -10).first == "tie"
    assert actions.initiative((1, 2), 0, (1, 1), 0).first == "A"


def test_terrain_without_a_cost_is_refused():
    """000 §4, line 225: the movement cost table is missing, so a terrain must be priced."""
    with pytest.raises(ValueError, match="terrain 'woods' has no movement cost"):
        movement.MovementCosts().cost("woods")
    assert movement.MovementCosts().cost(None) == 1
