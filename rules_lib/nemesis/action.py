"""The action dice: 3D6 patterns, initiative, and which weapons fire on which faces (002 §H4, §1-1, §2-1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import product
from typing import Literal

from .. import checks
from ..checks import halfwidth
from ..dice import (
    MAX_DICE,
    MAX_SIDES,
    Distribution,
    StraightOrder,
    check_straight_order,
    parse,
    pattern,
    pattern_distribution,
)
from ..dice.exact import binomial
from ..worked import Worked
from .silhouette import Grip, Weapon, parse_ability, parse_proper_range

#: the action roll of §1-1 (line 151)
ACTION_ROLL = "3D6"
ACTION_DICE = parse(ACTION_ROLL).value.count
ACTION_DIE_SIDES = parse(ACTION_ROLL).value.sides
#: the 1D20 of the second initiative tie-break (§1-1, line 153)
TIE_BREAK_ROLL = "1D20"
TIE_BREAK_SIDES = parse(TIE_BREAK_ROLL).value.sides

#: pattern names of rules_lib.dice.pattern -> the text's terms (§H4; §6-2 writes ゾロ目 and 出目)
PATTERN_LABELS = {"triple": "三ゾロ目", "straight": "三連番", "pair": "ゾロ目", "plain": "出目"}


def check_faces(dice: Sequence[int], what: str = "action dice") -> tuple[int, ...]:
    """The dice as a tuple, after checking each is a d6 face."""
    faces = tuple(dice)
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise ValueError(f"{what}: {face!r} is not a d6 face; allowed are 1 to 6")
    return faces


@dataclass(frozen=True)
class PatternReading(Worked):
    dice: tuple[int, ...]
    pattern: str

    @property
    def label(self) -> str:
        return PATTERN_LABELS[self.pattern]

    @property
    def is_triple(self) -> bool:
        return self.pattern == "triple"

    @property
    def is_straight(self) -> bool:
        return self.pattern == "straight"

    @property
    def matching_dice(self) -> int:
        """How many dice show the most common face (3 for a triple, 2 for a pair)."""
        return max(self.dice.count(f) for f in self.dice)


def read_pattern(dice: Sequence[int], straight_order: StraightOrder = "sorted") -> PatternReading:
    """Read three action dice as a triple (三ゾロ目), straight (三連番), pair or plain (002 §H4).

    A straight is three consecutive values, a descending run included (逆連番も含みます, 002 §H4,
    line 147). ``straight_order`` is the reading of the order (a ruling, see the rulings page):
    ``"sorted"`` (the default: 4-2-3 is a straight) or ``"as rolled"`` (the dice must run up or down
    in the order given: 2-3-4 and 4-3-2, not 4-2-3, which is then a plain roll).
    """
    faces = check_faces(dice)
    if len(faces) != 3:
        raise ValueError(f"a pattern is read from exactly 3 dice, not {len(faces)}: {faces}")
    kind = pattern(faces, check_straight_order(straight_order))
    ordered = sorted(faces)
    steps = [f"dice {'-'.join(map(str, faces))}, in order {'-'.join(map(str, ordered))}"]
    run = len(set(faces)) == 3 and ordered[2] - ordered[0] == 2
    if run and list(faces) not in (ordered, ordered[::-1]):
        steps.append(f"consecutive values out of order: read {straight_order} (a ruling, 002 §H4, line 147)")
    steps.append({
        "triple": "all three equal: a triple (三ゾロ目)",
        "straight": "three consecutive values (ascending or descending): a straight (三連番)",
        "pair": "two equal: a pair (ゾロ目)",
        "plain": "neither: a plain roll (出目)",
    }[kind])
    return PatternReading(faces, kind, steps=tuple(steps))


def pattern_odds(straight_order: StraightOrder = "sorted") -> Distribution:
    """Exact chances of each pattern on 3D6 (002 §H4): triple 6/216, straight 24/216, pair 90/216,
    plain 96/216; with ``straight_order="as rolled"`` a straight is 8/216 and plain 112/216."""
    return pattern_distribution(6, check_straight_order(straight_order))


# -- action dice count ---------------------------------------------------------------


@dataclass(frozen=True)
class ActionDiceCount(Worked):
    dice: int


@checks.checked_flags
def action_dice_count(destroyed_legs: int = 0, fell_last_turn: bool = False) -> ActionDiceCount:
    """Dice rolled in the action-decision phase: 3, −2 per destroyed leg (§7-1), −1 after a fall (§H5).

    The text does not say what happens below 0 (both legs gone): the count stops at 0 (ruling).
    """
    if destroyed_legs not in (0, 1, 2):
        raise ValueError(f"destroyed legs {destroyed_legs!r} is not 0, 1 or 2")
    count = ACTION_DICE
    steps = [f"{ACTION_ROLL}: {ACTION_DICE} dice"]
    if destroyed_legs:
        count -= 2 * destroyed_legs
        steps.append(f"{destroyed_legs} leg(s) destroyed: −{2 * destroyed_legs} (§7-1)")
    if fell_last_turn:
        count -= 1
        steps.append("knocked down by the second player's attack: −1 (§H5 転倒)")
    if count < 0:
        steps.append(f"{count} is below 0: no dice (ruling)")
        count = 0
    return ActionDiceCount(count, steps=tuple(steps))


# -- initiative ----------------------------------------------------------------------


@dataclass(frozen=True)
class InitiativeSide:
    """One side's action dice and the two parameters initiative reads."""

    dice: tuple[int, ...]
    sensors: int
    agility: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", check_faces(self.dice))
        checks.whole(self.sensors, "sensors (索敵値)", minimum=0)
        checks.whole(self.agility, "agility (運動性)", minimum=0)

    @property
    def score(self) -> int:
        return sum(self.dice) + self.sensors


