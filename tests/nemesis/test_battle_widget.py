"""The Nemesis first battle widget, driven through its buttons to the end of a battle."""

from __future__ import annotations

from dataclasses import replace

from rules_lib.browser import LiveCalculator
from rules_lib.dice import SeededDice
from rules_lib.nemesis import ChooseOrder, RollActionDice, Shoot, new_battle, step
from rules_lib.widgets.nemesis_battle import FirstBattle

#: the order a simple player tries the buttons in: fight whenever possible, never concede
PREFERENCE = ("roll", "open_A", "open_B", "first", "armour", "damage", "melee", "shoot", "approach", "response", "end")


def _flatten(widget):
    found = [widget]
    for child in getattr(widget, "children", ()):
        found.extend(_flatten(child))
    return found


def _play(widget, max_clicks=400):
    """Click the first enabled button in PREFERENCE order until the battle is over."""
    clicks = []
    for _ in range(max_clicks):
        if widget.state.phase == "over":
            return clicks
        kind = next(k for k in PREFERENCE if not widget.buttons[k].disabled)
        if kind == "approach":
            widget.active_spent.value = widget.state.unit(widget.state.actor).active
        before = widget.state
        widget.buttons[kind].click()
        assert widget.state is not before, widget.message.value
        clicks.append(kind)
    raise AssertionError("the battle did not end")


def test_it_constructs_without_arguments_and_in_the_live_runtime():
    widget = FirstBattle()
    assert widget.state == new_battle()
    assert not widget.roll.disabled
    assert all(b.disabled for k, b in widget.buttons.items() if k != "roll")
    live = LiveCalculator("rules_lib.widgets.nemesis_battle:FirstBattle")
    shape = live.shape()
    live.click(live.widgets.index(live.root.roll), '{"event": "click"}')
    assert live.root.state.phase == "order"
    changes = live.click(live.widgets.index(live.root.go_first), '{"event": "click"}')
    assert live.root.state.phase == "acting" and "acting" in changes
    assert live.shape() == shape


def test_a_whole_battle_through_the_buttons():
    widget = FirstBattle(seed=11)
    children = _flatten(widget)
    clicks = _play(widget)
    state = widget.state
    assert state.phase == "over" and state.winner in ("A", "B") and "torso" in state.end_reason
    assert state.turn >= 2 and clicks.count("roll") == state.turn
    for kind in ("roll", "first", "shoot", "armour", "damage", "end"):
        assert kind in clicks
    assert "the battle is over" in widget.status.value
    assert "destroyed" in widget.message.value
    assert all(b.disabled for b in widget.buttons.values()) and not widget.new_battle.disabled
    assert _flatten(widget) == children  # the tree kept its shape
    # the same seed replays the same battle
    again = FirstBattle(seed=11)
    assert _play(again) == clicks and again.state == state
    # a new battle resets to turn 1
    widget.seed.value = 12
    widget.new_battle.click()
    assert widget.state == new_battle() and not widget.roll.disabled and widget.state.log == new_battle().log


def test_several_seeds_reach_the_end():
    for seed in range(1, 6):
        widget = FirstBattle(seed=seed)
        _play(widget)
        assert widget.state.phase == "over"


def test_the_buttons_apply_library_steps_with_the_seeded_dice():
    widget = FirstBattle(seed=3)
    dice = SeededDice(3)
    widget.roll.click()
    expected = step(new_battle(), RollActionDice(), dice).state
    assert widget.state == expected
    widget.go_first.click()
    expected = step(expected, ChooseOrder(expected.chooser, True), dice).state
    assert widget.state == expected
    assert "the exact odds" in widget.odds.value or widget.shoot.disabled


def test_an_illegal_step_is_refused_and_changes_nothing():
    widget = FirstBattle(seed=2)
    before = widget.state
    widget.shoot.click()  # disabled, but a click must still be refused
    assert widget.state is before and "refused:" in widget.message.value
    assert "action decision" in widget.message.value
    widget.roll.click()
    widget.go_first.click()
    state = widget.state
    unit = state.unit(state.actor)
    # a face the rifle does not fire on, or that is not in hand
    wrong = next(f for f in range(1, 7) if f not in (3, 4))
    widget.weapon.value = "assault_rifle"
    widget.die.value = wrong
    assert widget.shoot.disabled
    widget.shoot.click()
    assert widget.state is state and widget.state == replace(state)
    assert "refused:" in widget.message.value
    assert ("does not match" in widget.message.value) or ("left" in widget.message.value)
    # giving up dice that are not there
    widget.give_up.value = "6,6,6" if unit.dice.count(6) < 3 else "1,1"
    widget.response.click()
    assert widget.state is state and "refused:" in widget.message.value
    # the other side cannot act out of turn: the library refuses it too
    assert widget.do(Shoot("B" if state.actor == "A" else "A", "assault_rifle", 4)) is None
    assert widget.state is state and "not" in widget.message.value
