"""Attack and evasion on 2D6, fumbles, criticals (as parameters), damage and protection.

004 §3-4-2-2 (lines 31–53) for melee, 004 §3-4-2-3 (lines 55–81) for ranged attacks, which work the same
way once the target is in the firing arc. The text never says which 2D6 rolls are critical or
over-critical: that is the :class:`CriticalRule` parameter, which every function that needs it
takes without a default.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Literal

from .. import checks
from ..checks import halfwidth
from ..dice import DieRoll, Distribution, distribution, roll
from ..dice.exact import counts
from ..geometry.square import Facing, Square, in_cone, in_front
from ..worked import Worked
from ._common import check_dice_pair

Kind = Literal["fumble", "normal", "critical", "over-critical"]
#: Double ones (１ゾロ) are a fumble (004 §3-4-2-2, line 43).
FUMBLE_DICE = (1, 1)
#: The fumble's luck check: difficulty 9 to 16, which the GM may raise or lower (004 §3-4-2-2, line 43:
#: GM判断で上下). Guidance, not a limit: a difficulty outside it is noted in the working.
FUMBLE_DIFFICULTY_RANGE = (9, 16)
#: Damage rolls of a hit by kind of attack roll: once, a critical once more, an over-critical once
#: more again (004 §3-4-2-2, lines 44–45).
DAMAGE_ROLLS = {"normal": 1, "critical": 2, "over-critical": 3}
TieRule = Literal["defender", "attacker"]
#: A melee or ranged attack is against one enemy (004 §3-4-2-2, line 31).
TARGETS_PER_ATTACK = 1


@dataclass(frozen=True)
class CriticalRule:
    """Which 2D6 rolls are critical or over-critical. **Not in the source text.**

    The text uses both words (004 §3-4-2-2, line 45, line 51) but never defines them; the caller chooses.
    ``critical`` and ``over_critical`` are sets of dice pairs (order does not matter); double ones
    are always a fumble and may be in neither.
    """

    name: str
    critical: frozenset[tuple[int, int]] = frozenset()
    over_critical: frozenset[tuple[int, int]] = frozenset()

    def __post_init__(self) -> None:
        for pair in (*self.critical, *self.over_critical):
            check_dice_pair(pair, "critical")
        normal = {tuple(sorted(p)) for p in self.critical}
        over = {tuple(sorted(p)) for p in self.over_critical}
        if (1, 1) in normal | over:
            raise ValueError("double ones are a fumble (004 §3-4-2-2, line 43): they cannot be critical")
        if normal & over:
            raise ValueError(f"dice {sorted(normal & over)} are both critical and over-critical")
        object.__setattr__(self, "critical", frozenset(normal))
        object.__setattr__(self, "over_critical", frozenset(over))

    @classmethod
    def none(cls) -> CriticalRule:
        """No roll is critical (a choice for when the criticals are not wanted; not in the source text)."""
        return cls("no criticals (not in the source text)")

    @classmethod
    def natural_total(cls, critical_at: int | None, over_critical_at: int | None = None) -> CriticalRule:
        """Critical when the two dice total at least ``critical_at``, over-critical at least ``over_critical_at``.

        Both thresholds are *not in the source text*; ``None`` turns that level off.
        """
        pairs = [(a, b) for a in range(1, 7) for b in range(a, 7)]
        for value, what in ((critical_at, "critical_at"), (over_critical_at, "over_critical_at")):
            if value is not None:
                checks.whole(value, what, minimum=3, maximum=12)
        over = {p for p in pairs if over_critical_at is not None and sum(p) >= over_critical_at}
        crit = {p for p in pairs if critical_at is not None and sum(p) >= critical_at} - over
        name = "natural 2D6 " + ", ".join(
            part for part in (
                f">= {critical_at} critical" if critical_at is not None else "",
                f">= {over_critical_at} over-critical" if over_critical_at is not None else "",
            ) if part
        ) if (critical_at or over_critical_at) else "no criticals"
        return cls(name + " (not in the source text)", frozenset(crit), frozenset(over))

    def kind(self, dice: Sequence[int]) -> Kind:
        return self._kind_of(tuple(sorted(check_dice_pair(dice))))

    def _kind_of(self, pair: tuple[int, ...]) -> Kind:
        """The kind of a checked pair of dice, lower die first."""
        if pair == FUMBLE_DICE:
            return "fumble"
        if pair in self.over_critical:
            return "over-critical"
        if pair in self.critical:
            return "critical"
        return "normal"


@dataclass(frozen=True)
class CheckRoll:
    """A 2D6 check: base value + modifier + dice, with its kind (fumble, critical, ...)."""

    what: str
    base: int
    modifier: int
    dice: tuple[int, int]
    total: int
    kind: Kind
    steps: tuple[str, ...]
    die_rolls: tuple[DieRoll, ...] = ()

    @property
    def fumbled(self) -> bool:
        return self.kind == "fumble"


@checks.checked_arguments
def check_roll(
    what: str, base: int, dice: Sequence[int], *, modifier: int = 0, criticals: CriticalRule
) -> CheckRoll:
    """``base + modifier + 2D6 = achievement value`` (達成値), e.g. the attack roll (004 §3-4-2-2, line 42) or evasion (004 §3-4-2-2, line 50)."""
    checks.whole(base, f"{what} base value")
    checks.whole(modifier, f"{what} modifier")
    pair = check_dice_pair(dice, what)
    rolled = roll("2D6", dice=pair)
    total = base + modifier + rolled.total
    kind = criticals.kind(pair)
    steps = [f"{what}: {base}" + (f" {modifier:+d}" if modifier else "") + f" + 2D6 ({pair[0]}+{pair[1]}) = {total}"]
    if kind == "fumble":
        steps.append("double ones: fumble (004 §3-4-2-2, line 43)")
    elif kind != "normal":
        steps.append(f"{kind} by the chosen rule: {criticals.name}")
    return CheckRoll(what, base, modifier, pair, total, kind, tuple(steps), rolled.dice)


@checks.checked_arguments
def attack_roll(to_hit_base: int, dice: Sequence[int], *, modifier: int = 0, criticals: CriticalRule) -> CheckRoll:
    """Attack roll: to-hit base value (命中基本値) + 2D6 (004 §3-4-2-2, line 42)."""
    return check_roll("attack", to_hit_base, dice, modifier=modifier, criticals=criticals)


@checks.checked_arguments
def evasion_roll(evasion_base: int, dice: Sequence[int], *, modifier: int = 0, criticals: CriticalRule) -> CheckRoll:
    """Evasion roll: evasion base value (回避基本値) + 2D6 (004 §3-4-2-2, line 50)."""
    return check_roll("evasion", evasion_base, dice, modifier=modifier, criticals=criticals)


@dataclass(frozen=True)
class Resolution(Worked):
    """What an attack did: hit or not, armour or not, how many damage rolls, and side effects."""

    hit: bool
    direct_hit: bool
    damage_rolls: int
    attacker_fumbled: bool
    attacker_treated_as_fumbled: bool
    attacker_mishap: bool


@checks.checked_flags
def resolve_attack(
    attack: CheckRoll,
    evasion: CheckRoll | None,
    *,
    tie: TieRule = "defender",
    extra_damage_rolls: int = 0,
) -> Resolution:
    """Compare an attack with an evasion roll (``None``: the defender gave up evasion) (004 §3-4-2-2, lines 44–52).

    Readings (see the rulings): a fumbled attack misses; a fumbled evasion fails and the hit is
    direct (no protection, line 52); otherwise the attack hits when its total beats the evasion total,
    and on equal totals ``tie`` decides (default ``"defender"``: the evasion succeeds, as the
    active side must win a contest elsewhere in the text, line 16 and line 122). Criticals do not change
    the comparison: a critical attack that hits rolls damage once more, an over-critical twice more
    (004 §3-4-2-2, line 45); a critical evasion that succeeds counts the attacker as having fumbled, an over-critical
    one brings a GM-chosen mishap (004 §3-4-2-2, line 51). ``extra_damage_rolls`` come from special actions (charge).
    """
    checks.choice(tie, "tie", ("defender", "attacker"))
    checks.whole(extra_damage_rolls, "extra damage rolls", minimum=0)
    steps = list(attack.steps)
    if attack.fumbled:
        steps.append("the attack fumbled: it misses; fumble processing follows")
        return Resolution(False, False, 0, True, False, False, steps=tuple(steps))
    if evasion is None:
        hit, direct = True, False
        steps.append("evasion given up: the attack hits, protection applies (004 §3-4-2-2, line 46, line 52)")
    else:
        steps.extend(evasion.steps)
        if evasion.fumbled:
            hit, direct = True, True
            steps.append("the evasion fumbled: a direct hit, protection is not subtracted (004 §3-4-2-2, line 52)")
        elif attack.total != evasion.total:
            hit, direct = attack.total > evasion.total, False
            steps.append(f"{attack.total} {'>' if hit else '<'} {evasion.total}: " + ("hit" if hit else "evaded"))
        else:
            hit, direct = tie == "attacker", False
            steps.append(f"{attack.total} = {evasion.total}: a tie goes to the {tie} (a ruling): "
                         + ("hit" if hit else "evaded"))
    treated_fumble = mishap = False
    rolls = 0
    if hit:
        rolls = DAMAGE_ROLLS[attack.kind] + extra_damage_rolls
        steps.append(f"damage rolled {rolls} time(s)"
                     + (f" ({attack.kind})" if attack.kind != "normal" else "")
                     + (f", {extra_damage_rolls} extra from the special action" if extra_damage_rolls else ""))
    elif evasion is not None and evasion.kind == "critical":
        treated_fumble = True
        steps.append("critical evasion: the attacker is normally treated as having fumbled (004 §3-4-2-2, line 51)")
    elif evasion is not None and evasion.kind == "over-critical":
        mishap = True
        steps.append("over-critical evasion: the GM imposes a mishap on the attacker, e.g. a broken weapon (004 §3-4-2-2, line 51)")
    return Resolution(hit, direct, rolls, False, treated_fumble, mishap, steps=tuple(steps))


# -- damage ------------------------------------------------------------------------


#: the most times a damage is rolled (a critical rolls twice, a charge once more): an engine limit,
#: *not in the source text*, that keeps the written damage within the dice notation's 200 characters
MAX_DAMAGE_ROLLS = 20

#: a damage of dice and a constant, as ``2D6+1``: a critical rolls the dice again, the constant stays once
_DICE_AND_CONSTANT = re.compile(r"(\d+D\d+)([+-]\d+)?")


def damage_expression(weapon_damage: str, physical_bonus: int = 0, *, rolls: int = 1, bonus_applies: bool = True) -> str:
    """The damage as the text writes it: the weapon's dice ``rolls`` times, then the bonus once.

    ``damage_expression("3D6", 3)`` is ``3D6+3``; with ``rolls=2`` (a critical) ``3D6+3D6+3``
    (004 §3-4-2-2, lines 44–45). ``bonus_applies=False`` drops the physical damage bonus (magic guns, line 72).
    A weapon whose damage has a constant (``2D6+1``) adds it once, as the bonus: a critical rolls
    the damage *dice* once more (ダメージダイスを振って, line 45), so ``2D6+1`` critical with bonus 3
    is ``2D6+2D6+1+3`` (a ruling).
    """
    checks.whole(rolls, "damage rolls", minimum=1, maximum=MAX_DAMAGE_ROLLS)
    checks.whole(physical_bonus, "physical damage bonus")
    distribution(weapon_damage)  # validates the notation
    split = _DICE_AND_CONSTANT.fullmatch(halfwidth(weapon_damage))
    dice, constant = (split.group(1), split.group(2) or "") if split else (weapon_damage, "")
    text = "+".join([dice] * rolls) + constant
    if bonus_applies and physical_bonus:
        text += f"{physical_bonus:+d}"
    return text


@dataclass(frozen=True)
class Damage(Worked):
    """A damage roll and what is left of it after protection."""

    expression: str
    rolled: int
    protection: int
    taken: int


def damage_taken(
    weapon_damage: str,
    dice: Sequence[int],
    *,
    physical_bonus: int = 0,
    rolls: int = 1,
    protection: int = 0,
    direct_hit: bool = False,
    bonus_applies: bool = True,
) -> Damage:
    """Roll the damage with the given dice, subtract final protection (最終防護点) unless a direct hit (004 §3-4-2-2, line 52).

    Damage after protection never goes below 0 (a ruling: the text does not say).
    """
    checks.whole(protection, "final protection", minimum=0)
    expression = damage_expression(weapon_damage, physical_bonus, rolls=rolls, bonus_applies=bonus_applies)
    result = roll(expression, dice=dice)
    steps = [f"damage {expression}"] + [f"  {s}" for s in result.steps]
    if direct_hit:
        taken = max(result.total, 0)
        steps.append(f"direct hit: protection not subtracted, {taken} off HP")
    else:
        taken = max(result.total - protection, 0)
        steps.append(f"{result.total} - protection {protection} = {result.total - protection}"
                     + (" -> 0" if result.total - protection < 0 else "") + f": {taken} off HP")
    return Damage(expression, result.total, protection, taken, steps=tuple(steps))


# -- fumble processing ---------------------------------------------------------------


@dataclass(frozen=True)
class DifficultyCheck(Worked):
    """A value + 2D6 against a difficulty: the luck check's shape (004 §3-4-2-2, line 43)."""

    what: str
    value: int
    difficulty: int
    dice: tuple[int, int]
    total: int
    fumbled: bool
    success: bool


