"""A guided first battle: two silhouettes, no map, played step by step (002 §1-1 to §7-2).

The state is frozen; :func:`~rules_lib.battle.step` applies one action with the chapter's rule functions
(:func:`~rules_lib.nemesis.initiative`, :func:`~rules_lib.nemesis.attack_count`,
:func:`~rules_lib.nemesis.response_action`, :func:`~rules_lib.nemesis.weapon_swap`,
:func:`~rules_lib.nemesis.armour_check`, :func:`~rules_lib.nemesis.roll_damage`,
:func:`~rules_lib.nemesis.apply_damage`, :func:`~rules_lib.nemesis.approach`,
:func:`~rules_lib.nemesis.duel`, :func:`~rules_lib.nemesis.interrupt_cost`) and returns the new
state with a plain-English explanation. An illegal action raises :class:`IllegalStep` (a
``ValueError``) naming the reason, before any die is drawn; the state passed in is unchanged.

A turn (ターン) runs as the text lays it out:

1. **action decision** (行動決定フェイズ, §1-1): each side rolls 3D6, its action dice for the turn;
   sum + sensors decides who chooses to go first (先攻) or second (後攻). A triple may open the
   melee phase instead, and its roller becomes the second player.
2. **acting** (the shooting phase, 射撃フェイズ §2-1, and what else dice buy): the first player
   acts, then the second. A die whose face matches a weapon's proper range fires it, larger faces
   first; two dice buy 1 active value (対応行動); one die buys a weapon swap (持ち替え); a die showing 1
   lets a melee weapon try the approach (接近フェイズ §5-1); the melee opener fights the duel (§6-1).
3. **armour** (装甲判定フェイズ §3-1) and **damage** (ダメージ決定フェイズ §4-1, 破壊フェイズ §7-1): each hit's
   attack roll against armour, then its damage against structure and, at 0, a part by 1D20.
4. **end** (§7-2): when both have acted the turn ends; the battle ends when a torso is destroyed
   (行動不能) or a side with a destroyed part concedes (投了).

Nemesis needs no map: "melee distance" is only the flag :attr:`BattleState.closed_in`, set by a
won approach or an opened duel and cleared at the end of the turn. Readings the text leaves open
are fields of :class:`BattleRules`.

Not offered in this first battle (the chapter's functions cover them one by one): the duel's
rerolls (§6-1; the duel is fought with the dice as rolled), interrupt actions other than defence
(防御行動) — the action reroll, evasion, counter-fire, parry, counter — and the abilities the SS-01
lacks (flight, stealth, fall, rapid fire).

The units, state and actions are in :mod:`.battle_state`, the odds at a decision in
:mod:`.battle_odds`, the board in :mod:`.figures`; the loop (legality, step, play, log) is the
engine's (``rules_lib.battle.Referee``). As in every battle, an action that rolls (the action
dice, the approach, the armour check, the damage) takes given dice as its ``dice`` field; without
them the step draws from the :class:`~rules_lib.dice.SeededDice` passed to ``step``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from .. import battle as referee
from ..battle import ActionDice, IllegalStep, StepResult, finish
from ..dice import SeededDice
from .abilities import interrupt_cost
from .action import (
    TIE_BREAK_SIDES,
    InitiativeSide,
    action_dice_count,
    attack_count,
    firing_faces,
    initiative,
    is_multi_attack,
    may_open_melee,
    response_action,
    weapon_swap,
)
from .battle_damage import _armour, _damage, _update
from .battle_state import (
    ACTION_KINDS,
    D6,
    KINDS,
    PHASE_LABELS,
    PHASES,
    SIDES,
    Action,
    Approach,
    ArmourCheck,
    BattleRules,
    BattleState,
    BattleUnit,
    ChooseOrder,
    Concede,
    Damage,
    EndAction,
    Hit,
    Melee,
    OpenMelee,
    ResponseAction,
    RollActionDice,
    Shoot,
    SideAction,
    SwapWeapon,
    make_unit,
    new_battle,
    other,
)
from .melee import (
    approach,
    approacher_dice,
    duel,
    shooter_dice,
)
from .silhouette import Weapon

# -- checks ----------------------------------------------------------------------------------


def _faces(dice: Sequence[int]) -> str:
    return "-".join(map(str, dice)) or "none"


def _check_actor(state: BattleState, side: str) -> BattleUnit:
    unit = state.unit(side)
    if state.phase != "acting":
        raise IllegalStep(f"it is the {PHASE_LABELS[state.phase]} phase, not a side's action")
    if unit.out_of_action:
        raise IllegalStep(f"{unit.name} is out of action (行動不能): its torso is destroyed (002 §7-1)")
    if state.actor != side:
        raise IllegalStep(f"it is {state.actor}'s action, not {side}'s (the first player acts, then the second, 002 §1-1)")
    return unit


def _check_die(unit: BattleUnit, face: int, what: str) -> None:
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= D6:
        raise IllegalStep(f"{what}: {face!r} is not a d6 face 1 to 6")
    if face not in unit.dice:
        spent = " (already spent)" if face in unit.rolled else ""
        raise IllegalStep(f"{what}: {unit.name} has no {face} left{spent}; its unspent action dice are "
                          f"{_faces(unit.dice)}")


def _check_shoot(state: BattleState, action: Shoot) -> tuple[BattleUnit, Weapon]:
    unit = _check_actor(state, action.side)
    weapon = unit.weapon(action.weapon)
    if weapon.is_melee:
        raise IllegalStep(f"the {weapon.label} is a melee weapon (射程 {weapon.range}): it strikes through the "
                          "approach (002 §5-1) or the melee duel (§6-1), not by shooting")
    reason = unit.unusable_reason(weapon)
    if reason:
        raise IllegalStep(reason)
    if unit.in_hand != weapon.key:
        raise IllegalStep(f"{unit.name} holds the {unit.weapon(unit.in_hand).label}: take up the {weapon.label} "
                          "with a weapon swap first (002 §1-1)")
    if weapon.key in unit.fired and not is_multi_attack(weapon):
        raise IllegalStep(f"the {weapon.label} has fired this turn: shooting is once per turn (002 §1-1)")
    _check_die(unit, action.die, f"shooting the {weapon.label}")
    faces = firing_faces(weapon, state.rules.extended)
    if action.die not in faces:
        raise IllegalStep(f"a {action.die} does not match the proper range (適正射程) {weapon.proper_range} "
                          f"of the {weapon.label}: it fires on {'/'.join(map(str, faces))} (002 §2-1)")
    larger = max(d for d in unit.dice if d in faces)
    if action.die < larger:
        raise IllegalStep(f"dice are handled from the largest face (002 §2-1): shoot with the {larger} "
                          f"before the {action.die}")
    return unit, weapon


def _check_response(state: BattleState, action: ResponseAction) -> BattleUnit:
    unit = _check_actor(state, action.side)
    give_up = tuple(action.give_up)
    if len(give_up) != 2:
        raise IllegalStep(f"a response action leaves exactly 2 dice unused, not {len(give_up)} (002 §1-1)")
    for face in give_up:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= D6:
            raise IllegalStep(f"response action: {face!r} is not a d6 face 1 to 6")
    have, rolled = Counter(unit.dice), Counter(unit.rolled)
    for face, n in Counter(give_up).items():
        if n > have[face]:
            spent = " (already spent)" if rolled[face] >= n else ""
            raise IllegalStep(f"response action: {unit.name} cannot give up {n} × {face}: it has {have[face]} left"
                              f"{spent}; its unspent action dice are {_faces(unit.dice)}")
    return unit


def _check_swap(state: BattleState, action: SwapWeapon) -> tuple[BattleUnit, Weapon]:
    unit = _check_actor(state, action.side)
    weapon = unit.weapon(action.weapon)
    if unit.in_hand == weapon.key:
        raise IllegalStep(f"{unit.name} already holds the {weapon.label}")
    reason = unit.unusable_reason(weapon)
    if reason:
        raise IllegalStep(reason)
    if weapon.has("no_swap"):
        if action.give_up is not None:
            raise IllegalStep(f"the {weapon.label} has 持替不要 (no swap needed): it costs no die")
    else:
        if action.give_up is None:
            raise IllegalStep("a weapon swap leaves one action die unused (002 §1-1): say which")
        _check_die(unit, action.give_up, "weapon swap")
    return unit, weapon


def _usable_melee_weapon(unit: BattleUnit, if_none: str) -> Weapon:
    """``unit``'s melee weapon; refused with ``if_none`` when it has none, or with the reason it cannot be used."""
    weapon = unit.melee_weapon()
    if weapon is None:
        raise IllegalStep(if_none)
    reason = unit.unusable_reason(weapon)
    if reason:
        raise IllegalStep(reason)
    return weapon


