"""Time the WIS6 exact-odds helpers against brute-force enumeration, and the calculators' updates.

Run: python benchmarks/bench_wis6.py (or make bench). Prints the best time of several runs and
the ratio  brute force / helper.  The helpers are timed without their caches (``__wrapped__``),
so each run does the whole computation; then each calculator's median update with inputs new to every
memo (``updates.py``) beside the 2 ms goal. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import timeit
from collections import Counter
from itertools import product

import updates  # benchmarks/updates.py: a calculator's update with new inputs

from rules_lib.widgets.wis6 import AttackCalculator, CounterCalculator, GrowthPlanner, SuccessLevelCalculator
from rules_lib.wis6 import DEFAULT_RULES, CounterValues, resolve_attack, resolve_counter, success_roll
from rules_lib.wis6.attack import _attack_odds
from rules_lib.wis6.counter import _counter_odds
from rules_lib.wis6.levels import _level_counts


def best(function, number: int = 3, repeat: int = 5) -> float:
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number



def uncached(function):
    def run(*args):
        _level_counts.cache_clear()
        return function.__wrapped__(*args)
    return run


def brute_levels(ability: int):
    return Counter(success_roll(r, ability).level for r in range(1, 21))


def brute_attack(attack_ability, evasion_ability, weapon_attack, armour, covering):
    outcomes, damages = Counter(), Counter()
    for a, d in product(range(1, 21), repeat=2):
        result = resolve_attack(a, attack_ability, d, evasion_ability, weapon_attack, armour, covering=covering)
        outcomes[result.outcome] += 1
        damages[result.damage or 0] += 1
    return outcomes, damages


def brute_counter(attack_ability, counter_ability, values):
    outcomes = Counter()
    for a, c in product(range(1, 21), repeat=2):
        outcomes[resolve_counter(a, attack_ability, c, counter_ability, values).outcome] += 1
    return outcomes


COUNTER = CounterValues(enemy_weapon_attack=10, own_armour=4, own_ap=30, own_weapon_attack=8)

CASES = [
    ("success levels, ability 20",
     lambda: uncached(_level_counts)(20, DEFAULT_RULES), lambda: brute_levels(20)),
    ("attack 16 vs 12, weapon 10, armour 5",
     lambda: uncached(_attack_odds)(16, 12, 10, 5, False, DEFAULT_RULES), lambda: brute_attack(16, 12, 10, 5, False)),
    ("attack 40 vs 40, covering",
     lambda: uncached(_attack_odds)(40, 40, 12, 7, True, DEFAULT_RULES), lambda: brute_attack(40, 40, 12, 7, True)),
    ("counter 14 vs 16, AP 30",
     lambda: uncached(_counter_odds)(14, 16, COUNTER, DEFAULT_RULES), lambda: brute_counter(14, 16, COUNTER)),
]


def calculator_changes():
    """Each calculator and the changes a reader tries, one input at a time."""
    level, attack, counter, growth = SuccessLevelCalculator(), AttackCalculator(), CounterCalculator(), GrowthPlanner()
    return [
        ("success-level calculator: ability", [(level.ability, v) for v in (12, 15, 25, 33, 48, 90, 20)]),
        ("attack calculator: weapon attack, armour", [(attack.weapon_attack, v) for v in (12, 15, 20, 8)]
         + [(attack.armour, v) for v in (3, 8, 12)] + [(attack.covering, True), (attack.covering, False)]),
        ("attack calculator: abilities", [(attack.attack_ability, v) for v in (18, 22, 30)]
         + [(attack.evasion_ability, v) for v in (10, 16, 25)]),
        ("counter calculator: own AP, abilities", [(counter.own_ap, v) for v in (20, 45, 60, 10)]
         + [(counter.counter_ability, v) for v in (12, 20, 30)]),
        ("growth planner: purchases", [(growth.buy_ap, v) for v in (1, 2, 3)] + [(growth.buy_armour, v) for v in (1, 2)]),
    ]


def main() -> None:
    print(f"{'case':38} {'helper':>10} {'brute':>10} {'brute/helper':>13}")
    for name, helper, brute in CASES:
        t_helper = best(helper)
        t_brute = best(brute, number=1, repeat=3)
        print(f"{name:38} {t_helper * 1e3:8.3f}ms {t_brute * 1e3:8.2f}ms {t_brute / t_helper:12.1f}x")
    print()
    updates.report(calculator_changes())


if __name__ == "__main__":
    main()
