"""Missile salvoes and bombing (000 §7-1, §7-12), and how the text writes their damage.

Firing (or dropping) several at once adds +1 to hit per missile beyond the first; every 2 steps of
margin (rounded down) make one more missile hit, never more than were fired. The same rule
serves bombs. Damage per missile or bomb, and how many one launcher holds, are in the unit's data,
which is *not in the source text*: they are parameters.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from ..checks import halfwidth
from ..dice import Distribution, distribution
from ..dice.exact import counts as counts_of
from ..worked import Worked
from .d36 import step_of, whole_number
from .to_hit import DOUBLE_STEPS, PLAIN_CHECK, ROLL_STEPS, HitCheck, HitOptions, check_hit


def salvo_modifier(fired: int) -> int:
    """+1 to hit for each missile (bomb) beyond the first (000 §7-1, line 343, §7-12, line 446)."""
    return check_fired(fired) - 1


def check_fired(fired: object, capacity: int | None = None, what: str = "missiles fired") -> int:
    """``fired`` as a count of at least 1, and at most one launcher's ``capacity`` if given (000 §7-1,
    line 342: one launcher's full salvo, never several launchers' together). A launcher's capacity is
    in the unit's data, *not in the source text*; the text's examples show only that the Nouvelle
    GM III's launcher holds at least 15 and the Core Booster Easy carries at least 6 bombs."""
    fired = whole_number(fired, what)
    if fired < 1:
        raise ValueError(f"{what} {fired}: allowed are 1 or more")
    if capacity is not None and fired > capacity:
        raise ValueError(
            f"{what} {fired}: one launcher's full salvo is at most {capacity}; several launchers may not "
            "fire their full salvoes together (000 §7-1)"
        )
    return fired


