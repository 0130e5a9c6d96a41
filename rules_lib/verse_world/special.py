"""Special actions on the square map: charge, tackle, shield bash, two weapons, stand up, full
defence, switching equipment, picking up, called shots and joint piercing.

004 §3-4-3-1 (lines 88–167). The simplified-map forms of charge and tackle are in
:mod:`rules_lib.verse_world.simplified`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .. import checks
from ..worked import Worked
from ._common import check_dice_pair
from .movement import locomotion_mode, move_costs

#: Charge: at least 4 squares straight (004 §3-4-3-1, line 89); one more damage roll at each of these run-ups (004 §3-4-3-1, line 90).
CHARGE_MIN_SQUARES = 4
CHARGE_THRESHOLDS = (4, 8, 16, 32, 64)
CHARGE_MODIFIER = -4
TACKLE_MIN_SQUARES = 3
TACKLE_MODIFIER = -2
SHIELD_BASH_KNOCKDOWN_MODIFIER = -2
TWO_WEAPONS_MODIFIERS = {"main": -2, "off": -4}
OFF_HAND_ONLY_MODIFIER = -2
FULL_DEFENCE_BONUS = 5
PICK_UP_EVASION_MODIFIER = -2
CALLED_SHOT_MODIFIERS = {"weapon": -4, "leg": -4}
CALLED_SHOT_TWO_HANDED_BONUS = 2
JOINT_PIERCING_MIN_LEVEL = 3
#: The text's guidance, not a limit (程度, だろう: "about"): a 《機兵知識》 difficulty of about 16-20 for an
#: ordinary 機装兵, and an extra modifier of about -4 to -8 on the called shot (004 §3-4-3-1, line 164).
#: The GM may choose outside them; the working says when a choice is.
JOINT_KNOWLEDGE_DIFFICULTY = (16, 20)
JOINT_EXTRA_MODIFIER = (-4, -8)
JOINT_KNOWLEDGE_CHECKS_PER_COMBAT = 1
#: The called-shot contest at a weapon uses strength or luck (004 §3-4-3-1, line 122).
WEAPON_DROP_ATTRIBUTES = ("strength", "luck")
#: Shield sizes as labels: the text names only the medium shield (中盾, heater shield) "or larger" (line 97);
#: "small" and "large" are the library's words for the sizes below and above it.
SHIELD_SIZES = ("small", "medium", "large")


@dataclass(frozen=True)
class SpecialAttack:
    """What a special action changes about an attack."""

    name: str
    japanese: str
    attack_modifier: int
    extra_damage_rolls: int = 0
    target_prone_on_hit: bool = False
    fumble_normal_processing: bool = True
    fumble_self_prone: bool = False
    must_act_before_target: bool = False
    damage: str = "the weapon's damage"
    ignores_protection: bool = False
    min_squares: int = 0
    steps: tuple[str, ...] = field(default=())


def _order_check(acts_before_target: bool, action: str) -> None:
    if not acts_before_target:
        raise ValueError(f"a {action} must come earlier in the acting order than its target (004 §3-4-3-1)")


def charge_extra_rolls(squares: int, thresholds: Sequence[int] = CHARGE_THRESHOLDS) -> int:
    """Extra damage rolls of a charge that hits after ``squares`` of straight run-up (004 §3-4-3-1, line 90).

    Reading (a ruling): the thresholds are cumulative, one roll for each reached: 4-7 squares 1,
    8-15 2, 16-31 3, 32-63 4, 64 or more 5. Fewer than 4 squares is not a charge (0).
    """
    checks.whole(squares, "charge run-up squares", minimum=0)
    return sum(1 for t in thresholds if squares >= t)


def charge(
    squares: int,
    *,
    straight: bool = True,
    acts_before_target: bool = True,
    thresholds: Sequence[int] = CHARGE_THRESHOLDS,
) -> SpecialAttack:
    """Charge (突撃): 4+ squares straight into contact, attack at -4, extra damage rolls (004 §3-4-3-1, lines 89–90).

    Must act before the target; a fumble is processed normally and the charger also falls prone.
    """
    checks.whole(squares, "charge run-up squares", minimum=0)
    if not straight:
        raise ValueError("a charge runs straight into contact (004 §3-4-3-1, line 89)")
    if squares < CHARGE_MIN_SQUARES:
        raise ValueError(f"a charge needs at least {CHARGE_MIN_SQUARES} squares straight, not {squares} (004 §3-4-3-1, line 89)")
    _order_check(acts_before_target, "charge")
    extra = charge_extra_rolls(squares, thresholds)
    reached = [t for t in thresholds if squares >= t]
    return SpecialAttack(
        "charge", "突撃", CHARGE_MODIFIER, extra_damage_rolls=extra, min_squares=CHARGE_MIN_SQUARES,
        fumble_normal_processing=True, fumble_self_prone=True, must_act_before_target=True,
        steps=(f"{squares} squares straight: attack {CHARGE_MODIFIER}",
               f"run-up thresholds reached {reached}: {extra} extra damage roll(s) on a hit"),
    )


@dataclass(frozen=True)
class ChargePlan(Worked):
    """How far a mecha or character can charge with its movement points, and what it gains."""

    scale: str
    mode: str
    points: int
    cost_per_square: int
    max_squares: int
    possible: bool
    attack_modifier: int
    extra_damage_rolls: int
    mecha_mp_per_turn: str


@checks.checked_flags
def plan_charge(points: int, *, scale: str = "mecha", mode: str = "walk", squares: int | None = None,
                last_step_rule: bool = True) -> ChargePlan:
    """The charge a move allows: straight squares for the points, penalty, extra rolls, MP cost.

    ``squares`` (optional) is the run-up actually taken; by default the longest the points pay for,
    counting the last-step rule (004 §3-4-3-1, line 27) when ``last_step_rule`` is on. Every locomotion mode may be
    combined with a charge (004 §3-4-3-1, line 129 ... line 161).
    """
    checks.whole(points, "movement points", minimum=0)
    costs = move_costs(scale, mode)  # type: ignore[arg-type]
    _check_mode_allows_charge(mode, "charge")
    per = costs.forward
    longest = points // per + (1 if last_step_rule and points % per else 0)
    if squares is None:
        squares = longest
    checks.whole(squares, "charge run-up squares", minimum=0)
    if squares > longest:
        raise ValueError(f"{squares} squares cost more than {points} movement points allow ({longest} at {per} a square)")
    possible = squares >= CHARGE_MIN_SQUARES
    extra = charge_extra_rolls(squares) if possible else 0
    steps = [f"{points} points at {per} a square: up to {longest} squares straight"
             + (" (the last with what is left)" if last_step_rule and points % per else "")]
    steps.append(f"run-up {squares}: " + (f"charge at {CHARGE_MODIFIER}, {extra} extra damage roll(s)"
                                          if possible else f"no charge (needs {CHARGE_MIN_SQUARES})"))
    mp = locomotion_mode(mode).mecha_mp_per_turn
    if mp != "0":
        steps.append(f"mecha MP for the mode this turn: {mp}")
    return ChargePlan(scale, costs.mode, points, per, squares, possible, CHARGE_MODIFIER if possible else 0,
                      extra, mp, steps=tuple(steps))


def _check_mode_allows_charge(mode: str, what: str) -> None:
    if not locomotion_mode(mode).charge_and_tackle_allowed:
        raise ValueError(f"locomotion mode {mode!r} may not be combined with a {what} (004 §3-4-3-1)")


@checks.checked_flags
def tackle(squares: int, *, straight: bool = True, acts_before_target: bool = True, mode: str = "walk") -> SpecialAttack:
    """Tackle (体当たり): 3+ squares straight, 《格闘技》 attack at -2; a hit does unarmed damage and
    fells the target; a fumble skips normal processing but fells the tackler (004 §3-4-3-1, lines 93–94).
    ``mode`` is how the tackler moves: every mode of the text allows it (line 129 ... line 161)."""
    checks.whole(squares, "tackle run-up squares", minimum=0)
    _check_mode_allows_charge(mode, "tackle")
    if not straight:
        raise ValueError("a tackle runs straight into contact (004 §3-4-3-1, line 93)")
    if squares < TACKLE_MIN_SQUARES:
        raise ValueError(f"a tackle needs at least {TACKLE_MIN_SQUARES} squares straight, not {squares} (004 §3-4-3-1, line 93)")
    _order_check(acts_before_target, "tackle")
    return SpecialAttack(
        "tackle", "体当たり", TACKLE_MODIFIER, target_prone_on_hit=True, fumble_normal_processing=False,
        min_squares=TACKLE_MIN_SQUARES,
        fumble_self_prone=True, must_act_before_target=True, damage="normal unarmed damage",
        steps=(f"{squares} squares straight: martial arts attack {TACKLE_MODIFIER}",),
    )


def shield_bash(shield: str, *, knockdown: bool, acts_before_target: bool = True) -> SpecialAttack:
    """Shield bash (盾攻撃): no movement needed, a medium (heater) shield or larger (004 §3-4-3-1, lines 97–98).

    Declared as a knock-down: -2, and the target falls on a hit only when the basher acts before it;
    a fumble then is processed normally and the basher falls too. Otherwise an ordinary 《盾攻撃》 roll.
    """
    checks.choice(shield, "shield size", SHIELD_SIZES)
    if SHIELD_SIZES.index(shield) < SHIELD_SIZES.index("medium"):
        raise ValueError(f"a shield bash needs a medium shield (heater shield) or larger, not {shield!r} (004 §3-4-3-1, line 97)")
    if not knockdown:
        return SpecialAttack("shield bash", "盾攻撃", 0, damage="normal shield-attack damage",
                             steps=("ordinary 盾攻撃 roll, no knock-down",))
    prone = acts_before_target
    return SpecialAttack(
        "shield bash (knock-down)", "盾攻撃", SHIELD_BASH_KNOCKDOWN_MODIFIER, target_prone_on_hit=prone,
        fumble_normal_processing=True, fumble_self_prone=True, must_act_before_target=True,
        damage="normal shield-attack damage",
        steps=(f"knock-down declared: attack {SHIELD_BASH_KNOCKDOWN_MODIFIER}",
               "target falls on a hit" if prone else "the basher does not act first: the target does not fall"),
    )


@dataclass(frozen=True)
class WeaponUse(Worked):
    """To-hit modifiers of the hands used (二刀流と逆腕, lines 101–102)."""

    modifiers: dict[str, int]
    different_targets_allowed: bool


def hands_attack(hands: Literal["main", "both", "off"], *, shield_bash: bool = False) -> WeaponUse:
    """Main hand alone: no penalty; both hands (one-handed weapons): main -2, off -4, same target;
    off hand alone: -2 (004 §3-4-3-1, lines 101–102).

    ``shield_bash``: a shield bash with the shield in the off hand adds no off-hand penalty, because
    the shield's to-hit modifier as a weapon already includes it (line 102); a bash with the shield in
    the main hand is not covered by the rules (the GM decides), so it is refused.
    """
    checks.choice(hands, "hands", ("main", "both", "off"))
    if shield_bash:
        if hands != "off":
            raise ValueError(f"a shield bash with hands {hands!r} is not covered by the rules: the GM decides (line 102)")
        return WeaponUse({"off": 0}, False,
                         steps=(f"shield bash: the off-hand {OFF_HAND_ONLY_MODIFIER} is already in the shield's to-hit modifier",))
    if hands == "main":
        return WeaponUse({"main": 0}, False, steps=("main hand alone: no penalty",))
    if hands == "off":
        return WeaponUse({"off": OFF_HAND_ONLY_MODIFIER}, False, steps=(f"off hand alone: {OFF_HAND_ONLY_MODIFIER}",))
    return WeaponUse(dict(TWO_WEAPONS_MODIFIERS), False,
                     steps=("two weapons: main hand -2, off hand -4; both against the same enemy",))


@dataclass(frozen=True)
class TurnAction:
    """An action that takes the whole turn or changes what else the turn allows."""

    name: str
    japanese: str
    may_move: bool
    may_attack: bool
    evasion_modifier: int = 0
    magic_resistance_modifier: int = 0
    modifier_lasts: str = ""
    roll_needed: bool = False
    steps: tuple[str, ...] = ()


def stand_up() -> TurnAction:
    """Standing up (立ち上がり): gives up every action of the turn, movement included; no roll (004 §3-4-3-1, line 105)."""
    return TurnAction("stand up", "立ち上がり", False, False, steps=("the whole turn is spent standing up",))


def full_defence() -> TurnAction:
    """Full defence (回避専念): no other action, +5 to evasion and magic-resistance rolls (004 §3-4-3-1, line 107)."""
    return TurnAction("full defence", "回避専念", False, False, FULL_DEFENCE_BONUS, FULL_DEFENCE_BONUS,
                      "the combat turn", (f"no move, no attack; evasion and magic resistance +{FULL_DEFENCE_BONUS}",))


def switch_equipment(how: Literal["drop", "stow", "from-unarmed"], *, from_backpack: bool = False) -> TurnAction:
    """Switching equipment (装備持ち替え), after moving or instead, just before attacking (004 §3-4-3-1, lines 109–112).

    ``"drop"`` what is in hand and take something from the waist or back: attack at once; ``"stow"``
    it (e.g. sheathe the sword) first: no attack this turn; ``"from-unarmed"``: draw and attack at
    once. Nothing can be switched to from a backpack.
    """
    checks.choice(how, "how", ("drop", "stow", "from-unarmed"))
    if from_backpack:
        raise ValueError("items in a backpack cannot be switched to in combat (004 §3-4-3-1, line 110)")
    attack = how != "stow"
    return TurnAction("switch equipment", "装備持ち替え", True, attack,
                      steps=(f"{how}: " + ("may attack at once" if attack else "no attack this turn"),))


@checks.checked_flags
def pick_up(*, moved: bool) -> TurnAction:
    """Picking up an item (落ちている物を拾う): without moving, equip and attack at once; after moving,
    no attack this turn; either way evasion -2 until the end of the turn (004 §3-4-3-1, lines 117–118)."""
    return TurnAction("pick up", "落ちている物を拾う", True, not moved, PICK_UP_EVASION_MODIFIER, 0,
                      "from the pick-up to the end of the combat turn",
                      ("moved first: no attack this turn" if moved else "did not move: equip and attack at once",
                       f"evasion {PICK_UP_EVASION_MODIFIER} until the end of the turn"))


def called_shot(part: str, *, gm_adjustment: int = 0, part_modifier: int | None = None) -> SpecialAttack:
    """Called shot (局所攻撃) at a part: its to-hit penalty (004 §3-4-3-1, lines 121–122).

    The text gives the weapon (-4, the GM may adjust) and, in joint piercing, the leg (-4, line 164).
    Other parts' penalties are *not in the source text*: pass ``part_modifier``.
    """
    checks.whole(gm_adjustment, "GM adjustment")
    if part in CALLED_SHOT_MODIFIERS and part_modifier is None:
        base = CALLED_SHOT_MODIFIERS[part]
    elif part_modifier is not None:
        base = checks.whole(part_modifier, "part modifier", maximum=0)
    else:
        raise ValueError(
            f"the penalty for a called shot at {part!r} is not in the source text: pass part_modifier= "
            f"(the text gives {', '.join(f'{k} {v}' for k, v in CALLED_SHOT_MODIFIERS.items())})"
        )
    total = base + gm_adjustment
    return SpecialAttack(f"called shot ({part})", "局所攻撃", total,
                         steps=(f"called shot at the {part}: {base}" + (f" {gm_adjustment:+d} (GM)" if gm_adjustment else ""),))


@dataclass(frozen=True)
class Contest(Worked):
    attribute: str
    active_total: int
    passive_total: int
    active_wins: bool


def weapon_drop_contest(
    attacker_value: int, defender_value: int, *, attacker_dice: Sequence[int], defender_dice: Sequence[int],
    defender_two_handed: bool = False, attribute: str = "strength",
) -> Contest:
    """After a hit aimed at the weapon: strength (筋力値) or luck (幸運値) + 2D6 on each side; the
    defender gets +2 with a two-handed weapon; it drops the weapon if the attacker wins (004 §3-4-3-1, line 122).

    Readings: ``attribute`` (``"strength"`` or ``"luck"``) is the same for both sides and the
    attacker chooses it (a ruling); each side adds 2D6; a tie is not a win.
    """
    checks.choice(attribute, "contest attribute", WEAPON_DROP_ATTRIBUTES)
    a = sum(check_dice_pair(attacker_dice, "attacker")) + checks.whole(attacker_value, "attacker value")
    bonus = CALLED_SHOT_TWO_HANDED_BONUS if defender_two_handed else 0
    d = sum(check_dice_pair(defender_dice, "defender")) + checks.whole(defender_value, "defender value") + bonus
    wins = a > d
    steps = (f"attacker {a}", f"defender {d}" + (f" (incl. +{bonus} two-handed)" if bonus else ""),
             "the defender drops the weapon" if wins else "the defender keeps the weapon")
    return Contest(attribute, a, d, wins, steps=steps)


@dataclass(frozen=True)
class JointPiercing(Worked):
    knowledge_attribute: str
    knowledge_difficulty: int
    knowledge_total: int
    knowledge_passed: bool
    attack_modifier: int
    ignores_protection: bool


def _outside_guidance(difficulty: int, extra_modifier: int) -> tuple[str, ...]:
    """The working's note on a GM's choice outside the text's "about" ranges (line 164)."""
    low, high = JOINT_KNOWLEDGE_DIFFICULTY
    mild, harsh = JOINT_EXTRA_MODIFIER
    notes = []
    if not low <= difficulty <= high:
        notes.append(f"difficulty {difficulty}: the text suggests about {low}-{high} for an ordinary 機装兵 (the GM's call)")
    if not harsh <= extra_modifier <= mild:
        notes.append(f"extra modifier {extra_modifier:+d}: the text suggests about {mild} to {harsh} (the GM's call)")
    return tuple(notes)


