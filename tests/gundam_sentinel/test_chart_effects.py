"""Every chart effect the guided battle applies: after it, the action it forbids is refused with a
message citing the entry, and what it allows is still legal (the charts: BCDice's, not in 000)."""

from __future__ import annotations

from dataclasses import replace

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
    is_legal,
    legal_actions,
    new_battle,
    play,
    step,
)
from rules_lib.gundam_sentinel.battle_effects import options, waiting
from rules_lib.gundam_sentinel.battle_odds import fire_odds
from rules_lib.gundam_sentinel.figures import status_line, units_html

from .test_charts_battle import BEFORE_SALVO, OPENING, G, Z

MG, RIFLE, MISSILES = "Zaku machine gun", "beam rifle", "small missiles"


def _at(actions, state=None):
    return play(state or new_battle(), actions)[-1].state


def _critical(total_dice, state=None):
    """The Zaku II's machine gun crits the mook Nouvelle GM III (63 +4 steps = 71) and the critical hit
    chart shows ``total_dice``; 9 damage, 4 through; the additional-damage 10 is over 5."""
    state = state or _at(OPENING)
    return step(state, Fire(Z, MG, dice=(6, 3, *total_dice, 4, 3, 5, 5)))


def _secondary(cell, extra=(), state=None):
    """The Nouvelle GM III's salvo hits the Zaku II's body for 6 through and reads SDDC ``cell``."""
    return step(state or _at(BEFORE_SALVO), Fire(G, MISSILES, dice=(3, 6, 3, 2, 1, 2, *cell, *extra)))


def _zaku_acts(state):
    """From the Nouvelle GM III's phase to the Zaku II's next act phase, with 7 AP."""
    return _at([EndPhase(G), RollInitiative(dice=(5, 4, 3, 3)), RollAP(Z, dice=(5,))], state)


def _gm_acts(state):
    """From the Zaku II's phase to the Nouvelle GM III's act phase, with 7 AP."""
    return _at([EndPhase(Z), RollAP(G, dice=(6,))], state)


def _reloaded(state):
    """The Nouvelle GM III's launcher full again and 6 AP, for another salvo in the same phase."""
    gm = state.unit(G)
    return replace(state, units=state._with(replace(gm, weapons=tuple(replace(w, ammo=15) for w in gm.weapons))), ap=6)


def _refused(state, action, *words):
    with pytest.raises(IllegalStep) as refusal:
        step(state, action)
    assert not is_legal(state, action)
    for word in words:
        assert word in str(refusal.value), (word, str(refusal.value))
    return str(refusal.value)


def _with_weapons(state, name, **mounts):
    """``state`` with the named unit's weapons mounted as given (the sample sheets do not say)."""
    unit = state.unit(name)
    weapons = tuple(replace(w, mount=mounts.get(w.name.replace(" ", "_"), w.mount)) for w in unit.weapons)
    return replace(state, units=state._with(replace(unit, weapons=weapons)))


# -- a choice the sheet cannot make holds the battle until it is made -------------------------------------


def test_a_waiting_choice_is_the_only_legal_action_and_names_its_entry():
    result = _critical((1, 2))  # ECHC 3, arm broken
    state = result.state
    assert status_line(state) == "round 1: the Nouvelle GM III's player chooses what a chart result did"
    assert all(isinstance(a, Choose) and a.unit == G for a in legal_actions(state))
    assert "a choice for the Nouvelle GM III's player (enemy MS critical hit chart ECHC 3" in result.explanation[-1]
    _refused(state, EndPhase(Z), "first the Nouvelle GM III's player chooses", "ECHC 3, arm broken (腕破損)")
    _refused(state, Choose(G, "the head"), "option 'the head'", "allowed are 'the right arm, holding the small missiles'")
    _refused(state, Choose(Z, "the right arm, holding the beam rifle"), "the Nouvelle GM III's player's, not the Zaku II's")
    _refused(_at(OPENING), Choose(G, "anything"), "nothing to choose")
    with pytest.raises(IllegalStep, match="first the Nouvelle GM III's player chooses"):
        fire_odds(replace(state, ap=3), Fire(Z, MG))  # no odds for a shot the battle would refuse
    assert "waiting for its player" in units_html(state)


# -- the critical hit chart (ECHC), against the mook Nouvelle GM III ---------------------------------------


