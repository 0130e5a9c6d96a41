"""Attack against evasion: success levels compared, then the damage formulas (001 §3-2).

The attacker rolls a d20 against its attack ability (実弾 or ＥＮ), the defender a d20 against
its reaction (反応) to evade (回避), or against another ability a special action allows
(interception, 001 §4-4). The higher level wins; equal levels give the middle result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Literal

from .. import checks
from ..dice import Distribution
from ..worked import Worked
from .levels import SuccessRoll, check_ability, check_level, roll_states, success_roll
from .rules import DEFAULT_RULES, Wis6Error, Wis6Rules, halve, whole

Outcome = Literal["missed", "evaded", "equal", "hit", "critical"]
#: Every outcome of an attack, in the order the book shows them.
OUTCOMES: tuple[str, ...] = ("missed", "evaded", "equal", "hit", "critical")
OUTCOME_LABELS = {
    "missed": "attack roll failed (no damage)",
    "evaded": "evaded (回避成功, no damage)",
    "equal": "equal levels (中間)",
    "hit": "evasion failed (回避失敗)",
    "critical": "critical (クリティカル)",
}
#: The factor of the critical formula (001 §3-2, line 53) and the divisor of the middle one (line 56).
CRITICAL_MULTIPLIER = 2
EQUAL_DIVISOR = 2


@dataclass(frozen=True)
class Damage(Worked):
    """The damage of one calculation: the value after the floor, the raw formula value, and the working."""

    value: int
    raw: int


@checks.checked_flags
def effective_armour(armour: int, covering: bool = False, rules: Wis6Rules = DEFAULT_RULES) -> int:
    """The armour value used in a damage calculation: halved while covering (001 §4-2, line 68)."""
    whole("armour", armour, minimum=0)
    return halve(armour, rules.armour_halving) if covering else armour


@checks.checked_arguments
def damage(
    outcome: str, weapon_attack: int, success_level: int, armour: int, rules: Wis6Rules = DEFAULT_RULES
) -> Damage:
    """The damage formula of ``outcome`` (001 §3-2), with the ``armour`` already as used.

    - ``"hit"`` (evasion failed): (weapon attack + success level) − armour
    - ``"critical"``: (weapon attack + success level) × 2 − armour
    - ``"equal"`` (equal levels): (weapon attack + success level) ÷ 2 − armour, the halving
      rounded as ``rules.halving`` says (a ruling)

    A result below ``rules.minimum_damage`` (a ruling, 0 by default) is raised to it.
    ``"evaded"`` and ``"missed"`` calculate no damage: use :func:`resolve_attack`.
    """
    whole("weapon attack", weapon_attack, minimum=0)
    whole("success level", success_level, minimum=0)
    whole("armour", armour, minimum=0)
    base = weapon_attack + success_level
    if outcome == "hit":
        raw = base - armour
        steps = [f"evasion failed: ({weapon_attack} + {success_level}) − {armour} = {raw}"]
    elif outcome == "critical":
        raw = base * CRITICAL_MULTIPLIER - armour
        steps = [f"critical: ({weapon_attack} + {success_level}) × {CRITICAL_MULTIPLIER} − {armour} = {raw}"]
    elif outcome == "equal":
        half = halve(base, rules.halving, EQUAL_DIVISOR)
        raw = half - armour
        rounded = f" (rounded {rules.halving}, a ruling)" if base % EQUAL_DIVISOR else ""
        steps = [
            f"equal levels: ({weapon_attack} + {success_level}) ÷ {EQUAL_DIVISOR} = {half}{rounded}; "
            f"{half} − {armour} = {raw}"
        ]
    elif outcome in ("evaded", "missed"):
        raise Wis6Error(f"outcome {outcome!r} calculates no damage (001 §3-2)")
    else:
        raise Wis6Error(f"outcome {outcome!r} is not one of {', '.join(OUTCOMES)}")
    value = max(raw, rules.minimum_damage)
    if value != raw:
        steps.append(f"below {rules.minimum_damage}: the damage is {value} (ruling: minimum_damage)")
    return Damage(value, raw, steps=tuple(steps))


def outcome_of(
    attack_level: int, attack_critical: bool, defence_level: int, rules: Wis6Rules = DEFAULT_RULES
) -> str:
    """Which result an attack has, from the two success levels (001 §3-1, §3-2, §4-4, line 76).

    The defender evades with a strictly higher level; equal levels are the middle result; a
    lower defence is a hit, or a critical when the attacker rolled 1. A critical is not an
    automatic hit: a higher defence still evades it. Rulings: a failed attack roll misses
    (``rules.failed_attack``); a matched critical uses the critical formula
    (``rules.critical_on_equal``).
    """
    check_level(attack_level, "attack level")
    check_level(defence_level, "defence level")
    if attack_level == 0 and rules.failed_attack == "misses":
        return "missed"
    if defence_level > attack_level:
        return "evaded"
    if attack_critical and (defence_level < attack_level or rules.critical_on_equal == "critical"):
        return "critical"
    return "equal" if defence_level == attack_level else "hit"


def _formula_level(attack_level: int, defence_level: int, rules: Wis6Rules) -> int:
    if rules.damage_level == "margin":
        return attack_level - defence_level
    return attack_level


@dataclass(frozen=True)
class AttackResult(Worked):
    """One attack resolved: both rolls, the outcome, the damage (``None`` when none is calculated)."""

    attack: SuccessRoll
    defence: SuccessRoll
    outcome: str
    damage: int | None

    @property
    def damage_calculated(self) -> bool:
        return self.damage is not None


@checks.checked_arguments
def resolve_attack(
    attack_roll: int,
    attack_ability: int,
    evasion_roll: int,
    evasion_ability: int,
    weapon_attack: int,
    armour: int,
    *,
    covering: bool = False,
    rules: Wis6Rules = DEFAULT_RULES,
) -> AttackResult:
    """Resolve one attack from both d20 rolls (001 §3-1, §3-2; covering 001 §4-2).

    ``evasion_ability`` is the defender's reaction, or the ability a special action lets it
    roll instead. ``covering`` halves ``armour`` (the armour of the unit that takes the hit).
    """
    attack = success_roll(attack_roll, attack_ability, rules)
    defence = success_roll(evasion_roll, evasion_ability, rules)
    outcome = outcome_of(attack.level, attack.critical, defence.level, rules)
    steps = [f"attack: {s}" for s in attack.steps] + [f"defence: {s}" for s in defence.steps]
    steps.append(f"attack level {attack.level} against defence level {defence.level}: {OUTCOME_LABELS[outcome]}")
    if outcome in ("missed", "evaded"):
        steps.append("no damage is calculated")
        return AttackResult(attack, defence, outcome, None, steps=tuple(steps))
    used_armour = effective_armour(armour, covering, rules)
    if covering:
        steps.append(f"covering: armour {armour} counts half, {used_armour} (rounded {rules.armour_halving})")
    level = _formula_level(attack.level, defence.level, rules)
    if rules.damage_level == "margin":
        steps.append(f"ruling damage_level='margin': the level in the formula is {attack.level} − {defence.level} = {level}")
    result = damage(outcome, weapon_attack, level, used_armour, rules)
    steps.extend(result.steps)
    return AttackResult(attack, defence, outcome, result.value, steps=tuple(steps))


@dataclass(frozen=True)
class AttackOdds:
    """The exact odds of one attack: each outcome, the damage distribution (0 when none) and its mean."""

    outcomes: Mapping[str, Fraction]
    damage: Distribution

    @property
    def mean_damage(self) -> Fraction:
        return self.damage.mean()

    @property
    def damage_calculated(self) -> Fraction:
        """The chance that damage is calculated at all (equal, hit or critical)."""
        return self.outcomes["equal"] + self.outcomes["hit"] + self.outcomes["critical"]


@checks.checked_arguments
def attack_odds(
    attack_ability: int,
    evasion_ability: int,
    weapon_attack: int,
    armour: int,
    *,
    covering: bool = False,
    rules: Wis6Rules = DEFAULT_RULES,
) -> AttackOdds:
    """The exact odds of an attack over all 20 × 20 pairs of d20 rolls (001 §3-1, §3-2, §4-2).

    The rolls are grouped by the (level, critical) pair they give, so the work is a handful
    of pairs rather than 400; the tests cross-check it against :func:`resolve_attack` on every
    one of the 400 pairs.
    """
    check_ability(attack_ability, "attack ability")
    check_ability(evasion_ability, "evasion ability")
    whole("weapon attack", weapon_attack, minimum=0)
    whole("armour", armour, minimum=0)
    return _attack_odds(attack_ability, evasion_ability, weapon_attack, armour, bool(covering), rules)


@cache
def _attack_odds(
    attack_ability: int, evasion_ability: int, weapon_attack: int, armour: int, covering: bool, rules: Wis6Rules
) -> AttackOdds:
    used_armour = effective_armour(armour, covering, rules)
    outcomes = dict.fromkeys(OUTCOMES, Fraction(0))
    damages: dict[int, Fraction] = {}
    defence_states = roll_states(evasion_ability, rules)
    for (a_level, a_critical), p in roll_states(attack_ability, rules).items():
        for (d_level, _d_critical), q in defence_states.items():
            outcome = outcome_of(a_level, a_critical, d_level, rules)
            outcomes[outcome] += p * q
            if outcome in ("missed", "evaded"):
                value = 0
            else:
                level = _formula_level(a_level, d_level, rules)
                value = damage(outcome, weapon_attack, level, used_armour, rules).value
            damages[value] = damages.get(value, Fraction(0)) + p * q
    return AttackOdds(MappingProxyType(outcomes), Distribution(damages))


__all__ = [
    "CRITICAL_MULTIPLIER", "EQUAL_DIVISOR", "OUTCOME_LABELS", "OUTCOMES", "AttackOdds", "AttackResult",
    "Damage", "attack_odds", "damage", "effective_armour", "outcome_of", "resolve_attack",
]
