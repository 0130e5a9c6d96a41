"""The Nemesis first battle, played with buttons: the board and the log update after every step (002 §1-1 to §7-2).

Every step is one :func:`rules_lib.nemesis.step` call on the frozen battle state; the dice come
from a :class:`~rules_lib.dice.SeededDice` made from the seed input, so a seed replays the same
battle. Buttons whose action is not legal now are disabled (never added or removed); an illegal
step tried anyway is refused with its reason and the state is left as it was.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..battle import is_legal, legal_actions
from ..nemesis import battle, firing_faces, parse_faces
from ..nemesis.battle_odds import decision_odds
from ..nemesis.figures import board_html, explanation_html, status_line
from .base import BattleCalculator
from .layout import LABEL_STYLE, inline_row

MAX_ACTIVE = 20


class FirstBattle(BattleCalculator):
    """Two SS-01 ソルジャー1 fight turn by turn; one button per kind of action, the dice from a seed."""

    start = staticmethod(battle.new_battle)
    opening = ": roll the action dice"
    _explanation_html = staticmethod(explanation_html)

    def __init__(self, seed: int = 1) -> None:
        self.roll = widgets.Button(description="Roll action dice", tooltip="3D6 each, then initiative (002 §1-1)")
        self.go_first = widgets.Button(description="Go first (先攻)", tooltip="the initiative winner goes first")
        self.go_second = widgets.Button(description="Go second (後攻)", tooltip="the initiative winner goes second")
        self.open_melee = {side: widgets.Button(description=f"{side} opens melee",
                                                tooltip="a triple opens the melee phase; the opener is second (002 §1-1)")
                           for side in battle.SIDES}
        self.weapon = widgets.Dropdown(options=[("-", "")], description="weapon", style=LABEL_STYLE,
                                       layout=inline_row("26em"))
        self.die = widgets.BoundedIntText(value=6, min=1, max=6, description="action die (1 to 6)", style=LABEL_STYLE,
                                          layout=inline_row("14em"))
        self.shoot = widgets.Button(description="Shoot", tooltip="fire the weapon with the die (002 §2-1)")
        self.swap = widgets.Button(description="Swap weapon",
                                   tooltip="take up the weapon; gives up the die unless 持替不要 (002 §1-1)")
        self.give_up = widgets.Text(value="", description="2 dice to give up", placeholder="e.g. 3,1",
                                    style=LABEL_STYLE, layout=inline_row("18em"))
        self.response = widgets.Button(description="Response action", tooltip="2 dice for +1 active value (002 §1-1)")
        self.active_spent = widgets.BoundedIntText(value=0, min=0, max=MAX_ACTIVE,
                                                   description=f"active value (能動値) to spend (0 to {MAX_ACTIVE})",
                                                   style=LABEL_STYLE, layout=inline_row("22em"))
        self.approach = widgets.Button(description="Approach", tooltip="close in with the bayonet on a 1 (002 §5-1)")
        self.melee = widgets.Button(description="Melee duel", tooltip="the opener's duel (002 §6-1, §6-2)")
        self.armour = widgets.Button(description="Armour check", tooltip="attack against armour (002 §3-1)")
        self.damage = widgets.Button(description="Damage", tooltip="roll damage (002 §4-1, §7-1)")
        self.damage_defend = widgets.Button(description="Damage, defend",
                                            tooltip="the target defends: 1 active value, damage halved (002 §H6)")
        self.end = widgets.Button(description="End action", tooltip="the acting side is done (002 §7-2)")
        self.concede = {side: widgets.Button(description=f"{side} concedes",
                                             tooltip="possible once a part is destroyed (002 §7-1)")
                        for side in battle.SIDES}
        #: every action button by kind; the widget tree never changes
        self.buttons: dict[str, widgets.Button] = {
            "roll": self.roll, "first": self.go_first, "second": self.go_second,
            "open_A": self.open_melee["A"], "open_B": self.open_melee["B"],
            "shoot": self.shoot, "swap": self.swap, "response": self.response, "approach": self.approach,
            "melee": self.melee, "armour": self.armour, "damage": self.damage, "defend": self.damage_defend,
            "end": self.end, "concede_A": self.concede["A"], "concede_B": self.concede["B"],
        }
        self._actor_seen: tuple | None = None
        super().__init__(seed, [
            widgets.HBox([self.roll, self.go_first, self.go_second, self.open_melee["A"], self.open_melee["B"]]),
            widgets.HBox([self.weapon, self.die, self.shoot, self.swap]),
            widgets.HBox([self.give_up, self.response, self.active_spent, self.approach, self.melee]),
            widgets.HBox([self.armour, self.damage, self.damage_defend, self.end,
                          self.concede["A"], self.concede["B"]]),
        ], units=False)
        for kind, button in self.buttons.items():
            button.on_click(lambda _, kind=kind: self.do(self.action(kind)))
        for control in (self.weapon, self.die, self.give_up, self.active_spent):
            control.observe(lambda _: self._refresh_buttons(), names="value")
        self._started("a new battle")

    # -- actions ------------------------------------------------------------------------

    def reset(self) -> None:
        """A new battle with the seed input's dice."""
        self._actor_seen = None
        super().reset()

    def _started(self, head: str) -> None:
        self._show(f"<p>{head}{self.opening}</p>")

    def action(self, kind: str) -> battle.Action:
        """The action a button stands for, built from the state and the inputs."""
        state, actor = self.state, self.state.actor or "A"
        if kind == "roll":
            return battle.RollActionDice()
        if kind in ("first", "second"):
            return battle.ChooseOrder(state.chooser or "A", kind == "first")
        if kind.startswith("open_"):
            return battle.OpenMelee(kind[-1])
        if kind.startswith("concede_"):
            return battle.Concede(kind[-1])
        if kind == "shoot":
            return battle.Shoot(actor, self.weapon.value, self.die.value)
        if kind == "swap":
            weapon = state.unit(actor).sheet.weapon(self.weapon.value) if self.weapon.value else None
            give_up = None if weapon is not None and weapon.has("no_swap") else self.die.value
            return battle.SwapWeapon(actor, self.weapon.value, give_up)
        if kind == "response":
            try:
                faces = parse_faces(self.give_up.value, "dice given up")
            except ValueError:
                faces = ()
            return battle.ResponseAction(actor, tuple(faces))
        if kind == "approach":
            return battle.Approach(actor, self.active_spent.value)
        if kind == "melee":
            return battle.Melee(actor)
        if kind == "armour":
            return battle.ArmourCheck()
        if kind in ("damage", "defend"):
            return battle.Damage(kind == "defend")
        return battle.EndAction(actor)

    # -- display ------------------------------------------------------------------------

    def _fill_inputs(self) -> None:
        """Offer a legal choice when a new side starts acting (the reader may change it)."""
        state = self.state
        if state.actor is None:
            return
        key = (state.turn, state.actor)
        unit = state.unit(state.actor)
        # the range without its kind (適正射程 or 射程, on the data sheet): the choice fits a 360 px phone
        options = [(f"{w.label}, {w.proper_range or w.range}", w.key) for w in unit.sheet.weapons]
        if list(self.weapon.options) != options:
            self.weapon.options = options
        if key == self._actor_seen:
            return
        self._actor_seen = key
        if self.weapon.value not in [k for _, k in options]:
            self.weapon.value = options[0][1]
        weapon = unit.sheet.weapon(self.weapon.value)
        matching = [d for d in unit.dice if d in firing_faces(weapon, state.rules.extended)]
        if matching or unit.dice:
            self.die.value = max(matching or unit.dice)
        pairs = [a.give_up for a in legal_actions(state) if isinstance(a, battle.ResponseAction)]
        self.give_up.value = ",".join(map(str, pairs[-1])) if pairs else ""
        self.active_spent.value = 0

    def _show(self, message: str) -> None:
        self._fill_inputs()
        self._show_common(status_line(self.state), board_html(self.state), None, message)
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        odds = []
        for kind, button in self.buttons.items():
            action = self.action(kind)
            legal = is_legal(self.state, action)
            button.disabled = not legal
            if legal and kind in ("shoot", "approach", "melee", "open_A", "open_B", "armour", "damage", "defend"):
                text = decision_odds(self.state, action).text
                if text:
                    odds.append(f"<li><b>{html.escape(button.description)}</b>: {html.escape(text)}</li>")
        acting = self.state.phase == "acting"
        for control in (self.weapon, self.die, self.give_up, self.active_spent):
            control.disabled = not acting
        self.odds.value = f"<p>the exact odds of each choice now:</p><ul>{''.join(odds)}</ul>" if odds else ""
