"""The WIS6 guided battle drawn: the lettered square map with the units and their reach, and the unit table (001 §1, §3)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ..battle import legal_actions
from .special import OPERATOR, SESSION_LIMITS
from .turn import Square, distance, parse_square

if TYPE_CHECKING:  # the battle's modules load when a battle is drawn, not with the rules (rules_lib.lazy)
    from .battle_state import BattleState

#: each side's colour, as text on the page and behind white text: both at WCAG's 4.5:1 contrast
_COLOURS = {"PC": "#1565c0", "enemy": "#c62828"}


def board_html(state: BattleState, *, reach: bool = True) -> str:
    """The map as an HTML table: columns A, B, ... across, rows 1, 2, ... down, each unit on its square.

    With ``reach``, the squares the acting unit may still move to are shaded and the squares its
    longest weapon that can still fire reaches are outlined; the caption gives the distance.
    """
    from .battle_state import MoveTo  # loaded with a battle, not the rules
    br = state.battle_rules
    by_square = {u.square: u for u in state.units}
    actor = state.unit(state.actor) if state.actor else None
    movable: set[Square] = set()
    if reach and actor is not None:
        movable = {parse_square(a.square) for a in legal_actions(state) if isinstance(a, MoveTo)}
    ready = [w for w in actor.weapons if w.ammo is None or w.ammo >= br.ammo_per_attack] if actor else []
    longest = max((w.range for w in ready), default=-1)
    cell = "width:2.3em;height:2.3em;text-align:center;border:1px solid #999;padding:0;font-size:0.85em;"
    head = "".join(f"<th style='{cell}border:none'>{chr(ord('A') + c)}</th>" for c in range(br.columns))
    rows = []
    for r in range(1, br.rows + 1):
        cells = [f"<th style='{cell}border:none'>{r}</th>"]
        for c in range(br.columns):
            square = Square(chr(ord("A") + c), r)
            style = cell
            if square in movable:
                style += "background:#e3f2fd;"
            if reach and actor is not None and square != actor.square and distance(actor.square, square, state.rules) <= longest:
                style += "box-shadow:inset 0 0 0 2px #ffb74d;"
            unit = by_square.get(square)
            text = ""
            if unit is not None:
                colour = "#757575" if unit.wrecked else _COLOURS.get(unit.side, "#555")
                style += f"background:{colour};color:white;font-weight:bold;"
                text = f"{html.escape(unit.name[:2])}<br><span style='font-weight:normal'>{unit.ap}</span>"
            cells.append(f"<td title='{square}' style='{style}'>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = status_line(state)
    a, b = state.units
    caption = html.escape(f"{caption}; {a.name} and {b.name} are {distance(a.square, b.square, state.rules)} squares apart")
    return (f"<table class='wis6-board' style='border-collapse:collapse;margin:0.4em 0'>"
            f"<caption style='caption-side:bottom;text-align:left;font-size:0.85em'>{caption}</caption>"
            f"<thead><tr><td></td>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def status_line(state: BattleState) -> str:
    """Whose action it is, in words."""
    if state.phase == "order":
        return "before the battle: the action order is not decided yet"
    if state.phase == "over":
        outcome = f"{state.winner} wins" if state.winner else (state.end_reason or "a draw")
        return f"the battle is over after turn {state.turn}: {outcome}"
    done = [s for s, d in (("moved", state.moved), ("attacked", state.attacked)) if d]
    return f"turn {state.turn}, {state.actor}'s action" + (f" ({' and '.join(done)})" if done else "")


def units_html(state: BattleState) -> str:
    """A table of the units: AP, armour, mobility, square, weapons and ammunition, jamming left."""
    rows = []
    for unit, session in zip(state.units, state.sessions, strict=True):
        weapons = "<br>".join(html.escape(w.describe()) for w in unit.weapons)
        jams = session.remaining("jamming") if unit.role == OPERATOR else "—"
        colour = _COLOURS.get(unit.side, "#555")
        rows.append(
            f"<tr><td style='color:{colour};font-weight:bold'>{html.escape(unit.name)}</td><td>{html.escape(unit.side)}</td>"
            f"<td>{unit.square}</td><td>{unit.ap} / {unit.max_ap}</td><td>{unit.armour}</td><td>{unit.mobility}</td>"
            f"<td>{weapons}</td><td>{jams}</td></tr>"
        )
    head = "".join(f"<th>{h}</th>" for h in ("unit", "side", "square", "AP", "armour", "mobility", "weapons",
                                              f"jamming left (of {SESSION_LIMITS['jamming']})"))
    # one line a row, scrolling sideways on a phone, like the other systems' unit tables (not an odds table, which narrows)
    return f"<table class='wis6-units'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


__all__ = [
    "board_html", "units_html",
]
