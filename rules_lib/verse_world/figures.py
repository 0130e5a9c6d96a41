"""Figures of the Verse World chapter, drawn from the square-grid geometry.

The melee front (004 §3-4-2-2, L33-L35), the firing arc (004 §3-4-2-3, L59-L65) and the squares
a move reaches. Text figures use the source's own marks: 〇 attackable, × not, ▲ the piece.
"""

from __future__ import annotations

from .. import checks
from ..geometry.square import Facing, Pose, Square, grid_svg, mark_rows
from .attack import can_melee, in_firing_arc
from .movement import MovePlan

ME = Square(0, 0)


def melee_figure_rows(facing: Facing | str = Facing.NORTH) -> list[str]:
    """The 3x3 melee figure as rows, the row ahead first (004 §3-4-2-2, L33-L35)."""
    facing = Facing.parse(facing)
    return mark_rows(ME, facing, range(-1, 2), range(-1, 2), lambda sq: can_melee(ME, facing, sq))


#: the deepest arc figure drawn, in squares (the map of ``grid_svg`` is at most 100 squares wide)
MAX_FIGURE_DEPTH = 49


def ranged_figure_rows(depth: int = 5, behind: int = 1) -> list[str]:
    """The firing-arc figure as rows: ``depth`` rows ahead, the own row and ``behind`` rows (004 §3-4-2-3, L59-L65).

    At most `MAX_FIGURE_DEPTH` rows each way (a bound on the drawing, not a rule).
    """
    checks.whole(depth, "depth", minimum=0, maximum=MAX_FIGURE_DEPTH)
    checks.whole(behind, "behind", minimum=0, maximum=MAX_FIGURE_DEPTH)
    return mark_rows(ME, Facing.NORTH, range(-depth, depth + 1), range(-behind, depth + 1),
                     lambda sq: in_firing_arc(ME, Facing.NORTH, sq))


def arc_svg(kind: str = "ranged", *, depth: int = 5, cell: int = 24) -> str:
    """An SVG of the melee front (``kind="melee"``, 004 §3-4-2-2) or the firing arc (``"ranged"``, 004 §3-4-2-3), facing up."""
    if kind not in ("melee", "ranged"):
        raise ValueError(f"figure kind {kind!r} is unknown: allowed are 'melee', 'ranged'")
    checks.whole(depth, "depth", minimum=1, maximum=MAX_FIGURE_DEPTH)
    half = 1 if kind == "melee" else depth
    ahead = 1 if kind == "melee" else depth
    width, height = 2 * half + 1, ahead + 2
    me = Square(half, ahead)
    test = (lambda sq: can_melee(me, Facing.NORTH, sq)) if kind == "melee" else (
        lambda sq: in_firing_arc(me, Facing.NORTH, sq))
    fills = {Square(x, y): "#a5d6a7" for x in range(width) for y in range(height) if test(Square(x, y))}
    fills[me] = "#90caf9"
    title = "melee front (004 §3-4-2-2)" if kind == "melee" else "firing arc (004 §3-4-2-3)"
    return grid_svg(width, height, fills=fills, labels={me: "▲"}, cell=cell, title=title)


def reach_svg(plan: MovePlan, width: int, height: int, *, cell: int = 22) -> str:
    """An SVG of the squares a move reaches (004 §3-4-2-1): reachable green, the start blue with its facing arrow."""
    start: Pose = plan.reach.start
    fills = {sq: "#a5d6a7" for sq in plan.squares() if 0 <= sq.x < width and 0 <= sq.y < height}
    for sq in plan.rough_blocked:
        fills.setdefault(sq, "#bcaaa4")
    fills[start.square] = "#90caf9"
    labels = {start.square: start.facing.arrow}
    return grid_svg(width, height, fills=fills, labels=labels, cell=cell,
                    title=f"reachable squares: {plan.costs.mode}, {plan.reach.points} points")
