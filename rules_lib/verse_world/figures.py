"""Figures of the Verse World chapter, drawn from the square-grid geometry.

The melee front (004 §3-4-2-2, lines 33–35), the firing arc (004 §3-4-2-3, lines 59–65) and the squares
a move reaches. Text figures use the source's own marks: 〇 attackable, × not, ▲ the piece.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Literal

from .. import checks
from ..geometry.square import Facing, Pose, Square, grid_svg, mark_rows
from .attack import can_melee, in_firing_arc
from .movement import MovePlan

if TYPE_CHECKING:  # the battle's modules load when a battle is drawn, not with the rules (rules_lib.lazy)
    from .battle_state import BattleState

ME = Square(0, 0)


def melee_figure_rows(facing: Facing | str = Facing.NORTH) -> list[str]:
    """The 3x3 melee figure as rows, the row ahead first (004 §3-4-2-2, lines 33–35)."""
    facing = Facing.parse(facing)
    return mark_rows(ME, facing, range(-1, 2), range(-1, 2), lambda sq: can_melee(ME, facing, sq))


#: the deepest arc figure drawn, in squares (the map of ``grid_svg`` is at most 100 squares wide)
MAX_FIGURE_DEPTH = 49


def ranged_figure_rows(depth: int = 5, behind: int = 1) -> list[str]:
    """The firing-arc figure as rows: ``depth`` rows ahead, the own row and ``behind`` rows (004 §3-4-2-3, lines 59–65).

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


# -- the guided battle ----------------------------------------------------------------------------

_SIDE_FILL = {"pc": "#90caf9", "gm": "#ef9a9a"}


@checks.checked_arguments
def board_svg(state: BattleState, *, show: Literal["auto", "reach", "arc", "none"] = "auto",
              mode: str | None = None, cell: int = 30) -> str:
    """The square map as SVG (``geometry.square.grid_svg``): units in their side's colour with a facing arrow.

    ``show="reach"``: the squares the acting unit can still reach (green, :func:`move_plan`);
    ``"arc"``: its three front squares (orange) and firing arc (yellow); ``"auto"``: reach while it may
    still move, the arc once it has moved or cannot.
    """
    from .battle_odds import move_plan  # loaded with a battle, not the rules
    _check_state(state)
    rules = state.rules
    fills: dict[Square, str] = {}
    actor = state.unit(state.actor) if state.actor and state.phase == "action" else None
    if actor is not None and show == "auto":
        plan = move_plan(state, mode)
        show = "reach" if plan is not None and plan.reach.points > 0 and not state.current.attacked else "arc"
        if state.current.moved or state.current.attacked:
            show = "arc"
    occupied = {u.pose.square for u in state.units}
    if actor is not None and show == "reach":
        plan = move_plan(state, mode)
        if plan is not None:
            for sq in plan.squares():
                if sq not in occupied:
                    fills[sq] = "#c8e6c9"
    elif actor is not None and show == "arc":
        here, facing = actor.pose
        for x in range(rules.width):
            for y in range(rules.height):
                sq = Square(x, y)
                if can_melee(here, facing, sq):
                    fills[sq] = "#ffcc80"
                elif in_firing_arc(here, facing, sq):
                    fills[sq] = "#fff59d"
    labels = {}
    for unit in state.units:
        fills[unit.pose.square] = "#bdbdbd" if unit.down else _SIDE_FILL[unit.side]
        labels[unit.pose.square] = unit.pose.facing.arrow + ("↓" if unit.prone else "")
    title = f"turn {state.turn}: " + ", ".join(f"{u.name} at {u.pose}" for u in state.units)
    return grid_svg(rules.width, rules.height, fills=fills, labels=labels, cell=cell, title=title)


def board_html(state: BattleState, **kwargs) -> str:
    """The board with a legend (units, colours)."""
    legend = " · ".join(
        f"<span style='background:{_SIDE_FILL[u.side]};padding:0 0.3em'>{u.pose.facing.arrow}</span> "
        f"{html.escape(u.name)} ({html.escape(u.pilot)}) at {u.pose.square}" for u in state.units
    )
    legend += (" · <span style='background:#c8e6c9;padding:0 0.3em'>&nbsp;</span> reachable · "
               "<span style='background:#ffcc80;padding:0 0.3em'>&nbsp;</span> front squares (melee) · "
               "<span style='background:#fff59d;padding:0 0.3em'>&nbsp;</span> firing arc")
    return f"<div class='vw-board'>{board_svg(state, **kwargs)}<p style='font-size:0.85em'>{legend}</p></div>"


def status_line(state: BattleState) -> str:
    if state.phase == "over":
        return f"turn {state.turn}: the battle is over: " + (f"{state.winner} wins" if state.winner else (state.end_reason or "a draw"))
    if state.phase == "initiative":
        return f"turn {state.turn}: roll initiative"
    if state.phase == "end-of-turn":
        return f"turn {state.turn}: end of the turn"
    c = state.current
    done = []
    if c.mode:
        done.append(f"moved by {c.mode}, {c.points_left} points left")
    if c.attacked:
        done.append("attacked")
    return (f"turn {state.turn}: {state.actor}'s {'extra ' if state.extra else ''}action"
            + (f" ({'; '.join(done)})" if done else ""))


@checks.checked_arguments
def _check_state(state: object) -> None:
    from .battle_state import BattleState  # loaded with a battle, not the rules

    checks.of_type(state, "state", BattleState)


def units_html(state: BattleState) -> str:
    """The units' table of a battle: name and side, pilot, HP, protection, MP and pose."""
    _check_state(state)
    rows = "".join(
        f"<tr><td>{html.escape(u.name)} ({u.side})</td><td>{html.escape(u.pilot)}</td><td>{u.hp}/{u.max_hp}</td>"
        f"<td>{u.protection}</td><td>{u.pilot_mp}</td><td>{u.mecha_mp}</td><td>{u.pose}</td>"
        f"<td>{'; '.join(html.escape(w.describe()) for w in u.weapons)}"
        + (" — fallen" if u.prone else "") + "</td></tr>"
        for u in state.units
    )
    return ("<table class='vw-units'><thead><tr><th>mecha</th><th>pilot</th><th>HP</th><th>protection</th>"
            "<th>pilot MP</th><th>mecha MP</th><th>where</th><th>weapons</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


__all__ = [
    "arc_svg", "board_html", "board_svg", "melee_figure_rows", "ranged_figure_rows", "reach_svg",
    "units_html",
]
