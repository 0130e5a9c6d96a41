"""A guided first battle: two piloted mecha (機兵) on the square combat map, step by step (004 §3-4).

The state is frozen; :func:`~rules_lib.battle.step` applies one action with the chapter's rule functions and
returns the new state with a plain-English explanation:

- initiative: :func:`~rules_lib.verse_world.initiative_roll` and
  :func:`~rules_lib.verse_world.turn_order` (004 §3-4-1), delays included;
- movement: :func:`~rules_lib.verse_world.walk_path` for each step (costs, locomotion modes, the
  last-step rule, 004 §3-4-2-1, §3-4-3-1), :func:`~rules_lib.verse_world.plan_move` for the reachable
  squares, the mode's mecha MP (機兵MP) from :func:`~rules_lib.verse_world.drain_distribution`'s dice;
- attack: :func:`~rules_lib.verse_world.attack_roll`, :func:`~rules_lib.verse_world.evasion_roll`,
  :func:`~rules_lib.verse_world.resolve_attack`, :func:`~rules_lib.verse_world.damage_taken`,
  :func:`~rules_lib.verse_world.fumble_check` (004 §3-4-2-2), the front squares and the firing arc
  (:func:`~rules_lib.verse_world.can_melee`, :func:`~rules_lib.verse_world.in_firing_arc`), a charge
  (:func:`~rules_lib.verse_world.charge`, 004 §3-4-3-1);
- end of the turn: :func:`~rules_lib.verse_world.extra_action_check` and
  :func:`~rules_lib.verse_world.extra_action_roll` (004 §3-4-1), then the pilot's MP drain
  :func:`~rules_lib.verse_world.pilot_mp_loss` (004 §3-4-1, line 21).

An illegal action raises :class:`IllegalStep` (a ``ValueError``) naming the reason before any
die is drawn, and the state passed in is unchanged. Dice come from the action (``dice=[...]``,
used in the order the action's docstring gives) or from a :class:`~rules_lib.dice.SeededDice`
kept outside the state.

Everything the text does not give is *not in the source text*: the units and their values
(:func:`sample_units`), the map, the GM's fumble difficulty, and the critical rule, which
:func:`new_battle` requires with no default (see :class:`~rules_lib.verse_world.CriticalRule`).

The units, state and actions are in :mod:`.battle_state`, the odds at the other decisions in
:mod:`.battle_odds`, the map and unit table in :mod:`.figures`; the loop (legality, step, play,
log) is the engine's (``rules_lib.battle.Referee``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from .. import battle as referee
from .. import checks
from ..battle import ActionDice, IllegalStep, StepResult, finish
from ..dice import SeededDice, percent
from ..geometry.square import Pose
from .attack import (
    AttackOdds,
    attack_odds,
    attack_roll,
    can_melee,
    damage_taken,
    evasion_roll,
    fumble_check,
    in_firing_arc,
    resolve_attack,
)
from .battle_state import (
    ACTION_KINDS,
    KINDS,
    MOVE_STEPS,
    PHASES,
    SAMPLE,
    Action,
    Attack,
    BattleRules,
    BattleState,
    Delay,
    EndAction,
    EndTurn,
    Move,
    Phase,
    Reload,
    RollInitiative,
    StandUp,
    TryExtraAction,
    Turn,
    Unit,
    Weapon,
    WeaponCondition,
    WeaponKind,
    _inside,
    new_battle,
    sample_units,
)
from .movement import locomotion_mode, move_costs, walk_path
from .mp import pilot_mp_loss
from .special import CHARGE_MIN_SQUARES, charge, stand_up
from .turn import (
    Combatant,
    TurnOrder,
    action_step_allowed,
    extra_action_check,
    extra_action_roll,
    initiative_roll,
    turn_order,
)

# -- legality -------------------------------------------------------------------------------


def _phase(state: BattleState, *phases: str, what: str) -> None:
    if state.phase == "over":
        raise IllegalStep(f"the battle is over: no {what}")
    if state.phase not in phases:
        need = {"initiative": "roll initiative first", "end-of-turn": "every unit has acted: end the turn",
                "action": "it is not a unit's action now"}[state.phase]
        raise IllegalStep(f"no {what} now: {need}")


def _check_actor(state: BattleState, name: str, what: str) -> Unit:
    unit = state.unit(name)
    if unit.down:
        why = "its HP is used up" if unit.hp <= 0 else "its pilot's MP is used up"
        raise IllegalStep(f"{name} is down ({why}) and cannot {what}")
    _phase(state, "action", what=what)
    if name != state.actor:
        raise IllegalStep(f"it is {state.actor}'s action, not {name}'s: {name} may not {what} out of turn")
    return unit


def _check_not_prone(unit: Unit, what: str) -> None:
    if unit.prone:
        raise IllegalStep(f"{unit.name} has fallen: it must stand up, which takes its whole action (004 §3-4-3-1, line 105), "
                          f"before it can {what}")


def _check_move(state: BattleState, action: Move) -> tuple[Unit, Pose, int, list[str]]:
    unit = _check_actor(state, action.unit, "move")
    _check_not_prone(unit, "move")
    current = state.current
    # a move continues over several Move steps; what refuses it is an attack already made
    if not action_step_allowed(["attack"] if current.attacked else [], "move"):
        raise IllegalStep(f"{unit.name} has attacked: the move comes first, the attack after (004 §3-4-2)")
    if not action.steps:
        raise IllegalStep("a move needs at least one step")
    try:
        mode = locomotion_mode(action.mode).key
    except ValueError as error:
        raise IllegalStep(str(error)) from None
    if mode not in unit.modes:
        raise IllegalStep(f"{unit.name} is not fitted for {locomotion_mode(mode).english} movement: "
                          f"its modes are {', '.join(unit.modes)} (004 §3-4-3-1)")
    if current.mode is not None and current.mode != mode:
        raise IllegalStep(f"{unit.name}'s move this action is in {current.mode} mode: one move keeps one mode (a ruling)")
    if current.mode is None and mode != "walk" and unit.mecha_mp <= 0:
        raise IllegalStep(f"{unit.name} has no mecha MP (機兵MP) left for {mode} movement (004 §3-4-3-1)")
    points = current.points_left if current.mode is not None else unit.movement
    no_turning = (unit.name, "thruster") in state.modes_used
    pose = unit.pose
    enemy = state.opponent(unit.name).pose.square
    lines = []
    for label in action.steps:
        if label not in MOVE_STEPS:
            raise IllegalStep(f"step {label!r} is unknown: allowed are {', '.join(MOVE_STEPS)}")
        if no_turning and label.startswith("turn"):
            raise IllegalStep(f"{unit.name} used its thrusters this combat turn: no change of facing in that turn "
                              "(004 §3-4-3-1, line 146)")
        try:
            path = walk_path([label], points, scale="mecha", mode=mode, start=pose)
        except ValueError as error:
            reason = str(error)
            if "no movement points are left" in reason:
                reason = f"{unit.name} has no movement points (移動力) left for '{label}' (004 §3-4-2-1)"
            raise IllegalStep(reason) from None
        after = path.end
        if not _inside(after.square, state.rules):
            raise IllegalStep(f"'{label}' would take {unit.name} to {after.square}, off the "
                              f"{state.rules.width}x{state.rules.height} map")
        if after.square == enemy:
            raise IllegalStep(f"'{label}' would take {unit.name} into {state.opponent(unit.name).name}'s square {enemy}")
        lines.append(f"{label}: {path.steps[0].split(': ', 1)[1]} -> {after}")
        points, pose = path.remaining, after
    cost_dice = _mode_dice(state, unit, mode)
    if action.dice and not cost_dice:
        raise IllegalStep(f"{mode} movement needs no dice now: its mecha MP ({locomotion_mode(mode).mecha_mp_per_turn}) "
                          + ("is 0" if locomotion_mode(mode).mecha_mp_per_turn == "0"
                             else "is fixed" if not _dice_of(locomotion_mode(mode).mecha_mp_per_turn)
                             else "is paid once a turn and was already paid"))
    ActionDice.check_given(action.dice, 6, cost_dice, f"{mode} movement's mecha MP ({locomotion_mode(mode).mecha_mp_per_turn})")
    return unit, pose, points, lines


def _mode_pays(state: BattleState, unit: Unit, mode: str) -> bool:
    """Whether this move pays the mode's mecha MP: the first use of the mode by the unit in this combat turn."""
    return (state.current.mode is None and locomotion_mode(mode).mecha_mp_per_turn != "0"
            and (unit.name, mode) not in state.modes_used)