def difficulty_check(value: int, difficulty: int, dice: Sequence[int], *, what: str = "check") -> DifficultyCheck:
    """A check (判定) of ``value`` + 2D6 against a difficulty (難易度), as the fumble's luck check is
    (004 §3-4-2-2, line 43): the one rule of a check against a difficulty, which the ``VW+v>=d``
    command and :func:`fumble_check` both apply.

    Readings (the text gives the value and the difficulty, not the roll): value + 2D6 succeeds at
    or above the difficulty; double ones (１ゾロ) fumble and fail whatever the total. The fumble
    holds because the text says of one check only, the extra action's contest, that "in this
    check" fumbles, criticals and over-criticals mean nothing (004 §3-4-1, line 17): an exception
    worth stating only if a check's double ones otherwise fumble, as the attack's and the
    evasion's do (line 43, line 52). A critical changes nothing here: success is all a check
    against a difficulty gives.
    """
    checks.whole(value, f"{what} value")
    checks.whole(difficulty, f"{what} difficulty")
    pair = check_dice_pair(dice, what)
    total = value + sum(pair)
    fumbled = tuple(sorted(pair)) == FUMBLE_DICE
    success = not fumbled and total >= difficulty
    step = f"{what} {value} + 2D6 ({pair[0]}+{pair[1]}) = {total} against difficulty {difficulty}: "
    if fumbled:
        step += "double ones, a fumble: failure whatever the total (ruling, 004 §3-4-1, line 17)"
    else:
        step += "success" if success else "failure"
    return DifficultyCheck(what, value, difficulty, pair, total, fumbled, success, steps=(step,))


