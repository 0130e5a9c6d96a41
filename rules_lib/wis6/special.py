"""Special actions (特殊行動, 001 §2 and §4): cooperation, covering, combination, interception,
counter, jamming, tapping and effects, with their conditions and per-session limits.

The counter's arithmetic is in :mod:`rules_lib.wis6.counter`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from .. import checks
from ..worked import Worked
from .attack import AttackResult, resolve_attack
from .levels import SuccessRoll, success_roll
from .rules import DEFAULT_RULES, Wis6Error, Wis6Rules, whole

#: The eight special actions in the text's order (001 §2), with their Japanese names.
SPECIAL_ACTIONS: dict[str, str] = {
    "cooperation": "協調行動",
    "covering": "カバーリング",
    "combination": "コンビネーション",
    "interception": "迎撃",
    "counter": "カウンター",
    "jamming": "ジャミング",
    "tapping": "タッピング",
    "effect": "エフェクト使用",
}
_BY_JAPANESE = {japanese: name for name, japanese in SPECIAL_ACTIONS.items()}
#: Actions only an operator (オペレーター) may use (001 §4-6, line 95, §4-7, line 101).
OPERATOR_ONLY: frozenset[str] = frozenset({"jamming", "tapping"})
OPERATOR = "operator"
#: Uses per session (001 §4-6, line 98: ３回まで; §4-7, line 104: １回まで); the others are unlimited.
SESSION_LIMITS: Mapping[str, int] = MappingProxyType({"jamming": 3, "tapping": 1})
#: What cooperation lets a unit use on its partner without conditions (001 §4-1, line 63).
UNCONDITIONAL_WITH_PARTNER: tuple[str, ...] = ("covering", "combination", "interception", "counter")
#: Covering reaches allies within this many squares (001 §4-2, line 67: ２マス以内).
COVERING_RANGE = 2
#: Interception spends this much ammunition (001 §4-4, line 77: 弾数を【１点】減らす).
INTERCEPTION_AMMO_COST = 1
#: The abilities interception and counter roll instead of reaction (001 §4-4, line 75, §4-5, line 82).
WEAPON_ABILITIES: dict[str, str] = {"ballistic": "実弾", "energy": "ＥＮ"}


class UsageLimitError(Wis6Error):
    """A special action used more often in a session than the text allows."""


class RoleError(Wis6Error):
    """A special action used by a role that may not use it."""


def special_action(name: str) -> str:
    """The English name of a special action, from its English or Japanese name (001 §2)."""
    if isinstance(name, str):
        key = name.strip()
        if key.lower() in SPECIAL_ACTIONS:
            return key.lower()
        if key in _BY_JAPANESE:
            return _BY_JAPANESE[key]
    allowed = ", ".join(f"{n} ({j})" for n, j in SPECIAL_ACTIONS.items())
    raise Wis6Error(f"unknown special action {name!r}: allowed are {allowed}")


# -- per-session limits ---------------------------------------------------------------


@dataclass(frozen=True)
class SessionUses:
    """How often each special action has been used this session (001 §4-6, §4-7)."""

    counts: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "counts", MappingProxyType(dict(self.counts)))

    def used(self, action: str) -> int:
        return self.counts.get(special_action(action), 0)

    def remaining(self, action: str) -> int | None:
        """Uses left this session, or ``None`` for an action with no limit."""
        action = special_action(action)
        limit = SESSION_LIMITS.get(action)
        return None if limit is None else limit - self.used(action)

    def use(self, action: str, role: str | None = None) -> SessionUses:
        """Record one use; raises :class:`RoleError` or :class:`UsageLimitError` when not allowed."""
        action = special_action(action)
        if action in OPERATOR_ONLY and role != OPERATOR:
            raise RoleError(
                f"{action} ({SPECIAL_ACTIONS[action]}) is for the operator role (オペレーター) only, "
                f"not {role!r} (001 §4-6, §4-7)"
            )
        limit = SESSION_LIMITS.get(action)
        count = self.used(action)
        if limit is not None and count >= limit:
            times = "once" if limit == 1 else f"{limit} times"
            raise UsageLimitError(
                f"{action} ({SPECIAL_ACTIONS[action]}) may be used {times} per session; "
                f"this would be use {count + 1}"
            )
        return SessionUses({**self.counts, action: count + 1})

    def new_session(self) -> SessionUses:
        return SessionUses()


# -- cooperation ----------------------------------------------------------------------


@dataclass(frozen=True)
class Cooperation:
    """A cooperation (協調行動, 001 §4-1): the unit acts with its partner instead of moving or attacking."""

    unit: str
    partner: str
    active: bool = True
    can_move: bool = False
    can_attack: bool = False
    unconditional_actions: tuple[str, ...] = UNCONDITIONAL_WITH_PARTNER
    #: declared before this step of the unit's action (001 §4-1, line 62)
    declare_before: str = "move"
    #: it lasts until the unit declares it over (001 §4-1, line 64); jamming can also end it (§4-6)
    lasts_until: str = "release declared"

    def release(self) -> Cooperation:
        """The unit declares the cooperation over (解除)."""
        if not self.active:
            raise Wis6Error(f"{self.unit}'s cooperation with {self.partner} is already over")
        return Cooperation(self.unit, self.partner, active=False)

    def __str__(self) -> str:
        """The cooperation in words, for the reader."""
        if not self.active:
            return f"{self.unit}'s cooperation with {self.partner} is over"
        may = ", ".join(step for step, allowed in (("move", self.can_move), ("attack", self.can_attack)) if allowed)
        return (f"{self.unit} cooperates with {self.partner}: {f'may {may}' if may else 'neither moves nor attacks'}; "
                f"may always act by {', '.join(self.unconditional_actions)}; declared before the {self.declare_before} step, "
                f"it lasts until {self.lasts_until}")


def declare_cooperation(unit: str, partner: str, completed_steps: Sequence[str] = ()) -> Cooperation:
    """Declare cooperation with ``partner`` (001 §4-1). ``completed_steps`` are the unit's action
    steps already done this turn; once it has moved (or attacked) it is too late."""
    for name in (unit, partner):
        if not isinstance(name, str) or not name.strip():
            raise Wis6Error(f"a unit needs a name, not {name!r}")
    if unit == partner:
        raise Wis6Error(f"{unit} cannot cooperate with itself: name another machine")
    late = [s for s in completed_steps if s in ("move", "attack")]
    if late:
        raise Wis6Error(f"cooperation is declared before moving (001 §4-1); {unit} has already done: {', '.join(late)}")
    return Cooperation(unit, partner)


@dataclass(frozen=True)
class SupportCheck:
    """Whether a supporting special action is allowed, and why."""

    action: str
    allowed: bool
    reason: str


@checks.checked_arguments
def check_support(
    action: str,
    *,
    cooperation: Cooperation | None = None,
    ally: str | None = None,
    distance: int | None = None,
    weapon_range: int | None = None,
    ally_in_range: bool | None = None,
) -> SupportCheck:
    """Are the conditions of covering, combination or interception met? (001 §4-1 to §4-4)

    An active cooperation with ``ally`` waives them (無条件で, 001 §4-1, line 63). Otherwise:
    covering needs the ally within 2 squares (``distance``); interception for an ally needs it
    within the weapon's range (``distance``, ``weapon_range``); combination needs the enemy in
    range of both attackers (``ally_in_range`` for the partner, ``distance``/``weapon_range`` for
    the unit itself).
    """
    action = special_action(action)
    if action not in ("covering", "combination", "interception"):
        raise Wis6Error(f"{action} is not a supporting action: allowed are covering, combination, interception")
    if cooperation is not None and cooperation.active and ally == cooperation.partner:
        return SupportCheck(action, True, f"cooperating with {ally}: no conditions (無条件で)")
    if action == "covering":
        if distance is None:
            raise Wis6Error("covering needs the distance to the ally in squares")
        ok = whole("distance", distance, minimum=0) <= COVERING_RANGE
        return SupportCheck(action, ok, f"ally {distance} squares away; covering reaches {COVERING_RANGE}")
    if distance is None or weapon_range is None:
        raise Wis6Error(f"{action} needs the distance and the weapon range")
    in_range = whole("distance", distance, minimum=0) <= whole("weapon range", weapon_range, minimum=0)
    if action == "interception":
        return SupportCheck(action, in_range, f"target {distance} squares away; weapon range {weapon_range}")
    if ally_in_range is None:
        raise Wis6Error("combination needs ally_in_range: whether the partner also has the enemy in range")
    ok = in_range and bool(ally_in_range)
    return SupportCheck(
        action, ok, f"enemy {distance} squares away, weapon range {weapon_range}; partner in range: {ally_in_range}"
    )


# -- combination ----------------------------------------------------------------------


@dataclass(frozen=True)
class CombinationAttack:
    """One of the attacks of a combination: who, its success roll and its weapon attack."""

    attacker: str
    roll: SuccessRoll
    weapon_attack: int


@dataclass(frozen=True)
class Combination(Worked):
    """The attack a combination adopts, and the working."""

    adopted: CombinationAttack


@checks.checked_arguments
def combination(
    attacks: Sequence[CombinationAttack], *, tie: Literal["higher_weapon_attack", "first"] = "higher_weapon_attack"
) -> Combination:
    """Adopt the attack with the higher success level (コンビネーション, 001 §4-3, line 72).

    The adopted attack's own weapon attack and level enter the damage (a ruling). On equal
    levels ``tie`` decides (*not in the source text*): ``"higher_weapon_attack"`` (the players
    pick the stronger hit; a critical counts first) or ``"first"`` (the declaring unit's).
    """
    if len(attacks) < 2:
        raise Wis6Error(f"a combination needs at least 2 attacks, not {len(attacks)}")
    if tie not in ("higher_weapon_attack", "first"):
        raise Wis6Error(f"tie {tie!r} is not one of higher_weapon_attack, first")
    best = attacks[0]
    for attack in attacks[1:]:
        if attack.roll.level > best.roll.level:
            best = attack
        elif attack.roll.level == best.roll.level and tie == "higher_weapon_attack":
            if (attack.roll.critical, attack.weapon_attack) > (best.roll.critical, best.weapon_attack):
                best = attack
    steps = tuple(f"{a.attacker}: level {a.roll.level}, weapon attack {a.weapon_attack}" for a in attacks) + (
        f"adopted: {best.attacker}'s attack (level {best.roll.level})",
    )
    return Combination(best, steps=steps)


# -- interception ---------------------------------------------------------------------


@dataclass(frozen=True)
class Interception(Worked):
    """An interception (迎撃): the attack resolved against the intercept roll, and the weapon's cost."""

    attack: AttackResult
    damage_cancelled: bool
    ammo_after: int | None
    generator_load_after: int | None


def intercept(
    attack_roll: int,
    attack_ability: int,
    intercept_roll: int,
    intercept_ability: int,
    *,
    attack_kind: str,
    weapon_kind: Literal["ballistic", "energy"],
    missile_weapon_attack: int,
    armour: int,
    ammo: int | None = None,
    generator_load: int | None = None,
    energy_load: int | None = None,
    rules: Wis6Rules = DEFAULT_RULES,
) -> Interception:
    """Intercept a missile attack (001 §4-4): roll the weapon's attack ability instead of reaction.

    Only a level *above* the missile's level cancels the damage (上回った際, line 76); equal levels
    are the middle result as for evasion (a ruling). Afterwards the weapon used loses 1 round
    (``ammo``) or, for an energy weapon, the generator gains ``energy_load`` load points
    (*not in the source text*: the caller must give it), whether or not it worked (行動後, line 77).
    """
    if attack_kind != "missile":
        raise Wis6Error(f"interception works against missile attacks (ミサイル) only, not {attack_kind!r}")
    if weapon_kind not in WEAPON_ABILITIES:
        raise Wis6Error(f"weapon kind {weapon_kind!r} is not one of {', '.join(WEAPON_ABILITIES)}")
    ammo_after = load_after = None
    if weapon_kind == "ballistic":
        if ammo is None:
            raise Wis6Error("a ballistic interception needs the weapon's ammunition count (ammo)")
        if whole("ammo", ammo, minimum=0) < INTERCEPTION_AMMO_COST:
            raise Wis6Error(f"the weapon has {ammo} rounds left: interception needs {INTERCEPTION_AMMO_COST}")
        ammo_after = ammo - INTERCEPTION_AMMO_COST
    else:
        if energy_load is None or generator_load is None:
            raise Wis6Error(
                "an energy interception needs generator_load and energy_load (load points per use: "
                "not in the source text)"
            )
        load_after = whole("generator load", generator_load, minimum=0) + whole("energy load", energy_load, minimum=0)
    result = resolve_attack(
        attack_roll, attack_ability, intercept_roll, intercept_ability, missile_weapon_attack, armour, rules=rules
    )
    cancelled = result.outcome in ("evaded", "missed")
    steps = list(result.steps)
    steps.append("interception succeeded: the damage is cancelled" if cancelled else "interception failed")
    if ammo_after is not None:
        steps.append(f"the weapon used spends {INTERCEPTION_AMMO_COST} round: {ammo} → {ammo_after}")
    else:
        steps.append(f"the generator takes {energy_load} load points: {generator_load} → {load_after}")
    return Interception(result, cancelled, ammo_after, load_after, steps=tuple(steps))


# -- jamming and tapping ----------------------------------------------------------------


@dataclass(frozen=True)
class Jamming(Worked):
    """A jamming roll: both information rolls, whether it worked, and the session after the use."""

    jammer: SuccessRoll
    target: SuccessRoll
    succeeded: bool
    cooperation: Cooperation | None
    session: SessionUses


def jam(
    jammer_roll: int,
    jammer_information: int,
    target_roll: int,
    target_information: int,
    *,
    session: SessionUses,
    role: str,
    target_cooperation: Cooperation | None = None,
    rules: Wis6Rules = DEFAULT_RULES,
) -> Jamming:
    """Jamming (ジャミング, 001 §4-6): the operator's information (情報) roll against the target
    player's; a higher level cancels the target's cooperation declaration or ends its cooperation.

    Operators only, 3 times per session. The target rolls its own information ability (a
    reading); equal levels fail (上回れば, line 97).
    """
    session = checks.of_type(session, "the session's uses", SessionUses, error=Wis6Error).use("jamming", role)
    if target_cooperation is not None:
        checks.of_type(target_cooperation, "the target's cooperation", Cooperation, error=Wis6Error)
    jammer = success_roll(jammer_roll, jammer_information, rules)
    target = success_roll(target_roll, target_information, rules)
    ok = jammer.level > target.level
    steps = [f"jammer: {s}" for s in jammer.steps] + [f"target: {s}" for s in target.steps]
    steps.append(f"level {jammer.level} against {target.level}: " + ("jamming succeeds" if ok else "jamming fails"))
    cooperation = target_cooperation
    if ok and cooperation is not None and cooperation.active:
        cooperation = cooperation.release()
        steps.append(f"{cooperation.unit}'s cooperation with {cooperation.partner} ends")
    steps.append(f"jamming used {session.used('jamming')} of {SESSION_LIMITS['jamming']} this session")
    return Jamming(jammer, target, ok, cooperation, session, steps=tuple(steps))


@dataclass(frozen=True)
class Tapping(Worked):
    """A tapping roll: the level reached (the GM judges what information it earns)."""

    roll: SuccessRoll
    session: SessionUses


def tap(roll: int, ability: int, *, session: SessionUses, role: str, rules: Wis6Rules = DEFAULT_RULES) -> Tapping:
    """Tapping (タッピング, 001 §4-7): a success roll whose level the GM turns into information.

    Operators only, once per session. The text names no ability for the roll: ``ability`` is
    the caller's choice (*not in the source text*; the information ability is the natural one).
    """
    session = checks.of_type(session, "the session's uses", SessionUses, error=Wis6Error).use("tapping", role)
    result = success_roll(roll, ability, rules)
    steps = result.steps + (
        f"level {result.level}: the GM decides how much information this earns (001 §4-7, line 103)",
        f"tapping used {session.used('tapping')} of {SESSION_LIMITS['tapping']} this session",
    )
    return Tapping(result, session, steps=steps)


# -- effects ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """An effect (エフェクト) attached to a machine: its name and the moment it is used, if it has one."""

    name: str
    timing: str | None = None


@checks.checked_arguments
def can_use_effect(effect: Effect, moment: str) -> bool:
    """Whether ``effect`` may be used at ``moment`` (エフェクト使用, 001 §4-8): at its set timing,
    or at any moment when it has none. The effects themselves are not in this text."""
    if not isinstance(moment, str) or not moment.strip():
        raise Wis6Error(f"moment {moment!r} is not a named moment such as 'attack' or 'evasion'")
    return effect.timing is None or effect.timing == moment


__all__ = [
    "COVERING_RANGE", "INTERCEPTION_AMMO_COST", "OPERATOR", "OPERATOR_ONLY", "SESSION_LIMITS",
    "SPECIAL_ACTIONS", "UNCONDITIONAL_WITH_PARTNER", "WEAPON_ABILITIES", "Combination", "CombinationAttack",
    "Cooperation", "Effect", "Interception", "Jamming", "RoleError", "SessionUses", "SupportCheck", "Tapping",
    "UsageLimitError", "can_use_effect", "check_support", "combination", "declare_cooperation", "intercept",
    "jam", "special_action", "tap",
]
