"""The Gundam Sentinel first battle, played with buttons: the board and the log update after every step (000 §1-§6).

Every step is one :func:`rules_lib.gundam_sentinel.step` call on the frozen battle state; the dice
come from a :class:`~rules_lib.dice.SeededDice` made from the seed input, so a seed replays the
same battle. Buttons whose action is not legal now are disabled (never added or removed); an
illegal step tried anyway is refused with its reason and the state is left as it was.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..battle import legal_actions
from ..dice import percent
from ..gundam_sentinel import battle
from ..gundam_sentinel.actions import ap_cost
from ..gundam_sentinel.battle_effects import waiting
from ..gundam_sentinel.battle_odds import ap_chance, describe_fire_odds, initiative_chances
from ..gundam_sentinel.figures import board_svg, status_line, units_html
from .base import BattleCalculator
from .layout import LABEL_STYLE, inline_row


class FirstBattle(BattleCalculator):
    """A Zaku II against a Nouvelle GM III, one button per kind of action."""

    start = staticmethod(battle.new_battle)
    opening = ": roll initiative"

    def __init__(self, seed: int = 1) -> None:
        self.initiative = widgets.Button(description="Initiative", tooltip="2D6 + perception each (000 §1)")
        self.action_points = widgets.Button(description="Action points", tooltip="1D6 + reaction (000 §1)")
        self.move_left = widgets.Button(description="Move front-left", tooltip="enter the left-front hex (000 §4)")
        self.move_ahead = widgets.Button(description="Move ahead", tooltip="enter the hex straight ahead (000 §4)")
        self.move_right = widgets.Button(description="Move front-right", tooltip="enter the right-front hex (000 §4)")
        self.turn_left = widgets.Button(description="Turn left", tooltip="60 degrees anticlockwise (000 §4)")
        self.turn_right = widgets.Button(description="Turn right", tooltip="60 degrees clockwise (000 §4)")
        self.weapon = widgets.Dropdown(options=["-"], description="weapon", style=LABEL_STYLE,
                                       layout=inline_row("22em"))
        self.fired = widgets.BoundedIntText(value=15, min=1, max=15, description="missiles fired (1 to 15)",
                                            style=LABEL_STYLE, layout=inline_row("16em"))
        self.fire = widgets.Button(description="Fire", tooltip="a hit check: 1D36 + modifier against evasion (000 §6)")
        self.end_phase = widgets.Button(description="End phase", tooltip="unused AP are lost (000 §3)")
        self.choice = widgets.Dropdown(options=["-"], description="choice", style=LABEL_STYLE, layout=inline_row("30em"))
        self.choose = widgets.Button(description="Choose",
                                     tooltip="settle a chart result the sheet cannot (which arm or weapon, a morale check)")
        self.buttons = {
            "initiative": self.initiative, "ap": self.action_points, "left": self.move_left,
            "ahead": self.move_ahead, "right": self.move_right, "turn left": self.turn_left,
            "turn right": self.turn_right, "fire": self.fire, "end": self.end_phase,
        }
        super().__init__(seed, [
            widgets.HBox([self.initiative, self.action_points, self.end_phase]),
            widgets.HBox([self.move_left, self.move_ahead, self.move_right]),
            widgets.HBox([self.turn_left, self.turn_right]),
            widgets.HBox([self.weapon, self.fired, self.fire]),
            widgets.HBox([self.choice, self.choose]),
        ])
        self.initiative.on_click(lambda _: self.do(battle.RollInitiative()))
        self.action_points.on_click(lambda _: self.do(battle.RollAP(self._actor())))
        for name in ("left", "ahead", "right"):
            self.buttons[name].on_click(lambda _, name=name: self.do(battle.Move(self._actor(), name)))
        self.turn_left.on_click(lambda _: self.do(battle.Turn(self._actor(), -1)))
        self.turn_right.on_click(lambda _: self.do(battle.Turn(self._actor(), 1)))
        self.fire.on_click(lambda _: self.do(self.fire_action()))
        self.end_phase.on_click(lambda _: self.do(battle.EndPhase(self._actor())))
        self.choose.on_click(lambda _: self.do(self.choose_action()))
        for control in (self.weapon, self.fired, self.choice):
            control.observe(lambda _: self._refresh_buttons(), names="value")
        self._started("a new battle")

    # -- actions ------------------------------------------------------------------------

    def fire_action(self) -> battle.Fire:
        name = self._actor()
        weapon = self.weapon.value if self.weapon.value != "-" else ""
        fired = None
        if name and weapon in [w.name for w in self.state.unit(name).weapons]:
            if self.state.unit(name).weapon(weapon).mode == "missile":
                fired = self.fired.value
        return battle.Fire(name, weapon, fired)

    def choose_action(self) -> battle.Choose:
        found = waiting(self.state)
        return battle.Choose(found[0].name if found else "", self.choice.value)

    # -- display ------------------------------------------------------------------------

    def _show(self, message: str) -> None:
        state = self.state
        name = state.actor
        if name is not None:
            weapons = state.unit(name).weapons
            self._options(self.weapon, [w.name for w in weapons])
            missiles = [w for w in weapons if w.mode == "missile"]
            if missiles:
                top = max(1, min(missiles[0].ammo, missiles[0].capacity or missiles[0].ammo))
                self.fired.max = max(top, 1)
                self.fired.value = top
        found = waiting(state)
        self._options(self.choice, [o.label for o in found[2]] if found else ["-"])
        self._show_common(status_line(state), board_svg(state), units_html(state), f"<p>{message}</p>")
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        state = self.state
        legal = set(legal_actions(state))
        name = self._actor()
        wanted = {
            "initiative": battle.RollInitiative(), "ap": battle.RollAP(name),
            "left": battle.Move(name, "left"), "ahead": battle.Move(name, "ahead"),
            "right": battle.Move(name, "right"), "turn left": battle.Turn(name, -1),
            "turn right": battle.Turn(name, 1), "end": battle.EndPhase(name),
        }
        for key, action in wanted.items():
            self.buttons[key].disabled = action not in legal
        self.choose.disabled = self.choose_action() not in legal
        self.choice.disabled = self.choose.disabled
        fire = self.fire_action()
        can_fire = False
        if state.phase == "act" and fire.weapon:
            try:
                odds = describe_fire_odds(state, fire)
                can_fire = True
            except battle.IllegalStep as error:
                odds = f"no shot now: {error}"
        self.fire.disabled = not can_fire
        is_missile = bool(name) and fire.fired is not None
        self.weapon.disabled = state.phase != "act"
        self.fired.disabled = not is_missile or state.phase != "act"
        if state.phase == "initiative":
            chances = initiative_chances(state)
            self.odds.value = "<p>initiative chances: " + ", ".join(
                f"{html.escape(k)} {percent(v)}" for k, v in chances.items()) + " (a tie is rolled again)</p>"
        elif state.phase == "action points" and name:
            unit = state.unit(name)
            move = ap_cost("normal move", unit.unit_class)
            pattern = unit.usable_weapons[0].pattern if unit.usable_weapons else None
            shot = ap_cost(pattern, unit.unit_class, state.rules.costs) if pattern else 0
            fire = f" and fire ({pattern} {shot}, not in the source text)" if pattern else ""
            self.odds.value = (f"<p>chance of at least {move + shot} AP, enough to move (normal move {move}){fire}: "
                               f"{percent(ap_chance(state, name, move + shot))}</p>")
        elif state.phase == "act" and fire.weapon:
            self.odds.value = f"<p>{html.escape(odds)}</p>"
        else:
            self.odds.value = ""
