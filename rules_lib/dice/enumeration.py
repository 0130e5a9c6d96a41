"""Brute-force enumeration: every sequence of dice an expression can roll, replayed through ``roll``.

The slow reference: an independent route to the exact distribution (no icepool), used by
the tests to cross-check `rules_lib.dice.distribution` and by the benchmarks as the
baseline. Its cost is the product of the dice's sides, so keep it to small expressions.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

from .exact import Distribution
from .parser import parse
from .roll import roll
from .syntax import BinaryOp, Comparison, Dice, Negate, Number


def dice_sides(node) -> list[int]:
    """The sides of every physical die the expression rolls, in rolling order."""
    match node:
        case Number():
            return []
        case Dice(count=count, tens_units=True):
            return [6, 6] * count
        case Dice(count=count, sides=sides):
            return [sides] * count
        case Negate(operand=operand):
            return dice_sides(operand)
        case BinaryOp(left=left, right=right) | Comparison(left=left, right=right):
            return dice_sides(left) + dice_sides(right)
    raise TypeError(node)


def enumerate_distribution(expression: str) -> Distribution:
    """The distribution found by rolling every possible sequence of dice once."""
    parsed = parse(expression)
    sides = dice_sides(parsed.root)
    counts: Counter = Counter()
    for faces in product(*(range(1, s + 1) for s in sides)):
        result = roll(parsed, dice=list(faces))
        counts[result.success if parsed.comparison else result.total] += 1
    total = sum(counts.values())
    return Distribution({o: Fraction(n, total) for o, n in counts.items()})
