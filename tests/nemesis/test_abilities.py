from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.nemesis import (
    AFTER_DAMAGE_CHECKS,
    FallReading,
    action_reroll,
    after_damage_order,
    contest_chance,
    counter,
    defender_falls,
    evasion_check,
    evasion_parameter,
    evasion_tries,
    fall_chance,
    fall_check,
    fall_consequences,
    intercept_check,
    interrupt_cost,
    load_silhouette,
    may_counter_fire,
    may_defend,
    may_fly,
    may_try_stealth,
    pool_odds,
    stealth_check,
)


def brute(n, m, predicate):
    rolls = [(sum(a), sum(b)) for a in product(range(1, 7), repeat=n) for b in product(range(1, 7), repeat=m)]
    return Fraction(sum(predicate(x, y) for x, y in rolls), len(rolls))


@pytest.mark.parametrize("n, m", [(1, 2), (2, 2), (3, 1), (0, 2), (2, 0)])
@pytest.mark.parametrize("reading", list(FallReading))
def test_fall_chance_matches_enumeration(n, m, reading):
    assert fall_chance(n, m, reading) == brute(n, m, lambda a, d: defender_falls(a, d, reading))


def test_fall_readings():
    assert defender_falls(5, 5, "as_written") and defender_falls(4, 5, "as_written") and not defender_falls(6, 5, "as_written")
    assert defender_falls(5, 5), "the default is the text as written (line 361)"
    assert not defender_falls(5, 5, "defender_resists") and defender_falls(6, 5, "defender_resists")
    assert defender_falls(5, 5, "attacker_wins_ties")
    assert fall_check([2], [2, 1]).success and not fall_check([6], [2, 1]).success
    assert fall_check([6], [2, 1], "defender_resists").success
    with pytest.raises(ValueError):
        defender_falls(1, 1, "backwards")


def test_fall_consequences():
    assert fall_consequences(True).loses_rest_of_turn
    assert fall_consequences(False).action_dice_lost_next_turn == 1
    assert fall_consequences(False, flying=True).cannot_act_next_turn


@pytest.mark.parametrize("n, m", [(1, 1), (2, 3), (0, 0)])
def test_contests_match_enumeration(n, m):
    assert contest_chance(n, m, True) == brute(n, m, lambda a, b: a >= b)
    assert contest_chance(n, m, False) == brute(n, m, lambda a, b: a > b)
    odds = pool_odds(n, m)
    assert odds.tie == brute(n, m, lambda a, b: a == b)
    with pytest.raises(ValueError, match="-1 is below 0: allowed are 0 or more"):
        pool_odds(-1, 2)


def test_stealth_interception_evasion():
    assert stealth_check([3], [2, 1]).success and not stealth_check([], [1]).success
    assert may_try_stealth([4, 4, 4]) and not may_try_stealth([4, 4, 3])
    assert intercept_check([5], [5], has_machine_cannon=True).success
    with pytest.raises(ValueError, match="machine cannon"):
        intercept_check([5], [5], has_machine_cannon=False)
    assert evasion_check([2], [2]).success and not evasion_check([1], [2]).success
    unit = load_silhouette()
    assert evasion_parameter(unit, "agility") == ("agility", 1)
    assert evasion_tries() == 1 and evasion_tries(flying=True) is None
    assert not may_defend(flying=True) and may_fly([2, 2, 2]) and not may_fly([2, 2, 2], has_flight=False)


def test_interrupt_costs():
    assert interrupt_cost("reroll") == 1 and interrupt_cost("counter") == 2 and interrupt_cost("emergency_flight") == 2
    assert interrupt_cost("evasion", head_destroyed=True) == 2 and interrupt_cost("counter_fire", times=3) == 3
    with pytest.raises(ValueError, match="unknown interrupt action 'dodge'"):
        interrupt_cost("dodge")
    with pytest.raises(ValueError, match="once per turn"):
        interrupt_cost("reroll", times=2)


def test_counter_fire_and_counter():
    assert may_counter_fire(True).allowed and not may_counter_fire(True, declared_melee=True).allowed
    assert not may_counter_fire(True, weapon_kind="ミサイル").allowed and not may_counter_fire(False).allowed
    c = counter(10, 14)
    assert (c.attacker_takes, c.defender_takes) == (4, 0)
    assert counter(10, 14, "full").attacker_takes == 14 and counter(10, 6).defender_takes == 4


