"""A guided first battle: a Zaku II against a Nouvelle GM III on the hex combat map (000 §1-§6, §8-1).

The state is frozen; :func:`~rules_lib.battle.step` applies one action with the chapter's rule functions
(:func:`~.actions.initiative`, :func:`~.actions.action_points`, :func:`~.actions.ap_cost`,
:func:`~.movement.move`, :func:`~.movement.spend_propellant`, :func:`~.movement.turn_only`,
:func:`~.ranges.weapon_modifier`, :func:`~.ranges.in_firing_arc`, :func:`~.to_hit.evasion_value`,
:func:`~.to_hit.check_hit`, :func:`~.salvo.resolve_salvo`, :func:`~.salvo.salvo_damage`,
:func:`~.damage.apply_damage`, :func:`~.checks.faint_check`, :func:`~.checks.recovery_check`) and
returns the new state with a plain-English explanation. An illegal action raises
:class:`IllegalStep` (a ``ValueError``) naming the reason before any die is drawn, and the state
passed in is unchanged.

The flow is the text's round (000 §1): initiative (2D6 + perception, higher acts first), then the
first side fixes its action points (1D6 + reaction) and spends them on action patterns, then the
second side does the same. Moving spends a move pattern's AP and 1 propellant and enters up to the
mobility in front hexes, turning 60 degrees at most once per hex (000 §4); firing spends the
pattern's AP and the ammunition, rolls 1D36 plus the final modifier against the evasion value,
counted in steps (000 §6), and a hit's damage goes through the armour into the durability.

A critical against a mook MS reads the critical hit chart, secondary damage reads the secondary
damage chart, and a destroyed PC's pilot reads the escape chart (000 §6, §8-2); the charts are
BCDice's transcription, *not in the source text*, and a parameter (``BattleRules.charts``). Every
effect of an entry is applied (:mod:`.battle_damage`, :mod:`.battle_effects`): modifiers, fainting,
loss of control and destruction, lost weapons and items, broken arms, turn limits, the pilot's own
damage and the morale check; what the sheets cannot settle (which arm, which weapon, the morale
check's result) waits for the player's :class:`Choose`, and nothing else is legal until then.

The text has no unit sheets: every number it does not give is in the sample sheets
(:func:`sample_units`) and :class:`BattleRules`, marked *not in the source text*. The units, state
and actions are in :mod:`.battle_state`, the odds at a decision in :mod:`.battle_odds`, the board
and unit tables in :mod:`.figures`; the loop (legality, step, play, log) is the engine's
(``rules_lib.battle.Referee``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import battle as referee
from ..battle import ActionDice, IllegalStep, StepResult, finish
from ..dice import SeededDice, roll
from ..geometry import hex as hexgeo
from ..geometry.hex import Hex
from .actions import action_points, ap_cost, initiative
from .battle_damage import _NO_ADDITIONAL_MOVE, _damage, _escape
from .battle_effects import check_choose, check_waiting, choices, choose, turn_refusal, weapon_refusal
from .battle_state import (
    ACTION_KINDS,
    FRONT,
    KINDS,
    PHASES,
    Action,
    BattleRules,
    BattleState,
    BattleUnit,
    BattleWeapon,
    Choose,
    EndPhase,
    Fire,
    FireMode,
    Move,
    Phase,
    RollAP,
    RollInitiative,
    Turn,
    new_battle,
    sample_units,
)
from .checks import recovery_check
from .movement import move, spend_propellant, turn_only
from .ranges import JAPANESE_BANDS, in_firing_arc, range_band, weapon_modifier
from .salvo import blast_damage, check_fired, resolve_salvo
from .to_hit import HitOptions, check_hit
from .weapons import spend_ammunition

# -- checking -------------------------------------------------------------------------------------


def cannot_act(state: BattleState, u: BattleUnit) -> str | None:
    """Why ``u`` can take no action this round, or ``None``: a fainted pilot (000 §8-1) or an MS out
    of control after a critical (the critical hit chart)."""
    if u.fainted:
        return f"the {u.name}'s pilot has fainted (気絶): the MS can take no action at all (000 §8-1)"
    if state.round <= u.disabled_until:
        return (f"the {u.name} is out of control (コントロール不能) through round {u.disabled_until}: "
                "it can take no action (critical hit chart)")
    return None


def _check_phase_actor(state: BattleState, name: str, phase: str) -> BattleUnit:
    if state.phase == "over":
        raise IllegalStep(f"the battle is over: {state.outcome}; nobody acts any more")
    if state.phase == "initiative":
        raise IllegalStep(f"round {state.round} has no initiative yet (000 §1): roll initiative first")
    u = state.unit(name)
    if name != state.actor:
        raise IllegalStep(f"it is the {state.actor}'s phase, not the {name}'s (initiative order: {', '.join(state.order)})")
    why = cannot_act(state, u)
    if why:
        raise IllegalStep(why)
    if state.phase != phase:
        if phase == "act":
            raise IllegalStep(f"the {name} has not fixed its action points yet (000 §1): roll AP first")
        raise IllegalStep(f"the {name} has already fixed its {state.ap} AP this round (000 §1)")
    return u


def _need_ap(state: BattleState, name: str, cost: int, what: str) -> None:
    if cost > state.ap:
        raise IllegalStep(f"{what} costs {cost} AP but the {name} has only {state.ap} left this round (000 §3)")


@dataclass(frozen=True)
class _MovePlan:
    unit: BattleUnit
    target: Hex
    pattern: str | None
    cost: int
    charge: bool
    result: object


def _check_move(state: BattleState, action: Move) -> _MovePlan:
    u = _check_phase_actor(state, action.unit, "act")
    enemy = state.opponent(u.name)
    if isinstance(action.to, Hex):
        target = action.to
    elif action.to in FRONT:
        target = hexgeo.front_hexes(u.position, u.facing)[FRONT.index(action.to)]
    else:
        raise IllegalStep(f"move to {action.to!r}: allowed are 'left', 'ahead', 'right' or a Hex")
    opening = state.hexes_left == 0
    pattern = None
    cost = 0
    if opening:
        pattern = "normal move" if state.moves == 0 else "additional move"
        if pattern == "additional move" and _NO_ADDITIONAL_MOVE in u.conditions:
            raise IllegalStep(f"the {u.name}'s fusion generator is damaged: it can no longer take an additional "
                              "move (secondary damage chart)")
        cost = ap_cost(pattern, u.unit_class) + u.extra_ap
        try:
            spend_propellant(u.propellant, move_patterns=1)
        except ValueError as error:
            raise IllegalStep(f"the {u.name} cannot start a {pattern}: {error} (000 §4)") from None
    try:
        result = move(u.position, u.facing, [target], mobility=u.mobility, enemies=[enemy.position])
    except ValueError as error:
        raise IllegalStep(str(error)) from None
    if target not in state.board():
        raise IllegalStep(f"hex {target} is off the book's combat map (its size is not in the source text)")
    charge = result.charge_disengage and (opening or not state.charged)
    if charge:
        cost += ap_cost("charge/disengage", u.unit_class)
    what = (f"a {pattern} ({'通常移動' if pattern == 'normal move' else '追加移動'})" if pattern
            else f"entering {target}")
    if charge:
        what += (f" next to the {enemy.name} (or leaving it) needs charge/disengage (突撃・離脱, 000 §4), which"
                 if not pattern else " with charge/disengage (突撃・離脱)")
    _need_ap(state, u.name, cost, what)
    return _MovePlan(u, target, pattern, cost, charge, result)


def _check_turn(state: BattleState, action: Turn) -> tuple[BattleUnit, bool, int]:
    u = _check_phase_actor(state, action.unit, "act")
    by = action.by
    if isinstance(by, bool) or not isinstance(by, int) or by == 0 or not -2 <= by <= 3:
        raise IllegalStep(f"turn by {by!r} hexsides: allowed are -2, -1, 1, 2, 3 (60 to 180 degrees)")
    if turn_refusal(u, by):
        raise IllegalStep(turn_refusal(u, by))
    if state.free_turn and by in (-1, 1):
        return u, True, 0
    new_facing = hexgeo.turn(u.facing, by)
    try:
        turn_only(u.facing, new_facing)
        cost = ap_cost("turn only", u.unit_class, state.rules.costs) + u.extra_ap
    except ValueError as error:
        raise IllegalStep(str(error)) from None
    why = "" if state.free_turn else " (no free 60-degree turn now: it comes once, after entering a hex)"
    _need_ap(state, u.name, cost, "turn only (旋回のみ)" + why)
    return u, False, cost


@dataclass(frozen=True)
class _FirePlan:
    unit: BattleUnit
    target: BattleUnit
    weapon: BattleWeapon
    fired: int
    distance: int
    band: str
    weapon_mod: int
    cost: int


def _check_fire(state: BattleState, action: Fire) -> _FirePlan:
    u = _check_phase_actor(state, action.unit, "act")
    target = state.opponent(u.name)
    weapon = u.weapon(action.weapon)
    if weapon_refusal(u, weapon):
        raise IllegalStep(weapon_refusal(u, weapon))
    try:
        if weapon.mode == "missile":
            fired = action.fired if action.fired is not None else min(weapon.ammo, weapon.capacity or weapon.ammo)
            if weapon.ammo == 0:
                raise IllegalStep(f"the {u.name}'s {weapon.name} is empty (0 left): it cannot fire (000 §6)")
            fired = check_fired(fired)
            if weapon.capacity is not None and fired > weapon.capacity:
                raise IllegalStep(f"{fired} missiles: one launcher's full salvo (000 §7-1, line 342) is the "
                                  f"{weapon.name}'s capacity, {_capacity_text(weapon)}")
        else:
            if action.fired not in (None, 1):
                raise IllegalStep(f"a single shot (単射) fires once, not {action.fired!r} times")
            fired = 1
        shots = weapon.shots(fired)
        spend_ammunition(weapon.ammo, shots, weapon=f"the {u.name}'s {weapon.name}")  # refuses an empty weapon
        far = state.distance
        band = range_band(far)
        mod = weapon_modifier(weapon.range_modifiers, far, f"the {weapon.name}")
        if not in_firing_arc(u.position, u.facing, target.position, state.rules.arc_degrees):
            raise IllegalStep(f"the {target.name} is outside the {u.name}'s firing arc (射界, 000 §5; "
                              f"{state.rules.arc_degrees:g} degrees, not in the source text): turn towards it first")
        cost = ap_cost(weapon.pattern, u.unit_class, state.rules.costs) + u.extra_ap
    except IllegalStep:
        raise
    except ValueError as error:
        raise IllegalStep(str(error)) from None
    _need_ap(state, u.name, cost, f"a {weapon.pattern} ({'単射' if weapon.mode == 'single shot' else 'ミサイル'})")
    return _FirePlan(u, target, weapon, fired, far, band, mod, cost)


def _capacity_text(weapon: BattleWeapon) -> str:
    """A launcher's capacity with its provenance: the sheet's number, not the text's (which shows at most a lower bound)."""
    shown = (f"; the text shows only that it fires {weapon.salvo_at_least} at once, so holds at least that many "
             "(000 §7-1, line 350)") if weapon.salvo_at_least is not None else ""
    return f"{weapon.capacity} (the sheet's, not in the source text{shown})"


