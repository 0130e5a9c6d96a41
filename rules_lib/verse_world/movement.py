"""Movement on the square combat map, at character and mecha scale, with locomotion modes.

004 §3-4-2-1 (lines 26–27) for the costs and the last-step rule; 004 §3-4-3-1 (lines 126–161) for the
locomotion modes of mecha (機兵). Geometry comes from :mod:`rules_lib.geometry.square`.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Literal

from .. import checks
from ..dice import Distribution
from ..geometry.square import (
    DIAGONAL_STEPS,
    ORTHOGONAL_STEPS,
    TURNS,
    Facing,
    Pose,
    Reach,
    Square,
    Step,
    apply_step,
    reachable,
)
from ..worked import Worked
from .mp import drain_distribution

Scale = Literal["character", "mecha"]
#: Costs of the base rule (004 §3-4-2-1, line 26): forward, backward, 90-degree turn.
BASE_COSTS = {"character": (1, 2, 1), "mecha": (10, 20, 10)}
#: ``plan_move`` takes at most this many of the mode's forward steps of points (100 walking at
#: character scale, 1,000 walking and 400 with thrusters at mecha scale): the search grows with the
#: square of the reach (500 points took over 5 s).
#: A bound on the work, not a rule of the text.
MAX_MOVE_STEPS = 100


@dataclass(frozen=True)
class LocomotionMode:
    """A way of moving, read from ``locomotion.toml`` (004 §3-4-3-1)."""

    key: str
    english: str
    japanese: str
    lines: str
    cost_per_square: int
    directions: str
    turning: str
    turn_cost: int
    mecha_mp_per_turn: str
    simplified_zones: int
    requires: str
    notes: tuple[str, ...]
    #: may be combined with charge and tackle (なお、突撃や体当たりを併用可能, line 129 ... line 161)
    charge_and_tackle: bool = False

    @property
    def omnidirectional(self) -> bool:
        return self.directions == "omnidirectional"

    @property
    def forward_only(self) -> bool:
        return self.directions == "forward-only"

    @property
    def charge_and_tackle_allowed(self) -> bool:
        """Whether the mode 'may be combined with charge and tackle' (line 129, line 135, ..., line 161), as
        ``locomotion.toml`` records it; :func:`~rules_lib.verse_world.plan_charge` refuses a mode without it."""
        return self.charge_and_tackle


@cache
def locomotion_modes() -> dict[str, LocomotionMode]:
    """Walking and the six locomotion modes, by key (``walk``, ``roller``, ..., ``magic-board``)."""
    data = tomllib.loads((Path(__file__).parent / "locomotion.toml").read_text(encoding="utf-8"))
    modes = {}
    for key, entry in data.items():
        notes = tuple(v for k, v in entry.items() if k.endswith("_source"))
        modes[key] = LocomotionMode(
            key, entry["english"], entry["japanese"], entry["lines"], entry["cost_per_square"],
            entry["directions"], entry["turning"], entry["turn_cost"], entry["mecha_mp_per_turn"],
            entry["simplified_zones"], entry["requires"], notes, entry["charge_and_tackle"],
        )
    return modes


MODE_KEYS = ("walk", "roller", "vernier", "hover", "thruster", "glide-pack", "magic-board")


def locomotion_mode(mode: str) -> LocomotionMode:
    """A locomotion mode of 004 §3-4-3-1 by key; spaces and underscores read as hyphens (``"glide pack"``)."""
    if not isinstance(mode, str):
        raise ValueError(f"locomotion mode {mode!r} is not a name: allowed are {', '.join(MODE_KEYS)}")
    key = mode.strip().lower().replace(" ", "-").replace("_", "-")
    modes = locomotion_modes()
    if key not in modes:
        raise ValueError(f"locomotion mode {mode!r} is unknown: allowed are {', '.join(MODE_KEYS)}")
    return modes[key]


@dataclass(frozen=True)
class MoveCosts(Worked):
    """What each kind of step costs for a scale and mode; ``None`` means the step is not allowed."""

    scale: Scale
    mode: str
    forward: int
    backward: int | None
    sideways: int | None
    diagonal: int | None
    turn_90: int | None


@checks.checked_flags
def move_costs(
    scale: Scale = "character",
    mode: str = "walk",
    *,
    backward_factor: int = 2,
    diagonals: bool = False,
) -> MoveCosts:
    """Movement-point costs of one square and of a 90-degree turn (004 §3-4-2-1, §3-4-3-1).

    Character scale: forward 1, backward 2, turn 1; mecha scale x10 (line 26). A locomotion mode
    (mecha scale only) replaces the cost of a square with its own (lines 128–158) and its turn rule.
    Rulings (*not in the source text*): in a forward-and-backward mode (roller, magic board) a square
    backward costs ``backward_factor`` x the mode's square cost (default 2, the base rule's ratio);
    omnidirectional modes pay the mode's cost in every direction; ``diagonals`` lets omnidirectional
    modes also step diagonally at the same cost (default: no, only the four sides of the square).
    """
    checks.choice(scale, "scale", BASE_COSTS)
    checks.whole(backward_factor, "backward_factor", minimum=1)
    m = locomotion_mode(mode)
    forward, backward, turn = BASE_COSTS[scale]
    steps = [f"{scale} scale: forward {forward}, backward {backward}, 90-degree turn {turn} (004 §3-4-2-1)"]
    if m.key == "walk":
        return MoveCosts(scale, m.key, forward, backward, None, None, turn, steps=tuple(steps))
    if scale != "mecha":
        raise ValueError(
            f"locomotion mode {m.key!r} is a mecha special action: at character scale only 'walk' is allowed"
        )
    forward = m.cost_per_square
    steps.append(f"{m.english} ({m.japanese}): a square costs {forward} ({m.lines})")
    sideways = diagonal = None
    if m.forward_only:
        backward = None
        steps.append("forward only: no backward step")
    elif m.omnidirectional:
        backward = sideways = forward
        diagonal = forward if diagonals else None
        steps.append(
            f"all directions at {forward}" + (" (diagonals too, a ruling)" if diagonals else " (the four sides)")
        )
    else:
        backward = forward * backward_factor
        steps.append(f"backward {backward} = {backward_factor} x {forward} (ruling: the base rule's ratio)")
    if m.turning == "forbidden":
        turn = None
        steps.append("no change of facing in a turn this mode is used")
    else:
        turn = m.turn_cost
        steps.append(f"90-degree turn {turn}" + (" (free)" if m.turning == "free" else ""))
    steps.extend(m.notes)
    return MoveCosts("mecha", m.key, forward, backward, sideways, diagonal, turn, steps=tuple(steps))


@checks.checked_arguments
def step_cost(costs: MoveCosts, step: Step | str) -> int:
    """The cost of one step before terrain (004 §3-4-2-1, §3-4-3-1), or a ``ValueError`` saying why it is not allowed."""
    step = _step(step)
    if step.is_turn:
        cost = costs.turn_90
    elif step is Step.FORWARD:
        cost = costs.forward
    elif step is Step.BACKWARD:
        cost = costs.backward
    elif step.is_diagonal:
        cost = costs.diagonal
    else:
        cost = costs.sideways
    if cost is None:
        raise ValueError(_refusal(costs, step))
    return cost


def _refusal(costs: MoveCosts, step: Step) -> str:
    mode = costs.mode
    if step.is_turn:
        return f"{mode} mode: turning is not allowed in a turn it is used (004 §3-4-3-1, line 146)"
    if mode == "thruster":
        return f"{mode} mode moves forward only: '{step.label}' is not allowed (004 §3-4-3-1, line 146)"
    if step.is_diagonal and costs.sideways is not None:
        return f"{mode} mode: '{step.label}' is diagonal, allowed only with diagonals=True (a ruling)"
    return f"{mode} mode moves only forward and backward: '{step.label}' is not allowed (004 §3-4-2-1)"


_STEP_NAMES = {s.label: s for s in Step}


def _step(step: Step | str) -> Step:
    if isinstance(step, Step):
        return step
    if isinstance(step, str) and step.strip().lower() in _STEP_NAMES:
        return _STEP_NAMES[step.strip().lower()]
    raise ValueError(f"step {step!r} is unknown: allowed are {', '.join(_STEP_NAMES)}")


def terrain_cost(cost: int, multiplier: Fraction | int = 1) -> int:
    """A step's cost after the GM's terrain multiplier, rounded up (004 §3-4-2-1, line 27).

    The text lets the GM raise or lower costs by terrain without numbers; the multiplier and the
    rounding up are parameters *not in the source text*.
    """
    checks.whole(cost, "step cost", minimum=0)
    if isinstance(multiplier, bool):
        raise ValueError(f"terrain multiplier {multiplier!r} is not a number")
    try:  # a number, or a fraction written as text ("3/2")
        multiplier = Fraction(multiplier)
    except (ValueError, TypeError, OverflowError, ZeroDivisionError):
        raise ValueError(f"terrain multiplier {checks.shown(multiplier)} is not a finite number or fraction") from None
    if multiplier <= 0:
        raise ValueError(f"terrain multiplier {multiplier} must be more than 0")
    return math.ceil(cost * multiplier)


@dataclass(frozen=True)
class LastStep(Worked):
    """The last-step rule (004 §3-4-2-1, line 27): with too few points left, spend them all on one step."""

    remaining_before: int
    cost: int
    allowed: bool
    remaining_after: int


def last_step(remaining: int, cost: int) -> LastStep:
    """Whether a step costing ``cost`` can be taken with ``remaining`` points, and what is left (004 §3-4-2-1, line 27)."""
    checks.whole(remaining, "remaining movement points", minimum=0)
    checks.whole(cost, "step cost", minimum=0)
    if cost <= remaining:
        return LastStep(remaining, cost, True, remaining - cost, steps=(f"{remaining} - {cost} = {remaining - cost} left",))
    if remaining >= 1:
        return LastStep(
            remaining, cost, True, 0,
            steps=(f"{remaining} left is less than {cost}, but at least 1: spend all {remaining} on this one step",),
        )
    return LastStep(remaining, cost, False, 0, steps=("no movement points left: no step",))


@dataclass(frozen=True)
class PathResult(Worked):
    """A move step by step, with the points paid and left after each."""

    start: Pose
    end: Pose
    points: int
    remaining: int
    mecha_mp_per_turn: str


@checks.checked_arguments
def walk_path(
    steps: Sequence[Step | str],
    points: int,
    *,
    scale: Scale = "character",
    mode: str = "walk",
    start: Pose | None = None,
    terrain: Mapping[Square, Fraction | int] | None = None,
    backward_factor: int = 2,
    diagonals: bool = False,
) -> PathResult:
    """Follow a move step by step (004 §3-4-2-1): each step's cost, the last-step rule, the end pose.

    Raises ``ValueError`` for a step the mode does not allow, or when the points run out before
    the last step (a step after a partial last step).
    """
    checks.whole(points, "movement points", minimum=0)
    costs = move_costs(scale, mode, backward_factor=backward_factor, diagonals=diagonals)
    terrain = terrain or {}
    pose = start or Pose(Square(0, 0), Facing.NORTH)
    pose = Pose(Square(*pose.square), Facing.parse(pose.facing))
    left = points
    lines = []
    for number, raw in enumerate(steps, start=1):
        step = _step(raw)
        base = step_cost(costs, step)
        after = apply_step(pose, step)
        cost = base if step.is_turn else terrain_cost(base, terrain.get(after.square, 1))
        result = last_step(left, cost)
        if not result.allowed:
            raise ValueError(f"step {number} ({step.label}) needs {cost} but no movement points are left")
        lines.append(f"{number}. {step.label}: cost {cost}; " + result.steps[0])
        left = result.remaining_after
        pose = after
    mp = locomotion_mode(mode).mecha_mp_per_turn
    return PathResult(
        start or Pose(Square(0, 0), Facing.NORTH), pose, points, left, mp, steps=tuple(lines)
    )


@dataclass(frozen=True)
class MovePlan:
    """Every square reachable with some points, a scale and a mode, and the mode's mecha-MP cost."""

    costs: MoveCosts
    reach: Reach
    mecha_mp_per_turn: str
    rough_blocked: frozenset[Square]

    def squares(self) -> frozenset[Square]:
        return self.reach.squares()

    def mecha_mp_distribution(self) -> Distribution:
        return drain_distribution(self.mecha_mp_per_turn)


