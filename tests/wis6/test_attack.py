from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.wis6 import (
    OUTCOMES,
    Wis6Error,
    Wis6Rules,
    attack_odds,
    damage,
    effective_armour,
    outcome_of,
    resolve_attack,
)

RULE_VARIANTS = [
    Wis6Rules(),
    Wis6Rules(halving="up", armour_halving="up", minimum_damage=1),
    Wis6Rules(damage_level="margin", critical_on_equal="middle", failed_attack="compare"),
    Wis6Rules(critical_level="fixed", fixed_critical_level=32),
]


def brute_force(attack_ability, evasion_ability, weapon_attack, armour, covering, rules):
    outcomes, damages = Counter(), Counter()
    for a, d in product(range(1, 21), repeat=2):
        result = resolve_attack(a, attack_ability, d, evasion_ability, weapon_attack, armour, covering=covering, rules=rules)
        outcomes[result.outcome] += 1
        damages[result.damage or 0] += 1
    return outcomes, damages


@pytest.mark.parametrize("rules", RULE_VARIANTS)
@pytest.mark.parametrize(
    "attack_ability,evasion_ability,weapon_attack,armour,covering",
    [(16, 12, 10, 5, False), (12, 16, 7, 3, True), (5, 40, 3, 9, False), (32, 32, 11, 4, True), (1, 1, 0, 0, False)],
)
def test_attack_odds_match_all_400_pairs_of_rolls(attack_ability, evasion_ability, weapon_attack, armour, covering, rules):
    odds = attack_odds(attack_ability, evasion_ability, weapon_attack, armour, covering=covering, rules=rules)
    outcomes, damages = brute_force(attack_ability, evasion_ability, weapon_attack, armour, covering, rules)
    assert odds.outcomes == {o: Fraction(outcomes[o], 400) for o in OUTCOMES}
    assert odds.damage.probabilities == {v: Fraction(n, 400) for v, n in damages.items()}
    assert odds.mean_damage == Fraction(sum(v * n for v, n in damages.items()), 400)


def test_the_three_damage_formulas():
    assert damage("hit", 10, 4, 5).value == 9
    assert damage("critical", 10, 16, 5).value == 47
    assert damage("equal", 10, 4, 5).value == 2
    assert damage("equal", 10, 5, 5).value == 2  # 15 / 2 = 7.5 rounds down
    assert damage("equal", 10, 5, 5, Wis6Rules(halving="up")).value == 3


def test_damage_below_zero_is_floored():
    result = damage("hit", 3, 1, 9)
    assert result.raw == -5 and result.value == 0
    assert damage("hit", 3, 1, 9, Wis6Rules(minimum_damage=1)).value == 1


def test_outcomes_compare_levels():
    assert outcome_of(4, False, 8) == "evaded"
    assert outcome_of(4, False, 4) == "equal"
    assert outcome_of(4, False, 2) == "hit"
    assert outcome_of(16, True, 2) == "critical"
    assert outcome_of(16, True, 32) == "evaded"  # not an automatic hit
    assert outcome_of(16, True, 16) == "critical"
    assert outcome_of(16, True, 16, Wis6Rules(critical_on_equal="middle")) == "equal"
    assert outcome_of(0, False, 0) == "missed"
    assert outcome_of(0, False, 0, Wis6Rules(failed_attack="compare")) == "equal"


def test_resolve_attack_shows_its_working():
    result = resolve_attack(3, 16, 9, 12, 10, 5)
    assert (result.outcome, result.damage) == ("hit", 9)
    assert result.steps[-1] == "evasion failed: (10 + 4) − 5 = 9"
    evaded = resolve_attack(7, 12, 4, 16, 10, 3)
    assert evaded.outcome == "evaded" and evaded.damage is None and not evaded.damage_calculated


def test_covering_halves_the_armour():
    assert effective_armour(8, covering=True) == 4
    assert effective_armour(7, covering=True) == 3
    assert effective_armour(7, covering=True, rules=Wis6Rules(armour_halving="up")) == 4
    assert resolve_attack(3, 16, 9, 12, 10, 8, covering=True).damage == 10


def test_bad_damage_inputs():
    with pytest.raises(Wis6Error, match="calculates no damage"):
        damage("evaded", 10, 4, 5)
    with pytest.raises(Wis6Error, match="'graze' is not one of"):
        damage("graze", 10, 4, 5)
    with pytest.raises(Wis6Error, match="armour -1 is below 0"):
        attack_odds(12, 12, 10, -1)
    with pytest.raises(Wis6Error, match="attack ability 0 is too low"):
        attack_odds(0, 12, 10, 1)
