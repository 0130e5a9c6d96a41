"""Armour check, damage, structure, hit location and part destruction (002 §3-1, §4-1, §7-1, §H6 防御)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Literal

from .. import checks
from ..dice import Distribution, distribution, roll
from ..worked import Worked
from .silhouette import BODY_PARTS, PARTS, Silhouette

#: structure lost when the attack does not penetrate (§3-1, line 207)
UNPENETRATED_STRUCTURE_LOSS = 1
#: minimum guaranteed damage (最低保障ダメージ, §4-1, line 213)
MINIMUM_DAMAGE = 1


# -- armour check --------------------------------------------------------------------


def penetrates(attack: int, armour: int) -> bool:
    """The attack penetrates when it exceeds (超えた) the armour value: strictly greater (002 §3-1)."""
    checks.whole(attack, "attack total")
    checks.whole(armour, "armour (装甲値)", minimum=0)
    return attack > armour


@dataclass(frozen=True)
class ArmourCheck(Worked):
    attack: int
    armour: int
    penetrated: bool
    structure_loss: int  # 1 when not penetrated, else 0 (damage follows)


def armour_check(attack: str, armour: int, *, dice: Sequence[int] | None = None,
                 seed: int | None = None) -> ArmourCheck:
    """Roll the weapon's attack (攻撃力) against the armour value (装甲値) (002 §3-1, lines 205-207)."""
    checks.whole(armour, "armour (装甲値)", minimum=0)
    rolled = roll(attack, dice=dice, seed=seed)
    steps = list(rolled.steps)
    if penetrates(rolled.total, armour):
        steps.append(f"{rolled.total} > armour {armour}: penetrates (装甲を抜いた); go to damage")
        return ArmourCheck(rolled.total, armour, True, 0, steps=tuple(steps))
    steps.append(f"{rolled.total} does not exceed armour {armour}: structure −{UNPENETRATED_STRUCTURE_LOSS}")
    return ArmourCheck(rolled.total, armour, False, UNPENETRATED_STRUCTURE_LOSS, steps=tuple(steps))


def penetration_chance(attack: str, armour: int) -> Fraction:
    """Exact chance that the attack roll exceeds the armour (002 §3-1)."""
    checks.whole(armour, "armour (装甲値)", minimum=0)
    return distribution(attack).probability(lambda total: penetrates(total, armour))


# -- damage --------------------------------------------------------------------------


def damage_after_attenuation(rolled: int, attenuation: int, melee: bool = False, multiplier: int = 1) -> int:
    """Damage minus attenuation (減衰値), at least 1; melee ignores attenuation (002 §4-1, lines 213, 217).

    ``multiplier`` is the melee duel's ×3 / ×2 (§6-2), applied to the rolled damage (ruling).
    """
    checks.whole(attenuation, "attenuation (減衰値)", minimum=0)
    checks.whole(rolled, "rolled damage")
    checks.flag(melee, "melee")
    checks.whole(multiplier, "damage multiplier", minimum=1, maximum=3)
    if multiplier not in (1, 2, 3):
        raise ValueError(f"damage multiplier {multiplier!r} is not 1, 2 or 3")
    value = rolled * multiplier - (0 if melee else attenuation)
    return max(value, MINIMUM_DAMAGE)


@dataclass(frozen=True)
class DamageRoll(Worked):
    rolled: int
    damage: int


def roll_damage(damage: str, attenuation: int, *, melee: bool = False, multiplier: int = 1,
                dice: Sequence[int] | None = None, seed: int | None = None) -> DamageRoll:
    """Roll damage and apply attenuation and the minimum of 1 (002 §4-1), showing the working."""
    rolled = roll(damage, dice=dice, seed=seed)
    steps = list(rolled.steps)
    value = rolled.total
    if multiplier != 1:
        steps.append(f"duel win ×{multiplier}: {value} × {multiplier} = {value * multiplier}")
        value *= multiplier
    if melee:
        steps.append("melee weapon: attenuation does not apply")
    else:
        steps.append(f"{value} − attenuation {attenuation} = {value - attenuation}")
        value -= attenuation
    final = damage_after_attenuation(rolled.total, attenuation, melee, multiplier)
    if final != value:
        steps.append(f"{value} is 1 or less: minimum guaranteed damage {MINIMUM_DAMAGE}")
    return DamageRoll(rolled.total, final, steps=tuple(steps))


class RapidFireDamage(StrEnum):
    """How a rapid-fire (連射) attack's hits take damage (002 §4-1, line 215, §H5, line 371; see the rulings)."""

    EACH_HIT_ROLLS = "each_hit_rolls"  # line 371: roll the damage once per hit (連射回数分のダイスを振り)
    ONE_ROLL_EACH_HIT = "one_roll_each_hit"  # line 215 alone: fix one damage, then count the hits


