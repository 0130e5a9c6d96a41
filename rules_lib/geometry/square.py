"""Square-grid geometry: squares, facing, front squares, firing cones and moves with costs.

Shared by every system that plays on a square map; nothing here is specific to one game.

Conventions
-----------
- A :class:`Square` is ``(x, y)``: ``x`` grows to the east (right), ``y`` to the south (down),
  as a map is drawn on a page or screen.
- :class:`Facing` has **four** directions (north, east, south, west). Games on square maps turn
  their pieces by 90 degrees, so a piece always faces a side of its square, never a corner. Moves
  may still go diagonally (:class:`Step` has diagonal steps) when a game's rule allows it.
- Local coordinates relative to a piece are ``(lateral, forward)``: ``forward`` counts squares
  ahead (negative behind), ``lateral`` squares to the right (negative to the left).
- :func:`reachable` searches poses ``(square, facing)`` with a caller-supplied cost of each step,
  keeping for each pose the most movement points left (a Dijkstra search). The caller decides what
  each step costs and which steps are allowed; an optional "last step with what is left" rule lets a
  piece with at least 1 point left take one more step it cannot fully pay for.
- Figures are SVG strings (:func:`grid_svg`) or rows of marks (:func:`mark_rows`); no plotting
  dependency.
"""

from __future__ import annotations

import functools
import heapq
import html
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import NamedTuple

from .. import checks


class Square(NamedTuple):
    """A square of the map: ``x`` to the east, ``y`` to the south."""

    x: int
    y: int

    def __str__(self) -> str:
        return f"({self.x}, {self.y})"