def _check_end(state: BattleState, action: EndPhase) -> BattleUnit:
    if state.phase in ("over", "initiative"):
        return _check_phase_actor(state, action.unit, "act")
    u = state.unit(action.unit)
    if action.unit != state.actor:
        raise IllegalStep(f"it is the {state.actor}'s phase, not the {action.unit}'s (initiative order: {', '.join(state.order)})")
    if state.phase == "action points" and not cannot_act(state, u):
        raise IllegalStep(f"the {u.name} fixes its action points first (000 §1): roll AP, then end the phase")
    return u


def _check_initiative(state: BattleState, action: RollInitiative) -> None:
    if state.phase == "over":
        raise IllegalStep(f"the battle is over: {state.outcome}")
    if state.phase != "initiative":
        raise IllegalStep(f"round {state.round}'s initiative is decided: it is the {state.actor}'s phase")


def _check_ap(state: BattleState, action: RollAP) -> None:
    u = _check_phase_actor(state, action.unit, "action points")
    try:
        action_points(1, u.pilot.reaction + u.ap_die_modifier, borrow=action.borrow, anticipation=u.anticipation,
                      owed=state.owed[state.index(u.name)], max_borrow=state.rules.max_borrow)
    except ValueError as error:
        raise IllegalStep(str(error)) from None