@dataclass(frozen=True)
class RapidFireHits(Worked):
    """A rapid-fire attack's hits: the damage of each hit (after attenuation, at least 1) and the total."""

    hits: int
    damage_rolls: int
    per_hit: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.per_hit)


def rapid_fire_hits(damage: str, attenuation: int, rapid_fire_count: int, *,
                    dice: Sequence[Sequence[int]] | None = None, seed: int | None = None,
                    reading: RapidFireDamage | str = RapidFireDamage.EACH_HIT_ROLLS) -> RapidFireHits:
    """The hits of one rapid-fire attack that penetrated (002 §4-1, line 215, §H5 連射 lines 369-371).

    The number of hits is the rapid-fire count (連射回数): "roll as many dice as the rapid-fire
    count and determine the damage" (line 371), the hits decided once the damage is (line 215). No
    weapon in the text gives a count, so ``rapid_fire_count`` is required (*not in the source
    text*). Each hit's damage loses the attenuation and is at least 1 (line 213). By default each
    hit rolls the weapon's damage (line 371); ``RapidFireDamage.ONE_ROLL_EACH_HIT`` rolls it once and
    counts it for every hit. ``dice`` gives each damage roll's dice; ``seed`` rolls hit ``i`` with
    ``seed + i``.
    """
    reading = RapidFireDamage(reading)
    if isinstance(rapid_fire_count, bool) or not isinstance(rapid_fire_count, int) or rapid_fire_count < 1:
        raise ValueError(f"rapid-fire count {rapid_fire_count!r} is not a whole number of 1 or more")
    rolls = rapid_fire_count if reading is RapidFireDamage.EACH_HIT_ROLLS else 1
    if dice is not None and len(dice) != rolls:
        raise ValueError(f"{len(dice)} sets of damage dice given; this attack rolls its damage {rolls} time(s)")
    results = [
        roll_damage(damage, attenuation, dice=None if dice is None else dice[i],
                    seed=None if seed is None else seed + i)
        for i in range(rolls)
    ]
    per_hit = tuple(r.damage for r in results) if rolls == rapid_fire_count else (results[0].damage,) * rapid_fire_count
    steps = [f"rapid fire {rapid_fire_count}: {rapid_fire_count} hit(s), damage rolled {rolls} time(s) ({reading.value})"]
    for number, result in enumerate(results, 1):
        steps.append(f"damage roll {number}: " + "; ".join(result.steps))
    steps.append(f"hits {' + '.join(map(str, per_hit))} = {sum(per_hit)} damage")
    return RapidFireHits(rapid_fire_count, rolls, per_hit, steps=tuple(steps))


def damage_distribution(damage: str, attenuation: int, melee: bool = False, multiplier: int = 1) -> Distribution:
    """Exact distribution of the damage dealt after attenuation and the minimum of 1 (002 §4-1)."""
    checks.whole(attenuation, "attenuation (減衰値)", minimum=0)
    return distribution(damage).map(lambda r: damage_after_attenuation(r, attenuation, melee, multiplier))


def structure_loss_distribution(attack: str, damage: str, armour: int, attenuation: int,
                                melee: bool = False) -> Distribution:
    """Exact distribution of structure lost to one attack: 1 if not penetrated, else the damage (002 §3-1, §4-1)."""
    return _structure_loss(penetration_chance(attack, armour), damage_distribution(damage, attenuation, melee))


def _structure_loss(penetration: Fraction, damage: Distribution) -> Distribution:
    """Structure lost: 1 with the chance of not penetrating, else the damage (from a penetration chance
    and a damage distribution already computed)."""
    merged: dict[int, Fraction] = {UNPENETRATED_STRUCTURE_LOSS: 1 - penetration}
    for value, q in damage.items():
        merged[value] = merged.get(value, Fraction(0)) + penetration * q
    return Distribution({k: v for k, v in merged.items() if v})


@dataclass(frozen=True)
class ArmourOdds:
    """Exact odds of one attack: penetration, the damage if it penetrates, and structure lost."""

    penetration: Fraction
    damage: Distribution
    structure_loss: Distribution


def armour_odds(attack: str, armour: int, damage: str, attenuation: int, melee: bool = False) -> ArmourOdds:
    """Penetration chance (§3-1), damage after attenuation (§4-1), and the structure an attack takes."""
    return armour_odds_against(attack, (armour,), damage, attenuation, melee)[armour]


#: the most armour values one odds table compares: a bound on the work, *not in the source text*
MAX_ARMOUR_TARGETS = 20


