"""The Nemesis guided battle drawn: both silhouettes side by side, part by part, with their dice (002 §1-1 to §7-2)."""

from __future__ import annotations

import html
from collections import Counter
from typing import TYPE_CHECKING

from ..battle import StepResult
from .silhouette import PART_LABELS

if TYPE_CHECKING:  # the battle's modules load when a battle is drawn, not with the rules (rules_lib.lazy)
    from .battle_state import BattleState

_COLOURS = {"A": "#1565c0", "B": "#c62828"}
_PART_NAMES = {"head": "head", "torso": "torso", "right_arm": "R arm", "left_arm": "L arm",
               "right_leg": "R leg", "left_leg": "L leg"}


def status_line(state: BattleState) -> str:
    """Turn, phase and whose action it is, in words."""
    from .battle_state import PHASE_LABELS  # loaded with a battle, not the rules
    if state.phase == "over":
        who = state.unit(state.winner).name if state.winner else "nobody"
        return f"the battle is over after turn {state.turn}: {state.end_reason}; {who} wins"
    text = f"turn {state.turn}: {PHASE_LABELS[state.phase]}"
    if state.phase == "order":
        text += f"; {state.chooser} won the initiative and chooses"
    if state.actor:
        text += f"; {state.unit(state.actor).name} is acting ({'first' if state.actor == state.first else 'second'})"
    if state.pending:
        hit = state.pending[0]
        text += f"; waiting: {state.unit(hit.attacker).name}'s {state.unit(hit.attacker).weapon(hit.weapon).name}"
    return text


def _die(face: int, spent: bool) -> str:
    style = ("display:inline-block;width:1.5em;height:1.5em;line-height:1.5em;text-align:center;margin:0 2px;"
             "border:1px solid #444;border-radius:4px;font-weight:bold;")
    if spent:
        style += "color:#aaa;border-color:#ccc;text-decoration:line-through;"
    return f"<span style='{style}'>{face}</span>"


def _bar(value: int, full: int, colour: str) -> str:
    width = 8 * value / full if full else 0
    return (f"<span style='display:inline-block;width:8em;height:0.7em;background:#eee;vertical-align:middle'>"
            f"<span style='display:block;width:{width:.2f}em;height:0.7em;background:{colour}'></span></span> "
            f"{value} / {full}")


def board_html(state: BattleState) -> str:
    """A status board of both units: structure, parts, active value, weapon in hand, and the action dice
    (spent ones struck through), with the turn and phase as caption."""
    rows = {"role": [], "structure (構造値)": [], "parts (部位耐久値)": [], "active value (能動値)": [],
            "in hand": [], "action dice": [], "shots this turn": []}
    for unit in state.units:
        colour = _COLOURS[unit.side]
        role = []
        if state.first:
            role.append("first (先攻)" if unit.side == state.first else "second (後攻)")
        if state.actor == unit.side:
            role.append("<b>acting</b>")
        if state.melee_opener == unit.side:
            role.append("opened melee")
        if state.closed_in == unit.side:
            role.append("closed in (melee distance)")
        if unit.out_of_action:
            role.append("<b>destroyed (行動不能)</b>")
        rows["role"].append(", ".join(role) or "—")
        rows["structure (構造値)"].append(_bar(unit.structure, unit.sheet.structure, colour))
        parts = []
        for part, full in unit.sheet.part_durability.items():
            left = unit.condition.parts[part]
            label = unit.sheet.part_labels.get(part, PART_LABELS[part])
            style = "white-space:nowrap;margin-right:0.6em;"
            if part in unit.destroyed:
                style += "color:#b71c1c;text-decoration:line-through;"
            parts.append(f"<span title='{html.escape(label)}' style='{style}'>{_PART_NAMES[part]} {left}/{full}</span>")
        rows["parts (部位耐久値)"].append(" ".join(parts))
        rows["active value (能動値)"].append(str(unit.active))
        weapon = unit.weapon(unit.in_hand)
        usable = "" if unit.unusable_reason(weapon) is None else " (unusable: arm destroyed)"
        rows["in hand"].append(f"{html.escape(weapon.label)} ({unit.grip.label}){usable}")
        spent = Counter(unit.spent)
        shown = []
        for face in unit.rolled:
            if spent[face]:
                spent[face] -= 1
                shown.append(_die(face, True))
            else:
                shown.append(_die(face, False))
        rows["action dice"].append("".join(shown) or "—")
        rows["shots this turn"].append(", ".join(f"range {r}" for r in unit.ranges_used) or "—")
    head = "".join(f"<th style='color:{_COLOURS[u.side]};padding:0.2em 0.8em'>{html.escape(u.name)}</th>"
                   for u in state.units)
    body = "".join(f"<tr><th style='text-align:left;padding:0.2em 0.8em'>{html.escape(k)}</th>"
                   + "".join(f"<td style='padding:0.2em 0.8em'>{v}</td>" for v in values) + "</tr>"
                   for k, values in rows.items())
    caption = html.escape(status_line(state))
    return (f"<table class='nemesis-board' style='border-collapse:collapse;margin:0.4em 0'>"
            f"<caption style='caption-side:top;text-align:left;font-weight:bold'>{caption}</caption>"
            f"<thead><tr><td></td>{head}</tr></thead><tbody>{body}</tbody></table>")


def explanation_html(result: StepResult) -> str:
    """One step's explanation as HTML, with the dice it drew."""
    dice = f"<p>dice drawn: {' '.join(_die(d, False) for d in result.dice)}</p>" if result.dice else ""
    return dice + "<ul style='margin:0'>" + "".join(f"<li>{html.escape(s)}</li>" for s in result.explanation) + "</ul>"


__all__ = [
    "board_html",
]