def check(state: BattleState, action: Action) -> None:
    """Raise :class:`IllegalStep` if ``action`` is not allowed in ``state``; draws no dice."""
    REFEREE.check(state, action)


def _candidates(state: BattleState) -> tuple[Action, ...]:
    """The actions worth offering (without dice): initiative, AP (and each loan anticipation allows),
    each front hex, each turn, each weapon (missiles: a full salvo), and ending the phase; while a
    chart result waits for a choice, its answers alone."""
    if choices(state):
        return choices(state)
    if state.phase == "initiative":
        return (RollInitiative(),)
    name = state.actor
    candidates: list[Action] = [RollAP(name)]
    candidates += [RollAP(name, borrow=b) for b in range(1, state.rules.max_borrow + 1)]
    candidates += [Move(name, d) for d in FRONT]
    candidates += [Turn(name, by) for by in (-1, 1, -2, 2, 3)]
    candidates += [Fire(name, w.name) for w in state.unit(name).weapons]
    candidates.append(EndPhase(name))
    return tuple(candidates)


# -- stepping -------------------------------------------------------------------------------------



def _initiative(state: BattleState, action: RollInitiative, source: SeededDice | None) -> StepResult:
    draw = ActionDice(action.dice, source, "initiative")
    lines = [f"round {state.round} begins: initiative (イニシアチブ, 000 §1): each side rolls 2D6 + perception (知覚力)"]
    units = list(state.units)
    for i, u in enumerate(units):
        if u.fainted:
            rec = recovery_check(draw.d(6, 2), u.pilot.mental)
            lines.append(f"the {u.name}'s pilot is fainted: recovery check (回復判定, 000 §8-1), over 10 recovers")
            lines += [f"  {s}" for s in rec.steps]
            if rec.result:
                units[i] = replace(u, fainted=False)
    a, b = units
    while True:
        result = initiative(draw.d(6, 2), a.pilot.perception + a.initiative_modifier,
                            draw.d(6, 2), b.pilot.perception + b.initiative_modifier)
        lines += [s.replace("side A", f"the {a.name}").replace("side B", f"the {b.name}") for s in result.steps[:2]]
        if result.first != "tie":
            break
        lines.append("a tie: both roll again (the book's ruling; the text does not say)")
    first = a if result.first == "A" else b
    second = b if first is a else a
    lines.append(f"the {first.name} acts first (先攻), the {second.name} second (後攻)")
    if cannot_act(state, first):
        lines.append(f"{cannot_act(state, first)}: its phase passes without action")
    return finish(state, lines, draw.finish(), result, units=tuple(units), phase="action points",
                   order=(first.name, second.name), acting=0, ap=0, moves=0, hexes_left=0, free_turn=False,
                   charged=False)


