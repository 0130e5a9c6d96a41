"""Movement on the combat map: facing, forward moves, turning, stacking, propellant (000 §4)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..geometry import hex as hexgeo
from ..geometry.hex import Hex
from ..worked import Worked
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


#: a hex of the terrain a mobility entry is for costs 1 of the mobility: the Zaku II's land
#: mobility 3 covers 3 hexes in one normal move (000 §4, line 222)
PLAIN_HEX_COST = 1


@dataclass(frozen=True)
class MovementCosts:
    """The **movement cost table** (移動コスト表): mobility spent to enter a hex, by terrain (000 §4).

    The text heads a table with this name (line 225) but the table itself is missing: only its
    footnote on terrain modifiers to evasion survives (line 227). So every cost here is *not in the
    source text*. ``per_terrain`` maps a terrain name (``"woods"``, ``"city"``, ... as the group's
    map names them) to its cost; a hex with no terrain named costs ``plain`` (by default 1, the
    cost that makes the Zaku II's mobility 3 cover 3 hexes, line 222).
    """

    per_terrain: Mapping[str, int] = field(default_factory=dict)
    plain: int = PLAIN_HEX_COST

    def __post_init__(self) -> None:
        for name, cost in {**self.per_terrain, "(plain)": self.plain}.items():
            if whole_number(cost, f"movement cost of {name!r}") < 1:
                raise ValueError(f"movement cost of {name!r} is {cost}: allowed are 1 or more")

    def cost(self, terrain: str | None) -> int:
        """The mobility one hex of ``terrain`` costs (``None`` = no terrain named: ``plain``)."""
        if terrain is None:
            return self.plain
        if terrain not in self.per_terrain:
            raise ValueError(
                f"terrain {terrain!r} has no movement cost: the cost table (移動コスト表) is not in the source "
                f"text, so give it in MovementCosts(per_terrain=...); given are {sorted(self.per_terrain) or 'none'}"
            )
        return int(self.per_terrain[terrain])


@dataclass(frozen=True)
class Move:
    """One move action: where the unit went, how it faces, and what else it needs."""

    start: Hex
    start_facing: int
    path: tuple[Hex, ...]
    facing: int
    charge_disengage: bool
    steps: tuple[str, ...]
    mobility_spent: int = 0

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
    terrain: Mapping[Hex, str] | None = None,
    costs: MovementCosts | None = None,
) -> Move:
    """One normal or additional move (000 §4).

    Each step goes into one of the unit's **three front hexes** (never a rear one). After entering
    a hex the unit may turn 60 degrees once (``(hex, +1)`` clockwise or ``(hex, -1)``); ruling: the
    turn comes after entering the hex, so none before the first hex. Entering a hex spends its
    **movement cost** (移動コスト) from ``mobility``: ``terrain`` names the terrain of hexes that have
    one, and ``costs`` (a :class:`MovementCosts`, *not in the source text*: the table of line 225
    is missing) prices it; by default every hex costs 1. No hex may hold another unit (no
    stacking). Entering or leaving a hex adjacent to an enemy needs **charge/disengage**
    (突撃・離脱) on top of the move; the result says so.
    """
    facing = start_facing = hexgeo.check_facing(facing)
    mobility = whole_number(mobility, "mobility")
    costs = costs or MovementCosts()
    terrain = terrain or {}
    occupied = set(occupied)
    enemies = set(enemies)
    position, lines, path = start, [f"start at {start} facing {facing} ({hexgeo.HEXSIDE_NAMES[facing]})"], []
    spent = 0
    for step in steps:
        to, turning = (step, 0) if isinstance(step, Hex) else step
        side = hexgeo.front_step(position, facing, to)
        check_hex_free(to, occupied | enemies)
        if isinstance(turning, bool) or not isinstance(turning, int) or abs(turning) > TURNS_PER_HEX:
            raise ValueError(f"turn {turning!r} after entering {to}: allowed are -1, 0, +1 (one 60-degree turn per hex)")
        cost = costs.cost(terrain.get(to))
        if spent + cost > mobility:
            raise ValueError(
                f"entering {to} ({terrain.get(to, 'plain')}, cost {cost}) needs {spent + cost} mobility in this "
                f"move: allowed are up to the mobility, {mobility}"
            )
        spent += cost
        position = to
        path.append(to)
        facing = hexgeo.turn(facing, turning)
        turned = f", turn {turning * 60:+d} degrees to face {facing}" if turning else ""
        priced = f" ({terrain[to]}, cost {cost})" if to in terrain else ""
        lines.append(f"enter {to}{priced} across hexside {side}{turned}")
    adjacent_before = any(hexgeo.distance(start, e) == 1 for e in enemies)
    adjacent_after = any(hexgeo.distance(position, e) == 1 for e in enemies)
    touched = any(hexgeo.distance(h, e) == 1 for h in path for e in enemies)
    charge = bool(path) and (adjacent_before or adjacent_after or touched)
    if charge:
        lines.append("enters or leaves a hex next to an enemy: charge/disengage (突撃・離脱) is needed too")
    lines.append(f"mobility spent {spent} of {mobility}")
    return Move(start, start_facing, tuple(path), facing, charge, tuple(lines), spent)


def check_hex_free(target: Hex, occupied: Iterable[Hex]) -> int:
    """No stacking (000 §4, line 244): a hex that already holds ``MAX_UNITS_PER_HEX`` units cannot
    be entered. Returns how many units the hex holds once entered."""
    occupants = list(occupied).count(target)
    if occupants >= MAX_UNITS_PER_HEX:
        raise ValueError(f"hex {target} already holds a unit: one unit per hex (no stacking)")
    return occupants + 1


def turn_only(facing: int, new_facing: int) -> int:
    """A **turn-only** action (旋回のみ): any change of facing from 60 to 180 degrees (000 §4, line 236)."""
    degrees = TURN_DEGREES_PER_HEX * abs(hexgeo.turn_between(facing, new_facing))
    low, high = TURN_ONLY_DEGREES
    if degrees == 0:
        raise ValueError(f"facing {new_facing} is the current facing: a turn changes it by {low} to {high} degrees")
    if not low <= degrees <= high:
        raise ValueError(f"facing {new_facing} turns {degrees} degrees from {facing}: a turn-only action turns "
                         f"{low} to {high} degrees")
    return new_facing


def turn_only_options(facing: int) -> dict[int, int]:
    """Every facing one turn-only action reaches from ``facing``, with the signed turn in degrees
    (clockwise positive; 180 either way), 000 §4, line 236: what the text's figure 4 showed."""
    options = {}
    for new in range(hexgeo.HEXSIDES):
        try:
            turn_only(facing, new)
        except ValueError:
            continue
        options[new] = TURN_DEGREES_PER_HEX * hexgeo.turn_between(facing, new)
    return options


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
class Propellant(Worked):
    remaining: int
    drifting: bool


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
                      steps=(f"{propellant} - {used} = {remaining}" + (": drifting (漂流)" if remaining == 0 else ""),))


__all__ = [
    "check_hex_free", "move", "rear_hexes_allowed", "spend_propellant", "turn_only",
]
