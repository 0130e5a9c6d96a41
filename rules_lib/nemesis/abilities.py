"""Ability checks and interrupt actions: d6 pools against d6 pools, and active-value costs (002 §H5, §H6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Literal

from .. import checks
from ..dice import OpposedOdds, opposed_pools
from ..worked import Worked
from .action import check_faces, read_pattern
from .silhouette import Silhouette

#: every pool contest of the text rolls six-sided dice, 1D6 per point of a value
POOL_DIE_SIDES = 6


@dataclass(frozen=True)
class PoolContest(Worked):
    """One d6-pool contest: each side's dice and sums, and whether the side named first succeeds."""

    name: str
    first: tuple[int, ...]
    second: tuple[int, ...]
    success: bool

    @property
    def first_total(self) -> int:
        return sum(self.first)

    @property
    def second_total(self) -> int:
        return sum(self.second)


def _contest(name: str, first_name: str, first: Sequence[int], second_name: str, second: Sequence[int],
             first_wins_ties: bool, outcome: tuple[str, str]) -> PoolContest:
    a, b = check_faces(first, f"{first_name}'s dice"), check_faces(second, f"{second_name}'s dice")
    sa, sb = sum(a), sum(b)
    success = sa >= sb if first_wins_ties else sa > sb
    rel = ">=" if first_wins_ties else ">"
    steps = (f"{first_name}: {len(a)}D6 {'+'.join(map(str, a)) or '(no dice)'} = {sa}",
             f"{second_name}: {len(b)}D6 {'+'.join(map(str, b)) or '(no dice)'} = {sb}",
             f"{sa} {rel} {sb}? {'yes' if success else 'no'}: {outcome[0] if success else outcome[1]}")
    return PoolContest(name, a, b, success, steps=steps)


@checks.checked_flags
def contest_chance(first_dice: int, second_dice: int, first_wins_ties: bool) -> Fraction:
    """Exact chance that ``first_dice`` d6 summed beat (or, if it wins ties, reach) ``second_dice`` d6 (002 §H5, §H6)."""
    checks.whole(first_dice, "the first side's dice", minimum=0)
    checks.whole(second_dice, "the second side's dice", minimum=0)
    odds = opposed_pools(first_dice, second_dice, POOL_DIE_SIDES)
    return odds.higher + (odds.tie if first_wins_ties else 0)


def pool_odds(first_dice: int, second_dice: int) -> OpposedOdds:
    """N d6 against M d6: exact chances that the first sum is higher, tied, lower (the contests of 002 §5-1, §H5, §H6)."""
    checks.whole(first_dice, "the first side's dice", minimum=0)
    checks.whole(second_dice, "the second side's dice", minimum=0)
    return opposed_pools(first_dice, second_dice, POOL_DIE_SIDES)


# -- fall (転倒) ----------------------------------------------------------------------


class FallReading(StrEnum):
    """Who falls in a fall check (§H5 転倒, line 361 reads backwards; see the rulings).

    ``AS_WRITTEN`` is the text and the default; the other two are the book's alternative readings.
    """

    AS_WRITTEN = "as_written"  # the text: the defender falls if it equals or beats the attacker
    DEFENDER_RESISTS = "defender_resists"  # reading: the defender stands if it equals or beats the attacker
    ATTACKER_WINS_TIES = "attacker_wins_ties"  # reading: the defender falls if the attacker equals or beats it

    @property
    def label(self) -> str:
        """The reading's name for a menu, saying which one is the text (002 §H5, line 361)."""
        return FALL_READING_LABELS[self]


FALL_READING_LABELS = {
    FallReading.AS_WRITTEN: "as written (the text, line 361): defender falls on equal or more",
    FallReading.DEFENDER_RESISTS: "reading: defender resists on equal or more",
    FallReading.ATTACKER_WINS_TIES: "reading: defender falls if the attacker has equal or more",
}


