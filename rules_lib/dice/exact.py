"""Exact distributions of dice expressions, as fractions.

The arithmetic is delegated to icepool (the field's reference dice-probability
library); this module turns the syntax tree into icepool dice and the result into
a `Distribution` of ``Fraction`` probabilities.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

import icepool

from .errors import DiceLimitError
from .parser import ParsedExpression, bounds, parse
from .syntax import BinaryOp, Comparison, Dice, Negate, Node, Number, compare, divide

#: An expression whose value can span more than this many integers is refused for
#: exact odds: the convolution cost grows with the square of the span (100D100
#: takes icepool about 18 s). Rolling such an expression is still allowed.
MAX_EXACT_SPAN = 2000


@dataclass(frozen=True)
class Distribution:
    """A finite probability distribution: outcome -> exact probability (``Fraction``)."""

    probabilities: Mapping[Hashable, Fraction]

    def __post_init__(self) -> None:
        ordered = dict(sorted(self.probabilities.items(), key=lambda item: _order(item[0])))
        object.__setattr__(self, "probabilities", ordered)

    @classmethod
    def from_counts(cls, counts: Mapping[Hashable, int]) -> Distribution:
        total = sum(counts.values())
        return cls({outcome: Fraction(n, total) for outcome, n in counts.items() if n})

    @classmethod
    def uniform(cls, outcomes: Iterable[Hashable]) -> Distribution:
        outcomes = list(outcomes)
        return cls.from_counts({o: outcomes.count(o) for o in set(outcomes)})

    def __getitem__(self, outcome: Hashable) -> Fraction:
        return self.probabilities.get(outcome, Fraction(0))

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.probabilities)

    def __len__(self) -> int:
        return len(self.probabilities)

    def items(self):
        return self.probabilities.items()

    @property
    def support(self) -> tuple[Hashable, ...]:
        return tuple(self.probabilities)

    def total(self) -> Fraction:
        return sum(self.probabilities.values(), Fraction(0))

    def probability(self, predicate: Callable[[Hashable], bool]) -> Fraction:
        """The probability that an outcome satisfies ``predicate``."""
        return sum((p for o, p in self.probabilities.items() if predicate(o)), Fraction(0))

    def at_least(self, value: int) -> Fraction:
        return self.probability(lambda o: o >= value)

    def mean(self) -> Fraction:
        return sum((o * p for o, p in self.probabilities.items()), Fraction(0))

    def map(self, function: Callable[[Hashable], Hashable]) -> Distribution:
        merged: dict[Hashable, Fraction] = {}
        for outcome, p in self.probabilities.items():
            key = function(outcome)
            merged[key] = merged.get(key, Fraction(0)) + p
        return Distribution(merged)


def _order(outcome: Hashable) -> tuple:
    # numbers first in numeric order, then anything else by its text
    if isinstance(outcome, (int, float, Fraction)) and not isinstance(outcome, bool):
        return (0, outcome, "")
    if isinstance(outcome, bool):
        return (1, int(outcome), "")
    return (2, 0, str(outcome))


def percent(p: Fraction, digits: int = 2) -> str:
    """A probability as a percentage with ``digits`` decimals, e.g. ``16.67%``."""
    return f"{float(p) * 100:.{digits}f}%"


@dataclass(frozen=True)
class Odds:
    """The exact odds of an expression: its distribution and, for comparisons, success."""

    expression: str
    distribution: Distribution
    success: Fraction | None = None

    def to_dict(self) -> dict:
        data: dict = {
            "expression": self.expression,
            "distribution": {str(o): str(p) for o, p in self.distribution.items()},
        }
        if self.success is not None:
            data["success"] = str(self.success)
            data["success_percent"] = percent(self.success)
        return data


def distribution(expression: str | ParsedExpression) -> Distribution:
    """The exact distribution of an expression's value (of True/False for a comparison)."""
    parsed = parse(expression) if isinstance(expression, str) else expression
    return from_die(_to_die(parsed.root, parsed.text))


def from_die(die: icepool.Die) -> Distribution:
    """An icepool die as a `Distribution` of exact fractions."""
    denominator = die.denominator()
    return Distribution({o: Fraction(q, denominator) for o, q in die.items() if q})


def odds(expression: str | ParsedExpression) -> Odds:
    """Exact odds: the value's distribution, and the chance of success for a comparison.

    For ``2D6>=10`` the distribution shown is that of ``2D6``, and ``success`` is 1/6.
    """
    parsed = parse(expression) if isinstance(expression, str) else expression
    values = distribution(ParsedExpression(parsed.text, parsed.value, None))
    success = None
    if parsed.comparison is not None:
        success = distribution(parsed)[True]
    return Odds(str(parsed), values, success)


_D66 = 10 * icepool.d6 + icepool.d6


def _to_die(node: Node | Comparison, text: str) -> icepool.Die:
    if not isinstance(node, Comparison):
        low, high = bounds(node)
        if high - low > MAX_EXACT_SPAN:
            raise DiceLimitError(
                text, node.position,
                f"{node} spans {high - low + 1} values; exact odds are limited to "
                f"{MAX_EXACT_SPAN + 1} (rolling it is still allowed)",
            )
    match node:
        case Number(value=value):
            return icepool.Die([value])
        case Dice(count=count, tens_units=True):
            return count @ _D66
        case Dice(count=count, sides=sides):
            return count @ icepool.d(sides)
        case Negate(operand=operand):
            return -_to_die(operand, text)
        case BinaryOp(op=op, left=left, right=right, rounding=rounding):
            a, b = _to_die(left, text), _to_die(right, text)
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            return icepool.map(lambda x, y: divide(x, y, rounding), a, b)
        case Comparison(op=op, left=left, right=right):
            a, b = _to_die(left, text), _to_die(right, text)
            return icepool.map(lambda x, y: compare(op, x, y), a, b)
    raise TypeError(f"not a dice expression node: {node!r}")
