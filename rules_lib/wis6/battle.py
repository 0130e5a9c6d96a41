"""A guided first battle: two units on the lettered square map, played step by step (001 §1, §3, §4).

The state is frozen; :func:`~rules_lib.battle.step` applies one action with the chapter's rule functions
(:func:`~rules_lib.wis6.initiative_order`, :func:`~rules_lib.wis6.move`,
:func:`~rules_lib.wis6.resolve_attack`, :func:`~rules_lib.wis6.intercept`,
:func:`~rules_lib.wis6.resolve_counter`, :func:`~rules_lib.wis6.jam`) and returns the new state
with a plain-English explanation. An illegal action raises :class:`IllegalStep` (a
``ValueError``) naming the reason, before any die is drawn, and the state passed in is unchanged.

The flow is the text's (001 §1): the action order is decided once (reaction + mobility, a die
on ties), then each unit in order takes its action, ① recover bad status, ② move, ③ attack,
and when everyone has acted the turn ends and the actions start again. The battle ends when a
unit's AP (ＡＰ) reaches 0: it is wrecked (大破).

What the text does not give is a named parameter marked *not in the source text*: the units and
their values (:func:`sample_units`), the map's size, weapon ranges and ammunition, and the
readings of :class:`BattleRules`. The units, state and actions are in :mod:`.battle_state`, the map
and unit table in :mod:`.figures`; the loop (legality, step, play, log) is the engine's
(``rules_lib.battle.Referee``).
"""

from __future__ import annotations

from dataclasses import replace

from .. import battle as referee
from ..battle import ActionDice, StepResult, finish
from ..dice import SeededDice, percent
from .attack import AttackOdds, AttackResult, attack_odds, resolve_attack
from .battle_state import (
    ACTION_KINDS,
    ANSWER_NAMES,
    ANSWERS,
    KINDS,
    PHASES,
    Action,
    Attack,
    BattleRules,
    BattleState,
    EndAction,
    IllegalStep,
    Jam,
    MoveTo,
    RollOrder,
    Unit,
    Weapon,
    new_battle,
    sample_units,
)
from .counter import CounterOdds, CounterResult, CounterValues, counter_odds, resolve_counter
from .levels import DIE_SIDES
from .rules import Wis6Error, Wis6Rules
from .special import (
    INTERCEPTION_AMMO_COST,
    WEAPON_ABILITIES,
    Interception,
    Jamming,
    intercept,
    jam,
)
from .turn import Combatant, Initiative, distance, initiative_order, move, parse_square

# -- checking -----------------------------------------------------------------------------


def _check_actor(state: BattleState, name: str) -> Unit:
    if state.phase == "over":
        wrecked = [u.name for u in state.units if u.wrecked]
        why = f"{', '.join(wrecked)} is wrecked (大破)" if wrecked else (state.end_reason or "a draw")
        raise IllegalStep(f"the battle is over: {why}, nobody acts any more")
    if state.phase == "order":
        raise IllegalStep("the action order is not decided yet (001 §1-2): roll the order first")
    unit = state.unit(name)
    if unit.wrecked:
        raise IllegalStep(f"{name} is wrecked (大破) and cannot act")
    if name != state.actor:
        raise IllegalStep(f"it is {state.actor}'s action, not {name}'s (the action order is {', '.join(state.order)})")
    return unit


def _check_move(state: BattleState, action: MoveTo):
    unit = _check_actor(state, action.unit)
    if state.attacked:
        raise IllegalStep(f"{unit.name} has already attacked: the move (②) comes before the attack (③) (001 §1-3)")
    if state.moved:
        raise IllegalStep(f"{unit.name} has already moved this action: one move per action (001 §1-3 ②)")
    br = state.battle_rules
    try:
        checked = move(unit.square, parse_square(action.square, columns=br.columns, rows=br.rows),
                       unit.mobility, rules=state.rules)
    except Wis6Error as error:
        raise IllegalStep(str(error)) from None
    other = state.opponent(unit.name)
    if checked.end == other.square and not br.shared_squares:
        raise IllegalStep(f"{checked.end} is {other.name}'s square: units do not share squares (ruling: BattleRules.shared_squares)")
    return unit, checked