def test_echc_3_the_broken_arm_takes_its_weapon_and_asks_for_a_morale_check():
    state = _critical((1, 2)).state
    assert [a.option for a in legal_actions(state)] == [
        f"the {arm}, holding {what}" for arm in ("right arm", "left arm")
        for what in ("the small missiles", "the beam rifle", "no weapon")]
    armless = step(state, Choose(G, "the right arm, holding the beam rifle")).state
    gm = armless.unit(G)
    assert gm.weapon(RIFLE).lost and gm.broken_arms[0][0] == "right arm"
    assert any("cannot swap hand-held weapons (enemy MS critical hit chart ECHC 3)" in c for c in gm.conditions)
    # the morale check at -4: 000 has no morale rule, so its result is the player's choice
    assert [a.option for a in legal_actions(armless)] == ["it holds: it fights on", "it breaks: it leaves the battle"]
    assert "morale check (モラル判定) at -4" in "\n".join(armless.log[-2:])
    held = _gm_acts(step(armless, Choose(G, "it holds: it fights on")).state)
    _refused(held, Fire(G, RIFLE), "lost its beam rifle", "ECHC 3, arm broken (腕破損)")
    assert is_legal(held, Fire(G, MISSILES)) and is_legal(held, Move(G, "ahead"))
    with pytest.raises(IllegalStep, match="lost its beam rifle"):
        fire_odds(held, Fire(G, RIFLE))  # the odds refuse what the battle refuses
    assert "beam rifle lost" in units_html(held)


def test_echc_3_a_failed_morale_check_ends_the_battle():
    state = _at([Choose(G, "the left arm, holding no weapon"), Choose(G, "it breaks: it leaves the battle")],
                _critical((1, 2)).state)
    assert state.phase == "over" and state.winner == Z and state.unit(G).withdrawn
    assert legal_actions(state) == () and "breaks and leaves the battle" in "\n".join(state.log)
    assert state.unit(G).empty_hands == ("left hand",) and not state.unit(G).weapon(RIFLE).lost


def test_echc_3_the_other_arm_is_all_that_is_left_to_break():
    state = _at([Choose(G, "the right arm, holding the beam rifle"), Choose(G, "it holds: it fights on")],
                _critical((1, 2)).state)
    again = _critical((1, 2), replace(state, ap=3)).state
    assert [a.option for a in legal_actions(again)] == ["the left arm, holding the small missiles",
                                                        "the left arm, holding no weapon"]


def test_echc_3_with_both_arms_broken_still_asks_for_morale():
    state = _at([Choose(G, "the right arm, holding no weapon"), Choose(G, "it holds: it fights on")],
                _critical((1, 2)).state)
    state = _at([Choose(G, "the left arm, holding no weapon"), Choose(G, "it holds: it fights on")],
                _critical((1, 2), replace(state, ap=3)).state)
    result = _critical((1, 2), replace(state, ap=3))
    assert "both arms are already broken" in "\n".join(result.explanation)
    assert [a.option for a in legal_actions(result.state)] == ["it holds: it fights on", "it breaks: it leaves the battle"]


def test_echc_4_loses_the_first_weapon_on_the_sheet_and_the_last_one_asks_for_morale():
    result = _critical((2, 2))
    gm = result.state.unit(G)
    assert gm.weapon(MISSILES).lost and not gm.weapon(RIFLE).lost and not gm.pending
    assert "it still has a weapon (beam rifle): no morale check" in "\n".join(result.explanation)
    later = _gm_acts(result.state)
    _refused(later, Fire(G, MISSILES), "lost its small missiles", "ECHC 4, shooting weapon broken (射撃武装破損)")
    assert is_legal(later, Fire(G, RIFLE))
    # a second one takes the beam rifle too: with every weapon lost, the morale check
    last = _critical((2, 2), replace(result.state, ap=3)).state
    assert last.unit(G).usable_weapons == ()
    assert [a.option for a in legal_actions(last)] == ["it holds: it fights on", "it breaks: it leaves the battle"]
    unarmed = _gm_acts(step(last, Choose(G, "it holds: it fights on")).state)
    _refused(unarmed, Fire(G, RIFLE), "lost its beam rifle")
    assert is_legal(unarmed, Move(G, "ahead"))


def test_echc_5_head_weapons_are_asked_for_one_by_one_and_a_known_one_is_lost_at_once():
    state = _critical((2, 3)).state
    headless = _at([Choose(G, "the small missiles: not on the head"), Choose(G, "the beam rifle: on the head, lost")],
                   state)
    later = _gm_acts(headless)
    _refused(later, Fire(G, RIFLE), "ECHC 5, head hit (頭部直撃)")
    unhurt = replace(later, units=later._with(replace(later.unit(G), to_hit_modifier=0)))
    assert fire_odds(later, Fire(G, MISSILES)).modifier == fire_odds(unhurt, Fire(G, MISSILES)).modifier - 6
    # a sheet that says where its weapons are settles the head hit with no question
    known = _with_weapons(_at(OPENING), G, beam_rifle="head", small_missiles="other")
    result = _critical((2, 3), known)
    assert not result.state.unit(G).pending and result.state.unit(G).weapon(RIFLE).lost
    assert "the beam rifle: on the head, lost, the only answer the sheet leaves" in "\n".join(result.explanation)


