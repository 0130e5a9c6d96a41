"""Time the WIS6 exact-odds helpers against brute-force enumeration, and the calculators' updates.

Run: python benchmarks/bench_wis6.py (or make bench). Prints the best time of several runs and
the ratio  brute force / helper.  The helpers are timed without their caches (``__wrapped__``),
so each run does the whole computation. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import statistics
import timeit
from collections import Counter
from itertools import product

from rules_lib.widgets.wis6 import AttackCalculator, CounterCalculator, GrowthPlanner, SuccessLevelCalculator
from rules_lib.wis6 import DEFAULT_RULES, resolve_attack, resolve_counter, success_roll
from rules_lib.wis6.attack import _attack_odds
from rules_lib.wis6.counter import _counter_odds
from rules_lib.wis6.levels import _level_counts


def best(function, number: int = 3, repeat: int = 5) -> float:
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number

def median(function, calls: int = 15) -> float:
    """The median of single calls: a calculator update as a reader meets it (goal: under 2 ms)."""
    return statistics.median(timeit.repeat(function, number=1, repeat=calls))



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


def brute_counter(attack_ability, counter_ability, kwargs):
    outcomes = Counter()
    for a, c in product(range(1, 21), repeat=2):
        outcomes[resolve_counter(a, attack_ability, c, counter_ability, **kwargs).outcome] += 1
    return outcomes


COUNTER = dict(enemy_weapon_attack=10, own_armour=4, own_ap=30, own_weapon_attack=8)

CASES = [
    ("success levels, ability 20",
     lambda: uncached(_level_counts)(20, DEFAULT_RULES), lambda: brute_levels(20)),
    ("attack 16 vs 12, weapon 10, armour 5",
     lambda: uncached(_attack_odds)(16, 12, 10, 5, False, DEFAULT_RULES), lambda: brute_attack(16, 12, 10, 5, False)),
    ("attack 40 vs 40, covering",
     lambda: uncached(_attack_odds)(40, 40, 12, 7, True, DEFAULT_RULES), lambda: brute_attack(40, 40, 12, 7, True)),
    ("counter 14 vs 16, AP 30",
     lambda: uncached(_counter_odds)(14, 16, 10, 4, 30, 8, None, DEFAULT_RULES), lambda: brute_counter(14, 16, COUNTER)),
]


def calculator_updates():
    """Each calculator, one input changed: the time of one update (a fresh value each run, so no cache hit)."""
    level, attack, counter, growth = SuccessLevelCalculator(), AttackCalculator(), CounterCalculator(), GrowthPlanner()
    values = iter(range(1, 10**6))

    def set_level():
        level.ability.value = next(values) % 900 + 1

    def set_attack():
        attack.weapon_attack.value = next(values) % 900

    def set_counter():
        counter.own_ap.value = next(values) % 900 + 1

    def set_growth():
        growth.buy_ap.value = next(values) % 5

    return [("success-level calculator", set_level), ("attack calculator", set_attack),
            ("counter calculator", set_counter), ("growth planner", set_growth)]


def main() -> None:
    print(f"{'case':38} {'helper':>10} {'brute':>10} {'brute/helper':>13}")
    for name, helper, brute in CASES:
        t_helper = best(helper)
        t_brute = best(brute, number=1, repeat=3)
        print(f"{name:38} {t_helper * 1e3:8.3f}ms {t_brute * 1e3:8.2f}ms {t_brute / t_helper:12.1f}x")
    print()
    print(f"{'calculator update':38} {'best':>10} {'median':>10}  (goal: median under 2 ms)")
    for name, update in calculator_updates():
        print(f"{name:38} {best(update, number=5, repeat=5) * 1e3:8.3f}ms {median(update) * 1e3:8.3f}ms")


if __name__ == "__main__":
    main()
