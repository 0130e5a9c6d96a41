"""Simplified combat (簡易戦闘): a line of seven zones instead of the square map.

004 §3-5 (lines 168–255). The turn, the rolls and the special actions not listed here are those of
the standard rules (line 174, line 192, line 202).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .. import checks
from ..worked import Worked
from .movement import MODE_KEYS, locomotion_mode
from .special import CHARGE_MODIFIER, TACKLE_MODIFIER, SpecialAttack

#: The seven cells of the simplified map, from the enemy's side to one's own (line 182).
ZONES = ("敵陣", "E", "D", "C", "B", "A", "自陣")
ZONE_NAMES = {"敵陣": "enemy camp", "自陣": "own camp"}
#: Starting zones (line 183).
START_ZONES = {"enemy": ("D", "E"), "ally": ("A", "B")}
#: Range in zones of missile weapons and of magic attacks (法撃) (line 196).
RANGE_ZONES = {"missile": 1, "magic": 2}
#: Movers that move 2 zones: riding animals and steam bikes (character combat, line 184) and the six
#: locomotion modes (mecha combat, line 185). Everything else moves 1.
CHARACTER_MOVERS = ("on-foot", "riding-animal", "steam-bike")
MECHA_MOVERS = ("on-foot", *MODE_KEYS[1:])
#: There is no firing arc on the simplified map (line 195).
FIRING_ARC = False
SIMPLE_CHARGE_ZONES = 2
SIMPLE_TACKLE_MIN_ZONES = 1
#: Modes whose speed gives a simplified charge one more damage roll (line 210).
FAST_CHARGE_MODES = ("thruster", "glide-pack")

Side = Literal["ally", "enemy"]


def zone_index(zone: str) -> int:
    """Position of a zone on the line of 004 §3-5-2-1 (line 182): 0 = enemy camp, 1 = E, ..., 5 = A, 6 = own camp.

    Accepts ``"E"``, ``"Ｅエリア"``, ``"E area"``, ``"敵陣"``, ``"enemy camp"``, ...
    """
    if isinstance(zone, str):
        text = checks.halfwidth(zone).strip().replace("エリア", "").replace(" area", "").upper()
        aliases = {"ENEMY CAMP": "敵陣", "OWN CAMP": "自陣"}
        text = aliases.get(text, text)
        if text in ZONES:
            return ZONES.index(text)
    raise ValueError(f"zone {zone!r} is not on the simplified map: allowed are {', '.join(ZONES)}")


def zone_label(index: int) -> str:
    """The name of zone ``index`` on the seven-zone line map (004 §3-5)."""
    return ZONES[index]


def mover_key(mover: str, *, combat: Literal["character", "mecha"] = "mecha") -> str:
    """The canonical name of a mover (004 §3-5-2-1, lines 184–185): case, spaces and underscores do not
    matter (``"Glide Pack"``, ``"glide_pack"`` and ``"Glide-Pack"`` are ``"glide-pack"``), and in mecha
    combat ``"walk"`` is ``"on-foot"``. Every function of this module compares movers by this key.
    """
    if not isinstance(mover, str):
        raise ValueError(f"mover {mover!r} is not a name")
    key = mover.strip().lower().replace(" ", "-").replace("_", "-")
    if combat == "character" or key in ("on-foot", "walk"):
        return "on-foot" if key == "walk" and combat == "mecha" else key
    return locomotion_mode(key).key


def zones_per_move(mover: str, *, combat: Literal["character", "mecha"], size: Literal["human", "mecha"] | None = None) -> int:
    """Zones a mover may move in one action (004 §3-5-2-1, lines 184–185).

    Character combat: on foot 1, riding animal or steam bike 2; mecha-sized characters cannot take
    part. Mecha combat: on foot 1, any locomotion mode 2; human-sized characters move 1 whatever they ride.
    """
    checks.choice(combat, "combat", ("character", "mecha"))
    size = size or ("human" if combat == "character" else "mecha")
    checks.choice(size, "size", ("human", "mecha"))
    if combat == "character":
        if size == "mecha":
            raise ValueError("mecha-sized characters cannot take part in character combat (line 184)")
        key = checks.choice(mover_key(mover, combat="character"), "mover", CHARACTER_MOVERS)
        return 1 if key == "on-foot" else 2
    if size == "human":
        checks.choice(mover_key(mover, combat="character"), "mover", CHARACTER_MOVERS)
        return 1
    return 1 if mover_key(mover, combat="mecha") == "on-foot" else 2


@dataclass(frozen=True)
class ZoneMove(Worked):
    start: str
    end: str
    zones: int


def move_zones(
    start: str, zones: int, *, towards: Literal["enemy camp", "own camp"], mover: str,
    combat: Literal["character", "mecha"], side: Side = "ally", size: Literal["human", "mecha"] | None = None,
) -> ZoneMove:
    """Move ``zones`` zones along the line, at most what the mover allows (004 §3-5-2-1, lines 184–185).

    ``towards`` is the direction on the map as drawn (enemy camp to the left). A thruster moves only
    forward towards the opposing camp (line 240; for enemies, the reading is towards the own camp).
    Readings: the camps are cells one may enter; the map does not continue past them.
    """
    checks.whole(zones, "zones moved", minimum=0)
    allowed = zones_per_move(mover, combat=combat, size=size)
    if zones > allowed:
        raise ValueError(f"{mover} moves at most {allowed} zone(s) in simplified combat, not {zones}")
    checks.choice(towards, "towards", ("enemy camp", "own camp"))
    checks.choice(side, "side", ("ally", "enemy"))
    key = mover_key(mover, combat=combat)
    if combat == "mecha" and key != "on-foot" and locomotion_mode(key).forward_only:
        forward = "enemy camp" if side == "ally" else "own camp"
        if towards != forward:
            raise ValueError(f"{key} moves only forward towards the opposing camp ({forward}), not backwards (line 240)")
    step = -1 if towards == "enemy camp" else 1
    here = zone_index(start)
    there = here + step * zones
    if not 0 <= there < len(ZONES):
        raise ValueError(f"moving {zones} zone(s) from {ZONES[here]} towards the {towards} leaves the map")
    return ZoneMove(ZONES[here], ZONES[there], zones, steps=(f"{ZONES[here]} -> {ZONES[there]} ({zones} zone(s), {key})",))


def can_melee(attacker_zone: str, target_zone: str) -> bool:
    """Melee reaches an enemy in the same zone (004 §3-5-2-2, line 189)."""
    return zone_index(attacker_zone) == zone_index(target_zone)


def targetable_zones(zone: str, attack: Literal["missile", "magic"], *, include_own: bool = True) -> tuple[str, ...]:
    """Zones a ranged attack reaches: missiles 1 zone away, magic attacks 2 (004 §3-5-2-3, line 196).

    There is no firing arc. Reading: "up to 1 zone away" includes the shooter's own zone
    (``include_own``); the text's example names only the neighbours (from B: C or A).
    """
    checks.choice(attack, "attack", tuple(RANGE_ZONES))
    here = zone_index(zone)
    reach = RANGE_ZONES[attack]
    found = [ZONES[i] for i in range(len(ZONES)) if abs(i - here) <= reach and (include_own or i != here)]
    return tuple(found)


def simple_charge(mover: str, zones_moved: int, *, combat: Literal["character", "mecha"] = "mecha",
                  acts_before_target: bool = True) -> SpecialAttack:
    """Simplified charge (004 §3-5-3-1, lines 208–210): a 2-zone move into contact, -4, one extra damage roll,
    one more with thruster or glide pack; impossible on foot (a 1-zone mover); act before the target."""
    checks.whole(zones_moved, "zones moved", minimum=0)
    if zones_per_move(mover, combat=combat) < SIMPLE_CHARGE_ZONES:
        raise ValueError(f"{mover} moves only 1 zone: a charge needs a {SIMPLE_CHARGE_ZONES}-zone move (line 209)")
    if zones_moved < SIMPLE_CHARGE_ZONES:
        raise ValueError(f"a simplified charge needs {SIMPLE_CHARGE_ZONES} zones of movement, not {zones_moved} (line 208)")
    if not acts_before_target:
        raise ValueError("a charge must come earlier in the acting order than its target (line 208)")
    extra = 1 + (1 if mover_key(mover, combat=combat) in FAST_CHARGE_MODES else 0)
    return SpecialAttack("charge (simplified)", "突撃", CHARGE_MODIFIER, extra_damage_rolls=extra,
                         min_squares=SIMPLE_CHARGE_ZONES,
                         fumble_normal_processing=True, fumble_self_prone=True, must_act_before_target=True,
                         steps=(f"2 zones by {mover}: attack {CHARGE_MODIFIER}, {extra} extra damage roll(s) on a hit",))


@checks.checked_flags
def simple_tackle(zones_moved: int, *, acts_before_target: bool = True) -> SpecialAttack:
    """Simplified tackle (004 §3-5-3-1, lines 214–215): a move of 1+ zone into contact, martial arts at -2, target prone."""
    checks.whole(zones_moved, "zones moved", minimum=0)
    if zones_moved < SIMPLE_TACKLE_MIN_ZONES:
        raise ValueError(f"a simplified tackle needs at least {SIMPLE_TACKLE_MIN_ZONES} zone of movement (line 214)")
    if not acts_before_target:
        raise ValueError("a tackle must come earlier in the acting order than its target (line 214)")
    return SpecialAttack("tackle (simplified)", "体当たり", TACKLE_MODIFIER, target_prone_on_hit=True,
                         min_squares=SIMPLE_TACKLE_MIN_ZONES,
                         fumble_normal_processing=False, fumble_self_prone=True, must_act_before_target=True,
                         damage="normal unarmed damage", steps=(f"{zones_moved} zone(s): attack {TACKLE_MODIFIER}",))


@dataclass(frozen=True)
class SimpleMode:
    key: str
    zones: int
    mecha_mp_per_turn: str
    direction: str


def simple_mode(mode: str) -> SimpleMode:
    """A locomotion mode on the simplified map: zones per move and mecha MP per turn (004 §3-5-3-2, lines 220–255)."""
    m = locomotion_mode(mode)
    if m.key == "walk":
        raise ValueError("walking is not a locomotion mode: allowed are " + ", ".join(MODE_KEYS[1:]))
    direction = "forward towards the enemy camp only" if m.forward_only else "either way"
    return SimpleMode(m.key, m.simplified_zones, m.mecha_mp_per_turn, direction)


__all__ = [
    "FIRING_ARC", "RANGE_ZONES", "START_ZONES", "ZONES", "SimpleMode", "ZoneMove", "move_zones", "mover_key",
    "simple_charge", "simple_mode", "simple_tackle", "targetable_zones", "zone_index", "zones_per_move",
]