def _check_approach(state: BattleState, action: Approach) -> tuple[BattleUnit, Weapon]:
    unit = _check_actor(state, action.side)
    weapon = _usable_melee_weapon(
        unit, f"{unit.name} has no melee weapon: only a melee weapon approaches (002 §5-1)")
    if unit.in_hand != weapon.key and not weapon.has("no_swap"):
        raise IllegalStep(f"take up the {weapon.label} with a weapon swap first (002 §1-1)")
    if unit.approached or state.closed_in is not None:
        raise IllegalStep("there has been an approach or a melee this turn already")
    _check_die(unit, weapon.range, f"the {weapon.label} (射程 {weapon.range}) needs a die showing {weapon.range} "
               "(002 §1-1)")
    shooter = state.opponent(action.side)
    if not shooter.ranges_used:
        raise IllegalStep(f"{shooter.name} has not shot this turn: the text gives the shooter no approach dice "
                          "(002 §5-1); approach after it shoots")
    spent = action.active_spent
    if isinstance(spent, bool) or not isinstance(spent, int) or spent < 0:
        raise IllegalStep(f"active value spent {spent!r} is not a whole number of at least 0")
    if spent > unit.active:
        raise IllegalStep(f"{unit.name} has {unit.active} active value (能動値), not {spent} to spend (002 §5-1)")
    return unit, weapon


