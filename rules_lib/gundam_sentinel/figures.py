"""Figures for what the text's missing figures 1, 4 and 5 showed, drawn by the hex geometry (000 §4, §5, §6)."""

from __future__ import annotations

from ..geometry import hex as hexgeo
from ..geometry.hex import Hex, UnitMarker, svg_hex_map
from .movement import turn_only_options
from .ranges import RANGE_BANDS, in_firing_arc, range_band

FRONT = "#c8e6c9"
REAR = "#ffcdd2"
ARC = "#bbdefb"
BAND_COLOURS = {"close": "#e8f5e9", "mid": "#fff9c4", "long": "#ffe0b2", "extreme": "#ffccbc", "out of range": "#eeeeee"}


def front_hexes_figure(facing: int = 0) -> str:
    """Figure 1: the three front hexes (○) a unit may move into and the three rear ones (×) (000 §4)."""
    origin = Hex(0, 0)
    fills = {h: FRONT for h in hexgeo.front_hexes(origin, facing)} | {h: REAR for h in hexgeo.rear_hexes(origin, facing)}
    labels = {h: "○" for h in hexgeo.front_hexes(origin, facing)} | {h: "×" for h in hexgeo.rear_hexes(origin, facing)}
    return svg_hex_map(hexgeo.hexes_within(origin, 1), fills=fills, labels=labels,
                       units=[UnitMarker(origin, facing, "MS")], size=26, title=f"facing {facing}: ○ may enter, × may not")


def turning_figure(path: tuple[tuple[Hex, int], ...] = ((Hex(0, -1), 1), (Hex(1, -2), 1), (Hex(2, -2), 0)),
                   facing: int = 0) -> str:
    """Turning while moving: a move that turns 60 degrees after entering each hex (000 §4, lines 223, 232).

    Not the text's figure 4, which line 236 cites for the turn-only action: see :func:`turn_only_figure`."""
    origin = Hex(0, 0)
    units = [UnitMarker(origin, facing, "0", "#90a4ae")]
    for number, (h, turn) in enumerate(path, start=1):
        facing = hexgeo.turn(facing, turn)
        units.append(UnitMarker(h, facing, str(number)))
    area = set(hexgeo.hexes_within(origin, 3))
    return svg_hex_map(area, units=units, fills={h: FRONT for h, _ in path}, size=18,
                       title="one 60-degree turn per hex moved")


def turn_only_figure(facing: int = 0) -> str:
    """Figure 4 stand-in: one **turn-only** action (旋回のみ) turns an MS that stays in its hex by 60 to
    180 degrees (000 §4, line 236). Each neighbour is labelled with the turn that makes the unit face
    it; the grey marker is the facing before the turn."""
    origin = Hex(0, 0)
    options = turn_only_options(facing)
    labels = {}
    for side in range(hexgeo.HEXSIDES):
        neighbour = origin + hexgeo.DIRECTIONS[side]
        labels[neighbour] = "now" if side == facing else f"{options[side]:+d}°".replace("+180", "180")
    fills = {h: FRONT for h, text in labels.items() if text != "now"}
    return svg_hex_map(hexgeo.hexes_within(origin, 1), fills=fills, labels=labels,
                       units=[UnitMarker(origin, facing, "MS")], size=30,
                       title="turn only: 60 to 180 degrees, either way, in one action")


def firing_arc_figure(arc_degrees: float, facing: int = 0, radius: int = 4) -> str:
    """Figure 5 stand-in: the hexes inside a firing arc ``arc_degrees`` wide (width *not in the source text*) (000 §5)."""
    origin = Hex(0, 0)
    area = hexgeo.hexes_within(origin, radius)
    fills = {h: ARC for h in area if h != origin and in_firing_arc(origin, facing, h, arc_degrees)}
    return svg_hex_map(area, fills=fills, units=[UnitMarker(origin, facing, "MS")], size=14,
                       title=f"a {arc_degrees:g}-degree arc (assumed)")


def range_bands_figure(radius: int = 9) -> str:
    """The range bands around a unit: 1-2 close, 3-4 mid, 5-6 long, 7-8 extreme, 9 out of range (000 §6)."""
    origin = Hex(0, 0)
    area = hexgeo.hexes_within(origin, radius)
    fills = {h: BAND_COLOURS[range_band(hexgeo.distance(origin, h))] for h in area if h != origin}
    labels = {Hex(0, -d): str(d) for d in range(1, radius + 1)}
    title = ", ".join(f"{lo}-{hi} {name}" for lo, hi, name in RANGE_BANDS) + f", {RANGE_BANDS[-1][1] + 1}+ out of range"
    return svg_hex_map(area, fills=fills, labels=labels, units=[UnitMarker(origin, 0, "")], size=9, title=title)
