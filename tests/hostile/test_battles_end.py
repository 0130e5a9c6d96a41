"""Every battle ends (issue 33, item 4): by its text's own end, or by the no-progress draw.

None of the four texts ends a battle but by destruction (or, in Nemesis, a concession), so two
units that can no longer hurt each other played on for ever: Gundam Sentinel's seed 4 ran out of
propellant 8 hexes apart and was still going at round 360. The engine's
:class:`~rules_lib.battle.Stalemate` ends a battle in a draw after ``stalemate_rounds`` whole
rounds without damage (the book's ruling, default 10). Damage only lowers what the units have
left, so every battle ends; random legal walks show it within :data:`MAX_STEPS` steps.
"""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import dataclass, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_lib import battle as engine
from rules_lib.gundam_sentinel import battle as gs
from rules_lib.nemesis import battle as nem
from rules_lib.verse_world import battle as vw
from rules_lib.verse_world.attack import CriticalRule
from rules_lib.widgets import gundam_sentinel_battle, nemesis_battle, verse_world_battle, wis6_battle
from rules_lib.wis6 import battle as w6

CRITICALS = CriticalRule.natural_total(12)


def _verse_world(**rules):
    return vw.new_battle(criticals=CRITICALS, **rules)


#: each system: its battle module, a new battle with given rules' stalemate_rounds, its rules class and
#: round counter, what damage lowers, and its widget
SYSTEMS = {
    "gundam-sentinel": (gs, lambda n=10: gs.new_battle(rules=gs.BattleRules(stalemate_rounds=n)), gs.BattleRules,
                        "round", gundam_sentinel_battle.FirstBattle),
    "wis6": (w6, lambda n=10: w6.new_battle(battle_rules=w6.BattleRules(stalemate_rounds=n)), w6.BattleRules,
             "turn", wis6_battle.FirstBattle),
    "nemesis": (nem, lambda n=10: nem.new_battle(rules=nem.BattleRules(stalemate_rounds=n)), nem.BattleRules,
                "turn", nemesis_battle.FirstBattle),
    "verse-world": (vw, lambda n=10: _verse_world(stalemate_rounds=n),
                    lambda stalemate_rounds: vw.BattleRules(CRITICALS, stalemate_rounds=stalemate_rounds),
                    "turn", verse_world_battle.FirstBattle),
}

#: the bound on a random legal walk, in steps: over 100 seeds per system the longest took 324
#: (Nemesis), 159 (Gundam Sentinel), 118 (WIS6) and 108 (Verse World) with the default 10 rounds
MAX_STEPS = 2000


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_random_legal_walk_ends_within_the_bound(system, seed):
    module, start, _, counter, _ = SYSTEMS[system]
    results = engine.drive(module.REFEREE, start(), seed, max_steps=MAX_STEPS)
    final = results[-1].state
    assert final.phase == "over", f"{system} seed {seed}: not over after {MAX_STEPS} steps: {final.log[-3:]}"
    assert engine.legal_actions(final) == ()
    if final.winner is None:  # a draw says why, in the log and in the state the status shows
        reason = final.end_reason
        assert reason and "draw" in reason and "draw" in final.log[-1], final.log[-3:]
    rounds = [getattr(r.state, counter) for r in results]
    assert max(rounds) - min(rounds) < MAX_STEPS


def test_gundam_seed_4_ends_in_a_draw_instead_of_running_for_ever():
    """The issue's hang: seed 4 never dealt damage; without the rule both MS spend their propellant and
    drift beyond every weapon's range, and the battle runs on (round 180 at 1,500 steps)."""
    endless = engine.drive(gs.REFEREE, gs.new_battle(rules=gs.BattleRules(stalemate_rounds=None)), 4,
                           max_steps=1500)[-1].state
    assert endless.phase != "over" and endless.round > 150
    assert [u.propellant for u in endless.units] == [0, 0] and endless.distance > 7
    results = engine.drive(gs.REFEREE, gs.new_battle(), 4, max_steps=MAX_STEPS)
    final = results[-1].state
    assert final.phase == "over" and final.winner is None and final.round == 10
    assert final.log[-2] == "round 10 ends: both sides have had their phase (000 §1)"
    assert final.log[-1] == final.end_reason == (
        "no unit has taken damage in 10 whole rounds (rounds 1–10): the battle ends in a draw "
        "(the book's ruling, not in the source text: stalemate_rounds = 10)")
    assert final.end_reason in results[-1].explanation
    with pytest.raises(engine.IllegalStep, match="the battle is over: no unit has taken damage"):
        engine.step(final, gs.RollInitiative())


