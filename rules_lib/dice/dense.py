"""Exact arithmetic on dense outcome counts, each step cheaper than visiting pairs.

A distribution here is ``Counts``: the outcome of the first entry (``low``) and a list of
whole-number counts for ``low, low + 1, ...``; the probability of an outcome is its count
over the sum of the counts. Sums and differences are convolutions (one big-integer product,
Kronecker substitution), comparisons use running sums, and a division walks the runs of
equal quotients instead of every pair; only ``*`` of two dice visits pairs. ``cost`` in
``exact`` estimates each of these before anything is evaluated.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import get_args

from .. import checks
from .parser import MAX_DICE
from .syntax import ComparisonOp, Rounding, divide

# below this length a plain double loop is faster than packing big integers
_DIRECT = 24


@dataclass(frozen=True)
class Counts:
    """Counts of the outcomes ``low, low + 1, ..., low + len(counts) - 1``."""

    low: int
    counts: tuple[int, ...]

    @property
    def high(self) -> int:
        return self.low + len(self.counts) - 1

    def total(self) -> int:
        return sum(self.counts)


def constant(value: int) -> Counts:
    return Counts(value, (1,))


def from_faces(faces: list[int]) -> Counts:
    """One die with the given faces, each face once."""
    low = min(faces)
    counts = [0] * (max(faces) - low + 1)
    for face in faces:
        counts[face - low] += 1
    return Counts(low, tuple(counts))


def convolve(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The counts of the sum of two independent outcomes (polynomial product)."""
    if min(len(a), len(b)) <= _DIRECT:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return tuple(out)
    # Kronecker substitution: pack each list into one integer, one slot per count,
    # wide enough that no slot of the product overflows into the next
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length() + 1
    width = (bits + 7) // 8
    product = _pack(a, width) * _pack(b, width)
    raw = product.to_bytes((len(a) + len(b)) * width, "little")
    return tuple(
        int.from_bytes(raw[i * width:(i + 1) * width], "little") for i in range(len(a) + len(b) - 1)
    )


def _pack(counts: tuple[int, ...], width: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in counts), "little")


@checks.checked_arguments
def add(a: Counts, b: Counts) -> Counts:
    return Counts(a.low + b.low, convolve(a.counts, b.counts))


@checks.checked_arguments
def negate(a: Counts) -> Counts:
    return Counts(-a.high, a.counts[::-1])


@checks.checked_arguments
def power(die: Counts, count: int) -> Counts:
    """The sum of ``count`` (0 to `MAX_DICE`, as in the notation) independent copies of ``die``
    (repeated squaring)."""
    checks.whole(count, "the number of dice", minimum=0, maximum=MAX_DICE)
    result = constant(0)
    square = die
    while count:
        if count & 1:
            result = add(result, square)
        count >>= 1
        if count:
            square = add(square, square)
    return result


@checks.checked_arguments
def multiply(a: Counts, b: Counts) -> Counts:
    """Products visit every pair of outcomes: their values do not form a run."""
    merged: dict[int, int] = {}
    for i, x in enumerate(a.counts):
        if not x:
            continue
        for j, y in enumerate(b.counts):
            if y:
                key = (a.low + i) * (b.low + j)
                merged[key] = merged.get(key, 0) + x * y
    return _from_dict(merged)


@checks.checked_arguments
def division(a: Counts, b: Counts, rounding: Rounding) -> Counts:
    """``a / b`` with the notation's rounding; ``b`` never takes the value 0.

    For one divisor the quotient is monotone in the dividend, so the dividends fall into runs
    of equal quotient, summed with running totals: about ``len(a) / |divisor| + 1`` runs per
    divisor instead of ``len(a)`` pairs. Each run's end is computed from the rounding rule and
    confirmed by ``divide`` itself (`_run_end`).
    """
    checks.choice(rounding, "rounding", get_args(Rounding))
    running = (0, *accumulate(a.counts))
    merged: dict[int, int] = {}
    for j, weight in enumerate(b.counts):
        if not weight:
            continue
        divisor = b.low + j
        x = a.low
        while x <= a.high:
            quotient = divide(x, divisor, rounding)
            end = _run_end(x, a.high, quotient, divisor, rounding)
            count = running[end - a.low + 1] - running[x - a.low]
            if count:
                merged[quotient] = merged.get(quotient, 0) + count * weight
            x = end + 1
    return _from_dict(merged)


def _run_end(start: int, high: int, quotient: int, divisor: int, rounding: Rounding) -> int:
    """The last dividend in ``start..high`` whose quotient is still ``quotient``.

    The guess is where x / divisor crosses the rounding threshold; it is then moved until
    ``divide`` agrees (a step or two, for the half-way cases of ``nearest``).
    """
    if divisor > 0:
        guess = {"down": (quotient + 1) * divisor - 1, "up": quotient * divisor,
                 "nearest": ((2 * quotient + 1) * divisor) // 2}[rounding]
    else:
        guess = {"down": quotient * divisor, "up": (quotient - 1) * divisor - 1,
                 "nearest": ((2 * quotient - 1) * divisor) // 2}[rounding]
    end = min(max(guess, start), high)
    while end < high and divide(end + 1, divisor, rounding) == quotient:
        end += 1
    while divide(end, divisor, rounding) != quotient:
        end -= 1
    return end


@checks.checked_arguments
def compare(op: ComparisonOp, a: Counts, b: Counts) -> dict[bool, int]:
    """The counts of True and False for ``a op b``, from running sums of ``a``."""
    checks.choice(op, "comparison", get_args(ComparisonOp))
    running = (0, *accumulate(a.counts))
    total_a = running[-1]

    def below(value: int) -> int:  # count of a's outcomes < value
        return running[min(max(value - a.low, 0), len(a.counts))]

    true = 0
    for j, weight in enumerate(b.counts):
        if not weight:
            continue
        y = b.low + j
        less, at_most = below(y), below(y + 1)
        hits = {
            "<": less, "<=": at_most, ">": total_a - at_most, ">=": total_a - less,
            "=": at_most - less, "<>": total_a - (at_most - less),
        }[op]
        true += hits * weight
    false = total_a * b.total() - true
    return {True: true, False: false}


def _from_dict(merged: dict[int, int]) -> Counts:
    low, high = min(merged), max(merged)
    counts = [0] * (high - low + 1)
    for value, count in merged.items():
        counts[value - low] = count
    return Counts(low, tuple(counts))