def _mode_dice(state: BattleState, unit: Unit, mode: str) -> int:
    return _dice_of(locomotion_mode(mode).mecha_mp_per_turn) if _mode_pays(state, unit, mode) else 0


def _check_attack(state: BattleState, action: Attack) -> tuple[Unit, Weapon, Unit]:
    unit = _check_actor(state, action.unit, "attack")
    _check_not_prone(unit, "attack")
    done = ["move"] * state.current.moved + ["attack"] * state.current.attacked
    if not action_step_allowed(done, "attack"):
        raise IllegalStep(f"{unit.name} has already attacked in this action: one attack per action (004 §3-4-2)")
    weapon = unit.weapon(action.weapon)
    if weapon.condition != "ready":
        raise IllegalStep(f"{unit.name}'s {weapon.name} is {weapon.condition}: it cannot attack with it")
    target = state.opponent(unit.name)
    here, facing, there = unit.pose.square, unit.pose.facing, target.pose.square
    if weapon.kind == "melee":
        if not can_melee(here, facing, there):
            raise IllegalStep(f"{target.name} at {there} is not in {unit.name}'s three front squares: "
                              f"a melee attack reaches only those (004 §3-4-2-2)")
    else:
        if not in_firing_arc(here, facing, there):
            raise IllegalStep(f"{target.name} at {there} is outside {unit.name}'s firing arc (射界), "
                              f"the 90-degree cone ahead (004 §3-4-2-3)")
        if weapon.magazine is not None and not weapon.loaded:
            raise IllegalStep(f"{unit.name}'s {weapon.name} is empty: reload it first (004 §3-4-2-3, line 71)")
    if action.charge:
        if weapon.kind != "melee":
            raise IllegalStep("a charge ends in a melee attack after running into contact (004 §3-4-3-1, line 89)")
        if state.current.run < CHARGE_MIN_SQUARES:
            raise IllegalStep(f"a charge needs {CHARGE_MIN_SQUARES} or more squares straight ahead into contact; "
                              f"{unit.name} ran {state.current.run} (004 §3-4-3-1, line 89)")
        if state.extra:
            raise IllegalStep("a charge must come before the target's action (004 §3-4-3-1, line 89); the extra action "
                              "comes after everyone's (a reading)")
        if state.position(unit.name) > state.position(target.name):
            raise IllegalStep(f"a charge must come before the target's action in the acting order (004 §3-4-3-1, line 89): "
                              f"{unit.name} acts after {target.name}")
    return unit, weapon, target