@dataclass(frozen=True)
class _Toy:
    """The least a state needs for the stalemate rule: a round counter, hit points, a phase and a log."""

    hp: int = 5
    turn: int = 1
    phase: str = "play"
    winner: str | None = None
    quiet_since: int = 1
    log: tuple[str, ...] = ()


_TOY = engine.Stalemate(counter="turn", damage=lambda state: state.hp, limit=lambda state: 3)


def _toy_step(state: _Toy, **changes) -> _Toy:
    return engine._no_progress(_TOY, state, engine.StepResult(replace(state, **changes), ())).state


def test_damage_starts_the_count_again_and_the_draw_comes_after_the_limit():
    state = _Toy()
    state = _toy_step(state, turn=3)  # turns 1 and 2 without damage
    state = _toy_step(state, hp=4)  # damage in turn 3: turn 4 is the first quiet one
    assert state.quiet_since == 4 and state.phase == "play"
    state = _toy_step(state, turn=6)
    assert state.phase == "play"  # turns 4 and 5: two quiet turns
    state = _toy_step(state, turn=7)
    assert state.phase == "over" and state.winner is None and state.turn == 6
    assert state.log == ("no unit has taken damage in 3 whole turns (turns 4–6): the battle ends in a draw "
                         "(the book's ruling, not in the source text: stalemate_rounds = 3)",)
    assert _toy_step(state, turn=9) == replace(state, turn=9)  # an ended battle is left alone


def test_no_limit_never_draws():
    endless = engine.Stalemate(counter="turn", damage=lambda state: state.hp, limit=lambda state: None)
    state = engine._no_progress(endless, _Toy(), engine.StepResult(_Toy(turn=500), ())).state
    assert state.phase == "play"


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("value", [0, -1, True, 2.5, "10", 10**6])
def test_a_stalemate_limit_that_is_no_round_count_is_refused(system, value):
    rules = SYSTEMS[system][2]
    with pytest.raises(ValueError, match="stalemate_rounds .* (is not a whole number|is (below|above))"):
        rules(stalemate_rounds=value)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_draw_shows_in_the_widgets_status_and_log(system):
    """A player who only ends every phase (of a battle drawn after 2 rounds without damage, so that
    Verse World's pilots keep their MP): the battle ends in a draw, and the widget says so."""
    module, start, _, _, widget_class = SYSTEMS[system]
    widget = widget_class()
    widget.state = start(2)
    choose = random.Random(0)
    passive = {"end", "end-action", "end-turn", "initiative", "order", "roll", "ap", "extra-action"}
    for _ in range(MAX_STEPS):
        actions = engine.legal_actions(widget.state)
        if not actions:
            break
        quiet = [a for a in actions if module.REFEREE.action_kind(a) in passive]
        assert widget.do(choose.choice(quiet or actions)) is not None
    state = widget.state
    assert state.phase == "over" and state.winner is None
    assert "draw" in widget.status.value and "draw" in widget.log_view.value
    assert state.end_reason in widget.message.value.replace("&#x27;", "'")


@pytest.mark.parametrize("package", ["gundam_sentinel", "wis6", "nemesis", "verse_world"])
def test_a_fresh_interpreter_plays_a_new_battle(package):
    """new_battle and legal_actions are read from the package alone: the referee is found without
    importing the system's battle module first."""
    start = "s.new_battle(criticals=CriticalRule.natural_total(12))" if package == "verse_world" else "s.new_battle()"
    code = "\n".join([
        f"import rules_lib.{package} as s",
        "from rules_lib.dice import SeededDice",
        "from rules_lib.verse_world.attack import CriticalRule",
        f"st = {start}",
        "assert s.legal_actions(st), 'no legal action'",
        "print(s.step(st, s.legal_actions(st)[0], SeededDice(1)).state.log[-1])",
    ])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
