"""Time the Nemesis exact-odds helpers against brute-force enumeration, and the calculators' update.

Run: python benchmarks/bench_nemesis.py. Prints, for each case, the best time of several runs
and the ratio  brute force / helper; then each calculator's median update with inputs new to every
memo (``updates.py``) beside the 2 ms goal. Not a test: nothing here asserts a time. For a single d20 or 3D6 roll, brute force
over 20 or 216 outcomes is faster than the general expression route (parse, icepool, fractions); the
helpers pay off on the pools and the duel.
"""

from __future__ import annotations

import timeit
from collections import Counter
from fractions import Fraction
from itertools import product

import updates  # benchmarks/updates.py: a calculator's update with new inputs

from rules_lib.dice.shapes import pattern_distribution
from rules_lib.nemesis import (
    damage_distribution,
    duel_odds,
    enumerate_attack_counts,
    enumerate_duel_odds,
    fall_chance,
    load_silhouette,
    penetration_chance,
    read_pattern,
    weapon_from_dict,
)
from rules_lib.nemesis.action import attack_count_distribution
from rules_lib.nemesis.melee import _key_counts
from rules_lib.widgets.nemesis import (
    ActionDiceCalculator,
    ArmourCalculator,
    MeleeDuelCalculator,
    OpposedPoolsCalculator,
)


def best(function, number: int = 3, repeat: int = 5) -> float:
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number



SOLDIER = load_silhouette()
RAPID = weapon_from_dict({"name": "rapid 34(5)", "attack": "1D20", "damage": "1D6",
                          "proper_range": "34(5)", "abilities": ["連射"]})


def brute_patterns():
    return Counter(read_pattern(r).pattern for r in product(range(1, 7), repeat=3))


def brute_pools(n: int, m: int):
    return Fraction(sum(sum(a) > sum(b) for a in product(range(1, 7), repeat=n)
                        for b in product(range(1, 7), repeat=m)), 6 ** (n + m))


def brute_penetration():
    return Fraction(sum(d + 1 > 6 for d in range(1, 21)), 20)


def brute_damage():
    return Counter(max(sum(r) + 2, 1) for r in product(range(1, 7), repeat=3))


def fresh_duel():
    _key_counts.cache_clear()
    return duel_odds()


def kept_duel():
    _key_counts.cache_clear()
    return duel_odds((6, 6))


CASES = [
    # pattern_odds is cached; time the uncached computation behind it
    ("3D6 patterns (uncached)", lambda: pattern_distribution.__wrapped__(), brute_patterns),
    ("attacks, rapid 34(5) (216 rolls)", lambda: attack_count_distribution(RAPID), lambda: enumerate_attack_counts(RAPID)),
    ("fall 3D6 vs 3D6", lambda: fall_chance(3, 3), lambda: brute_pools(3, 3)),
    ("penetration 1D20+1 > 6", lambda: penetration_chance("1D20＋1", 6), brute_penetration),
    ("damage 3D6+2, attenuation 0", lambda: damage_distribution("3D6＋2", 0), brute_damage),
    ("duel, fresh vs fresh (46,656 pairs)", fresh_duel, enumerate_duel_odds),
    ("duel, keep 6-6 vs fresh (1,296 pairs)", kept_duel, lambda: enumerate_duel_odds((6, 6))),
]


def calculator_changes():
    """Each calculator and the changes a reader tries, one input at a time."""
    action = ActionDiceCalculator()
    armour = ArmourCalculator()
    pools = OpposedPoolsCalculator()
    duel = MeleeDuelCalculator()
    return [
        ("action dice: proper range, rapid fire", [(action.proper_range, v) for v in ("3", "234", "56(4)", "34(5)")]
         + [(action.rapid_fire, True), (action.rapid_fire, False)]),
        ("armour: armour value, dice", [(armour.armour, v) for v in (4, 8, 10, 14, 6)]
         + [(armour.attack, "1D20＋3"), (armour.damage, "4D6"), (armour.damage, "3D6＋2"), (armour.attack, "1D20＋1")]),
        ("opposed pools: dice, check", [(pools.first_dice, v) for v in (3, 4, 6, 2)]
         + [(pools.check, "fall"), (pools.check, "evasion")]),
        ("melee duel: kept dice, readings", [(duel.kept_a, v) for v in ("6,6", "2,3,4", "5", "")]
         + [(duel.kept_b, "6,6"), (duel.pair_key, "sum"), (duel.kept_b, ""), (duel.pair_key, "pair_value")]),
    ]


def main() -> None:
    print(f"{'case':40} {'helper':>10} {'brute':>10} {'brute/helper':>13}")
    for name, helper, brute in CASES:
        t_helper = best(helper)
        t_brute = best(brute, number=1, repeat=3)
        print(f"{name:40} {t_helper * 1e3:8.3f}ms {t_brute * 1e3:8.2f}ms {t_brute / t_helper:12.1f}x")
    print()
    updates.report(calculator_changes())
    print(f"(SS-01 sheet load: {best(lambda: load_silhouette(SOLDIER.model)) * 1e3:.3f} ms)")


if __name__ == "__main__":
    main()
