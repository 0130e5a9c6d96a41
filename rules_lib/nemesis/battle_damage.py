"""What a hit does in the Nemesis guided battle: the armour check (002 §3-1), the damage (§4-1) with
defence (§H6), the part hit at 0 structure (§7-1), and the end of the battle when a torso falls (§7-2)."""

from __future__ import annotations

from dataclasses import replace

from ..battle import ActionDice
from .abilities import interrupt_cost
from .battle_state import ArmourCheck, BattleState, BattleUnit, Damage, other
from .damage import (
    LOCATION_ROLL,
    UNPENETRATED_STRUCTURE_LOSS,
    apply_damage,
    armour_check,
    defended,
    destruction_effects,
    roll_damage,
)


def _update(state: BattleState, unit: BattleUnit, **changes) -> BattleState:
    return replace(state, units=state.with_unit(unit), **changes)


def _to_part(structure: int, damage: int, part_damage: str) -> int:
    """How much of ``damage`` reaches a part (mirrors :func:`apply_damage`): decides whether 1D20 is rolled."""
    if structure > 0:
        if damage < structure:
            return 0
        return damage if part_damage == "whole" else damage - structure
    return damage


def _hurt(state: BattleState, target: BattleUnit, amount: int, dice: ActionDice, lines: list[str]) -> BattleUnit:
    location = None
    if _to_part(target.structure, amount, state.rules.part_damage):
        location = dice.d(20, what="the hit-location roll")[0]
        lines.append(f"destruction phase (破壊フェイズ, 002 §7-1): structure reaches 0, {LOCATION_ROLL} for the part hit")
    outcome = apply_damage(target.condition, amount, location, target.sheet.body, state.rules.part_damage)
    lines += [f"{target.name}: {s}" for s in outcome.steps]
    if outcome.destroyed_now:
        effects = destruction_effects(outcome.destroyed_now)
        lines += [f"{target.name}: {s}" for s in effects.steps]
    return replace(target, condition=outcome.state)


def _after_hit(state: BattleState, lines: list[str]) -> BattleState:
    """Next hit, back to the actor, or the end of the battle when a torso is destroyed."""
    pending = state.pending[1:]
    if pending:
        return replace(state, pending=pending, phase="armour")
    out = [u for u in state.units if u.out_of_action]
    if out:
        if len(out) == 2:
            lines.append("both units are destroyed: the battle ends in a draw (002 §7-2)")
            return replace(state, pending=(), phase="over", winner=None, actor=None,
                           end_reason="both units are destroyed")
        loser = out[0]
        winner = other(loser.side)
        lines.append(f"{loser.name} is destroyed: the battle is over, {state.unit(winner).name} wins (002 §7-2)")
        return replace(state, pending=(), phase="over", winner=winner, actor=None,
                       end_reason=f"{loser.name}'s torso is destroyed")
    return replace(state, pending=(), phase="acting")


def _armour(state: BattleState, action: ArmourCheck, dice: ActionDice):
    hit = state.pending[0]
    attacker, target = state.unit(hit.attacker), state.opponent(hit.attacker)
    weapon = attacker.weapon(hit.weapon)
    rolled = dice.expression(weapon.attack, "the attack roll")
    result = armour_check(weapon.attack, target.sheet.armour, dice=rolled)
    lines = [f"armour check (装甲判定フェイズ, 002 §3-1): {attacker.name}'s {weapon.label}, attack {weapon.attack} "
             f"against {target.name}'s armour (装甲値) {target.sheet.armour}", *result.steps]
    if result.penetrated:
        lines.append(f"next: damage (ダメージ決定フェイズ, 002 §4-1): {weapon.damage}"
                     + (" (melee: attenuation does not apply)" if hit.melee else f" − attenuation {target.sheet.attenuation}"))
        return replace(state, phase="damage", pending=(replace(hit, attack_total=result.attack),) + state.pending[1:]), lines
    new_target = _hurt(state, target, UNPENETRATED_STRUCTURE_LOSS, dice, lines)
    new = _update(state, new_target)
    return _after_hit(new, lines), lines


def _damage(state: BattleState, action: Damage, dice: ActionDice):
    hit = state.pending[0]
    attacker, target = state.unit(hit.attacker), state.opponent(hit.attacker)
    weapon = attacker.weapon(hit.weapon)
    rolled = dice.expression(weapon.damage, "the damage roll")
    result = roll_damage(weapon.damage, target.sheet.attenuation, melee=hit.melee, multiplier=hit.multiplier,
                         dice=rolled)
    lines = [f"damage (ダメージ決定フェイズ, 002 §4-1): {attacker.name}'s {weapon.label}, {weapon.damage}", *result.steps,
             f"damage {result.damage}"]
    amount = result.damage
    if action.defend:
        cost = interrupt_cost("defence", target.head_destroyed)
        amount = defended(result.damage, state.rules.defence_rounding)
        target = replace(target, active=target.active - cost)
        lines.append(f"{target.name} defends (防御行動, 002 §H6): {cost} active value, damage halved "
                     f"{result.damage} → {amount} (rounded {state.rules.defence_rounding}); active value left {target.active}")
    new_target = _hurt(state, target, amount, dice, lines)
    new = _update(state, new_target)
    return _after_hit(new, lines), lines