def _check_attack(state: BattleState, action: Attack) -> tuple[Unit, Weapon, Unit, Weapon | None, int]:
    unit = _check_actor(state, action.unit)
    if state.attacked:
        raise IllegalStep(f"{unit.name} has already attacked this action: one attack per action (001 §1-3 ③)")
    weapon = unit.weapon(action.weapon)
    br = state.battle_rules
    if weapon.ammo is not None and weapon.ammo < br.ammo_per_attack:
        raise IllegalStep(f"{unit.name}'s {weapon.name} is empty ({weapon.ammo} rounds): it cannot fire")
    target = state.opponent(unit.name)
    far = distance(unit.square, target.square, state.rules)
    if far > weapon.range:
        raise IllegalStep(
            f"{target.name} on {target.square} is {far} squares from {unit.name} on {unit.square}, "
            f"beyond the {weapon.name}'s range {weapon.range}"
        )
    if action.answer not in ANSWERS:
        raise IllegalStep(f"answer {action.answer!r} is not one of {', '.join(ANSWERS)}")
    answer_weapon = None
    if action.answer == "evade":
        if action.answer_weapon is not None:
            raise IllegalStep("evasion rolls reaction (反応), not a weapon: give no answer_weapon")
        return unit, weapon, target, None, far
    if action.answer_weapon is None:
        raise IllegalStep(f"{ANSWER_NAMES[action.answer]} names the weapon {target.name} uses (answer_weapon)")
    answer_weapon = target.weapon(action.answer_weapon)
    if action.answer == "intercept":
        if not weapon.missile:
            raise IllegalStep(f"interception answers missile attacks only (ミサイル, 001 §4-4): the {weapon.name} is not a missile")
        if answer_weapon.kind != "ballistic":
            raise IllegalStep(
                f"the {answer_weapon.name} is an energy weapon: its interception adds generator load points, "
                "which are not in the source text, so this battle intercepts with ballistic weapons only"
            )
        if answer_weapon.ammo is None or answer_weapon.ammo < INTERCEPTION_AMMO_COST:
            raise IllegalStep(f"{target.name}'s {answer_weapon.name} has no round left to intercept with (001 §4-4, line 77)")
    else:  # counter
        if answer_weapon.ammo is not None and answer_weapon.ammo < br.ammo_per_attack:
            raise IllegalStep(f"{target.name}'s {answer_weapon.name} is empty: it cannot counter")
        if br.counter_needs_range and far > answer_weapon.range:
            raise IllegalStep(
                f"{unit.name} is {far} squares away, beyond the {answer_weapon.name}'s range {answer_weapon.range}: "
                "it cannot counter (ruling: BattleRules.counter_needs_range)"
            )
    return unit, weapon, target, answer_weapon, far


def _check_jam(state: BattleState, action: Jam) -> Unit:
    unit = _check_actor(state, action.unit)
    try:
        state.session(unit.name).use("jamming", unit.role)
    except Wis6Error as error:
        raise IllegalStep(str(error)) from None
    return unit


def _check_order(state: BattleState, action: RollOrder) -> None:
    if state.phase != "order":
        raise IllegalStep(f"the action order is decided once, at the start (001 §1-2, §1-4): it is {', '.join(state.order)}")


def _check_attack_and_dice(state: BattleState, action: Attack) -> None:
    _check_attack(state, action)
    ActionDice.check_given(action.dice, DIE_SIDES, 2, "an attack", IllegalStep)


def _check_jam_and_dice(state: BattleState, action: Jam) -> None:
    _check_jam(state, action)
    ActionDice.check_given(action.dice, DIE_SIDES, 2, "jamming", IllegalStep)


def _check_end(state: BattleState, action: EndAction) -> None:
    _check_actor(state, action.unit)


def check(state: BattleState, action: Action) -> None:
    """Raise :class:`IllegalStep` if ``action`` is not allowed in ``state``; draw no dice."""
    REFEREE.check(state, action)