def _roll_ap(state: BattleState, action: RollAP, source: SeededDice | None) -> StepResult:
    u = state.unit(action.unit)
    i = state.index(u.name)
    draw = ActionDice(action.dice, source, "action points")
    (die,) = draw.d(6)
    ap = action_points(die, u.pilot.reaction + u.ap_die_modifier, borrow=action.borrow, anticipation=u.anticipation,
                       owed=state.owed[i], max_borrow=state.rules.max_borrow)
    lines = [f"the {u.name} fixes its action points (行動ポイント, 000 §1): 1D6 + reaction (反応力)"]
    lines += list(ap.steps)
    owed = tuple(ap.owed_next_round if j == i else o for j, o in enumerate(state.owed))
    return finish(state, lines, draw.finish(), ap, phase="act", ap=ap.available, owed=owed)


def _move(state: BattleState, action: Move, source: SeededDice | None = None) -> StepResult:
    plan = _check_move(state, action)
    u = plan.unit
    lines = []
    propellant = u.propellant
    hexes_left = state.hexes_left
    moves = state.moves
    if plan.pattern:
        spent = spend_propellant(u.propellant, move_patterns=1)
        propellant = spent.remaining
        hexes_left = u.mobility
        moves += 1
        base = ap_cost(plan.pattern, u.unit_class)
        jp = "通常移動" if plan.pattern == "normal move" else "追加移動"
        lines.append(f"the {u.name} chooses a {plan.pattern} ({jp}, 000 §2): {base} AP; it may enter up to "
                     f"{u.mobility} hexes (mobility in space), turning 60 degrees once per hex (000 §4)")
        lines.append(f"propellant (推進剤) {spent.steps[0]} (1 per move pattern, 000 §4)")
    if plan.charge:
        lines.append(f"the move enters or leaves a hex next to the {state.opponent(u.name).name}: "
                     f"charge/disengage (突撃・離脱) +{ap_cost('charge/disengage', u.unit_class)} AP (000 §2, §4)")
    side = hexgeo.hexside_towards(u.position, plan.target)
    lines.append(f"the {u.name} enters {plan.target} across its {hexgeo.HEXSIDE_NAMES[side]} hexside (a front hex, 000 §4)")
    moved = replace(u, position=plan.target, propellant=propellant)
    new_ap = state.ap - plan.cost
    after = replace(state, units=state._with(moved))
    lines.append((f"AP {state.ap} − {plan.cost} = {new_ap}; " if plan.cost else "")
                 + f"distance to the {state.opponent(u.name).name}: {after.distance} hexes "
                 f"({_band_text(after.distance)}); {hexes_left - 1} {'hex' if hexes_left == 2 else 'hexes'} "
                 "left in this move")
    return finish(state, lines, (), plan.result, units=after.units, ap=new_ap, moves=moves,
                   hexes_left=hexes_left - 1, free_turn=True,
                   charged=plan.charge if plan.pattern else (state.charged or plan.charge))