@dataclass(frozen=True)
class InitiativeResult(Worked):
    chooser: str  # "A" or "B": the side that chooses to go first (先攻) or second (後攻)
    decided_by: str  # "score", "agility" or "1D20"
    scores: tuple[int, int]


@checks.checked_arguments
def initiative(a: InitiativeSide, b: InitiativeSide, d20: Sequence[tuple[int, int]] = ()) -> InitiativeResult:
    """Who chooses first or second: sum of action dice + sensors; ties by agility, then 1D20 each (002 §1-1).

    ``d20`` gives the tie-break rolls (A's, B's) in order; a tied 1D20 is rolled again (ruling:
    the text does not cover it). Every pair needed must be given.
    """
    steps = [
        f"A: {'+'.join(map(str, a.dice))} + sensors {a.sensors} = {a.score}",
        f"B: {'+'.join(map(str, b.dice))} + sensors {b.sensors} = {b.score}",
    ]
    if a.score != b.score:
        chooser = "A" if a.score > b.score else "B"
        steps.append(f"{chooser} is higher and chooses first (先攻) or second (後攻)")
        return InitiativeResult(chooser, "score", (a.score, b.score), steps=tuple(steps))
    steps.append("tie: the higher agility (運動性) chooses")
    if a.agility != b.agility:
        chooser = "A" if a.agility > b.agility else "B"
        steps.append(f"agility {a.agility} against {b.agility}: {chooser} chooses")
        return InitiativeResult(chooser, "agility", (a.score, b.score), steps=tuple(steps))
    steps.append(f"agility tied at {a.agility}: each rolls {TIE_BREAK_ROLL}, the higher chooses")
    for x, y in d20:
        for value in (x, y):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= TIE_BREAK_SIDES:
                raise ValueError(f"tie-break roll {value!r} is not a 1D20 face 1 to 20")
        if x != y:
            chooser = "A" if x > y else "B"
            steps.append(f"1D20 {x} against {y}: {chooser} chooses")
            return InitiativeResult(chooser, "1D20", (a.score, b.score), steps=tuple(steps))
        steps.append(f"1D20 {x} against {y}: tied again, roll again (ruling)")
    raise ValueError("initiative is still tied: give the 1D20 tie-break rolls as d20=[(a, b), ...]")


# -- shooting ------------------------------------------------------------------------


class ExtendedFace(StrEnum):
    """What a parenthesised face of a proper range (the 5 of ``34(5)``) does. See the rulings."""

    IGNORED = "ignored"  # the weapon does not fire on it (the library's reading)
    FIRES = "fires"  # the weapon fires on it as on a proper face


MultiAttack = Literal["rapid_only", "every_weapon"]


@checks.checked_arguments
def firing_faces(weapon: Weapon, extended: ExtendedFace | str = ExtendedFace.IGNORED) -> tuple[int, ...]:
    """The die faces a weapon is used on (002 §H1, line 55, §1-1, line 167, §2-1, line 197)."""
    extended = ExtendedFace(extended)
    if weapon.is_melee:
        return (weapon.range,)
    faces = weapon.proper_range.faces
    if extended is ExtendedFace.FIRES:
        faces = faces + weapon.proper_range.extended
    return tuple(sorted(faces))