def defender_falls(attacker_total: int, defender_total: int,
                   reading: FallReading | str = FallReading.AS_WRITTEN) -> bool:
    """Whether the defender falls, for the two sums, under a reading of 002 §H5 (line 361).

    The default is the text as written (the defender falls on equal or more); the rulings page
    explains why ``FallReading.DEFENDER_RESISTS`` may be what was meant.
    """
    checks.whole(attacker_total, "attacker's total")
    checks.whole(defender_total, "defender's total")
    reading = FallReading(reading)
    if reading is FallReading.AS_WRITTEN:
        return defender_total >= attacker_total
    if reading is FallReading.DEFENDER_RESISTS:
        return attacker_total > defender_total
    return attacker_total >= defender_total


def fall_check(attacker: Sequence[int], defender: Sequence[int],
               reading: FallReading | str = FallReading.AS_WRITTEN) -> PoolContest:
    """Fall check: the attacker rolls 1D6 per point of its fall value (転倒), the defender 1D6 per
    point of stability (安定性) (002 §H5, lines 357-361). ``success`` means the defender falls."""
    reading = FallReading(reading)
    a, d = check_faces(attacker, "attacker's dice"), check_faces(defender, "defender's dice")
    falls = defender_falls(sum(a), sum(d), reading)
    steps = (f"attacker (fall value): {len(a)}D6 {'+'.join(map(str, a)) or '(no dice)'} = {sum(a)}",
             f"defender (stability): {len(d)}D6 {'+'.join(map(str, d)) or '(no dice)'} = {sum(d)}",
             f"reading {reading.value}: the defender {'falls' if falls else 'stays up'}")
    return PoolContest("fall", a, d, falls, steps=steps)


def fall_chance(fall_value: int, stability: int, reading: FallReading | str = FallReading.AS_WRITTEN) -> Fraction:
    """Exact chance that the defender falls (002 §H5 転倒), under a reading of line 361."""
    reading = FallReading(reading)
    odds = pool_odds(fall_value, stability)  # attacker's sum against the defender's
    if reading is FallReading.AS_WRITTEN:
        return odds.lower + odds.tie
    if reading is FallReading.DEFENDER_RESISTS:
        return odds.higher
    return odds.higher + odds.tie


@dataclass(frozen=True)
class FallConsequence(Worked):
    loses_rest_of_turn: bool
    action_dice_lost_next_turn: int
    cannot_act_next_turn: bool


@checks.checked_flags
def fall_consequences(fallen_is_second_player: bool, flying: bool = False) -> FallConsequence:
    """What a fall does (002 §H5, lines 363-365, 387).

    A fallen second player (後攻) does nothing more and play passes to the next turn. A unit
    felled by the second player's attack (so the first player) rolls 1 die fewer next turn.
    A unit that falls in the air drops and cannot act next turn.
    """
    if flying:
        return FallConsequence(fallen_is_second_player, 0, True,
                               steps=("fell in the air: it drops (落下) and cannot act next turn",))
    if fallen_is_second_player:
        return FallConsequence(True, 0, False, steps=("the fallen unit is the second player: it does nothing; next turn",))
    return FallConsequence(False, 1, False,
                           steps=("felled by the second player's attack: 1 action die fewer next turn",))


#: the checks that may follow a decided damage, as the text lists them (002 §4-1, lines 221-229)
AFTER_DAMAGE_CHECKS = ("evasion", "interception", "defence", "fall")


def after_damage_order(order: Sequence[str]) -> tuple[str, ...]:
    """The checks made after a damage is decided, in the order given (002 §4-1, lines 221-229).

    The text lists evasion (回避), interception (迎撃), defence (防御) and the fall check (転倒), and
    orders only one pair: when the defender makes an evasion check, it comes before the fall check
    (line 229). An order with the fall check first is refused, naming that line; so is a name the
    text does not list. Any other order is returned as given: the text fixes no other.
    """
    if isinstance(order, str) or not isinstance(order, Sequence):
        raise TypeError(f"the order of checks must be a sequence of names, not {order!r}")
    unknown = [name for name in order if name not in AFTER_DAMAGE_CHECKS]
    if unknown:
        raise ValueError(f"checks after damage {unknown!r} unknown: the text lists {', '.join(AFTER_DAMAGE_CHECKS)}")
    if "evasion" in order and "fall" in order and order.index("fall") < order.index("evasion"):
        raise ValueError("the fall check (転倒) comes after the defender's evasion check (回避), "
                         "not before it (002 §4-1, line 229)")
    return tuple(order)