def _check_reload(state: BattleState, action: Reload) -> tuple[Unit, Weapon]:
    unit = _check_actor(state, action.unit, "reload")
    _check_not_prone(unit, "reload")
    weapon = unit.weapon(action.weapon)
    if weapon.magazine is None:
        raise IllegalStep(f"{weapon.name} has no magazine to reload")
    if weapon.condition != "ready":
        raise IllegalStep(f"{unit.name}'s {weapon.name} is {weapon.condition}")
    if weapon.loaded:
        raise IllegalStep(f"{weapon.name} still has {weapon.loaded} shot(s): a spare magazine goes in once it is empty "
                          "(004 §3-4-2-3, line 71)")
    if not weapon.spares:
        raise IllegalStep(f"{unit.name} has no spare magazine for its {weapon.name}")
    if state.current.moved or state.current.attacked:
        raise IllegalStep("reloading spends the unit's whole action (a reading of 004 §3-4-2-3, line 71): "
                          "it may not move or attack in the same action")
    return unit, weapon


def _check_initiative(state: BattleState, action: RollInitiative) -> None:
    _phase(state, "initiative", what="initiative roll")
    ActionDice.check_given(action.dice, 6, 2 * len(state.units), "the initiative roll")


def _check_delay(state: BattleState, action: Delay) -> None:
    unit = _check_actor(state, action.unit, "delay")
    slot = next(s for s in state.order.slots if s.name == unit.name)
    if state.extra:
        raise IllegalStep("the extra action cannot be delayed")
    if slot.delayed:
        raise IllegalStep(f"{unit.name} has already delayed: it acts at initiative value 0")
    if state.current.moved or state.current.attacked:
        raise IllegalStep("a delay is declared before acting (004 §3-4-1, line 10), not after moving or attacking")