def is_multi_attack(weapon: Weapon, multi_attack: MultiAttack = "rapid_only") -> bool:
    """Whether ``weapon`` attacks once per matching die (002 §1-1; a ruling: quick and rapid fire only)."""
    if multi_attack not in ("rapid_only", "every_weapon"):
        raise ValueError(f"multi_attack {multi_attack!r} is not 'rapid_only' or 'every_weapon'")
    if weapon.is_melee:
        return False
    return multi_attack == "every_weapon" or weapon.has("rapid_fire") or weapon.has("quick_fire")


@dataclass(frozen=True)
class AttackCount(Worked):
    attacks: int
    matching: tuple[int, ...]


@checks.checked_arguments
def attack_count(dice: Sequence[int], weapon: Weapon, extended: ExtendedFace | str = ExtendedFace.IGNORED,
                 multi_attack: MultiAttack = "rapid_only") -> AttackCount:
    """How many attacks a weapon makes with these action dice (002 §1-1, lines 159-161, §2-1).

    A weapon attacks when a die shows one of its faces; shooting is once per turn, but a quick-
    or rapid-fire weapon (速射, 連射) attacks once per matching die: triple 3s with a range-3
    rapid-fire weapon make 3 attacks. ``multi_attack="every_weapon"`` reads the example as
    applying to every weapon.
    """
    faces = check_faces(dice)
    fires_on = firing_faces(weapon, extended)
    matching = tuple(sorted((f for f in faces if f in fires_on), reverse=True))
    steps = [f"{weapon.label} fires on {'/'.join(map(str, fires_on))}; dice {'-'.join(map(str, faces))}"]
    multi = is_multi_attack(weapon, multi_attack)
    if not matching:
        steps.append("no die matches: no attack")
        attacks = 0
    elif multi:
        steps.append(f"{len(matching)} matching dice ({'-'.join(map(str, matching))}), one attack each")
        attacks = len(matching)
    else:
        steps.append(f"{len(matching)} matching dice; shooting is once per turn: 1 attack")
        attacks = 1
    return AttackCount(attacks, matching, steps=tuple(steps))


def binomial_faces(dice: int, faces: int, sides: int = 6) -> Distribution:
    """How many of ``dice`` d``sides`` show one of ``faces`` given faces (a binomial), its arguments checked."""
    checks.whole(dice, "the number of dice", minimum=0, maximum=MAX_DICE)
    checks.whole(sides, "sides", minimum=1, maximum=MAX_SIDES)
    checks.whole(faces, "faces", minimum=0, maximum=sides)
    if not 0 <= faces <= sides:
        raise ValueError(f"{faces!r} faces is outside 0 to {sides}")
    return binomial(dice, faces, sides)


@checks.checked_arguments
def attack_count_distribution(weapon: Weapon, dice: int = ACTION_DICE,
                              extended: ExtendedFace | str = ExtendedFace.IGNORED,
                              multi_attack: MultiAttack = "rapid_only") -> Distribution:
    """Exact chances of 0, 1, 2, 3 attacks for a weapon on fresh action dice (002 §1-1, §2-1)."""
    matching = binomial_faces(dice, len(firing_faces(weapon, extended)))
    if is_multi_attack(weapon, multi_attack):
        return matching
    return matching.map(lambda n: min(n, 1))


#: the most action dice `enumerate_attack_counts` rolls out one by one (7,776 rolls): an engine
#: limit, *not in the source text* (the text rolls three); `attack_count_distribution` has no such limit
MAX_ENUMERATED_DICE = 5


@checks.checked_arguments
def enumerate_attack_counts(weapon: Weapon, dice: int = ACTION_DICE,
                            extended: ExtendedFace | str = ExtendedFace.IGNORED,
                            multi_attack: MultiAttack = "rapid_only") -> Distribution:
    """The same by rolling every one of the 6**dice action rolls (the slow reference), for at most
    `MAX_ENUMERATED_DICE` dice."""
    checks.whole(dice, "the number of dice", minimum=0, maximum=MAX_ENUMERATED_DICE)
    return Distribution.uniform(
        attack_count(r, weapon, extended, multi_attack).attacks for r in product(range(1, 7), repeat=dice)
    )


@dataclass(frozen=True)
class ActionDiceOdds:
    """Exact odds of fresh action dice: each pattern, and each number of attacks for one weapon."""

    weapon: Weapon
    firing_faces: tuple[int, ...]
    patterns: Distribution
    attacks: Distribution


