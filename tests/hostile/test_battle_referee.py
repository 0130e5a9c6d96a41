"""The four guided battles: is_legal agrees with step, no broken start, no stuck state (issue 15, item 4).

A random walk through each battle by its own legal actions; at every state, every legal action,
variants of them with hostile fields (wrong types, out-of-range or miscounted given dice) and
the actions of other states are offered to ``is_legal`` and to ``step``: ``is_legal`` is true
exactly when ``step`` does not refuse. A state that is not over always has a legal action.
"""

from dataclasses import fields, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_lib import battle as engine
from rules_lib.battle import IllegalStep
from rules_lib.dice import SeededDice
from rules_lib.gundam_sentinel import battle as gs
from rules_lib.nemesis import battle as nem
from rules_lib.verse_world import battle as vw
from rules_lib.verse_world.attack import CriticalRule
from rules_lib.wis6 import battle as w6

SYSTEMS = {
    "gundam-sentinel": (gs, gs.new_battle),
    "wis6": (w6, w6.new_battle),
    "nemesis": (nem, nem.new_battle),
    "verse-world": (vw, lambda: vw.new_battle(criticals=CriticalRule.natural_total(12))),
}

HOSTILE_VALUES = st.sampled_from([None, 0, -1, 7, 10**30, 1.5, float("nan"), "abc", "", True, (7, 7), (1,), ("x",),
                                  (0, 0, 0, 0, 0, 0, 0, 0), object()])


def _variants(action, draw):
    """The action with one field replaced by a hostile value."""
    out = []
    for item in fields(action):
        out.append(replace(action, **{item.name: draw(HOSTILE_VALUES)}))
    if any(f.name == "dice" for f in fields(action)):
        out.append(replace(action, dice=tuple(draw(st.lists(st.integers(-1, 40), max_size=8)))))
    return out


def _refuses(module, state, action, seed) -> bool:
    try:
        engine.step(state, action, SeededDice(seed))
    except IllegalStep:
        return True
    return False


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@given(data=st.data())
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_is_legal_agrees_with_step_and_nothing_is_stuck(system, data):
    module, start = SYSTEMS[system]
    state = start()
    seen = []
    for _ in range(data.draw(st.integers(5, 60), label="steps")):
        legal = engine.legal_actions(state)
        if state.phase == "over":
            assert legal == ()
            break
        assert legal, f"stuck without a winner: {state.phase} {state.log[-3:]}"
        offered = list(legal) + [data.draw(st.sampled_from(seen))] if seen else list(legal)
        for action in legal[:3]:
            offered += _variants(action, data.draw)
        for action in offered:
            seed = data.draw(st.integers(0, 2**16))
            assert engine.is_legal(state, action) == (not _refuses(module, state, action, seed)), action
        action = data.draw(st.sampled_from(legal))
        seen.append(action)
        state = engine.step(state, action, SeededDice(data.draw(st.integers(0, 2**16)))).state


def test_gundam_refuses_a_broken_start():
    zaku, gm = gs.sample_units()
    with pytest.raises(ValueError, match=r"the Zaku II is destroyed \(durability 0\)"):
        gs.new_battle([replace(zaku, durability=0), gm])
    with pytest.raises(ValueError, match="pilot has fainted"):
        gs.new_battle([zaku, replace(gm, fainted=True)])
    with pytest.raises(ValueError, match="both stand on"):
        gs.new_battle([zaku, replace(gm, position=zaku.position)])


def test_wis6_refuses_a_wrecked_unit():
    a, b = w6.sample_units()
    with pytest.raises(ValueError, match=r"AC is wrecked \(AP 0\)"):
        w6.new_battle([replace(a, ap=0), b])


def test_verse_world_refuses_a_downed_unit():
    a, b = vw.sample_units()
    with pytest.raises(ValueError, match=r"is down \(HP 0"):
        vw.new_battle(criticals=CriticalRule.natural_total(12), units=[replace(a, hp=0), b])


def test_wrong_types_are_illegal_steps_not_type_errors():
    state = gs.new_battle()
    for action in (gs.RollInitiative(dice=(7, 7)), gs.RollInitiative(dice="55"), gs.Move(3), gs.Turn("Zaku II", "1"),
                   gs.RollAP("Zaku II", borrow=1.5), gs.Fire("Zaku II", weapon=None), "RollAP"):
        assert not engine.is_legal(state, action)
        with pytest.raises(IllegalStep):
            engine.step(state, action, SeededDice(1))
    w_state = w6.new_battle()
    with pytest.raises(w6.IllegalStep, match="MoveTo.square 5 is not text"):
        engine.step(w_state, w6.MoveTo("Asuka", 5))


def test_given_dice_out_of_range_are_not_legal():
    state = engine.step(gs.new_battle(), gs.RollInitiative(dice=(5, 4, 3, 3))).state
    actor = state.actor
    assert engine.is_legal(state, gs.RollAP(actor))
    assert not engine.is_legal(state, gs.RollAP(actor, dice=(7, 7)))
    assert not engine.is_legal(state, gs.RollAP(actor, dice=(7,)))
    assert engine.is_legal(state, gs.RollAP(actor, dice=(4,)))