def _check_melee(state: BattleState, action: Melee) -> tuple[BattleUnit, Weapon]:
    unit = _check_actor(state, action.side)
    if state.melee_opener != action.side:
        raise IllegalStep(f"{unit.name} did not open the melee phase this turn: only a triple opens it (002 §1-1)")
    if unit.dueled:
        raise IllegalStep("the melee duel has been fought this turn")
    if unit.dice != unit.rolled:
        raise IllegalStep("the duel is fought with the action dice as rolled (002 §6-1): none may be spent first")
    return unit, _usable_melee_weapon(unit, f"{unit.name} has no melee weapon for the duel (002 §6-1)")


def _check_damage(state: BattleState, action: Damage) -> None:
    if state.phase != "damage":
        raise IllegalStep(f"it is the {PHASE_LABELS[state.phase]} phase: no penetrating hit waits for damage")
    if action.defend:
        target = state.opponent(state.pending[0].attacker)
        cost = interrupt_cost("defence", target.head_destroyed)
        if target.active < cost:
            raise IllegalStep(f"defence (防御行動) costs {cost} active value; {target.name} has {target.active} (002 §H6)")


def _check_not_over(state: BattleState, action: Action) -> None:
    """Checked before every kind: nothing is played after the battle has ended."""
    if state.phase == "over":
        raise IllegalStep(f"the battle is over: {state.end_reason}")


