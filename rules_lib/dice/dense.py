"""Exact arithmetic on dense outcome counts, each step cheaper than visiting pairs.

A distribution here is ``Counts``: the outcome of the first entry (``low``) and a list of
whole-number counts for ``low, low + 1, ...``; the probability of an outcome is its count
over the sum of the counts. Sums and differences are convolutions (one big-integer product,
Kronecker substitution), comparisons use running sums, and a division walks the runs of
equal quotients instead of every pair; only ``*`` of two dice visits pairs. ``cost`` in
``exact`` estimates each of these before anything is evaluated.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

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


def add(a: Counts, b: Counts) -> Counts:
    return Counts(a.low + b.low, convolve(a.counts, b.counts))


def negate(a: Counts) -> Counts:
    return Counts(-a.high, a.counts[::-1])


def power(die: Counts, count: int) -> Counts:
    """The sum of ``count`` independent copies of ``die`` (repeated squaring)."""
    result = constant(0)
    square = die
    while count:
        if count & 1:
            result = add(result, square)
        count >>= 1
        if count:
            square = add(square, square)
    return result


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


def division(a: Counts, b: Counts, rounding: Rounding) -> Counts:
    """``a / b`` with the notation's rounding; ``b`` never takes the value 0.

    For one divisor the quotient is monotone in the dividend, so the dividends fall into
    runs of equal quotient, found by bisection and summed with running totals: about
    ``len(a) / |divisor| + 1`` runs per divisor instead of ``len(a)`` pairs.
    """
    running = (0, *accumulate(a.counts))
    merged: dict[int, int] = {}
    dividends = range(a.low, a.high + 1)
    for j, weight in enumerate(b.counts):
        if not weight:
            continue
        divisor = b.low + j
        sign = 1 if divisor > 0 else -1

        def key(x: int, divisor: int = divisor, sign: int = sign) -> int:
            return sign * divide(x, divisor, rounding)

        start = 0
        while start < len(dividends):
            quotient = divide(dividends[start], divisor, rounding)
            end = bisect_right(dividends, sign * quotient, lo=start, key=key)
            count = running[end] - running[start]
            if count:
                merged[quotient] = merged.get(quotient, 0) + count * weight
            start = end
    return _from_dict(merged)


def compare(op: ComparisonOp, a: Counts, b: Counts) -> dict[bool, int]:
    """The counts of True and False for ``a op b``, from running sums of ``a``."""
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
