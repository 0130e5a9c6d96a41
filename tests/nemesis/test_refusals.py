"""The Nemesis rules' refusals, each on the side it refuses and, beside it, the nearest case it accepts.

`make mutation` found these guards unchecked: dropping any of them changed no value of the book
and failed no test. Each case names the input the guard exists for.
"""

from rules_lib.nemesis import load_silhouette
from rules_lib.nemesis.abilities import counter
from rules_lib.nemesis.action import read_pattern, swap_needed, weapon_swap
from rules_lib.nemesis.damage import damage_after_attenuation, destruction_effects, hit_location
from rules_lib.nemesis.melee import duel_key, multi_hit_allowed, reroll
from rules_lib.nemesis.silhouette import grip_defaults, weapon_from_dict
from tests.refusal_cases import refusal_tests

RIFLE = load_silhouette("SS-01").weapons[0]

REFUSED = {
    "a counter reading the library does not offer": lambda: counter(3, 5, reading="half"),
    "a pattern of two dice": lambda: read_pattern([3, 3]),
    "a swap that names no die": lambda: weapon_swap([1, 2, 3], None),
    "a grip change without the new grip": lambda: swap_needed(grip_from="one-handed"),
    "a damage multiplier of 4": lambda: damage_after_attenuation(5, 0, melee=True, multiplier=4),
    "a body the hit-location table does not know": lambda: hit_location(3, body="tank"),
    "the same part destroyed twice": lambda: destruction_effects(["head", "head"]),
    "a melee phase that is neither approach nor duel": lambda: multi_hit_allowed("shooting"),
    "a duel key of two dice": lambda: duel_key([4, 4]),
    "a reroll of a two-dice roll": lambda: reroll([4, 4], [0], [6]),
    "a reroll with fewer new faces than positions": lambda: reroll([4, 4, 1], [0, 1], [6]),
    "a weapon with a field sheets do not have": lambda: weapon_from_dict({"name": "x", "colour": "red"}),
    "a declared weapon that is neither ranged nor melee": lambda: grip_defaults(1, declared="shield"),
}

ACCEPTED = {
    "the text's counter reading": lambda: counter(3, 5, reading="difference"),
    "a pattern of three dice": lambda: read_pattern([3, 3, 1]),
    "a swap that gives up a die": lambda: weapon_swap([1, 2, 3], 1),
    "a grip change to two hands": lambda: swap_needed(grip_from="one-handed", grip_to="two-handed"),
    "a damage multiplier of 3": lambda: damage_after_attenuation(5, 0, melee=True, multiplier=3),
    "a humanoid's hit location": lambda: hit_location(3, body="humanoid"),
    "two different parts destroyed": lambda: destruction_effects(["head", "torso"]),
    "the duel": lambda: multi_hit_allowed("duel"),
    "a duel key of three dice": lambda: duel_key([4, 4, 1]),
    "a reroll of one die": lambda: reroll([4, 4, 1], [2], [6]),
    "a declared melee weapon": lambda: grip_defaults(1, melee_weapons=1, declared="melee"),
    "a weapon of the sheet's fields": lambda: weapon_from_dict({"name": RIFLE.name, "attack": "1D20+1",
                                                                "damage": "3D6+2", "proper_range": "34"}),
}


test_the_rule_refuses, test_the_rule_accepts_the_nearest_allowed_case = refusal_tests(REFUSED, ACCEPTED, ValueError)