class Facing(IntEnum):
    """One of the four directions a piece faces; turning is in steps of 90 degrees."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    __hash__ = int.__hash__  # the C-level hash: a facing hashes like its number (speeds up map searches)

    @property
    def vector(self) -> tuple[int, int]:
        """One square ahead in map coordinates (north is ``y - 1``)."""
        return _VECTORS[self]

    @property
    def right(self) -> tuple[int, int]:
        """One square to the right of the facing, in map coordinates."""
        return _RIGHT[self]

    def turned(self, quarter_turns: int) -> Facing:
        """The facing after ``quarter_turns`` turns of 90 degrees clockwise (negative: anticlockwise)."""
        return _FACINGS[(self.value + quarter_turns) % 4]

    @property
    def arrow(self) -> str:
        return "▲▶▼◀"[self.value]

    @classmethod
    def parse(cls, value: Facing | str | int) -> Facing:
        """A facing from itself, its name (``"north"``, ``"N"``) or its number (0 to 3)."""
        if isinstance(value, Facing):
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
            return cls(value)
        if isinstance(value, str):
            text = value.strip().upper()
            for facing in cls:
                if text in (facing.name, facing.name[0]):
                    return facing
        raise ValueError(
            f"facing {value!r} is not a direction: allowed are north, east, south, west (or N, E, S, W, 0-3)"
        )


_VECTORS = {Facing.NORTH: (0, -1), Facing.EAST: (1, 0), Facing.SOUTH: (0, 1), Facing.WEST: (-1, 0)}
_FACINGS = (Facing.NORTH, Facing.EAST, Facing.SOUTH, Facing.WEST)
_RIGHT = {f: _VECTORS[_FACINGS[(f.value + 1) % 4]] for f in _FACINGS}


@checks.checked_arguments
def to_local(origin: Square, facing: Facing, square: Square) -> tuple[int, int]:
    """``(lateral, forward)`` of ``square`` as seen from a piece on ``origin`` facing ``facing``."""
    facing = Facing.parse(facing)
    dx, dy = square[0] - origin[0], square[1] - origin[1]
    fx, fy = facing.vector
    rx, ry = facing.right
    return dx * rx + dy * ry, dx * fx + dy * fy


@checks.checked_arguments
def from_local(origin: Square, facing: Facing, lateral: int, forward: int) -> Square:
    """The square ``forward`` squares ahead and ``lateral`` squares to the right of a piece."""
    facing = Facing.parse(facing)
    fx, fy = facing.vector
    rx, ry = facing.right
    return Square(origin[0] + forward * fx + lateral * rx, origin[1] + forward * fy + lateral * ry)


@checks.checked_arguments
def front_squares(origin: Square, facing: Facing) -> tuple[Square, Square, Square]:
    """The three squares in front: front-left, front, front-right."""
    facing = Facing.parse(facing)
    return tuple(from_local(origin, facing, lateral, 1) for lateral in (-1, 0, 1))  # type: ignore[return-value]


@checks.checked_arguments
def in_front(origin: Square, facing: Facing, square: Square) -> bool:
    """Whether ``square`` is one of the three front squares."""
    facing = Facing.parse(facing)
    lateral, forward = to_local(origin, facing, square)
    return forward == 1 and abs(lateral) <= 1


@checks.checked_arguments
def in_cone(origin: Square, facing: Facing, square: Square, max_distance: int | None = None) -> bool:
    """Whether ``square`` is in the 90-degree cone ahead: ``forward >= 1`` and ``|lateral| <= forward``.

    The diagonal edges are inside. ``max_distance`` (squares ahead) limits the depth; ``None``
    means unlimited.
    """
    facing = Facing.parse(facing)
    lateral, forward = to_local(origin, facing, square)
    if forward < 1 or abs(lateral) > forward:
        return False
    return max_distance is None or forward <= max_distance


#: the longest run or deepest cone listed, in squares: an engine limit, *not in the source text*
#: (no map of the texts is near it)
MAX_SQUARES_AHEAD = 100


@checks.checked_arguments
def cone_squares(origin: Square, facing: Facing, depth: int) -> tuple[Square, ...]:
    """Every square of the cone up to ``depth`` (at most `MAX_SQUARES_AHEAD`) squares ahead, nearest
    row first, left to right."""
    facing = Facing.parse(facing)
    checks.whole(depth, "cone depth", minimum=0, maximum=MAX_SQUARES_AHEAD)
    return tuple(
        from_local(origin, facing, lateral, forward)
        for forward in range(1, depth + 1)
        for lateral in range(-forward, forward + 1)
    )


@checks.checked_arguments
def squares_ahead(origin: Square, facing: Facing, count: int) -> tuple[Square, ...]:
    """The ``count`` (at most `MAX_SQUARES_AHEAD`) squares of a straight run ahead, nearest first."""
    facing = Facing.parse(facing)
    checks.whole(count, "squares ahead", minimum=0, maximum=MAX_SQUARES_AHEAD)
    return tuple(from_local(origin, facing, 0, n) for n in range(1, count + 1))


def chebyshev(a: Square, b: Square) -> int:
    """Squares between ``a`` and ``b`` counting diagonal steps as one (king moves)."""
    try:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    except (IndexError, KeyError):
        raise _not_squares(a, b) from None


def manhattan(a: Square, b: Square) -> int:
    """Squares between ``a`` and ``b`` moving only along rows and columns."""
    try:
        return abs(a[0] - b[0]) + abs(a[1] - b[1])
    except (IndexError, KeyError):
        raise _not_squares(a, b) from None


def _not_squares(a: object, b: object) -> ValueError:
    return ValueError(f"squares {checks.shown(a)} and {checks.shown(b)} are not both (x, y) pairs")


def adjacent(a: Square, b: Square) -> bool:
    """Whether ``b`` touches ``a`` at a side or a corner."""
    return chebyshev(a, b) == 1


# -- moves -------------------------------------------------------------------------


class Step(Enum):
    """One step of a move: a square in some direction relative to the facing, or a 90-degree turn."""

    FORWARD = ("forward", 0, 1, 0)
    BACKWARD = ("backward", 0, -1, 0)
    LEFT = ("left", -1, 0, 0)
    RIGHT = ("right", 1, 0, 0)
    FORWARD_LEFT = ("forward-left", -1, 1, 0)
    FORWARD_RIGHT = ("forward-right", 1, 1, 0)
    BACKWARD_LEFT = ("backward-left", -1, -1, 0)
    BACKWARD_RIGHT = ("backward-right", 1, -1, 0)
    TURN_LEFT = ("turn-left", 0, 0, -1)
    TURN_RIGHT = ("turn-right", 0, 0, 1)

    __hash__ = object.__hash__  # members are singletons: the C-level identity hash

    def __init__(self, label: str, lateral: int, forward: int, quarter_turns: int) -> None:
        self.label = label
        self.lateral = lateral
        self.forward = forward
        self.quarter_turns = quarter_turns

    @property
    def is_turn(self) -> bool:
        return self.quarter_turns != 0

    @property
    def is_diagonal(self) -> bool:
        return self.lateral != 0 and self.forward != 0


#: For each step, its (dx, dy) on the map for each facing (indexed by the facing's number).
_STEP_OFFSETS = {
    step: tuple(
        (
            step.forward * _VECTORS[facing][0] + step.lateral * _RIGHT[facing][0],
            step.forward * _VECTORS[facing][1] + step.lateral * _RIGHT[facing][1],
        )
        for facing in _FACINGS
    )
    for step in Step
}

ORTHOGONAL_STEPS = (Step.FORWARD, Step.BACKWARD, Step.LEFT, Step.RIGHT)
DIAGONAL_STEPS = (Step.FORWARD_LEFT, Step.FORWARD_RIGHT, Step.BACKWARD_LEFT, Step.BACKWARD_RIGHT)
TURNS = (Step.TURN_LEFT, Step.TURN_RIGHT)


class Pose(NamedTuple):
    """Where a piece stands and which way it faces."""

    square: Square
    facing: Facing

    def __str__(self) -> str:
        return f"{self.square} facing {self.facing.name.lower()}"


def apply_step(pose: Pose, step: Step) -> Pose:
    """The pose after one step (a move keeps the facing; a turn keeps the square)."""
    try:
        if step.quarter_turns:
            return Pose(pose.square, _FACINGS[(pose.facing.value + step.quarter_turns) % 4])
        dx, dy = _STEP_OFFSETS[step][pose.facing]
        square = pose.square
        return Pose(Square(square[0] + dx, square[1] + dy), pose.facing)
    except (AttributeError, KeyError, IndexError):  # looked for only once a step has failed
        if not isinstance(step, Step):
            raise ValueError(f"step {checks.shown(step)} is not a Step") from None
        raise ValueError(f"pose {checks.shown(pose)} is not a Pose (a square and a facing)") from None


#: ``step_cost(before, step, after)``: the points the step costs, or ``None`` when not allowed.
StepCost = Callable[[Pose, Step, Pose], "int | None"]


@dataclass(frozen=True)
class Reach:
    """What a search found: for every pose reached, the most points left and how it was reached."""

    start: Pose
    points: int
    remaining: Mapping[Pose, int]
    came_from: Mapping[Pose, tuple[Pose, Step, int, bool]] = field(repr=False)
    #: the squares of ``remaining``, when the search knows them without its poses
    known_squares: frozenset[Square] | None = field(default=None, repr=False, compare=False)

    def squares(self) -> frozenset[Square]:
        """Every square the piece can end its move on (in some facing)."""
        if self.known_squares is not None:
            return self.known_squares
        return frozenset(pose.square for pose in self.remaining)

    def poses(self) -> frozenset[Pose]:
        return frozenset(self.remaining)

    def facings_at(self, square: Square) -> tuple[Facing, ...]:
        """The facings the piece can end in on ``square``."""
        return tuple(sorted(p.facing for p in self.remaining if p.square == square))

    def path_to(self, target: Pose) -> tuple[tuple[Step, int, bool], ...]:
        """The steps of a cheapest way to ``target``: ``(step, points paid, paid with what was left)``."""
        if target not in self.remaining:
            raise ValueError(f"pose {target} is not reachable with {self.points} points")
        steps = []
        pose = target
        while pose != self.start:
            before, step, paid, partial = self.came_from[pose]
            steps.append((step, paid, partial))
            pose = before
        return tuple(reversed(steps))


#: the most poses ``reachable`` keeps: its work grows with the area the points cover (the square of
#: the reach). Set above the largest search ``verse_world.plan_move`` accepts (1,000 points at 5 a
#: square in every direction with diagonals, 401 x 401 squares x 4 facings: 643,204 poses). A bound on
#: the work, not a rule.
MAX_REACH_POSES = 700_000
#: the most movement points a search on an open map (no ``bounds``) takes: ``verse_world.plan_move``'s
#: 1,000 and more; a bound on the work, *not in the source text*
MAX_REACH_POINTS = 10_000
#: the longest side of a map a search keeps to, in squares: a bound on the work, *not in the source text*
MAX_MAP_SIDE = 10_000


@checks.checked_arguments
def reachable(
    start: Pose,
    points: int,
    step_cost: StepCost | Mapping[Step, int | None],
    *,
    steps: Iterable[Step] = (*ORTHOGONAL_STEPS, *DIAGONAL_STEPS, *TURNS),
    last_step_with_what_is_left: bool = False,
    bounds: tuple[int, int] | None = None,
) -> Reach:
    """Every pose reachable from ``start`` with ``points`` movement points.

    ``step_cost(before, step, after)`` gives each step's cost (``None``: not allowed); when a step
    costs the same everywhere, ``step_cost`` may instead be a mapping step -> cost (faster). With
    ``last_step_with_what_is_left``, a piece with at least 1 point left may take one step it cannot
    pay for in full, spending everything left (the search then keeps 0 points for that pose).
    ``bounds`` = ``(width, height)`` keeps the piece on squares ``0 <= x < width, 0 <= y < height``.
    A step that changes square must cost at least 1 point (otherwise the search would not end).
    The cost grows with the number of poses reached: a search that would keep more than
    `MAX_REACH_POSES` is refused with a ``ValueError`` (give ``bounds`` or fewer points).
    """
    if bounds is not None:
        bounds = map_bounds(bounds)
    # on a bounded map the squares bound the search; on an open one, the points must
    checks.whole(points, "movement points", minimum=0, maximum=None if bounds else MAX_REACH_POINTS)
    steps = tuple(steps)
    start = Pose(Square(*start.square), Facing.parse(start.facing))
    if bounds is not None and not _inside(start.square, bounds):
        raise ValueError(f"start square {start.square} is outside the {bounds[0]}x{bounds[1]} map")
    width, height = bounds if bounds is not None else (0, 0)
    # a mapping of costs needs no call per step, and a pose is built only when it is kept
    fixed = step_cost if isinstance(step_cost, Mapping) else None
    if fixed is not None:
        steps = tuple(step for step in steps if fixed.get(step) is not None)
    # each step once: a turn's facing after, or a move's (dx, dy), indexed by the facing's number
    moves = [
        (step, True, tuple(_FACINGS[(f + step.quarter_turns) % 4] for f in range(4))) if step.quarter_turns
        else (step, False, _STEP_OFFSETS[step])
        for step in steps
    ]
    if (fixed is not None and bounds is not None and width * height <= GRID_SEARCH_SQUARES
            and all(fixed[step] >= (0 if turn else 1) for step, turn, _ in moves)):
        if _facing_is_free(fixed, moves):
            return _reachable_facing_free(start, points, fixed, moves, last_step_with_what_is_left, width, height)
        return _reachable_on_grid(start, points, fixed, moves, last_step_with_what_is_left, width, height)
    best: dict[Pose, int] = {start: points}
    came_from: dict[Pose, tuple[Pose, Step, int, bool]] = {}
    order = 0  # ties in the queue are taken first-in, first-out (deterministic)
    queue: list[tuple[int, int, Pose]] = [(-points, order, start)]
    heappop, heappush, get = heapq.heappop, heapq.heappush, best.get
    new = tuple.__new__  # a Pose or Square without the Python-level __new__ of NamedTuple (the hot loop)
    while queue:
        negative, _, pose = heappop(queue)
        left = -negative
        if get(pose, -1) > left or left == 0:
            continue
        square, facing = pose
        x, y = square
        for step, turn, table in moves:
            # ``target`` is the pose after the step as a plain tuple: it hashes and compares like a Pose
            if turn:
                target = (square, table[facing])
            else:
                dx, dy = table[facing]
                ax, ay = x + dx, y + dy
                if bounds is not None and not (0 <= ax < width and 0 <= ay < height):
                    continue
                target = ((ax, ay), facing)
            if fixed is None:
                after = new(Pose, (target[0] if turn else new(Square, target[0]), target[1]))
                cost = step_cost(pose, step, after)
                if cost is None:
                    continue
            else:
                after, cost = None, fixed[step]
            if cost < 0 or (cost == 0 and not turn):
                raise ValueError(
                    f"step {step.label} costs {cost}: a step must cost 0 or more, and a move to another square at least 1"
                )
            if cost <= left:
                now, paid, partial = left - cost, cost, False
            elif last_step_with_what_is_left:
                now, paid, partial = 0, left, True
            else:
                continue
            if now > get(target, -1):
                if after is None:
                    after = new(Pose, (target[0] if turn else new(Square, target[0]), target[1]))
                best[after] = now
                came_from[after] = (pose, step, paid, partial)
                order += 1
                heappush(queue, (-now, order, after))
        if len(best) > MAX_REACH_POSES:
            raise ValueError(
                f"a search from {start} with {points} points reaches more than {MAX_REACH_POSES:,} poses: "
                "allowed are fewer points or a bounded map"
            )
    return Reach(start, points, best, came_from)


#: the largest map (in squares) that `reachable` searches as a flat table of points left; a larger
#: one is searched pose by pose (the table would cost more to make than a short search). Not a rule.
GRID_SEARCH_SQUARES = 10_000


def _reachable_on_grid(start: Pose, points: int, fixed: Mapping[Step, int], moves: list, last_step: bool,
                       width: int, height: int) -> Reach:
    """`reachable` with costs that do not depend on the square, on a bounded map: the same search, faster.

    A pose is a number, ``((x + 1) * (height + 2) + y + 1) * 4 + facing``, on the map with a border one
    square wide whose poses hold more points than the search has, so no step enters them and no step
    tests the bounds. The queue is a list of poses per number of points left, each taken first-in,
    first-out: the order of `reachable`'s heap (most points first, then first pushed), so every pose
    keeps the same points left and the same way there.
    """
    column = height + 2
    best = _unreached_with_border(width, height, points, 4)
    # per facing: each step's (step, change of the pose's number, cost)
    by_facing = [
        [(step, table[f] - f if turn else (table[f][0] * column + table[f][1]) * 4, fixed[step])
         for step, turn, table in moves]
        for f in range(4)
    ]
    first = ((start.square[0] + 1) * column + start.square[1] + 1) * 4 + start.facing
    best[first] = points
    seen = [first]  # the poses in the order they were first reached (the order of `reachable`'s dicts)
    came: dict[int, tuple[int, Step, int, bool]] = {}
    levels: list[list[int]] = [[] for _ in range(points + 1)]
    levels[points].append(first)
    for left in range(points, 0, -1):  # a pose with 0 points left takes no step (level 0 is never taken)
        # a step costing 0 (a turn) appends to the level being taken: the loop takes it in turn
        for here in levels[left]:
            if best[here] > left:
                continue  # reached with more points since it was queued
            for step, offset, cost in by_facing[here & 3]:
                now = left - cost
                if now >= 0:
                    there = here + offset
                    before = best[there]
                    if now > before:
                        if before < 0:
                            seen.append(there)
                        best[there] = now
                        came[there] = (here, step, cost, False)
                        if now:
                            levels[now].append(there)
                elif last_step:  # a last step paid with every point left: 0 left, kept only where unreached
                    there = here + offset
                    if best[there] < 0:
                        seen.append(there)
                        best[there] = 0
                        came[there] = (here, step, left, True)
    new = tuple.__new__
    squares = {cell: new(Square, (cell // column - 1, cell % column - 1)) for cell in {n >> 2 for n in seen}}

    def poses() -> dict[int, Pose]:
        found = {first: start}
        for number in seen[1:]:
            found[number] = new(Pose, (squares[number >> 2], _FACINGS[number & 3]))
        return found

    # a calculator that shows only the squares never makes the poses: the mappings are made when read
    def remaining() -> dict[Pose, int]:
        return {pose: best[n] for n, pose in poses().items()}

    def came_from() -> dict[Pose, tuple[Pose, Step, int, bool]]:
        pose = poses()
        return {pose[n]: (pose[here], step, paid, partial) for n, (here, step, paid, partial) in came.items()}

    return Reach(start, points, _MadeWhenRead(remaining), _MadeWhenRead(came_from), frozenset(squares.values()))


def _unreached_with_border(width: int, height: int, points: int, per_square: int) -> list[int]:
    """Points left per square (times ``per_square`` facings) of a grid search: -1, unreached, inside the
    map; more than the search has on a border one square wide, so no step enters it or tests bounds."""
    column = height + 2
    best = [points + 1] * ((width + 2) * column * per_square)
    for x in range(1, width + 1):
        best[(x * column + 1) * per_square:(x * column + height + 1) * per_square] = [-1] * (height * per_square)
    return best


def _facing_is_free(fixed: Mapping[Step, int], moves: list) -> bool:
    """Whether a quarter turn costs nothing and every facing has the same moves (offset and cost)."""
    if not any(turn and step.quarter_turns % 2 and fixed[step] == 0 for step, turn, _ in moves):
        return False
    by_facing = [sorted((table[f], fixed[step]) for step, turn, table in moves if not turn) for f in range(4)]
    return all(later == by_facing[0] for later in by_facing[1:])


def _reachable_facing_free(start: Pose, points: int, fixed: Mapping[Step, int], moves: list, last_step: bool,
                           width: int, height: int) -> Reach:
    """`reachable` where the facing costs nothing and changes no move (an omnidirectional mode): by square.

    Each square then keeps the same points in every facing, so a search over squares finds the
    squares four times faster; the poses and the ways there are `_reachable_on_grid`'s, searched
    only when they are read. Squares are numbered as there, with the border, without the facing.
    """
    column = height + 2
    best = _unreached_with_border(width, height, points, 1)
    offsets = [(table[0][0] * column + table[0][1], fixed[step]) for step, turn, table in moves if not turn]
    first = (start.square[0] + 1) * column + start.square[1] + 1
    best[first] = points
    levels: list[list[int]] = [[] for _ in range(points + 1)]
    levels[points].append(first)
    for left in range(points, 0, -1):
        for here in levels[left]:
            if best[here] > left:
                continue
            for offset, cost in offsets:
                now, there = left - cost, here + offset
                if now >= 0:
                    if now > best[there]:
                        best[there] = now
                        if now:
                            levels[now].append(there)
                elif last_step and best[there] < 0:
                    best[there] = 0
    new = tuple.__new__
    squares = frozenset(new(Square, (cell // column - 1, cell % column - 1))
                        for cell, left in enumerate(best) if 0 <= left <= points)
    by_pose = functools.cache(lambda: _reachable_on_grid(start, points, fixed, moves, last_step, width, height))
    return Reach(start, points, _MadeWhenRead(lambda: dict(by_pose().remaining)),
                 _MadeWhenRead(lambda: dict(by_pose().came_from)), squares)


class _MadeWhenRead(Mapping):
    """A read-only mapping made by ``make()`` the first time it is read (and kept)."""

    def __init__(self, make: Callable[[], dict]) -> None:
        self._make: Callable[[], dict] | None = make
        self._made: dict = {}

    def _mapping(self) -> dict:
        if self._make is not None:
            self._made, self._make = self._make(), None
        return self._made

    def __getitem__(self, key):
        return self._mapping()[key]

    def __iter__(self):
        return iter(self._mapping())

    def __len__(self) -> int:
        return len(self._mapping())

    def __repr__(self) -> str:
        return repr(self._mapping())

    def __reduce__(self):  # pickled and copied as the plain dict it stands for
        return dict, (self._mapping(),)


def map_bounds(bounds: object) -> tuple[int, int]:
    """``bounds`` as ``(width, height)``: two whole numbers of squares, 1 to `MAX_MAP_SIDE` each."""
    if not isinstance(bounds, tuple | list) or len(bounds) != 2:
        raise ValueError(f"map bounds {checks.shown(bounds)} are not (width, height)")
    return tuple(checks.whole(side, "map side", minimum=1, maximum=MAX_MAP_SIDE) for side in bounds)  # type: ignore[return-value]


def _inside(square: Square, bounds: tuple[int, int]) -> bool:
    return 0 <= square[0] < bounds[0] and 0 <= square[1] < bounds[1]


# -- figures -----------------------------------------------------------------------


def mark_rows(
    origin: Square,
    facing: Facing,
    lateral_range: range,
    forward_range: range,
    included: Callable[[Square], bool],
    *,
    marks: tuple[str, str, str] = ("〇", "×", "▲"),
) -> list[str]:
    """A figure as rows of marks seen from the piece, the row furthest ahead first.

    Each row runs left to right over ``lateral_range``; ``forward_range`` gives the rows. A square
    is marked ``marks[0]`` when ``included``, ``marks[1]`` when not, and the piece's own square
    ``marks[2]``. This is how rule texts draw arcs (〇 attackable, × not, ▲ the piece).
    """
    yes, no, self_mark = marks
    rows = []
    for forward in sorted(forward_range, reverse=True):
        row = ""
        for lateral in lateral_range:
            square = from_local(origin, facing, lateral, forward)
            row += self_mark if square == origin else (yes if included(square) else no)
        rows.append(row)
    return rows


#: the widest map ``grid_svg`` draws, in squares (the picture has a rectangle per square)
MAX_GRID_SIDE = 100


@checks.checked_arguments
def grid_svg(
    width: int,
    height: int,
    *,
    fills: Mapping[Square, str] | None = None,
    labels: Mapping[Square, str] | None = None,
    cell: int = 26,
    title: str = "",
) -> str:
    """An SVG picture of a ``width`` x ``height`` square map.

    ``fills`` colours squares (any CSS colour); ``labels`` writes a short text in them (a facing
    arrow, a number). Squares outside the map are ignored. At most `MAX_GRID_SIDE` squares a side.
    """
    checks.whole(width, "map width", minimum=1, maximum=MAX_GRID_SIDE)
    checks.whole(height, "map height", minimum=1, maximum=MAX_GRID_SIDE)
    checks.whole(cell, "cell size", minimum=1, maximum=200)
    checks.text(title, "title")
    fills = fills or {}
    labels = labels or {}
    w, h = width * cell, height * cell
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2}" height="{h + 2}" '
        f'viewBox="-1 -1 {w + 2} {h + 2}" role="img" aria-label="{html.escape(title)}">'
    ]
    if title:
        parts.append(f"<title>{html.escape(title)}</title>")
    size = f'width="{cell}" height="{cell}"'
    for y in range(height):
        for x in range(width):
            square = (x, y)  # a plain tuple finds a Square key: they hash and compare alike
            parts.append(
                f'<rect x="{x * cell}" y="{y * cell}" {size} fill="{fills.get(square, "#ffffff")}" stroke="#9e9e9e" stroke-width="1"/>'
            )
            if square in labels:
                parts.append(
                    f'<text x="{x * cell + cell / 2}" y="{y * cell + cell * 0.68}" font-size="{cell * 0.5:.1f}" '
                    f'text-anchor="middle" fill="#212121">{html.escape(labels[square])}</text>'
                )
    parts.append("</svg>")
    return "".join(parts)
