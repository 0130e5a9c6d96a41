"""Small input checks shared by the Verse World modules."""

from __future__ import annotations

from .. import checks


def check_dice_pair(dice: object, what: str = "2D6") -> tuple[int, int]:
    """Two six-sided dice as a tuple."""
    try:
        a, b = dice  # type: ignore[misc]
    except (TypeError, ValueError):
        raise ValueError(f"{what} dice {dice!r} are not two dice") from None
    for die in (a, b):
        checks.whole(die, f"{what} die", minimum=1, maximum=6)
    return a, b
