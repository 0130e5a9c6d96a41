"""Time the Nemesis exact-odds helpers against brute-force enumeration, and the calculators' update.

Run: python benchmarks/bench_nemesis.py. Prints, for each case, the best time of several runs
and the ratio  brute force / helper; then how long each calculator takes to recompute after an
input changes. Not a test: nothing here asserts a time. For a single d20 or 3D6 roll, brute force
over 20 or 216 outcomes is faster than the general expression route (parse, icepool, fractions); the
helpers pay off on the pools and the duel.
"""

from __future__ import annotations

import statistics
import timeit
from collections import Counter
from fractions import Fraction
from itertools import product

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
from rules_lib.nemesis.melee import _key_distribution
from rules_lib.widgets.nemesis import (
    ActionDiceCalculator,
    ArmourCalculator,
    MeleeDuelCalculator,
    OpposedPoolsCalculator,
)


def best(function, number: int = 3, repeat: int = 5) -> float:
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number

def median(function, calls: int = 15) -> float:
    """The median of single calls: a calculator update as a reader meets it (goal: under 2 ms)."""
    return statistics.median(timeit.repeat(function, number=1, repeat=calls))



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
    _key_distribution.cache_clear()
    return duel_odds()


def kept_duel():
    _key_distribution.cache_clear()
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


def calculator_updates():
    soldier = load_silhouette()
    action = ActionDiceCalculator()
    armour = ArmourCalculator()
    pools = OpposedPoolsCalculator()
    duel = MeleeDuelCalculator()
    flips = {"action": iter(["3", "34(5)"] * 1000), "duel": iter(["6,6", "2,3,4", ""] * 1000)}
    return [
        ("ActionDiceCalculator: proper range", lambda: setattr(action.proper_range, "value", next(flips["action"]))),
        ("ArmourCalculator: armour", lambda: setattr(armour.armour, "value", (armour.armour.value + 1) % 20)),
        ("OpposedPoolsCalculator: dice", lambda: setattr(pools.first_dice, "value", pools.first_dice.value % 8 + 1)),
        ("MeleeDuelCalculator: kept dice (cache cleared)",
         lambda: (_key_distribution.cache_clear(), setattr(duel.kept_a, "value", next(flips["duel"])))),
        ("(SS-01 sheet load)", lambda: load_silhouette(soldier.model)),
    ]


def main() -> None:
    print(f"{'case':40} {'helper':>10} {'brute':>10} {'brute/helper':>13}")
    for name, helper, brute in CASES:
        t_helper = best(helper)
        t_brute = best(brute, number=1, repeat=3)
        print(f"{name:40} {t_helper * 1e3:8.3f}ms {t_brute * 1e3:8.2f}ms {t_brute / t_helper:12.1f}x")
    print()
    print(f"{'calculator update':48} {'best':>10} {'median':>10}  (goal: median under 2 ms)")
    for name, update in calculator_updates():
        print(f"{name:48} {best(update, number=5, repeat=5) * 1e3:8.3f}ms {median(update) * 1e3:8.3f}ms")


if __name__ == "__main__":
    main()
