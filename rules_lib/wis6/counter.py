"""Counter (カウンター, 001 §4-5): give up evading, take the hit, and strike back if still standing.

Declared instead of evading. The declaring unit always takes the incoming damage first and
counters only if that does not wreck it (大破). The counter roll uses the weapon's attack
ability (実弾 or ＥＮ) instead of reaction, against the enemy's attack level:
higher: (weapon attack + level) × 2 to the enemy; equal: weapon attack + level; lower: fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import MappingProxyType

from .. import checks
from ..dice import Distribution
from ..worked import Worked
from .attack import damage
from .levels import SuccessRoll, check_ability, check_level, roll_states, success_roll
from .rules import DEFAULT_RULES, Wis6Error, Wis6Rules, whole

#: Every outcome of a counter, in the order the book shows them.
COUNTER_OUTCOMES: tuple[str, ...] = ("wrecked", "lower", "equal", "higher")
COUNTER_LABELS = {
    "wrecked": "wrecked (大破) by the incoming hit: no counter",
    "lower": "lower level: the counter fails",
    "equal": "equal level: weapon attack + level",
    "higher": "higher level: (weapon attack + level) × 2",
}
#: The factor of a counter that beats the enemy's level (001 §4-5, line 86).
COUNTER_MULTIPLIER = 2


@dataclass(frozen=True)
class CounterValues:
    """The two units' values a counter is resolved with (001 §4-5), shared by
    :func:`resolve_counter` and :func:`counter_odds`.

    - ``enemy_weapon_attack``: the attacker's weapon attack, for the hit the declarer takes.
    - ``own_armour``: the declarer's armour against that hit.
    - ``own_ap``: the declarer's AP before the hit (1 or more).
    - ``own_weapon_attack``: the attack of the weapon the declarer counters with.
    - ``enemy_armour``: the attacker's armour, needed only when ``rules.counter_armour`` is
      ``"subtract"`` (a ruling).

    The functions that take them check each value and refuse a bad one by name.
    """

    enemy_weapon_attack: int
    own_armour: int
    own_ap: int
    own_weapon_attack: int
    enemy_armour: int | None = None


@dataclass(frozen=True)
class CounterDamage(Worked):
    """A counter's outcome against the enemy and the damage it deals (``None`` when it fails)."""

    outcome: str
    damage: int | None

    @property
    def succeeded(self) -> bool:
        return self.damage is not None


@checks.checked_arguments
def counter_damage(
    counter_level: int,
    enemy_level: int,
    weapon_attack: int,
    *,
    critical: bool = False,
    enemy_armour: int | None = None,
    rules: Wis6Rules = DEFAULT_RULES,
) -> CounterDamage:
    """The counter's result from the two levels (001 §4-5, lines 85–92).

    Rulings: a counter roll that fails (level 0) never counters; the enemy's armour is not
    subtracted unless ``rules.counter_armour == "subtract"`` (then ``enemy_armour`` is
    needed); a critical counter doubles its damage only if ``rules.counter_critical == "double"``.
    """
    check_level(counter_level, "counter level")
    check_level(enemy_level, "enemy attack level")
    whole("weapon attack", weapon_attack, minimum=0)
    if rules.counter_armour == "subtract":
        if enemy_armour is None:
            raise Wis6Error("enemy_armour is needed when rules.counter_armour is 'subtract'")
        whole("enemy armour", enemy_armour, minimum=0)
    if counter_level == 0 or counter_level < enemy_level:
        why = "the counter roll failed" if counter_level == 0 else f"level {counter_level} is below {enemy_level}"
        return CounterDamage("lower", None, steps=(f"{why}: the counter fails, no damage to the enemy",))
    base = weapon_attack + counter_level
    if counter_level > enemy_level:
        outcome, value = "higher", base * COUNTER_MULTIPLIER
        steps = [
            f"level {counter_level} beats {enemy_level}: ({weapon_attack} + {counter_level}) × {COUNTER_MULTIPLIER} = {value}"
        ]
    else:
        outcome, value = "equal", base
        steps = [f"level {counter_level} equals {enemy_level}: {weapon_attack} + {counter_level} = {value}"]
    if critical and rules.counter_critical == "double":
        value *= 2
        steps.append(f"critical counter, doubled (ruling counter_critical='double'): {value}")
    if rules.counter_armour == "subtract":
        raw = value - enemy_armour  # type: ignore[operator]
        value = max(raw, rules.minimum_damage)
        steps.append(f"minus the enemy's armour {enemy_armour} (ruling counter_armour='subtract'): {value}")
    return CounterDamage(outcome, value, steps=tuple(steps))


@dataclass(frozen=True)
class CounterResult(Worked):
    """A counter resolved: the incoming hit, whether the unit survived, and the counter's result."""

    attack: SuccessRoll
    #: which damage formula the declarer's own hit used: "hit" (evasion failed) or "critical"
    incoming_outcome: str
    self_damage: int
    ap_after: int
    wrecked: bool
    counter: SuccessRoll | None
    outcome: str
    enemy_damage: int | None

    @property
    def self_takes_damage(self) -> bool:
        """Whether the declarer's own hit was calculated as a hit that was not evaded (001 §4-5, line 84)."""
        return self.incoming_outcome in ("hit", "critical")


