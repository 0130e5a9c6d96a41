"""Special attacks and equipment: auto fire, ammunition, large weapons, psycommu weapons, punches,
capture, heat rods, mines, plasma leader, psycho jammer and capture, special equipment (000 §6, §7)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .. import checks
from ..dice import Distribution, distribution, roll
from ..geometry import hex as hexgeo
from ..geometry.hex import Hex
from ..worked import Worked
from .actions import PATTERNS
from .d36 import whole_number
from .ranges import BANDS, range_band
from .salvo import DamageFormula
from .to_hit import EWAC_TO_HIT, JAMMING_TO_HIT, SFS_EVASION, SMOKE_TO_HIT, STEAL_YARD_TO_HIT

# -- auto fire and ammunition (000 §6, §7-3, §7-5, §7-14) ----------------------------------------

#: hit checks per auto-fire burst the text names (000 §7-3, line 364)
AUTO_FIRE_ATTACKS = {"Zaku machine gun": 5, "Zeck Eins / Zeck Zwei machine gun": 7, "beam machine gun": 5}
#: rounds a machine gun uses per auto burst (000 §6, line 330, §7-3, line 364)
MG_ROUNDS_PER_BURST = 10
#: the rapid-fire beam smart gun: 5 attacks for 5 shots (000 §7-5)
RAPID_FIRE_BSG_ATTACKS = 5
RAPID_FIRE_BSG_SHOTS = 5

FireMode = Literal[
    "single shot", "machine gun auto", "beam machine gun auto", "missiles",
    "rapid-fire beam smart gun", "all-round beam cannon", "reflector",
]


def shots_used(mode: FireMode, *, attacks: int | None = None, fired: int | None = None, targets: int = 1) -> dict:
    """Ammunition one firing uses, by weapon (000 §6, lines 329-331, §7-3, §7-5, §7-8, §7-14).

    Single shot 1; machine gun auto 10 per burst; beam machine gun auto as many as its attacks;
    missiles as many as fired; rapid-fire beam smart gun 5; all-round or diffusion beam cannon 1
    whatever the number of targets; a reflector attack uses 1 of the reflector and 1 of the weapon.
    Returns ``{"weapon": n}`` (and ``"reflector"`` for a reflector attack).
    """
    if mode == "single shot":
        return {"weapon": 1}
    if mode == "machine gun auto":
        return {"weapon": MG_ROUNDS_PER_BURST}
    if mode == "beam machine gun auto":
        if attacks is None:
            raise ValueError("a beam machine gun uses as many shots as its attacks: pass attacks")
        return {"weapon": whole_number(attacks, "attacks")}
    if mode == "missiles":
        if fired is None:
            raise ValueError("missiles use as many as were fired: pass fired")
        return {"weapon": whole_number(fired, "missiles fired")}
    if mode == "rapid-fire beam smart gun":
        return {"weapon": RAPID_FIRE_BSG_SHOTS}
    if mode == "all-round beam cannon":
        checks.whole(targets, "targets", minimum=1)  # a firing has a target; the shots do not depend on how many
        return {"weapon": 1}
    if mode == "reflector":
        return {"reflector": 1, "weapon": 1}
    raise ValueError(f"fire mode {mode!r}: allowed are {', '.join(FireMode.__args__)}")


def auto_fire_attacks(weapon: str) -> int:
    """Hit checks one auto-fire action gives with ``weapon`` (000 §7-3, line 364, §7-5, line 377): the
    weapons the text names; any other weapon's count is in its data (*not in the source text*)."""
    counts = {**AUTO_FIRE_ATTACKS, "rapid-fire beam smart gun": RAPID_FIRE_BSG_ATTACKS}
    if weapon not in counts:
        raise ValueError(f"the auto-fire attacks of {weapon!r} are not in the source text: the text names "
                         f"{', '.join(map(repr, counts))}")
    return counts[weapon]


def split_auto_fire(attacks: int, split: Sequence[int]) -> tuple[int, ...]:
    """Spread the hit checks of one auto burst over targets as the player chooses (000 §7-3).

    Each target gets at least 1 check; together no more than the weapon's ``attacks``.
    """
    attacks = whole_number(attacks, "attacks per burst")
    split = tuple(whole_number(n, "hit checks on a target") for n in split)
    if not split or any(n < 1 for n in split):
        raise ValueError(f"split {split!r}: give each target at least 1 hit check")
    if sum(split) > attacks:
        raise ValueError(f"split {split!r} makes {sum(split)} hit checks: allowed are at most {attacks} per burst")
    return split


