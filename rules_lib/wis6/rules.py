"""The readings the library takes where the WIS6 text is silent, gathered in one parameters object.

Every field is a choice the source text (``001``) does not make; each is explained on the
rulings page (``book/wis6/_rulings.md``). Pass a changed :class:`Wis6Rules` to any rule
function to play with another reading: ``Wis6Rules(halving="up")``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .. import checks

Rounding = Literal["down", "up"]
#: a half is x.0 or x.5, so "to the nearest" is one of these two (halves up = "up")
ROUNDINGS: tuple[str, ...] = ("down", "up")


class Wis6Error(ValueError):
    """Bad input to a WIS6 rule: the message names the value and what is allowed."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise Wis6Error(f"{name} {value!r} is not one of the readings {', '.join(allowed)}")


@dataclass(frozen=True)
class Wis6Rules:
    """Readings of the WIS6 text where it is silent. Every field is *not in the source text*.

    - ``critical_level``: what "the maximum success level" (成功レベル最大, 001 §3-1, line 43) of a
      critical is. ``"roll_of_one"``: the level a roll of 1 earns against the ability (the
      largest power of two not above it); ``"fixed"``: a fixed top of the scale for everyone,
      given as ``fixed_critical_level`` (e.g. 32, the last level the text lists, line 35).
    - ``failed_attack``: what an attack roll above the ability (level 0) does. ``"misses"``: no
      damage whatever the defender rolls; ``"compare"``: level 0 is compared like any other
      level (a defender who also fails gives the equal-levels result).
    - ``damage_level``: "the success level" in the damage formulas (001 §3-2). ``"attacker"``:
      the attacker's level; ``"margin"``: the attacker's level minus the defender's.
    - ``critical_on_equal``: a critical that the defender matches (equal levels).
      ``"critical"``: the critical formula; ``"middle"``: the equal-levels formula.
    - ``halving``: how the equal-levels ÷ 2 rounds (001 §3-2, line 56).
    - ``armour_halving``: how covering's half armour rounds (001 §4-2, line 68).
    - ``minimum_damage``: the least damage a calculated hit does (the formulas can go below 0).
    - ``counter_armour``: whether the enemy's armour is subtracted from counter damage
      (001 §4-5, lines 86–89 subtract none): ``"ignore"`` or ``"subtract"``.
    - ``counter_critical``: whether a critical counter roll also doubles counter damage
      (``"double"``) or only takes the maximum level (``"level_only"``).
    - ``tie_die_sides``: the die that breaks initiative ties (001 §1-2, line 10 names none).
    - ``metric``: distance on the lettered square map (001 §1-3, line 15, §4-2, line 67):
      ``"chebyshev"`` (a diagonal step counts 1) or ``"manhattan"`` (no diagonal steps).
    """

    critical_level: Literal["roll_of_one", "fixed"] = "roll_of_one"
    fixed_critical_level: int | None = None
    failed_attack: Literal["misses", "compare"] = "misses"
    damage_level: Literal["attacker", "margin"] = "attacker"
    critical_on_equal: Literal["critical", "middle"] = "critical"
    halving: Rounding = "down"
    armour_halving: Rounding = "down"
    minimum_damage: int = 0
    counter_armour: Literal["ignore", "subtract"] = "ignore"
    counter_critical: Literal["level_only", "double"] = "level_only"
    tie_die_sides: int = 20
    metric: Literal["chebyshev", "manhattan"] = "chebyshev"

    def __post_init__(self) -> None:
        _choice("critical_level", self.critical_level, ("roll_of_one", "fixed"))
        if self.critical_level == "fixed":
            level = self.fixed_critical_level
            if not _is_int(level) or level < 1 or level & (level - 1):
                raise Wis6Error(
                    f"fixed_critical_level {level!r} must be a level of the scale 1, 2, 4, 8, ... "
                    "when critical_level is 'fixed'"
                )
        elif self.fixed_critical_level is not None:
            raise Wis6Error("fixed_critical_level is used only with critical_level='fixed'")
        _choice("failed_attack", self.failed_attack, ("misses", "compare"))
        _choice("damage_level", self.damage_level, ("attacker", "margin"))
        _choice("critical_on_equal", self.critical_on_equal, ("critical", "middle"))
        _choice("halving", self.halving, ROUNDINGS)
        _choice("armour_halving", self.armour_halving, ROUNDINGS)
        if not _is_int(self.minimum_damage) or self.minimum_damage < 0:
            raise Wis6Error(f"minimum_damage {self.minimum_damage!r} must be a whole number, 0 or more")
        _choice("counter_armour", self.counter_armour, ("ignore", "subtract"))
        _choice("counter_critical", self.counter_critical, ("level_only", "double"))
        if not _is_int(self.tie_die_sides) or self.tie_die_sides < 2:
            raise Wis6Error(f"tie_die_sides {self.tie_die_sides!r} must be a whole number, 2 or more")
        _choice("metric", self.metric, ("chebyshev", "manhattan"))


#: The readings the book uses (see the rulings page).
DEFAULT_RULES = Wis6Rules()


def whole(name: str, value: object, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a whole number, or a :class:`Wis6Error` naming it (the shared `rules_lib.checks.whole`)."""
    return checks.whole(value, name, minimum=minimum, maximum=maximum, error=Wis6Error)


def halve(value: int, rounding: Rounding, divisor: int = 2) -> int:
    """``value / divisor`` (a half unless told otherwise) rounded down or up."""
    _choice("rounding", rounding, ROUNDINGS)
    whole("value", value)
    whole("divisor", divisor, minimum=1)
    return value // divisor if rounding == "down" else -((-value) // divisor)


__all__ = [
    "DEFAULT_RULES", "Wis6Error", "Wis6Rules", "halve",
]
