"""The WIS6 first battle, played with buttons: the board and the log update after every step (001 §1, §3, §4).

Every step is one :func:`rules_lib.wis6.step` call on the frozen battle state; the dice come
from a :class:`~rules_lib.dice.SeededDice` made from the seed input, so a seed replays the same
battle. Buttons whose action is not legal are disabled (never added or removed); an illegal
step that is tried anyway is refused with its reason and the state is left as it was.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..wis6 import (
    Attack,
    EndAction,
    Jam,
    MoveTo,
    RollOrder,
    board_html,
    describe_odds,
    is_legal,
    legal_kinds,
    new_battle,
    units_html,
)
from ..wis6.figures import status_line
from .base import BattleCalculator
from .layout import LABEL_STYLE, inline_row


class FirstBattle(BattleCalculator):
    """A WIS6 battle between the book's two sample units, one button per kind of action."""

    start = staticmethod(new_battle)
    opening = ": roll the action order"

    def __init__(self, seed: int = 1, square: str = "D-4") -> None:
        self.roll_order = widgets.Button(description="Roll order", tooltip="decide the action order (001 §1-2)")
        self.jam = widgets.Button(description="Jam", tooltip="jamming, operators only, 3 per session (001 §4-6)")
        self.end_action = widgets.Button(description="End action", tooltip="end this unit's action (001 §1-4)")
        self.square = widgets.Text(value=square, description="move to square (e.g. D-4)", style=LABEL_STYLE,
                                   layout=inline_row("22em"))
        self.move = widgets.Button(description="Move", tooltip="move up to the AC's mobility (001 §1-3)")
        self.weapon = widgets.Dropdown(options=["-"], description="attack with", style=LABEL_STYLE,
                                       layout=inline_row("24em"))
        self.answer_weapon = widgets.Dropdown(options=["-"], description="the target answers with", style=LABEL_STYLE,
                                              layout=inline_row("24em"))
        self.attack_evade = widgets.Button(description="Attack: evades", tooltip="the target evades (001 §3-2)")
        self.attack_intercept = widgets.Button(description="Attack: intercepts",
                                               tooltip="the target intercepts a missile (001 §4-4)")
        self.attack_counter = widgets.Button(description="Attack: counters",
                                             tooltip="the target counters instead of evading (001 §4-5)")
        self.buttons = {
            "order": self.roll_order, "move": self.move, "jam": self.jam, "end": self.end_action,
            "evade": self.attack_evade, "intercept": self.attack_intercept, "counter": self.attack_counter,
        }
        super().__init__(seed, [
            widgets.HBox([self.roll_order, self.jam, self.end_action]),
            widgets.HBox([self.square, self.move]),
            widgets.HBox([self.weapon, self.answer_weapon]),
            widgets.HBox([self.attack_evade, self.attack_intercept, self.attack_counter]),
        ])
        self.roll_order.on_click(lambda _: self.do(RollOrder()))
        self.jam.on_click(lambda _: self.do(Jam(self.state.actor or "")))
        self.end_action.on_click(lambda _: self.do(EndAction(self.state.actor or "")))
        self.move.on_click(lambda _: self.do(MoveTo(self.state.actor or "", self.square.value)))
        for answer in ("evade", "intercept", "counter"):
            self.buttons[answer].on_click(lambda _, answer=answer: self.do(self.attack_action(answer)))
        for control in (self.weapon, self.answer_weapon):
            control.observe(lambda _: self._refresh_buttons(), names="value")
        self._started("a new battle")

    # -- actions ------------------------------------------------------------------------

    def attack_action(self, answer: str) -> Attack:
        weapon = self.weapon.value if self.weapon.value != "-" else ""
        answer_weapon = None if answer == "evade" else self.answer_weapon.value
        return Attack(self.state.actor or "", weapon, answer, answer_weapon)

    # -- display ------------------------------------------------------------------------

    def _show(self, message: str) -> None:
        state = self.state
        actor = state.actor
        if actor is not None:
            unit, target = state.unit(actor), state.opponent(actor)
            self._options(self.weapon, [w.name for w in unit.weapons])
            self._options(self.answer_weapon, [w.name for w in target.weapons])
        self._show_common(status_line(state), board_html(state), units_html(state), f"<p>{message}</p>")
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        kinds = legal_kinds(self.state)
        for kind in ("order", "move", "jam", "end"):
            self.buttons[kind].disabled = kind not in kinds
        odds = []
        for answer in ("evade", "intercept", "counter"):
            action = self.attack_action(answer)
            legal = "attack" in kinds and is_legal(self.state, action)
            self.buttons[answer].disabled = not legal
            if legal:
                odds.append(f"<li>{html.escape(describe_odds(self.state, action))}</li>")
        self.weapon.disabled = self.answer_weapon.disabled = "attack" not in kinds
        self.odds.value = f"<p>the odds of each attack now:</p><ul>{''.join(odds)}</ul>" if odds else ""