# -- stealth, interception, evasion ---------------------------------------------------


@dataclass(frozen=True)
class StealthResult(PoolContest):
    @property
    def opponent_loses_turn(self) -> bool:
        return self.success


def stealth_check(stealth: Sequence[int], spotter: Sequence[int]) -> StealthResult:
    """Stealth (002 §H5): stealth (隠密性) d6 against sensors (索敵値) d6; equal or more hides,
    and the opponent loses its turn. Tried on a triple in the action-decision phase."""
    c = _contest("stealth", "stealthy side", stealth, "spotter", spotter, True,
                 ("stealth: the opponent loses its turn", "spotted"))
    return StealthResult(c.name, c.first, c.second, c.success, steps=c.steps)


def may_try_stealth(dice: Sequence[int], has_stealth: bool = True) -> bool:
    """Stealth may be tried on a triple in the action-decision phase (§H5 ステルス, line 391)."""
    return has_stealth and read_pattern(dice).is_triple


@dataclass(frozen=True)
class InterceptResult(PoolContest):
    damage_dealt: int = 0


def intercept_check(guidance: Sequence[int], interceptor: Sequence[int], has_machine_cannon: bool,
                    damage: int = 0) -> InterceptResult:
    """Interception (迎撃行動, 002 §H6): guidance (誘導) d6 against interception (迎撃) d6; the
    interceptor succeeds on equal or more and no damage is dealt. Only with a machine cannon (機関砲).
    ``damage`` is the missile's damage, dealt when the interception fails."""
    if not has_machine_cannon:
        raise ValueError("interception of a missile needs a machine cannon (機関砲) (§H6 迎撃行動)")
    checks.whole(damage, "damage", minimum=0)
    c = _contest("interception", "interceptor", interceptor, "missile", guidance, True,
                 ("intercepted: no damage", "not intercepted"))
    return InterceptResult(c.name, c.first, c.second, c.success, 0 if c.success else damage, steps=c.steps)


EvasionChoice = Literal["mobility", "agility", "higher"]


@checks.checked_arguments
def evasion_parameter(unit: Silhouette, choice: EvasionChoice = "higher") -> tuple[str, int]:
    """The parameter an evasion rolls: mobility (機動性, positioning and terrain) or agility
    (運動性, the machine's movement; the text writes 機動力 twice), or the higher (§H6, lines 427-431)."""
    if choice not in ("mobility", "agility", "higher"):
        raise ValueError(f"evasion choice {choice!r} is not 'mobility', 'agility' or 'higher'")
    if choice == "higher":
        choice = "mobility" if unit.mobility >= unit.agility else "agility"
    return choice, unit.parameters[choice]


def evasion_check(evader: Sequence[int], attacker: Sequence[int]) -> PoolContest:
    """Evasion (回避行動, 002 §H6): each side rolls the chosen parameter in d6; the evader succeeds on equal or more."""
    return _contest("evasion", "evader", evader, "attacker", attacker, True, ("evaded", "hit"))


@checks.checked_flags
def evasion_tries(flying: bool = False) -> int | None:
    """Evasion tries per attack: once (§H6, line 425); ``None`` (unlimited) while flying (§H5, line 383)."""
    return None if flying else 1


@checks.checked_flags
def may_defend(flying: bool = False) -> bool:
    """A flying unit cannot defend (§H5 飛行, line 385)."""
    return not flying


def may_fly(dice: Sequence[int], has_flight: bool = True) -> bool:
    """A unit with flight may fly when its action dice are a triple (§H5 飛行, line 375)."""
    return has_flight and read_pattern(dice).is_triple


# -- interrupt actions ----------------------------------------------------------------


@dataclass(frozen=True)
class Interrupt:
    key: str
    label: str
    cost: int
    note: str


