"""Exact distributions of dice expressions, as fractions.

The syntax tree is first priced (`cost`: refused at once when over budget), then evaluated
on dense tables of whole-number counts (`dense`: convolutions, running sums and runs of
equal quotients rather than every pair), and the result becomes a `Distribution` of
``Fraction`` probabilities. How many dice of a pool show given faces is a binomial, written
out (`binomial`); icepool, the field's reference dice library, checks it in the tests, and
`from_die` converts its dice.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from operator import itemgetter
from typing import TYPE_CHECKING

from .. import checks
from . import dense
from .cost import MAX_EXACT_BYTES, MAX_EXACT_SPAN, MAX_EXACT_STEPS, check
from .parser import MAX_DICE, MAX_SIDES, ParsedExpression, parsed_expression
from .syntax import BinaryOp, Dice, Negate, Node, Number

if TYPE_CHECKING:  # imported where used: the browser loads icepool only for a page that needs it
    import icepool

__all__ = [
    "MAX_EXACT_BYTES", "MAX_EXACT_SPAN", "MAX_EXACT_STEPS", "Distribution", "Odds",
    "binomial", "counts", "distribution", "from_die", "odds", "percent",
]


@dataclass(frozen=True)
class Distribution:
    """A finite probability distribution: outcome -> exact probability (``Fraction``)."""

    probabilities: Mapping[Hashable, Fraction]

    def __post_init__(self) -> None:
        if not isinstance(self.probabilities, Mapping):
            raise ValueError(f"probabilities {checks.shown(self.probabilities)} are not a mapping of outcome to chance")
        items = self.probabilities.items()
        if all(type(outcome) is int for outcome in self.probabilities):  # most: no key to make for each
            ordered = dict(sorted(items, key=itemgetter(0)))
        else:
            ordered = dict(sorted(items, key=lambda item: _order(item[0])))
        object.__setattr__(self, "probabilities", ordered)

    @classmethod
    def from_counts(cls, counts: Mapping[Hashable, int]) -> Distribution:
        if not isinstance(counts, Mapping):
            raise ValueError(f"counts {checks.shown(counts)} are not a mapping of outcome to count")
        total = sum(counts.values())
        return cls({outcome: Fraction(n, total) for outcome, n in counts.items() if n})

    @classmethod
    def uniform(cls, outcomes: Iterable[Hashable]) -> Distribution:
        return cls.from_counts(Counter(outcomes))  # one pass: list.count per outcome was quadratic

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
        return self._mean

    @cached_property
    def _mean(self) -> Fraction:  # a result's working and its calculator both ask: computed once
        if not all(type(o) is int for o in self.probabilities):
            return sum((o * p for o, p in self.probabilities.items()), Fraction(0))
        # whole-number outcomes: one sum of integers over a common denominator, one fraction at the end
        common = math.lcm(*(p.denominator for p in self.probabilities.values()))
        return Fraction(sum(o * p.numerator * (common // p.denominator) for o, p in self.probabilities.items()), common)

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
    """A probability as a percentage with ``digits`` decimals (0 to 20), e.g. ``16.67%``."""
    checks.whole(digits, "decimals", minimum=0, maximum=20)
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
    """The exact distribution of an expression's value (of True/False for a comparison).

    The cost is estimated first (`cost.check`): an expression over the budget is refused
    at once with a `DiceLimitError` naming the limit, before any work is done.
    """
    parsed = parsed_expression(expression)
    check(parsed)
    values, success = _exact(parsed)
    return success if success is not None else values


def binomial(dice: int, faces: int, sides: int) -> Distribution:
    """How many of ``dice`` d``sides`` show one of ``faces`` given faces, exactly.

    k of them with chance C(dice, k) * faces**k * (sides - faces)**(dice - k) / sides**dice. Written
    here, not asked of icepool (which the tests compare it with): in the browser, icepool's import
    delayed the first live result of a page that needs a binomial by half a second or more.
    No faces, every face or no dice leave one outcome (the counts of the others are 0). The callers
    check their arguments.
    """
    checks.whole(sides, "sides", minimum=1, maximum=MAX_SIDES)
    checks.whole(dice, "the number of dice", minimum=0, maximum=MAX_DICE)
    checks.whole(faces, "faces", minimum=0, maximum=sides)
    others = sides - faces
    return Distribution.from_counts({k: math.comb(dice, k) * faces**k * others ** (dice - k) for k in range(dice + 1)})


def from_die(die: icepool.Die) -> Distribution:
    """An icepool die as a `Distribution` of exact fractions."""
    denominator = die.denominator()
    return Distribution({o: Fraction(q, denominator) for o, q in die.items() if q})


def odds(expression: str | ParsedExpression) -> Odds:
    """Exact odds: the value's distribution, and the chance of success for a comparison.

    For ``2D6>=10`` the distribution shown is that of ``2D6``, and ``success`` is 1/6.
    Refused at once, like `distribution`, when over the cost budget.
    """
    parsed = parsed_expression(expression)
    check(parsed)
    values, success = _exact(parsed)
    return Odds(str(parsed), values, None if success is None else success[True])


def counts(expression: str | ParsedExpression) -> tuple[dict[Hashable, int], int]:
    """What `distribution` gives, as whole-number counts and their total: no fraction is made.

    For callers that combine many distributions exactly (a sum of products), whole numbers over one
    common denominator are several times faster than ``Fraction`` arithmetic. Priced like `distribution`.
    """
    parsed = parsed_expression(expression)
    check(parsed)
    left, outcome = _evaluated(parsed)
    if outcome is None:
        return {left.low + i: c for i, c in enumerate(left.counts) if c}, left.total()
    return {o: n for o, n in outcome.items() if n}, sum(outcome.values())


def _exact(parsed: ParsedExpression) -> tuple[Distribution, Distribution | None]:
    left, outcome = _evaluated(parsed)
    if outcome is None:
        return _values(left), None
    total = sum(outcome.values())
    return _values(left), Distribution({o: Fraction(n, total) for o, n in outcome.items() if n})


def _evaluated(parsed: ParsedExpression) -> tuple[dense.Counts, dict[bool, int] | None]:
    """The counts of the expression's value, and of True/False for a comparison (else ``None``)."""
    memo: dict = {}
    left = _evaluate(parsed.value, memo)
    if parsed.comparison is None:
        return left, None
    return left, dense.compare(parsed.comparison.op, left, _evaluate(parsed.comparison.right, memo))


