"""Small input checks shared by the Verse World modules."""

from __future__ import annotations

from collections.abc import Iterable

from .. import checks


def check_int(value: object, what: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` if it is a whole number within the bounds (the shared `rules_lib.checks.whole`)."""
    return checks.whole(value, what, minimum=minimum, maximum=maximum)


def check_choice(value: object, what: str, allowed: Iterable[str]) -> str:
    """``value`` if it is one of ``allowed`` (the shared `rules_lib.checks.choice`)."""
    return checks.choice(value, what, allowed)


def check_dice_pair(dice: object, what: str = "2D6") -> tuple[int, int]:
    """Two six-sided dice as a tuple."""
    try:
        a, b = dice  # type: ignore[misc]
    except (TypeError, ValueError):
        raise ValueError(f"{what} dice {dice!r} are not two dice") from None
    for die in (a, b):
        check_int(die, f"{what} die", minimum=1, maximum=6)
    return a, b
