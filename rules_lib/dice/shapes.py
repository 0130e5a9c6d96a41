"""Exact distributions for the dice shapes the four systems use.

Each helper is cross-checked against brute-force enumeration in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Literal

from .. import checks
from . import dense
from .cost import MAX_EXACT_SPAN
from .errors import DiceLimitError
from .exact import Distribution, binomial
from .parser import MAX_DICE, MAX_SIDES

# -- D36 / D66: two d6 read as tens and units -------------------------------

#: The 36 results of a D36 (= D66) in order: 11, 12, ..., 16, 21, ..., 66.
D36_RESULTS: tuple[int, ...] = tuple(10 * t + u for t in range(1, 7) for u in range(1, 7))
_D36_STEP = {value: step for step, value in enumerate(D36_RESULTS)}


def d36_step(value: int) -> int:
    """The step (0..35) of a D36 result: 11 is step 0, 16 step 5, 21 step 6, 66 step 35."""
    try:
        return _D36_STEP[value]
    except KeyError:
        raise ValueError(
            f"{value!r} is not a D36 result: both digits must be 1 to 6 (11..66)"
        ) from None


def d36_result(step: int) -> int:
    """The D36 result at a step (0..35); the inverse of `d36_step`."""
    checks.whole(step, "D36 step")
    if not 0 <= step < len(D36_RESULTS):
        raise ValueError(f"D36 step {step!r} is outside 0..35")
    return D36_RESULTS[step]


def d36_distribution() -> Distribution:
    """The 36 equally likely results of a D36."""
    return Distribution.uniform(D36_RESULTS)


# -- d20 success levels -------------------------------------------------------


def success_level(roll: int, ability: int) -> int:
    """The largest level L in 1, 2, 4, 8, ... with ``roll * L <= ability``; 0 when the roll fails."""
    checks.whole(roll, "roll")
    checks.whole(ability, "ability")
    if roll < 1:
        raise ValueError(f"a die roll is at least 1, not {roll!r}")
    if roll > ability:
        return 0
    level = 1
    while roll * level * 2 <= ability:
        level *= 2
    return level


def success_level_distribution(ability: int, sides: int = 20) -> Distribution:
    """The distribution of success levels (0 = failure) of one d``sides`` against ``ability``.

    ``sides`` at most `MAX_SIDES`, as in the notation.
    """
    checks.whole(sides, "sides", minimum=1, maximum=MAX_SIDES)
    checks.whole(ability, "ability")
    return Distribution.uniform(success_level(r, ability) for r in range(1, sides + 1))


# -- 3D6 pattern classes --------------------------------------------------------

Pattern = Literal["triple", "straight", "pair", "plain"]
PATTERN_RANK: dict[str, int] = {"plain": 0, "pair": 1, "straight": 2, "triple": 3}


#: How a straight is read from three dice. ``"sorted"``: three consecutive values in any order
#: (4-2-3 is one); ``"as rolled"``: consecutive in the order the dice are read, up or down (2-3-4,
#: 4-3-2, not 4-2-3). The text that uses straights (002 §H4, line 147) leaves it open: see the
#: Nemesis rulings.
StraightOrder = Literal["sorted", "as rolled"]
STRAIGHT_ORDERS: tuple[str, ...] = ("sorted", "as rolled")


def check_straight_order(straight_order: object) -> StraightOrder:
    """``straight_order`` if it is one of ``STRAIGHT_ORDERS``, else an error naming them."""
    return checks.choice(straight_order, "straight order", STRAIGHT_ORDERS)  # type: ignore[return-value]


def pattern(dice: tuple[int, ...] | list[int], straight_order: StraightOrder = "sorted") -> Pattern:
    """Classify three dice: a triple, a straight (three consecutive values, read as ``straight_order``
    says), a pair, or plain."""
    if len(dice) != 3:
        raise ValueError(f"a pattern is read from exactly 3 dice, not {len(dice)}")
    check_straight_order(straight_order)
    a, b, c = sorted(dice)
    if a == c:
        return "triple"
    if b == a + 1 and c == b + 1:
        first, middle, last = dice
        if straight_order == "sorted" or middle - first == last - middle:  # up or down by one each
            return "straight"
        return "plain"  # three different values out of order: neither a straight nor a pair
    if a == b or b == c:
        return "pair"
    return "plain"


@cache
def pattern_distribution(sides: int = 6, straight_order: StraightOrder = "sorted") -> Distribution:
    """The chance of each pattern class on three dice (on 3D6: triple 6/216, straight 24/216 sorted
    or 8/216 as rolled, ...)."""
    check_straight_order(straight_order)
    return Distribution.uniform(pattern(r, straight_order) for r in product(range(1, sides + 1), repeat=3))


def face_count_distribution(face: int, dice: int = 3, sides: int = 6) -> Distribution:
    """How many of ``dice`` d``sides`` show ``face``: a binomial with p = 1/sides."""
    sides = checks.whole(sides, "sides", minimum=1, maximum=MAX_SIDES)
    checks.whole(face, f"face on a d{sides}", minimum=1, maximum=sides)
    _check_pool(dice)
    return binomial(dice, 1, sides)


# -- opposed pools --------------------------------------------------------------


@dataclass(frozen=True)
class OpposedOdds:
    """Chances that side A's total is higher than, equal to, or lower than side B's."""

    higher: Fraction
    tie: Fraction
    lower: Fraction


@checks.checked_arguments
def opposed(a: Distribution, b: Distribution) -> OpposedOdds:
    """Compare two independent distributions of totals."""
    higher = tie = Fraction(0)
    for x, p in a.items():
        for y, q in b.items():
            if x > y:
                higher += p * q
            elif x == y:
                tie += p * q
    return OpposedOdds(higher, tie, 1 - higher - tie)


def pool_distribution(dice: int, sides: int = 6) -> Distribution:
    """The sum of ``dice`` d``sides`` (0 dice sum to 0); at most `MAX_DICE` dice, as in the notation."""
    return _from_counts(_pool(_check_pool(dice), sides))


def opposed_pools(attacker_dice: int, defender_dice: int, sides: int = 6) -> OpposedOdds:
    """N d6 summed against M d6 summed: chances of higher, tie and lower for the first pool.

    Each side has at most `MAX_DICE` dice, as in the notation; the difference of the sums is one
    convolution (``dense``), so 200 dice against 200 answer in well under a second.
    """
    first = _pool(_check_pool(attacker_dice, "the first pool's dice"), sides)
    second = _pool(_check_pool(defender_dice, "the second pool's dice"), sides)
    difference = _from_counts(dense.add(first, dense.negate(second)))
    higher = difference.probability(lambda d: d > 0)
    tie = difference[0]
    return OpposedOdds(higher, tie, 1 - higher - tie)


def _check_pool(dice: object, what: str = "the number of dice") -> int:
    return checks.whole(dice, what, minimum=0, maximum=MAX_DICE)


def _pool(dice: int, sides: int) -> dense.Counts:
    sides = checks.whole(sides, "sides", minimum=1, maximum=MAX_SIDES)
    if dice * (sides - 1) > MAX_EXACT_SPAN:  # the same limit as exact odds of the notation's NDS
        raise DiceLimitError(f"{dice}D{sides}", 1, f"{dice} dice of {sides} sides can total "
                             f"{dice * (sides - 1) + 1:,} values; exact odds are limited to {MAX_EXACT_SPAN + 1:,}")
    return dense.power(dense.Counts(1, (1,) * sides), dice)


def _from_counts(counts: dense.Counts) -> Distribution:
    total = counts.total()
    return Distribution({counts.low + i: Fraction(c, total) for i, c in enumerate(counts.counts) if c})


# -- 2D6 with a double-one fumble --------------------------------------------------

FUMBLE = "fumble"


def two_d6_with_fumble(modifier: int = 0) -> Distribution:
    """2D6 + ``modifier``, where double ones are the outcome ``"fumble"`` instead of a total."""
    checks.whole(modifier, "modifier")
    counts: dict[object, int] = {}
    for a, b in product(range(1, 7), repeat=2):
        key = FUMBLE if (a, b) == (1, 1) else a + b + modifier
        counts[key] = counts.get(key, 0) + 1
    return Distribution.from_counts(counts)


__all__ = [
    "D36_RESULTS", "FUMBLE", "STRAIGHT_ORDERS", "OpposedOdds", "StraightOrder", "check_straight_order",
    "d36_distribution", "d36_result", "d36_step",
    "face_count_distribution", "opposed", "opposed_pools", "pattern", "pattern_distribution",
    "pool_distribution", "success_level", "success_level_distribution", "two_d6_with_fumble",
]
