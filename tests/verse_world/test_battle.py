"""The Verse World first battle: the state API, the book's narrative, illegal steps and the odds."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.dice import SeededDice
from rules_lib.geometry.square import Facing, Pose, Square
from rules_lib.verse_world import (
    ACTION_KINDS,
    Attack,
    CriticalRule,
    Delay,
    EndAction,
    EndTurn,
    IllegalStep,
    Move,
    Reload,
    RollInitiative,
    StandUp,
    TryExtraAction,
    attack_odds,
    board_html,
    board_svg,
    decision_odds,
    describe_odds,
    extra_action_chance,
    extra_action_odds,
    first_to_act_chance,
    is_legal,
    legal_actions,
    legal_kinds,
    move_plan,
    new_battle,
    play,
    sample_units,
    step,
)
from rules_lib.verse_world.battle import action_kind
from rules_lib.verse_world.figures import status_line

CRITS = CriticalRule.natural_total(12)

#: The book's narrative (book/verse-world/07-first-battle.ipynb), action by action.
NARRATIVE = (
    RollInitiative(dice=(3, 4, 5, 3)),
    Delay("Bandit"),
    Move("Lance", ("forward",) * 6, "thruster", dice=(4, 2, 5)),
    Attack("Lance", "long sword", charge=True, dice=(6, 5, 3, 4, 4, 3, 2, 5, 1, 3)),
    EndAction("Lance"),
    Attack("Bandit", "heavy axe", dice=(4, 4, 2, 3, 5, 3)),
    EndAction("Bandit"),
    TryExtraAction(dice=(2, 3, 4, 4)),
    EndTurn(dice=(5, 2)),
    RollInitiative(dice=(2, 2, 5, 4)),
    Move("Bandit", ("backward",)),
    Attack("Bandit", "magic gun", dice=(4, 5, 3, 3, 6, 5)),
    EndAction("Bandit"),
    Move("Lance", ("forward",)),
    Attack("Lance", "long sword", dice=(6, 6, 2, 1, 4, 5, 3, 2, 6, 1)),
)


def battle():
    return new_battle(criticals=CRITS)


def after(count: int):
    return play(battle(), NARRATIVE[:count])[-1].state if count else battle()


def refused(state, action, *words):
    """The action is refused, the reason names ``words``, and the state is unchanged."""
    before = replace(state)
    with pytest.raises(IllegalStep) as error:
        step(state, action, SeededDice(1))
    for word in words:
        assert word in str(error.value), str(error.value)
    assert state == before
    assert not is_legal(state, action)
    return str(error.value)


def test_the_critical_rule_has_no_default():
    with pytest.raises(TypeError):
        new_battle()  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="not a CriticalRule"):
        new_battle(criticals=12)  # type: ignore[arg-type]
    assert "not in the source text" in battle().log[-1]


def test_the_narrative_of_the_book():
    results = play(battle(), NARRATIVE)
    states = [r.state for r in results]
    order = states[0].order
    assert order.names == ("Bandit", "Lance") and [s.initiative for s in order.slots] == [12, 10]
    assert states[1].order.names == ("Lance", "Bandit") and states[1].actor == "Lance"
    lance = states[2].unit("Lance")
    assert lance.pose == Pose(Square(2, 2), Facing.NORTH) and lance.mecha_mp == 20 - 11
    assert states[2].current.points_left == 40 - 6 * 4 and states[2].current.run == 6
    assert states[3].unit("Bandit").hp == 26 - (9 + 9 + 3 - 5)
    assert states[5].unit("Lance").hp == 30 - (8 + 2 - 4)
    assert states[6].phase == "end-of-turn"
    assert results[7].detail is False and states[7].extra_tried
    assert states[8].unit("Lance").pilot_mp == 12 - 2 and states[8].unit("Bandit").pilot_mp == 10 - 1
    assert states[8].turn == 2 and states[8].phase == "initiative"
    assert states[10].unit("Bandit").pose == Pose(Square(2, 0), Facing.SOUTH)
    assert states[10].current.points_left == 20
    gun = states[11].unit("Bandit").weapon("magic gun")
    assert gun.loaded == 1 and states[11].unit("Lance").hp == 24 - (6 + 5 - 4)
    final = states[-1]
    assert final.unit("Bandit").hp == 10 - (12 + 9 + 3 - 5) and final.unit("Bandit").down
    assert final.phase == "over" and final.winner == "Lance" and legal_actions(final) == ()
    assert final.log[-1] == "Bandit is down: Lance wins the battle."


def test_step_explains_with_the_source():
    result = step(after(3), NARRATIVE[3])
    text = "\n".join(result.explanation)
    assert "004 §3-4-3-1" in text and "attack: 8 -4 + 2D6 (6+5) = 15" in text
    assert "21 - protection 5 = 16" in text
    assert result.dice == NARRATIVE[3].dice
    assert result.state.log[-len(result.explanation):] == result.explanation


def test_illegal_moves_are_refused_and_change_nothing():
    state = after(2)  # Lance to act, Bandit delayed
    refused(state, Move("Lance", ("backward",), "thruster", dice=(1, 1, 1)), "forward only")
    refused(state, Move("Lance", ("turn-left",), "thruster", dice=(1, 1, 1)), "turning is not allowed")
    refused(state, Move("Lance", ("forward",), "roller"), "not fitted")
    refused(state, Move("Lance", ("forward",) * 7, "thruster", dice=(1, 1, 1)), "Bandit's square")
    refused(state, Move("Lance", ("forward",) * 5), "no movement points")  # 4 squares at 10 use the 40 points
    refused(state, Move("Lance", ("turn-left", "forward", "forward", "forward")), "off the")
    refused(state, Move("Bandit", ("forward",)), "out of turn")
    refused(state, Move("Lance", ("forward",), "thruster", dice=(1, 1)), "needs 3 d6")
    moved = step(state, Move("Lance", ("forward",), "thruster", dice=(1, 1, 1))).state
    refused(moved, Move("Lance", ("forward",), "walk"), "one mode")
    refused(moved, Move("Lance", ("forward",), "thruster", dice=(2, 2, 2)), "already paid")
    assert step(moved, Move("Lance", ("forward",), "thruster")).state.unit("Lance").mecha_mp == 20 - 3


def test_the_last_step_uses_what_is_left():
    state = after(2)
    walked = step(state, Move("Lance", ("forward",) * 3)).state
    assert walked.current.points_left == 10
    turned = step(walked, Move("Lance", ("turn-right",))).state
    assert turned.current.points_left == 0
    refused(turned, Move("Lance", ("turn-left",)), "no movement points")
    thrust = after(2)
    far = step(thrust, Move("Lance", ("forward",) * 3, "thruster", dice=(1, 1, 1))).state
    assert far.current.points_left == 28


def test_illegal_attacks_are_refused_and_change_nothing():
    start = after(2)
    refused(start, Attack("Lance", "long sword"), "three front squares")
    refused(start, Attack("Lance", "rifle"), "no weapon")
    charged = after(3)
    refused(charged, Move("Lance", ("forward",), "thruster"), "Bandit's square")
    hit = after(4)
    refused(hit, Attack("Lance", "long sword"), "already attacked")
    refused(hit, Move("Lance", ("turn-left",), "walk"), "the move comes first")
    # turn 2: the Bandit has backed off two squares ahead of Lance
    backed = after(11)
    refused(backed, Attack("Bandit", "magic gun"), "out of turn") if backed.actor != "Bandit" else None
    lance_turn = after(13)
    refused(lance_turn, Attack("Lance", "long sword"), "three front squares")
    walked = step(lance_turn, Move("Lance", ("forward",))).state
    refused(walked, Attack("Lance", "long sword", charge=True), "4 or more squares")


def test_the_firing_arc_ammunition_and_reloading():
    state = after(11)  # turn 2, the Bandit backed off to (2, 0), Lance at (2, 2) in its cone
    gun_odds = decision_odds(state, Attack("Bandit", "magic gun"))
    assert gun_odds == attack_odds(6, 6, criticals=CRITS, weapon_damage="2D6", physical_bonus=2,
                                   bonus_applies=False, protection=4)
    refused(state, Attack("Bandit", "heavy axe"), "three front squares")
    refused(state, Reload("Bandit", "magic gun"), "still has")
    turned = step(state, Move("Bandit", ("turn-left",))).state  # now facing east: Lance is beside, not ahead
    refused(turned, Attack("Bandit", "magic gun"), "firing arc")
    bandit = state.unit("Bandit")
    empty = state.with_unit(bandit.with_weapon(replace(bandit.weapon("magic gun"), loaded=0)))
    refused(empty, Attack("Bandit", "magic gun"), "empty")
    refused(empty, Reload("Bandit", "magic gun"), "whole action")  # it has moved this action
    fresh = replace(empty, current=replace(empty.current, mode=None, steps=(), run=0, points_left=40))
    reloaded = step(fresh, Reload("Bandit", "magic gun"))
    gun = reloaded.state.unit("Bandit").weapon("magic gun")
    assert (gun.loaded, gun.spares) == (2, 0) and reloaded.state.actor == "Lance"
    assert "spends the combat turn" in reloaded.explanation[0]


def test_out_of_turn_down_and_phases():
    state = battle()
    refused(state, Move("Lance", ("forward",)), "roll initiative first")
    refused(state, EndTurn(dice=(1, 1)), "roll initiative first")
    refused(state, RollInitiative(dice=(1, 2, 3)), "needs 4 d6")
    rolled = after(1)
    refused(rolled, RollInitiative(dice=(1, 1, 1, 1)), "no initiative roll now")
    refused(rolled, Attack("Lance", "long sword"), "out of turn")
    assert is_legal(after(2), Delay("Lance"))
    refused(after(3), Delay("Lance"), "before acting")
    end = after(7)
    refused(end, EndTurn(dice=(1, 1)), "first the extra-action contest")
    refused(after(8), TryExtraAction(dice=(1, 1, 1, 1)), "has been rolled")
    final = after(len(NARRATIVE))
    refused(final, Attack("Bandit", "heavy axe"), "down", "HP")
    refused(final, EndAction("Lance"), "battle is over")


def test_a_delayed_unit_never_gets_the_extra_action():
    state = after(7)
    assert extra_action_odds(state) == extra_action_chance(5, 3) == Fraction(287, 432)
    both = play(battle(), [RollInitiative(dice=(3, 4, 5, 3)), Delay("Bandit"), Delay("Lance")])[-1].state
    assert both.order.names == ("Bandit", "Lance") and both.actor == "Bandit"
    ended = play(both, [EndAction("Bandit"), EndAction("Lance")])[-1].state
    assert extra_action_odds(ended) is None
    refused(ended, TryExtraAction(dice=(6, 6, 1, 1)), "nobody")
    assert legal_kinds(ended) == {"end-turn"}


def test_a_won_extra_action_gives_one_more_action_then_the_drain():
    state = play(after(7), [TryExtraAction(dice=(6, 5, 1, 2))])[-1].state
    assert state.phase == "action" and state.actor == "Lance" and state.extra
    refused(state, Delay("Lance"), "cannot be delayed")
    refused(state, Move("Lance", ("turn-left",)), "thrusters this combat turn")
    again = play(state, [Attack("Lance", "long sword", dice=(3, 3, 5, 6))])[-1].state
    assert again.unit("Bandit").hp == 10 and again.current.attacked
    ended = step(again, EndAction("Lance")).state
    assert ended.phase == "end-of-turn" and legal_kinds(ended) == {"end-turn"}


def test_fumbles_and_falling_after_a_charge():
    state = after(3)
    result = step(state, Attack("Lance", "long sword", charge=True, dice=(1, 1, 1, 2)))
    lance = result.state.unit("Lance")
    assert lance.prone and lance.weapon("long sword").condition == "dropped"
    text = "\n".join(result.explanation)
    assert "luck 7 + 2D6 (1+2) = 10 against difficulty 12: failure" in text and "falls" in text
    fallen = play(result.state, [EndAction("Lance"), EndAction("Bandit"), TryExtraAction(dice=(1, 1, 6, 6)),
                                 EndTurn(dice=(1, 1)), RollInitiative(dice=(6, 6, 1, 1))])[-1].state
    assert fallen.actor == "Lance"
    refused(fallen, Move("Lance", ("forward",)), "stand up")
    assert legal_kinds(fallen) == {"delay", "stand-up", "end-action"}
    stood = step(fallen, StandUp("Lance")).state
    assert not stood.unit("Lance").prone and stood.actor == "Bandit"


def test_a_fumbled_evasion_is_a_direct_hit():
    result = step(after(5), Attack("Bandit", "heavy axe", dice=(2, 2, 1, 1, 6, 6)))
    assert result.state.unit("Lance").hp == 30 - (6 + 6 + 2)
    assert any("direct hit" in line for line in result.explanation)


def test_evasion_criticals_turn_on_the_attacker():
    rule = CriticalRule.natural_total(11, 12)  # a sample rule: 11 critical, 12 over-critical
    state = replace(after(5), rules=replace(after(5).rules, criticals=rule))
    treated = step(state, Attack("Bandit", "heavy axe", dice=(3, 3, 5, 6, 1, 1)))
    assert treated.state.unit("Bandit").weapon("heavy axe").condition == "dropped"
    assert any("treated as having fumbled" in line for line in treated.explanation)
    mishap = step(state, Attack("Bandit", "heavy axe", dice=(3, 3, 6, 6)))
    assert mishap.state.unit("Bandit").weapon("heavy axe").condition == "broken"
    again = replace(mishap.state, current=replace(mishap.state.current, attacked=False))
    refused(again, Attack("Bandit", "heavy axe"), "broken")


def test_decision_odds_are_the_library_odds_and_enumerate():
    state = after(5)  # the Bandit's delayed axe blow at Lance
    action = Attack("Bandit", "heavy axe")
    odds = decision_odds(state, action)
    assert odds == attack_odds(6, 6, criticals=CRITS, weapon_damage="2D6", physical_bonus=2, protection=4)
    # brute force through the step function itself, with no criticals: every attack and evasion die
    # (6^4); the damage dice (6^2) once for an ordinary hit and once for a direct hit (evasion fumbled)
    plain = replace(state, rules=replace(state.rules, criticals=CriticalRule.none()))
    hp = plain.unit("Lance").hp
    hits = {False: 0, True: 0}  # direct hit or not -> how many of the 6^4 rolls
    lost = {}
    for a1, a2, e1, e2 in product(range(1, 7), repeat=4):
        if (a1, a2) == (1, 1):
            continue  # a fumble misses
        try:
            step(plain, Attack("Bandit", "heavy axe", dice=(a1, a2, e1, e2)))
            continue  # no damage dice needed: a miss
        except IllegalStep:
            pass
        direct = (e1, e2) == (1, 1)
        hits[direct] += 1
        if direct not in lost:
            lost[direct] = Fraction(sum(
                hp - step(plain, Attack("Bandit", "heavy axe", dice=(a1, a2, e1, e2, d1, d2))).state.unit("Lance").hp
                for d1, d2 in product(range(1, 7), repeat=2)), 36)
    plain_odds = decision_odds(plain, action)
    assert plain_odds.hit == Fraction(hits[False] + hits[True], 6 ** 4)
    assert plain_odds.direct_hit == Fraction(hits[True], 6 ** 4)
    assert plain_odds.damage.mean() == sum(Fraction(hits[d], 6 ** 4) * lost[d] for d in lost)
    line = describe_odds(state, action)
    assert "44.37% to hit" in line and "expected damage after protection 2.52" in line


def test_first_to_act_chance_by_enumeration():
    state = battle()
    wins = sum(1 for a in product(range(1, 7), repeat=4)
               if 3 + a[0] + a[1] >= 4 + a[2] + a[3])  # Lance (player side) wins ties
    assert first_to_act_chance(state) == Fraction(wins, 1296) == Fraction(575, 1296)


def test_move_plan_closes_the_enemy_square_and_follows_the_mode():
    state = after(2)
    thrust = move_plan(state, "thruster")
    assert thrust.squares() == {Square(2, y) for y in range(2, 9)}  # forward only, stopped by the Bandit
    walk = move_plan(state, "walk")
    assert Square(2, 4) in walk.squares() and Square(2, 1) not in walk.squares()
    assert move_plan(after(4), "walk") is None  # attacked: the move is over
    svg = board_svg(state, show="reach", mode="thruster")
    assert svg.startswith("<svg") and svg.count("#c8e6c9") == 6
    assert "firing arc" in board_html(after(3))


def test_legal_actions_agree_with_step():
    state = after(2)
    kinds = legal_kinds(state)
    assert kinds == {"delay", "move", "end-action"}
    for action in legal_actions(state):
        assert is_legal(state, action)
    assert legal_kinds(after(3)) == {"attack", "end-action"}
    assert legal_kinds(after(0)) == {"initiative"}
    assert set(ACTION_KINDS) >= kinds
    with pytest.raises(IllegalStep):
        action_kind("jump")  # type: ignore[arg-type]


def _random_battle(seed: int, limit: int = 400):
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = battle()
    for _ in range(limit):
        actions = legal_actions(state)
        if not actions:
            return state
        attacks = [a for a in actions if isinstance(a, Attack)]
        action = rng.choice(attacks) if attacks and rng.random() < 0.8 else rng.choice(actions)
        state = step(state, action, dice).state
    raise AssertionError("the battle did not end")


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_seeded_battles_end_and_repeat(seed):
    first = _random_battle(seed)
    assert first.phase == "over" and legal_actions(first) == ()
    assert first == _random_battle(seed)
    assert status_line(first).startswith(f"turn {first.turn}: the battle is over")


def test_sample_values_are_labelled():
    lance, bandit = sample_units()
    assert (lance.side, bandit.side) == ("pc", "gm")
    assert all("not in the source text" in line for line in battle().log[1:3])
    with pytest.raises(ValueError, match="damage"):
        replace(lance.weapons[0], damage="3D8")
    with pytest.raises(ValueError, match="outside"):
        new_battle(criticals=CRITS, units=(replace(lance, pose=Pose(Square(9, 9), Facing.NORTH)), bandit))
