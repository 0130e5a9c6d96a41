"""The WIS6 guided battle: steps apply the rule functions, illegal steps change nothing, odds are exact."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.dice import SeededDice
from rules_lib.wis6 import (
    Attack,
    BattleRules,
    CounterValues,
    EndAction,
    IllegalStep,
    Jam,
    MoveTo,
    RollOrder,
    Wis6Error,
    attack_odds,
    board_html,
    counter_odds,
    decision_odds,
    is_legal,
    legal_actions,
    legal_kinds,
    new_battle,
    play,
    resolve_attack,
    sample_units,
    step,
)
from rules_lib.wis6.figures import units_html

#: the book's narrative (book/wis6/06-first-battle.ipynb)
NARRATIVE = [
    RollOrder(dice=(14, 6)),
    MoveTo("Asuka", "D-4"),
    Attack("Asuka", "rifle", dice=(3, 9)),
    EndAction("Asuka"),
    MoveTo("Raider", "F-3"),
    Attack("Raider", "missile pod", "intercept", "rifle", dice=(5, 4)),
    EndAction("Raider"),
    Attack("Asuka", "rifle", dice=(11, 12)),
    EndAction("Asuka"),
    Attack("Raider", "missile pod", "counter", "rifle", dice=(7, 2)),
]


def ready():
    """The battle after the action order is decided: Asuka acts first."""
    return step(new_battle(), RollOrder(dice=(14, 6))).state


def test_a_new_battle_waits_for_the_order():
    state = new_battle()
    assert state.phase == "order" and state.actor is None
    assert legal_actions(state) == (RollOrder(),)
    assert [u.name for u in state.units] == ["Asuka", "Raider"]
    assert str(state.unit("Asuka").square) == "B-7"


def test_the_order_uses_reaction_plus_mobility_and_the_tie_die():
    result = step(new_battle(), RollOrder(dice=(14, 6)))
    assert result.state.order == ("Asuka", "Raider")
    assert result.detail.totals == {"Asuka": 17, "Raider": 17}
    assert result.dice == (14, 6)
    assert result.state.turn == 1 and result.state.actor == "Asuka"
    assert step(new_battle(), RollOrder(dice=(3, 20))).state.order == ("Raider", "Asuka")
    # without a tie no die is rolled
    quick = replace(sample_units()[0], reaction=20)
    result = step(new_battle([quick, sample_units()[1]]), RollOrder())
    assert result.state.order == ("Asuka", "Raider") and result.dice == ()


def test_the_narrative_battle():
    results = play(new_battle(), NARRATIVE)
    states = [r.state for r in results]
    assert str(states[1].unit("Asuka").square) == "D-4"
    first = results[2].detail
    assert (first.attack.level, first.defence.level, first.outcome, first.damage) == (4, 1, "hit", 11)
    assert states[2].unit("Raider").ap == 13
    assert states[2].unit("Asuka").weapon("rifle").ammo == 3
    interception = results[5].detail
    assert interception.damage_cancelled and interception.ammo_after == 2
    assert states[5].unit("Asuka").ap == 30 and states[5].unit("Raider").weapon("missile pod").ammo == 1
    assert states[6].turn == 2 and states[6].actor == "Asuka"
    middle = results[7].detail
    assert (middle.outcome, middle.damage) == ("equal", 2)
    counter = results[9].detail
    assert (counter.self_damage, counter.outcome, counter.enemy_damage) == (7, "higher", 36)
    final = states[-1]
    assert final.phase == "over" and final.winner == "Asuka"
    assert final.unit("Raider").ap == 0 and final.unit("Raider").wrecked
    assert final.unit("Asuka").ap == 23 and final.unit("Asuka").weapon("rifle").ammo == 0
    assert legal_actions(final) == ()
    assert final.log[: len(new_battle().log)] == new_battle().log
    assert all(line in final.log for r in results for line in r.explanation)


def _refused(state, action, reason, dice=None):
    before = replace(state)
    with pytest.raises(IllegalStep, match=reason):
        step(state, action, dice)
    assert state == before
    assert not is_legal(state, action)


def test_illegal_steps_are_refused_and_change_nothing():
    start = new_battle()
    _refused(start, MoveTo("Asuka", "C-7"), "not decided yet")
    state = ready()
    _refused(state, RollOrder(dice=(1, 2)), "decided once")
    _refused(state, MoveTo("Asuka", "H-1"), "at most 5 squares")
    _refused(state, MoveTo("Asuka", "G-2"), "Raider's square")
    _refused(state, MoveTo("Asuka", "J-1"), "off the map")
    _refused(state, MoveTo("Raider", "F-2"), "Asuka's action, not Raider's")
    _refused(state, EndAction("Raider"), "Asuka's action")
    _refused(state, Attack("Asuka", "rifle", dice=(3, 9)), "beyond the rifle's range 4")
    _refused(state, Attack("Asuka", "cannon"), "no weapon 'cannon'")
    _refused(state, MoveTo("Nobody", "C-7"), "no unit 'Nobody'")
    moved = step(state, MoveTo("Asuka", "D-4")).state
    _refused(moved, MoveTo("Asuka", "D-5"), "already moved")
    _refused(moved, Attack("Asuka", "rifle", "intercept", "heat axe", dice=(3, 9)), "missile attacks only")
    _refused(moved, Attack("Asuka", "rifle", "counter", "heat axe", dice=(3, 9)), "cannot counter")
    _refused(moved, Attack("Asuka", "rifle", "dodge"), "not one of")
    _refused(moved, Attack("Asuka", "rifle", "counter"), "names the weapon")
    _refused(moved, Attack("Asuka", "rifle", dice=(3,)), "needs 2 d20")
    _refused(moved, Attack("Asuka", "rifle", dice=(3, 21)), "not on a d20")
    with pytest.raises(IllegalStep, match="needs dice"):
        step(moved, Attack("Asuka", "rifle"))
    attacked = step(moved, Attack("Asuka", "rifle", dice=(3, 9))).state
    _refused(attacked, Attack("Asuka", "rifle", dice=(3, 9)), "already attacked")
    _refused(attacked, MoveTo("Asuka", "D-5"), "already attacked")


def test_empty_weapons_and_interception_limits():
    state = step(ready(), MoveTo("Asuka", "D-4")).state
    asuka = state.unit("Asuka")
    empty = replace(asuka, weapons=(replace(asuka.weapon("rifle"), ammo=0), asuka.weapon("beam saber")))
    dry = replace(state, units=(empty, state.unit("Raider")))
    _refused(dry, Attack("Asuka", "rifle", dice=(3, 9)), "empty")
    raider_turn = step(step(dry, EndAction("Asuka")).state, MoveTo("Raider", "F-3")).state
    _refused(raider_turn, Attack("Raider", "missile pod", "intercept", "rifle", dice=(5, 4)), "no round left")
    _refused(raider_turn, Attack("Raider", "missile pod", "intercept", "beam saber", dice=(5, 4)), "energy weapon")
    _refused(raider_turn, Attack("Raider", "missile pod", "counter", "rifle", dice=(5, 4)), "empty")


def test_a_fourth_jamming_and_a_non_operator_are_refused():
    state = ready()
    for roll in (3, 8, 15):
        result = step(state, Jam("Asuka", dice=(roll, 6)))
        assert result.detail.session.used("jamming") == result.state.session("Asuka").used("jamming")
        state = result.state
    assert state.session("Asuka").used("jamming") == 3
    _refused(state, Jam("Asuka", dice=(3, 6)), "3 times per session")
    assert "jam" not in legal_kinds(state)
    raider_turn = step(state, EndAction("Asuka")).state
    _refused(raider_turn, Jam("Raider", dice=(3, 6)), "operator role")
    # jamming spends no move and no attack
    assert not state.moved and not state.attacked and "move" in legal_kinds(state)


def test_nothing_acts_once_a_unit_is_wrecked():
    final = play(new_battle(), NARRATIVE)[-1].state
    for action in (EndAction("Asuka"), MoveTo("Asuka", "D-5"), Jam("Asuka", dice=(1, 1)),
                   Attack("Asuka", "beam saber", dice=(1, 1)), RollOrder(dice=(1, 2))):
        _refused(final, action, "over|decided once")
    wrecked = replace(ready(), units=(replace(sample_units()[0], ap=0), sample_units()[1]))
    _refused(wrecked, EndAction("Asuka"), "wrecked")


def test_a_refused_step_draws_no_dice():
    state = ready()
    dice = SeededDice(5)
    with pytest.raises(IllegalStep):
        step(state, Attack("Asuka", "rifle"), dice)
    fresh = SeededDice(5)
    assert [dice.draw(20) for _ in range(4)] == [fresh.draw(20) for _ in range(4)]


def test_every_listed_action_is_accepted():
    state, dice = new_battle(), SeededDice(11)
    for _ in range(6):
        actions = legal_actions(state)
        for action in actions:
            step(state, action, SeededDice(3))
        kinds = {type(a).__name__ for a in actions}
        state = step(state, next(a for a in actions if isinstance(a, (RollOrder, EndAction))), dice).state
        assert kinds
    moved = step(ready(), MoveTo("Asuka", "D-4")).state
    assert Attack("Asuka", "rifle") in legal_actions(moved)
    assert Attack("Asuka", "beam saber") not in legal_actions(moved)


def _brute_force(state, action):
    """Damage dealt to the target (and back to the attacker) over every pair of d20 rolls, through step()."""
    target = state.opponent(action.unit).name
    taken, dealt = Counter(), Counter()
    for a, d in product(range(1, 21), repeat=2):
        after = step(state, replace(action, dice=(a, d))).state
        taken[state.unit(target).ap - after.unit(target).ap] += 1
        dealt[state.unit(action.unit).ap - after.unit(action.unit).ap] += 1
    return taken, dealt


def _as_distribution(counts):
    return {k: Fraction(n, 400) for k, n in counts.items()}


def test_decision_odds_match_every_roll_of_the_step():
    raider = step(step(step(ready(), MoveTo("Asuka", "D-4")).state, EndAction("Asuka")).state, MoveTo("Raider", "F-3")).state
    raider = replace(raider, units=tuple(replace(u, ap=60) for u in raider.units))  # no AP cap in the comparison
    for action in (Attack("Raider", "missile pod"), Attack("Raider", "missile pod", "intercept", "rifle")):
        odds = decision_odds(raider, action)
        taken, _ = _brute_force(raider, action)
        assert _as_distribution(taken) == dict(odds.damage.items())
    counter = Attack("Raider", "missile pod", "counter", "rifle")
    odds = decision_odds(raider, counter)
    taken, dealt = _brute_force(raider, counter)
    assert _as_distribution(taken) == {k: p for k, p in odds.self_damage.items() if p}
    assert _as_distribution(dealt) == {k: p for k, p in odds.enemy_damage.items() if p}
    assert odds == counter_odds(14, 16, CounterValues(enemy_weapon_attack=9, own_armour=4, own_ap=60,
                                                      own_weapon_attack=10, enemy_armour=3))
    asuka = step(ready(), MoveTo("Asuka", "D-4")).state
    assert decision_odds(asuka, Attack("Asuka", "rifle")) == attack_odds(16, 13, 10, 3)
    with pytest.raises(IllegalStep):
        decision_odds(ready(), Attack("Asuka", "rifle"))


def test_the_attack_step_is_the_library_rule():
    state = step(ready(), MoveTo("Asuka", "D-4")).state
    for a, d in product((1, 2, 5, 11, 17, 20), repeat=2):
        result = step(state, Attack("Asuka", "rifle", dice=(a, d)))
        assert result.detail == resolve_attack(a, 16, d, 13, 10, 3)
        expected = max(24 - (result.detail.damage or 0), 0)
        assert result.state.unit("Raider").ap == expected


def test_a_seeded_battle_is_repeatable_and_ends():
    def run(seed):
        state, dice = new_battle(), SeededDice(seed)
        for _ in range(500):
            actions = legal_actions(state)
            if not actions:
                return state
            attacks = [a for a in actions if isinstance(a, Attack)]
            moves = [a for a in actions if isinstance(a, MoveTo)]
            enemy = state.opponent(state.actor).square if state.actor else None
            if attacks:
                action = attacks[-1]
            elif moves and not state.moved:
                action = min(moves, key=lambda m: (abs(ord(m.square[0]) - ord(enemy.column)) + abs(int(m.square[2:]) - enemy.row), m.square))
            else:
                action = next(a for a in actions if isinstance(a, (RollOrder, EndAction)))
            state = step(state, action, dice).state
        raise AssertionError("the battle did not end")

    for seed in (1, 2, 3):
        first, again = run(seed), run(seed)
        assert first == again and first.phase == "over" and first.winner in ("Asuka", "Raider")


def test_bad_setups_are_refused():
    asuka, raider = sample_units()
    with pytest.raises(Wis6Error, match="two units"):
        new_battle([asuka])
    with pytest.raises(Wis6Error, match="off the map"):
        new_battle([asuka, raider], battle_rules=BattleRules(columns=5))
    with pytest.raises(Wis6Error, match="both units"):
        new_battle([asuka, replace(raider, square=asuka.square)])
    with pytest.raises(Wis6Error, match="too many"):
        BattleRules(columns=27)


def test_drawings_show_the_units():
    state = ready()
    board = board_html(state)
    assert "<td title='B-7'" in board and ">As<br>" in board and ">Ra<br>" in board
    assert "turn 1, Asuka&#x27;s action" in board
    assert "background:#e3f2fd" in board  # squares within mobility
    table = units_html(state)
    assert "30 / 30" in table and "rifle (ballistic 実弾): attack 10, range 4, 4 rounds" in table