def _candidates(state: BattleState) -> tuple[Action, ...]:
    """The actions worth offering, without dice: each reachable square, each weapon in range with each
    answer the enemy may give, jamming if allowed, and ending the action."""
    if state.phase == "order":
        return (RollOrder(),)
    name = state.actor
    unit, target = state.unit(name), state.opponent(name)
    br = state.battle_rules
    candidates: list[Action] = [
        MoveTo(name, f"{chr(ord('A') + c)}-{r}") for r in range(1, br.rows + 1) for c in range(br.columns)
    ]
    for weapon in unit.weapons:
        candidates.append(Attack(name, weapon.name))
        for answer in ("intercept", "counter"):
            candidates.extend(Attack(name, weapon.name, answer, w.name) for w in target.weapons)
    candidates += [Jam(name), EndAction(name)]
    return tuple(candidates)


# -- stepping -----------------------------------------------------------------------------


def _start_of_action(name: str) -> str:
    return (f"{name}'s action: ① recover bad status (ＢＳの回復): the text does not define bad status (001 §1-3, line 14), "
            "so there is nothing to recover")


def _roll_order(state: BattleState, action: RollOrder, source: SeededDice | None) -> StepResult:
    combatants = [u.combatant() for u in state.units]
    if action.dice is not None:
        try:
            initiative = initiative_order(combatants, dice=list(action.dice), rules=state.rules)
        except Wis6Error as error:
            raise IllegalStep(str(error)) from None
    else:
        initiative = _order_from(combatants, source, state.rules)
    lines = ["action order (行動順, 001 §1-2): reaction + mobility, highest first; a die breaks ties"]
    lines += list(initiative.steps)
    lines += ["turn 1 begins (001 §1-3)", _start_of_action(initiative.order[0])]
    dice = tuple(r for _, r in initiative.tie_rolls)
    return finish(state, lines, dice, initiative, phase="action", order=initiative.order, turn=1, acting=0)


def _order_from(combatants: list[Combatant], source: SeededDice | None, rules: Wis6Rules) -> Initiative:
    drawn: list[int] = []
    while True:
        try:
            return initiative_order(combatants, dice=drawn, rules=rules)
        except Wis6Error as error:
            if "more dice" not in str(error):
                raise
            if source is None:
                raise IllegalStep("the action order has a tie: give the tie-break dice (dice=[...]) or a SeededDice") from None
            drawn.append(source.draw(rules.tie_die_sides))


def _move(state: BattleState, action: MoveTo, source: SeededDice | None = None) -> StepResult:
    unit, checked = _check_move(state, action)
    moved = replace(unit, square=checked.end)
    lines = [f"② {unit.name} moves (移動, 001 §1-3): " + checked.steps[0]]
    return finish(state, lines, (), checked, units=state._with_unit(moved), moved=True)


def _spend(weapon: Weapon, rounds: int) -> Weapon:
    return weapon if weapon.ammo is None else replace(weapon, ammo=weapon.ammo - rounds)


def _with_weapon(unit: Unit, weapon: Weapon) -> Unit:
    return replace(unit, weapons=tuple(weapon if w.name == weapon.name else w for w in unit.weapons))


def _counter_values(attacker: Unit, weapon: Weapon, target: Unit, answer_weapon: Weapon) -> CounterValues:
    """The values of a counter by ``target`` with ``answer_weapon`` against ``attacker``'s ``weapon``."""
    return CounterValues(enemy_weapon_attack=weapon.attack, own_armour=target.armour, own_ap=target.ap,
                         own_weapon_attack=answer_weapon.attack, enemy_armour=attacker.armour)


