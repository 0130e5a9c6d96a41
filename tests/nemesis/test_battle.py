"""The Nemesis first battle: steps, refusals that change nothing, legal actions, and the odds shown."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.dice import SeededDice
from rules_lib.nemesis import (
    Approach,
    ArmourCheck,
    BattleRules,
    ChooseOrder,
    Concede,
    Damage,
    EndAction,
    IllegalStep,
    Melee,
    OpenMelee,
    ResponseAction,
    RollActionDice,
    Shoot,
    SwapWeapon,
    UnitState,
    board_html,
    decision_odds,
    initiative_chance,
    is_legal,
    legal_actions,
    new_battle,
    play,
    step,
)
from rules_lib.nemesis.battle import PHASES
from rules_lib.nemesis.battle_odds import damage_odds

RIFLE, BAYONET = "assault_rifle", "bayonet"


def run(state, *actions):
    """Apply the actions (given dice on each, as ``dice=(...)``); return the final state."""
    for action in actions:
        state = step(state, action).state
    return state


def turn_one():
    """The book's first turn (book/nemesis/06-first-battle.ipynb)."""
    return run(
        new_battle(),
        RollActionDice(dice=(4, 3, 1, 5, 5, 1)),
        ChooseOrder("B", go_first=False),
        Shoot("A", RIFLE, 4),
        ArmourCheck(dice=(12,)),
        Damage(dice=(4, 5, 3)),
        ResponseAction("A", (3, 1)),
        EndAction("A"),
        ResponseAction("B", (5, 5)),
        Approach("B", 2, dice=(6, 5, 4, 3, 2, 4, 1)),
        ArmourCheck(dice=(9,)),
        Damage(dice=(7,)),
        EndAction("B"),
    )


def test_a_new_battle_is_two_fresh_soldiers():
    state = new_battle()
    assert state.phase == "decision" and state.turn == 1
    for unit in state.units:
        assert unit.structure == 20 and unit.active == 2 and unit.in_hand == RIFLE
        assert dict(unit.condition.parts) == {"head": 5, "torso": 10, "right_arm": 5, "left_arm": 5,
                                              "right_leg": 5, "left_leg": 5}
        assert unit.grip.value == "two-handed"
    assert legal_actions(state) == (RollActionDice(),)


def test_the_first_turn_of_the_book():
    state = turn_one()
    a, b = state.units
    assert b.structure == 20 - 14  # rifle: 3D6+2 = 4+5+3+2, attenuation 0
    assert a.structure == 20 - 17  # bayonet: 1D10+10 = 7+10, no attenuation
    assert a.active == 3  # 2 + 1 from the response action
    assert b.active == 2 + 1 - 2  # response +1, two spent on the approach
    assert state.turn == 2 and state.phase == "decision"
    assert all(u.dice == () and u.ranges_used == () for u in state.units)
    assert state.closed_in is None  # melee distance lasts one turn
    assert len(state.log) > 20


def test_the_second_turn_of_the_book_ends_with_a_concession():
    state = run(
        turn_one(),
        RollActionDice(dice=(3, 3, 3, 6, 4, 2)),
        OpenMelee("A"),
        Shoot("B", RIFLE, 4),
        ArmourCheck(dice=(3,)),  # 3 + 1 = 4 does not exceed 6: structure −1
        ResponseAction("B", (6, 2)),
        EndAction("B"),
        Melee("A"),
        ArmourCheck(dice=(15,)),
        Damage(dice=(4, 3)),  # (4 + 10) × 3 = 42; 6 structure, 36 to the right arm
    )
    a, b = state.units
    assert a.structure == 2 and b.structure == 0
    assert b.condition.parts["right_arm"] == 0 and b.destroyed == ("right_arm",)
    assert b.active == 2
    assert Concede("B") in legal_actions(state)
    assert not is_legal(state, Concede("A"))
    over = step(state, Concede("B")).state
    assert over.phase == "over" and over.winner == "A" and "conceded" in over.end_reason
    assert legal_actions(over) == ()


