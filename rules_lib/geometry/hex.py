"""Hex-map geometry shared by every system played on hexes.

Coordinates are **axial** ``(q, r)`` on a **flat-topped** grid (columns of hexes, a hexside
straight up). A unit's **facing** is one of its six hexsides, numbered clockwise from the top:

    0 up, 1 up-right, 2 down-right, 3 down, 4 down-left, 5 up-left

The neighbour across hexside ``d`` is ``hex + DIRECTIONS[d]``. A unit facing ``f`` has three
**front hexes** (across hexsides ``f-1, f, f+1``) and three **rear hexes** (``f+2, f+3, f+4``).

Everything here is plain geometry; which hexes a rule allows, how wide a firing arc is and what
a range band is called belong to each system's package, which passes them in. Figures are SVG
strings drawn from the same coordinates (no plotting dependency).
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .. import checks

#: hexsides of a hex, clockwise from straight up
HEXSIDES = 6
#: the compass name of each hexside, for messages and figures
HEXSIDE_NAMES = ("up", "up-right", "down-right", "down", "down-left", "up-left")
#: small tolerance for angles that fall exactly on a sector boundary
_EPS = 1e-9


@dataclass(frozen=True, order=True)
class Hex:
    """One hex in axial coordinates. ``Hex(0, 0)`` is the origin."""

    q: int
    r: int

    def __post_init__(self) -> None:
        for name in ("q", "r"):
            checks.whole(getattr(self, name), f"hex coordinate {name}")

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s = 0)."""
        return -self.q - self.r

    def cube(self) -> tuple[int, int, int]:
        return (self.q, self.r, self.s)

    def neighbour(self, hexside: int) -> Hex:
        """The adjacent hex across ``hexside`` (0..5)."""
        return self + DIRECTIONS[check_facing(hexside, "hexside")]

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


#: axial offsets of the six neighbours, by hexside, clockwise from straight up
DIRECTIONS: tuple[Hex, ...] = (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0))


def check_facing(facing: object, what: str = "facing") -> int:
    """``facing`` as an int 0..5, or a ``ValueError`` naming the value and what is allowed."""
    checks.whole(facing, f"{what} (a hexside clockwise from up)")
    if not 0 <= facing < HEXSIDES:
        raise ValueError(f"{what} {facing!r} is not a hexside: allowed are 0 to 5 (clockwise from up)")
    return facing


@checks.checked_arguments
def distance(a: Hex, b: Hex) -> int:
    """Hexes between ``a`` and ``b`` counting the target but not the start (adjacent = 1)."""
    d = b - a
    return (abs(d.q) + abs(d.r) + abs(d.s)) // 2


#: the largest radius `hexes_within` lists (30,301 hexes; an engine limit, *not in the source text*:
#: no map of the texts is near it)
MAX_RADIUS = 100


def hexes_within(center: Hex, radius: int) -> list[Hex]:
    """Every hex at distance 0..``radius`` (at most `MAX_RADIUS`) from ``center``, in (q, r) order."""
    checks.of_type(center, "centre hex", Hex, error=TypeError)
    checks.whole(radius, "radius", minimum=0, maximum=MAX_RADIUS)
    return sorted(
        Hex(center.q + dq, center.r + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1)
    )


def front_hexsides(facing: int) -> tuple[int, int, int]:
    """The three hexsides at the front of a unit facing ``facing``: left-front, straight, right-front."""
    facing = check_facing(facing)
    return ((facing - 1) % HEXSIDES, facing, (facing + 1) % HEXSIDES)


def rear_hexsides(facing: int) -> tuple[int, int, int]:
    """The three hexsides behind a unit facing ``facing``."""
    facing = check_facing(facing)
    return ((facing + 2) % HEXSIDES, (facing + 3) % HEXSIDES, (facing + 4) % HEXSIDES)