def _turn(state: BattleState, action: Turn, source: SeededDice | None = None) -> StepResult:
    u, free, cost = _check_turn(state, action)
    facing = hexgeo.turn(u.facing, action.by)
    degrees = f"{action.by * 60:+d} degrees"
    if free:
        lines = [f"the {u.name} turns {degrees} in the hex it just entered (free: once per hex moved, 000 §4), "
                 f"now facing {hexgeo.HEXSIDE_NAMES[facing]}"]
        changes = {"free_turn": False}
    else:
        lines = [f"the {u.name} chooses turn only (旋回のみ, 000 §2, §4): {cost} AP (not in the source text), "
                 f"turns {degrees}, now facing {hexgeo.HEXSIDE_NAMES[facing]}",
                 f"AP {state.ap} − {cost} = {state.ap - cost}"]
        changes = {"free_turn": False, "hexes_left": 0, "ap": state.ap - cost}
    enemy = state.opponent(u.name)
    inside = in_firing_arc(u.position, facing, enemy.position, state.rules.arc_degrees)
    lines.append(f"the {enemy.name} is {'inside' if inside else 'outside'} its firing arc")
    turned = replace(u, facing=facing)
    return finish(state, lines, (), None, units=state._with(turned), **changes)


def _band_text(distance: int) -> str:
    band = range_band(distance)
    return f"{band} range, {JAPANESE_BANDS[band]}" if band != "out of range" else "out of range, 射程外"


