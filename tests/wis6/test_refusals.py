"""WIS6's refusals, each on the side it refuses and, beside it, the nearest case it accepts.

`make mutation` found these guards unchecked: dropping any of them changed no value of the book
and failed no test. Each case names the input the guard exists for.
"""

from rules_lib.wis6 import (
    Combatant,
    Wis6Error,
    check_support,
    declare_cooperation,
    highest_roll_for_level,
    initiative_order,
    parse_square,
)
from rules_lib.wis6.growth import GrowthPlan, Sheet, apply_growth
from tests.refusal_cases import refusal_tests

SHEET = Sheet(abilities={"reaction": 12}, ap=20, armour=3, mobility=3, weapons={"rifle": 10}, pilot_points=5)

REFUSED = {
    "a square that is not text": lambda: parse_square(3),
    "row 0": lambda: parse_square("A-0"),
    "a combatant without a name": lambda: Combatant(" ", 12, 3),
    "an action order of no one": lambda: initiative_order([]),
    "tie-break dice and a seed": lambda: initiative_order([Combatant("A", 12, 3)], dice=[1], seed=1),
    "cooperating with oneself": lambda: declare_cooperation("Asuka", "Asuka"),
    "a partner without a name": lambda: declare_cooperation("Asuka", ""),
    "a support check of an action that supports no one": lambda: check_support("counter", ally="Asuka"),
    "covering without a distance": lambda: check_support("covering", ally="Asuka"),
    "interception without the weapon's range": lambda: check_support("interception", ally="Asuka", distance=1),
    "a combination without the partner's range": lambda: check_support(
        "combination", ally="Asuka", distance=1, weapon_range=3),
    "the threshold of level 0": lambda: highest_roll_for_level(0, 12),
    "a growth scope the library does not know": lambda: apply_growth(SHEET, GrowthPlan(), weapon_attack_scope="x"),
    "an ability without a name": lambda: Sheet(abilities={" ": 12}, ap=20, armour=3, mobility=3),
}

ACCEPTED = {
    "a square name": lambda: parse_square("A-1"),
    "a combatant": lambda: Combatant("A", 12, 3),
    "an action order of one": lambda: initiative_order([Combatant("A", 12, 3)]),
    "cooperating with another": lambda: declare_cooperation("Asuka", "Rei"),
    "covering at a distance": lambda: check_support("covering", ally="Asuka", distance=1),
    "interception in range": lambda: check_support("interception", ally="Asuka", distance=1, weapon_range=3),
    "a combination with both in range": lambda: check_support(
        "combination", ally="Asuka", distance=1, weapon_range=3, ally_in_range=True),
    "the threshold of level 1": lambda: highest_roll_for_level(1, 12),
    "growth of every weapon": lambda: apply_growth(SHEET, GrowthPlan(), weapon_attack_scope="all_weapons"),
}


test_the_rule_refuses, test_the_rule_accepts_the_nearest_allowed_case = refusal_tests(REFUSED, ACCEPTED, Wis6Error)
