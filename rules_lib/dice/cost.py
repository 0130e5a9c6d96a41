"""The cost of exact odds, estimated from the syntax tree before anything is evaluated.

Every node is priced as ``dense`` will evaluate it: ``steps`` counts the pairs or runs an
operation visits, weighted by the machine words of the counts involved, and ``memory``
the bytes of the largest table alive at once. Children are priced even where the result
cannot depend on them (``X*0`` still evaluates ``X``), so no term hides its work.
An expression over either budget is refused before evaluation, with the limit named.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import DiceLimitError
from .parser import ParsedExpression, bounds
from .syntax import BinaryOp, Comparison, Dice, Negate, Node, Number

#: An expression whose value can span more than this many integers is refused for exact
#: odds (the tables of counts are dense over the span). Rolling it is still allowed.
MAX_EXACT_SPAN = 2000
#: The work allowed for one expression's exact odds, in ``cost`` steps (a pair of outcomes
#: visited, or one machine word of a count added or moved). The benchmark
#: ``benchmarks/bench_hostile.py`` shows that the most expensive accepted expressions
#: answer in about a second on a shared 2-core machine.
MAX_EXACT_STEPS = 2_000_000
#: The memory allowed for the tables of counts of one expression, in bytes.
MAX_EXACT_BYTES = 64 * 2**20

_WORD_BITS = 60
# one run of a division calls the rounding rule three or four times in Python
_DIVISION_WEIGHT = 4
_D66_FACES = 36


@dataclass(frozen=True)
class Cost:
    """The estimated work of a node: its outcome table and the steps to build it."""

    length: int  # entries of the dense table: span + 1
    bits: int  # an upper bound on the bits of any count (log2 of the number of rolls)
    steps: int  # steps of this node and all below it
    memory: int  # bytes of the largest table built below and at this node

    @property
    def words(self) -> int:
        return 1 + self.bits // _WORD_BITS

    @property
    def table_bytes(self) -> int:
        return self.length * (28 + 8 * self.words)


def estimate(parsed: ParsedExpression) -> Cost:
    """The cost of the exact odds of ``parsed`` (its value, and its comparison if any).

    Equal subtrees are evaluated once (``dense`` keeps their table), so they are priced once.
    """
    return _cost(parsed.root, parsed.text, {})


def check(parsed: ParsedExpression) -> Cost:
    """Estimate the cost and refuse at once, naming the limit, when it is over budget."""
    cost = estimate(parsed)
    roll_hint = "roll it instead"
    if cost.steps > MAX_EXACT_STEPS:
        raise DiceLimitError(
            parsed.text, 1,
            f"exact odds would take about {cost.steps:,} steps; the limit is "
            f"{MAX_EXACT_STEPS:,} (about a second): {roll_hint}",
        )
    if cost.memory > MAX_EXACT_BYTES:
        raise DiceLimitError(
            parsed.text, 1,
            f"exact odds would need about {cost.memory // 2**20} MB; the limit is "
            f"{MAX_EXACT_BYTES // 2**20} MB: {roll_hint}",
        )
    return cost


def _cost(node: Node | Comparison, text: str, seen: dict[str, Cost]) -> Cost:
    key = str(node)
    if key in seen:
        # already built: no new steps, but the table is still held
        return Cost(seen[key].length, seen[key].bits, 0, seen[key].memory)
    cost = _own_cost(node, text, seen)
    seen[key] = cost
    return cost


def _own_cost(node: Node | Comparison, text: str, seen: dict[str, Cost]) -> Cost:
    if isinstance(node, Comparison):
        a, b = _cost(node.left, text, seen), _cost(node.right, text, seen)
        steps = a.steps + b.steps + (a.length + b.length) * max(a.words, b.words)
        return _node(2, a.bits + b.bits, steps, a, b)
    low, high = bounds(node)
    if high - low > MAX_EXACT_SPAN:
        raise DiceLimitError(
            text, node.position,
            f"{node} spans {high - low + 1} values; exact odds are limited to "
            f"{MAX_EXACT_SPAN + 1}: roll it instead",
        )
    length = high - low + 1
    match node:
        case Number():
            return Cost(1, 0, 1, 0)
        case Dice(count=count, sides=sides, tens_units=tens_units):
            faces = _D66_FACES if tens_units else sides
            bits = math.ceil(count * math.log2(faces)) if faces > 1 else 0
            # repeated squaring: about log2(count) products, the last one the widest
            steps = 2 * length * (1 + bits // _WORD_BITS) * count.bit_length()
            return _node(length, bits, steps)
        case Negate(operand=operand):
            a = _cost(operand, text, seen)
            return _node(length, a.bits, a.steps + length, a)
        case BinaryOp(op=op, left=left, right=right):
            a, b = _cost(left, text, seen), _cost(right, text, seen)
            bits = a.bits + b.bits
            words = 1 + bits // _WORD_BITS
            if op in "+-":
                if min(a.length, b.length) <= 24:
                    work = a.length * b.length * words
                else:
                    work = (a.length + b.length) * words * 4
            elif op == "*":
                work = a.length * b.length * words
            else:
                # each run of equal quotient costs a few calls of the rounding rule
                work = _division_runs(a.length, bounds(right)) * words * _DIVISION_WEIGHT
            return _node(length, bits, a.steps + b.steps + work, a, b)
    raise TypeError(f"not a dice expression node: {node!r}")


def _node(length: int, bits: int, steps: int, *children: Cost) -> Cost:
    own = Cost(length, bits, steps, 0)
    memory = max([own.table_bytes, *(c.memory for c in children)])
    return Cost(length, bits, steps, memory)


def _division_runs(dividends: int, divisors: tuple[int, int]) -> int:
    """Runs of equal quotient over all divisors: about dividends / |divisor| + 1 each."""
    low, high = divisors
    return sum(dividends // abs(y) + 1 for y in range(low, high + 1) if y)


__all__ = [
    "MAX_EXACT_BYTES", "MAX_EXACT_SPAN", "MAX_EXACT_STEPS",
]
