"""Rolling a parsed expression with a seeded generator or with the exact dice a text shows.

A roll records every die and each arithmetic step, so a worked example can be
replayed die by die and its working shown.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .. import checks
from .errors import DiceReplayError
from .parser import MAX_SIDES, ParsedExpression, parsed_expression
from .syntax import BinaryOp, Dice, Negate, Node, Number, compare, divide


@dataclass(frozen=True)
class DieRoll:
    """One physical die: its number of sides and the face it shows."""

    sides: int
    value: int


class DiceSource(Protocol):
    def draw(self, sides: int) -> int:
        """The next die of ``sides`` faces."""
        ...


class SeededDice:
    """Dice from a seeded pseudo-random generator: the same seed gives the same dice."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def draw(self, sides: int) -> int:
        """One die of ``sides`` faces (1 to the parser's ``MAX_SIDES``), refused otherwise."""
        return self._random.randint(1, checks.whole(sides, "the sides of a die", minimum=1, maximum=MAX_SIDES))


class GivenDice:
    """The exact dice given, used in order; `finish` checks that none are left over."""

    def __init__(self, values: Sequence[int]) -> None:
        self._values = list(values)
        self._used = 0

    def draw(self, sides: int) -> int:
        if self._used >= len(self._values):
            raise DiceReplayError(
                f"the expression needs more dice than the {len(self._values)} given"
            )
        value = self._values[self._used]
        self._used += 1
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise DiceReplayError(
                f"die {self._used} was given as {value!r}, but it is a d{sides}: allowed are 1 to {sides}"
            )
        return value

    def finish(self) -> None:
        if self._used != len(self._values):
            raise DiceReplayError(
                f"{len(self._values)} dice were given but the expression uses only {self._used}"
            )


@dataclass(frozen=True)
class RollResult:
    """What a roll produced: the total, every die, and the steps of the arithmetic."""

    expression: str
    total: int
    dice: tuple[DieRoll, ...]
    steps: tuple[str, ...]
    success: bool | None = None
    target: int | None = None

    def __str__(self) -> str:
        lines = [f"{self.expression}"] + [f"  {step}" for step in self.steps]
        return "\n".join(lines)

    def text(self) -> str:
        """The roll as ``rules-lib roll`` prints it: the total, the dice, the steps, the verdict."""
        lines = [f"{self.expression} = {self.total}", f"dice: {', '.join(str(d.value) for d in self.dice) or 'none'}"]
        lines += [f"  {step}" for step in self.steps]
        if self.success is not None:
            lines.append("success" if self.success else "failure")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "expression": self.expression,
            "total": self.total,
            "dice": [{"sides": d.sides, "value": d.value} for d in self.dice],
            "steps": list(self.steps),
            "success": self.success,
            "target": self.target,
        }


def roll(
    expression: str | ParsedExpression,
    *,
    seed: int | None = None,
    dice: Sequence[int] | None = None,
) -> RollResult:
    """Roll ``expression`` with a seeded generator, or replay it with the exact ``dice`` given.

    D66/D36 take two dice each, tens first: ``roll("1D36", dice=[3, 6]).total == 36``.
    """
    source = dice_source(seed, dice)
    result = roll_from(expression, source)
    if isinstance(source, GivenDice):
        source.finish()
    return result


def dice_source(seed: int | None = None, dice: Sequence[int] | None = None) -> DiceSource:
    """The dice of a roll: the exact ``dice`` given (in order), else a generator seeded with ``seed``."""
    return GivenDice(dice) if dice is not None else SeededDice(seed)


def roll_from(expression: str | ParsedExpression, source: DiceSource) -> RollResult:
    """Roll ``expression`` with the dice drawn from ``source`` (left for the caller to finish:
    a repeated roll draws several rolls from one source)."""
    parsed = parsed_expression(expression)
    evaluator = _Evaluator(source)
    total = evaluator.value(parsed.value)
    success = target = None
    if parsed.comparison is not None:
        target = evaluator.value(parsed.comparison.right)
        success = compare(parsed.comparison.op, total, target)
        verdict = "success" if success else "failure"
        evaluator.steps.append(f"{total} {parsed.comparison.op} {target}: {verdict}")
    return RollResult(
        expression=str(parsed),
        total=total,
        dice=tuple(evaluator.dice),
        steps=tuple(evaluator.steps),
        success=success,
        target=target,
    )


class _Evaluator:
    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.dice: list[DieRoll] = []
        self.steps: list[str] = []

    def _draw(self, sides: int) -> int:
        value = self.source.draw(sides)
        self.dice.append(DieRoll(sides, value))
        return value

    def value(self, node: Node) -> int:
        match node:
            case Number(value=value):
                return value
            case Dice(count=count, tens_units=True):
                readings = []
                for _ in range(count):
                    tens, units = self._draw(6), self._draw(6)
                    readings.append(10 * tens + units)
                total = sum(readings)
                shown = "+".join(str(r) for r in readings)
                self.steps.append(f"{node}: tens and units {shown}" + (f" = {total}" if count > 1 else ""))
                return total
            case Dice(count=count, sides=sides):
                faces = [self._draw(sides) for _ in range(count)]
                total = sum(faces)
                shown = "+".join(str(f) for f in faces)
                self.steps.append(f"{node}: {shown}" + (f" = {total}" if count > 1 else ""))
                return total
            case Negate(operand=operand):
                result = -self.value(operand)
                return result
            case BinaryOp(op=op, left=left, right=right, rounding=rounding):
                a, b = self.value(left), self.value(right)
                if op == "+":
                    result = a + b
                elif op == "-":
                    result = a - b
                elif op == "*":
                    result = a * b
                else:
                    result = divide(a, b, rounding)
                how = {"down": " rounded down", "up": " rounded up", "nearest": " rounded to nearest"}
                note = how[rounding] if op == "/" and a % b else ""
                self.steps.append(f"{a} {op} {b} = {result}{note}")
                return result
        raise TypeError(f"not a dice expression node: {node!r}")