def _attack(state: BattleState, action: Attack, source: SeededDice | None) -> StepResult:
    unit, weapon, target, answer_weapon, far = _check_attack(state, action)
    draw = ActionDice(action.dice, source, "an attack")
    dice = draw.d(DIE_SIDES, 2)
    draw.finish()
    rules, br = state.rules, state.battle_rules
    a_ability = unit.ability(weapon.kind)
    lines = [
        f"③ {unit.name} attacks {target.name} with the {weapon.name} ({far} squares, range {weapon.range}): "
        f"a d20 against {WEAPON_ABILITIES[weapon.kind]} {a_ability} (001 §3-1)",
    ]
    attacker_weapon = _spend(weapon, br.ammo_per_attack)
    if weapon.ammo is not None:
        lines.append(f"the {weapon.name} spends {br.ammo_per_attack} round: {weapon.ammo} → {attacker_weapon.ammo} "
                     "(ruling: BattleRules.ammo_per_attack)")
    attacker = _with_weapon(unit, attacker_weapon)
    defender = target
    detail: AttackResult | Interception | CounterResult
    if action.answer == "evade":
        lines.append(f"{target.name} evades (回避): a d20 against reaction {target.reaction} (001 §3-2)")
        detail = resolve_attack(dice[0], a_ability, dice[1], target.reaction, weapon.attack, target.armour, rules=rules)
        lines += list(detail.steps)
        defender = _hurt(defender, detail.damage or 0, lines)
    elif action.answer == "intercept":
        i_ability = target.ability(answer_weapon.kind)
        lines.append(f"{target.name} intercepts the missile (迎撃, 001 §4-4) with the {answer_weapon.name}: "
                     f"a d20 against {WEAPON_ABILITIES[answer_weapon.kind]} {i_ability} instead of reaction")
        detail = intercept(dice[0], a_ability, dice[1], i_ability, attack_kind="missile", weapon_kind="ballistic",
                           missile_weapon_attack=weapon.attack, armour=target.armour, ammo=answer_weapon.ammo,
                           rules=rules)
        lines += list(detail.steps)
        defender = _with_weapon(defender, replace(answer_weapon, ammo=detail.ammo_after))
        defender = _hurt(defender, detail.attack.damage or 0, lines)
    else:
        c_ability = target.ability(answer_weapon.kind)
        lines.append(f"{target.name} declares a counter (カウンター, 001 §4-5) with the {answer_weapon.name}: it gives up "
                     f"evading, takes the hit, then rolls {WEAPON_ABILITIES[answer_weapon.kind]} {c_ability}")
        detail = resolve_counter(dice[0], a_ability, dice[1], c_ability,
                                 _counter_values(unit, weapon, target, answer_weapon), rules=rules)
        lines += list(detail.steps)
        defender = replace(defender, ap=max(detail.ap_after, 0))
        if not detail.wrecked:
            spent = _spend(answer_weapon, br.ammo_per_attack)
            if answer_weapon.ammo is not None:
                lines.append(f"the {answer_weapon.name} spends {br.ammo_per_attack} round on the counter: "
                             f"{answer_weapon.ammo} → {spent.ammo} (ruling: BattleRules.ammo_per_attack)")
            defender = _with_weapon(defender, spent)
            if detail.enemy_damage:
                attacker = _hurt(attacker, detail.enemy_damage, lines)
    units = tuple(attacker if u.name == attacker.name else defender for u in state.units)
    changes: dict = {"units": units, "attacked": True}
    wrecked = [u for u in units if u.wrecked]
    if wrecked:
        winner = next(u.name for u in units if not u.wrecked) if len(wrecked) < len(units) else None
        lines.append(f"{wrecked[0].name}'s AP is 0: wrecked (大破). The battle is over"
                     + (f"; {winner} wins." if winner else "."))
        changes.update(phase="over", winner=winner)
    return finish(state, lines, dice, detail, **changes)


def _hurt(unit: Unit, amount: int, lines: list[str]) -> Unit:
    if amount <= 0:
        return unit
    after = max(unit.ap - amount, 0)
    lines.append(f"{unit.name}'s AP {unit.ap} − {amount} = {unit.ap - amount}" + (" → 0" if unit.ap - amount < 0 else ""))
    return replace(unit, ap=after)


def _jam(state: BattleState, action: Jam, source: SeededDice | None) -> StepResult:
    unit = _check_jam(state, action)
    target = state.opponent(unit.name)
    draw = ActionDice(action.dice, source, "jamming")
    dice = draw.d(DIE_SIDES, 2)
    draw.finish()
    result: Jamming = jam(dice[0], unit.information, dice[1], target.information, session=state.session(unit.name),
                          role=unit.role, rules=state.rules)
    lines = [f"{unit.name} jams {target.name} (ジャミング, 001 §4-6): information {unit.information} "
             f"against information {target.information}"]
    lines += list(result.steps)
    lines.append(f"{target.name} has no cooperation (協調行動) to cancel in a two-unit battle: the use is spent all the same")
    sessions = tuple(result.session if u.name == unit.name else s for u, s in zip(state.units, state.sessions, strict=True))
    return finish(state, lines, dice, result, sessions=sessions)