def _check_concede(state: BattleState, action: Concede) -> None:
    unit = state.unit(action.side)
    if not unit.destroyed:
        raise IllegalStep(f"{unit.name} has no destroyed part: only then may a side concede (投了, 002 §7-1)")


def _check_roll(state: BattleState, action: RollActionDice) -> None:
    if state.phase != "decision":
        raise IllegalStep(f"the action dice are rolled at the start of a turn; it is the {PHASE_LABELS[state.phase]} phase")


def _check_order_phase(state: BattleState) -> None:
    if state.phase != "order":
        raise IllegalStep(f"first and second are chosen after the action dice are rolled; it is the "
                          f"{PHASE_LABELS[state.phase]} phase")


def _check_order(state: BattleState, action: ChooseOrder) -> None:
    _check_order_phase(state)
    if action.side != state.chooser:
        raise IllegalStep(f"{state.chooser} won the initiative and chooses, not {action.side} (002 §1-1)")


def _check_open_melee(state: BattleState, action: OpenMelee) -> None:
    _check_order_phase(state)
    unit = state.unit(action.side)
    if len(unit.rolled) != 3:
        raise IllegalStep(f"{unit.name} rolled {len(unit.rolled)} action dice: only three can show a triple (002 §1-1)")
    opening = may_open_melee(unit.rolled, straight_order=state.rules.duel.straight_order)
    if not opening.allowed:
        raise IllegalStep(f"{unit.name}'s dice {_faces(unit.rolled)} do not open the melee phase: "
                          f"{opening.steps[-1]} (002 §1-1)")
    weapon = unit.melee_weapon()
    if weapon is None or unit.unusable_reason(weapon):
        raise IllegalStep(f"{unit.name} has no usable melee weapon for the melee phase (002 §1-1)")


def _check_armour(state: BattleState, action: ArmourCheck) -> None:
    if state.phase != "armour":
        raise IllegalStep(f"it is the {PHASE_LABELS[state.phase]} phase: no hit waits for an armour check")


def _check_end(state: BattleState, action: EndAction) -> None:
    _check_actor(state, action.side)


def check(state: BattleState, action: Action) -> None:
    """Raise :class:`IllegalStep` with the reason when ``action`` is not allowed now; return otherwise."""
    REFEREE.check(state, action)


def _candidates(state: BattleState) -> tuple[Action, ...]:
    """The actions worth offering now (distinct dice only)."""
    candidates: list[Action] = [RollActionDice(), ArmourCheck(), Damage(False), Damage(True)]
    for side in SIDES:
        unit = state.unit(side)
        candidates += [ChooseOrder(side, True), ChooseOrder(side, False), OpenMelee(side), Melee(side),
                       EndAction(side), Concede(side)]
        faces = sorted(set(unit.dice), reverse=True)
        for weapon in unit.sheet.weapons:
            candidates += [Shoot(side, weapon.key, d) for d in faces]
            candidates += [SwapWeapon(side, weapon.key, None)] + [SwapWeapon(side, weapon.key, d) for d in faces]
        pairs = sorted({tuple(sorted((unit.dice[i], unit.dice[j]), reverse=True))
                        for i in range(len(unit.dice)) for j in range(i + 1, len(unit.dice))}, reverse=True)
        candidates += [ResponseAction(side, p) for p in pairs]
        candidates += [Approach(side, n) for n in range(unit.active + 1)]
    return tuple(candidates)


# -- steps ------------------------------------------------------------------------------------


def _lined(handler):
    """A Nemesis step (``handler(state, action, dice) -> (state, lines)``) as the engine's step: dice
    from the action's given ``dice`` (all used) or else the step's ``source``, the lines appended to the log."""

    def run(state: BattleState, action: Action, source: SeededDice | None = None) -> StepResult:
        dice = ActionDice(getattr(action, "dice", None), source, "this step")
        new, lines = handler(state, action, dice)
        return finish(new, lines, dice.finish())

    return run