def _check_stand_up(state: BattleState, action: StandUp) -> None:
    unit = _check_actor(state, action.unit, "stand up")
    if not unit.prone:
        raise IllegalStep(f"{unit.name} is standing")


def _check_end_action(state: BattleState, action: EndAction) -> None:
    _check_actor(state, action.unit, "end its action")


def _check_extra_action(state: BattleState, action: TryExtraAction) -> None:
    _phase(state, "end-of-turn", what="extra-action contest")
    if state.extra_tried:
        raise IllegalStep("the extra-action contest of this turn has been rolled: at most one a turn (004 §3-4-1, line 14)")
    if _extra_check(state).passive is None:
        raise IllegalStep("nobody may try an extra action this turn: " + "; ".join(_extra_check(state).steps))
    ActionDice.check_given(action.dice, 6, 4, "the extra-action contest")


def _check_end_turn(state: BattleState, action: EndTurn) -> None:
    _phase(state, "end-of-turn", what="end of the turn")
    if not state.extra_tried and _extra_check(state).passive is not None:
        raise IllegalStep("first the extra-action contest (004 §3-4-1, line 14): "
                          f"{_extra_check(state).candidate} may try")
    ActionDice.check_given(action.dice, 6, len(state.units), "the pilots' MP drain")


@checks.checked_arguments
def check(state: BattleState, action: Action) -> None:
    """Raise :class:`IllegalStep` with the reason if ``action`` is not allowed now (no dice are drawn)."""
    REFEREE.check(state, action)


def _candidates(state: BattleState) -> tuple[Action, ...]:
    """The actions worth offering now, one example each for moves and attacks.

    Moves are single steps (``Move(unit, ("forward",), mode)``) in each mode the unit may use;
    attacks are each weapon that can reach the target, as a charge too when one is allowed.
    """
    candidates: list[Action] = [RollInitiative(), TryExtraAction(), EndTurn()]
    actor = state.actor
    if actor is not None and state.phase == "action":
        unit = state.unit(actor)
        modes = (state.current.mode,) if state.current.mode else unit.modes
        candidates.append(Delay(actor))
        candidates += [Move(actor, (s,), m) for m in modes for s in MOVE_STEPS]
        candidates += [Attack(actor, w.name, charge=c) for w in unit.weapons for c in (False, True)]
        candidates += [Reload(actor, w.name) for w in unit.weapons]
        candidates += [StandUp(actor), EndAction(actor)]
    return tuple(candidates)


# -- dice ---------------------------------------------------------------------------------------



def _dice_of(expression: str) -> int:
    """Number of six-sided dice in ``"2"``, ``"1D6"``, ``"2D6"``, ``"3D6"``."""
    match = re.fullmatch(r"(\d+)D6", expression)
    return int(match.group(1)) if match else 0


# -- steps ------------------------------------------------------------------------------------


def _next_actor(order: TurnOrder, acted: Sequence[str], units: Sequence[Unit]) -> str | None:
    down = {u.name for u in units if u.down}
    for slot in order.slots:
        if slot.name not in acted and slot.name not in down:
            return slot.name
    return None