@dataclass(frozen=True)
class FumbleCheck(Worked):
    """The luck check after a fumbled attack (004 §3-4-2-2, line 43); ``fumbled``: the check's own
    double ones (a failure, :func:`difficulty_check`)."""

    attribute: str
    skill_used: bool
    difficulty: int
    total: int
    success: bool
    outcome: Literal["nothing", "drop-weapon", "hit-self"]
    fumbled: bool = False


def fumble_check(luck: int, difficulty: int, dice: Sequence[int], *, armed: bool = True) -> FumbleCheck:
    """Unskilled luck check (幸運値) of difficulty 9-16 after a fumble; failure drops the weapon, or,
    unarmed, the attacker hits itself (004 §3-4-2-2, line 43). For a mecha the pilot rolls. The GM
    may set the difficulty higher or lower (GM判断で上下): 9-16 is guidance, not a limit.

    The check is :func:`difficulty_check` (readings there: luck + 2D6 at or above the difficulty,
    double ones fail).
    """
    checks.whole(luck, "luck value")
    checks.whole(difficulty, "fumble check difficulty", minimum=0)
    low, high = FUMBLE_DIFFICULTY_RANGE
    check = difficulty_check(luck, difficulty, dice, what="luck")
    outcome = "nothing" if check.success else ("drop-weapon" if armed else "hit-self")
    steps = (*check.steps,
             {"nothing": "nothing more happens", "drop-weapon": "the weapon used is dropped",
              "hit-self": "unarmed: the attacker hits itself and takes the damage"}[outcome])
    if not low <= difficulty <= high:
        steps += (f"difficulty {difficulty}: outside the text's {low}-{high}, set by the GM (line 43)",)
    return FumbleCheck("luck", False, difficulty, check.total, check.success, outcome, check.fumbled, steps=steps)


