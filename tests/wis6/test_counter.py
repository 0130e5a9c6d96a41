import math
from collections import Counter
from dataclasses import fields, replace
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.wis6 import (
    COUNTER_OUTCOMES,
    CounterValues,
    Wis6Error,
    Wis6Rules,
    counter_damage,
    counter_odds,
    resolve_counter,
)


def test_counter_outcomes():
    higher = counter_damage(4, 2, 8)
    assert (higher.outcome, higher.damage) == ("higher", 24)
    equal = counter_damage(4, 4, 8)
    assert (equal.outcome, equal.damage) == ("equal", 12)
    lower = counter_damage(2, 4, 8)
    assert (lower.outcome, lower.damage, lower.succeeded) == ("lower", None, False)
    assert counter_damage(0, 0, 8).outcome == "lower"


def test_counter_readings():
    assert counter_damage(4, 2, 8, critical=True).damage == 24
    assert counter_damage(4, 2, 8, critical=True, rules=Wis6Rules(counter_critical="double")).damage == 48
    subtract = Wis6Rules(counter_armour="subtract")
    assert counter_damage(4, 2, 8, enemy_armour=5, rules=subtract).damage == 19
    with pytest.raises(Wis6Error, match="enemy_armour is needed"):
        counter_damage(4, 2, 8, rules=subtract)


def test_the_declarer_takes_the_hit_first_and_may_be_wrecked():
    result = resolve_counter(5, 14, 3, 16, CounterValues(enemy_weapon_attack=10, own_armour=4, own_ap=30, own_weapon_attack=8))
    assert (result.self_damage, result.ap_after, result.outcome, result.enemy_damage) == (8, 22, "higher", 24)
    wrecked = resolve_counter(5, 14, 3, 16, CounterValues(enemy_weapon_attack=10, own_armour=4, own_ap=8, own_weapon_attack=8))
    assert wrecked.wrecked and wrecked.outcome == "wrecked" and wrecked.enemy_damage is None
    # a failed attack roll still hurts: the counter gave up evasion
    failed = resolve_counter(15, 14, 3, 16, CounterValues(enemy_weapon_attack=10, own_armour=4, own_ap=30, own_weapon_attack=8))
    assert failed.self_damage == 6 and failed.self_takes_damage


@pytest.mark.parametrize("rules", [Wis6Rules(), Wis6Rules(counter_critical="double", counter_armour="subtract")])
@pytest.mark.parametrize("attack_ability,counter_ability,ap", [(14, 16, 30), (20, 8, 12), (32, 32, 60), (3, 1, 1)])
def test_counter_odds_match_all_400_pairs(attack_ability, counter_ability, ap, rules):
    values = CounterValues(enemy_weapon_attack=10, own_armour=4, own_ap=ap, own_weapon_attack=8, enemy_armour=3)
    outcomes, taken, dealt = Counter(), Counter(), Counter()
    for a, c in product(range(1, 21), repeat=2):
        result = resolve_counter(a, attack_ability, c, counter_ability, values, rules=rules)
        outcomes[result.outcome] += 1
        taken[result.self_damage] += 1
        dealt[result.enemy_damage or 0] += 1
    odds = counter_odds(attack_ability, counter_ability, values, rules=rules)
    assert odds.outcomes == {o: Fraction(outcomes[o], 400) for o in COUNTER_OUTCOMES}
    assert odds.self_damage.probabilities == {v: Fraction(n, 400) for v, n in taken.items()}
    assert odds.enemy_damage.probabilities == {v: Fraction(n, 400) for v, n in dealt.items()}
    assert odds.counter_lands + odds.wrecked + odds.outcomes["lower"] == 1


def test_counter_needs_a_standing_unit():
    with pytest.raises(Wis6Error, match="AP 0 is below 1"):
        counter_odds(10, 10, CounterValues(enemy_weapon_attack=1, own_armour=0, own_ap=0, own_weapon_attack=1))


@pytest.mark.parametrize("field", [f.name for f in fields(CounterValues) if f.type == "int"])
@pytest.mark.parametrize("bad", [1.5, math.nan, "abc", None])
def test_a_bad_counter_value_is_refused_by_both_functions(field, bad):
    """What tests/hostile asks of every rule function's whole-number parameters, for the values object."""
    values = replace(CounterValues(3, 3, 3, 3), **{field: bad})
    with pytest.raises(ValueError, match="."):
        resolve_counter(3, 3, 3, 3, values)
    with pytest.raises(ValueError, match="."):
        counter_odds(3, 3, values)


def test_resolve_counter_ap_bound():
    # 001 §4-5: only a standing unit counters, so AP 0 is refused and AP 1 accepted.
    values = CounterValues(enemy_weapon_attack=1, own_armour=0, own_ap=0, own_weapon_attack=1)
    with pytest.raises(Wis6Error, match="AP 0 is below 1"):
        resolve_counter(5, 14, 3, 16, values)
    assert resolve_counter(5, 14, 3, 16, replace(values, own_ap=1)).ap_after <= 1


def test_counter_damage_not_critical_by_default():
    # Under the 'double' ruling a counter is doubled only when critical is passed: the default is False.
    double = Wis6Rules(counter_critical="double")
    assert counter_damage(4, 2, 8, rules=double).damage == 24
    assert counter_damage(4, 2, 8, critical=True, rules=double).damage == 48