def armour_odds_against(attack: str, armours: Sequence[int], damage: str, attenuation: int,
                        melee: bool = False) -> dict[int, ArmourOdds]:
    """`armour_odds` against each of several armour values (002 §3-1, §4-1), the attack's and the
    damage's distributions computed once for all of them (a sheet's odds table), the structure lost
    from both. At most `MAX_ARMOUR_TARGETS` armour values."""
    if isinstance(armours, str) or not isinstance(armours, Sequence):
        raise ValueError(f"armours {checks.shown(armours)} are not a list of armour values")
    if len(armours) > MAX_ARMOUR_TARGETS:
        raise ValueError(f"{len(armours)} armour values: allowed are at most {MAX_ARMOUR_TARGETS}")
    for armour in armours:
        checks.whole(armour, "armour (装甲値)", minimum=0)
    rolled = distribution(attack)
    dealt = damage_distribution(damage, attenuation, melee)
    odds = {}
    for armour in armours:
        penetration = rolled.probability(lambda total, armour=armour: penetrates(total, armour))
        odds[armour] = ArmourOdds(penetration, dealt, _structure_loss(penetration, dealt))
    return odds


Rounding = Literal["up", "down"]


def defended(damage: int, rounding: Rounding = "up") -> int:
    """The defence action (防御行動) halves damage to structure (002 §H6, line 457).

    The text gives no rounding: ``rounding="up"`` (the default, so a 1 stays 1 like the
    minimum damage) or ``"down"`` — *not in the source text*.
    """
    checks.whole(damage, "damage", minimum=0)
    if rounding not in ("up", "down"):
        raise ValueError(f"rounding {rounding!r} is not 'up' or 'down'")
    return -(-damage // 2) if rounding == "up" else damage // 2


# -- hit location --------------------------------------------------------------------

#: 【破壊部位判定】 on 1D20 (§7-1, lines 309-319): part -> faces
HIT_LOCATION: dict[str, tuple[int, ...]] = {
    "head": (1, 20),
    "right_arm": (2, 3, 4),
    "left_arm": (5, 6, 7),
    "torso": tuple(range(8, 16)),
    "right_leg": (16, 17),
    "left_leg": (18, 19),
}
#: the table's own labels (they differ from the sheet's part names: 頭 / 頭部, 右手 / 右腕)
HIT_LOCATION_LABELS = {
    "head": "頭", "right_arm": "右手", "left_arm": "左手",
    "torso": "胴体", "right_leg": "右脚", "left_leg": "左脚",
}
LOCATION_ROLL = "1D20"
_FACE_TO_PART = {face: part for part, faces in HIT_LOCATION.items() for face in faces}


def hit_location(roll_value: int, body: str = "humanoid") -> str:
    """The part hit for a 1D20 roll (002 §7-1); vehicles and aircraft have only a torso (line 337)."""
    if body not in BODY_PARTS:
        raise ValueError(f"body {body!r} is not one of {', '.join(BODY_PARTS)}")
    if isinstance(roll_value, bool) or not isinstance(roll_value, int) or roll_value not in _FACE_TO_PART:
        raise ValueError(f"hit location roll {roll_value!r} is not a 1D20 face 1 to 20")
    part = _FACE_TO_PART[roll_value]
    return part if part in BODY_PARTS[body] else "torso"


def hit_location_distribution(body: str = "humanoid") -> Distribution:
    """The chance of each part on the 1D20 hit-location roll (002 §7-1)."""
    return Distribution.uniform(hit_location(face, body) for face in range(1, 21))


# -- structure, parts and destruction -------------------------------------------------

PartDamage = Literal["overflow", "whole"]


@dataclass(frozen=True)
class UnitState:
    """Structure (構造値) and part durability (部位耐久値) left; ``destroyed`` lists parts at 0."""

    structure: int
    parts: Mapping[str, int]
    destroyed: tuple[str, ...] = field(default=())

    @classmethod
    def fresh(cls, unit: Silhouette) -> UnitState:
        """The state of ``unit`` before any damage."""
        checks.of_type(unit, "unit", Silhouette)
        return cls(unit.structure, dict(unit.part_durability))


@dataclass(frozen=True)
class DamageOutcome(Worked):
    state: UnitState
    part_hit: str | None
    part_damage: int
    destroyed_now: tuple[str, ...]


@checks.checked_arguments
def apply_damage(state: UnitState, damage: int, location_roll: int | None = None, body: str = "humanoid",
                 part_damage: PartDamage = "overflow") -> DamageOutcome:
    """Take damage on structure, spilling to a part rolled on 1D20 (002 §4-1, line 219, §7-1, lines 299-321).

    A hit that takes structure below 0 sends the amount below 0 to a part; a unit already at 0
    takes the whole damage on a part. ``part_damage="whole"`` reads §4-1 literally instead: once
    structure is 0 after the hit, the whole damage goes to the part. Damage on a part already
    destroyed is lost (ruling).
    """
    checks.whole(damage, "damage", minimum=0)
    if part_damage not in ("overflow", "whole"):
        raise ValueError(f"part_damage {part_damage!r} is not 'overflow' or 'whole'")
    steps = []
    before = state.structure
    if before > 0:
        after = max(before - damage, 0)
        steps.append(f"structure {before} − {damage} = {before - damage}" + (" → 0" if before - damage < 0 else ""))
        if after > 0:
            return DamageOutcome(UnitState(after, state.parts, state.destroyed), None, 0, (), steps=tuple(steps))
        to_part = damage if part_damage == "whole" else damage - before
        steps.append(f"structure reached 0: {to_part} goes to a part"
                     + (" (the amount below 0)" if part_damage == "overflow" else " (the whole damage)"))
    else:
        after = 0
        to_part = damage
        steps.append(f"structure was already 0: the whole {damage} goes to a part")
    if to_part == 0:
        steps.append("nothing left over for a part")
        return DamageOutcome(UnitState(after, state.parts, state.destroyed), None, 0, (), steps=tuple(steps))
    if location_roll is None:
        raise ValueError("damage reaches a part: give the 1D20 hit-location roll (location_roll=...)")
    part = hit_location(location_roll, body)
    parts = dict(state.parts)
    steps.append(f"1D20 {location_roll}: {part.replace('_', ' ')} ({HIT_LOCATION_LABELS[part]})")
    if part in state.destroyed:
        steps.append(f"{part.replace('_', ' ')} is already destroyed: the damage is lost (ruling)")
        return DamageOutcome(UnitState(after, parts, state.destroyed), part, 0, (), steps=tuple(steps))
    left = max(parts[part] - to_part, 0)
    steps.append(f"{part.replace('_', ' ')} {parts[part]} − {to_part} = {parts[part] - to_part}"
                 + (" → 0" if parts[part] - to_part < 0 else ""))
    parts[part] = left
    destroyed_now: tuple[str, ...] = ()
    if left == 0:
        destroyed_now = (part,)
        steps.append(f"{part.replace('_', ' ')} is destroyed")
    return DamageOutcome(UnitState(after, parts, state.destroyed + destroyed_now), part, to_part,
                         destroyed_now, steps=tuple(steps))


@dataclass(frozen=True)
class DestructionEffects(Worked):
    out_of_action: bool
    interrupt_surcharge: int
    unusable_arms: tuple[str, ...]
    two_handed_unusable: bool
    action_dice_lost: int
    may_concede: bool


def destruction_effects(destroyed: Sequence[str]) -> DestructionEffects:
    """What destroyed parts do (002 §7-1, lines 321-335).

    Head: interrupt actions cost 1 more. Torso: the unit is destroyed and cannot act. An arm:
    that arm's weapons and two-handed weapons are unusable. A leg: 2 fewer action dice. Any
    destroyed part: its player may concede.
    """
    for part in destroyed:
        if part not in PARTS:
            raise ValueError(f"unknown part {part!r}: parts are {', '.join(PARTS)}")
    if len(set(destroyed)) != len(destroyed):
        raise ValueError(f"a part is listed twice: {tuple(destroyed)}")
    steps = []
    surcharge = 1 if "head" in destroyed else 0
    if surcharge:
        steps.append("head destroyed: every interrupt action costs 1 more active value")
    out = "torso" in destroyed
    if out:
        steps.append("torso destroyed: the unit is destroyed and cannot act (行動不能)")
    arms = tuple(p for p in ("right_arm", "left_arm") if p in destroyed)
    for arm in arms:
        steps.append(f"{arm.replace('_', ' ')} destroyed: its weapons and any two-handed weapon are unusable")
    legs = sum(p in destroyed for p in ("right_leg", "left_leg"))
    if legs:
        steps.append(f"{legs} leg(s) destroyed: {2 * legs} fewer action dice")
    concede = bool(destroyed)
    if concede:
        steps.append("a part is destroyed: the player may declare defeat and concede (投了)")
    return DestructionEffects(out, surcharge, arms, bool(arms), 2 * legs, concede, steps=tuple(steps))


__all__ = [
    "HIT_LOCATION", "HIT_LOCATION_LABELS", "LOCATION_ROLL", "MINIMUM_DAMAGE", "UNPENETRATED_STRUCTURE_LOSS",
    "ArmourOdds", "RapidFireDamage", "RapidFireHits", "UnitState", "apply_damage", "armour_check",
    "armour_odds", "armour_odds_against", "damage_after_attenuation", "damage_distribution", "defended", "destruction_effects",
    "hit_location", "hit_location_distribution", "penetrates", "penetration_chance", "rapid_fire_hits",
    "roll_damage", "structure_loss_distribution",
]