#: interrupt actions (インタラプトアクション, §H6) and their active-value (能動値) costs; 1 unless stated (line 409)
DEFAULT_INTERRUPT_COST = 1
INTERRUPTS: dict[str, Interrupt] = {i.key: i for i in (
    Interrupt("reroll", "行動決定のやりなおし", DEFAULT_INTERRUPT_COST, "reroll one action die; once per turn"),
    Interrupt("interception", "迎撃行動", DEFAULT_INTERRUPT_COST, "against missiles, with a machine cannon"),
    Interrupt("evasion", "回避行動", DEFAULT_INTERRUPT_COST, "once per attack"),
    Interrupt("emergency_flight", "緊急飛行・着地回避", 2, "evasion by taking off or landing"),
    Interrupt("counter_fire", "反撃射撃", DEFAULT_INTERRUPT_COST, "per enemy action, same-range weapon"),
    Interrupt("defence", "防御行動", DEFAULT_INTERRUPT_COST, "halves structure damage"),
    Interrupt("parry", "受け", DEFAULT_INTERRUPT_COST, "melee only"),
    Interrupt("counter", "カウンター", 2, "melee only, with a weapon that can parry"),
)}
#: uses of the action-decision reroll per turn, and dice it rerolls (§H6, line 413)
REROLL_USES_PER_TURN = 1
REROLL_DICE = 1


def interrupt_cost(action: str, head_destroyed: bool = False, times: int = 1) -> int:
    """Active value an interrupt costs: 1 unless stated, 2 for emergency flight and counter,
    1 more each with a destroyed head (002 §H6, §7-1, line 323). ``times``: e.g. counter-fire
    against several enemy actions."""
    if action not in INTERRUPTS:
        raise ValueError(f"unknown interrupt action {action!r}: known are {', '.join(INTERRUPTS)}")
    checks.whole(times, "times", minimum=1)
    if action == "reroll" and times > REROLL_USES_PER_TURN:
        raise ValueError(f"the action-decision reroll is once per turn, not {times} times")
    return times * (INTERRUPTS[action].cost + (1 if head_destroyed else 0))


@dataclass(frozen=True)
class ActionReroll(Worked):
    dice: tuple[int, ...]
    dice_rerolled: int
    active_spent: int


def action_reroll(dice: Sequence[int], position: int, new_face: int, used_this_turn: int = 0,
                  head_destroyed: bool = False) -> ActionReroll:
    """Redo the action decision (行動決定のやりなおし, 002 §H6, line 413): reroll one action die, once
    per turn, for 1 active value (2 with a destroyed head)."""
    faces = check_faces(dice)
    check_faces([new_face], "new die")
    checks.whole(used_this_turn, "uses this turn", minimum=0)
    if used_this_turn >= REROLL_USES_PER_TURN:
        raise ValueError(f"the action-decision reroll is once per turn; it was used {used_this_turn} time(s)")
    if not 0 <= position < len(faces):
        raise ValueError(f"position {position!r} is not one of the dice 0 to {len(faces) - 1}")
    out = list(faces)
    out[position] = new_face
    cost = interrupt_cost("reroll", head_destroyed)
    return ActionReroll(tuple(out), REROLL_DICE, cost,
                        steps=(f"reroll the {faces[position]}: {new_face}; dice {'-'.join(map(str, out))}; "
                         f"{cost} active value",))


@dataclass(frozen=True)
class CounterFireRule(Worked):
    allowed: bool