def joint_piercing(
    *,
    mecha_knowledge: int,
    firearms: int,
    solid_shot_gun: bool = True,
    part: str = "leg",
    extra_modifier: int,
    knowledge_difficulty: int,
    intelligence: int,
    knowledge_dice: Sequence[int],
    part_modifier: int | None = None,
) -> JointPiercing:
    """Joint piercing (関節貫き) of an enemy mecha (004 §3-4-3-1, lines 163–165).

    Needs 《機兵知識》 and 《銃砲系武器》 at level 3 or more and a solid-shot magic gun. First a
    《機兵知識》 check with intelligence (about 16-20 for an ordinary 機装兵; once per combat), then a
    called shot with the part's penalty plus about -4 to -8 more; a hit ignores final protection.
    Readings: the knowledge check is intelligence + skill level + 2D6 against the difficulty (a ruling);
    ``extra_modifier`` and ``knowledge_difficulty`` are the GM's choice: the text's ranges are guidance
    (``JOINT_KNOWLEDGE_DIFFICULTY``, ``JOINT_EXTRA_MODIFIER``), and a choice outside them is noted in the
    working, not refused. The extra modifier is a penalty: 0 or less.
    """
    checks.whole(mecha_knowledge, "《機兵知識》 level", minimum=0)
    checks.whole(firearms, "《銃砲系武器》 level", minimum=0)
    if min(mecha_knowledge, firearms) < JOINT_PIERCING_MIN_LEVEL:
        raise ValueError(f"joint piercing needs 《機兵知識》 and 《銃砲系武器》 at level {JOINT_PIERCING_MIN_LEVEL} or more "
                         f"(have {mecha_knowledge} and {firearms}) (004 §3-4-3-1, line 163)")
    if not solid_shot_gun:
        raise ValueError("joint piercing needs a solid-shot magic gun (実体弾タイプの魔導砲) (004 §3-4-3-1, line 163)")
    checks.whole(knowledge_difficulty, "《機兵知識》 difficulty", minimum=0)
    checks.whole(extra_modifier, "extra joint modifier", maximum=0)
    checks.whole(intelligence, "intelligence")
    pair = check_dice_pair(knowledge_dice, "knowledge")
    total = intelligence + mecha_knowledge + sum(pair)
    passed = total >= knowledge_difficulty
    shot = called_shot(part, part_modifier=part_modifier)
    modifier = shot.attack_modifier + extra_modifier
    steps = (f"《機兵知識》: intelligence {intelligence} + level {mecha_knowledge} + 2D6 ({pair[0]}+{pair[1]}) = {total} "
             f"against {knowledge_difficulty}: " + ("passed" if passed else "failed, no joint shot"),
             f"attack modifier {shot.attack_modifier} ({part}) {extra_modifier:+d} (joint) = {modifier}",
             "a hit ignores the final protection and severs the part beyond the joint",
             *_outside_guidance(knowledge_difficulty, extra_modifier))
    return JointPiercing("intelligence", knowledge_difficulty, total, passed, modifier, True, steps=steps)


__all__ = [
    "CHARGE_THRESHOLDS", "JOINT_EXTRA_MODIFIER", "JOINT_KNOWLEDGE_CHECKS_PER_COMBAT", "JOINT_KNOWLEDGE_DIFFICULTY",
    "WEAPON_DROP_ATTRIBUTES", "ChargePlan",
    "Contest", "JointPiercing", "SpecialAttack", "TurnAction", "WeaponUse", "called_shot", "charge",
    "charge_extra_rolls", "full_defence", "hands_attack", "joint_piercing", "pick_up", "plan_charge",
    "shield_bash", "stand_up", "switch_equipment", "tackle", "weapon_drop_contest",
]
