"""The guided battle reaches the charts: a critical against the mook, secondary damage, the escape chart."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from rules_lib.gundam_sentinel import (
    Choose,
    EndPhase,
    Fire,
    IllegalStep,
    Move,
    RollAP,
    RollInitiative,
    Turn,
    legal_actions,
    new_battle,
    play,
    step,
)
from rules_lib.gundam_sentinel.battle_odds import fire_odds
from rules_lib.gundam_sentinel.charts import chart_odds, get_chart
from rules_lib.gundam_sentinel.figures import units_html
from rules_lib.widgets.gundam_sentinel_battle import FirstBattle

Z, G = "Zaku II", "Nouvelle GM III"
#: the book's first round up to the Zaku II's shot (notebook 06)
OPENING = [RollInitiative(dice=(5, 4, 3, 3)), RollAP(Z, dice=(5,)), Move(Z, "ahead"), Move(Z, "ahead"),
           Move(Z, "right"), Turn(Z, -1), Move(Z, "ahead"), Turn(Z, 1)]
#: ... and to the Nouvelle GM III's salvo, the Zaku II's machine gun having hit for 4
BEFORE_SALVO = OPENING + [Fire(Z, "Zaku machine gun", dice=(4, 5, 4, 3, 5, 4)), EndPhase(Z), RollAP(G, dice=(6,))]


def _at(actions):
    return play(new_battle(), actions)[-1].state


def test_a_66_against_the_mook_reads_the_critical_hit_chart():
    state = _at(OPENING)
    odds = fire_odds(state, Fire(Z, "Zaku machine gun"))
    assert state.unit(G).mook and odds.critical == Fraction(5, 36)  # rolls 62..66, +4 steps: 66 or more
    result = step(state, Fire(Z, "Zaku machine gun", dice=(6, 3, 2, 3, 4, 3, 5, 5)))
    text = "\n".join(result.explanation)
    assert "critical hit chart" in text and "exact odds:" in text and "head hit" in text
    gm = result.state.unit(G)
    assert gm.to_hit_modifier == -6 and gm.durability == 22 and gm.lost_parts == (("main camera", -6),)
    # the sheet does not say which weapons are on the head: the GM's player answers, weapon by weapon
    assert legal_actions(result.state) == (Choose(G, "the small missiles: on the head, lost"),
                                           Choose(G, "the small missiles: not on the head"))
    answered = play(result.state, [Choose(G, "the small missiles: not on the head"),
                                   Choose(G, "the beam rifle: not on the head")])[-1].state
    # the head hit now costs it 6 steps on every shot
    later = play(answered, [EndPhase(Z), RollAP(G, dice=(6,))])[-1].state
    assert fire_odds(later, Fire(G, "beam rifle")).modifier == 1 + 1 - 6


def test_double_damage_and_loss_of_control():
    state = _at(OPENING)
    double = step(state, Fire(Z, "Zaku machine gun", dice=(6, 3, 4, 4, 4, 3, 6, 6))).state
    assert double.unit(G).durability == 26 - (9 * 2 - 5)
    lost = step(state, Fire(Z, "Zaku machine gun", dice=(6, 3, 5, 6, 2, 4, 3, 6, 6))).state
    assert lost.unit(G).disabled_until == 3
    after = step(lost, EndPhase(Z)).state
    with pytest.raises(IllegalStep, match="out of control"):
        step(after, RollAP(G, dice=(3,)))
    assert step(after, EndPhase(G)).state.round == 2


def test_secondary_damage_effects_change_the_unit():
    state = _at(BEFORE_SALVO)
    controls = step(state, Fire(G, "small missiles", dice=(3, 6, 3, 2, 1, 2, 3, 6))).state
    assert controls.unit(Z).extra_ap == 1 and "+1 AP per action" in units_html(controls)
    leg = step(state, Fire(G, "small missiles", dice=(3, 6, 3, 2, 1, 2, 3, 4, 2))).state
    assert leg.unit(Z).evasion_modifier == -2 and leg.unit(Z).evasion() == 52
    dud = step(state, Fire(G, "small missiles", dice=(3, 6, 3, 2, 1, 2, 1, 1))).state
    assert dud.unit(Z).durability == 24


def test_a_destroyed_pc_rolls_the_escape_chart_with_its_odds():
    state = _at(BEFORE_SALVO)
    result = step(state, Fire(G, "small missiles", dice=(3, 6, 3, 2, 1, 2, 6, 6, 2, 3, 4)))
    zaku = result.state.unit(Z)
    assert zaku.destroyed and result.state.winner == G
    assert zaku.pilot_fate.startswith("escapes with a light wound") and "takes 4" in zaku.pilot_fate
    text = "\n".join(result.explanation)
    odds = chart_odds(get_chart("PEJC"))
    assert "escape chart" in text and f"killed in action: promoted two ranks after death (戦死) {odds.of('killed')}" in text
    weak = replace(state, units=(replace(state.units[0], durability=5, fainted=True), state.units[1]))
    fainted = step(weak, Fire(G, "beam rifle", dice=(6, 6, 3, 6, 6))).state.unit(Z)
    assert fainted.destroyed and fainted.pilot_fate.startswith("killed")


def test_a_destroyed_mook_makes_no_escape_check_unless_the_rules_say_so():
    state = _at(OPENING)
    weak = replace(state, units=(state.units[0], replace(state.units[1], durability=3)))
    result = step(weak, Fire(Z, "Zaku machine gun", dice=(4, 5, 4, 3)))
    assert result.state.unit(G).destroyed and "makes none" in "\n".join(result.explanation)
    every = replace(weak, rules=replace(weak.rules, escape_for="every"))
    result = step(every, Fire(Z, "Zaku machine gun", dice=(4, 5, 4, 3, 1, 1)))
    assert result.state.unit(G).pilot_fate == "escapes unhurt"


def _next_button(widget):
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


CHART_NAMES = ("critical hit chart", "secondary damage chart", "escape chart")


@pytest.mark.parametrize("seed", [2])
def test_the_widget_reaches_a_chart_and_its_log_explains_it(seed):
    widget = FirstBattle(seed=seed)
    shown = []
    for _ in range(3000):
        if widget.state.phase == "over":
            break
        _next_button(widget).click()
        if any(name in widget.message.value for name in CHART_NAMES):
            shown.append(widget.message.value)
    assert shown, "no chart result in this seeded battle"
    assert all("exact odds:" in message for message in shown)
    log = "\n".join(widget.state.log)
    assert any(name in log for name in CHART_NAMES) and "BCDice" in log
    # this seed: a critical on the mook, then the Zaku II destroyed and its pilot on the escape chart
    assert "critical hit chart" in log and "escape chart" in log and widget.state.winner == G
    fate = widget.state.unit(Z).pilot_fate
    assert fate and fate in widget.units.value and "killed in action" in fate


def test_the_multiplier_reading_is_a_parameter():
    state = _at(OPENING)
    through = replace(state, rules=replace(state.rules, critical_multiplies="damage through armour"))
    result = step(through, Fire(Z, "Zaku machine gun", dice=(6, 3, 4, 4, 4, 3, 6, 6))).state
    assert result.unit(G).durability == 26 - (9 - 5) * 2


def test_ap_die_and_initiative_damage_carry_into_later_rounds():
    state = _at(BEFORE_SALVO)
    pipe = step(state, Fire(G, "small missiles", dice=(3, 6, 3, 2, 1, 2, 6, 2))).state
    sensors = step(state, Fire(G, "small missiles", dice=(3, 6, 3, 2, 1, 2, 4, 5))).state
    assert pipe.unit(Z).ap_die_modifier == -1 and sensors.unit(Z).initiative_modifier == -1
    after = play(pipe, [EndPhase(G), RollInitiative(dice=(5, 4, 3, 3))])[-1].state
    assert step(after, RollAP(Z, dice=(5,))).state.ap == 5 + 2 - 1
    tie = play(sensors, [EndPhase(G), RollInitiative(dice=(4, 4, 4, 5))])[-1]
    assert "2D6 4+4 + perception +0 = 8" in "\n".join(tie.explanation)  # perception +1, sensors -1


def test_chart_misuse_is_refused():
    from rules_lib.gundam_sentinel.charts import roll_chart

    with pytest.raises(ValueError, match="takes no target"):
        roll_chart("ECHC", (1, 1), target=3)
    with pytest.raises(ValueError, match="results, not effects"):
        chart_odds("AARC", target=3).of("killed")
