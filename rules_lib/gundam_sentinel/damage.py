"""Damage resolution: armour, the additional-damage check and its secondary damage chart, the critical hit
chart, durability and add-on armour (000 §6, §7-20)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .. import checks
from ..worked import Worked
from .charts import Chart, ChartRoll, get_chart, roll_chart
from .d36 import whole_number
from .units import HitLocation

#: any damage that gets through triggers the additional-damage check (000 §6, line 324)
EXTRA_CHECK_FROM_DAMAGE = 1


@dataclass(frozen=True)
class DamageResult:
    damage: int
    armour: int
    through: int
    durability: int
    destroyed: bool
    additional_check: bool
    secondary_damage: bool | None
    secondary_effect: str | None
    steps: tuple[str, ...]
    secondary: ChartRoll | None = None


@checks.checked_flags
def apply_damage(
    damage: int,
    armour: int,
    durability: int,
    *,
    additional_value: int | None = None,
    additional_dice: Sequence[int] | None = None,
    additional_modifier: int = 0,
    secondary_dice: Sequence[int] | None = None,
    secondary_chart: Chart | None = None,
    ignores_armour: bool = False,
) -> DamageResult:
    """Damage to an MS (000 §6, lines 323-336).

    The hit location's **armour value** (装甲値) stops that much: armour 6 means 6 damage or less has
    no effect. If even 1 gets through, roll 2D6 (``additional_dice``, plus ``additional_modifier``
    from earlier secondary damage): at most the **additional value** (追加値) means a secondary
    damage check on the **secondary damage chart** (二次被害判定チャート, line 325), read with
    ``secondary_dice`` (D66: first die the row, second the column). The chart is *not in the source
    text*: ``secondary_chart`` defaults to BCDice's (:mod:`.charts`). An entry "no damage" cancels
    this hit's damage. Durability (耐久力) at 0 destroys the MS. Plasma leader and leader bits
    ignore armour (``ignores_armour``).
    """
    damage = whole_number(damage, "damage")
    armour = whole_number(armour, "armour")
    durability = whole_number(durability, "durability")
    additional_modifier = whole_number(additional_modifier, "additional modifier")
    if damage < 0 or armour < 0 or durability < 0:
        raise ValueError(f"damage {damage}, armour {armour}, durability {durability}: allowed are 0 or more")
    stop = 0 if ignores_armour else armour
    through = max(0, damage - stop)
    steps = [f"damage {damage} - armour {stop} = {through}" + (" (armour ignored)" if ignores_armour else "")]
    left = max(0, durability - through)
    destroyed = left == 0
    steps.append(f"durability {durability} - {through} = {left}" + (": destroyed (escape check follows)" if destroyed else ""))
    check = through >= EXTRA_CHECK_FROM_DAMAGE
    secondary = effect = chart_roll = None
    if not check:
        steps.append("no damage got through: no additional-damage check")
    elif additional_dice is not None:
        if additional_value is None:
            raise ValueError("the additional-damage check needs the hit location's additional value (追加値)")
        dice = tuple(additional_dice)
        if len(dice) != 2 or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
            raise ValueError(f"additional-damage dice {dice!r}: give two d6 faces, each 1 to 6")
        modifier = whole_number(additional_modifier, "additional-damage modifier")
        rolled = sum(dice) + modifier
        secondary = rolled <= whole_number(additional_value, "additional value")
        steps.append(f"additional-damage check: 2D6 {sum(dice)}" + (f" {modifier:+d} = {rolled}" if modifier else "")
                     + f" <= {additional_value}? " + ("yes: secondary damage (二次被害)" if secondary else "no: done"))
        if secondary and secondary_dice is not None:
            chart_roll = roll_chart(secondary_chart or get_chart("SDDC"), secondary_dice)
            effect = chart_roll.entry.english
            steps += list(chart_roll.steps)
            if chart_roll.entry.has("no damage"):
                left, destroyed = durability, False
                steps.append(f"this hit's damage is cancelled: durability stays {durability}")
        elif secondary:
            steps.append("roll D66 on the secondary damage chart (二次被害判定チャート)")
    else:
        steps.append("damage got through: roll 2D6 against the additional value (追加値)")
    return DamageResult(damage, armour, through, left, destroyed, check, secondary, effect, tuple(steps), chart_roll)


@checks.checked_arguments
def critical_hit(dice: Sequence[int], *, chart: Chart | None = None) -> ChartRoll:
    """A critical against a mook MS (000 §6, line 296): its effect comes from the **critical hit
    chart** (クリティカルヒットチャート), 2D6. The chart is *not in the source text*: ``chart``
    defaults to BCDice's enemy MS critical hit chart (:mod:`.charts`)."""
    return roll_chart(chart or get_chart("ECHC"), dice)


#: the largest armour ``largest_stopped`` searches (its work grows with the armour): a bound on
#: the work, not a rule of the text
MAX_ARMOUR = 10_000


