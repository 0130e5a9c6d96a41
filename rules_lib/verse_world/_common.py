"""Small input checks shared by the Verse World modules."""

from __future__ import annotations

from collections.abc import Iterable


def check_int(value: object, what: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` if it is a whole number within the bounds; otherwise a ``ValueError`` naming it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} {value!r} is not a whole number")
    if minimum is not None and value < minimum:
        if minimum == 0:
            raise ValueError(f"{what} {value} is negative: allowed are 0 or more")
        raise ValueError(f"{what} {value} is below {minimum}: allowed are {minimum} or more")
    if maximum is not None and value > maximum:
        raise ValueError(f"{what} {value} is above {maximum}: allowed are at most {maximum}")
    return value


def check_choice(value: object, what: str, allowed: Iterable[str]) -> str:
    allowed = tuple(allowed)
    if value not in allowed:
        raise ValueError(f"{what} {value!r} is unknown: allowed are {', '.join(map(repr, allowed))}")
    return value  # type: ignore[return-value]


def check_dice_pair(dice: object, what: str = "2D6") -> tuple[int, int]:
    """Two six-sided dice as a tuple."""
    try:
        a, b = dice  # type: ignore[misc]
    except (TypeError, ValueError):
        raise ValueError(f"{what} dice {dice!r} are not two dice") from None
    for die in (a, b):
        check_int(die, f"{what} die", minimum=1, maximum=6)
    return a, b