def test_initiative_ties_go_to_agility_then_1d20_drawn_from_the_dice():
    result = step(new_battle(), RollActionDice(dice=(4, 3, 1, 5, 2, 1, 7, 7, 3, 12)))
    assert result.state.chooser == "B"
    assert "1D20 7 against 7: tied again, roll again (ruling)" in " ".join(result.explanation)
    agile = new_battle()
    b = agile.units[1]
    sheet = replace(b.sheet, parameters={**b.sheet.parameters, "agility": 2})
    agile = replace(agile, units=(agile.units[0], replace(b, sheet=sheet)))
    assert step(agile, RollActionDice(dice=(4, 3, 1, 5, 2, 1))).state.chooser == "B"


def _refused(state, action, match, dice=None):
    before = state
    source = SeededDice(5)
    with pytest.raises(IllegalStep, match=match):
        step(state, action, source if dice is None else dice)
    assert state is before and state == replace(before)
    assert source.draw(6) == SeededDice(5).draw(6)  # no die was drawn for a refused step


def test_illegal_steps_are_refused_with_a_reason_and_change_nothing():
    rolled = step(new_battle(), RollActionDice(dice=(4, 3, 1, 5, 5, 1))).state
    _refused(new_battle(), Shoot("A", RIFLE, 4), "action decision")
    _refused(rolled, ChooseOrder("A"), "B won the initiative and chooses")
    _refused(rolled, OpenMelee("A"), "do not open the melee phase")
    acting = step(rolled, ChooseOrder("B", go_first=False)).state
    _refused(acting, Shoot("B", RIFLE, 5), "it is A's action, not B's")
    _refused(acting, Shoot("A", RIFLE, 1), r"does not match the proper range \(適正射程\) 34\(5\) of the アサルトライフル \(assault rifle\)")
    _refused(acting, Shoot("A", RIFLE, 6), "has no 6 left")
    _refused(acting, Shoot("A", RIFLE, 3), "largest face")
    _refused(acting, Shoot("A", BAYONET, 1), "melee weapon")
    _refused(acting, Approach("A"), "has not shot this turn")
    _refused(acting, Melee("A"), "did not open the melee phase")
    _refused(acting, ResponseAction("A", (4, 4)), "cannot give up 2 × 4")
    _refused(acting, SwapWeapon("A", RIFLE, 1), "already holds")
    _refused(acting, ArmourCheck(), "no hit waits")
    _refused(acting, Damage(), "no penetrating hit")
    _refused(acting, Concede("A"), "no destroyed part")
    shot = step(acting, Shoot("A", RIFLE, 4)).state
    _refused(shot, EndAction("A"), "not a side's action")
    back = run(shot, ArmourCheck(dice=(1,)))  # 1 + 1 = 2: structure −1
    assert back.unit("B").structure == 19 and back.phase == "acting"
    _refused(back, Shoot("A", RIFLE, 3), "once per turn")
    _refused(back, ResponseAction("A", (4, 3)), "already spent")
    b_turn = run(back, EndAction("A"))
    _refused(b_turn, Approach("B", 3), "has 2 active value")


def test_a_weapon_of_a_destroyed_arm_cannot_fire():
    state = step(new_battle(), RollActionDice(dice=(4, 3, 1, 2, 2, 1))).state
    state = step(state, ChooseOrder("A")).state
    a = state.unit("A")
    hurt = replace(a, condition=UnitState(0, {**a.condition.parts, "left_arm": 0}, ("left_arm",)))
    state = replace(state, units=(hurt, state.units[1]))
    _refused(state, Shoot("A", RIFLE, 4), "left arm is destroyed")
    _refused(state, Approach("A"), "left arm is destroyed")
    assert Concede("A") in legal_actions(state)
    assert "unusable: arm destroyed" in board_html(state)


