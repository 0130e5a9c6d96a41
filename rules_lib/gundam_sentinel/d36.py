"""The 1D36 scale: two d6 read as tens and units, counted in steps (000 §6).

The 36 results 11, 12, ..., 16, 21, ..., 66 are **steps** 0..35. The text's own examples count
differences in steps: between a modified roll of 62 and an evasion of 54 "the difference is 4"
(000 §7-1, line 350; 54 → 55 → 56 → 61 → 62), not 8. So modifiers, evasion changes and margins
are all added in steps here, which is also how the public BCDice GundamSentinel dicebot works.

**Beyond 66.** The text makes "66 or more" a critical (line 296), so a modified roll can go past
66. A step above 35 is written by continuing the same tens-and-units pattern: step 36 is 71,
step 41 is 76, step 42 is 81 (BCDice writes them the same way). **Below 11.** A modified value
whose step would be below 0 is written 11 and counted as step 0 (BCDice floors the total at 11).
"""

from __future__ import annotations

import re

from .. import checks
from ..dice import D36_RESULTS

_SIGNED_DIGITS = re.compile(r"[+-]?[0-9]{1,12}")

#: the lowest value of the scale; anything lower is floored here (ruling, as BCDice)
LOWEST = 11


def is_d36_value(value: object) -> bool:
    """Whether ``value`` is written on the extended tens-and-units scale (11..16, 21..26, ..., 71.., ...) (000 §6)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < LOWEST:
        return False
    return 1 <= value % 10 <= 6


def whole_number(value: object, what: str) -> int:
    """``value`` as an int, or a ``ValueError`` naming it (accepts ints and digit strings like "-3").

    Text is read only as ASCII digits with an optional sign, at most 12 characters (a 1D36
    value or modifier is never longer); anything else goes to the shared `checks.whole`.
    """
    if isinstance(value, str):
        text = checks.halfwidth(value).strip()
        if _SIGNED_DIGITS.fullmatch(text):
            return int(text)
    return checks.whole(value, what)


def step_of(value: object, what: str = "D36 value") -> int:
    """The step of a value on the extended scale: 11 → 0, 16 → 5, 21 → 6, 62 → 31, 66 → 35, 71 → 36 (000 §6)."""
    number = whole_number(value, what)
    if not is_d36_value(number):
        raise ValueError(
            f"{what} {value!r} is not on the 1D36 scale: write it as tens and units with a units digit "
            "of 1 to 6 and at least 11 (11..16, 21..26, ..., 61..66, 71.. above 66)"
        )
    tens, units = divmod(number, 10)
    return 6 * (tens - 1) + (units - 1)


def value_of(step: int) -> int:
    """The written value of a step: 0 → 11, 35 → 66, 36 → 71; steps below 0 are written 11 (000 §6)."""
    step = max(0, step)
    tens, units = divmod(step, 6)
    return 10 * (tens + 1) + units + 1


def shift(value: object, steps: int, what: str = "D36 value") -> int:
    """``value`` moved by ``steps`` steps on the scale: ``shift(36, 14) == 62``, ``shift(54, 1) == 55`` (000 §6)."""
    return value_of(step_of(value, what) + steps)


def steps_between(low: object, high: object) -> int:
    """How many steps ``high`` is above ``low`` (negative if below): ``steps_between(54, 62) == 4`` (000 §6)."""
    return step_of(high) - step_of(low)


def roll_value(tens: int, units: int) -> int:
    """The 1D36 result of a tens die and a units die, each 1..6 (000 §6)."""
    for name, die in (("tens die", tens), ("units die", units)):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise ValueError(f"{name} {die!r} is not a d6 face: allowed are 1 to 6")
    return 10 * tens + units


assert [value_of(s) for s in range(36)] == list(D36_RESULTS)