def salvo_hits(margin: int, fired: int) -> int:
    """Missiles that hit for a margin in steps: 0 on a miss, else 1 + margin // 2, at most ``fired``.

    000 §7-1, line 344: "for every 2 of difference (rounded down), one missile hits"; the example
    (line 350) makes these *additional* to the first hit: a margin of 4 is 2 more, 3 in all.
    """
    margin = whole_number(margin, "margin")
    fired = check_fired(fired)
    if margin <= 0:
        return 0
    return min(fired, 1 + margin // 2)


@dataclass(frozen=True)
class Salvo:
    """One resolved salvo."""

    fired: int
    modifier: int
    check: HitCheck
    extra_hits: int
    hits: int
    steps: tuple[str, ...]
    salvo_bonus: int = 0


def salvo_bonus(fired: int, *, psycommu_guided: bool = False, guided_salvo_bonus: bool = False) -> int:
    """The salvo's to-hit bonus: +1 per missile beyond the first (000 §7-1), except for a psycommu-guided
    psy-missile salvo unless ``guided_salvo_bonus``.

    Ruling: a guided psy-missile attack takes the psycommu pattern and is resolved as an all-range
    attack (close-range modifier, rear, doubles); the text sends only "the damage worked out after the
    hit value" to the missile rules (000 §7-9, line 423), so the salvo's +1 per missile, a rule of the
    missile pattern (line 343), does not apply. ``guided_salvo_bonus=True`` is the other reading.
    """
    bonus = salvo_modifier(fired)
    return bonus if (not psycommu_guided or guided_salvo_bonus) else 0


def resolve_salvo(
    tens: int,
    units: int,
    fired: int,
    evasion: int,
    *,
    other_modifier: int = 0,
    capacity: int | None = None,
    psycommu_guided: bool = False,
    guided_salvo_bonus: bool = False,
    options: HitOptions = PLAIN_CHECK,
) -> Salvo:
    """Resolve a missile salvo or bombing run from the dice (000 §7-1, §7-12, §7-9).

    ``capacity`` is one launcher's missiles (*not in the source text*; no limit if not given). A
    psycommu-guided psy-missile salvo is an all-range attack: a double always hits and then every
    missile hits (000 §7-9); whether it gets the salvo's +1 per missile is a ruling
    (:func:`salvo_bonus`, ``guided_salvo_bonus``). ``options`` are the hit check's
    (:class:`~.to_hit.HitOptions`); their ``all_range`` is ``psycommu_guided``.
    """
    fired = check_fired(fired, capacity)
    bonus = salvo_bonus(fired, psycommu_guided=psycommu_guided, guided_salvo_bonus=guided_salvo_bonus)
    modifier = bonus + whole_number(other_modifier, "other modifier")
    check = check_hit(tens, units, modifier, evasion, replace(options, all_range=psycommu_guided))
    if psycommu_guided and not guided_salvo_bonus:
        steps = [f"{fired} psycommu-guided: no salvo bonus (an all-range attack; ruling on 000 §7-9)"]
    else:
        steps = [f"{fired} fired: +{bonus} to hit (+1 per missile beyond the first)"]
    if other_modifier:
        steps.append(f"other modifiers {other_modifier:+d}: final modifier {modifier:+d}")
    steps.extend(check.steps)
    if psycommu_guided and check.doubles:
        hits = fired
        steps.append(f"psycommu-guided doubles: all {fired} hit (000 §7-9)")
    elif check.hit and check.margin <= 0:
        hits = 1  # forced hit (fainted pilot): no margin to count
        steps.append("forced hit: 1 hits")
    else:
        hits = salvo_hits(check.margin, fired)
        if hits:
            steps.append(f"margin {check.margin} // 2 = {check.margin // 2} more: {hits} hit in all"
                         + (f" (capped at the {fired} fired)" if hits == fired and 1 + check.margin // 2 > fired else ""))
        else:
            steps.append("a miss: blast damage only (巻き込み, 000 §7-1, line 346; see blast_damage)")
    return Salvo(fired, modifier, check, max(0, hits - 1), hits, tuple(steps), bonus)


# -- damage formulas ------------------------------------------------------------------------------

_FORMULA = re.compile(r"^(\d+)D(\d+)(?:\+(\d+)(?:/(\d+))?)?$")
DivisorScope = Literal["bonus", "whole"]


@dataclass(frozen=True)
class DamageFormula:
    """A damage entry ``NDS+B`` or ``NDS+B/D`` (dice, a bonus, and an optional divisor)."""

    count: int
    sides: int
    bonus: int = 0
    divisor: int = 1

    @classmethod
    def parse(cls, text: str) -> DamageFormula:
        if not isinstance(text, str):
            raise ValueError(f"damage {text!r} is not text like '3D6+3'")
        norm = halfwidth(text).strip().upper().replace(" ", "")
        m = _FORMULA.match(norm)
        if not m:
            raise ValueError(f"damage {text!r} does not parse: write NDS, NDS+B or NDS+B/D (e.g. '3D6+3', '1D3+4/2')")
        count, sides, bonus, divisor = (int(g) if g else None for g in m.groups())
        if not count or not sides or divisor == 0:
            raise ValueError(f"damage {text!r}: dice, sides and divisor must be at least 1")
        return cls(count, sides, bonus or 0, divisor or 1)

    def __str__(self) -> str:
        bonus = "" if not self.bonus else f"+{self.bonus}" + (f"/{self.divisor}" if self.divisor != 1 else "")
        return f"{self.count}D{self.sides}{bonus}"


@dataclass(frozen=True)
class SalvoDamage(Worked):
    """The damage of ``hits`` missiles or bombs: how the text writes it, and its exact distribution."""

    per_hit: DamageFormula
    hits: int
    text: str
    expression: str
    distribution: Distribution


def salvo_damage(
    per_hit: str | DamageFormula,
    hits: int,
    *,
    dice_per_hit: bool = False,
    divisor_scope: DivisorScope = "bonus",
) -> SalvoDamage:
    """Damage of ``hits`` missiles (bombs), each doing ``per_hit`` (*not in the source text*).

    The text writes the total by multiplying each part of the per-hit damage by the hits: 3 bombs
    of ``3D6+3`` are ``3D6×3+3×3`` (000 §7-12). A bonus with a divisor multiplies its numerator:
    3 missiles of ``1D3+4/2`` are ``1D3×3+12/2`` (000 §7-1), rounded down (端数は切り捨て).

    Readings (rulings): ``dice_per_hit=False`` rolls the dice once and multiplies, as ``×3`` is
    written (True rolls them for every hit); ``divisor_scope="bonus"`` divides the bonus only
    (``1D3×3 + 12/2``, the usual precedence), ``"whole"`` divides the whole sum.
    """
    formula = per_hit if isinstance(per_hit, DamageFormula) else DamageFormula.parse(per_hit)
    hits = whole_number(hits, "hits")
    if hits < 0:
        raise ValueError(f"hits {hits}: allowed are 0 or more")
    if divisor_scope not in ("bonus", "whole"):
        raise ValueError(f"divisor scope {divisor_scope!r}: allowed are 'bonus', 'whole'")
    if hits == 0:
        return SalvoDamage(formula, 0, "0", "0", Distribution({0: Fraction(1)}), steps=("no hits: no damage",))
    dice = f"{formula.count}D{formula.sides}"
    if hits == 1:
        text = str(formula)
    else:
        text = f"{dice}×{hits}"
        if formula.bonus:
            text += f"+{formula.bonus}×{hits}" if formula.divisor == 1 else f"+{formula.bonus * hits}/{formula.divisor}"
    dice_expr = f"{formula.count * hits}D{formula.sides}" if dice_per_hit else f"{dice}*{hits}"
    bonus_total = formula.bonus * hits
    if formula.divisor == 1:
        expr = dice_expr + (f"+{bonus_total}" if bonus_total else "")
    elif divisor_scope == "bonus":
        expr = f"{dice_expr}+{bonus_total}/{formula.divisor}"
    else:
        expr = f"({dice_expr}+{bonus_total})/{formula.divisor}"
    steps = (
        f"per hit {formula} (a parameter: not in the source text) × {hits} hits",
        f"written as the text writes it: {text}",
        f"evaluated as {expr} ('/' rounds down)",
    )
    return SalvoDamage(formula, hits, text, expr, distribution(expr), steps=steps)


# -- the blast of a miss (000 §7-1, §7-2, §7-12) ---------------------------------------------------

#: the book's ruling on the missing blast table, as the steps name it (see :func:`blast_damage`)
BLAST_RULING = "the dice of one hit's damage, its bonus dropped"


@dataclass(frozen=True)
class BlastDamage(Worked):
    """The blast damage (巻き込み) of one missile salvo, grenade or bombing run that misses: the entry
    it uses, how it is rolled and its exact distribution (every outcome at least 1)."""

    formula: DamageFormula
    expression: str
    distribution: Distribution


def check_blast(blast: object) -> DamageFormula:
    """``blast`` as a damage entry (``NDS`` or ``NDS+B``, at least one die), or a ``ValueError`` that
    says why 0 is not allowed: a miss does some damage (000 §7-1, line 346)."""
    if isinstance(blast, DamageFormula):
        return blast
    try:
        return DamageFormula.parse(blast)  # type: ignore[arg-type]  # parse refuses what is not text
    except ValueError as error:
        raise ValueError(f"blast {error}; a miss does some damage by its blast (000 §7-1, line 346), "
                         "so the entry has at least one die, e.g. '1D3'") from None


def blast_damage(per_hit: str | DamageFormula, blast: str | DamageFormula | None = None) -> BlastDamage:
    """The damage a missile salvo, grenade or bombing run does when it misses (000 §7-1, lines
    346-348, §7-2, line 359, §7-12, lines 450-452).

    The text says such a miss still damages the target, caught in the explosion (爆発による巻き込み),
    by an amount for the weapon's type from a table that is missing; of the table it keeps only
    that "the plus modifier after the damage is ignored" (lines 348, 452). The amount is *not in the
    source text*: ``blast`` is the table's entry for the weapon (``"1D3"``; any ``NDS`` or
    ``NDS+B``). Without it, the book's ruling (:data:`BLAST_RULING`): the dice of one missile's
    (grenade's, bomb's) own damage ``per_hit``, its bonus dropped, so ``1D3+4/2`` blasts for
    ``1D3`` and ``3D6+3`` for ``3D6``. One blast per salvo, however many were fired (the table goes
    by the type fired, line 346). Never 0: the text says a miss does damage, and every entry
    (at least one die) does at least 1.
    """
    formula = per_hit if isinstance(per_hit, DamageFormula) else DamageFormula.parse(per_hit)
    if blast is None:
        entry = DamageFormula(formula.count, formula.sides)
        source = f"by the book's ruling ({BLAST_RULING}): {formula} -> {entry}"
    else:
        entry = check_blast(blast)
        source = f"{entry}, the entry given for the weapon (not in the source text)"
    rolled = salvo_damage(entry, 1)
    steps = (
        "a miss still does blast damage (巻き込み, 000 §7-1, line 346); its table is not in the source text",
        f"blast damage {source}",
        f"{rolled.text}: {min(rolled.distribution.support)} to {max(rolled.distribution.support)} damage",
    )
    return BlastDamage(entry, rolled.expression, rolled.distribution, steps=steps)


# -- odds -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SalvoOdds:
    """Exact odds of a salvo: chance of any hit, the number hitting, and (if given) the damage."""

    fired: int
    modifier: int
    evasion: int
    hit: Fraction
    hits: Distribution
    damage: Distribution | None
    steps: tuple[str, ...]
    salvo_bonus: int = 0


def salvo_odds(
    fired: int,
    evasion: int,
    *,
    other_modifier: int = 0,
    per_hit_damage: str | None = None,
    blast: str | None = None,
    capacity: int | None = None,
    psycommu_guided: bool = False,
    guided_salvo_bonus: bool = False,
    dice_per_hit: bool = False,
    divisor_scope: DivisorScope = "bonus",
) -> SalvoOdds:
    """The exact distribution of missiles (bombs) hitting and of their damage (000 §7-1, §7-12).

    ``per_hit_damage`` is *not in the source text*. A miss does the blast damage of
    :func:`blast_damage`: ``blast`` is its table's entry (*not in the source text*), and without it
    the book's ruling, the dice of one hit's damage without its bonus.
    """
    fired = check_fired(fired, capacity)
    bonus = salvo_bonus(fired, psycommu_guided=psycommu_guided, guided_salvo_bonus=guided_salvo_bonus)
    counts = _salvo_hit_counts(fired, bonus + whole_number(other_modifier, "other modifier"),
                               step_of(evasion, "evasion"), psycommu_guided)
    hits = Distribution.from_counts(dict(counts))
    modifier = bonus + whole_number(other_modifier, "other modifier")
    damage = None
    steps = [f"{fired} fired, final modifier {modifier:+d}, evasion {evasion}"]
    if per_hit_damage is not None:
        # whole numbers: each part's counts over its own total, brought to one common denominator
        miss = blast_damage(per_hit_damage, blast)
        parts = {h: counts_of(miss.expression) if h == 0
                 else _damage_counts(per_hit_damage, h, dice_per_hit, divisor_scope) for h, _ in counts}
        scale = math.lcm(*(total for _, total in parts.values()))
        merged: dict[int, int] = {}
        for h, n in counts:
            part, total = parts[h]
            weight = n * (scale // total)
            for value, c in part.items():
                merged[value] = merged.get(value, 0) + weight * c
        whole = ROLL_STEPS * scale
        damage = Distribution({value: Fraction(x, whole) for value, x in merged.items()})
        steps.append(f"damage per hit {per_hit_damage} (not in the source text)")
        steps.append(miss.steps[1])
    return SalvoOdds(fired, modifier, evasion, 1 - hits[0], hits, damage, tuple(steps), bonus)


@lru_cache(maxsize=1024)
def _salvo_hit_counts(fired: int, modifier: int, evasion_step: int, psycommu_guided: bool) -> tuple[tuple[int, int], ...]:
    """Missiles hitting -> how many of the 36 roll steps give that many: :func:`resolve_salvo`'s rule
    counted on the step distribution (the tests compare the two roll by roll)."""
    counts: dict[int, int] = {}
    for roll_step in range(ROLL_STEPS):
        margin = max(0, roll_step + modifier) - evasion_step
        if psycommu_guided and roll_step in DOUBLE_STEPS:
            hits = fired  # a guided double: every missile hits (000 §7-9)
        else:
            hits = min(fired, 1 + margin // 2) if margin > 0 else 0
        counts[hits] = counts.get(hits, 0) + 1
    return tuple(sorted(counts.items()))


@lru_cache(maxsize=64)
def _dice_counts(count: int, sides: int) -> tuple[dict[int, int], int]:
    return counts_of(f"{count}D{sides}")  # type: ignore[return-value]  # the outcomes of dice are whole numbers


def _damage_distribution(per_hit: str | DamageFormula, hits: int, dice_per_hit: bool, divisor_scope: DivisorScope) -> Distribution:
    """:func:`salvo_damage`'s distribution (see `_damage_counts`)."""
    values, total = _damage_counts(per_hit, hits, dice_per_hit, divisor_scope)
    return Distribution({value: Fraction(n, total) for value, n in values.items()})


@lru_cache(maxsize=256)
def _damage_counts(per_hit: str | DamageFormula, hits: int, dice_per_hit: bool,
                   divisor_scope: DivisorScope) -> tuple[dict[int, int], int]:
    """:func:`salvo_damage`'s distribution as whole-number counts and their total; when the dice are
    rolled once and multiplied, it is their distribution mapped through the same arithmetic as its
    expression ('/' rounds down), which the tests compare with :func:`salvo_damage`."""
    if dice_per_hit:
        shown = salvo_damage(per_hit, hits, dice_per_hit=True, divisor_scope=divisor_scope).distribution
        common = math.lcm(*(p.denominator for _, p in shown.items()))
        return {value: p.numerator * (common // p.denominator) for value, p in shown.items()}, common
    formula = per_hit if isinstance(per_hit, DamageFormula) else DamageFormula.parse(per_hit)
    bonus, divisor = formula.bonus * hits, formula.divisor
    if divisor == 1:
        def total_of(v: int) -> int:
            return v * hits + bonus
    elif divisor_scope == "bonus":
        def total_of(v: int) -> int:
            return v * hits + bonus // divisor
    else:
        def total_of(v: int) -> int:
            return (v * hits + bonus) // divisor
    raw, total = _dice_counts(formula.count, formula.sides)
    values: dict[int, int] = {}
    for v, n in raw.items():
        key = total_of(v)
        values[key] = values.get(key, 0) + n
    return values, total


__all__ = [
    "BlastDamage", "DamageFormula", "blast_damage", "resolve_salvo", "salvo_damage", "salvo_hits", "salvo_modifier", "salvo_odds",
]