def test_a_destroyed_torso_ends_the_battle_and_nobody_acts_after():
    state = step(new_battle(), RollActionDice(dice=(4, 3, 1, 2, 2, 1))).state
    state = step(state, ChooseOrder("A")).state
    b = state.unit("B")
    state = replace(state, units=(state.units[0], replace(b, condition=UnitState(0, b.condition.parts))))
    state = run(state, Shoot("A", RIFLE, 4), ArmourCheck(dice=(19,)), Damage(dice=(6, 6, 6, 9)))
    assert state.unit("B").out_of_action and state.phase == "over" and state.winner == "A"
    assert "torso" in state.end_reason
    _refused(state, EndAction("B"), "the battle is over")
    assert legal_actions(state) == ()


def test_a_destroyed_leg_takes_two_action_dice():
    state = new_battle()
    a = state.unit("A")
    lame = replace(a, condition=UnitState(20, {**a.condition.parts, "right_leg": 0}, ("right_leg",)))
    state = replace(state, units=(lame, state.units[1]))
    result = step(state, RollActionDice(dice=(6, 1, 2, 4)))
    assert result.state.unit("A").rolled == (6,) and result.state.unit("B").rolled == (1, 2, 4)
    assert "1 leg(s) destroyed: −2 (§7-1)" in result.explanation[1]
    _refused(result.state, OpenMelee("A"), "only three can show a triple")
    with pytest.raises(ValueError, match="the action dice: the expression needs more dice"):
        step(state, RollActionDice(dice=(6, 1, 2)))


def test_weapon_swap_costs_a_die_unless_no_swap():
    state = run(new_battle(), RollActionDice(dice=(4, 3, 1, 2, 2, 1)), ChooseOrder("A"))
    _refused(state, SwapWeapon("A", BAYONET, 4), "持替不要")
    state = step(state, SwapWeapon("A", BAYONET)).state
    assert state.unit("A").in_hand == BAYONET and state.unit("A").dice == (4, 3, 1)
    _refused(state, Shoot("A", RIFLE, 4), "weapon swap first")
    _refused(state, SwapWeapon("A", RIFLE), "say which")
    state = step(state, SwapWeapon("A", RIFLE, 1)).state
    assert state.unit("A").dice == (4, 3) and state.unit("A").in_hand == RIFLE
    assert is_legal(state, Shoot("A", RIFLE, 4))


def test_a_mutual_duel_hits_both_sides_in_turn():
    state = run(new_battle(), RollActionDice(dice=(2, 2, 2, 2, 2, 2, 5, 3)))
    assert state.chooser == "A"
    state = run(state, OpenMelee("B"), EndAction("A"))
    result = step(state, Melee("B"))
    assert "mutual" in " ".join(result.explanation)
    assert "SS-01 B 2-2-2: triple (三ゾロ)" in result.explanation and "SS-01 A 2-2-2: triple (三ゾロ)" in result.explanation
    state = result.state
    assert [h.attacker for h in state.pending] == ["B", "A"] and state.closed_in == "B"
    state = run(state, ArmourCheck(dice=(10,)), Damage(dice=(1,)), ArmourCheck(dice=(2,)))
    assert state.unit("A").structure == 20 - 11 and state.unit("B").structure == 19
    assert state.phase == "acting" and state.actor == "B" and state.pending == ()


def test_active_value_refresh_is_a_rule_choice():
    steps = [RollActionDice(dice=(4, 3, 1, 5, 5, 1)), ChooseOrder("B", go_first=False),
             ResponseAction("A", (3, 1)), EndAction("A"), EndAction("B")]
    assert run(new_battle(), *steps).unit("A").active == 3
    assert run(new_battle(rules=BattleRules(active_refresh="each_turn")), *steps).unit("A").active == 2
    with pytest.raises(ValueError, match="active_refresh"):
        BattleRules(active_refresh="sometimes")


def test_legal_actions_are_exactly_the_steps_that_succeed():
    """Random battles: every listed action applies, the battle always ends, nothing goes negative."""
    for seed in range(12):
        chooser = random.Random(seed)
        dice = SeededDice(seed)
        state = new_battle()
        for _ in range(600):
            actions = legal_actions(state)
            if state.phase == "over":
                assert actions == ()
                break
            assert actions and state.phase in PHASES
            action = chooser.choice(actions)
            state = step(state, action, dice).state
            for unit in state.units:
                assert unit.structure >= 0 and unit.active >= 0
                assert all(v >= 0 for v in unit.condition.parts.values())
        else:
            raise AssertionError(f"seed {seed}: the battle did not end")


