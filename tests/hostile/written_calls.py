"""Working calls, written by hand, for the public functions the book never calls with values that
can be written as source (``tools/public_calls.py`` records the book's): methods of results, battle
states, rules written as refusals. The hostile sweep (``test_public_api_sweep.py``) starts from
these as it does from the book's, replacing one argument at a time.

Each call is ``{"args": [...], "kwargs": {...}}`` of Python sources, evaluated with ``rules_lib``,
``Fraction`` and this module as ``written`` (its helpers build battle states); a method's instance is
its ``self`` keyword, as the recorded calls write it.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from pathlib import Path
from typing import Any

import rules_lib.battle as battle
from rules_lib.api_systems import GameSystem
from rules_lib.verse_world.attack import CheckRoll, CriticalRule
from rules_lib.verse_world.commands import CommandRoll
from rules_lib.wis6.attack import AttackOdds
from rules_lib.wis6.growth import Growth
from rules_lib.wis6.special import Jamming, Tapping

#: each system's battle module and the class of its attack action
_ATTACKS = {"wis6": "Attack", "gundam_sentinel": "Fire", "nemesis": "Shoot", "verse_world": "Attack"}


def _battle_module(system: str):
    return importlib.import_module(f"rules_lib.{system}.battle")


def start(system: str) -> Any:
    """A new battle of ``system`` with its sample units."""
    module = _battle_module(system)
    if system == "verse_world":
        return module.new_battle(criticals=CriticalRule.natural_total(12))
    return module.new_battle()


@functools.cache
def _found(system: str, kind: str, seed: int = 1) -> tuple[Any, Any]:
    """The first state of a seeded walk where an action of class ``kind`` is legal, and that action."""
    module = _battle_module(system)
    state = start(system)
    for result in [None, *battle.drive(module.REFEREE, state, seed=seed, max_steps=400)]:
        current = state if result is None else result.state
        for action in battle.legal_actions(current):
            if type(action).__name__ == kind:
                return current, action
    raise LookupError(f"no {kind} in a walk of {system}")


def state_with(system: str, kind: str | None = None) -> Any:
    """A state where an action of class ``kind`` (else the system's attack) is legal."""
    return _found(system, kind or _ATTACKS[system])[0]


def action(system: str, kind: str | None = None) -> Any:
    """That action."""
    return _found(system, kind or _ATTACKS[system])[1]


def referee(system: str) -> Any:
    return _battle_module(system).REFEREE


def first_name(state: Any) -> str:
    """How the state's methods name its first unit: by name, or (Nemesis) by side."""
    unit = state.units[0]
    return unit.side if type(state).__module__.startswith("rules_lib.nemesis") else unit.name


def _call(*args: str, **kwargs: str) -> dict:
    return {"args": list(args), "kwargs": kwargs}


def _fields_of(cls: type, source: str) -> dict:
    """A dataclass's constructor called with the fields of the value ``source`` builds."""
    return _call(**{f.name: f"({source}).{f.name}" for f in dataclasses.fields(cls) if f.init})


@dataclasses.dataclass(frozen=True)
class ProbeState:
    """A battle state of no system: a Referee made for it in the sweep replaces no system's."""

    phase: str = "start"


class ProbeAction:
    """The one action of the probe battle."""


def no_check(state: Any, action: Any) -> None:
    """The probe battle allows its action."""


def no_candidates(state: Any) -> tuple:
    return ()


def probe_step(state: Any, action: Any, dice: Any) -> Any:
    return battle.finish(state, ["the probe acts"])


#: the book's folder, for the functions that read it
BOOK = Path(battle.__file__).resolve().parents[1] / "book"


def die() -> Any:
    """An icepool die (the library's exact distributions read them)."""
    import icepool

    return icepool.d6


_W = "written"
_WIS6 = f"{_W}.state_with('wis6')"
_GS = f"{_W}.state_with('gundam_sentinel')"
_NEM = f"{_W}.state_with('nemesis')"
_VW = f"{_W}.state_with('verse_world')"
_CHAT = "rules_lib.dice.chat.read_line('2D6+1 attack')"
_COMMANDS = "rules_lib.verse_world.commands.COMMANDS"
_SEEDED = "rules_lib.battle.SeededDice(seed=1)"
_ROLL = "rules_lib.dice.chat.roll_from('2D6+3', rules_lib.battle.GivenDice([3, 4]))"
_CHART = "rules_lib.gundam_sentinel.charts.roll_chart('ECHC', [3, 4])"
_EFFECT = "rules_lib.gundam_sentinel.charts.Effect(kind='to hit', value=-10)"
_PLAN = "rules_lib.verse_world.movement.plan_move(6)"
_CHECK = "rules_lib.verse_world.attack.check_roll('attack', 8, [3, 4], criticals=rules_lib.verse_world.attack.CriticalRule.natural_total(12))"
_SESSION = "rules_lib.wis6.special.SessionUses()"
_GROWTH = "rules_lib.wis6.growth.GrowthPlan(ap=1)"
_WIS6_SHEET = ("rules_lib.wis6.Sheet(abilities={'shooting': 12, 'reaction': 10}, ap=3, armour=5, mobility=4, "
               "weapons={'rifle': 10}, pilot_points=20, ac_points=20)")
_DISTRIBUTION = "rules_lib.dice.exact.odds('2D6').distribution"
_PIECE = "{'kind': 'character', 'data': {'name': 'x', 'memo': 'a\\nb', 'status': [{'label': 'AP', 'value': 3, 'max': 3}], 'commands': '1D20 y'}}"
_GAME = "rules_lib.api_systems.game_systems()['GundamSentinel']"
_ACTION_DICE = "rules_lib.battle.ActionDice(None, rules_lib.battle.SeededDice(seed=1), 'a test roll')"

CALLS: dict[str, dict] = {
    # the shared battle engine
    "rules_lib.battle:ActionDice.check_given": _call("[3]", "6", "1", "'a die'"),
    "rules_lib.battle:ActionDice.d": _call(self=_ACTION_DICE, sides="6", count="2"),
    "rules_lib.battle:ActionDice.expression": _call(self=_ACTION_DICE, expression="'2D6'"),
    "rules_lib.battle:ActionDice.finish": _call(self=_ACTION_DICE),
    "rules_lib.battle:Referee.action_kind": _call(self=f"{_W}.referee('wis6')", action=f"{_W}.action('wis6')"),
    "rules_lib.battle:Referee.check": _call(self=f"{_W}.referee('wis6')", state=_WIS6, action=f"{_W}.action('wis6')"),
    "rules_lib.battle:Referee.is_legal": _call(self=f"{_W}.referee('wis6')", state=_WIS6, action=f"{_W}.action('wis6')"),
    "rules_lib.battle:Referee.legal_actions": _call(self=f"{_W}.referee('nemesis')", state=_NEM),
    "rules_lib.battle:Referee.legal_kinds": _call(self=f"{_W}.referee('gundam_sentinel')", state=_GS),
    "rules_lib.battle:Referee.step": _call(self=f"{_W}.referee('wis6')", state=_WIS6, action=f"{_W}.action('wis6')",
                                          dice=_SEEDED),
    "rules_lib.battle:Referee.play": _call(self=f"{_W}.referee('wis6')", state=_WIS6,
                                          actions=f"[{_W}.action('wis6')]", dice=_SEEDED),
    "rules_lib.battle:drive": _call(f"{_W}.referee('wis6')", f"{_W}.start('wis6')", "1", max_steps="20"),
    "rules_lib.battle:play": _call(state=_WIS6, actions=f"[{_W}.action('wis6')]", dice=_SEEDED),
    "rules_lib.battle:by_name": _call(items=f"{_WIS6}.units", name=f"{_W}.first_name({_WIS6})", refusal="'no such unit'"),
    # dice and chat
    "rules_lib.dice.chat:ChatRoll.bcdice_line": _call(
        self="rules_lib.gundam_sentinel.commands.COMMANDS.roll('x2 BB+10>50', seed=2)"),
    "rules_lib.dice.chat:ChatRoll.text": _call(self=f"{_COMMANDS}.roll('x2 VW+8@11>14', seed=1)"),
    "rules_lib.dice.chat:ChatRoll.to_dict": _call(self=f"{_COMMANDS}.roll('x2 VW+8@11>14', seed=1)"),
    "rules_lib.dice.chat:CommandSet.command": _call(self=_COMMANDS, expression="'VW+8@11>14 a comment'"),
    "rules_lib.dice.chat:CommandSet.odds": _call(self=_COMMANDS, expression="'VW+8@11>14'"),
    "rules_lib.dice.chat:CommandSet.owns": _call(self=_COMMANDS, command="'VW+8@11>14'"),
    "rules_lib.dice.chat:CommandSet.read": _call(self=_COMMANDS, expression="'S VW+8@11>14'"),
    "rules_lib.dice.chat:CommandSet.roll": _call(self=_COMMANDS, expression="'VW+8@11>14'", seed="3"),
    "rules_lib.dice.exact:Distribution.map": _call(self=_DISTRIBUTION, function="abs"),
    "rules_lib.dice.exact:Distribution.probability": _call(self=_DISTRIBUTION, predicate="bool"),
    "rules_lib.dice.exact:Odds.to_dict": _call(self="rules_lib.dice.exact.odds('2D6>=7')"),
    "rules_lib.dice.roll:GivenDice.draw": _call(self="rules_lib.battle.GivenDice([3, 4])", sides="6"),
    "rules_lib.dice.roll:GivenDice.finish": _call(self="rules_lib.battle.GivenDice([])"),
    "rules_lib.dice.roll:SeededDice.draw": _call(self=_SEEDED, sides="6"),
    "rules_lib.dice.roll:RollResult.text": _call(self=_ROLL),
    "rules_lib.dice.roll:RollResult.to_dict": _call(self=_ROLL),
    "rules_lib.dice.roll:roll_from": _call("'2D6+3'", "rules_lib.battle.GivenDice([3, 4])"),
    "rules_lib.dice.dense:from_faces": _call("[1, 2, 3, 4, 5, 6]"),
    # Gundam Sentinel
    "rules_lib.gundam_sentinel.battle:cannot_act": _call(_GS, f"{_GS}.units[0]"),
    "rules_lib.gundam_sentinel.battle:check": _call(_GS, f"{_W}.action('gundam_sentinel')"),
    "rules_lib.gundam_sentinel.battle_odds:describe_fire_odds": _call(_GS, f"{_W}.action('gundam_sentinel')"),
    "rules_lib.gundam_sentinel.battle_odds:fire_odds": _call(_GS, f"{_W}.action('gundam_sentinel')"),
    "rules_lib.gundam_sentinel.battle_odds:initiative_chances": _call(f"{_W}.start('gundam_sentinel')"),
    "rules_lib.gundam_sentinel.battle_odds:ap_chance": _call(_GS, f"{_W}.first_name({_GS})", "2"),
    "rules_lib.gundam_sentinel.battle_state:BattleState.board": _call(self=_GS),
    "rules_lib.gundam_sentinel.battle_state:BattleState.index": _call(self=_GS, name=f"{_W}.first_name({_GS})"),
    "rules_lib.gundam_sentinel.battle_state:BattleState.opponent": _call(self=_GS, name=f"{_W}.first_name({_GS})"),
    "rules_lib.gundam_sentinel.battle_state:BattleState.unit": _call(self=_GS, name=f"{_W}.first_name({_GS})"),
    "rules_lib.gundam_sentinel.charts:ChartRoll.bcdice_line": _call(self=_CHART),
    "rules_lib.gundam_sentinel.charts:ChartRoll.roll_text": _call(self=_CHART),
    "rules_lib.gundam_sentinel.charts:ChartRoll.text": _call(self=_CHART),
    "rules_lib.gundam_sentinel.charts:ChartRoll.to_dict": _call(self=_CHART),
    "rules_lib.gundam_sentinel.charts:Effect.amount_text": _call(self=_EFFECT),
    "rules_lib.gundam_sentinel.charts:Effect.to_dict": _call(self=_EFFECT),
    "rules_lib.gundam_sentinel.checks:escape_check": _call("[3, 4]", fainted="False"),
    "rules_lib.gundam_sentinel.figures:board_svg": _call(_GS),
    "rules_lib.gundam_sentinel.figures:status_line": _call(_GS),
    "rules_lib.gundam_sentinel.figures:units_html": _call(_GS),
    # Nemesis
    "rules_lib.nemesis.abilities:after_damage_order": _call("['evasion', 'defence']"),
    "rules_lib.nemesis.abilities:may_try_stealth": _call("[1, 1, 3]"),
    "rules_lib.nemesis.battle:check": _call(_NEM, f"{_W}.action('nemesis')"),
    "rules_lib.nemesis.battle_odds:decision_odds": _call(_NEM, f"{_W}.action('nemesis')"),
    "rules_lib.nemesis.battle_state:BattleState.opponent": _call(self=_NEM, side=f"{_W}.first_name({_NEM})"),
    "rules_lib.nemesis.battle_state:BattleState.unit": _call(self=_NEM, side=f"{_W}.first_name({_NEM})"),
    "rules_lib.nemesis.battle_state:BattleState.with_unit": _call(self=_NEM, unit=f"{_NEM}.units[0]"),
    "rules_lib.nemesis.figures:board_html": _call(_NEM),
    # Verse World
    "rules_lib.verse_world.attack:hit_chance_table": _call("[8, 10]", "9", criticals="rules_lib.verse_world.attack.CriticalRule.natural_total(12)"),
    "rules_lib.verse_world.attack:resolve_attack": _call(_CHECK, _CHECK),
    "rules_lib.verse_world.battle:decision_odds": _call(_VW, f"{_W}.action('verse_world')"),
    "rules_lib.verse_world.battle:describe_odds": _call(_VW, f"{_W}.action('verse_world')"),
    "rules_lib.verse_world.commands:CommandOdds.text": _call(self="rules_lib.verse_world.commands.odds_command('VW+8@11>14')"),
    "rules_lib.verse_world.commands:CommandOdds.to_dict": _call(self="rules_lib.verse_world.commands.odds_command('VW+8@11>14')"),
    "rules_lib.verse_world.commands:CommandRoll.text": _call(self="rules_lib.verse_world.commands.roll_command('VW+8@11>14', dice=[5, 6])"),
    "rules_lib.verse_world.commands:CommandRoll.to_dict": _call(self="rules_lib.verse_world.commands.roll_command('VW+8@11>14', dice=[5, 6])"),
    "rules_lib.verse_world.figures:board_html": _call(_VW),
    "rules_lib.verse_world.figures:reach_svg": _call(_PLAN, "9", "9"),
    "rules_lib.verse_world.movement:MovePlan.mecha_mp_distribution": _call(self=_PLAN),
    "rules_lib.verse_world.movement:MovePlan.squares": _call(self=_PLAN),
    # WIS6
    "rules_lib.wis6.battle:check": _call(_WIS6, f"{_W}.action('wis6')"),
    "rules_lib.wis6.battle:decision_odds": _call(_WIS6, f"{_W}.action('wis6')"),
    "rules_lib.wis6.battle:describe_odds": _call(_WIS6, f"{_W}.action('wis6')"),
    "rules_lib.wis6.battle_state:BattleState.opponent": _call(self=_WIS6, name=f"{_W}.first_name({_WIS6})"),
    "rules_lib.wis6.battle_state:BattleState.session": _call(self=_WIS6, name=f"{_W}.first_name({_WIS6})"),
    "rules_lib.wis6.battle_state:BattleState.unit": _call(self=_WIS6, name=f"{_W}.first_name({_WIS6})"),
    "rules_lib.wis6.figures:board_html": _call(_WIS6),
    "rules_lib.wis6.figures:units_html": _call(_WIS6),
    "rules_lib.wis6.growth:GrowthPlan.ac_cost": _call(self=_GROWTH),
    "rules_lib.wis6.growth:GrowthPlan.pilot_cost": _call(self=_GROWTH),
    "rules_lib.wis6.special:SessionUses.new_session": _call(self=_SESSION),
    "rules_lib.wis6.special:SessionUses.remaining": _call(self=_SESSION, action="'jamming'"),
    "rules_lib.wis6.special:SessionUses.use": _call(self=_SESSION, action="'jamming'", role="'operator'"),
    "rules_lib.wis6.special:SessionUses.used": _call(self=_SESSION, action="'jamming'"),
    "rules_lib.wis6.special:jam": _call("10", "12", "14", "10", session=_SESSION, role="'operator'"),
    "rules_lib.wis6.special:tap": _call("10", "12", session=_SESSION, role="'operator'"),
    "rules_lib.battle:Referee.own_state": _call(self=f"{_W}.referee('wis6')", state=_WIS6),
    "rules_lib.battle:finish": _call(_WIS6, "['a line of the log']"),
    "rules_lib.battle:settle": _call(f"rules_lib.battle.finish({_WIS6}, ['a line'])", "rules_lib.battle.legal_actions"),
    "rules_lib.battle:legal": _call(f"{_W}.referee('wis6').check", f"{_W}.referee('wis6').step", _WIS6,
                                    f"{_W}.action('wis6')"),
    "rules_lib.gundam_sentinel.battle_state:BattleState": _call(units=f"{_GS}.units"),
    "rules_lib.nemesis.battle_state:BattleState": _call(units=f"{_NEM}.units"),
    "rules_lib.wis6.battle_state:BattleState": _call(units=f"{_WIS6}.units"),
    # enumerations, by value
    "rules_lib.geometry.square:Facing": _call("0"),
    "rules_lib.geometry.square:Square": _call(x="1", y="2"),
    "rules_lib.geometry.square:Pose": _call(square="rules_lib.geometry.square.Square(1, 2)",
                                           facing="rules_lib.geometry.square.Facing.NORTH"),
    "rules_lib.nemesis.abilities:FallReading": _call("'as_written'"),
    "rules_lib.nemesis.action:ExtendedFace": _call("'ignored'"),
    "rules_lib.nemesis.damage:RapidFireDamage": _call("'each_hit_rolls'"),
    "rules_lib.nemesis.silhouette:Grip": _call("'one-handed'"),
    # WIS6 growth, on a sheet of the sample unit's values
    "rules_lib.wis6.growth:apply_growth": _call(_WIS6_SHEET, _GROWTH),
    "rules_lib.wis6.growth:award_growth_points": _call(_WIS6_SHEET),
    "rules_lib.worked:Worked": _call(steps="('a step',)"),
    "rules_lib.catalogue:refuses": _call("int", "'not a number'"),
    "rules_lib.checks:checked_arguments": _call("abs"),
    "rules_lib.checks:checked_flags": _call("abs"),
    "rules_lib.sheets.base:cited_or_default": _call("3", "'armour'", "{'armour': '001 §2-1'}"),
    "rules_lib.reader:OddsTable": _call("((1, Fraction(1, 2)), (2, Fraction(1, 2)))"),
    # results made from the fields of a real one
    "rules_lib.verse_world.attack:CheckRoll": _fields_of(CheckRoll, _CHECK),
    "rules_lib.verse_world.commands:CommandRoll": _fields_of(
        CommandRoll, "rules_lib.verse_world.commands.roll_command('VW+8@11>14', dice=[5, 6])"),
    "rules_lib.wis6.attack:AttackOdds": _fields_of(
        AttackOdds, f"rules_lib.wis6.battle.decision_odds({_WIS6}, {_W}.action('wis6'))"),
    "rules_lib.wis6.counter:CounterOdds": _call(outcomes="{'hit': Fraction(1, 2), 'miss': Fraction(1, 2)}",
                                               self_damage=_DISTRIBUTION, enemy_damage=_DISTRIBUTION),
    "rules_lib.wis6.growth:Growth": _fields_of(Growth, f"rules_lib.wis6.growth.apply_growth({_WIS6_SHEET}, {_GROWTH})"),
    "rules_lib.wis6.special:Jamming": _fields_of(
        Jamming, f"rules_lib.wis6.special.jam(10, 12, 14, 10, session={_SESSION}, role='operator')"),
    "rules_lib.wis6.special:Tapping": _fields_of(
        Tapping, f"rules_lib.wis6.special.tap(10, 12, session={_SESSION}, role='operator')"),
    # geometry, ranges, sheets and the book
    "rules_lib.geometry.square:Step": _call("('forward', 0, 1, 0)"),
    "rules_lib.geometry.square:mark_rows": _call("rules_lib.geometry.square.Square(0, 0)",
                                                 "rules_lib.geometry.square.Facing.NORTH", "range(-1, 2)",
                                                 "range(0, 3)", "bool"),
    "rules_lib.gundam_sentinel.ranges:direction_modifier": _call(
        "'side'", "rules_lib.gundam_sentinel.ranges.DirectionModifiers(front=0, side=-10, rear=-20)"),
    "rules_lib.sheets.base:check_shape": _call("{'armour': 3}", "{'armour': int}", "'the sheet'"),
    "rules_lib.sheets.base:check_sheet": _call("{'armour': 3}", "['armour']", "{'armour': int}", "'wis6'",
                                               "'the sheet'"),
    "rules_lib.sheets.base:load_directory": _call("'nemesis'", "rules_lib.sheets.nemesis.from_dict"),
    "rules_lib.catalogue:checked_in_notebooks": _call(f"{_W}.BOOK"),
    "rules_lib.dice.exact:from_die": _call(f"{_W}.die()"),
    "rules_lib.lazy:lazy_names": _call("'rules_lib'", "{}", "{}"),
    # the battle engine's own parts, over a probe battle
    "rules_lib.battle:Referee": _call(state=f"{_W}.ProbeState", kinds=f"{{{_W}.ProbeAction: 'probe'}}",
                                      checks=f"{{'probe': {_W}.no_check}}", candidates=f"{_W}.no_candidates",
                                      steps=f"{{'probe': {_W}.probe_step}}"),
    "rules_lib.battle:Stalemate": _call(counter="'round'", damage="repr", limit="len"),
    "rules_lib.dice.roll:DiceSource.draw": _call(self=_SEEDED, sides="6"),
    # the BCDice-API server's systems
    "rules_lib.api_systems:GameSystem": _fields_of(GameSystem, _GAME),
    "rules_lib.api_systems:GameSystem.info": _call(self=_GAME),
    "rules_lib.api_systems:GameSystem.summary": _call(self=_GAME),
    "rules_lib.api_systems:help_examples": _call(_GAME),
    "rules_lib.api_systems:odds": _call(_GAME, "'BB+10>50'"),
    "rules_lib.api_systems:roll": _call(_GAME, "'x2 BB+10>50 a comment'", _SEEDED),
    "rules_lib.api_systems:text": _call("rules_lib.gundam_sentinel.commands.COMMANDS.roll('BB+10>50', seed=1)"),
    # the shared checks, reader and sheets
    "rules_lib.checks:choice": _call("'up'", "'rounding'", "['up', 'down']"),
    "rules_lib.checks:of_type": _call("3", "'a count'", "int"),
    "rules_lib.reader:distribution_table": _call("[(1, Fraction(1, 2)), (2, Fraction(1, 2))]"),
    "rules_lib.reader:odds_table": _call("{1: Fraction(1, 2), 2: Fraction(1, 2)}"),
    "rules_lib.sheets.limits:check_tree": _call("{'name': 'x', 'weapons': [{'name': 'y'}]}"),
    "rules_lib.sheets.base:sheet_named": _call("{'id': 'x'}"),
    # BCDice-format test data and the Udonarium piece (issue 37)
    "rules_lib.bcdice_tests:game_system": _call("'wis6'"),
    "rules_lib.bcdice_tests:cases": _call("'wis6'"),
    "rules_lib.bcdice_tests:dumps": _call("'wis6'"),
    "rules_lib.bcdice_tests:case": _call("rules_lib.bcdice_tests.game_system('wis6')", "'SL<=13'", "[3]"),
    "rules_lib.sheets.udonarium:dicebot": _call("'wis6'"),
    "rules_lib.sheets.udonarium:export": _call("rules_lib.sheets.get('wis6', 'raider')"),
    "rules_lib.sheets.udonarium:character": _call(_PIECE, "'RulesLib_WIS6'"),
    "rules_lib.sheets.udonarium:data_xml": _call(_PIECE, "'RulesLib_WIS6'"),
    "rules_lib.sheets.udonarium:archive": _call(_PIECE, "'RulesLib_WIS6'"),
}
