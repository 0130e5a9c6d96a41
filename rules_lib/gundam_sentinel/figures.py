"""Figures for what the text's missing figures 1, 4 and 5 showed, drawn by the hex geometry (000 §4, §5, §6)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ..geometry import hex as hexgeo
from ..geometry.hex import Hex, UnitMarker, svg_hex_map
from .movement import turn_only_options
from .ranges import RANGE_BANDS, in_firing_arc, range_band

if TYPE_CHECKING:  # the battle's modules load when a battle is drawn, not with the rules (rules_lib.lazy)
    from .battle_state import BattleState, BattleUnit

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


# -- the guided battle ----------------------------------------------------------------------------

COLOURS = {"player": "#1565c0", "enemy": "#c62828"}
FRONT_FILL = "#c8e6c9"
REAR_FILL = "#ffcdd2"
ARC_FILL = "#e3f2fd"


def board_svg(state: BattleState, *, size: float = 13) -> str:
    """The combat map as an SVG: both MS with their facing; for the unit acting, its three front hexes
    (○, may enter), its three rear hexes (×, may not) and its firing arc (light blue)."""
    fills: dict[Hex, str] = {}
    labels: dict[Hex, str] = {}
    board = state.board()
    name = state.actor
    if name is not None:
        u = state.unit(name)
        for h in board:
            if h != u.position and in_firing_arc(u.position, u.facing, h, state.rules.arc_degrees):
                fills[h] = ARC_FILL
        for h in hexgeo.front_hexes(u.position, u.facing):
            if h in board:
                fills[h], labels[h] = FRONT_FILL, "○"
        for h in hexgeo.rear_hexes(u.position, u.facing):
            if h in board:
                fills[h], labels[h] = REAR_FILL, "×"
    markers = [UnitMarker(u.position, u.facing, u.name[0], COLOURS[u.side]) for u in state.units
               if not (u.destroyed or u.withdrawn)]
    return svg_hex_map(board, fills=fills, labels=labels, units=markers, size=size, title=status_line(state))


def status_line(state: BattleState) -> str:
    """Where the battle stands, in one line."""
    if state.phase == "over":
        return f"the battle is over after round {state.round}: {state.outcome}"
    waiting = next((u for u in state.units if u.pending), None)
    if waiting:
        return f"round {state.round}: the {waiting.name}'s player chooses what a chart result did"
    head = f"round {state.round}"
    if state.phase == "initiative":
        return f"{head}: roll initiative · distance {state.distance}"
    return f"{head}: the {state.actor}'s phase, {state.ap} AP · distance {state.distance} ({range_band(state.distance)})"


def units_html(state: BattleState) -> str:
    """A table of both units: position, facing, durability, ammunition, propellant, pilot."""
    rows = []
    for u in state.units:
        ammo = ", ".join(f"{html.escape(w.name)} {'lost' if w.lost else w.ammo}" for w in u.weapons)
        pilot = "fainted (気絶)" if u.fainted else "conscious"
        if u.pilot_fate:
            pilot = html.escape(u.pilot_fate)
        effects = _lasting_effects(state, u)
        if effects:
            pilot += "; " + html.escape(effects)
        ap = str(state.ap) if u.name == state.actor and state.phase == "act" else "–"
        owed = state.owed[state.index(u.name)]
        rows.append(
            f"<tr><td style='color:{COLOURS[u.side]}'><b>{html.escape(u.name)}</b></td><td>{u.position}</td>"
            f"<td>{hexgeo.HEXSIDE_NAMES[u.facing]}</td><td>{u.durability}/{u.max_durability}</td><td>{ap}"
            + (f" (owes {owed})" if owed else "") + f"</td><td>{ammo}</td><td>{u.propellant}</td><td>{pilot}</td></tr>"
        )
    return ("<table class='battle-units'><thead><tr><th>MS</th><th>hex</th><th>facing</th><th>durability</th>"
            "<th>AP</th><th>ammunition</th><th>propellant</th><th>pilot</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _lasting_effects(state: BattleState, u: BattleUnit) -> str:
    """What the charts have left on a unit, in a few words."""
    parts = [f"to hit {u.to_hit_modifier:+d}" if u.to_hit_modifier else "",
             f"evasion {u.evasion_modifier:+d}" if u.evasion_modifier else "",
             f"+{u.extra_ap} AP per action" if u.extra_ap else "",
             f"additional-damage 2D6 {u.additional_modifier:+d}" if u.additional_modifier else "",
             f"initiative {u.initiative_modifier:+d}" if u.initiative_modifier else "",
             f"escape {u.escape_modifier:+d}" if u.escape_modifier else "",
             f"AP die {u.ap_die_modifier:+d}" if u.ap_die_modifier else "",
             f"out of control through round {u.disabled_until}" if state.round <= u.disabled_until else "",
             *(f"{arm} broken" for arm, _ in u.broken_arms),
             f"turns at most {u.turn_limit[0]} degrees" if u.turn_limit else "",
             f"pilot took {u.pilot_damage} damage" if u.pilot_damage else "",
             "withdrawn (morale)" if u.withdrawn else "",
             "waiting for its player's choice" if u.pending else "",
             *u.conditions]
    return ", ".join(p for p in parts if p)


__all__ = [
    "board_svg", "status_line", "units_html",
]
