"""The Verse World first-battle widget, driven through its buttons to the end of a battle."""

from __future__ import annotations

from rules_lib.browser import LiveCalculator
from rules_lib.geometry.square import to_local
from rules_lib.verse_world import CriticalRule, describe_odds, new_battle
from rules_lib.widgets.verse_world_battle import CRITICALS, FirstBattle

BUTTONS = ("initiative", "delay", "end_action", "extra_action", "end_turn", "move_forward", "move_backward",
           "turn_left", "turn_right", "attack", "reload", "stand_up")


def _enabled(widget):
    return {name for name in BUTTONS if not getattr(widget, name).disabled}


def _flatten(widget):
    found = [widget]
    for child in getattr(widget, "children", ()):
        found.extend(_flatten(child))
    return found


def _choose(widget):
    """The button a plain player would press now: attack when it can, else close in, else end."""
    for name in ("initiative", "extra_action", "end_turn", "stand_up"):
        if not getattr(widget, name).disabled:
            return getattr(widget, name)
    for weapon in widget.weapon.options:
        widget.weapon.value = weapon
        if not widget.attack.disabled:
            return widget.attack
    state = widget.state
    me, enemy = state.unit(state.actor), state.opponent(state.actor)
    if not widget.mode.disabled:
        widget.mode.value = "walk"
    lateral, forward = to_local(me.pose.square, me.pose.facing, enemy.pose.square)
    if forward >= 1 and abs(lateral) <= 1 or forward > abs(lateral):
        wanted = widget.move_forward
    else:
        wanted = widget.turn_right if lateral >= 0 else widget.turn_left
    return wanted if not wanted.disabled else widget.end_action


def _play_to_the_end(widget, limit=400):
    clicks = []
    for _ in range(limit):
        if widget.state.phase == "over":
            return clicks
        button = _choose(widget)
        assert not button.disabled
        before = widget.state
        button.click()
        assert widget.state is not before, widget.message.value
        clicks.append(button.description)
    raise AssertionError("the battle did not end")


def test_it_constructs_without_arguments_and_in_the_live_runtime():
    widget = FirstBattle()
    assert widget.state == new_battle(criticals=CRITICALS)
    assert _enabled(widget) == {"initiative"}
    assert "not in the source text" in CRITICALS.name
    assert "acts first: 575/1296" in widget.odds.value
    live = LiveCalculator("rules_lib.widgets.verse_world_battle:FirstBattle")
    shape = live.shape()
    live.click(live.widgets.index(live.root.initiative), '{"event": "click"}')
    assert live.root.state.phase == "action"
    assert live.shape() == shape


def test_a_full_battle_through_the_buttons():
    widget = FirstBattle(seed=7)
    children = _flatten(widget)
    clicks = _play_to_the_end(widget)
    state = widget.state
    assert state.phase == "over"
    for name in ("Initiative", "Move forward", "Attack", "End action", "End turn"):
        assert name in clicks, name
    assert clicks.count("Initiative") == state.turn >= 2
    assert "the battle is over" in widget.status.value
    assert _enabled(widget) == set() and not widget.new_battle.disabled
    assert _flatten(widget) == children  # the tree kept its shape
    assert state.log[-1] in widget.log_view.value.replace("&#x27;", "'")


def test_one_turn_step_by_step():
    widget = FirstBattle(seed=3)
    widget.initiative.click()
    actor = widget.state.actor
    assert _enabled(widget) >= {"delay", "end_action", "move_forward"}
    assert "attack" not in _enabled(widget)  # nobody is in reach yet
    widget.mode.value = "thruster" if actor == "Lance" else "roller"
    widget.move_forward.click()
    assert widget.state.current.mode == widget.mode.value and widget.mode.disabled
    assert widget.state.unit(actor).mecha_mp < new_battle(criticals=CRITICALS).unit(actor).mecha_mp
    widget.end_action.click()
    other = widget.state.actor
    assert other != actor
    widget.end_action.click()
    assert widget.state.phase == "end-of-turn"
    if not widget.extra_action.disabled:
        assert "chance to win the extra action" in widget.odds.value
        widget.extra_action.click()
    while widget.state.phase == "action":  # a won extra action
        widget.end_action.click()
    mp = [u.pilot_mp for u in widget.state.units]
    widget.end_turn.click()
    assert widget.state.turn == 2 and widget.state.phase == "initiative"
    assert all(after < before for after, before in zip((u.pilot_mp for u in widget.state.units), mp, strict=True))


def test_an_illegal_click_is_refused_and_changes_nothing():
    widget = FirstBattle(seed=5)
    widget.initiative.click()
    state = widget.state
    assert widget.attack.disabled
    widget.attack.click()  # a disabled button's click still reaches the handler: the library refuses it
    assert widget.state is state
    assert "refused" in widget.message.value and "front squares" in widget.message.value
    widget.end_turn.click()
    assert widget.state is state and "refused" in widget.message.value


def test_the_seed_replays_the_battle_and_new_battle_resets():
    first, second = FirstBattle(seed=11), FirstBattle(seed=11)
    _play_to_the_end(first)
    _play_to_the_end(second)
    assert first.state == second.state
    first.seed.value = 12
    first.new_battle.click()
    assert first.state == new_battle(criticals=CRITICALS) and _enabled(first) == {"initiative"}
    assert "seed 12" in first.message.value


def test_the_odds_shown_are_the_library_odds():
    widget = FirstBattle(seed=2)
    for _ in range(200):
        if not widget.attack.disabled:
            break
        if widget.state.phase == "over":
            raise AssertionError("no attack offered")
        _choose(widget).click()
    action = widget.attack_action()
    assert describe_odds(widget.state, action).replace("'", "&#x27;") in widget.odds.value
    assert isinstance(widget.state.rules.criticals, CriticalRule)