# -- arcs ------------------------------------------------------------------------------


def can_melee(attacker: Square, facing: Facing | str, target: Square) -> bool:
    """Melee reaches one enemy in the three front squares (004 §3-4-2-2, line 31)."""
    return in_front(Square(*attacker), Facing.parse(facing), Square(*target))


def in_firing_arc(shooter: Square, facing: Facing | str, target: Square) -> bool:
    """The firing arc (射界) of 004 §3-4-2-3 (lines 59–65): a 90-degree cone ahead, edges included.

    Range is not limited in the basic rules (004 §3-4-2-2, line 55), so the cone continues past the figure's 5 rows.
    """
    return in_cone(Square(*shooter), Facing.parse(facing), Square(*target))


# -- exact odds ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackOdds(Worked):
    """Exact odds of one attack against one evasion (or against a defender who gives it up)."""

    outcomes: Distribution
    damage: Distribution | None
    damage_if_hit: Distribution | None
    tie: Fraction

    @property
    def hit(self) -> Fraction:
        return self.outcomes.probability(lambda o: o.startswith("hit") or o.startswith("direct"))

    @property
    def attacker_fumble(self) -> Fraction:
        return self.outcomes["attack fumble"]

    @property
    def direct_hit(self) -> Fraction:
        return self.outcomes.probability(lambda o: o.startswith("direct"))