def _roll(state: BattleState, action: RollActionDice, dice: ActionDice):
    lines = [f"turn {state.turn}: action decision phase (行動決定フェイズ, 002 §1-1)"]
    units = []
    for unit in state.units:
        legs = sum(p in unit.destroyed for p in ("right_leg", "left_leg"))
        count = action_dice_count(legs)
        rolled = dice.d(D6, count.dice, what="the action dice")
        lines.append(f"{unit.name} rolls {count.dice}D6: {_faces(rolled)}"
                     + (f" ({'; '.join(count.steps[1:])})" if len(count.steps) > 1 else ""))
        units.append(replace(unit, rolled=rolled, dice=rolled, ranges_used=(), fired=(), approached=False,
                             dueled=False))
    a, b = (InitiativeSide(u.rolled, u.sheet.sensors, u.sheet.agility) for u in units)
    pairs: list[tuple[int, int]] = []
    while True:
        try:
            result = initiative(a, b, d20=pairs)
            break
        except ValueError:
            if len(pairs) > 50:
                raise
            pairs.append(dice.d(TIE_BREAK_SIDES, 2, what="the 1D20 tie-break"))
    lines += [f"initiative: {s}" for s in result.steps]
    for unit in units:
        if len(unit.rolled) == 3 and may_open_melee(unit.rolled, straight_order=state.rules.duel.straight_order).allowed:
            lines.append(f"{unit.name} rolled a triple (三ゾロ目): it may open the melee phase and become second (002 §1-1)")
    new = replace(state, units=tuple(units), phase="order", chooser=result.chooser, first=None, actor=None,
                  melee_opener=None, closed_in=None, pending=())
    return new, lines


def _order(state: BattleState, action: ChooseOrder, dice: ActionDice):
    first = action.side if action.go_first else other(action.side)
    lines = [f"{action.side} chooses to go {'first (先攻)' if action.go_first else 'second (後攻)'}: "
             f"{state.unit(first).name} acts first, then {state.unit(other(first)).name} (002 §1-1)"]
    return replace(state, phase="acting", first=first, actor=first), lines + [_start(state, first)]


def _open_melee(state: BattleState, action: OpenMelee, dice: ActionDice):
    first = other(action.side)
    lines = [f"{state.unit(action.side).name} opens the melee phase (格闘戦フェイズ) with its triple and "
             f"automatically becomes the second player (後攻) (002 §1-1)",
             f"{state.unit(first).name} is first: it may shoot before the duel (002 §1-1)"]
    return replace(state, phase="acting", first=first, actor=first, melee_opener=action.side), lines + [_start(state, first)]


def _start(state: BattleState, side: str) -> str:
    unit = state.unit(side)
    return f"{unit.name}'s action: unspent action dice {_faces(unit.dice)}, active value {unit.active}"


def _shoot(state: BattleState, action: Shoot, dice: ActionDice):
    unit, weapon = _check_shoot(state, action)
    count = attack_count(unit.dice, weapon, state.rules.extended)
    remaining = list(unit.dice)
    remaining.remove(action.die)
    target = state.opponent(action.side)
    lines = [f"shooting phase (射撃フェイズ, 002 §2-1): {'; '.join(count.steps)}",
             f"{unit.name} fires the {weapon.label} at {target.name} with the {action.die}; dice left "
             f"{_faces(remaining)}",
             f"next: the armour check (装甲判定フェイズ, 002 §3-1): {weapon.attack} against armour {target.sheet.armour}"]
    new_unit = replace(unit, dice=tuple(remaining), ranges_used=unit.ranges_used + (action.die,),
                       fired=unit.fired + (weapon.key,))
    return _update(state, new_unit, phase="armour", pending=(Hit(action.side, weapon.key, "shooting"),)), lines