def _initiative(state: BattleState, action: RollInitiative, source: SeededDice | None) -> StepResult:
    ActionDice.check_given(action.dice, 6, 2 * len(state.units), "the initiative roll")
    dice = ActionDice(action.dice, source, "the initiative roll")
    combatants, lines = [], [f"Turn {state.turn}: initiative roll = initiative bonus + 2D6 (004 §3-4-1)"]
    for unit in state.units:
        pair = dice.d(6, 2)
        result = initiative_roll(unit.initiative_bonus, dice=pair)
        combatants.append(Combatant(unit.name, unit.side, result.total))
        lines.append(f"{unit.name}: bonus {unit.initiative_bonus} + 2D6 ({pair[0]}+{pair[1]}) = {result.total}")
    dice.finish()
    order = turn_order(combatants, npcs_after_pcs=state.rules.npcs_after_pcs)
    lines.append("acting order, highest first: " + ", ".join(f"{s.name} ({s.initiative})" for s in order.slots))
    actor = order.slots[0].name
    lines.append(f"{actor} acts first.")
    return finish(state, lines, dice.drawn, order, phase="action", order=order, acted=(), actor=actor,
                   current=Turn(points_left=state.unit(actor).movement), extra=False, extra_tried=False,
                   extra_winner=None)


def _delay(state: BattleState, action: Delay, source: SeededDice | None) -> StepResult:
    combatants = [Combatant(s.name, s.side, s.initiative, delays=s.delayed or s.name == action.unit)
                  for s in state.order.slots]
    order = turn_order(combatants, npcs_after_pcs=state.rules.npcs_after_pcs)
    actor = _next_actor(order, state.acted, state.units)
    lines = [f"{action.unit} delays: it will act at initiative value 0, at the end of the turn (004 §3-4-1, line 10), "
             "and gives up any claim to the extra action (line 15)",
             "acting order now: " + ", ".join(s.name + (" (delayed)" if s.delayed else "") for s in order.slots),
             f"{actor} acts."]
    return finish(state, lines, (), order, order=order, actor=actor,
                   current=Turn(points_left=state.unit(actor).movement))


def _move(state: BattleState, action: Move, source: SeededDice | None) -> StepResult:
    unit, pose, points, step_lines = _check_move(state, action)
    mode = locomotion_mode(action.mode)
    first = state.current.mode is None
    pays = _mode_pays(state, unit, mode.key)
    cost_dice = _mode_dice(state, unit, mode.key)
    lines = []
    if first:
        costs = move_costs("mecha", mode.key).steps
        rules = [costs[0]] if len(costs) == 1 else [costs[1].split(": ", 1)[1], *costs[2:]]
        lines.append(f"{unit.name} moves by {mode.english} ({mode.japanese}) with {unit.movement} movement points "
                     f"(移動力): " + "; ".join(rules))
    lines += [f"  {line}" for line in step_lines]
    mecha_mp = unit.mecha_mp
    drawn: tuple[int, ...] = ()
    if pays:
        if cost_dice:
            dice = ActionDice(action.dice, source, "the mode's mecha MP")
            drawn = dice.d(6, cost_dice)
            dice.finish()
        cost = sum(drawn) if cost_dice else int(mode.mecha_mp_per_turn)
        mecha_mp = max(unit.mecha_mp - cost, 0)
        shown = f" ({'+'.join(map(str, drawn))})" if drawn else ""
        lines.append(f"  {mode.english} costs {mode.mecha_mp_per_turn}{shown} = {cost} mecha MP (機兵MP) this turn "
                     f"(004 §3-4-3-1, {mode.lines}): {unit.mecha_mp} -> {mecha_mp}")
    run = state.current.run
    for label in action.steps:
        run = run + 1 if label == "forward" else 0
    lines.append(f"  {points} movement points left")
    moved = replace(unit, pose=pose, mecha_mp=mecha_mp)
    current = replace(state.current, mode=mode.key, points_left=points, steps=state.current.steps + action.steps, run=run)
    used = state.modes_used + (((unit.name, mode.key),) if (unit.name, mode.key) not in state.modes_used else ())
    return finish(state.with_unit(moved), lines, drawn, current=current, modes_used=used)


