"""Brute-force enumeration: every sequence of dice an expression can roll, replayed through ``roll``.

An independent route to the exact distribution (no icepool), used to cross-check it.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

from rules_lib.dice import Distribution, parse, roll
from rules_lib.dice.syntax import BinaryOp, Comparison, Dice, Negate, Number


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


def brute_force(expression: str) -> Distribution:
    parsed = parse(expression)
    sides = dice_sides(parsed.root)
    counts: Counter = Counter()
    for faces in product(*(range(1, s + 1) for s in sides)):
        result = roll(parsed, dice=list(faces))
        counts[result.success if parsed.comparison else result.total] += 1
    total = sum(counts.values())
    return Distribution({o: Fraction(n, total) for o, n in counts.items()})
