"""One engine under the four battles: the same generic driver plays each (issue 13, item 1).

:func:`rules_lib.battle.drive` knows only the engine's protocol (a :class:`~rules_lib.battle.Referee`
and a state): it offers each state's legal actions, picks one and steps it with seeded dice. Every
system's battle must stop only when it is over (and be over within the bound), log every step's lines, draw its dice only
through the step, and spell its action kinds one way.
"""

import importlib
import re

import pytest

from rules_lib import battle as engine
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


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("seed", [1, 7])
def test_the_same_driver_plays_every_battle(system, seed):
    module, start = SYSTEMS[system]
    state = start()
    results = engine.drive(module.REFEREE, state, seed, max_steps=2000)
    final = results[-1].state
    # every battle ends, if need be in the no-progress draw (tests/hostile/test_battles_end.py)
    assert final.phase == "over", f"{system} did not end: {final.log[-3:]}"
    assert (engine.legal_actions(final) == ()) == (final.phase == "over")
    log = list(state.log)
    for result in results:
        log += result.explanation
    assert list(final.log) == log, "every step's lines, and only those, are appended to the log"


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_engine_is_each_systems_loop(system):
    module, start = SYSTEMS[system]
    referee = module.REFEREE
    assert isinstance(referee, engine.Referee) and engine.referee_of(start()) is referee
    package = importlib.import_module(module.__name__.rpartition(".")[0])
    for name in ("step", "play", "is_legal", "legal_actions", "legal_kinds", "log_html"):
        assert getattr(package, name) is getattr(engine, name), name
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", kind) for kind in referee.kind_names), referee.kind_names
    assert tuple(module.ACTION_KINDS) == referee.kind_names


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_replayed_battle_draws_the_same_dice(system):
    module, start = SYSTEMS[system]
    first = engine.drive(module.REFEREE, start(), 3, max_steps=60)
    again = engine.drive(module.REFEREE, start(), 3, max_steps=60)
    assert [r.dice for r in first] == [r.dice for r in again]
    assert first[-1].state == again[-1].state


def test_action_dice_refuse_what_does_not_fit():
    with pytest.raises(engine.IllegalStep, match="needs dice"):
        engine.ActionDice(None, None, "a roll").d(6)
    draw = engine.ActionDice((3, 9), None, "an attack")
    with pytest.raises(engine.IllegalStep, match="an attack: die 2 was given as 9, but it is a d6"):
        draw.d(6, 2)
    left = engine.ActionDice((3, 4), None, "a roll")
    left.d(6)
    with pytest.raises(engine.IllegalStep, match="2 dice were given"):
        left.finish()
    assert tuple(engine.ActionDice(None, SeededDice(1), "x").expression("2D6+1")) == engine.ActionDice(
        None, SeededDice(1), "x").d(6, 2)
    with pytest.raises(engine.IllegalStep, match="needs 2 d20 rolls, not 1"):
        engine.ActionDice.check_given((3,), 20, 2, "an attack")


def test_a_state_that_is_no_battle_is_refused_by_name():
    with pytest.raises(engine.IllegalStep, match="'board' is not the state of a battle: allowed are"):
        engine.step("board", gs.EndPhase("Zaku II"))