def decision_odds(state: BattleState, action: Attack) -> AttackOdds:
    """Exact odds of an attack the acting unit could make now (hit, fumbles, HP lost after protection)."""
    unit, weapon, target = _check_attack(state, action)
    plan = charge(state.current.run) if action.charge else None
    return attack_odds(
        unit.to_hit + (plan.attack_modifier if plan else 0), target.evasion if action.evade else None,
        criticals=state.rules.criticals, tie=state.rules.tie, weapon_damage=weapon.damage,
        physical_bonus=unit.physical_bonus, bonus_applies=weapon.bonus_applies, protection=target.protection,
        extra_damage_rolls=plan.extra_damage_rolls if plan else 0,
    )


def describe_odds(state: BattleState, action: Attack) -> str:
    """One line: the chance to hit, the chance to fell the target, and the expected damage after protection."""
    odds = decision_odds(state, action)
    target = state.opponent(action.unit)
    down = odds.damage.at_least(target.hp)
    name = f"{action.weapon}" + (" (charge)" if action.charge else "")
    return (f"{name}: {percent(odds.hit)} to hit ({odds.hit}); expected damage after protection "
            f"{float(odds.damage.mean()):.2f} ({float(odds.damage_if_hit.mean()):.2f} on a hit); "
            f"{percent(down)} to bring {target.name} down from {target.hp} HP")


def _attack(state: BattleState, action: Attack, source: SeededDice | None) -> StepResult:
    unit, weapon, target = _check_attack(state, action)
    criticals = state.rules.criticals
    dice = ActionDice(action.dice, source, "the attack")
    lines = []
    modifier, extra_rolls, plan = 0, 0, None
    if action.charge:
        plan = charge(state.current.run, acts_before_target=True)
        modifier, extra_rolls = plan.attack_modifier, plan.extra_damage_rolls
        lines.append(f"{unit.name} charges (突撃, 004 §3-4-3-1): " + "; ".join(plan.steps))
    verb = "swings its" if weapon.kind == "melee" else "fires its"
    lines.append(f"{unit.name} {verb} {weapon.name} at {target.name} "
                 + ("(one of the three front squares, 004 §3-4-2-2)" if weapon.kind == "melee"
                    else "(in the firing arc, 004 §3-4-2-3)"))
    if weapon.magazine is not None:
        weapon = replace(weapon, loaded=weapon.loaded - 1)
        lines.append(f"  {weapon.name}: {weapon.loaded} shot(s) left in the magazine")
    attack = attack_roll(unit.to_hit, dice.d(6, 2), modifier=modifier, criticals=criticals)
    evasion = None
    if action.evade and not attack.fumbled:
        evasion = evasion_roll(target.evasion, dice.d(6, 2), criticals=criticals)
    elif not action.evade:
        lines.append(f"  {target.name} gives up evasion (004 §3-4-2-2, line 46)")
    resolution = resolve_attack(attack, evasion, tie=state.rules.tie, extra_damage_rolls=extra_rolls)
    lines += [f"  {s}" for s in resolution.steps]
    damage = None
    if resolution.hit:
        rolled = dice.d(6, weapon.dice * resolution.damage_rolls)
        damage = damage_taken(weapon.damage, rolled, physical_bonus=unit.physical_bonus, rolls=resolution.damage_rolls,
                              protection=target.protection, direct_hit=resolution.direct_hit,
                              bonus_applies=weapon.bonus_applies)
        lines += [f"  {s}" for s in damage.steps]
        if not weapon.bonus_applies:
            lines.append("  (a magic gun adds no physical damage bonus, 004 §3-4-2-3, line 72)")
        hp = target.hp - damage.taken
        lines.append(f"  {target.name}: HP {target.hp} - {damage.taken} = {hp}")
        target = replace(target, hp=hp)
    if resolution.attacker_fumbled or resolution.attacker_treated_as_fumbled:
        check_result = fumble_check(unit.luck, state.rules.fumble_difficulty, dice.d(6, 2), armed=True)
        lines.append(f"  fumble processing: pilot {unit.pilot}'s luck check (004 §3-4-2-2, line 43; difficulty "
                     f"{state.rules.fumble_difficulty} is the GM's choice, a sample value)")
        lines += [f"  {s}" for s in check_result.steps]
        if check_result.outcome == "drop-weapon":
            weapon = replace(weapon, condition="dropped")
        if plan is not None and resolution.attacker_fumbled:
            lines.append(f"  a fumbled charge also fells the charger: {unit.name} falls (転倒, 004 §3-4-3-1, line 89)")
            unit = replace(unit, prone=True)
    if resolution.attacker_mishap:
        weapon = replace(weapon, condition="broken")
        lines.append(f"  the GM's mishap (a sample choice, as the text suggests): {unit.name}'s {weapon.name} breaks")
    dice.finish()
    unit = unit.with_weapon(weapon)
    new = state.with_unit(unit).with_unit(target)
    changes: dict[str, object] = {"current": replace(state.current, attacked=True)}
    if target.down:
        lines.append(f"{target.name} is down: {unit.name} wins the battle.")
        changes.update(phase="over", winner=unit.name, actor=None)
    return finish(new, lines, dice.drawn, (attack, evasion, resolution, damage), **changes)