def test_action_reroll_and_counter_fire_budget():
    from rules_lib.nemesis import action_reroll, may_counter_fire_against

    r = action_reroll([1, 2, 3], 0, 6)
    assert r.dice == (6, 2, 3) and r.dice_rerolled == 1 and r.active_spent == 1
    assert action_reroll([1, 2, 3], 0, 6, head_destroyed=True).active_spent == 2
    with pytest.raises(ValueError, match="once per turn"):
        action_reroll([1, 2, 3], 0, 6, used_this_turn=1)
    with pytest.raises(ValueError, match="position 3"):
        action_reroll([1, 2, 3], 3, 6)
    assert may_counter_fire_against(3, 2) == 2 and may_counter_fire_against(3, 2, head_destroyed=True) == 1
    assert intercept_check([6], [1], True, damage=9).damage_dealt == 9
    assert stealth_check([4], [4]).opponent_loses_turn


def test_after_damage_order_refuses_only_the_fall_check_before_evasion():
    """002 §4-1, line 229: evasion before the fall check; no other pair is ordered."""
    assert after_damage_order(["evasion", "fall"]) == ("evasion", "fall")
    assert after_damage_order(("interception", "fall", "defence")) == ("interception", "fall", "defence")
    assert after_damage_order(["evasion", "defence", "fall"]) == ("evasion", "defence", "fall")
    assert after_damage_order([]) == ()
    with pytest.raises(ValueError, match=r"the fall check \(転倒\) comes after the defender's evasion check .*line 229"):
        after_damage_order(["defence", "fall", "interception", "evasion"])


def test_after_damage_order_refuses_names_and_non_sequences_it_does_not_know():
    assert AFTER_DAMAGE_CHECKS == ("evasion", "interception", "defence", "fall")  # lines 223-229, in order
    with pytest.raises(ValueError, match=r"checks after damage \['dodge'\] unknown: the text lists evasion, interception, "
                                         r"defence, fall"):
        after_damage_order(["evasion", "dodge"])
    with pytest.raises(TypeError, match=r"must be a sequence of names, not 'fall'"):
        after_damage_order("fall")
    with pytest.raises(TypeError, match=r"not \{'fall'\}"):
        after_damage_order({"fall"})


def test_evasion_on_the_higher_parameter_rolls_whichever_is_higher():
    """002 §H6, line 431 (高い方を使っても構いません): the higher of mobility and agility, either way round."""
    unit = load_silhouette()
    nimble = replace(unit, parameters={**unit.parameters, "mobility": 1, "agility": 3})
    steady = replace(unit, parameters={**unit.parameters, "mobility": 3, "agility": 1})
    assert evasion_parameter(nimble) == ("agility", 3)
    assert evasion_parameter(steady) == ("mobility", 3)
    assert evasion_parameter(steady, "agility") == ("agility", 1)


def test_a_contest_s_working_says_equal_or_more():
    """002 §H5, line 397, §H6, lines 419, 433: stealth, interception and evasion succeed on equal or more."""
    assert stealth_check([3], [3]).steps[-1].startswith("3 >= 3? yes")


def test_what_a_fall_does_to_each_side():
    """002 §H5, lines 363-365: the fallen second player loses the rest of its turn; a first player
    felled by the second player's attack rolls one die fewer next turn, and may still act."""
    first = fall_consequences(False)
    assert (first.loses_rest_of_turn, first.action_dice_lost_next_turn, first.cannot_act_next_turn) == (False, 1, False)
    second = fall_consequences(True)
    assert (second.loses_rest_of_turn, second.action_dice_lost_next_turn, second.cannot_act_next_turn) == (True, 0, False)


def test_interrupts_are_used_at_least_once_and_reroll_a_die_that_is_there():
    with pytest.raises(ValueError, match="times 0"):
        interrupt_cost("evasion", times=0)
    with pytest.raises(ValueError, match="position -1"):
        action_reroll([1, 2, 3], -1, 6)