def _response(state: BattleState, action: ResponseAction, dice: ActionDice):
    unit = _check_response(state, action)
    spent = response_action(unit.dice, action.give_up)
    new_unit = replace(unit, dice=spent.remaining, active=unit.active + spent.active_gain)
    lines = [f"response action (対応行動, 002 §1-1): {unit.name} gives up {_faces(spent.given_up)} for "
             f"+{spent.active_gain} active value: {unit.active} → {new_unit.active}; {spent.steps[1]}"]
    return _update(state, new_unit), lines


def _swap(state: BattleState, action: SwapWeapon, dice: ActionDice):
    unit, weapon = _check_swap(state, action)
    spent = weapon_swap(unit.dice, action.give_up, weapon)
    new_unit = replace(unit, dice=spent.remaining, in_hand=weapon.key)
    lines = [f"weapon swap (武器の持ち替え, 002 §1-1): {unit.name} takes up the {weapon.label}; " + "; ".join(spent.steps)]
    return _update(state, new_unit), lines


def _approach(state: BattleState, action: Approach, dice: ActionDice):
    unit, weapon = _check_approach(state, action)
    shooter = state.opponent(action.side)
    n_shooter = shooter_dice(shooter.ranges_used)
    n_approacher = approacher_dice(unit.sheet.mobility, action.active_spent)
    remaining = list(unit.dice)
    remaining.remove(weapon.range)
    rolled_a = list(dice.d(D6, n_approacher, what="the approach"))
    rolled_s = list(dice.d(D6, n_shooter, what="the approach"))
    result = approach(rolled_a, rolled_s, state.rules.approach_compare)
    lines = [f"approach phase (接近フェイズ, 002 §5-1): {unit.name} uses its {weapon.range} for the {weapon.label}"
             f"; dice left {_faces(remaining)}",
             f"{unit.name} rolls mobility {unit.sheet.mobility} + {action.active_spent} active value = "
             f"{n_approacher} dice; {shooter.name} shot at range {min(shooter.ranges_used)}, so rolls {n_shooter}",
             *result.steps]
    new_unit = replace(unit, dice=tuple(remaining), active=unit.active - action.active_spent, approached=True)
    if not result.success:
        return _update(state, new_unit), lines
    lines.append(f"the {weapon.label} strikes (002 §5-2): armour check next, no attenuation, no multiple hits")
    return _update(state, new_unit, phase="armour", closed_in=action.side,
                   pending=(Hit(action.side, weapon.key, "approach"),)), lines


def _melee(state: BattleState, action: Melee, dice: ActionDice):
    unit, weapon = _check_melee(state, action)
    target = state.opponent(action.side)
    target_weapon = target.melee_weapon()
    armed = target_weapon is not None and target.unusable_reason(target_weapon) is None
    lines = [f"melee duel (格闘戦フェイズ, 002 §6-1, §6-2): {unit.name} (the attacker) with {_faces(unit.rolled)} "
             f"against {target.name} with {_faces(target.rolled)}, the dice as rolled"]
    if len(target.rolled) != 3:
        lines.append(f"{target.name} has {len(target.rolled)} action dice, not three: it cannot answer in the duel, "
                     f"so {unit.name} hits automatically, without a multiplier (ruling, as against a defender "
                     "without a melee weapon, 002 §6-1)")
        new_unit = replace(unit, dice=(), dueled=True)
        return _update(state, new_unit, phase="armour", closed_in=action.side,
                       pending=(Hit(action.side, weapon.key, "duel"),)), lines
    result = duel(unit.rolled, target.rolled, state.rules.duel, "duel" if armed else "no_melee_weapon")
    names = {"A": unit.name, "B": target.name}
    lines += [names[s[0]] + s[1:] if s[:2] in ("A ", "B ") else s for s in result.steps]
    hits: list[Hit] = []
    if result.outcome in ("A", "mutual"):
        hits.append(Hit(action.side, weapon.key, "duel", result.multiplier if result.outcome == "A" else 1))
    if result.outcome in ("B", "mutual") and armed:
        hits.append(Hit(target.side, target_weapon.key, "duel", result.multiplier if result.outcome == "B" else 1))
    for hit in hits:
        lines.append(f"{state.unit(hit.attacker).name} strikes with the {state.unit(hit.attacker).weapon(hit.weapon).name}"
                     + (f", ×{hit.multiplier} damage" if hit.multiplier > 1 else ""))
    new_unit = replace(unit, dice=(), dueled=True)
    return _update(state, new_unit, phase="armour" if hits else "acting", closed_in=action.side,
                   pending=tuple(hits)), lines


