"""The WIS6 first battle widget, driven through its buttons to the end of a battle."""

from __future__ import annotations

from dataclasses import replace

from rules_lib.browser import LiveCalculator
from rules_lib.dice import SeededDice
from rules_lib.widgets.wis6_battle import FirstBattle
from rules_lib.wis6 import EndAction, MoveTo, RollOrder, legal_actions, new_battle, step
from rules_lib.wis6.battle import Attack


def _towards_enemy(widget):
    """A legal square next to (or nearest) the enemy, as a player would type it."""
    state = widget.state
    enemy = state.opponent(state.actor).square
    moves = [a.square for a in legal_actions(state) if isinstance(a, MoveTo)]
    return min(moves, key=lambda s: (max(abs(ord(s[0]) - ord(enemy.column)), abs(int(s[2:]) - enemy.row)), s))


def _play_to_the_end(widget, answer="counter"):
    """Click through a whole battle: order, then each action move / attack / end, until a unit is wrecked."""
    clicks = []
    for _ in range(400):
        if widget.state.phase == "over":
            return clicks
        if not widget.roll_order.disabled:
            button = widget.roll_order
        elif not widget.state.moved and not widget.state.attacked and not widget.move.disabled:
            widget.square.value = _towards_enemy(widget)
            button = widget.move
        else:
            # try every weapon and answer the buttons offer; the first enabled attack is clicked
            button = None
            for weapon in widget.weapon.options:
                widget.weapon.value = weapon
                for name in (answer, "evade"):
                    if not widget.buttons[name].disabled:
                        button = widget.buttons[name]
                        break
                if button is not None:
                    break
            if button is None:
                button = widget.end_action
        assert not button.disabled
        before = widget.state
        button.click()
        assert widget.state is not before, widget.message.value
        clicks.append(button.description)
    raise AssertionError("the battle did not end")


def test_it_constructs_without_arguments_and_in_the_live_runtime():
    widget = FirstBattle()
    assert widget.state == new_battle()
    assert not widget.roll_order.disabled
    for name in ("move", "jam", "end", "evade", "intercept", "counter"):
        assert widget.buttons[name].disabled
    live = LiveCalculator("rules_lib.widgets.wis6_battle:FirstBattle")
    shape = live.shape()
    index = live.widgets.index(live.root.roll_order)
    live.click(index, '{"event": "click"}')
    assert live.root.state.phase == "action"
    assert live.shape() == shape


def test_a_whole_battle_through_the_buttons():
    widget = FirstBattle(seed=7)
    children = _flatten(widget)
    clicks = _play_to_the_end(widget)
    state = widget.state
    assert state.phase == "over" and state.winner in ("Asuka", "Raider")
    assert "Roll order" in clicks and "Move" in clicks and "End action" in clicks
    assert any(c.startswith("Attack") for c in clicks)
    assert "wrecked (大破). The battle is over" in widget.message.value
    assert "the battle is over" in widget.status.value
    for button in widget.buttons.values():
        assert button.disabled
    assert not widget.new_battle.disabled
    assert _flatten(widget) == children  # the tree kept its shape
    # the same clicks replayed in the library give the same battle (the seed is the only source of dice)
    again = FirstBattle(seed=7)
    assert _play_to_the_end(again) == clicks and again.state == state
    # new battle resets
    widget.seed.value = 8
    widget.new_battle.click()
    assert widget.state == new_battle() and not widget.roll_order.disabled


def _flatten(widget):
    found = [widget]
    for child in getattr(widget, "children", ()):
        found.extend(_flatten(child))
    return found


def test_the_buttons_apply_library_steps_with_the_seeded_dice():
    widget = FirstBattle(seed=3, square="D-4")
    widget.roll_order.click()
    dice = SeededDice(3)
    expected = step(new_battle(), RollOrder(), dice).state
    assert widget.state == expected
    if expected.actor != "Asuka":
        widget.end_action.click()
        expected = step(expected, EndAction("Raider")).state
    widget.move.click()
    expected = step(expected, MoveTo("Asuka", "D-4")).state
    assert widget.state == expected
    widget.weapon.value = "rifle"
    assert not widget.attack_evade.disabled and widget.attack_intercept.disabled
    assert "Asuka&#x27;s rifle against Raider&#x27;s evasion" in widget.odds.value
    widget.attack_evade.click()
    assert widget.state == step(expected, Attack("Asuka", "rifle"), dice).state


def test_an_illegal_step_is_refused_and_changes_nothing():
    widget = FirstBattle(seed=2)
    before = widget.state
    widget.move.click()  # disabled, but a click must still be refused
    assert widget.state is before and "refused: the action order is not decided yet" in widget.message.value
    widget.roll_order.click()
    actor = widget.state.actor
    state = widget.state
    widget.square.value = "H-8" if actor == "Asuka" else "A-8"
    widget.move.click()
    assert widget.state is state and widget.state == replace(state)
    assert "refused:" in widget.message.value and "a move may go at most" in widget.message.value
    assert "ends its action" not in widget.message.value
    widget.square.value = "nowhere"
    widget.move.click()
    assert widget.state is state and "is not a name like &#x27;A-3&#x27;" in widget.message.value
    widget.weapon.value = widget.weapon.options[1]  # the melee weapon, range 1
    assert widget.attack_evade.disabled
    widget.attack_evade.click()  # out of range
    assert widget.state is state and "beyond the" in widget.message.value