def auto_fire_splits(attacks: int, targets: int) -> list[tuple[int, ...]]:
    """Every way to spread all ``attacks`` checks over ``targets`` targets (ordered, each at least 1), 000 §7-3.

    There are C(attacks - 1, targets - 1) of them; more than `MAX_AUTO_FIRE_SPLITS` are refused.
    """
    attacks, targets = whole_number(attacks, "attacks"), whole_number(targets, "targets")
    _check_split_count(attacks, targets)  # refuses targets below 1 too
    if targets == 1:
        return [(attacks,)] if attacks >= 1 else []
    return [(first,) + rest for first in range(1, attacks) for rest in auto_fire_splits(attacks - first, targets - 1)]


#: the most splits ``auto_fire_splits`` lists: their number grows fast (60 attacks over 8 targets
#: make 341 million). A bound on the work, not a rule of the text.
MAX_AUTO_FIRE_SPLITS = 100_000


def _check_split_count(attacks: int, targets: int) -> None:
    checks.whole(attacks, "attacks", minimum=0, maximum=10**6)
    checks.whole(targets, "targets", minimum=1, maximum=10**6)
    count = math.comb(attacks - 1, targets - 1) if attacks >= 1 else 0
    if count > MAX_AUTO_FIRE_SPLITS:
        raise ValueError(
            f"{attacks} attacks over {targets} targets make {count:,} splits: at most "
            f"{MAX_AUTO_FIRE_SPLITS:,} are listed (MAX_AUTO_FIRE_SPLITS)"
        )


# -- psycommu weapons (000 §7-6 .. §7-9, §7-19) ---------------------------------------------------

FUNNEL_MOVE_HEXES = 12  # 000 §7-6, line 386
LEADER_BIT_MOVE_HEXES = 10  # 000 §7-19, line 503
MAX_HEXES_FROM_BODY = 30  # lines 386, 503
UNITS_PER_NT = 2  # line 390
ACTIONS_PER_UNIT_PER_ROUND = 1  # line 389
FIN_FUNNEL_BARRIER_FUNNELS = 4  # line 393
PSYCHO_FRAME_INCOMS = 2  # 000 §7-7, line 405
LEADER_BITS_PER_SET = 5  # 000 §7-19, line 506
LEADER_BIT_MAX_SETS = 4  # line 507
LEADER_BIT_SETS_PER_NT = 1  # line 508
LEADER_BIT_MAX_ROUNDS = 3  # line 506
PSY_MISSILE_MAX_RANGE = 12  # 000 §7-9, line 423
PSY_MISSILE_SETS_PER_NT = 1  # line 424
#: 1D36 results whose two dice are equal: an all-range attack with one of them always hits
DOUBLES = tuple(11 * d for d in range(1, 7))


def psycommu_units(nt_spent: int, pilot_nt: int | None = None) -> int:
    """Funnels or bits (also reflector bits) that one psycommu pattern runs: 2 per NT point spent
    (000 §7-6, line 390, §7-8, line 417). ``pilot_nt`` checks the pilot has that much NT."""
    nt_spent = whole_number(nt_spent, "NT spent")
    if nt_spent < 1:
        raise ValueError(f"NT spent {nt_spent}: an all-range attack with funnels or bits needs an NT pilot spending 1 or more")
    if pilot_nt is not None and nt_spent > pilot_nt:
        raise ValueError(f"NT spent {nt_spent}: the pilot's NT value is only {pilot_nt}")
    return UNITS_PER_NT * nt_spent


def remote_move_allowed(hexes: int, from_body: int, kind: Literal["funnel", "leader bit"] = "funnel") -> bool:
    """Whether one psycommu pattern may fly a funnel or bit ``hexes`` hexes to end ``from_body`` hexes
    from its mother unit: 12 hexes a pattern for funnels and bits, 10 for leader bits, never more
    than 30 from the body (000 §7-6, line 386, §7-19, line 503)."""
    per_pattern = {"funnel": FUNNEL_MOVE_HEXES, "leader bit": LEADER_BIT_MOVE_HEXES}
    if kind not in per_pattern:
        raise ValueError(f"remote weapon {kind!r}: allowed are 'funnel', 'leader bit'")
    hexes, from_body = whole_number(hexes, "hexes flown"), whole_number(from_body, "hexes from the body")
    if hexes < 0 or from_body < 0:
        raise ValueError(f"hexes flown {hexes} and from the body {from_body}: allowed are 0 or more")
    return hexes <= per_pattern[kind] and from_body <= MAX_HEXES_FROM_BODY


@checks.checked_flags
def funnel_attack_cap(units: int, *, wired: bool = False) -> int | None:
    """Most attacks a round: one per funnel or bit whatever the AP (000 §7-6, line 389); wired
    psycommu weapons have no such cap (``None``)."""
    units = whole_number(units, "funnels")
    return None if wired else units * ACTIONS_PER_UNIT_PER_ROUND


