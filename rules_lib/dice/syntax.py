"""The syntax tree of a dice expression: small frozen dataclasses.

Every node knows its source ``position`` (1-based) so errors found after parsing
(division by a possible zero, outcome limits) still point at the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ArithmeticOp = Literal["+", "-", "*", "/"]
Rounding = Literal["down", "up", "nearest"]
ComparisonOp = Literal[">", ">=", "<", "<=", "=", "<>"]


@dataclass(frozen=True)
class Number:
    value: int
    position: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` faces, summed.

    ``tens_units`` marks D66/D36: two d6 read as tens and units (11..66).
    """

    count: int
    sides: int
    position: int
    tens_units: bool = False

    def __str__(self) -> str:
        return f"{self.count}D{self.sides}"


@dataclass(frozen=True)
class Negate:
    operand: Node
    position: int

    def __str__(self) -> str:
        return f"-{_wrap(self.operand)}"


@dataclass(frozen=True)
class BinaryOp:
    op: ArithmeticOp
    left: Node
    right: Node
    position: int
    rounding: Rounding = "down"

    def __str__(self) -> str:
        suffix = {"down": "", "up": "U", "nearest": "R"}[self.rounding] if self.op == "/" else ""
        own = _PRECEDENCE[self.op]
        left = _wrap(self.left) if _precedence(self.left) < own else str(self.left)
        right = _wrap(self.right) if _precedence(self.right) <= own else str(self.right)
        return f"{left}{self.op}{right}{suffix}"


@dataclass(frozen=True)
class Comparison:
    op: ComparisonOp
    left: Node
    right: Node
    position: int

    def __str__(self) -> str:
        return f"{self.left}{self.op}{self.right}"


Node = Number | Dice | Negate | BinaryOp


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def _precedence(node: Node) -> int:
    return _PRECEDENCE[node.op] if isinstance(node, BinaryOp) else 3


def _wrap(node: Node) -> str:
    return f"({node})" if isinstance(node, BinaryOp) else str(node)


def compare(op: ComparisonOp, left: int, right: int) -> bool:
    """Apply a comparison operator of the notation to two integers."""
    try:
        return {
            ">": left > right,
            ">=": left >= right,
            "<": left < right,
            "<=": left <= right,
            "=": left == right,
            "<>": left != right,
        }[op]
    except KeyError:
        raise ValueError(f"comparison {op!r:.40} is unknown: allowed are >, >=, <, <=, =, <>") from None


def divide(left: int, right: int, rounding: Rounding) -> int:
    """Integer division as the notation defines it: down unless told ``U`` (up) or ``R``."""
    if not right:
        raise ValueError(f"{left} / 0: a division by 0 has no value")
    if rounding == "down":
        return left // right
    if rounding == "up":
        return -((-left) // right)
    # nearest, halves away from zero as BCDice's R does for positive results
    quotient, remainder = divmod(abs(left), abs(right))
    if 2 * remainder >= abs(right):
        quotient += 1
    return quotient if (left >= 0) == (right > 0) else -quotient