def _reload(state: BattleState, action: Reload, source: SeededDice | None) -> StepResult:
    unit, weapon = _check_reload(state, action)
    weapon = replace(weapon, loaded=weapon.magazine, spares=weapon.spares - 1)
    lines = [f"{unit.name} reloads its {weapon.name} from a spare magazine: {weapon.loaded} shot(s), "
             f"{weapon.spares} spare left; reloading spends the combat turn (004 §3-4-2-3, line 71)"]
    return _end_action(state.with_unit(unit.with_weapon(weapon)), EndAction(unit.name), None, lines)


def _stand_up(state: BattleState, action: StandUp, source: SeededDice | None) -> StepResult:
    unit = state.unit(action.unit)
    lines = [f"{unit.name} stands up (立ち上がり): {stand_up().steps[0]} (004 §3-4-3-1, line 105)"]
    return _end_action(state.with_unit(replace(unit, prone=False)), EndAction(unit.name), None, lines)


def _end_action(state: BattleState, action: EndAction, source: SeededDice | None,
                before: Sequence[str] = ()) -> StepResult:
    name = action.unit
    lines = list(before) + [f"{name} ends its {'extra ' if state.extra else ''}action."]
    if state.extra:
        return finish(state, lines, phase="end-of-turn", actor=None, current=Turn(), extra=False)
    acted = state.acted + (name,)
    actor = _next_actor(state.order, acted, state.units)
    if actor is None:
        lines.append("Everyone has acted: the end-of-turn processing (004 §3-4-1, line 13): no delayed unit is left, "
                     "no ongoing effect in this battle; then the extra action and the pilots' MP drain.")
        return finish(state, lines, phase="end-of-turn", acted=acted, actor=None, current=Turn())
    lines.append(f"{actor} acts" + (" (it delayed: initiative value 0)" if _slot(state.order, actor).delayed else "") + ".")
    return finish(state, lines, acted=acted, actor=actor, current=Turn(points_left=state.unit(actor).movement))


def _slot(order: TurnOrder, name: str):
    return next(s for s in order.slots if s.name == name)


def _extra_check(state: BattleState):
    fallen = [u.name for u in state.units if u.down]
    return extra_action_check(state.order, fallen=fallen, candidate_rule=state.rules.candidate_rule)