def action_dice_odds(proper_range: str, rapid_fire: bool = False,
                     extended: ExtendedFace | str = ExtendedFace.IGNORED,
                     multi_attack: MultiAttack = "rapid_only", dice: int = ACTION_DICE,
                     straight_order: StraightOrder = "sorted") -> ActionDiceOdds:
    """Pattern odds of 3D6 (straights read as ``straight_order``, :func:`read_pattern`) and
    attack-count odds for a weapon with this proper range (e.g. ``34(5)``) (002 §H4, §1-1)."""
    weapon = Weapon(
        key="weapon", name=f"proper range {proper_range}", attack="1D20", damage="1D6",
        proper_range=parse_proper_range(proper_range),
        abilities=(parse_ability("連射"),) if rapid_fire else (),
    )
    return ActionDiceOdds(weapon, firing_faces(weapon, extended), pattern_odds(straight_order),
                          attack_count_distribution(weapon, dice, extended, multi_attack))


def parse_faces(text: str | Sequence[int], what: str = "dice", most: int = 3) -> tuple[int, ...]:
    """Dice written as ``6,6,1``, ``6 6 1`` or ``661`` (full-width allowed); empty means none."""
    if not isinstance(text, str):
        faces = check_faces(text, what)
    else:
        raw = halfwidth(text).strip()
        parts = [p for p in raw.replace(",", " ").replace("-", " ").split() if p]
        if len(parts) == 1 and parts[0].isdigit() and len(parts[0]) > 1:
            parts = list(parts[0])
        for part in parts:
            if not part.isdigit():
                raise ValueError(f"{what} {text!r}: {part!r} is not a d6 face; write faces 1 to 6 like 6,6,1")
        faces = check_faces([int(p) for p in parts], what)
    if len(faces) > most:
        raise ValueError(f"{what} {text!r}: at most {most} dice, not {len(faces)}")
    return faces


@checks.checked_arguments
def shooting_order(dice: Sequence[int], weapons: Sequence[Weapon],
                   extended: ExtendedFace | str = ExtendedFace.IGNORED) -> list[tuple[int, tuple[str, ...]]]:
    """Each die, largest first (§2-1, line 199), with the weapons that can use it."""
    faces = sorted(check_faces(dice), reverse=True)
    return [(f, tuple(w.key for w in weapons if f in firing_faces(w, extended))) for f in faces]


# -- giving up dice: response action and weapon swap ---------------------------------


@dataclass(frozen=True)
class DiceSpent(Worked):
    remaining: tuple[int, ...]
    given_up: tuple[int, ...]
    active_gain: int


def _remove(dice: tuple[int, ...], give_up: Sequence[int]) -> tuple[int, ...]:
    left = list(dice)
    for face in give_up:
        if face not in left:
            raise ValueError(f"cannot give up a {face}: the dice left are {tuple(left)}")
        left.remove(face)
    return tuple(left)


#: dice given up and active value gained by one response action (対応行動, §1-1, line 185)
RESPONSE_DICE = 2
RESPONSE_ACTIVE_GAIN = 1
#: dice given up by a weapon swap (武器の持ち替え, §1-1, line 189)
SWAP_DICE = 1


def response_action(dice: Sequence[int], give_up: Sequence[int]) -> DiceSpent:
    """Leave two action dice unused to raise the active value (能動値) by 1 (002 §1-1, line 185)."""
    faces = check_faces(dice)
    give_up = check_faces(give_up, "dice given up")
    if len(give_up) != RESPONSE_DICE:
        raise ValueError(f"a response action gives up exactly {RESPONSE_DICE} dice, not {len(give_up)}")
    remaining = _remove(faces, give_up)
    steps = (f"give up {'-'.join(map(str, give_up))}: active value +{RESPONSE_ACTIVE_GAIN}",
             f"dice left: {'-'.join(map(str, remaining)) or 'none'}")
    return DiceSpent(remaining, give_up, RESPONSE_ACTIVE_GAIN, steps=steps)


@checks.checked_arguments
def weapon_swap(dice: Sequence[int], give_up: int | None, weapon: Weapon | None = None) -> DiceSpent:
    """Swap weapons (or go from one- to two-handed) by leaving one action die unused (002 §1-1, line 189).

    A weapon with 持替不要 (no swap) needs no die: pass ``give_up=None``.
    """
    faces = check_faces(dice)
    if weapon is not None and weapon.has("no_swap"):
        if give_up is not None:
            raise ValueError(f"{weapon.label} has 持替不要: taking it up costs no die")
        return DiceSpent(faces, (), 0, steps=(f"{weapon.label} has 持替不要: no die given up",))
    if give_up is None:
        raise ValueError("a weapon swap gives up one die: say which (give_up=face)")
    remaining = _remove(faces, check_faces([give_up], "die given up"))
    steps = (f"swap: give up the {give_up}", f"dice left: {'-'.join(map(str, remaining)) or 'none'}; "
             "the unit may still shoot with a matching die")
    return DiceSpent(remaining, (give_up,), 0, steps=steps)