def _end(state: BattleState, action: EndAction, dice: ActionDice):
    unit = state.unit(action.side)
    left = f"; unused dice {_faces(unit.dice)} are lost" if unit.dice else ""
    if action.side == state.first:
        second = other(action.side)
        lines = [f"{unit.name} ends its action{left}", _start(state, second)]
        return replace(state, actor=second), lines
    lines = [f"{unit.name} ends its action{left}", f"end of turn {state.turn} (フェイズの終了, 002 §7-2)"]
    units = state.units
    if state.rules.active_refresh == "each_turn":
        units = tuple(replace(u, active=u.sheet.active) for u in units)
        lines.append("active values return to the sheet's (BattleRules.active_refresh='each_turn', not in the source text)")
    units = tuple(replace(u, dice=(), ranges_used=(), fired=()) for u in units)
    lines.append(f"turn {state.turn + 1}: roll the action dice")
    return replace(state, units=units, turn=state.turn + 1, phase="decision", chooser=None, first=None, actor=None,
                   melee_opener=None, closed_in=None), lines


def _concede(state: BattleState, action: Concede, dice: ActionDice):
    unit = state.unit(action.side)
    winner = other(action.side)
    parts = ", ".join(p.replace("_", " ") for p in unit.destroyed)
    lines = [f"{unit.name} ({parts} destroyed) declares defeat and concedes (投了, 002 §7-1): "
             f"{state.unit(winner).name} wins"]
    return replace(state, phase="over", winner=winner, actor=None, pending=(),
                   end_reason=f"{unit.name} conceded"), lines


# -- the engine's loop over these rules -----------------------------------------------------------

#: each kind's check; whether the battle is over is checked first, for every kind
_CHECKS = {
    "roll": _check_roll, "order": _check_order, "open-melee": _check_open_melee, "shoot": _check_shoot,
    "response": _check_response, "swap": _check_swap, "approach": _check_approach, "melee": _check_melee,
    "armour": _check_armour, "damage": _check_damage, "end": _check_end, "concede": _check_concede,
}
REFEREE: referee.Referee[BattleState] = referee.Referee(BattleState, KINDS, _CHECKS, _candidates, {
    kind: _lined(handler) for kind, handler in {
        "roll": _roll, "order": _order, "open-melee": _open_melee, "shoot": _shoot, "response": _response,
        "swap": _swap, "approach": _approach, "melee": _melee, "armour": _armour, "damage": _damage,
        "end": _end, "concede": _concede,
    }.items()
}, before=_check_not_over, stalemate=referee.Stalemate(
    counter="turn", limit=lambda state: state.rules.stalemate_rounds,
    damage=lambda state: tuple((u.condition.structure, dict(u.condition.parts)) for u in state.units)))
action_kind = REFEREE.action_kind

__all__ = [
    "ACTION_KINDS", "Action", "Approach", "ArmourCheck", "BattleRules", "BattleState", "BattleUnit", "ChooseOrder",
    "Concede", "D6", "Damage", "EndAction", "Hit", "IllegalStep", "KINDS", "Melee", "OpenMelee", "PHASES",
    "PHASE_LABELS", "REFEREE", "ResponseAction", "RollActionDice", "SIDES", "Shoot", "SideAction", "StepResult",
    "SwapWeapon", "action_kind", "check", "make_unit", "new_battle", "other",
]