@checks.checked_arguments
def plan_move(
    points: int,
    *,
    scale: Scale = "character",
    mode: str = "walk",
    start: Pose | None = None,
    bounds: tuple[int, int] | None = None,
    terrain: Mapping[Square, Fraction | int] | None = None,
    rough: Iterable[Square] = (),
    roller_kind: Literal["land-roller", "spinner"] = "spinner",
    last_step_rule: bool = True,
    backward_factor: int = 2,
    diagonals: bool = False,
) -> MovePlan:
    """The squares a character or mecha can reach with ``points`` (004 §3-4-2-1, §3-4-3-1).

    A search over (square, facing) keeping the most points left (``geometry.square.reachable``), with
    the costs of :func:`move_costs`, the GM's ``terrain`` multipliers (*not in the source text*), the
    last-step rule (``last_step_rule``, line 27) and, for a land roller, no entry into ``rough`` squares (line 128).
    """
    costs = move_costs(scale, mode, backward_factor=backward_factor, diagonals=diagonals)
    # the cap counts the mode's own cheapest step, so a cheap mode (thruster, 4 a square) reaches no
    # further than MAX_MOVE_STEPS squares either
    checks.whole(points, "movement points", minimum=0, maximum=MAX_MOVE_STEPS * costs.forward)
    checks.choice(roller_kind, "roller_kind", ("land-roller", "spinner"))
    terrain = dict(terrain or {})
    blocked = frozenset(rough) if (costs.mode == "roller" and roller_kind == "land-roller") else frozenset()
    allowed = [s for s in (*ORTHOGONAL_STEPS, *DIAGONAL_STEPS, *TURNS) if _allowed(costs, s)]

    base = {step: step_cost(costs, step) for step in allowed}

    def cost(before: Pose, step: Step, after: Pose) -> int | None:
        if step.quarter_turns:
            return base[step]
        if blocked and after.square in blocked:
            return None
        if terrain and after.square in terrain:
            return terrain_cost(base[step], terrain[after.square])
        return base[step]

    pose = start or Pose(Square(0, 0), Facing.NORTH)
    reach = reachable(
        pose, points, cost if blocked or terrain else base, steps=allowed, last_step_with_what_is_left=last_step_rule, bounds=bounds
    )
    return MovePlan(costs, reach, locomotion_mode(mode).mecha_mp_per_turn, blocked)


def _allowed(costs: MoveCosts, step: Step) -> bool:
    try:
        step_cost(costs, step)
    except ValueError:
        return False
    return True


__all__ = [
    "BASE_COSTS", "MODE_KEYS", "LastStep", "LocomotionMode", "MoveCosts", "MovePlan", "PathResult",
    "last_step", "locomotion_mode", "locomotion_modes", "move_costs", "plan_move", "step_cost",
    "terrain_cost", "walk_path",
]