def _fire(state: BattleState, action: Fire, source: SeededDice | None) -> StepResult:
    p = _check_fire(state, action)
    u, target, weapon = p.unit, p.target, p.weapon
    draw = ActionDice(action.dice, source, "firing")
    jp = "単射" if weapon.mode == "single shot" else "ミサイル"
    lines = [f"the {u.name} fires the {weapon.name} ({weapon.japanese}) at the {target.name}: "
             f"{weapon.pattern} ({jp}) {p.cost} AP (not in the source text"
             + (f"; +{u.extra_ap} for damaged controls" if u.extra_ap else "") + f"), AP {state.ap} − {p.cost} = {state.ap - p.cost}"]
    shots = weapon.shots(p.fired)
    lines.append(f"ammunition (弾数): {weapon.ammo} − {shots} = {weapon.ammo - shots} (000 §6"
                 + (", §7-1)" if weapon.mode == "missile" else ")"))
    if weapon.mode == "missile" and weapon.capacity is not None:
        lines.append(f"one launcher's full salvo: capacity {_capacity_text(weapon)}")
    lines.append(f"distance {p.distance} hexes: {_band_text(p.distance)} (000 §6); the weapon's modifier there "
                 f"{p.weapon_mod:+d}; the pilot's shooting (射撃力) {u.pilot.shooting:+d}"
                 + (f"; damage from the charts {u.to_hit_modifier:+d}" if u.to_hit_modifier else ""))
    modifier = p.weapon_mod + u.pilot.shooting + u.to_hit_modifier
    evasion = target.evasion_detail()
    plural = "" if abs(target.pilot.piloting) == 1 else "s"
    lines.append(f"the {target.name}'s evasion value (回避値): base {target.base_evasion} + piloting (操縦力) "
                 f"{target.pilot.piloting:+d} step{plural}"
                 + (f" {target.evasion_modifier:+d} from the charts" if target.evasion_modifier else "")
                 + f" = {evasion.value}")
    tens, units_die = draw.d(6, 2)
    options = HitOptions(target_is_mob=target.mook, target_pilot_fainted=target.fainted)
    if weapon.mode == "missile":
        detail = resolve_salvo(tens, units_die, p.fired, evasion.value, other_modifier=modifier,
                               capacity=weapon.capacity, options=options)
        lines += list(detail.steps)
        hits, hit, critical = detail.hits, detail.hits > 0, detail.check.critical
    else:
        detail = check_hit(tens, units_die, modifier, evasion.value, options)
        lines.append(f"final modifier (最終命中修正値): {p.weapon_mod:+d} {u.pilot.shooting:+d}"
                     + (f" {u.to_hit_modifier:+d}" if u.to_hit_modifier else "") + f" = {modifier:+d} (000 §6)")
        lines += list(detail.steps)
        hits, hit, critical = int(detail.hit), detail.hit, detail.critical
    new_weapon = replace(weapon, ammo=spend_ammunition(weapon.ammo, shots, weapon=weapon.name))
    shooter = replace(u, weapons=tuple(new_weapon if w.name == weapon.name else w for w in u.weapons))
    hurt = target
    changes: dict = {"ap": state.ap - p.cost, "hexes_left": 0, "free_turn": False}
    if hit:
        hurt = _damage(state, target, weapon, hits, critical and target.mook, draw, lines)
    elif weapon.mode == "missile":
        hurt = _blast(state, target, weapon, draw, lines)
    else:
        lines.append("a miss: no damage")
    if hurt.destroyed:
        lines.append(f"the {hurt.name}'s durability is 0: destroyed (000 §6), removed from the board")
        hurt = _escape(state, hurt, draw, lines)
        lines.append(f"the battle is over: the {u.name} wins")
        changes.update(phase="over", winner=u.name)
    units = state._with(shooter, hurt)
    return finish(state, lines, draw.finish(), detail, units=units, **changes)