def _extra_action(state: BattleState, action: TryExtraAction, source: SeededDice | None) -> StepResult:
    ActionDice.check_given(action.dice, 6, 4, "the extra-action contest")
    found = _extra_check(state)
    active, passive = state.unit(found.candidate), state.unit(found.passive)
    dice = ActionDice(action.dice, source, "the extra-action contest")
    a, p = dice.d(6, 2), dice.d(6, 2)
    dice.finish()
    won, steps = extra_action_roll(active.reaction, passive.reaction, active_dice=a, passive_dice=p)
    lines = ["The extra action (再行動, 004 §3-4-1, lines 14–17): " + "; ".join(found.steps)]
    lines += [f"  {s}" for s in steps]
    changes: dict[str, object] = {"extra_tried": True}
    if won:
        lines.append(f"{active.name} acts once more: a move and an attack.")
        changes.update(phase="action", actor=active.name, extra=True, extra_winner=active.name,
                       current=Turn(points_left=active.movement))
    return finish(state, lines, dice.drawn, won, **changes)


def _end_turn(state: BattleState, action: EndTurn, source: SeededDice | None) -> StepResult:
    ActionDice.check_given(action.dice, 6, len(state.units), "the pilots' MP drain")
    dice = ActionDice(action.dice, source, "the pilots' MP drain")
    lines = [f"End of turn {state.turn}: each pilot in a mecha loses 1D6-3 MP, at least 1 (004 §3-4-1, line 21)"]
    units = []
    for unit in state.units:
        (die,) = dice.d(6, 1)
        loss = pilot_mp_loss(die)
        mp = max(unit.pilot_mp - loss.loss, 0)
        lines.append(f"  {unit.pilot} ({unit.name}): {'; '.join(loss.steps)}: MP {unit.pilot_mp} -> {mp}")
        units.append(replace(unit, pilot_mp=mp))
    dice.finish()
    new = replace(state, units=tuple(units))
    out = [u for u in units if u.pilot_mp <= 0]
    if out:
        names = " and ".join(u.pilot for u in out)
        lines.append(f"{names} has used up the MP: the mecha's operating limit (line 21; a reading: it is out of the fight).")
        standing = [u for u in units if not u.down]
        winner = standing[0].name if len(standing) == 1 else None
        lines.append(f"{winner} wins the battle." if winner else "Neither mecha can fight on: a draw.")
        return finish(new, lines, dice.drawn, phase="over", winner=winner, actor=None, order=state.order,
                      end_reason=None if winner else "neither mecha can fight on: a draw")
    lines.append(f"Turn {state.turn + 1} begins: roll initiative.")
    return finish(new, lines, dice.drawn, turn=state.turn + 1, phase="initiative", order=None, acted=(),
                   actor=None, current=Turn(), extra=False, extra_tried=False, extra_winner=None, modes_used=())


# -- the engine's loop over these rules -----------------------------------------------------------

REFEREE: referee.Referee[BattleState] = referee.Referee(
    BattleState, KINDS,
    {"initiative": _check_initiative, "delay": _check_delay, "move": _check_move, "attack": _check_attack,
     "reload": _check_reload, "stand-up": _check_stand_up, "end-action": _check_end_action,
     "extra-action": _check_extra_action, "end-turn": _check_end_turn},
    _candidates,
    {"initiative": _initiative, "delay": _delay, "move": _move, "attack": _attack, "reload": _reload,
     "stand-up": _stand_up, "end-action": _end_action, "extra-action": _extra_action, "end-turn": _end_turn},
    stalemate=referee.Stalemate(counter="turn", damage=lambda state: tuple(u.hp for u in state.units),
                                limit=lambda state: state.rules.stalemate_rounds),
)
action_kind = REFEREE.action_kind

__all__ = [
    "ACTION_KINDS", "Action", "Attack", "BattleRules", "BattleState", "Delay", "EndAction", "EndTurn", "IllegalStep",
    "KINDS", "MOVE_STEPS", "Move", "PHASES", "Phase", "REFEREE", "Reload", "RollInitiative", "SAMPLE", "StandUp",
    "StepResult", "TryExtraAction", "Turn", "Unit", "Weapon", "WeaponCondition", "WeaponKind", "action_kind",
    "check", "decision_odds", "describe_odds", "new_battle", "sample_units",
]
