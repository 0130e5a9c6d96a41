"""The Verse World first battle, played with buttons: the board and the log update after every step (004 §3-4).

Every step is one :func:`rules_lib.verse_world.step` call on the frozen battle state; the dice come
from a :class:`~rules_lib.dice.SeededDice` made from the seed input, so a seed replays the same
battle. Buttons whose action is not legal now are disabled (never added or removed); an illegal
step tried anyway is refused with its reason and the state is left as it was.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..dice import percent
from ..verse_world import (
    Attack,
    CriticalRule,
    Delay,
    EndAction,
    EndTurn,
    Move,
    Reload,
    RollInitiative,
    StandUp,
    TryExtraAction,
    board_html,
    describe_odds,
    extra_action_odds,
    first_to_act_chance,
    is_legal,
    locomotion_mode,
    mode_mp_odds,
    mp_drain_odds,
    new_battle,
    units_html,
)
from ..verse_world.figures import status_line
from .base import BattleCalculator
from .layout import LABEL_STYLE, inline_row

#: The critical rule of the widget's battles: double sixes. **Not in the source text** (004 never defines criticals).
CRITICALS = CriticalRule.natural_total(12)


def _start():
    """The battle's start with the widget's critical rule (a reading the reader does not choose here)."""
    return new_battle(criticals=CRITICALS)
#: The locomotion modes the sample mecha are fitted for (walking, Lance's thrusters, the Bandit's spinner).
MODES = ("walk", "thruster", "roller")


class FirstBattle(BattleCalculator):
    """Lance (player side) against the Bandit (GM side) on the square map, one button per kind of action."""

    start = staticmethod(_start)
    opening = ": roll initiative"

    def __init__(self, seed: int = 1) -> None:
        self.initiative = widgets.Button(description="Initiative", tooltip="initiative bonus + 2D6 (004 §3-4-1)")
        self.delay = widgets.Button(description="Delay", tooltip="act at initiative value 0 (004 §3-4-1)")
        self.end_action = widgets.Button(description="End action", tooltip="this unit's action is over")
        self.extra_action = widgets.Button(description="Extra action", tooltip="the re-action contest (004 §3-4-1)")
        self.end_turn = widgets.Button(description="End turn", tooltip="the pilots' MP drain (004 §3-4-1, line 21)")
        self.mode = widgets.Dropdown(
            options=[(f"{locomotion_mode(m).english} ({locomotion_mode(m).japanese})", m) for m in MODES],
            value="walk", description="locomotion", style=LABEL_STYLE, layout=inline_row("20em"))
        self.move_forward = widgets.Button(description="Move forward", tooltip="one square ahead (004 §3-4-2-1)")
        self.move_backward = widgets.Button(description="Move backward", tooltip="one square back (004 §3-4-2-1)")
        self.turn_left = widgets.Button(description="Turn left", tooltip="90 degrees (004 §3-4-2-1)")
        self.turn_right = widgets.Button(description="Turn right", tooltip="90 degrees (004 §3-4-2-1)")
        self.weapon = widgets.Dropdown(options=["-"], description="weapon", style=LABEL_STYLE,
                                       layout=inline_row("20em"))
        self.charge = widgets.Checkbox(value=False, description="as a charge (突撃)", indent=False, style=LABEL_STYLE,
                                       layout=widgets.Layout(width="auto", max_width="100%"))
        self.attack = widgets.Button(description="Attack", tooltip="attack roll against evasion (004 §3-4-2-2)")
        self.reload = widgets.Button(description="Reload", tooltip="a spare magazine, the whole action (004 §3-4-2-3)")
        self.stand_up = widgets.Button(description="Stand up", tooltip="the whole action (004 §3-4-3-1)")
        self.moves = {"forward": self.move_forward, "backward": self.move_backward,
                      "turn-left": self.turn_left, "turn-right": self.turn_right}
        super().__init__(seed, [
            widgets.HBox([self.initiative, self.delay, self.end_action, self.extra_action, self.end_turn]),
            widgets.HBox([self.mode, self.move_forward, self.move_backward, self.turn_left, self.turn_right]),
            widgets.HBox([self.weapon, self.charge, self.attack, self.reload, self.stand_up]),
        ], new_battle_tooltip="start again with this seed's dice")
        self.initiative.on_click(lambda _: self.do(RollInitiative()))
        self.delay.on_click(lambda _: self.do(Delay(self._actor())))
        self.end_action.on_click(lambda _: self.do(EndAction(self._actor())))
        self.extra_action.on_click(lambda _: self.do(TryExtraAction()))
        self.end_turn.on_click(lambda _: self.do(EndTurn()))
        for label, button in self.moves.items():
            button.on_click(lambda _, label=label: self.do(self.move_action(label)))
        self.attack.on_click(lambda _: self.do(self.attack_action()))
        self.reload.on_click(lambda _: self.do(Reload(self._actor(), self.weapon.value)))
        self.stand_up.on_click(lambda _: self.do(StandUp(self._actor())))
        for control in (self.mode, self.weapon, self.charge):
            control.observe(lambda _: self._refresh(), names="value")
        self._started("a new battle")

    # -- actions ------------------------------------------------------------------------

    def move_action(self, label: str) -> Move:
        return Move(self._actor(), (label,), self.mode.value)

    def attack_action(self) -> Attack:
        return Attack(self._actor(), self.weapon.value, charge=self.charge.value)

    # -- display ------------------------------------------------------------------------

    def _show(self, message: str) -> None:
        state = self.state
        if state.actor is not None:
            self._options(self.weapon, [w.name for w in state.unit(state.actor).weapons])
            if state.current.mode is not None and self.mode.value != state.current.mode:
                self.mode.value = state.current.mode
        self._show_common(status_line(state), None, units_html(state), f"<p>{message}</p>")
        self._refresh()

    def _refresh(self) -> None:
        state, actor = self.state, self._actor()
        self.initiative.disabled = not is_legal(state, RollInitiative())
        self.delay.disabled = not is_legal(state, Delay(actor))
        self.end_action.disabled = not is_legal(state, EndAction(actor))
        self.extra_action.disabled = not is_legal(state, TryExtraAction())
        self.end_turn.disabled = not is_legal(state, EndTurn())
        for label, button in self.moves.items():
            button.disabled = not is_legal(state, self.move_action(label))
        self.attack.disabled = not is_legal(state, self.attack_action())
        self.reload.disabled = not is_legal(state, Reload(actor, self.weapon.value))
        self.stand_up.disabled = not is_legal(state, StandUp(actor))
        acting = state.phase == "action"
        self.mode.disabled = not acting or state.current.mode is not None
        self.weapon.disabled = self.charge.disabled = not acting
        self.board.value = board_html(state, mode=self.mode.value)
        self.odds.value = self._odds()

    def _odds(self) -> str:
        state = self.state
        lines = []
        if state.phase == "initiative":
            first = state.units[0]
            p = first_to_act_chance(state)
            lines.append(f"chance that {first.name} acts first: {p} ({percent(p)})")
        elif state.phase == "end-of-turn":
            p = extra_action_odds(state)
            if p is not None and not state.extra_tried:
                lines.append(f"chance to win the extra action: {p} ({percent(p)})")
            drain = mp_drain_odds()
            lines.append("each pilot's MP loss: " + ", ".join(f"{v} ({percent(q)})" for v, q in drain.items()))
        elif state.phase == "action":
            if not self.attack.disabled:
                lines.append(describe_odds(state, self.attack_action()))
            if state.current.mode is None and self.mode.value != "walk":
                cost = mode_mp_odds(self.mode.value)
                lines.append(f"{self.mode.value} costs mecha MP {locomotion_mode(self.mode.value).mecha_mp_per_turn} "
                             f"this turn: mean {float(cost.mean()):.2f}")
        return "".join(f"<p>{html.escape(line)}</p>" for line in lines)
