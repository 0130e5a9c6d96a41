"""Attack, evasion, damage and exact odds (004 §3-4-2-2), cross-checked by enumeration."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.verse_world import (
    CriticalRule,
    attack_odds,
    attack_roll,
    can_melee,
    damage_expression,
    damage_taken,
    evasion_roll,
    fumble_check,
    in_firing_arc,
    resolve_attack,
)

NONE = CriticalRule.none()
DICE = list(product(range(1, 7), repeat=2))


def test_long_sword_expressions():
    assert damage_expression("3D6", 3) == "3D6+3"
    assert damage_expression("3D6", 3, rolls=2) == "3D6+3D6+3"
    assert damage_expression("3D6", 3, rolls=3) == "3D6+3D6+3D6+3"
    assert damage_expression("2D6", 3, bonus_applies=False) == "2D6"


def test_critical_rule_must_be_given_and_cannot_include_double_ones():
    with pytest.raises(TypeError):
        attack_odds(5, 5)  # no silent default for the undefined criticals
    with pytest.raises(ValueError, match="cannot be critical"):
        CriticalRule("bad", frozenset({(1, 1)}))
    rule = CriticalRule.natural_total(12, None)
    assert rule.kind((6, 6)) == "critical" and rule.kind((1, 1)) == "fumble" and rule.kind((5, 6)) == "normal"


def test_resolution_cases():
    atk = attack_roll(5, [3, 4], criticals=NONE)
    assert resolve_attack(atk, evasion_roll(5, [3, 4], criticals=NONE)).hit is False  # tie: defender
    assert resolve_attack(atk, evasion_roll(5, [3, 4], criticals=NONE), tie="attacker").hit is True
    fumbled = resolve_attack(atk, evasion_roll(9, [1, 1], criticals=NONE))
    assert fumbled.hit and fumbled.direct_hit
    assert resolve_attack(attack_roll(20, [1, 1], criticals=NONE), None).attacker_fumbled
    waived = resolve_attack(atk, None)
    assert waived.hit and not waived.direct_hit and waived.damage_rolls == 1
    crit = CriticalRule.natural_total(12)
    assert resolve_attack(attack_roll(5, [6, 6], criticals=crit), None, extra_damage_rolls=2).damage_rolls == 4
    evaded = resolve_attack(attack_roll(0, [2, 3], criticals=crit), evasion_roll(0, [6, 6], criticals=crit))
    assert evaded.attacker_treated_as_fumbled


def test_damage_after_protection():
    assert damage_taken("3D6", [4, 5, 6], physical_bonus=3, protection=5).taken == 13
    assert damage_taken("3D6", [4, 5, 6], physical_bonus=3, protection=5, direct_hit=True).taken == 18
    assert damage_taken("1D6", [1], protection=5).taken == 0


def test_fumble_check():
    check = fumble_check(3, 12, [5, 4])
    assert check.success and check.outcome == "nothing"
    assert fumble_check(3, 12, [1, 2]).outcome == "drop-weapon"
    assert fumble_check(3, 12, [1, 2], armed=False).outcome == "hit-self"
    # 9-16 is the text's guidance: the GM may set it higher or lower (line 43), and the working says so
    low = fumble_check(3, 8, [4, 4])
    assert low.success and "outside the text's 9-16" in low.steps[-1]
    assert not any("outside" in step for step in check.steps)
    with pytest.raises(ValueError, match="below 0"):
        fumble_check(3, -1, [4, 4])


def test_arcs():
    assert can_melee((0, 0), "north", (1, -1)) and not can_melee((0, 0), "north", (1, 0))
    assert in_firing_arc((0, 0), "east", (7, -7)) and not in_firing_arc((0, 0), "east", (7, -8))


def brute_odds(to_hit, evasion, rule, tie, weapon_sides, bonus, protection, waive=False):
    """Enumerate every attack die, evasion die and damage die."""
    outcome = Counter()
    damage = Counter()
    ev_dice = [None] if waive else DICE
    for a in DICE:
        for e in ev_dice:
            weight = 36 if waive else 1
            a_kind = rule.kind(a)
            if a_kind == "fumble":
                outcome["attack fumble"] += weight * 36
                damage[0] += weight * 36 * 6**3
                continue
            if e is None:
                hit, direct = True, False
            elif rule.kind(e) == "fumble":
                hit, direct = True, True
            else:
                at, et = to_hit + sum(a), evasion + sum(e)
                hit = at > et or (at == et and tie == "attacker")
                direct = False
            rolls = {"normal": 1, "critical": 2, "over-critical": 3}[a_kind]
            if not hit:
                outcome["miss"] += weight * 36
                damage[0] += weight * 36 * 6**3
                continue
            outcome["hit"] += weight * 36
            # damage dice: up to 3 rolls of 1D<weapon_sides>, padded so every branch has the same weight
            for dmg in product(range(1, weapon_sides + 1), repeat=rolls):
                raw = sum(dmg) + bonus
                taken = max(raw - (0 if direct else protection), 0)
                damage[taken] += weight * 36 * 6**3 // weapon_sides**rolls
    total_o = sum(outcome.values())
    total_d = sum(damage.values())
    return ({k: Fraction(v, total_o) for k, v in outcome.items()},
            {k: Fraction(v, total_d) for k, v in damage.items()})


@pytest.mark.parametrize("to_hit,evasion,tie", [(5, 5, "defender"), (3, 6, "attacker"), (8, 2, "defender")])
@pytest.mark.parametrize("rule", [NONE, CriticalRule.natural_total(12), CriticalRule.natural_total(11, 12)])
def test_attack_odds_match_enumeration(to_hit, evasion, tie, rule):
    odds = attack_odds(to_hit, evasion, criticals=rule, tie=tie, weapon_damage="1D6", physical_bonus=1, protection=3)
    outcome, damage = brute_odds(to_hit, evasion, rule, tie, 6, 1, 3)
    assert odds.hit == outcome.get("hit", 0)
    assert odds.attacker_fumble == outcome["attack fumble"] == Fraction(1, 36)
    assert dict(odds.damage.items()) == {k: v for k, v in damage.items() if v}
    assert odds.outcomes.total() == 1


def test_waived_evasion_odds_match_enumeration():
    odds = attack_odds(4, None, criticals=NONE, weapon_damage="1D6", protection=2)
    outcome, damage = brute_odds(4, 0, NONE, "defender", 6, 0, 2, waive=True)
    assert odds.hit == outcome["hit"] == Fraction(35, 36)
    assert dict(odds.damage.items()) == damage


def test_tie_probability():
    odds = attack_odds(5, 5, criticals=NONE)
    ties = sum(1 for a in DICE for e in DICE if a != (1, 1) and e != (1, 1) and sum(a) == sum(e))
    assert odds.tie == Fraction(ties, 36 * 36)