def incoming_outcome(attack: SuccessRoll) -> str:
    """The formula of the hit the declarer takes (001 §4-5, line 84): a counter gives up evasion, so
    the damage is always calculated as evasion failed ("hit"), or the critical formula on a
    critical (ruling)."""
    return "critical" if attack.critical else "hit"


@checks.checked_arguments
def incoming_damage(
    attack: SuccessRoll, enemy_weapon_attack: int, own_armour: int, rules: Wis6Rules = DEFAULT_RULES
):
    """The hit the declarer takes (001 §4-5, line 84): evasion failed, or the critical formula on a critical (ruling)."""
    return damage(incoming_outcome(attack), enemy_weapon_attack, attack.level, own_armour, rules)


@checks.checked_arguments
def resolve_counter(
    attack_roll: int,
    attack_ability: int,
    counter_roll: int,
    counter_ability: int,
    values: CounterValues,
    *,
    rules: Wis6Rules = DEFAULT_RULES,
) -> CounterResult:
    """Resolve a counter declared against one attack (001 §4-5).

    The declarer takes the evasion-failed damage (the critical formula on a critical) with
    the attacker's level, even a failed level 0 (the text: 必ずダメージを受ける). It is wrecked
    when its AP falls to 0 or below (a ruling: 大破 is not defined in the text); only
    otherwise does its counter roll count.
    """
    own_ap = values.own_ap
    whole("AP", own_ap, minimum=1)
    attack = success_roll(attack_roll, attack_ability, rules)
    counter = success_roll(counter_roll, counter_ability, rules)
    outcome = incoming_outcome(attack)
    hit = damage(outcome, values.enemy_weapon_attack, attack.level, values.own_armour, rules)
    ap_after = own_ap - hit.value
    steps = [f"attack: {s}" for s in attack.steps]
    steps.append("the counter gives up evasion, so the declarer takes the hit first:")
    steps.extend(hit.steps)
    steps.append(f"AP {own_ap} − {hit.value} = {ap_after}")
    if ap_after <= 0:
        steps.append("AP 0 or below: wrecked (大破, ruling), the counter does not happen")
        return CounterResult(attack, outcome, hit.value, ap_after, True, None, "wrecked", None, steps=tuple(steps))
    steps.extend(f"counter: {s}" for s in counter.steps)
    result = counter_damage(
        counter.level, attack.level, values.own_weapon_attack,
        critical=counter.critical, enemy_armour=values.enemy_armour, rules=rules,
    )
    steps.extend(result.steps)
    return CounterResult(
        attack, outcome, hit.value, ap_after, False, counter, result.outcome, result.damage, steps=tuple(steps)
    )


@dataclass(frozen=True)
class CounterOdds:
    """Exact odds of a counter: each outcome, the damage taken, and the damage dealt (0 when none)."""

    outcomes: Mapping[str, Fraction]
    self_damage: Distribution
    enemy_damage: Distribution

    @property
    def wrecked(self) -> Fraction:
        return self.outcomes["wrecked"]

    @property
    def counter_lands(self) -> Fraction:
        return self.outcomes["equal"] + self.outcomes["higher"]


@checks.checked_arguments
def counter_odds(
    attack_ability: int,
    counter_ability: int,
    values: CounterValues,
    *,
    rules: Wis6Rules = DEFAULT_RULES,
) -> CounterOdds:
    """The exact odds of :func:`resolve_counter` (001 §4-5) over all 20 × 20 pairs of d20 rolls."""
    check_ability(attack_ability, "attack ability")
    check_ability(counter_ability, "counter ability")
    whole("enemy weapon attack", values.enemy_weapon_attack, minimum=0)
    whole("own armour", values.own_armour, minimum=0)
    whole("AP", values.own_ap, minimum=1)
    whole("own weapon attack", values.own_weapon_attack, minimum=0)
    return _counter_odds(attack_ability, counter_ability, values, rules)


@cache
def _counter_odds(attack_ability: int, counter_ability: int, values: CounterValues, rules: Wis6Rules) -> CounterOdds:
    enemy_weapon_attack, own_armour, own_ap = values.enemy_weapon_attack, values.own_armour, values.own_ap
    outcomes = dict.fromkeys(COUNTER_OUTCOMES, Fraction(0))
    taken: dict[int, Fraction] = {}
    dealt: dict[int, Fraction] = {}
    counter_states = roll_states(counter_ability, rules)
    for (a_level, a_critical), p in roll_states(attack_ability, rules).items():
        hit = damage("critical" if a_critical else "hit", enemy_weapon_attack, a_level, own_armour, rules).value
        taken[hit] = taken.get(hit, Fraction(0)) + p
        if own_ap - hit <= 0:
            outcomes["wrecked"] += p
            dealt[0] = dealt.get(0, Fraction(0)) + p
            continue
        for (c_level, c_critical), q in counter_states.items():
            result = counter_damage(
                c_level, a_level, values.own_weapon_attack, critical=c_critical, enemy_armour=values.enemy_armour,
                rules=rules,
            )
            outcomes[result.outcome] += p * q
            value = result.damage or 0
            dealt[value] = dealt.get(value, Fraction(0)) + p * q
    return CounterOdds(MappingProxyType(outcomes), Distribution(taken), Distribution(dealt))


__all__ = [
    "COUNTER_LABELS", "COUNTER_MULTIPLIER", "COUNTER_OUTCOMES", "CounterDamage", "CounterOdds",
    "CounterResult", "CounterValues", "counter_damage", "counter_odds", "incoming_damage", "resolve_counter",
]