def _blast(state: BattleState, target: BattleUnit, weapon: BattleWeapon, draw: ActionDice,
           lines: list[str]) -> BattleUnit:
    """A missed salvo's blast (巻き込み, 000 §7-1, line 346), by :func:`~.salvo.blast_damage` and
    ``BattleRules.blast``. Ruling: a miss rolls no hit location (000 §6, line 320), so no armour or
    additional value meets the blast; it comes off the durability whole."""
    blast = blast_damage(weapon.damage, state.rules.blast)
    dice = draw.d(blast.formula.sides, blast.formula.count)
    total = roll(blast.expression, dice=list(dice)).total
    durability = max(0, target.durability - total)
    lines.append(f"a miss, but the blast still damages the {target.name} (巻き込み, 000 §7-1, line 346): "
                 + blast.steps[1] + f", dice {', '.join(map(str, dice))}: {total}")
    lines.append(f"a miss rolls no hit location, so no armour meets the blast and there is no additional-damage "
                 f"check (the book's ruling): durability {target.durability} − {total} = {durability}")
    return replace(target, durability=durability)


#: conditions a chart can leave that the battle enforces
def _end(state: BattleState, action: EndPhase, source: SeededDice | None = None) -> StepResult:
    u = _check_end(state, action)
    lost = f"; {state.ap} unused AP {'is' if state.ap == 1 else 'are'} lost (000 §3)" if state.ap else ""
    lines = [f"the {u.name} ends its phase{lost}"]
    reset = {"ap": 0, "moves": 0, "hexes_left": 0, "free_turn": False, "charged": False}
    if state.acting == 0:
        nxt = state.unit(state.order[1])
        lines.append(f"the {nxt.name}'s phase (後攻): it fixes its action points")
        if cannot_act(state, nxt):
            lines.append(f"{cannot_act(state, nxt)}: its phase passes without action")
        return finish(state, lines, (), None, acting=1, phase="action points", **reset)
    lines.append(f"round {state.round} ends: both sides have had their phase (000 §1)")
    return finish(state, lines, (), None, acting=0, phase="initiative", order=(), round=state.round + 1, **reset)


# -- the engine's loop over these rules -----------------------------------------------------------

REFEREE: referee.Referee[BattleState] = referee.Referee(
    BattleState, KINDS,
    {"initiative": _check_initiative, "ap": _check_ap, "move": _check_move, "turn": _check_turn,
     "fire": _check_fire, "end": _check_end, "choose": check_choose},
    _candidates,
    {"initiative": _initiative, "ap": _roll_ap, "move": _move, "turn": _turn, "fire": _fire, "end": _end,
     "choose": choose},
    before=check_waiting,
    stalemate=referee.Stalemate(counter="round", damage=lambda state: tuple(u.durability for u in state.units),
                                limit=lambda state: state.rules.stalemate_rounds),
)
action_kind = REFEREE.action_kind

__all__ = [
    "ACTION_KINDS", "FRONT", "PHASES", "REFEREE", "Action", "BattleRules", "BattleState", "BattleUnit", "BattleWeapon",
    "Choose", "EndPhase", "Fire", "FireMode", "IllegalStep", "Move", "Phase", "RollAP", "RollInitiative", "StepResult", "Turn",
    "action_kind", "cannot_act", "check", "new_battle", "sample_units",
]