def front_hexes(position: Hex, facing: int) -> tuple[Hex, Hex, Hex]:
    """The three adjacent hexes in front of a unit (left-front, straight ahead, right-front)."""
    return tuple(position + DIRECTIONS[side] for side in front_hexsides(facing))  # type: ignore[return-value]


def rear_hexes(position: Hex, facing: int) -> tuple[Hex, Hex, Hex]:
    """The three adjacent hexes behind a unit."""
    return tuple(position + DIRECTIONS[side] for side in rear_hexsides(facing))  # type: ignore[return-value]


@checks.checked_arguments
def hexside_towards(position: Hex, neighbour: Hex) -> int:
    """The hexside of ``position`` that ``neighbour`` lies across; an error if they are not adjacent."""
    offset = neighbour - position
    if offset not in DIRECTIONS:
        raise ValueError(
            f"hex {neighbour} is not adjacent to {position} (distance {distance(position, neighbour)}): "
            "a step goes to one of the six neighbours"
        )
    return DIRECTIONS.index(offset)


@checks.checked_arguments
def front_step(position: Hex, facing: int, to: Hex) -> int:
    """The hexside of a legal forward step from ``position`` to ``to``; rear or distant hexes are refused."""
    side = hexside_towards(position, to)
    allowed = front_hexsides(facing)
    if side not in allowed:
        raise ValueError(
            f"hex {to} (hexside {side}, {HEXSIDE_NAMES[side]}) is behind the unit facing {facing}: "
            f"it may move only into its three front hexes (hexsides {', '.join(map(str, allowed))})"
        )
    return side


def turn(facing: int, hexsides: int) -> int:
    """The facing after turning ``hexsides`` steps of 60 degrees (positive = clockwise)."""
    facing = check_facing(facing)
    checks.whole(hexsides, "turn (hexsides)")
    return (facing + hexsides) % HEXSIDES


def turn_between(old: int, new: int) -> int:
    """The smallest turn from facing ``old`` to ``new`` in hexsides: -2..3 (3 = 180 degrees)."""
    delta = (check_facing(new) - check_facing(old)) % HEXSIDES
    return delta - HEXSIDES if delta > 3 else delta


@checks.checked_arguments
def center(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """The pixel centre of a hex (x right, y down), for a flat-topped hex of circumradius ``size``."""
    return (1.5 * h.q * size, math.sqrt(3) * (h.r + h.q / 2) * size)


@checks.checked_arguments
def bearing(origin: Hex, target: Hex) -> float:
    """Degrees clockwise from straight up, from ``origin``'s centre to ``target``'s centre (0..360)."""
    if origin == target:
        raise ValueError(f"hex {target} is the unit's own hex: it has no bearing")
    (x0, y0), (x1, y1) = center(origin), center(target)
    return math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360


@checks.checked_arguments
def relative_bearing(origin: Hex, facing: int, target: Hex) -> float:
    """The bearing of ``target`` measured from the unit's facing: -180 (exclusive) .. 180 degrees."""
    angle = (bearing(origin, target) - 60 * check_facing(facing)) % 360
    return angle - 360 if angle > 180 + _EPS else angle


@checks.checked_arguments
def sextant(origin: Hex, facing: int, target: Hex) -> int:
    """Which 60-degree wedge around the unit ``target`` is in, relative to the facing.

    Wedge ``k`` is centred on hexside ``facing + k`` (0 = straight ahead, 3 = straight behind).
    A target exactly on the line between two wedges is put in the wedge nearer the front.
    """
    angle = relative_bearing(origin, facing, target)
    magnitude = abs(angle)
    k = math.floor((magnitude + 30 - _EPS) / 60)  # boundary (30, 90, 150) goes to the frontward wedge
    k = max(0, min(3, k))
    return k if angle >= 0 else (-k) % HEXSIDES


@checks.checked_arguments
def in_arc(origin: Hex, facing: int, target: Hex, arc_degrees: float) -> bool:
    """Whether ``target`` is inside a firing arc ``arc_degrees`` wide centred on the facing.

    The arc is measured between hex centres; a hex centre on the arc's edge is inside.
    ``arc_degrees`` 360 means all round.
    """
    if not 0 < arc_degrees <= 360:
        raise ValueError(f"arc {arc_degrees!r} degrees: allowed are more than 0 and at most 360")
    if arc_degrees >= 360:
        return True
    return abs(relative_bearing(origin, facing, target)) <= arc_degrees / 2 + _EPS


def band(value: int, bands: Sequence[tuple[int, int, str]], beyond: str) -> str:
    """The name of the band ``(low, high, name)`` containing ``value``; ``beyond`` past the last band."""
    checks.whole(value, "distance (hexes)")
    if value < 1:
        raise ValueError(f"distance {value!r}: a target is at least 1 hex away")
    for low, high, name in bands:
        if low <= value <= high:
            return name
    return beyond


# -- figures -----------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitMarker:
    """A unit drawn on a figure: its hex, facing and a short label."""

    position: Hex
    facing: int
    label: str = ""
    colour: str = "#263238"


def _corners(h: Hex, size: float) -> list[tuple[float, float]]:
    cx, cy = center(h, size)
    return [(cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i))) for i in range(6)]


