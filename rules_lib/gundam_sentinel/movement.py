"""Movement on the combat map: facing, forward moves, turning, stacking, propellant (000 §4)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..geometry import hex as hexgeo
from ..geometry.hex import Hex
from .d36 import whole_number

#: while moving, one turn of 60 degrees per hex moved (000 §4, lines 223, 232)
TURN_DEGREES_PER_HEX = 60
TURNS_PER_HEX = 1
#: a turn-only action may change facing by any amount from 60 to 180 degrees (000 §4, line 236)
TURN_ONLY_DEGREES = (60, 180)
#: no stacking: one unit per hex (000 §4, line 244)
MAX_UNITS_PER_HEX = 1
#: propellant spent per normal or additional move pattern, and per scenario-map hex (000 §4, line 248)
PROPELLANT_PER_MOVE_PATTERN = 1
PROPELLANT_PER_SCENARIO_HEX = 1


@dataclass(frozen=True)
class Move:
    """One move action: where the unit went, how it faces, and what else it needs."""

    start: Hex
    start_facing: int
    path: tuple[Hex, ...]
    facing: int
    charge_disengage: bool
    steps: tuple[str, ...]

    @property
    def position(self) -> Hex:
        return self.path[-1] if self.path else self.start

    @property
    def hexes_moved(self) -> int:
        return len(self.path)


def move(
    start: Hex,
    facing: int,
    steps: Sequence[Hex | tuple[Hex, int]],
    *,
    mobility: int,
    occupied: Iterable[Hex] = (),
    enemies: Iterable[Hex] = (),
) -> Move:
    """One normal or additional move (000 §4).

    Each step goes into one of the unit's **three front hexes** (never a rear one). After entering
    a hex the unit may turn 60 degrees once (``(hex, +1)`` clockwise or ``(hex, -1)``); ruling: the
    turn comes after entering the hex, so none before the first hex. At most ``mobility`` hexes;
    no hex may hold another unit (no stacking). Entering or leaving a hex adjacent to an enemy
    needs **charge/disengage** (突撃・離脱) on top of the move; the result says so.
    """
    facing = start_facing = hexgeo.check_facing(facing)
    mobility = whole_number(mobility, "mobility")
    if len(steps) > mobility:
        raise ValueError(f"{len(steps)} hexes in one move: allowed are up to the mobility, {mobility}")
    occupied = set(occupied)
    enemies = set(enemies)
    position, lines, path = start, [f"start at {start} facing {facing} ({hexgeo.HEXSIDE_NAMES[facing]})"], []
    for step in steps:
        to, turning = (step, 0) if isinstance(step, Hex) else step
        side = hexgeo.front_step(position, facing, to)
        check_hex_free(to, occupied | enemies)
        if turning not in (-1, 0, 1):
            raise ValueError(f"turn {turning!r} after entering {to}: allowed are -1, 0, +1 (one 60-degree turn per hex)")
        position = to
        path.append(to)
        facing = hexgeo.turn(facing, turning)
        turned = f", turn {turning * 60:+d} degrees to face {facing}" if turning else ""
        lines.append(f"enter {to} across hexside {side}{turned}")
    adjacent_before = any(hexgeo.distance(start, e) == 1 for e in enemies)
    adjacent_after = any(hexgeo.distance(position, e) == 1 for e in enemies)
    touched = any(hexgeo.distance(h, e) == 1 for h in path for e in enemies)
    charge = bool(path) and (adjacent_before or adjacent_after or touched)
    if charge:
        lines.append("enters or leaves a hex next to an enemy: charge/disengage (突撃・離脱) is needed too")
    return Move(start, start_facing, tuple(path), facing, charge, tuple(lines))


def check_hex_free(target: Hex, occupied: Iterable[Hex]) -> None:
    """No stacking (000 §4): a hex that already holds a unit cannot be entered."""
    if target in set(occupied):
        raise ValueError(f"hex {target} already holds a unit: one unit per hex (no stacking)")


def turn_only(facing: int, new_facing: int) -> int:
    """A **turn-only** action (旋回のみ): any change of facing from 60 to 180 degrees (000 §4)."""
    delta = hexgeo.turn_between(facing, new_facing)
    if delta == 0:
        raise ValueError(f"facing {new_facing} is the current facing: a turn changes it by 60 to 180 degrees")
    return new_facing


def rear_hexes_allowed(position: Hex, facing: int) -> int:
    """How many of the three rear hexes a unit may move into: always 0 (000 §4); a check of the geometry."""
    allowed = 0
    for rear in hexgeo.rear_hexes(position, facing):
        try:
            hexgeo.front_step(position, facing, rear)
            allowed += 1
        except ValueError:
            pass
    return allowed


@dataclass(frozen=True)
class Propellant:
    remaining: int
    drifting: bool
    steps: tuple[str, ...]


def spend_propellant(propellant: int, move_patterns: int = 0, scenario_hexes: int = 0) -> Propellant:
    """**Propellant** (推進剤), 000 §4: 1 per normal or additional move pattern on the combat map and
    1 per hex on the scenario map. At 0 the MS drifts (漂流; that section is not in 000).
    Ruling: propellant cannot go below 0; a unit at 0 may not spend more.
    """
    propellant = whole_number(propellant, "propellant")
    used = PROPELLANT_PER_MOVE_PATTERN * whole_number(move_patterns, "move patterns") + \
        PROPELLANT_PER_SCENARIO_HEX * whole_number(scenario_hexes, "scenario hexes")
    if used < 0 or propellant < 0:
        raise ValueError(f"propellant {propellant} and use {used}: allowed are 0 or more")
    if used > propellant:
        raise ValueError(f"{used} propellant needed but only {propellant} left: a drifting MS cannot move")
    remaining = propellant - used
    return Propellant(remaining, remaining == 0,
                      (f"{propellant} - {used} = {remaining}" + (": drifting (漂流)" if remaining == 0 else ""),))