@checks.checked_arguments
def swap_needed(weapon: Weapon | None = None, grip_from: Grip | None = None, grip_to: Grip | None = None) -> bool:
    """Whether taking up ``weapon`` (or changing grip) costs a die (002 §1-1, line 189, §H2 持替不要).

    Taking up another weapon does, unless it has 持替不要; so does going from one-handed to
    two-handed. The text says nothing of two-handed to one-handed: no die (ruling).
    """
    if weapon is None and grip_from is None:
        raise ValueError("say what changes: the weapon taken up, or the grip (grip_from, grip_to)")
    if weapon is not None and not weapon.has("no_swap"):
        return True
    if grip_from is not None:
        if grip_to is None:
            raise ValueError("a grip change needs grip_to as well as grip_from")
        return Grip(grip_from) is Grip.ONE_HANDED and Grip(grip_to) is Grip.TWO_HANDED
    return False


# -- who may open the melee phase ----------------------------------------------------


@dataclass(frozen=True)
class MeleeOpening(Worked):
    allowed: bool
    becomes: str | None  # "second" (後攻) when allowed

    @property
    def becomes_label(self) -> str | None:
        return {"second": "後攻", "first": "先攻"}.get(self.becomes)


def may_open_melee(dice: Sequence[int], melee_ability: bool = False, opponent_flying: bool = False,
                   self_flying: bool = False, own_turn_skipped_by_stealth: bool = False,
                   straight_order: StraightOrder = "sorted") -> MeleeOpening:
    """Whether these action dice let a side open the melee phase (002 §1-1, lines 171-175, §H5 飛行, 格闘).

    A triple may; a straight may with the melee ability (格闘); not against a flying opponent
    unless one flies too, and not when stealth skipped one's turn. The opener becomes the
    second player (後攻). ``straight_order``: how a straight is read (:func:`read_pattern`).
    """
    reading = read_pattern(dice, straight_order)
    steps = list(reading.steps)
    if reading.is_triple:
        allowed = True
        steps.append("a triple may open the melee phase")
    elif reading.is_straight and melee_ability:
        allowed = True
        steps.append("a straight with the melee ability (格闘) may open the melee phase")
    else:
        allowed = False
        steps.append("neither a triple nor (with 格闘) a straight: no melee phase from these dice")
    if allowed and opponent_flying and not self_flying:
        allowed = False
        steps.append("the opponent is flying: it cannot be drawn into melee (§H5 飛行)")
    if allowed and own_turn_skipped_by_stealth:
        allowed = False
        steps.append("stealth skipped this side's turn: void (§H5 格闘)")
    if allowed:
        steps.append("the opener automatically becomes the second player (後攻)")
    return MeleeOpening(allowed, "second" if allowed else None, steps=tuple(steps))


@checks.checked_flags
@checks.checked_flags
def chance_to_open_melee(melee_ability: bool = False, straight_order: StraightOrder = "sorted") -> Fraction:
    """Exact chance that fresh action dice allow opening the melee phase (002 §1-1); ``straight_order``
    as :func:`read_pattern` reads it."""
    odds = pattern_odds(straight_order)
    return odds["triple"] + (odds["straight"] if melee_ability else 0)


__all__ = [
    "ACTION_DICE", "ACTION_DIE_SIDES", "ACTION_ROLL", "PATTERN_LABELS", "RESPONSE_ACTIVE_GAIN",
    "RESPONSE_DICE", "SWAP_DICE", "TIE_BREAK_ROLL", "TIE_BREAK_SIDES", "ActionDiceOdds", "AttackCount",
    "ExtendedFace", "InitiativeSide", "MAX_ENUMERATED_DICE", "action_dice_count", "action_dice_odds", "attack_count",
    "attack_count_distribution", "binomial_faces", "chance_to_open_melee", "enumerate_attack_counts",
    "firing_faces", "initiative", "may_open_melee", "parse_faces", "pattern_odds", "read_pattern",
    "response_action", "shooting_order", "swap_needed", "weapon_swap",
]