#: 2D6 outcomes of one side: the probabilities below are whole-number counts over 36 (attack and
#: evasion together over 36 * 36), so the odds are summed in integers and made fractions once
_PAIRS = 36


@lru_cache(maxsize=256)
def _kinds(base: int, criticals: CriticalRule) -> dict[tuple[Kind, int], int]:
    """How many of the 36 rolls of 2D6 give each outcome class (kind, total) of one side (callers only read it)."""
    found: dict[tuple[Kind, int], int] = {}
    for a in range(1, 7):
        for b in range(a, 7):  # each unordered pair once: two orders unless a double
            key = (criticals._kind_of((a, b)), base + a + b)
            found[key] = found.get(key, 0) + (1 if a == b else 2)
    return found


@checks.checked_arguments
def attack_odds(
    to_hit: int,
    evasion: int | None,
    *,
    criticals: CriticalRule,
    tie: TieRule = "defender",
    weapon_damage: str | None = None,
    physical_bonus: int = 0,
    bonus_applies: bool = True,
    protection: int = 0,
    extra_damage_rolls: int = 0,
) -> AttackOdds:
    """Exact chances of every outcome of an attack, and the damage taken (004 §3-4-2-2).

    ``to_hit`` and ``evasion`` are the final values added to 2D6 (base value plus every modifier:
    charge -4, full defence +5, ...); ``evasion=None`` means the defender gives up evasion.
    Outcomes: ``"attack fumble"``, ``"miss"``, ``"miss, attacker treated as fumbled"``,
    ``"miss, attacker mishap"``, ``"hit"``, ``"hit (critical)"``, ``"hit (over-critical)"``,
    ``"direct hit"`` (evasion fumbled) and its critical variants. With ``weapon_damage``, also the
    distribution of HP lost (0 on a miss) after ``protection``. Computed over the 2D6 outcome
    classes (kind and total) of each side and convolutions of the damage dice; cross-checked by
    enumerating every die in the tests.
    """
    checks.whole(to_hit, "to-hit value")
    if evasion is not None:
        checks.whole(evasion, "evasion value")
    checks.choice(tie, "tie", ("defender", "attacker"))
    checks.whole(protection, "final protection", minimum=0)
    checks.whole(extra_damage_rolls, "extra damage rolls", minimum=0)
    arguments = (to_hit, evasion, criticals, tie, weapon_damage, physical_bonus, bonus_applies, protection,
                 extra_damage_rolls)
    # a calculator asks again for inputs it has seen: each distinct set is computed once
    try:
        hash(arguments)
    except TypeError:  # an unhashable input is refused by the rule itself, with its message
        return _attack_odds.__wrapped__(*arguments)
    return _attack_odds(*arguments)


