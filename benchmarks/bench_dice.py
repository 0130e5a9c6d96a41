"""Time the exact-odds helpers against brute-force enumeration and icepool's own expressions.

Run: make bench (or python benchmarks/bench_dice.py). Prints, for each case, the best
time of several runs and the ratios  brute force / helper  and  icepool / helper; then the dice
calculator's and the sheet builders' median update with inputs new to every memo (``updates.py``).
Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import timeit
from collections import Counter
from fractions import Fraction
from itertools import product

import icepool
import updates  # benchmarks/updates.py: a calculator's update with new inputs

from rules_lib.dice import (
    distribution,
    opposed_pools,
    pattern,
    pattern_distribution,
    success_level,
    success_level_distribution,
    two_d6_with_fumble,
)
from rules_lib.dice.enumeration import enumerate_distribution
from rules_lib.dice.exact import from_die
from rules_lib.widgets import DiceOddsCalculator
from rules_lib.widgets.sheets import CALCULATORS as SHEET_CALCULATORS


def best(function, number: int = 3, repeat: int = 5) -> float:
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def brute_patterns():
    counts = Counter(pattern(r) for r in product(range(1, 7), repeat=3))
    return {k: Fraction(v, 216) for k, v in counts.items()}


def brute_opposed(n: int, m: int):
    higher = sum(sum(a) > sum(b) for a in product(range(1, 7), repeat=n) for b in product(range(1, 7), repeat=m))
    return Fraction(higher, 6 ** (n + m))


def brute_levels(ability: int):
    return Counter(success_level(r, ability) for r in range(1, 21))


def brute_fumble():
    return Counter("fumble" if (a, b) == (1, 1) else a + b for a, b in product(range(1, 7), repeat=2))


CASES = [
    # name, helper, brute force, icepool's natural expression (or None)
    ("2D6>=10", lambda: distribution("2D6>=10"), lambda: enumerate_distribution("2D6>=10"),
     lambda: from_die(2 @ icepool.d6 >= 10)),
    ("1D36+14>54", lambda: distribution("1D36+14>54"), lambda: enumerate_distribution("1D36+14>54"),
     lambda: from_die(10 * icepool.d6 + icepool.d6 + 14 > 54)),
    ("4D6+2", lambda: distribution("4D6+2"), lambda: enumerate_distribution("4D6+2"),
     lambda: from_die(4 @ icepool.d6 + 2)),
    ("3D6*2-1D8", lambda: distribution("3D6*2-1D8"), lambda: enumerate_distribution("3D6*2-1D8"),
     lambda: from_die(3 @ icepool.d6 * 2 - icepool.d8)),
    ("6D6 (brute force 46,656 rolls)", lambda: distribution("6D6"), lambda: enumerate_distribution("6D6"),
     lambda: from_die(6 @ icepool.d6)),
    ("3D6 patterns", lambda: pattern_distribution.__wrapped__(), brute_patterns, None),
    ("opposed 3D6 vs 3D6", lambda: opposed_pools(3, 3), lambda: brute_opposed(3, 3),
     lambda: from_die(3 @ icepool.d6 - 3 @ icepool.d6)),
    ("d20 success levels, ability 32", lambda: success_level_distribution(32), lambda: brute_levels(32),
     lambda: from_die(icepool.d20.map(lambda r: success_level(r, 32)))),
    ("2D6 with fumble", lambda: two_d6_with_fumble(), brute_fumble, None),
]


def calculator_changes():
    """The dice calculator and each system's sheet builder, with the changes a reader tries."""
    dice = DiceOddsCalculator()
    cases = [("dice odds: expression", [(dice.expression, v) for v in ("2D6+3", "3D6>=12", "1D36+14>54", "4D6",
                                                                        "2D6>=10")])]
    for system, calculator in SHEET_CALCULATORS.items():
        sheet = calculator()
        others = [option for option in sheet.choice.options if option != sheet.choice.value][:2]
        cases.append((f"sheet builder ({system}): sheet, target",
                      [(sheet.choice, v) for v in (*others, sheet.choice.value)] + [(sheet.target, "12"), (sheet.target, "")]))
    return cases


def main() -> None:
    print(f"{'case':34} {'helper':>10} {'brute':>10} {'brute/helper':>13} {'icepool/helper':>15}")
    for name, helper, brute, natural in CASES:
        t_helper = best(helper)
        t_brute = best(brute, number=1, repeat=3)
        line = f"{name:34} {t_helper * 1e3:8.3f}ms {t_brute * 1e3:8.2f}ms {t_brute / t_helper:12.1f}x"
        if natural is not None:
            line += f" {best(natural) / t_helper:14.2f}x"
        print(line)
    print()
    updates.report(calculator_changes())


if __name__ == "__main__":
    main()