def _evaluate(node: Node, memo: dict) -> dense.Counts:
    # equal subtrees (2D1000/2D1000 has two) are independent rolls with the same table
    key = str(node)
    if key in memo:
        return memo[key]
    match node:
        case Number(value=value):
            result = dense.constant(value)
        case Dice(count=count, tens_units=True):
            result = dense.power(_D66, count)
        case Dice(count=count, sides=sides):
            result = dense.power(dense.Counts(1, (1,) * sides), count)
        case Negate(operand=operand):
            result = dense.negate(_evaluate(operand, memo))
        case BinaryOp(op=op, left=left, right=right, rounding=rounding):
            a, b = _evaluate(left, memo), _evaluate(right, memo)
            if op == "+":
                result = dense.add(a, b)
            elif op == "-":
                result = dense.add(a, dense.negate(b))
            elif op == "*":
                result = dense.multiply(a, b)
            else:
                result = dense.division(a, b, rounding)
        case _:
            raise TypeError(f"not a dice expression node: {node!r}")
    memo[key] = result
    return result


def _values(counts: dense.Counts) -> Distribution:
    total = counts.total()
    return Distribution(
        {counts.low + i: Fraction(c, total) for i, c in enumerate(counts.counts) if c}
    )


_D66 = dense.from_faces([10 * tens + units for tens in range(1, 7) for units in range(1, 7)])
