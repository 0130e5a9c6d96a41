"""Success levels (成功レベル): a d20 against an ability value, levels doubling 1, 2, 4, 8, ... (001 §3-1)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from .. import checks
from ..dice import Distribution, success_level
from ..worked import Worked
from .rules import DEFAULT_RULES, Wis6Error, Wis6Rules, whole

#: The die of every success roll (001 §3-1, line 34: ２０面ダイス).
DIE_SIDES = 20
#: How each level relates to the one below it (001 §3-1, line 35: 倍々で増加).
LEVEL_GROWTH_FACTOR = 2
#: A roll of 1 is a critical (001 §3-1, line 43).
CRITICAL_ROLL = 1
#: the most levels ``level_sequence`` lists (each doubles the last): a bound on the work, not a rule
MAX_LEVEL_COUNT = 64


def level_sequence(count: int = 6) -> tuple[int, ...]:
    """The first ``count`` success levels: 1, 2, 4, 8, 16, 32, ... (001 §3-1, line 35)."""
    whole("count", count, minimum=1, maximum=MAX_LEVEL_COUNT)
    return tuple(LEVEL_GROWTH_FACTOR**i for i in range(count))


def check_ability(ability: object, name: str = "ability") -> int:
    """An ability value (能力値): a whole number of 1 or more (001 §3-1)."""
    whole(name, ability)
    if ability < 1:
        raise Wis6Error(f"{name} {ability!r} is too low: an ability value is 1 or more")
    return ability


def check_roll(roll: object, name: str = "roll") -> int:
    """A d20 roll (001 §3-1, line 34): a whole number from 1 to 20."""
    whole(name, roll)
    if not 1 <= roll <= DIE_SIDES:
        raise Wis6Error(f"{name} {roll!r} is not on a d{DIE_SIDES}: allowed are 1 to {DIE_SIDES}")
    return roll


def check_level(level: object, name: str = "success level") -> int:
    """A success level: 0 (failed) or one of 1, 2, 4, 8, ..."""
    whole(name, level)
    if level < 0 or (level and level & (level - 1)):
        raise Wis6Error(f"{name} {level!r} is not on the scale: allowed are 0 (failed) or 1, 2, 4, 8, ...")
    return level


def highest_roll_for_level(level: int, ability: int) -> int:
    """The highest roll that still reaches ``level``: ability ÷ level, rounded down (001 §3-1, line 36).

    The text's 能力値 ÷ 成功レベル ＝ ダイス目 is read as a threshold: a roll reaches level L
    when roll ≤ ability ÷ L. A whole-number roll is at most 2.5 exactly when it is at most 2,
    so the threshold rounds down without any rounding rule being needed. 0 means no roll does.
    """
    check_level(level)
    if level == 0:
        raise Wis6Error("level 0 is a failure: it has no threshold")
    return check_ability(ability) // level


@checks.checked_arguments
def maximum_level(ability: int, rules: Wis6Rules = DEFAULT_RULES) -> int:
    """The "maximum success level" (成功レベル最大) a critical takes (001 §3-1, line 43; a ruling).

    ``rules.critical_level == "roll_of_one"``: the level a roll of 1 earns against ``ability``;
    ``"fixed"``: ``rules.fixed_critical_level`` for everyone.
    """
    check_ability(ability)
    if rules.critical_level == "fixed":
        return rules.fixed_critical_level  # type: ignore[return-value]
    return success_level(CRITICAL_ROLL, ability)


@dataclass(frozen=True)
class SuccessRoll(Worked):
    """One success roll: the die, the ability, the level reached (0 = failed) and whether it is a critical."""

    roll: int
    ability: int
    level: int
    critical: bool

    @property
    def succeeded(self) -> bool:
        return self.level > 0


def success_roll(roll: int, ability: int, rules: Wis6Rules = DEFAULT_RULES) -> SuccessRoll:
    """The success level a d20 ``roll`` reaches against ``ability`` (001 §3-1).

    A roll above the ability fails (level 0). Otherwise the level is the largest L of
    1, 2, 4, ... with roll ≤ ability ÷ L. A roll of 1 is a critical: it takes the maximum
    level (:func:`maximum_level`) and doubles damage, but it is not an automatic hit.
    """
    check_roll(roll)
    check_ability(ability)
    if roll == CRITICAL_ROLL:
        level = maximum_level(ability, rules)
        steps = (
            f"d20 roll {roll} against ability {ability}: a 1 is a critical (クリティカル)",
            f"a critical takes the maximum success level: level {level} ({_critical_reading(rules)})",
        )
        return SuccessRoll(roll, ability, level, True, steps=steps)
    level = success_level(roll, ability)
    if level == 0:
        steps = (f"d20 roll {roll} against ability {ability}: above the ability, the roll fails (level 0)",)
    else:
        steps = (
            f"d20 roll {roll} against ability {ability}: the largest level L with {roll} ≤ {ability} ÷ L "
            f"is {level} ({ability} ÷ {level} = {_decimal(Fraction(ability, level))})",
        )
    return SuccessRoll(roll, ability, level, False, steps=steps)


def _decimal(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.4g}"


def _critical_reading(rules: Wis6Rules) -> str:
    if rules.critical_level == "fixed":
        return "ruling: the fixed top of the scale"
    return "ruling: the level a roll of 1 earns against this ability"


@dataclass(frozen=True)
class LevelOdds:
    """The exact chances of one success roll: each level (0 = failed), failing, and a critical."""

    ability: int
    levels: Distribution
    failure: Fraction
    critical: Fraction
    critical_level: int

    def at_least(self, level: int) -> Fraction:
        """The chance of reaching ``level`` or higher."""
        return self.levels.at_least(level)


@checks.checked_arguments
def level_odds(ability: int, rules: Wis6Rules = DEFAULT_RULES) -> LevelOdds:
    """The exact chance of each success level for ``ability`` on a d20 (001 §3-1).

    The critical roll counts at its maximum level, so under ``critical_level="fixed"`` a 1
    may reach a level no other roll can.
    """
    counts = _level_counts(check_ability(ability), rules)
    by_level: Counter = Counter()
    for (level, _critical), n in counts.items():
        by_level[level] += n
    levels = Distribution.from_counts(by_level)
    return LevelOdds(
        ability=ability,
        levels=levels,
        failure=levels[0],
        critical=Fraction(1, DIE_SIDES),
        critical_level=maximum_level(ability, rules),
    )


@cache
def _level_counts(ability: int, rules: Wis6Rules) -> dict[tuple[int, bool], int]:
    """How many of the 20 faces give each (level, critical) pair."""
    counts: Counter = Counter()
    for roll in range(1, DIE_SIDES + 1):
        result = success_roll(roll, ability, rules)
        counts[(result.level, result.critical)] += 1
    return dict(counts)


@checks.checked_arguments
def roll_states(ability: int, rules: Wis6Rules = DEFAULT_RULES) -> dict[tuple[int, bool], Fraction]:
    """The exact chance of each (level, critical) pair of one d20 against ``ability`` (001 §3-1)."""
    counts = _level_counts(check_ability(ability), rules)
    return {state: Fraction(n, DIE_SIDES) for state, n in counts.items()}


__all__ = [
    "CRITICAL_ROLL", "DIE_SIDES", "LEVEL_GROWTH_FACTOR", "LevelOdds", "SuccessRoll", "check_ability",
    "check_level", "check_roll", "highest_roll_for_level", "level_odds", "level_sequence", "maximum_level",
    "roll_states", "success_roll",
]