def test_a_lost_camera_counts_once_at_its_worst():
    state = replace(_at(OPENING), ap=9)
    camera = step(state, Fire(Z, MG, dice=(4, 5, 4, 3, 2, 2, 1, 2))).state  # SDDC 12: main camera, -3
    assert camera.unit(G).to_hit_modifier == -3
    head = _critical((2, 3), camera).state  # ECHC 5 loses the main camera too: -6 in all, not -9
    assert head.unit(G).to_hit_modifier == -6 and head.unit(G).lost_parts == (("main camera", -6),)


def test_sddc_12_then_33_loses_the_main_camera_once():
    again = _reloaded(_secondary((1, 2)).state)  # SDDC 12
    result = _secondary((3, 3), state=again)  # SDDC 33: the head, and the main camera with it
    zaku = result.state.unit(Z)
    assert zaku.to_hit_modifier == -3 and zaku.lost_parts == (("main camera", -3),)
    assert "its main camera is already lost (-3 counted)" in "\n".join(result.explanation)
    sub = _secondary((2, 6), state=again).state.unit(Z)  # the sub camera is another part
    assert sub.to_hit_modifier == -4


# -- the secondary damage chart (SDDC), on the Zaku II -----------------------------------------------------


@pytest.mark.parametrize(("cell", "arm"), [((1, 4), "right arm"), ((1, 5), "left arm")])
def test_sddc_14_15_the_arm_loses_its_weapon_and_can_use_none(cell, arm):
    state = _secondary(cell).state
    assert [a.option for a in legal_actions(state)] == [f"the {arm}, holding the {MG}", f"the {arm}, holding no weapon"]
    lost = _zaku_acts(step(state, Choose(Z, f"the {arm}, holding the {MG}")).state)
    entry = f"SDDC {cell[0]}{cell[1]}, {arm} damaged"
    _refused(lost, Fire(Z, MG), "lost its Zaku machine gun", entry)
    assert is_legal(lost, Move(Z, "ahead")) and is_legal(lost, Turn(Z, 1))
    empty = _zaku_acts(step(state, Choose(Z, f"the {arm}, holding no weapon")).state)
    assert is_legal(empty, Fire(Z, MG)) and dict(empty.unit(Z).broken_arms)[arm].startswith("secondary damage chart")


def test_sddc_14_a_weapon_the_broken_arm_used_cannot_be_used():
    # the sheet says two weapons are used by the right arm: one is lost with it, the other can no longer be used
    state = _at(BEFORE_SALVO)
    zaku = state.unit(Z)
    pistol = replace(zaku.weapons[0], name="arm gun", japanese="", mount="right hand")
    state = replace(state, units=state._with(replace(zaku, weapons=(replace(zaku.weapons[0], mount="right hand"), pistol))))
    result = _secondary((1, 4), state=state)
    assert [a.option for a in legal_actions(result.state)] == [f"the right arm, holding the {MG}",
                                                               "the right arm, holding the arm gun"]
    after = _zaku_acts(step(result.state, Choose(Z, f"the right arm, holding the {MG}")).state)
    _refused(after, Fire(Z, "arm gun"), "right arm is broken", "SDDC 14, right arm damaged (右腕損傷)",
             "it can use no weapon")
    _refused(after, Fire(Z, MG), "lost its Zaku machine gun")
    assert is_legal(after, Move(Z, "ahead"))


@pytest.mark.parametrize(("cell", "hand"), [((5, 2), "right hand"), ((5, 3), "left hand")])
def test_sddc_52_53_the_hand_weapon_is_lost_or_the_hand_was_empty(cell, hand):
    state = _secondary(cell).state
    assert [a.option for a in legal_actions(state)] == [f"the {hand} held the {MG}", f"the {hand} held no weapon"]
    lost = _zaku_acts(step(state, Choose(Z, f"the {hand} held the {MG}")).state)
    _refused(lost, Fire(Z, MG), f"SDDC {cell[0]}{cell[1]}")
    assert is_legal(lost, Move(Z, "ahead"))
    empty = step(state, Choose(Z, f"the {hand} held no weapon")).state
    assert empty.unit(Z).empty_hands == (hand,) and is_legal(_zaku_acts(empty), Fire(Z, MG))


def test_sddc_52_after_the_arm_is_broken_there_is_nothing_left_to_lose():
    state = step(_secondary((1, 4)).state, Choose(Z, "the right arm, holding no weapon")).state
    result = _secondary((5, 2), state=_reloaded(state))
    assert not result.state.unit(Z).pending
    assert "that arm is already broken, its weapon lost with it: nothing more is lost" in "\n".join(result.explanation)


@pytest.mark.parametrize(("cell", "none"), [((3, 1), "it has no fixed weapon"),
                                            ((3, 2), "it carries no weapon but those in hand")])