@checks.checked_flags
def may_counter_fire_against(actions: int, active_left: int, head_destroyed: bool = False) -> int:
    """How many enemy actions a defender can counter-fire against with its active value (1 each, 002 §H6)."""
    checks.whole(actions, "enemy actions", minimum=0)
    checks.whole(active_left, "active value left", minimum=0)
    return min(actions, active_left // interrupt_cost("counter_fire", head_destroyed))


#: weapon kinds that cannot counter-fire (§H6, line 453); on a sheet they carry 反撃不可
NO_COUNTER_FIRE_KINDS = ("ロケットランチャー", "ミサイル")


@checks.checked_flags
def may_counter_fire(same_range: bool, declared_melee: bool = False, weapon_kind: str | None = None,
                     no_counter_fire: bool = False) -> CounterFireRule:
    """Counter-fire (反撃射撃, 002 §H6): with a weapon of the same range, not after declaring melee,
    not with rocket launchers or missiles (反撃不可)."""
    if not same_range:
        return CounterFireRule(False, steps=("no weapon of the same range",))
    if declared_melee:
        return CounterFireRule(False, steps=("melee declared: no counter-fire",))
    if no_counter_fire or (weapon_kind is not None and weapon_kind in NO_COUNTER_FIRE_KINDS):
        return CounterFireRule(False, steps=("rocket launchers and missiles (反撃不可) cannot counter-fire",))
    return CounterFireRule(True, steps=("same-range weapon: counter-fire for 1 active value per enemy action",))


CounterReading = Literal["difference", "full"]


@dataclass(frozen=True)
class CounterResult(Worked):
    attacker_takes: int
    defender_takes: int


def counter(attacker_damage: int, defender_damage: int, reading: CounterReading = "difference") -> CounterResult:
    """Counter (カウンター, 002 §H6, lines 465-475): the defender's weapon damage offsets the attacker's.

    If the defender's is higher the attacker takes damage and the defender none. The text does
    not say how much: ``"difference"`` (the default: what is left after offsetting) or ``"full"``
    (the defender's whole damage). When the defender's is not higher it takes the remainder (ruling).
    """
    checks.whole(attacker_damage, "attacker's damage", minimum=0)
    checks.whole(defender_damage, "defender's damage", minimum=0)
    if reading not in ("difference", "full"):
        raise ValueError(f"counter reading {reading!r} is not 'difference' or 'full'")
    if defender_damage > attacker_damage:
        hit = defender_damage - attacker_damage if reading == "difference" else defender_damage
        return CounterResult(hit, 0, steps=(f"{defender_damage} offsets {attacker_damage} and is higher: "
                                      f"the attacker takes {hit}, the defender none",))
    left = attacker_damage - defender_damage
    return CounterResult(0, left, steps=(f"{defender_damage} offsets {attacker_damage}: the defender takes {left}",))


# -- the contests as one table, for the opposed-pools calculator -----------------------

#: check -> (first side, second side, whether the first side's success includes ties)
CONTESTS: dict[str, tuple[str, str, bool | None]] = {
    "interception": ("interceptor (迎撃)", "missile (誘導)", True),
    "evasion": ("evader", "attacker", True),
    "stealth": ("stealthy side (隠密性)", "spotter (索敵値)", True),
    "approach": ("approacher (機動性 + active)", "shooter (lowest range)", False),
    "fall": ("attacker (転倒)", "defender (安定性)", None),
}


@dataclass(frozen=True)
class ContestOdds:
    check: str
    first: str
    second: str
    pools: OpposedOdds
    success: Fraction
    success_means: str


def contest_odds(check: str, first_dice: int, second_dice: int,
                 fall_reading: FallReading | str = FallReading.AS_WRITTEN) -> ContestOdds:
    """N d6 against M d6 for one of the text's contests (002 §5-1, §H5, §H6), with the chance that the check succeeds.

    For ``fall`` the success is "the defender falls" under ``fall_reading``.
    """
    if check not in CONTESTS:
        raise ValueError(f"unknown check {check!r}: known are {', '.join(CONTESTS)}")
    first, second, ties = CONTESTS[check]
    pools = pool_odds(first_dice, second_dice)
    if check == "fall":
        success = fall_chance(first_dice, second_dice, fall_reading)
        means = f"the defender falls ({FallReading(fall_reading).value})"
    else:
        success = pools.higher + (pools.tie if ties else 0)
        means = f"the {first.split(' (')[0]} succeeds ({'equal or more' if ties else 'more'})"
    return ContestOdds(check, first, second, pools, success, means)


__all__ = [
    "AFTER_DAMAGE_CHECKS", "CONTESTS", "DEFAULT_INTERRUPT_COST", "INTERRUPTS", "NO_COUNTER_FIRE_KINDS", "POOL_DIE_SIDES",
    "REROLL_DICE", "REROLL_USES_PER_TURN", "ContestOdds", "CounterResult", "FallConsequence", "FallReading",
    "PoolContest", "action_reroll", "after_damage_order", "contest_chance", "contest_odds", "counter", "defender_falls",
    "evasion_check", "evasion_parameter", "evasion_tries", "fall_chance", "fall_check", "fall_consequences",
    "intercept_check", "interrupt_cost", "may_counter_fire", "may_counter_fire_against", "may_defend",
    "may_fly", "may_try_stealth", "pool_odds", "stealth_check",
]