def largest_stopped(armour: int) -> int:
    """The largest damage an armour value stops completely: armour 6 stops 6 or less (000 §6)."""
    armour = checks.whole(whole_number(armour, "armour"), "armour", minimum=0, maximum=MAX_ARMOUR)
    best = 0
    for damage in range(0, armour + 2):
        if apply_damage(damage, armour, 1).through == 0:
            best = damage
    return best


def secondary_damage_chance(additional_value: int) -> Fraction:
    """Chance that the additional-damage check (2D6 <= additional value) calls for secondary damage (000 §6)."""
    value = whole_number(additional_value, "additional value")
    return Fraction(sum(a + b <= value for a in range(1, 7) for b in range(1, 7)), 36)


@dataclass(frozen=True)
class AddOnArmour:
    """Chobham armour (チョバムアーマー) or an ABC mantle (ＡＢＣマント), 000 §7-20: a hit goes to the
    add-on's own armour and durability first; an ABC mantle only takes beam hits."""

    name: str
    armour: int
    durability: int
    beam_only: bool = False


@dataclass(frozen=True)
class AddOnHit(Worked):
    to_addon: int
    addon_durability: int
    to_body: int


@checks.checked_arguments
def hit_with_addon(damage: int, addon: AddOnArmour, *, beam: bool, overflow_to_body: bool = False) -> AddOnHit:
    """Where a hit's damage goes with add-on armour (000 §7-20, lines 536, 561).

    While the add-on has durability above 0 it takes the hit (after its own armour); once it is at
    0 or less, hits reach the MS body. Whether the excess of the hit that breaks it carries over is
    not stated; ruling: no (``overflow_to_body``). An ABC mantle does nothing against solid weapons.
    """
    damage = whole_number(damage, "damage")
    if addon.durability <= 0 or (addon.beam_only and not beam):
        why = "is used up" if addon.durability <= 0 else "does not stop solid weapons"
        return AddOnHit(0, addon.durability, damage, steps=(f"{addon.name} {why}: {damage} to the MS body",))
    through = max(0, damage - addon.armour)
    left = addon.durability - through
    body = max(0, -left) if overflow_to_body else 0
    steps = (f"{addon.name}: {damage} - armour {addon.armour} = {through}; its durability {addon.durability} -> {left}",)
    return AddOnHit(through, left, body, steps=steps)


@dataclass(frozen=True)
class HitLocationResult(Worked):
    """Where a hit landed: the row of the MS sheet's table, the total that picked it, and the working."""

    location: HitLocation
    total: int


@checks.checked_arguments
def check_hit_location_table(table: Sequence[HitLocation], owner: str = "the MS") -> tuple[HitLocation, ...]:
    """``table`` if its rows give each total from 1 up to their highest exactly once, and reach at
    least 6 (000 §6, line 321): the die is 1D6, and the mission level and skill modifiers are added
    to it, so a sheet may have rows for totals above 6 (ミッションレベル). A total with no row would
    have nothing to read, so no total may be skipped; a total above the last row reads the last row
    (:func:`hit_location`, a ruling)."""
    rolls = sorted(r for location in table for r in location.rolls)
    if not rolls or rolls != list(range(1, rolls[-1] + 1)) or rolls[-1] < 6:
        raise ValueError(f"{owner}'s hit locations cover the totals {rolls}: each of 1 to 6, and any above "
                         "(for the mission level and skills, 000 §6, line 321), exactly once and without a gap")
    return tuple(table)


@checks.checked_arguments
def hit_location(
    die: int, table: Sequence[HitLocation], *, mission_level: int = 0, skill_modifier: int = 0
) -> HitLocationResult:
    """The hit location (命中箇所判定, 000 §6, line 321) of a hit on a PC's MS.

    1D6 + the **mission level** (ミッションレベル) + skill modifiers, read on the MS sheet's table
    (データ表; no sheet is in the text). A total above the table's highest row uses that row and
    one below its lowest uses the lowest (a ruling: the text gives no rule for totals off the table).
    """
    whole_number(die, "hit-location die")
    if not 1 <= die <= 6:
        raise ValueError(f"hit-location die {die!r}: a d6 shows 1 to 6")
    if not table:
        raise ValueError("the MS has no hit-location table: pass its sheet's rows (not in the source text)")
    total = die + whole_number(mission_level, "mission level") + whole_number(skill_modifier, "skill modifier")
    rows = sorted(r for location in table for r in location.rolls)
    clamped = min(max(total, rows[0]), rows[-1])
    location = next(loc for loc in table if clamped in loc.rolls)
    steps = [f"1D6 {die} + mission level {mission_level} + skill {skill_modifier} = {total}"]
    if clamped != total:
        steps.append(f"{total} is off the table: read as {clamped} (ruling)")
    steps.append(f"{clamped}: {location.name} (armour {location.armour}, additional value {location.additional_value})")
    return HitLocationResult(location, total, steps=tuple(steps))


__all__ = [
    "AddOnArmour", "HitLocationResult", "apply_damage", "check_hit_location_table", "critical_hit", "hit_location",
    "hit_with_addon",
    "largest_stopped", "secondary_damage_chance",
]