def test_sddc_31_32_a_fixed_or_spare_weapon(cell, none):
    state = _secondary(cell).state
    assert [a.option for a in legal_actions(state)] == [f"the {MG}", none]
    lost = _zaku_acts(step(state, Choose(Z, f"the {MG}")).state)
    _refused(lost, Fire(Z, MG), f"SDDC {cell[0]}{cell[1]}")
    assert is_legal(lost, Move(Z, "ahead"))
    assert is_legal(_zaku_acts(step(state, Choose(Z, none)).state), Fire(Z, MG))
    # a sheet that says the machine gun is hand-held settles it: nothing is lost
    known = _with_weapons(_at(BEFORE_SALVO), Z, Zaku_machine_gun="right hand")
    result = _secondary(cell, state=known)
    assert not result.state.unit(Z).pending and f"{none}, the only answer the sheet leaves" in result.explanation[-1]


@pytest.mark.parametrize(("cell", "item"), [((2, 5), "spare magazine (Zaku machine gun)"), ((5, 5), "propellant tank")])
def test_sddc_25_55_an_item_is_lost_if_the_sheet_lists_one(cell, item):
    none = _secondary(cell)
    assert "carries no" in none.explanation[-1] and "its sheet lists none" in none.explanation[-1]
    state = _at(BEFORE_SALVO)
    carried = replace(state, units=state._with(replace(state.unit(Z), items=(item, "cable"))))
    result = _secondary(cell, state=carried).state
    assert result.unit(Z).items == ("cable",) and not result.unit(Z).pending


def test_sddc_25_asks_which_when_it_carries_both_kinds():
    state = _at(BEFORE_SALVO)
    carried = replace(state, units=state._with(replace(state.unit(Z), items=("spare magazine", "E-pack"))))
    result = _secondary((2, 5), state=carried).state
    assert [a.option for a in legal_actions(result)] == ["the spare magazine", "the E-pack"]
    assert step(result, Choose(Z, "the E-pack")).state.unit(Z).items == ("spare magazine",)


@pytest.mark.parametrize(("cell", "limit"), [((6, 4), 120), ((6, 5), 60)])
def test_sddc_64_65_turn_limits(cell, limit):
    state = _zaku_acts(_secondary(cell).state)
    too_wide = Turn(Z, limit // 60 + 1)
    _refused(state, too_wide, f"turn at most {limit} degrees", f"SDDC {cell[0]}{cell[1]}, sub thruster damaged"
             if limit == 120 else "main thruster damaged")
    assert is_legal(state, Turn(Z, limit // 60)) and is_legal(state, Turn(Z, -1))


def test_the_narrower_turn_limit_stands():
    result = _secondary((6, 4), state=_reloaded(_secondary((6, 5)).state))
    assert result.state.unit(Z).turn_limit[0] == 60 and "already turn only 60 degrees" in "\n".join(result.explanation)


def test_sddc_41_to_43_the_pilot_takes_damage_for_the_character_sheet():
    result = _secondary((4, 2), extra=(3, 4, 6, 6))  # moderate wound: 2D6, then a fainting check at -6
    zaku = result.state.unit(Z)
    assert zaku.pilot_damage == 7 and "pilot took 7 damage" in units_html(result.state)
    text = "\n".join(result.explanation)
    assert "the pilot takes 2D6 (3, 4) = 7 damage (7 in this battle)" in text and "character sheet" in text


def test_no_effect_is_left_as_a_bare_note():
    from rules_lib.gundam_sentinel.charts import get_chart

    for chart in ("ECHC", "SDDC"):
        for entry in get_chart(chart).entries:
            for effect in entry.effects:
                assert effect.kind in APPLIED, (chart, entry.term, effect.kind)


#: every effect kind the battle applies (battle_damage and battle_effects)
APPLIED = {"destroyed", "damage multiplier", "no damage", "to hit", "evasion", "faint", "faint check", "pilot damage",
           "extra AP", "cannot act", "lose weapon", "lose item", "morale check", "additional check", "initiative",
           "escape modifier", "escape check", "no additional move", "propellant", "AP die", "turn limit",
           "arm disabled", "no weapon swap"}


def test_options_are_empty_when_nothing_waits():
    state = _at(OPENING)
    assert waiting(state) is None
    gm = state.unit(G)
    decision = _critical((1, 2)).state.unit(G).pending[0]
    assert len(options(gm, decision)) == 6


def test_the_ship_chart_carries_what_its_entries_say():
    from rules_lib.gundam_sentinel.charts import Effect, get_chart

    asdc = get_chart("ASDC")
    assert Effect("anti-aircraft modifier", 5, which="once every bridge is damaged") in asdc.entry(2).effects
    assert Effect("no launch or landing", which="once every catapult is damaged") in asdc.entry(3).effects