def fin_funnel_barrier_nt() -> int:
    """NT needed for the fin funnel barrier: its 4 fin funnels at 2 per NT point (000 §7-6, line 393)."""
    return -(-FIN_FUNNEL_BARRIER_FUNNELS // UNITS_PER_NT)


def incoms_at_once(psycho_frame: bool, *, without_psycho_frame: int | None = None) -> int:
    """Incoms one pattern runs (000 §7-7): 2 with a psycho-frame on a quasi-psycommu MS. Without one
    the number is *not in the source text*: pass ``without_psycho_frame``. No NT pilot is needed."""
    if psycho_frame:
        return PSYCHO_FRAME_INCOMS
    if without_psycho_frame is None:
        raise ValueError("incoms without a psycho-frame: the number is not in the source text, pass without_psycho_frame")
    return whole_number(without_psycho_frame, "incoms without a psycho-frame")


@dataclass(frozen=True)
class LeaderBits:
    sets: int
    bits: int
    attack_cap: int

    def __str__(self) -> str:
        return f"{self.sets} sets of bits ({self.bits} bits), at most {self.attack_cap} attacks a round"


def leader_bits_allowed(nt_spent: int) -> bool:
    """Whether ``nt_spent`` NT may run leader bits: 1 NT per set, at most 4 sets (000 §7-19, lines 507-508)."""
    return 1 <= whole_number(nt_spent, "NT spent") <= LEADER_BIT_MAX_SETS // LEADER_BIT_SETS_PER_NT


def leader_bits(nt_spent: int) -> LeaderBits:
    """Leader bits (000 §7-19): 1 set of 5 per NT point (line 508), each set acting once a round, and
    at most 4 sets (line 507). NT beyond what 4 sets need would run sets that do not exist, so it is
    refused rather than spent for nothing."""
    nt_spent = whole_number(nt_spent, "NT spent")
    most = LEADER_BIT_MAX_SETS // LEADER_BIT_SETS_PER_NT
    if not leader_bits_allowed(nt_spent):
        raise ValueError(f"NT spent {nt_spent}: allowed are 1 to {most}, since 1 NT runs "
                         f"{LEADER_BIT_SETS_PER_NT} set and there are at most {LEADER_BIT_MAX_SETS} sets (000 §7-19)")
    sets = nt_spent * LEADER_BIT_SETS_PER_NT
    return LeaderBits(sets, sets * LEADER_BITS_PER_SET, sets)


def psy_missile_in_range(distance: int) -> bool:
    """Whether a psycommu-guided psy-missile reaches ``distance`` hexes: at most 12 (000 §7-9, line 423)."""
    distance = whole_number(distance, "distance")
    if distance < 1:
        raise ValueError(f"distance {distance}: allowed are 1 or more hexes")
    return distance <= PSY_MISSILE_MAX_RANGE


def psy_missile_sets(nt_spent: int) -> int:
    """Psy-missile sets launched with psycommu guidance: 1 per NT point (000 §7-9, line 424)."""
    nt_spent = whole_number(nt_spent, "NT spent")
    if nt_spent < 1:
        raise ValueError(f"NT spent {nt_spent}: psycommu guidance needs 1 or more")
    return nt_spent * PSY_MISSILE_SETS_PER_NT


#: using a psy-missile as a psycommu weapon forfeits the missile skill's benefits (000 §7-9)
PSY_MISSILE_SKILL_USABLE_WHEN_GUIDED = False

# -- melee (000 §2, §7-10, §7-11, §7-13) -----------------------------------------------------------


def punch_damage(durability: int) -> DamageFormula:
    """Punch or kick damage: 1D6 + the MS's durability / 10, rounded down (000 §7-10)."""
    durability = whole_number(durability, "durability")
    if durability < 0:
        raise ValueError(f"durability {durability}: allowed are 0 or more")
    return DamageFormula(1, 6, durability // 10)


def durabilities_for_punch(damage: str | DamageFormula, up_to: int = 300) -> tuple[int, ...]:
    """The durabilities 0..``up_to`` for which :func:`punch_damage` gives ``damage``: the text states the
    Zaku II's punch (1D6+2) but not its durability, so this is what the damage is *consistent* with."""
    wanted = damage if isinstance(damage, DamageFormula) else DamageFormula.parse(damage)
    return tuple(d for d in range(0, whole_number(up_to, "largest durability") + 1) if punch_damage(d) == wanted)


def melee_damage(formula: str | DamageFormula, *, patterns: Sequence[str] = (), doubled: bool = False) -> Distribution:
    """Exact damage of a melee hit. A wind-up or body slam among ``patterns`` works the damage out as
    usual, then multiplies it by the pattern's ``damage_multiplier`` (2, 000 §2, lines 165, 173).
    ``doubled=True`` is the same as ``patterns=["wind-up"]``."""
    formula = formula if isinstance(formula, DamageFormula) else DamageFormula.parse(formula)
    factor = 1
    for name in (*patterns, *(("wind-up",) if doubled else ())):
        if name not in PATTERNS:
            raise ValueError(f"no action pattern {name!r}: allowed are {', '.join(PATTERNS)}")
        factor *= PATTERNS[name].damage_multiplier
    base = distribution(f"{formula.count}D{formula.sides}+{formula.bonus}/{formula.divisor}")
    return base.map(lambda v: factor * v) if factor != 1 else base


SuccessRule = Literal[">", ">="]
#: base target of the piloting checks of capture escapes, heat rods and mines (000 §7-11, §7-13, §7-15)
PILOTING_CHECK_TARGET = 10
LIGHT_WOUND = "1D3"  # 軽傷 of 000 §7-11, §7-13, §7-16, §7-19
CAPTURE_ESCAPE_PATTERNS = ("charge/disengage", "normal move")  # 離脱 + 通常移動, 000 §7-11
CAPTOR_PUNCHES_AUTO_HIT = True


@dataclass(frozen=True)
class PilotingCheck(Worked):
    total: int
    target: int
    success: bool


def piloting_check(
    dice: Sequence[int], piloting: int, *, opponent_piloting: int = 0, success_rule: SuccessRule = ">"
) -> PilotingCheck:
    """2D6 + own piloting modifier against 10 + the opponent's piloting modifier (000 §7-11, §7-13, §7-15).

    Used to escape a capturing MA (opponent = the captor's pilot), to entangle with a heat rod
    (opponent = the target's pilot) and to pass a mined hex (no opponent). Whether reaching the
    target exactly succeeds is not stated; ruling: the total must exceed it (``">"``), as the
    recovery check (000 §8-1 "上回った") and BCDice's ``GS`` command read; ``">="`` is the other reading.
    """
    dice = tuple(dice)
    if len(dice) != 2 or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice {dice!r}: give two d6 faces, each 1 to 6")
    if success_rule not in (">", ">="):
        raise ValueError(f"success rule {success_rule!r}: allowed are '>' and '>='")
    piloting = whole_number(piloting, "piloting modifier")
    target = PILOTING_CHECK_TARGET + whole_number(opponent_piloting, "opponent's piloting modifier")
    total = sum(dice) + piloting
    success = total > target if success_rule == ">" else total >= target
    steps = (f"2D6 {dice[0]}+{dice[1]} + piloting {piloting:+d} = {total}",
             f"target 10{target - 10:+d} = {target}: {'success' if success else 'failure'} ({success_rule})")
    return PilotingCheck(total, target, success, steps=steps)


def piloting_check_odds(piloting: int, *, opponent_piloting: int = 0, success_rule: SuccessRule = ">") -> Fraction:
    """Exact chance of :func:`piloting_check` succeeding (000 §7-11, §7-13, §7-15)."""
    wins = sum(piloting_check((a, b), piloting, opponent_piloting=opponent_piloting, success_rule=success_rule).success
               for a in range(1, 7) for b in range(1, 7))
    return Fraction(wins, 36)


# -- mines (000 §7-15) --------------------------------------------------------------------------------
HIDE_BOMB_CHARGES = 6
MINES_PER_HEX_COMBAT = 1
MAX_MINES_PER_ACTION = 6


def lay_mines(on: Literal["scenario", "combat"], hexes: int = 1) -> dict:
    """Hide bombs (000 §7-15): on the scenario map all 6 charges go into the unit's own hex; on the
    combat map one mine-laying action puts 1 mine into each of up to 6 adjacent hexes."""
    hexes = whole_number(hexes, "hexes")
    if on == "scenario":
        if hexes != 1:
            raise ValueError(f"{hexes} scenario hexes: the 6 charges are all laid in the unit's own hex")
        return {"charges_used": HIDE_BOMB_CHARGES, "hexes_mined": 1, "mines_in_hex": HIDE_BOMB_CHARGES}
    if on == "combat":
        if not 1 <= hexes <= MAX_MINES_PER_ACTION:
            raise ValueError(f"{hexes} hexes: one action lays 1 to {MAX_MINES_PER_ACTION} mines, one per adjacent hex")
        return {"charges_used": hexes, "hexes_mined": hexes, "mines_in_hex": MINES_PER_HEX_COMBAT}
    raise ValueError(f"map {on!r}: allowed are 'scenario', 'combat'")


def mine_checks(mines_in_hex: int) -> int:
    """Piloting checks (target 10) for a unit entering a mined hex: one per mine laid there (000 §7-15)."""
    return whole_number(mines_in_hex, "mines in the hex")


# -- special weapons and equipment (000 §7-14 .. §7-20) ------------------------------------------------
@dataclass(frozen=True)
class PlasmaLeader:
    """The plasma leader (000 §7-16, lines 480–481): set for ``ap`` action points as ``devices``
    generators in an adjacent hex, it damages what is there for ``rounds`` rounds ignoring armour,
    gives the pilot a ``pilot_wound``, and needs solid ground (``usable_on``)."""

    ap: int
    devices: int
    rounds: int
    ignores_armour: bool
    pilot_wound: str
    usable_on: tuple[str, ...]


@dataclass(frozen=True)
class PsychoJammer:
    """The psycho jammer (000 §7-17, lines 486–489): ``ap`` action points, ``terminals`` terminals, a
    target up to ``max_range``; it seals ``targets_sealed`` unit until the battle ends or it is chosen again."""

    ap: int
    terminals: int
    max_range: str
    targets_sealed: int
    lasts_until_battle_end: bool
    recalled_by_choosing_again: bool


@dataclass(frozen=True)
class PsychoCapture:
    """Psycho capture (000 §7-18, lines 494–495): ``ap`` action points, run on the pilot's Newtype value
    (``needs_nt``); a captured target cannot act (``target_can_act``)."""

    ap: int
    needs_nt: bool
    target_can_act: bool


@dataclass(frozen=True)
class Cloud:
    """A smoke or beam-disturbance cloud (000 §7-20, lines 523, 527): laid at a band of ``placement``,
    it lasts ``rounds`` round; smoke changes to-hit by ``modifier``, the gas multiplies beam damage by ``multiplier``."""

    rounds: int
    placement: tuple[str, ...]
    modifier: int = 0
    multiplier: Fraction = Fraction(1)


@dataclass(frozen=True)
class Ewac:
    """The EWAC system (000 §7-20, line 553): detects within ``detection_scenario_hexes`` and gives
    friendly shooting ``friendly_shooting``."""

    detection_scenario_hexes: int
    friendly_shooting: int


@dataclass(frozen=True)
class SubFlightSystem:
    """Riding a sub-flight system (000 §7-20, lines 574–576): ``evasion`` to the rider, moves as
    ``movement_class``, has armour ``sfs_armour`` and is hit first (``sfs_hit_first``)."""

    evasion: int
    movement_class: str
    sfs_armour: int
    sfs_hit_first: bool


@dataclass(frozen=True)
class BigLang:
    """The Big Lang's maintenance bay (000 §7-20, lines 540–541): ``repair`` durability for each of up
    to ``units_per_scenario_turn`` units, on the scenario map only (``usable_in_combat``)."""

    repair: str
    units_per_scenario_turn: int
    usable_in_combat: bool


@dataclass(frozen=True)
class MicroMissilePod:
    """The GP03's micro missile pod (000 §7-1, line 353): set at a band of ``placement``, ``faces`` faces."""

    placement: tuple[str, ...]
    faces: int


PLASMA_LEADER = PlasmaLeader(ap=5, devices=3, rounds=3, ignores_armour=True, pilot_wound=LIGHT_WOUND,
                             usable_on=("lunar surface", "asteroid surface"))
PSYCHO_JAMMER = PsychoJammer(ap=5, terminals=6, max_range="mid", targets_sealed=1, lasts_until_battle_end=True,
                             recalled_by_choosing_again=True)
#: the bands from close up to each band
BANDS_UP_TO = {band: BANDS[: BANDS.index(band) + 1] for band in BANDS}
PSYCHO_CAPTURE = PsychoCapture(ap=5, needs_nt=True, target_can_act=False)
FIN_FUNNEL_BARRIER_BLOCKS_ALL_RANGE = True
FIN_FUNNEL_BARRIER_LASTS_UNTIL_OWN_NEXT_TURN = True
#: firing arcs of area weapons (000 §7-14): all-round beam cannons all round, diffusion cannons the front arc
ALL_ROUND_ARC_DEGREES = 360
FRIEND_FOE_SELECTABLE = True
SMOKE = Cloud(modifier=SMOKE_TO_HIT, rounds=1, placement=("close", "mid"))
BEAM_DISTURBANCE = Cloud(multiplier=Fraction(1, 2), rounds=1, placement=("close", "mid"))
JAMMING_MODIFIER = JAMMING_TO_HIT
STEAL_YARD_MODIFIER = STEAL_YARD_TO_HIT
STEAL_YARD_BEAM_WEAPONS = False
EWAC = Ewac(detection_scenario_hexes=3, friendly_shooting=EWAC_TO_HIT)
SFS = SubFlightSystem(evasion=SFS_EVASION, movement_class="MA or aircraft", sfs_armour=0, sfs_hit_first=True)
BIG_LANG = BigLang(repair="1D6", units_per_scenario_turn=3, usable_in_combat=False)
MICRO_MISSILE_POD = MicroMissilePod(placement=("close", "mid"), faces=3)


def psycho_jammer_in_range(distance: int) -> bool:
    """Whether the psycho jammer reaches a target ``distance`` hexes away: up to mid range (000 §7-17, line 486)."""
    return range_band(distance) in BANDS_UP_TO[PSYCHO_JAMMER.max_range]


def smoke_modifier(*, from_smoke_hex: bool = False, through_smoke: bool = False, into_smoke_hex: bool = False) -> int:
    """Smoke (000 §7-20, line 523): -6 to shots from the smoke hex or whose line of fire passes
    through it; a shot *at* the smoke hex itself is not modified. Ruling: a shot at a target in the
    smoke hex is "into" the hex (0) unless it also passes through other smoke."""
    if from_smoke_hex or through_smoke:
        return SMOKE.modifier
    return 0


def jamming_applies(band: str) -> bool:
    """Whether the jamming device's -6 applies at a range band: mid range or farther (000 §7-20)."""
    return band in ("mid", "long", "extreme")


def steal_yard_modifier(*, steal_yard_on: bool) -> int:
    """Steal Yard (000 §7-20, line 549): -6 to every shooting and melee attack on the unit while it runs."""
    return STEAL_YARD_MODIFIER if steal_yard_on else 0


def steal_yard_allows(weapon_is_beam: bool, *, steal_yard_on: bool) -> bool:
    """Whether a unit may use a weapon: while its Steal Yard runs, no beam weapons (000 §7-20, line 549)."""
    return not (steal_yard_on and weapon_is_beam and not STEAL_YARD_BEAM_WEAPONS)


def jamming_modifier(distance: int) -> int:
    """Jamming device (000 §7-20, line 545): -6 to shots at it, and to its own shots, at mid range or farther."""
    return JAMMING_MODIFIER if jamming_applies(range_band(distance)) else 0


def cloud_placement_allowed(distance: int, cloud: Literal["smoke", "beam disturbance"] = "smoke") -> bool:
    """Whether a smoke discharger or beam disturbance shell may lay its cloud ``distance`` hexes away:
    anywhere at close to mid range in the firing arc (000 §7-20, lines 523, 527)."""
    table = {"smoke": SMOKE, "beam disturbance": BEAM_DISTURBANCE}
    if cloud not in table:
        raise ValueError(f"cloud {cloud!r}: allowed are 'smoke', 'beam disturbance'")
    return range_band(distance) in table[cloud].placement


def cloud_active(rounds_since_laid: int, cloud: Literal["smoke", "beam disturbance"] = "smoke") -> bool:
    """Whether smoke or beam-disturbance gas laid ``rounds_since_laid`` rounds ago (0 = this round) still
    works: it spreads away after 1 round (000 §7-20, lines 523, 527)."""
    table = {"smoke": SMOKE, "beam disturbance": BEAM_DISTURBANCE}
    if cloud not in table:
        raise ValueError(f"cloud {cloud!r}: allowed are 'smoke', 'beam disturbance'")
    rounds = whole_number(rounds_since_laid, "rounds since the cloud was laid")
    if rounds < 0:
        raise ValueError(f"rounds since the cloud was laid {rounds}: allowed are 0 or more")
    return rounds < table[cloud].rounds


def beam_disturbance_damage(damage: int, *, rounding: Literal["down", "up"] = "down") -> int:
    """Beam damage from, through or into beam-disturbance gas is halved (000 §7-20, line 527):
    multiplied by ``BEAM_DISTURBANCE.multiplier``. The rounding is not stated; ruling: down, like
    the text's other 端数は切り捨て (``rounding``)."""
    damage = whole_number(damage, "damage")
    if rounding not in ("down", "up"):
        raise ValueError(f"rounding {rounding!r}: allowed are 'down', 'up'")
    exact = damage * BEAM_DISTURBANCE.multiplier
    return exact.numerator // exact.denominator if rounding == "down" else -(-exact.numerator // exact.denominator)


@dataclass(frozen=True)
class Maintenance(Worked):
    """One scenario turn of the Big Lang's maintenance bay."""

    repaired: tuple[int, ...]
    formula: str


def big_lang_can_maintain(units: int, *, in_combat: bool = False) -> bool:
    """Whether the Big Lang may maintain ``units`` stored MS or MP in one scenario turn: 1 to 3, and
    never during combat (000 §7-20, line 541)."""
    units = whole_number(units, "units maintained")
    if in_combat and not BIG_LANG.usable_in_combat:
        return False
    return 1 <= units <= BIG_LANG.units_per_scenario_turn


def big_lang_maintenance(dice: Sequence[int], *, in_combat: bool = False) -> Maintenance:
    """The Big Lang's MS maintenance bay (000 §7-20, lines 540-541): each stored MS or MP refills
    ammunition, energy and propellant and repairs ``BIG_LANG.repair`` (1D6) durability, one die in
    ``dice`` per unit, at most 3 units a scenario turn, and never during combat. The merit points it
    costs are outside this text."""
    dice = tuple(dice)
    if in_combat and not big_lang_can_maintain(len(dice), in_combat=True):
        raise ValueError("the Big Lang's maintenance works on the scenario map only, never during combat (000 §7-20)")
    if not big_lang_can_maintain(len(dice)):
        raise ValueError(f"{len(dice)} units maintained: allowed are 1 to {BIG_LANG.units_per_scenario_turn} "
                         "per scenario turn (000 §7-20)")
    repaired = tuple(roll(BIG_LANG.repair, dice=[d]).total for d in dice)
    steps = tuple(f"unit {n}: refilled, {BIG_LANG.repair} = {r} durability repaired"
                  for n, r in enumerate(repaired, start=1))
    return Maintenance(repaired, BIG_LANG.repair, steps=steps)


def ewac_modifier(*, friendly_ewac_on_map: bool, shooting: bool = True) -> int:
    """The EWAC system's +2 to hit (000 §7-20, line 553): to the shooting of every friendly unit on the
    same combat map as the EWAC unit; melee gets nothing. Ruling: it applies whatever the Minovsky
    density (the density condition is written with the detection)."""
    return EWAC.friendly_shooting if friendly_ewac_on_map and shooting else 0


def ewac_detects(scenario_hexes: int, *, minovsky_normal_or_lower: bool) -> bool:
    """Whether an EWAC unit identifies an enemy unit ``scenario_hexes`` away on the scenario map: within
    3 hexes when the Minovsky density is normal or lower (000 §7-20, line 553)."""
    distance = whole_number(scenario_hexes, "scenario hexes")
    if distance < 0:
        raise ValueError(f"scenario hexes {distance}: allowed are 0 or more")
    return minovsky_normal_or_lower and distance <= EWAC.detection_scenario_hexes


def pod_placement_allowed(distance: int) -> bool:
    """Whether the GP03's micro missile pod may be set ``distance`` hexes away: close to mid range
    inside the firing arc (000 §7-1, line 353)."""
    return range_band(distance) in MICRO_MISSILE_POD.placement


def micro_missile_pod_allows(targets: Sequence[str]) -> bool:
    """Whether the pod's faces may fire at ``targets`` (one per face): see :func:`micro_missile_pod_targets`."""
    try:
        micro_missile_pod_targets(targets)
    except ValueError:
        return False
    return bool(targets)


def micro_missile_pod_targets(targets: Sequence[str]) -> tuple[str, ...]:
    """The GP03's micro missile pod (000 §7-1): its 3 faces fire at once, no two at the same target."""
    targets = tuple(targets)
    if len(targets) > MICRO_MISSILE_POD.faces:
        raise ValueError(f"{len(targets)} targets: the pod has {MICRO_MISSILE_POD.faces} faces")
    if len(set(targets)) != len(targets):
        raise ValueError(f"targets {', '.join(map(str, targets))}: two faces may not attack the same target")
    return targets


def i_field_blocks(*, beam: bool, adjacent: bool = False, all_range: bool = False,
                   fin_funnel_barrier: bool = False) -> bool:
    """Whether an I-field barrier stops an attack (000 §7-20, line 531): beams only, not from an
    adjacent hex; all-range attacks count as adjacent — except against a fin funnel barrier."""
    if fin_funnel_barrier:
        return beam or all_range
    return beam and not adjacent and not all_range

#: a reflector attack spends no AP on the weapon fired through it (000 §7-8, line 411)
REFLECTOR_WEAPON_PATTERN_AP = 0
#: a diffusion beam cannon fires at every chosen target in its front arc (000 §7-14, line 466)
DIFFUSION_ARC = "front"
#: leader bits' plasma field damages the enclosed MS ignoring armour (000 §7-19, line 506)
LEADER_BIT_IGNORES_ARMOUR = True
#: incoms and wired beam guns on a quasi-psycommu MS work for normal-type pilots (000 §7-7, line 400)
INCOM_NEEDS_NT_PILOT = False
#: a heat rod that entangles wounds the pilot (1D3) and calls for a fainting check (000 §7-13)
HEAT_ROD_FAINT_CHECK = True


def spend_ammunition(left: int, used: int, *, weapon: str = "the weapon") -> int:
    """Rounds left after a firing that uses ``used`` (弾数の消費, 000 §6, lines 327-331).

    A weapon at 0 cannot fire until its magazine is changed (弾倉交換), and a firing that needs
    more rounds than are left is refused: the text counts whole firings, never part of one.
    """
    checks.whole(left, f"{weapon}'s ammunition", minimum=0)
    checks.whole(used, "rounds used", minimum=0)
    if left == 0:
        raise ValueError(f"{weapon} is empty: it cannot fire until its magazine is changed (000 §6)")
    if used > left:
        raise ValueError(f"{weapon} has {left} rounds left but the firing uses {used}")
    return left - used


# -- nuclear weapons (000 §7-20, lines 563-569) ------------------------------------------------------
#: on the scenario map a nuclear weapon is used on one adjacent hex (line 569)
NUCLEAR_SCENARIO_RANGE_HEXES = 1


def nuclear_target_allowed(user: Hex, target: Hex) -> bool:
    """Whether a nuclear weapon may be used on ``target`` from ``user`` on the scenario map: an
    adjacent hex only (000 §7-20, line 569)."""
    return hexgeo.distance(user, target) == NUCLEAR_SCENARIO_RANGE_HEXES


@dataclass(frozen=True)
class NuclearEffect(Worked):
    """Which units a nuclear weapon removes, by the text's suggested effect."""

    destroyed: tuple[str, ...]
    survivors: tuple[str, ...]


def nuclear_effect_example(
    on: Literal["combat", "scenario"],
    units: Mapping[str, Hex],
    user: str,
    *,
    anti_nuclear: Iterable[str] = (),
    target: Hex | None = None,
    protected_on_scenario_map: bool = False,
) -> NuclearEffect:
    """The text's *example* of a nuclear weapon's effect, for the GM to judge by (000 §7-20, lines 565-569).

    The text treats nuclear weapons as a scenario device, not a rule, and offers this example:
    on the **combat map** every unit on it vanishes, the user included, except units with
    anti-nuclear defence (対核防御, ``anti_nuclear``); on the **scenario map** it is used on one
    adjacent hex (``target``) and every unit in that hex vanishes. ``units`` maps each unit's name to
    its hex. The anti-nuclear exception is written for the combat map only; ruling: as written, so on
    the scenario map it protects no one unless ``protected_on_scenario_map``.
    """
    if user not in units:
        raise ValueError(f"the user {user!r} is not among the units: {', '.join(units)}")
    shielded = set(anti_nuclear)
    unknown = shielded - set(units)
    if unknown:
        raise ValueError(f"anti-nuclear units {sorted(unknown)} are not among the units: {', '.join(units)}")
    if on == "combat":
        hit = list(units)
        steps = [f"used on the combat map by {user}: every unit on the map vanishes, the user included"]
        spared = shielded
    elif on == "scenario":
        if target is None:
            raise ValueError("on the scenario map the weapon is used on one adjacent hex: pass target")
        if not nuclear_target_allowed(units[user], target):
            gap = hexgeo.distance(units[user], target)
            raise ValueError(f"target {target} is {gap} hexes from {user}: allowed is an adjacent hex "
                             f"({NUCLEAR_SCENARIO_RANGE_HEXES}) on the scenario map")
        hit = [name for name, position in units.items() if position == target]
        steps = [f"used on the scenario map by {user} on the adjacent hex {target}: every unit there vanishes"]
        spared = shielded if protected_on_scenario_map else set()
    else:
        raise ValueError(f"map {on!r}: allowed are 'combat', 'scenario'")
    destroyed = tuple(name for name in hit if name not in spared)
    for name in hit:
        if name in spared:
            steps.append(f"{name} has anti-nuclear defence (対核防御): unharmed")
    steps.append(f"vanish: {', '.join(destroyed) or 'none'}")
    survivors = tuple(name for name in units if name not in destroyed)
    return NuclearEffect(destroyed, survivors, steps=tuple(steps))


__all__ = [
    "auto_fire_splits", "funnel_attack_cap", "leader_bits", "piloting_check", "piloting_check_odds",
    "psycommu_units", "punch_damage", "shots_used", "spend_ammunition", "split_auto_fire",
]
