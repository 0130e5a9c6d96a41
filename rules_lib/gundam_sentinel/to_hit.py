"""The hit check: 1D36 plus the final hit modifier against the evasion value (000 §6).

All arithmetic is in steps of the 1D36 scale (see :mod:`.d36`): a +14 modifier moves a roll of 36
fourteen steps up to 62, and a roll of 62 against an evasion of 54 has a margin of 4.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import lru_cache

from .. import checks
from ..dice import Distribution
from ..worked import Worked
from . import d36
from .actions import PATTERNS

#: a modified roll of this value or more is a critical (000 §6, line 296), against mook MS only
CRITICAL_AT = 66


@dataclass(frozen=True)
class Modifier:
    """One named modifier (to hit or to evasion), in steps, with where the text gives it."""

    name: str
    value: int
    source: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", d36.whole_number(self.value, f"modifier {self.name!r}"))


#: equipment modifiers the text states (000 §7-20): the one source the rules, the calculators and
#: the book's checks read
SMOKE_TO_HIT = -6  # line 523: shots from the smoke hex or through it
JAMMING_TO_HIT = -6  # line 545: shots at the jamming unit, and its own shots, at mid range or farther
STEAL_YARD_TO_HIT = -6  # line 549: shooting and melee against the unit
EWAC_TO_HIT = 2  # line 553: shooting of every friendly unit on the combat map
SFS_EVASION = -6  # line 574: evasion of an MS riding a sub-flight system


def _pattern(name: str, label: str) -> Modifier:
    pattern = PATTERNS[name]
    return Modifier(label, pattern.to_hit or pattern.evasion, pattern.source)


#: to-hit modifiers the text states, by name (000 §2, §7-20). Counted ones (aim, ready) are per
#: action. The pattern values are :data:`.actions.PATTERNS`' fields.
TO_HIT_MODIFIERS: dict[str, Modifier] = {
    m.name: m
    for m in (
        _pattern("snap shot", "snap shot (速射)"),
        _pattern("aim", "aim (照準), each"),
        _pattern("quick-draw slash", "quick-draw slash (抜き斬り)"),
        _pattern("ready", "ready (構える), each"),
        _pattern("wind-up", "wind-up (振りかぶる)"),
        _pattern("body slam", "body slam (体当たり)"),
        Modifier("smoke in the line of fire (煙幕)", SMOKE_TO_HIT, "000 §7-20"),
        Modifier("jamming device, mid range or farther (ジャミング装置)", JAMMING_TO_HIT, "000 §7-20"),
        Modifier("Steal Yard (スティールヤード)", STEAL_YARD_TO_HIT, "000 §7-20"),
        Modifier("EWAC system (ＥＷＡＣシステム)", EWAC_TO_HIT, "000 §7-20"),
    )
}
SNAP_SHOT, AIM, SMOKE, JAMMING, STEAL_YARD, EWAC = (
    "snap shot (速射)", "aim (照準), each", "smoke in the line of fire (煙幕)",
    "jamming device, mid range or farther (ジャミング装置)", "Steal Yard (スティールヤード)", "EWAC system (ＥＷＡＣシステム)")

#: evasion modifiers the text states, by name (000 §2, §7-20); the pattern values are PATTERNS' fields
EVASION_MODIFIERS: dict[str, Modifier] = {
    m.name: m
    for m in (
        _pattern("evasive action", "evasive action (回避行動)"),
        _pattern("use of cover", "use of cover (遮蔽物の利用)"),
        Modifier("riding an SFS (ＳＦＳ搭乗中)", SFS_EVASION, "000 §7-20"),
    )
}


@dataclass(frozen=True)
class ModifierTotal(Worked):
    """A sum of named modifiers, with one line per modifier."""

    total: int
    parts: tuple[Modifier, ...]


def _modifier(part: object) -> Modifier:
    if not isinstance(part, tuple | list) or len(part) != 2:
        raise ValueError(f"modifier {checks.shown(part)} is not (name, value) or a Modifier")
    return Modifier(part[0], part[1])


def total_modifier(parts: Iterable[Modifier | tuple[str, int]] | Mapping[str, int]) -> ModifierTotal:
    """Add named modifiers into the **final hit modifier** (最終命中修正値), 000 §6.

    The text lists: the weapon's modifier at the range band, the pilot's ability modifier, skills,
    and the chosen action patterns. Pass each as ``(name, value)`` or a :class:`Modifier`.
    """
    items = parts.items() if isinstance(parts, Mapping) else parts
    if isinstance(items, str) or not isinstance(items, Iterable):
        raise ValueError(f"modifiers {checks.shown(parts)} are not a list of (name, value) or Modifier")
    mods = tuple(p if isinstance(p, Modifier) else _modifier(p) for p in items)
    total = sum(m.value for m in mods)
    steps = tuple(f"{m.name}: {m.value:+d}" + (f" ({m.source})" if m.source else "") for m in mods)
    return ModifierTotal(total, mods, steps=steps + (f"final modifier: {total:+d}",))


def pattern_modifiers(patterns: Iterable[str]) -> ModifierTotal:
    """The to-hit part of the chosen action patterns (000 §2): snap shot -3, each aim +1,
    quick-draw slash -3, each ready +1, wind-up -3, body slam -3, read from :data:`.actions.PATTERNS`.
    A pattern chosen twice (two aims) counts twice; patterns without a to-hit effect add 0."""
    parts = []
    for name in patterns:
        if name not in PATTERNS:
            raise ValueError(f"no action pattern {name!r}: allowed are {', '.join(PATTERNS)}")
        parts.append(Modifier(f"{name} ({PATTERNS[name].japanese})", PATTERNS[name].to_hit, PATTERNS[name].source))
    return total_modifier(parts)


@dataclass(frozen=True)
class Evasion(Worked):
    """An evasion value and how it was built."""

    value: int


def evasion_value(
    base: int,
    *,
    piloting: int = 0,
    skills: int = 0,
    evasive_action: bool = False,
    cover: bool = False,
    terrain: int = 0,
    local_terrain_spec: bool = False,
    riding_sfs: bool = False,
    direction: int = 0,
    other: Iterable[tuple[str, int]] = (),
) -> Evasion:
    """The target's **evasion value** (回避値), 000 §6, §2, §4, §7-20.

    Base evasion of the MS + the pilot's piloting modifier + skills + action patterns (evasive
    action +1, use of cover +3) + the terrain modifier of its hex (the terrain table is *not in the
    source text*: pass the value; an MS customised for that terrain ignores a negative one) + riding
    an SFS (-6) + the attack-direction modifier (optional rule; its values are *not in the source
    text*, see :func:`.ranges.direction_modifier`). Every addition counts steps of the 1D36 scale.
    The pattern and SFS values are read from :data:`EVASION_MODIFIERS` (the patterns' from
    :data:`.actions.PATTERNS`).
    """
    step = d36.step_of(base, "base evasion")
    lines = [f"base evasion {base}"]
    terrain = d36.whole_number(terrain, "terrain modifier")
    applied_terrain = terrain_modifier(terrain, local_terrain_spec)
    items: list[tuple[str, int]] = [
        ("piloting modifier (操縦力)", d36.whole_number(piloting, "piloting modifier")),
        ("skills (技能)", d36.whole_number(skills, "skill modifier")),
    ]
    for chosen, name in ((evasive_action, "evasive action (回避行動)"), (cover, "use of cover (遮蔽物の利用)")):
        if chosen:
            items.append((name, EVASION_MODIFIERS[name].value))
    if terrain:
        note = " (ignored: customised for this terrain)" if applied_terrain != terrain else ""
        items.append((f"terrain (地形修正) {terrain:+d}{note}", applied_terrain))
    if riding_sfs:
        items.append(("riding an SFS", EVASION_MODIFIERS["riding an SFS (ＳＦＳ搭乗中)"].value))
    items.append(("attack direction (攻撃方向)", d36.whole_number(direction, "direction modifier")))
    items.extend((name, d36.whole_number(v, f"modifier {name!r}")) for name, v in other)
    for name, value in items:
        if value:
            step += value
            lines.append(f"{name}: {value:+d} steps -> {d36.value_of(step)}")
    value = d36.value_of(step)
    if step < 0:
        lines.append("below 11: written and counted as 11")
    lines.append(f"evasion value {value}")
    return Evasion(value, steps=tuple(lines))


@checks.checked_flags
def terrain_modifier(modifier: int, local_terrain_spec: bool = False) -> int:
    """The terrain modifier to evasion actually applied (000 §4, line 227).

    It applies to an MS in that hex even without using cover; an MS customised for that local
    terrain ignores a negative modifier (a desert-capable MS ignores the desert -1).
    """
    modifier = d36.whole_number(modifier, "terrain modifier")
    return 0 if (local_terrain_spec and modifier < 0) else modifier


@dataclass(frozen=True)
class HitOptions:
    """The circumstances of one hit check that change its rule, shared by :func:`check_hit`,
    :func:`hit_odds` and :func:`hit_table` (000 §6, §7-6, §7-17, §8-1).

    - ``target_is_mob``: the target is a mook MS, so a modified 66 or more is a critical (000 §6).
    - ``all_range``: an all-range attack, where a double always hits (000 §7-6).
    - ``attacker_is_player``: in an all-range attack a player's double is a critical; ``False``
      means a player's MS is attacked and takes secondary damage instead.
    - ``target_pilot_fainted``: every attack on the MS of a fainted pilot hits (000 §8-1).
    - ``critical_needs_hit``: ruling, a critical needs a hit (BCDice flags 66+ either way).
    - ``doubles_critical``: ``False`` for the psycho jammer, whose double gives only the hit
      (000 §7-17, line 487; see :func:`all_range_doubles_critical`).

    Each must be ``True`` or ``False``; anything else is refused with a ``ValueError`` naming it.
    """

    target_is_mob: bool = False
    all_range: bool = False
    attacker_is_player: bool = True
    target_pilot_fainted: bool = False
    critical_needs_hit: bool = True
    doubles_critical: bool = True

    def __post_init__(self) -> None:
        for item in fields(self):
            checks.flag(getattr(self, item.name), item.name)


#: the plain hit check: no special rule applies
PLAIN_CHECK = HitOptions()


@dataclass(frozen=True)
class HitCheck(Worked):
    """One resolved hit check."""

    roll: int
    modifier: int
    total: int
    evasion: int
    margin: int
    hit: bool
    critical: bool
    doubles: bool
    secondary_damage: bool

    def to_dict(self) -> dict:
        return {
            "roll": self.roll, "modifier": self.modifier, "total": self.total, "evasion": self.evasion,
            "margin": self.margin, "hit": self.hit, "critical": self.critical, "doubles": self.doubles,
            "secondary_damage": self.secondary_damage, "steps": list(self.steps),
        }


#: what a double does in each kind of all-range attack besides always hitting: ``True`` = a critical
#: hit (a player's attack) or automatic secondary damage (on a player's MS). Lines 387 (funnels, bits),
#: 403 (incoms), 415 (reflectors), 423 (psy-missiles) and 504 (leader bits) say so; for the psycho
#: jammer line 487 gives only the automatic hit.
ALL_RANGE_DOUBLES_CRITICAL: dict[str, bool] = {
    "psycommu weapon": True, "incom": True, "reflector": True, "psy-missile": True, "leader bit": True,
    "psycho jammer": False,
}


def all_range_doubles_critical(kind: str) -> bool:
    """Whether a double in an all-range attack of ``kind`` also makes a critical or secondary damage
    (000 §7-6..§7-9, §7-17, §7-19; see :data:`ALL_RANGE_DOUBLES_CRITICAL`)."""
    if kind not in ALL_RANGE_DOUBLES_CRITICAL:
        raise ValueError(f"all-range attack {kind!r}: allowed are {', '.join(map(repr, ALL_RANGE_DOUBLES_CRITICAL))}")
    return ALL_RANGE_DOUBLES_CRITICAL[kind]


@dataclass(frozen=True)
class _Outcome:
    """The arithmetic of one check, before it is explained: the step rolled plus the modifier
    (``raw_step``, may be below 0) and floored at 0 (``total_step``), whether it beats the evasion
    alone (``plain_hit``), whether it hits (``hit``), a critical, automatic secondary damage, and
    whether the hit was forced (a fainted pilot, an all-range double)."""

    raw_step: int
    total_step: int
    plain_hit: bool
    hit: bool
    critical: bool
    secondary: bool
    forced: bool


def _outcome(tens: int, units: int, modifier: int, evasion_step: int, options: HitOptions) -> _Outcome:
    """The arithmetic of one check (000 §6, §7-6, §8-1); :func:`check_hit` explains it."""
    raw_step = 6 * (tens - 1) + units - 1 + modifier
    total_step = max(0, raw_step)
    plain_hit = total_step > evasion_step
    doubles = tens == units
    forced = not plain_hit and (options.target_pilot_fainted or (options.all_range and doubles))
    hit = plain_hit or forced
    special_double = options.all_range and doubles and options.doubles_critical
    critical = special_double and options.attacker_is_player
    secondary = special_double and not options.attacker_is_player
    mob_critical = (options.target_is_mob and total_step >= _CRITICAL_STEP
                    and (hit or not options.critical_needs_hit))
    return _Outcome(raw_step, total_step, plain_hit, hit, critical or mob_critical, secondary, forced)


_CRITICAL_STEP = d36.step_of(CRITICAL_AT)  # 35, the step of 66


def check_hit(
    tens: int,
    units: int,
    modifier: int,
    evasion: int,
    options: HitOptions = PLAIN_CHECK,
) -> HitCheck:
    """Resolve a hit check from the two dice (000 §6, §7-6, §8-1).

    - The 1D36 roll is ``tens`` and ``units``; the final modifier moves it that many steps.
    - It **hits when the modified roll is greater than the evasion value** (上回れば): equal misses.
    - A modified roll of **66 or more is a critical**, applied only against mook MS
      (``options.target_is_mob``). Ruling: a critical needs a hit (``critical_needs_hit``; BCDice
      flags 66+ whether or not it hits, which only differs for evasions of 66 or more).
    - In an **all-range attack** (psycommu, incom, reflector, psy-missile, leader bit, psycho jammer)
      a double (11, 22, ..., 66) always hits. In all but the psycho jammer's a player's attack then is
      a critical hit, and a player's MS so hit takes secondary damage automatically
      (``attacker_is_player=False``); the psycho jammer's double gives only the hit (000 §7-17,
      line 487): ``doubles_critical=False`` (or see :func:`all_range_doubles_critical`).
    - Every attack on the MS of a **fainted pilot** hits (000 §8-1).

    ``options`` (:class:`HitOptions`) says which of these apply.
    """
    options = checks.of_type(options, "hit check options", HitOptions)
    roll = d36.roll_value(tens, units)
    modifier = d36.whole_number(modifier, "modifier")
    evasion_step = d36.step_of(evasion, "evasion")
    o = _outcome(tens, units, modifier, evasion_step, options)
    target_is_mob, all_range, target_pilot_fainted = options.target_is_mob, options.all_range, options.target_pilot_fainted
    total = d36.value_of(o.total_step)
    margin = o.total_step - evasion_step
    doubles = tens == units
    steps = [f"1D36: tens {tens}, units {units} -> {roll} (step {d36.step_of(roll)})"]
    if modifier:
        steps.append(f"{modifier:+d} steps -> {total}" + (" (floored at 11)" if o.raw_step < 0 else ""))
    steps.append(f"{total} against evasion {evasion}: margin {margin:+d} steps")
    steps.append(f"{total} {'exceeds' if o.plain_hit else 'does not exceed'} {evasion}: {'hit' if o.plain_hit else 'miss'}")
    if o.forced and target_pilot_fainted:
        steps.append("the target's pilot has fainted: every attack hits (000 §8-1)")
    elif o.forced:
        steps.append(f"all-range attack, doubles {roll}: always hits (000 §7-6)")
    if all_range and doubles and not options.doubles_critical:
        steps.append("doubles: the hit only, no critical or secondary damage (psycho jammer, 000 §7-17)")
    elif all_range and doubles:
        steps.append("doubles in a player's all-range attack: critical hit" if options.attacker_is_player
                     else "doubles in an all-range attack on a player's MS: automatic secondary damage")
    if target_is_mob and o.critical and o.total_step >= _CRITICAL_STEP:
        steps.append(f"{total} is {CRITICAL_AT} or more against a mook MS: critical (000 §6)")
    return HitCheck(roll, modifier, total, evasion, margin, o.hit, o.critical, doubles, o.secondary, steps=tuple(steps))


# -- exact odds from the precomputed 36-step distribution ---------------------------------------------
#: the 36 rolls of 1D36 are the steps 0..35, each with 1 chance in 36 (see :mod:`.d36`)
ROLL_STEPS = 36
#: the steps of the six doubles 11, 22, ..., 66: 0, 7, 14, 21, 28, 35
DOUBLE_STEPS: tuple[int, ...] = tuple(d36.step_of(11 * face) for face in range(1, 7))
#: how many doubles lie below each step k = 0..36 (the distribution of doubles, precomputed)
_DOUBLES_BELOW: tuple[int, ...] = tuple(sum(d < k for d in DOUBLE_STEPS) for k in range(ROLL_STEPS + 1))
#: k/36 for k = 0..36, so a chance is a lookup, not a new Fraction
_CHANCE: tuple[Fraction, ...] = tuple(Fraction(k, ROLL_STEPS) for k in range(ROLL_STEPS + 1))


def _first_step(threshold: int) -> int:
    """The lowest roll step at or above ``threshold``, clamped to 0..36 (36 = no roll)."""
    return 0 if threshold < 0 else ROLL_STEPS if threshold > ROLL_STEPS else threshold


#: the plain check's (hit, critical) chances, a tuple by the first hitting step h = 0..36: for a mook,
#: one such tuple by the first critical step c (every step from max(h, c) up is a critical), else
#: no criticals; hit_table looks each entry up here
_MOOK_PAIRS: tuple[tuple[tuple[Fraction, Fraction], ...], ...] = tuple(
    tuple((_CHANCE[ROLL_STEPS - h], _CHANCE[ROLL_STEPS - max(h, c)]) for h in range(ROLL_STEPS + 1))
    for c in range(ROLL_STEPS + 1))
_NO_CRITICAL_PAIRS: tuple[tuple[Fraction, Fraction], ...] = tuple(
    (_CHANCE[ROLL_STEPS - h], _CHANCE[0]) for h in range(ROLL_STEPS + 1))


def _hit_counts(modifier: int, evasion_step: int, options: HitOptions) -> tuple[int, int]:
    """(rolls that hit, rolls that are criticals) of the 36, counted on the step distribution.

    The same rule as :func:`_outcome`, as sets of roll steps: the plain hits are every step from
    ``hit_from`` up (a roll r hits when max(0, r + modifier) > evasion, i.e. r > evasion - modifier);
    the mook criticals need r + modifier >= 35, every step from ``crit_from`` up; an all-range
    attack adds the doubles below ``hit_from``; a fainted pilot's MS is hit by every roll.
    """
    target_is_mob, all_range, target_pilot_fainted = options.target_is_mob, options.all_range, options.target_pilot_fainted
    hit_from = _first_step(evasion_step - modifier + 1)
    crit_from = _first_step(_CRITICAL_STEP - modifier)
    doubles_missing = _DOUBLES_BELOW[hit_from]  # doubles that are not plain hits
    if target_pilot_fainted:
        hits = ROLL_STEPS
    else:
        hits = ROLL_STEPS - hit_from + (doubles_missing if all_range else 0)
    special = all_range and options.doubles_critical and options.attacker_is_player  # every double is a critical
    mob = 0
    if target_is_mob:
        if not options.critical_needs_hit or target_pilot_fainted:
            mob = ROLL_STEPS - crit_from
        else:
            mob = ROLL_STEPS - max(hit_from, crit_from)
            if all_range and crit_from < hit_from:  # doubles in [crit_from, hit_from) hit too
                mob += _DOUBLES_BELOW[hit_from] - _DOUBLES_BELOW[crit_from]
    if not special:
        return hits, mob
    mob_doubles = len(DOUBLE_STEPS) - _DOUBLES_BELOW[crit_from] if target_is_mob else 0  # doubles among mob crits
    return hits, len(DOUBLE_STEPS) + mob - mob_doubles


@lru_cache(maxsize=1024)
def _margin_and_total(modifier: int, evasion_step: int) -> tuple[Distribution, Distribution]:
    margins: dict[int, int] = {}
    totals: dict[int, int] = {}
    for roll_step in range(ROLL_STEPS):
        total_step = max(0, roll_step + modifier)
        margins[total_step - evasion_step] = margins.get(total_step - evasion_step, 0) + 1
        total = d36.value_of(total_step)
        totals[total] = totals.get(total, 0) + 1
    return Distribution.from_counts(margins), Distribution.from_counts(totals)


@dataclass(frozen=True)
class HitOdds:
    """Exact odds of one hit check; the margin and total distributions are worked out when asked for."""

    modifier: int
    evasion: int
    hit: Fraction
    critical: Fraction
    steps: tuple[str, ...] = field(default=())

    @property
    def margin(self) -> Distribution:
        """The distribution of the margin in steps (zero or less = a miss before the special rules)."""
        return _margin_and_total(self.modifier, d36.step_of(self.evasion, "evasion"))[0]

    @property
    def total(self) -> Distribution:
        """The distribution of the modified roll, written on the extended 1D36 scale."""
        return _margin_and_total(self.modifier, d36.step_of(self.evasion, "evasion"))[1]

    def to_dict(self) -> dict:
        return {
            "modifier": self.modifier, "evasion": self.evasion,
            "hit": str(self.hit), "critical": str(self.critical),
            "margin": {str(k): str(v) for k, v in self.margin.items()},
            "total": {str(k): str(v) for k, v in self.total.items()},
        }


def hit_odds(modifier: int, evasion: int, options: HitOptions = PLAIN_CHECK) -> HitOdds:
    """Exact chances of a hit and of a critical, and the distribution of the margin (000 §6).

    Counted on the precomputed distribution of the 36 roll steps (each 1 in 36; the doubles at
    known steps), by the rule :func:`check_hit` applies roll by roll; the tests compare the two for
    every roll and option. The margin is in steps (zero or less = a miss before the special rules).
    """
    # inputs are checked before the cache: an unhashable value gets a clear message, not the cache's
    options = checks.of_type(options, "hit check options", HitOptions)
    d36.step_of(evasion, "evasion")
    return _hit_odds(d36.whole_number(modifier, "modifier"), evasion, options)


@lru_cache(maxsize=4096)
def _hit_odds(modifier: int, evasion: int, options: HitOptions) -> HitOdds:
    modifier = d36.whole_number(modifier, "modifier")
    evasion_step = d36.step_of(evasion, "evasion")
    hits, crits = _hit_counts(modifier, evasion_step, options)
    steps = (f"{hits} of 36 rolls hit", f"{crits} of 36 rolls are criticals")
    return HitOdds(modifier, evasion, _CHANCE[hits], _CHANCE[crits], steps)


def hit_table(
    modifiers: Iterable[int], evasions: Iterable[int], options: HitOptions = PLAIN_CHECK,
) -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
    """The to-hit table: (chance to hit, chance of a critical) for every modifier against every
    evasion value (000 §6), counted on the precomputed step distribution as :func:`hit_odds` counts,
    under the same :class:`HitOptions`."""
    options = checks.of_type(options, "hit check options", HitOptions)
    mods = [d36.whole_number(m, "modifier") for m in modifiers]
    plain = not (options.all_range or options.target_pilot_fainted) and options.critical_needs_hit
    mob = options.target_is_mob
    table = {}
    # _hit_counts' plain case, looked up: a roll step r hits from r = evasion step - modifier + 1
    # (clamped to 0..36), and for a mook is a critical from the modifier's own first critical step
    rows = [(m, 1 - m, _MOOK_PAIRS[_first_step(_CRITICAL_STEP - m)] if mob else _NO_CRITICAL_PAIRS) for m in mods]
    for evasion in evasions:
        evasion_step = d36.step_of(evasion, "evasion")
        if plain:  # this loop is the table's whole cost
            for m, shift, pairs in rows:
                first = evasion_step + shift
                table[(m, evasion)] = pairs[0 if first < 0 else ROLL_STEPS if first > ROLL_STEPS else first]
        else:
            for m in mods:
                hits, crits = _hit_counts(m, evasion_step, options)
                table[(m, evasion)] = (_CHANCE[hits], _CHANCE[crits])
    return table


def minimum_roll_to_hit(modifier: int, evasion: int) -> int | None:
    """The lowest unmodified 1D36 result that hits, or ``None`` if no roll does (000 §6, no special rules)."""
    for value in d36.D36_RESULTS:
        if check_hit(value // 10, value % 10, modifier, evasion).hit:
            return value
    return None


@dataclass(frozen=True)
class ToHitAnswer:
    """What the to-hit calculator shows: the final modifier's working and the exact odds."""

    modifier: ModifierTotal
    odds: HitOdds


def to_hit_answer(modifiers: Mapping[str, int], evasion: int, options: HitOptions = PLAIN_CHECK) -> ToHitAnswer:
    """Sum named modifiers and give the exact odds against ``evasion`` under ``options``
    (one call per calculator change)."""
    total = total_modifier({name: value for name, value in modifiers.items() if value})
    return ToHitAnswer(total, hit_odds(total.total, d36.whole_number(evasion, "evasion"), options))


__all__ = [
    "EVASION_MODIFIERS", "TO_HIT_MODIFIERS", "HitOptions", "check_hit", "evasion_value", "hit_odds",
    "terrain_modifier", "total_modifier",
]
