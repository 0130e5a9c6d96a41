"""Range bands, firing arcs and attack direction on the combat map (000 §1, §5, §6, §7-6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .. import checks
from ..geometry import hex as hexgeo
from ..geometry.hex import Hex

Band = Literal["close", "mid", "long", "extreme", "out of range"]

#: the range bands of 000 §6 (line 280): (first hex, last hex, name); 9 hexes or more is out of range
RANGE_BANDS: tuple[tuple[int, int, str], ...] = ((1, 2, "close"), (3, 4, "mid"), (5, 6, "long"), (7, 8, "extreme"))
OUT_OF_RANGE: Band = "out of range"
BANDS: tuple[str, ...] = tuple(name for _, _, name in RANGE_BANDS)
JAPANESE_BANDS = {"close": "近距離", "mid": "中距離", "long": "遠距離", "extreme": "超遠距離", "out of range": "射程外"}
#: combat starts with the two sides this many hexes apart, beyond extreme range (000 §1, line 21)
START_DISTANCE = 9
#: melee needs an adjacent target and has no range modifier (000 §5, §6)
MELEE_DISTANCE = 1


def range_band(distance: int) -> Band:
    """The range band of a target ``distance`` hexes away (000 §6): 1-2 close, 3-4 mid, 5-6 long,
    7-8 extreme, 9+ out of range for every weapon."""
    return hexgeo.band(distance, RANGE_BANDS, OUT_OF_RANGE)  # type: ignore[return-value]


def in_range_of_any_weapon(distance: int) -> bool:
    """Whether any weapon at all can reach ``distance`` hexes (000 §6: not at 9 or more)."""
    return range_band(distance) != OUT_OF_RANGE


def melee_possible(distance: int) -> bool:
    """Whether a melee attack can reach a target ``distance`` hexes away: adjacent only (000 §5, line 268, §6, line 282)."""
    return 1 <= distance <= MELEE_DISTANCE


#: how the to-hit band and the direction of a funnel's or bit's attack are read (000 §7-6, lines
#: 385-386, §7-19, lines 502-503): ``"by distance"``, line 386's own rule for the funnels and bits
#: that fly to their target (the band of the distance from the funnel, from the rear only from an
#: adjacent hex), or ``"always close and rear"``, line 385's general rule for all-range attacks
FunnelReading = Literal["by distance", "always close and rear"]
FUNNEL_READINGS: tuple[str, ...] = FunnelReading.__args__
#: the book's reading (the ruling "Do funnels use the close-range modifier or the real distance?")
FUNNEL_READING: FunnelReading = "by distance"


def _by_distance(all_range: bool, funnel_or_bit: bool, funnel_reading: str) -> bool:
    """Whether an attack takes its band and direction as an ordinary attack does: not an all-range
    attack, or a funnel's or bit's under the ``"by distance"`` reading (line 386)."""
    checks.choice(funnel_reading, "funnel reading", FUNNEL_READINGS)
    if funnel_or_bit:
        return funnel_reading == "by distance"
    return not all_range


@checks.checked_flags
def modifier_band(distance: int, *, all_range: bool = False, funnel_or_bit: bool = False,
                  funnel_reading: FunnelReading = FUNNEL_READING) -> Band:
    """The band whose to-hit modifier applies at ``distance`` (000 §6, §7-6, line 385, §7-7, §7-8,
    §7-9, §7-19).

    An ordinary attack takes its range band. An all-range attack (incom, wired weapon, reflector,
    guided psy-missile, psycho jammer) takes the close band whatever the distance (line 385). A
    **funnel or bit** (``funnel_or_bit=True``: an all-range attack by a funnel, bit or leader bit,
    which flies to its target) follows ``funnel_reading``: ``"by distance"`` (the book's reading),
    "a hit check by the distance to the target as usual" (line 386, §7-19, line 503), the band of
    ``distance`` counted from the funnel; ``"always close and rear"``, the close band as line 385.
    """
    if _by_distance(all_range, funnel_or_bit, funnel_reading):
        return range_band(distance)
    range_band(distance)  # a distance is still checked
    return ALL_RANGE_BAND


def weapon_modifier(modifiers: Mapping[str, int | None], distance: int, weapon: str = "the weapon",
                    *, all_range: bool = False, funnel_or_bit: bool = False,
                    funnel_reading: FunnelReading = FUNNEL_READING) -> int:
    """A weapon's to-hit modifier at ``distance`` from its per-band column (000 §6, line 283).

    ``modifiers`` maps band names to the modifier, or ``None`` for a "―" entry: the weapon cannot
    attack at that range. Out of range (9+) no weapon can attack. An all-range attack uses the
    close-range modifier, a funnel's or bit's its ``funnel_reading`` (:func:`modifier_band`); how far
    it may reach is the weapon's own rule.
    """
    band = modifier_band(distance, all_range=all_range, funnel_or_bit=funnel_or_bit, funnel_reading=funnel_reading)
    if band == OUT_OF_RANGE:
        raise ValueError(f"a target {distance} hexes away is out of range (射程外): no weapon reaches 9 hexes or more")
    if band not in modifiers or modifiers[band] is None:
        raise ValueError(f"{weapon} cannot attack at {band} range ({JAPANESE_BANDS[band]}): its entry is '―'")
    return int(modifiers[band])  # type: ignore[arg-type]


def starting_positions(distance: int = START_DISTANCE) -> tuple[tuple[Hex, int], tuple[Hex, int]]:
    """Where the two sides start (000 §1): facing each other, ``distance`` hexes apart in a column.

    Side A at (0, 0) facing up (hexside 0), side B straight ahead of it facing down (hexside 3).
    """
    checks.whole(distance, "distance", minimum=1)
    return (Hex(0, 0), 0), (Hex(0, -distance), 3)


@checks.checked_arguments
def facing_each_other(a: tuple[Hex, int], b: tuple[Hex, int]) -> bool:
    """Whether each unit has the other straight ahead, as at the start of a battle (000 §1)."""
    for side, name in ((a, "a"), (b, "b")):
        if not isinstance(side, tuple) or len(side) != 2 or not isinstance(side[0], Hex):
            raise ValueError(f"{name} {checks.shown(side)} is not (hex, facing)")
    return (abs(hexgeo.relative_bearing(a[0], a[1], b[0])) < 1e-9
            and abs(hexgeo.relative_bearing(b[0], b[1], a[0])) < 1e-9)


@checks.checked_arguments
def in_firing_arc(position: Hex, facing: int, target: Hex, arc_degrees: float) -> bool:
    """Whether ``target`` is inside the attacker's **firing arc** (射界), 000 §5.

    The shaded area of the text's figure 5 is missing, so the arc's width is a parameter
    ``arc_degrees`` (*not in the source text*; the book's figures show 120 and 180 degrees).
    All-round beam cannons fire all round (360, 000 §7-14).
    """
    return hexgeo.in_arc(position, facing, target, arc_degrees)


Direction = Literal["front", "side", "rear"]


@dataclass(frozen=True)
class DirectionModifiers:
    """The evasion modifiers of the optional attack-direction rule (000 §6, lines 308-313).

    *Not in the source text*: the list after "以下の修正" is missing, so every value must be given.
    """

    front: int
    side: int
    rear: int


#: which 60-degree wedges around the target (0 = straight ahead of it) count as front, side, rear.
#: Ruling: front = the wedges of its three front hexsides (the hexes it may move into), rear = the
#: wedge straight behind, side = the two rear-diagonal wedges.
DIRECTION_OF_SEXTANT: dict[int, Direction] = {0: "front", 1: "front", 5: "front", 2: "side", 4: "side", 3: "rear"}


@checks.checked_arguments
def attack_direction(target: Hex, target_facing: int, attacker: Hex, *, all_range: bool = False,
                     funnel_or_bit: bool = False, funnel_reading: FunnelReading = FUNNEL_READING) -> Direction:
    """From where, seen by the target, an attack comes (000 §6, optional rule; §7-6, lines 385-386).

    An all-range attack always counts as from the rear (line 385). A funnel's or bit's
    (``funnel_or_bit=True``, ``attacker`` the hex it flew to) follows ``funnel_reading``: by the
    book's ``"by distance"``, from the rear when it has entered a hex adjacent to the target ("もちろん
    隣接ヘックスに侵入すれば、背面から攻撃する", line 386, §7-19, line 503), else from where it is;
    by ``"always close and rear"``, from the rear wherever it is.
    """
    if _by_distance(all_range, funnel_or_bit, funnel_reading):
        if funnel_or_bit and hexgeo.distance(target, attacker) == 1:
            return ALL_RANGE_DIRECTION
        return DIRECTION_OF_SEXTANT[hexgeo.sextant(target, target_facing, attacker)]
    return ALL_RANGE_DIRECTION


def direction_modifier(direction: Direction, modifiers: DirectionModifiers) -> int:
    """The evasion modifier for ``direction`` from the caller's :class:`DirectionModifiers` (000 §6, optional rule)."""
    if direction not in ("front", "side", "rear"):
        raise ValueError(f"direction {direction!r}: allowed are 'front', 'side', 'rear'")
    return getattr(modifiers, direction)


#: all-range attacks use the close-range modifier whatever the distance, and come from the rear
#: (000 §7-6, line 385, §7-7, §7-8, §7-9, §7-17; funnels and bits by :data:`FUNNEL_READING`)
ALL_RANGE_BAND: Band = "close"
ALL_RANGE_DIRECTION: Direction = "rear"


def wired_can_attack(distance: int) -> bool:
    """Whether a wired weapon (wired beam gun, incom, reflector incom) reaches ``distance``.

    000 §7-6/§7-7: "遠距離以遠には攻撃できません" — not at long range or beyond, so close and mid only.
    Ruling: the distance is counted from the mother unit.
    """
    return range_band(distance) in ("close", "mid")


__all__ = [
    "FUNNEL_READING", "FUNNEL_READINGS", "START_DISTANCE", "DirectionModifiers", "FunnelReading", "attack_direction", "direction_modifier", "facing_each_other",
    "in_firing_arc", "in_range_of_any_weapon", "range_band", "starting_positions", "weapon_modifier",
    "wired_can_attack",
]