@lru_cache(maxsize=512)
def _attack_odds(to_hit: int, evasion: int | None, criticals: CriticalRule, tie: TieRule, weapon_damage: str | None,
                 physical_bonus: int, bonus_applies: bool, protection: int, extra_damage_rolls: int) -> AttackOdds:
    attack = _kinds(to_hit, criticals)
    defence = _kinds(evasion, criticals) if evasion is not None else {("waived", 0): _PAIRS}
    outcomes: dict[str, int] = {}  # counts over _PAIRS ** 2, as every count below
    rolls_n: dict[tuple[int, bool], int] = {}  # (damage rolls, direct) -> count
    tie_n = 0

    def add(label: str, n: int) -> None:
        outcomes[label] = outcomes.get(label, 0) + n

    for (a_kind, a_total), p in attack.items():
        if a_kind == "fumble":
            add("attack fumble", p * _PAIRS)
            continue
        suffix = "" if a_kind == "normal" else f" ({a_kind})"
        for (d_kind, d_total), q in defence.items():
            pq = p * q
            if d_kind == "waived":
                hit, direct = True, False
            elif d_kind == "fumble":
                hit, direct = True, True
            elif a_total == d_total:
                tie_n += pq
                hit, direct = tie == "attacker", False
            else:
                hit, direct = a_total > d_total, False
            if hit:
                add(("direct hit" if direct else "hit") + suffix, pq)
                key = (DAMAGE_ROLLS[a_kind] + extra_damage_rolls, direct)
                rolls_n[key] = rolls_n.get(key, 0) + pq
            elif d_kind == "critical":
                add("miss, attacker treated as fumbled", pq)
            elif d_kind == "over-critical":
                add("miss, attacker mishap", pq)
            else:
                add("miss", pq)
    whole = _PAIRS * _PAIRS
    result_outcomes = Distribution({label: Fraction(n, whole) for label, n in outcomes.items()})
    damage = damage_if_hit = None
    if weapon_damage is not None:
        damage, damage_if_hit = _damage_taken(rolls_n, whole, weapon_damage, physical_bonus, bonus_applies, protection)
    steps = (
        f"attack {to_hit} + 2D6 against " + (f"evasion {evasion} + 2D6" if evasion is not None else "no evasion"),
        f"criticals: {criticals.name}; a tie goes to the {tie}",
    )
    return AttackOdds(result_outcomes, damage, damage_if_hit, Fraction(tie_n, whole), steps=steps)


def _damage_taken(rolls_n: dict[tuple[int, bool], int], whole: int, weapon: str, bonus: int, applies: bool,
                  protection: int) -> tuple[Distribution, Distribution | None]:
    """HP lost per attack (0 on a miss) and HP lost given a hit, from the count of each kind of hit over ``whole``.

    Each damage distribution is whole-number counts over its own total; all are brought to one
    common denominator, so the sum of products is in integers and each chance is one fraction.
    """
    after = {(rolls, direct): _after_protection(_raw_damage(weapon, bonus, applies, rolls), 0 if direct else protection)
             for rolls, direct in rolls_n}
    scale = math.lcm(*(total for _, total in after.values()))
    hit_n = sum(rolls_n.values())
    on_hit: dict[int, int] = {}  # count of (hit and this much HP lost) over whole * scale
    for key, n in rolls_n.items():
        counts, total = after[key]
        weight = n * (scale // total)
        for value, c in counts.items():
            on_hit[value] = on_hit.get(value, 0) + weight * c
    taken = {0: (whole - hit_n) * scale}
    for value, n in on_hit.items():
        taken[value] = taken.get(value, 0) + n
    damage = Distribution({k: Fraction(n, whole * scale) for k, n in taken.items() if n})
    if not hit_n:
        return damage, None
    return damage, Distribution({value: Fraction(n, hit_n * scale) for value, n in on_hit.items()})


@cache
def _raw_damage(weapon: str, bonus: int, applies: bool, rolls: int) -> tuple[dict[int, int], int]:
    """Counts of the damage rolled (before protection) and their total: a direct hit and a hit share them."""
    return counts(damage_expression(weapon, bonus, rolls=rolls, bonus_applies=applies))  # type: ignore[return-value]


def _after_protection(raw: tuple[dict[int, int], int], cut: int) -> tuple[dict[int, int], int]:
    """Counts of the HP lost, ``cut`` off each value of the damage (never below 0), and their total."""
    values, total = raw
    after: dict[int, int] = {}
    for value, n in values.items():
        kept = max(value - cut, 0)
        after[kept] = after.get(kept, 0) + n
    return after, total


def hit_chance_table(to_hit_values: Iterable[int], evasion: int, *, criticals: CriticalRule,
                     tie: TieRule = "defender") -> list[tuple[int, Fraction]]:
    """Chance to hit (004 §3-4-2-2) for several to-hit values against one evasion value."""
    return [(v, attack_odds(v, evasion, criticals=criticals, tie=tie).hit) for v in to_hit_values]


__all__ = [
    "DAMAGE_ROLLS", "FUMBLE_DIFFICULTY_RANGE", "TARGETS_PER_ATTACK", "AttackOdds", "CheckRoll",
    "CriticalRule", "Damage", "MAX_DAMAGE_ROLLS", "DifficultyCheck", "FumbleCheck", "Resolution", "attack_odds", "attack_roll", "can_melee",
    "check_roll", "damage_expression", "damage_taken", "difficulty_check", "evasion_roll", "fumble_check", "hit_chance_table",
    "in_firing_arc", "resolve_attack",
]
