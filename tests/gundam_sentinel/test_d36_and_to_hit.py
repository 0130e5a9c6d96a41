from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_lib.dice import D36_RESULTS
from rules_lib.gundam_sentinel import d36
from rules_lib.gundam_sentinel.to_hit import (
    HitOptions,
    check_hit,
    evasion_value,
    hit_odds,
    to_hit_answer,
    total_modifier,
)


def test_the_texts_difference_of_4_is_counted_in_steps():
    # 000 §7-1, line 350 and §7-12, line 454: 62 against 54 is a difference of 4
    assert d36.steps_between(54, 62) == 4
    assert d36.shift(36, 14) == 62


def test_steps_beyond_66_continue_tens_and_units_and_below_11_floor():
    assert [d36.value_of(s) for s in range(34, 44)] == [65, 66, 71, 72, 73, 74, 75, 76, 81, 82]
    assert d36.shift(11, -5) == 11
    assert d36.step_of(71) == 36


@given(st.sampled_from(D36_RESULTS), st.integers(-40, 40))
def test_shift_matches_bcdice_arithmetic(value, modifier):
    # BCDice: tens += (units + m - 1) div 6, units = (units + m - 1) mod 6 + 1, total floored at 11
    tens, units = divmod(value, 10)
    tens += (units + modifier - 1) // 6
    units = (units + modifier - 1) % 6 + 1
    assert d36.shift(value, modifier) == max(11, tens * 10 + units)


@pytest.mark.parametrize("bad", ["abc", 57, 10, 60, 1.5, True])
def test_values_off_the_scale_are_refused_with_the_value_named(bad):
    with pytest.raises(ValueError, match=repr(bad).replace(".", r"\.")):
        d36.step_of(bad, "evasion")


def test_hit_needs_more_than_evasion_and_critical_needs_a_mob():
    assert check_hit(5, 4, 0, 54).hit is False
    assert check_hit(5, 5, 0, 54).hit is True and check_hit(5, 5, 0, 54).margin == 1
    assert check_hit(6, 6, 0, 54, HitOptions(target_is_mob=True)).critical
    assert not check_hit(6, 6, 0, 54).critical
    assert check_hit(1, 1, 40, 54, HitOptions(target_is_mob=True)).total == 75


def test_special_hits():
    assert check_hit(3, 3, -30, 66, HitOptions(all_range=True)).hit
    assert check_hit(3, 3, -30, 66, HitOptions(all_range=True, attacker_is_player=False)).secondary_damage
    assert not check_hit(3, 4, -30, 66, HitOptions(all_range=True)).hit
    assert check_hit(1, 2, -30, 66, HitOptions(target_pilot_fainted=True)).hit


@pytest.mark.parametrize("modifier", [-20, -3, 0, 5, 14, 40])
@pytest.mark.parametrize("evasion", [11, 33, 54, 66, 71, 86])
@pytest.mark.parametrize("mob", [False, True])
def test_hit_odds_match_brute_force(modifier, evasion, mob):
    # independent brute force: step arithmetic written out, every pair of dice
    hits = crits = 0
    for tens, units in product(range(1, 7), repeat=2):
        step = max(0, 6 * (tens - 1) + units - 1 + modifier)
        ev = 6 * (evasion // 10 - 1) + evasion % 10 - 1
        hit = step > ev
        hits += hit
        crits += mob and hit and step >= 35
    odds = hit_odds(modifier, evasion, HitOptions(target_is_mob=mob))
    assert odds.hit == Fraction(hits, 36) and odds.critical == Fraction(crits, 36)
    assert odds.margin.total() == 1


def test_the_missile_example_odds():
    assert hit_odds(14, 54).hit == Fraction(22, 36)


def test_evasion_counts_steps_and_named_modifiers():
    ev = evasion_value(54, evasive_action=True, cover=True)
    assert ev.value == 62
    assert evasion_value(54, terrain=-1, local_terrain_spec=True).value == 54
    assert evasion_value(12, riding_sfs=True).value == 11
    with pytest.raises(ValueError, match="piloting modifier 'x' is not a whole number"):
        evasion_value(54, piloting="x")


def test_modifier_totals_and_the_calculator_answer():
    assert total_modifier({"weapon": 2, "snap shot": -3}).total == -1
    answer = to_hit_answer({"weapon": 14}, 54)
    assert answer.odds.hit == Fraction(11, 18)
    with pytest.raises(ValueError, match="evasion 'abc' is not a whole number"):
        to_hit_answer({"weapon": 14}, "abc")
    with pytest.raises(ValueError, match="modifier 'weapon' 'x' is not a whole number"):
        to_hit_answer({"weapon": "x"}, 54)


@pytest.mark.parametrize("flags", [{}, {"target_is_mob": True}, {"all_range": True},
                                   {"all_range": True, "attacker_is_player": False},
                                   {"target_pilot_fainted": True}, {"target_is_mob": True, "critical_needs_hit": False}])
@pytest.mark.parametrize(("modifier", "evasion"), [(0, 54), (14, 54), (-10, 33), (30, 71), (3, 66)])
def test_hit_odds_agree_with_single_checks(flags, modifier, evasion):
    checks = [check_hit(t, u, modifier, evasion, HitOptions(**flags)) for t, u in product(range(1, 7), repeat=2)]
    odds = hit_odds(modifier, evasion, HitOptions(**flags))
    assert odds.hit == Fraction(sum(c.hit for c in checks), 36)
    assert odds.critical == Fraction(sum(c.critical for c in checks), 36)
    assert odds.margin[checks[0].margin] > 0


FLAG_NAMES = ("target_is_mob", "all_range", "attacker_is_player", "target_pilot_fainted", "critical_needs_hit",
              "doubles_critical")


@pytest.mark.parametrize("flag_values", list(product([False, True], repeat=len(FLAG_NAMES))))
def test_step_distribution_counts_agree_with_every_single_check(flag_values):
    """hit_odds and hit_table count on the precomputed step distribution; check_hit, roll by roll,
    must agree for every flag combination, modifier and evasion (including beyond 66)."""
    from rules_lib.gundam_sentinel.to_hit import hit_table

    flags = dict(zip(FLAG_NAMES, flag_values, strict=True))
    modifiers, evasions = (-20, 0, 14, 30, 40), (11, 54, 66, 71, 86)
    table = hit_table(modifiers, evasions, HitOptions(**flags))
    for modifier in modifiers:
        for evasion in evasions:
            checks = [check_hit(t, u, modifier, evasion, HitOptions(**flags)) for t, u in product(range(1, 7), repeat=2)]
            expected = (Fraction(sum(c.hit for c in checks), 36), Fraction(sum(c.critical for c in checks), 36))
            odds = hit_odds(modifier, evasion, HitOptions(**flags))
            assert (odds.hit, odds.critical) == expected == table[(modifier, evasion)]


def test_hit_table_refuses_unknown_options_and_bad_values():
    from rules_lib.gundam_sentinel.to_hit import hit_table

    with pytest.raises(ValueError, match="hit check options \\{'mob': True\\} is not a HitOptions"):
        hit_table([0], [54], {"mob": True})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mob"):
        HitOptions(mob=True)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="not on the 1D36 scale"):
        hit_table([0], [57])