def test_play_replays_a_list_of_actions_with_their_given_dice():
    actions = [RollActionDice(dice=(4, 3, 1, 5, 5, 1)), ChooseOrder("B", go_first=False), Shoot("A", RIFLE, 4),
               ArmourCheck(dice=(12,)), Damage(dice=(4, 5, 3))]
    results = play(new_battle(), actions)
    assert results[-1].state.unit("B").structure == 6
    assert results[-1].dice == (4, 5, 3)


def test_initiative_chance_matches_every_pair_of_rolls():
    a, b = new_battle().units
    odds = initiative_chance(a, b)
    rolls = list(product(range(1, 7), repeat=3))
    higher = sum(sum(x) + 2 > sum(y) + 2 for x in rolls for y in rolls)
    tie = sum(sum(x) == sum(y) for x in rolls for y in rolls)
    assert odds["higher"] == Fraction(higher, 216**2) and odds["tie"] == Fraction(tie, 216**2)
    assert odds["higher"] == odds["lower"]


def test_decision_odds_are_exact_and_match_enumeration():
    state = run(new_battle(), RollActionDice(dice=(4, 3, 1, 5, 5, 1)), ChooseOrder("B", go_first=False))
    shot = decision_odds(state, Shoot("A", RIFLE, 4))
    assert shot.chance == Fraction(sum(d + 1 > 6 for d in range(1, 21)), 20) == Fraction(3, 4)
    assert shot.mean_damage == Fraction(25, 2)  # 3D6+2, attenuation 0
    assert "75.00%" in shot.text
    state = run(state, Shoot("A", RIFLE, 4), ArmourCheck(dice=(12,)))
    assert damage_odds(state).mean() == Fraction(25, 2)
    assert decision_odds(state, Damage(defend=True)).mean_damage < decision_odds(state, Damage()).mean_damage
    state = run(state, Damage(dice=(4, 5, 3)), EndAction("A"))
    approach = decision_odds(state, Approach("B", 2))
    wins = sum(sum(x) > sum(y) for x in product(range(1, 7), repeat=3) for y in product(range(1, 7), repeat=4))
    assert approach.chance == Fraction(wins, 6**7)
    with pytest.raises(IllegalStep):
        decision_odds(state, Approach("B", 5))


def test_the_board_shows_both_units_and_the_dice():
    state = run(new_battle(), RollActionDice(dice=(4, 3, 1, 5, 5, 1)), ChooseOrder("B", go_first=False),
                ResponseAction("A", (3, 1)))
    board = board_html(state)
    assert "SS-01 A" in board and "SS-01 B" in board and "構造値" in board and "能動値" in board
    assert board.count("line-through") == 2  # the two dice given up
    assert "acting" in board and "second (後攻)" in board


def test_a_defender_without_three_dice_is_hit_automatically_in_the_duel():
    state = new_battle()
    b = state.unit("B")
    lame = replace(b, condition=UnitState(20, {**b.condition.parts, "left_leg": 0}, ("left_leg",)))
    state = run(replace(state, units=(state.units[0], lame)), RollActionDice(dice=(2, 2, 2, 5)))
    state = run(state, OpenMelee("A"), EndAction("B"))
    assert decision_odds(state, Melee("A")).chance == 1
    result = step(state, Melee("A"))
    assert "cannot answer in the duel" in result.explanation[-1]
    assert result.state.pending[0].attacker == "A" and result.state.pending[0].multiplier == 1


def test_the_second_player_is_the_side_that_does_not_go_first():
    """002 §1-1, line 153: the winner of the initiative chooses first (先攻) or second (後攻); the other
    side is then the second player. Before the choice there is none."""
    rolled = step(new_battle(), RollActionDice(dice=(4, 3, 1, 5, 5, 1))).state
    assert rolled.first is None and rolled.second is None
    chosen = step(rolled, ChooseOrder("B", go_first=False)).state
    assert (chosen.first, chosen.second) == ("A", "B")
