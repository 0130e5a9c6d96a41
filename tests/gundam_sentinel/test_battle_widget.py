"""The Gundam Sentinel first-battle widget, driven through its buttons: a full round, then a battle to its end."""

from __future__ import annotations

from rules_lib.browser import LiveCalculator
from rules_lib.dice import SeededDice
from rules_lib.geometry.hex import Hex
from rules_lib.gundam_sentinel import Fire, Move, new_battle, step
from rules_lib.widgets.gundam_sentinel_battle import FirstBattle


def _flatten(widget):
    found = [widget]
    for child in getattr(widget, "children", ()):
        found.extend(_flatten(child))
    return found


def _next_button(widget):
    """What a simple player clicks: a choice a chart result asks, initiative, AP, fire when a weapon can,
    close in, else end the phase."""
    if not widget.choose.disabled:  # a chart result waits for the player: the first answer offered
        return widget.choose
    if not widget.initiative.disabled:
        return widget.initiative
    if not widget.action_points.disabled:
        return widget.action_points
    for weapon in widget.weapon.options:
        widget.weapon.value = weapon
        if not widget.fire.disabled:
            return widget.fire
    if widget.state.distance > 3 and not widget.move_ahead.disabled:
        return widget.move_ahead
    return widget.end_phase


def _click(widget, button):
    assert not button.disabled, button.description
    before = widget.state
    button.click()
    assert widget.state is not before, widget.message.value
    return button.description


def test_it_constructs_without_arguments_and_in_the_live_runtime():
    widget = FirstBattle()
    assert widget.state == new_battle()
    assert not widget.initiative.disabled
    for name, button in widget.buttons.items():
        assert button.disabled == (name != "initiative"), name
    assert "<svg" in widget.board.value and "initiative chances" in widget.odds.value
    live = LiveCalculator("rules_lib.widgets.gundam_sentinel_battle:FirstBattle")
    shape = live.shape()
    live.click(live.widgets.index(live.root.initiative), '{"event": "click"}')
    assert live.root.state.phase == "action points"
    live.click(live.widgets.index(live.root.action_points), '{"event": "click"}')
    assert live.root.state.phase == "act"
    assert live.shape() == shape


def test_a_full_round_through_the_buttons_matches_the_library():
    widget = FirstBattle(seed=3)
    children = _flatten(widget)
    applied, original = [], widget.do
    widget.do = lambda action: (applied.append(action), original(action))[1]
    clicks = []
    while widget.state.round == 1:
        clicks.append(_click(widget, _next_button(widget)))
    assert _flatten(widget) == children  # the tree keeps its shape
    assert clicks[0] == "Initiative" and clicks.count("Action points") == 2 and clicks.count("End phase") == 2
    assert widget.state.phase == "initiative" and "round 1 ends" in widget.message.value
    assert "round 1 ends" in widget.log_view.value
    # the same actions through the library with the same seed give the same state
    state, dice = new_battle(), SeededDice(3)
    for action in applied:
        state = step(state, action, dice).state
    assert state == widget.state


def test_a_battle_to_its_end_and_a_new_one():
    widget = FirstBattle(seed=7)
    clicks = []
    for _ in range(3000):
        if widget.state.phase == "over":
            break
        clicks.append(_click(widget, _next_button(widget)))
    state = widget.state
    assert state.phase == "over" and state.winner in ("Zaku II", "Nouvelle GM III")
    assert {"Initiative", "Action points", "Move ahead", "Fire", "End phase"} <= set(clicks)
    assert "the battle is over" in widget.status.value and "destroyed" in widget.message.value
    assert all(button.disabled for button in widget.buttons.values())
    assert not widget.new_battle.disabled
    widget.seed.value = 7
    widget.new_battle.click()
    assert widget.state == new_battle() and not widget.initiative.disabled
    again = []
    for _ in range(len(clicks)):
        again.append(_click(widget, _next_button(widget)))
    assert again == clicks and widget.state == state  # the seed replays the battle


def test_an_illegal_step_is_refused_and_changes_nothing():
    widget = FirstBattle(seed=1)
    widget.initiative.click()
    widget.action_points.click()
    before = widget.state
    actor = before.actor
    behind = before.unit(actor).position.neighbour((before.unit(actor).facing + 3) % 6)
    assert widget.do(Move(actor, behind)) is None
    assert "refused" in widget.message.value and "behind the unit" in widget.message.value
    assert widget.state is before
    assert widget.do(Fire(actor, before.unit(actor).weapons[0].name)) is None
    assert "out of range" in widget.message.value and widget.state is before
    other = before.opponent(actor).name
    assert widget.do(Move(other, "ahead")) is None and "phase, not the" in widget.message.value
    assert widget.fire.disabled and widget.state is before
    assert widget.do(Move(actor, Hex(5, 5))) is None and widget.state is before


def test_a_chart_result_the_sheet_cannot_settle_is_a_choice_in_the_widget():
    widget = FirstBattle(seed=23)
    for _ in range(3000):
        if not widget.choose.disabled:
            break
        _click(widget, _next_button(widget))
    state = widget.state
    assert state.unit("Nouvelle GM III").pending and "chooses what a chart result did" in widget.status.value
    # this seed's critical hit chart took the small missiles before (ECHC 4): the beam rifle is left to hold
    assert "ECHC 4" in state.unit("Nouvelle GM III").weapon("small missiles").lost
    assert list(widget.choice.options) == ["the left arm, holding the beam rifle", "the left arm, holding no weapon"]
    assert all(button.disabled for button in widget.buttons.values()) and widget.fire.disabled
    assert "which weapon did the left arm hold?" in widget.message.value
    widget.choice.value = "the left arm, holding the beam rifle"
    _click(widget, widget.choose)
    gm = widget.state.unit("Nouvelle GM III")
    assert gm.weapon("beam rifle").lost and not gm.pending and widget.choose.disabled
    assert "beam rifle lost" in widget.units.value and "left arm broken" in widget.units.value