def _end(state: BattleState, action: EndAction, source: SeededDice | None = None) -> StepResult:
    lines = [f"{action.unit} ends its action"]
    nxt = state.acting + 1
    turn = state.turn
    if nxt >= len(state.order):
        lines.append(f"everyone has acted: turn {turn} ends (全員が行動したら、１ターン終了, 001 §1-4); "
                     "back to the actions in the same order")
        nxt, turn = 0, turn + 1
        lines.append(f"turn {turn} begins")
    lines.append(_start_of_action(state.order[nxt]))
    return finish(state, lines, (), None, acting=nxt, turn=turn, moved=False, attacked=False)


def decision_odds(state: BattleState, action: Attack) -> AttackOdds | CounterOdds:
    """The exact odds of an attack before its dice are rolled (001 §3, §4-4, §4-5): an
    :class:`~rules_lib.wis6.AttackOdds` for evasion and interception, a
    :class:`~rules_lib.wis6.CounterOdds` for a counter. The action must be legal."""
    unit, weapon, target, answer_weapon, _ = _check_attack(state, action)
    a_ability = unit.ability(weapon.kind)
    if action.answer == "evade":
        return attack_odds(a_ability, target.reaction, weapon.attack, target.armour, rules=state.rules)
    if action.answer == "intercept":
        return attack_odds(a_ability, target.ability(answer_weapon.kind), weapon.attack, target.armour, rules=state.rules)
    return counter_odds(a_ability, target.ability(answer_weapon.kind),
                        _counter_values(unit, weapon, target, answer_weapon), rules=state.rules)


def describe_odds(state: BattleState, action: Attack) -> str:
    """One plain-English line of :func:`decision_odds`: the chance of damage and the expected damage."""
    odds = decision_odds(state, action)
    unit, target = state.unit(action.unit), state.opponent(action.unit)
    answer = ANSWER_NAMES[action.answer] + (f" with the {action.answer_weapon}" if action.answer_weapon else "")
    head = f"{unit.name}'s {action.weapon} against {target.name}'s {answer}: "
    if isinstance(odds, AttackOdds):
        p = odds.damage_calculated
        return (head + f"damage is calculated with chance {p} ({percent(p)}), a critical {odds.outcomes['critical']} "
                f"({percent(odds.outcomes['critical'])}); expected damage {float(odds.mean_damage):.2f}; "
                f"{target.name} wrecked with chance {percent(odds.damage.at_least(target.ap))}")
    return (head + f"{target.name} takes {float(odds.self_damage.mean()):.2f} damage on average and is wrecked first "
            f"with chance {percent(odds.wrecked)}; the counter lands with chance {odds.counter_lands} "
            f"({percent(odds.counter_lands)}) for {float(odds.enemy_damage.mean()):.2f} expected damage back; "
            f"{unit.name} wrecked with chance {percent(odds.enemy_damage.at_least(unit.ap))}")


# -- the engine's loop over these rules -----------------------------------------------------

REFEREE: referee.Referee[BattleState] = referee.Referee(
    BattleState, KINDS,
    {"order": _check_order, "move": _check_move, "attack": _check_attack_and_dice, "jam": _check_jam_and_dice,
     "end": _check_end},
    _candidates,
    {"order": _roll_order, "move": _move, "attack": _attack, "jam": _jam, "end": _end}, IllegalStep,
    stalemate=referee.Stalemate(counter="turn", damage=lambda state: tuple(u.ap for u in state.units),
                                limit=lambda state: state.battle_rules.stalemate_rounds),
)
action_kind = REFEREE.action_kind

__all__ = [
    "ACTION_KINDS", "ANSWERS", "ANSWER_NAMES", "PHASES",
    "Action", "Attack", "BattleRules", "BattleState", "EndAction", "IllegalStep", "REFEREE", "Jam", "MoveTo", "RollOrder",
    "StepResult", "Unit", "Weapon",
    "action_kind", "check", "decision_odds", "describe_odds", "new_battle", "sample_units",
]