@checks.checked_arguments
def svg_hex_map(
    hexes: Iterable[Hex],
    *,
    fills: Mapping[Hex, str] | None = None,
    labels: Mapping[Hex, str] | None = None,
    units: Sequence[UnitMarker] = (),
    size: float = 22.0,
    title: str = "",
) -> str:
    """An SVG figure of ``hexes`` with optional fill colours, text labels and unit markers.

    A unit marker is a circle with a line to the middle of the hexside it faces.
    """
    hexes = sorted(set(hexes))
    if not hexes:
        raise ValueError("a figure needs at least one hex")
    fills = fills or {}
    labels = labels or {}
    points = [p for h in hexes for p in _corners(h, size)]
    pad = 4.0
    min_x, max_x = min(p[0] for p in points) - pad, max(p[0] for p in points) + pad
    min_y, max_y = min(p[1] for p in points) - pad, max(p[1] for p in points) + pad
    top = 18.0 if title else 0.0
    needed = len(title) * 6.6 + 8  # keep the title inside the figure
    if max_x - min_x < needed:
        grow = (needed - (max_x - min_x)) / 2
        min_x, max_x = min_x - grow, max_x + grow
    width, height = max_x - min_x, max_y - min_y + top
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="hex-figure" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="{min_x:.1f} {min_y - top:.1f} {width:.1f} {height:.1f}" font-family="sans-serif">'
    ]
    if title:
        parts.append(
            f'<text x="{(min_x + max_x) / 2:.1f}" y="{min_y - 4:.1f}" font-size="12" text-anchor="middle">'
            f"{html.escape(title)}</text>"
        )
    for h in hexes:
        corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in _corners(h, size))
        parts.append(
            f'<polygon points="{corners}" fill="{fills.get(h, "#ffffff")}" stroke="#90a4ae" stroke-width="1"/>'
        )
        if h in labels:
            cx, cy = center(h, size)
            parts.append(
                f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="{size * 0.5:.1f}" text-anchor="middle">'
                f"{html.escape(labels[h])}</text>"
            )
    for unit in units:
        cx, cy = center(unit.position, size)
        nx, ny = center(unit.position + DIRECTIONS[check_facing(unit.facing)], size)
        ex, ey = cx + (nx - cx) * 0.45, cy + (ny - cy) * 0.45
        parts.append(f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" '
                     f'stroke="{unit.colour}" stroke-width="3"/>')
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.35:.1f}" fill="{unit.colour}"/>')
        if unit.label:
            parts.append(
                f'<text x="{cx:.1f}" y="{cy + 3.5:.1f}" font-size="{size * 0.4:.1f}" fill="#ffffff" '
                f'text-anchor="middle">{html.escape(unit.label)}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)
