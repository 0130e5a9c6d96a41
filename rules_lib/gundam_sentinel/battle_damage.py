"""What a hit does in the guided battle (000 §6, §8-1, §8-2): damage through the armour, the critical
hit and secondary damage charts, fainting, and the escape chart of a destroyed PC's pilot.

Every effect of a chart entry is applied (:func:`_apply_chart`): the modifiers and conditions here,
lost weapons, arms and items and the morale check in :mod:`.battle_effects`, which asks the player
what the sheet cannot settle."""

from __future__ import annotations

from dataclasses import replace

from ..battle import ActionDice
from ..dice import percent, roll
from . import battle_effects as effects
from .battle_state import BattleState, BattleUnit, BattleWeapon
from .charts import EFFECT_KINDS, ChartRoll, chart_odds_text
from .checks import escape, faint_chance, faint_check
from .damage import apply_damage, critical_hit, hit_location
from .salvo import DamageFormula, salvo_damage

_NO_ADDITIONAL_MOVE = "no additional move (熱核ジェネレーター損傷)"

#: chart effects that add their value to one of the unit's modifiers: the field, and the log's words
_MODIFIER_EFFECTS = {
    "additional check": ("additional_modifier", "its later additional-damage checks take"),
    "initiative": ("initiative_modifier", "its initiative takes"),
    "escape modifier": ("escape_modifier", "its pilot's escape check takes"),
}


def _rolled(spec: str, draw: ActionDice) -> tuple[int, str]:
    """Roll an effect's dice (``"1D3"``, ``"3D6"``): the total and how it came about."""
    count, sides = (int(n) for n in spec.upper().split("D"))
    dice = draw.d(sides, count)
    return sum(dice), f"{spec} ({', '.join(map(str, dice))}) = {sum(dice)}"


def _apply_chart(state: BattleState, unit: BattleUnit, roll: ChartRoll, draw: ActionDice,
                 lines: list[str]) -> tuple[BattleUnit, int]:
    """Apply every structured effect of the entry ``roll`` read to ``unit``; returns it and the damage
    multiplier. Weapons, arms, items and morale checks go through :func:`.battle_effects.queue`."""
    entry = roll.entry
    source = effects.cite(roll)
    multiplier = 1
    changes: dict = {}
    conditions = list(unit.conditions)
    now = unit

    def amount(effect) -> int:
        if effect.dice:
            total, text = _rolled(effect.dice, draw)
            lines.append(f"  roll {text}")
            return effect.sign * total
        return effect.value or 0

    for effect in entry.effects:
        kind = effect.kind
        if kind == "destroyed":
            changes["durability"] = 0
            lines.append(f"  the {unit.name} is destroyed: durability 0")
        elif kind == "damage multiplier":
            multiplier = effect.value
        elif kind == "to hit":
            value, part = effect.value, "its"
            if effect.which:  # a camera: lost once, its worst value counted
                value, changes["lost_parts"], part = effects.lose_part(now, effect.which, effect.value)
                now = replace(now, lost_parts=changes["lost_parts"])
            changes["to_hit_modifier"] = changes.get("to_hit_modifier", now.to_hit_modifier) + value
            lines.append(f"  {part} shooting and melee hit checks take {value:+d} from now on "
                         f"(total {changes['to_hit_modifier']:+d})")
        elif kind == "evasion":
            value = amount(effect)
            changes["evasion_modifier"] = changes.get("evasion_modifier", now.evasion_modifier) + value
            lines.append(f"  its evasion value changes by {value:+d} steps from now on "
                         f"(total {changes['evasion_modifier']:+d})")
        elif kind == "faint":
            changes["fainted"] = True
            lines.append(f"  the {unit.name}'s pilot faints: the MS can do nothing until a recovery check "
                         "succeeds, and every attack on it hits (000 §8-1)")
        elif kind == "faint check":
            modifier = effect.value or 0
            lines.append(f"  fainting check (気絶判定, 000 §8-1): 2D6 + stamina (体力) {unit.pilot.stamina:+d}"
                         + (f" {modifier:+d}" if modifier else "") + ", 10 or less faints; chance "
                         + percent(faint_chance(unit.pilot.stamina + modifier)))
            check_ = faint_check(draw.d(6, 2), unit.pilot.stamina + modifier)
            lines += [f"    {s}" for s in check_.steps]
            if check_.result:
                changes["fainted"] = True
                lines.append(f"  the {unit.name}'s pilot faints: the MS can do nothing until a recovery check "
                             "succeeds, and every attack on it hits (000 §8-1)")
        elif kind == "pilot damage":
            total, text = _rolled(effect.dice, draw)
            lines.append(effects.pilot_damage_line(now, text, total))
            changes["pilot_damage"] = now.pilot_damage + total
        elif kind == "extra AP":
            changes["extra_ap"] = now.extra_ap + effect.value
            lines.append(f"  every action pattern now costs {changes['extra_ap']} more AP")
        elif kind == "cannot act":
            rounds = amount(effect)
            changes["disabled_until"] = state.round + rounds
            lines.append(f"  the {unit.name} cannot act for {rounds} round{'s' if rounds != 1 else ''}: "
                         f"the rest of this round and through round {state.round + rounds} (the book's count)")
        elif kind in _MODIFIER_EFFECTS:
            field, what = _MODIFIER_EFFECTS[kind]
            changes[field] = getattr(now, field) + effect.value
            lines.append(f"  {what} {effect.value:+d}")
        elif kind == "propellant":
            value = amount(effect)
            changes["propellant"] = max(0, unit.propellant + value)
            lines.append(f"  propellant {unit.propellant} {value:+d} = {changes['propellant']}")
        elif kind == "AP die":
            value = amount(effect)
            changes["ap_die_modifier"] = now.ap_die_modifier + value
            lines.append(f"  its action-point die takes {value:+d} from now on")
        elif kind == "no additional move":
            conditions.append(_NO_ADDITIONAL_MOVE)
            lines.append("  it can no longer take an additional move")
        elif kind == "turn limit":
            changes["turn_limit"], line = effects.limit_turn(now, effect.value, source)
            lines.append(line)
        elif kind == "no weapon swap":
            condition, line = effects.no_swap(source)
            conditions.append(condition)
            lines.append(line)
        elif kind in ("no damage", "escape check") or kind in effects.DECIDED:
            pass  # applied by apply_damage, by the destruction that comes with it, or queued below
        else:
            lines.append(f"  not applied: {EFFECT_KINDS[kind]} is not an effect on an MS in this battle")
    if conditions != list(unit.conditions):
        changes["conditions"] = tuple(dict.fromkeys(conditions))
    return effects.queue(replace(unit, **changes), roll, lines), multiplier


def _chart_lines(roll: ChartRoll, modifier: int = 0) -> list[str]:
    return [roll.steps[0], f"  exact odds: {chart_odds_text(roll.chart, modifier)}", f"  {roll.steps[-1]}"]


def _damage(state: BattleState, target: BattleUnit, weapon: BattleWeapon, hits: int, critical: bool,
            draw: ActionDice, lines: list[str]) -> BattleUnit:
    """Critical hit chart, hit location, damage through armour, the additional-damage check and the
    secondary damage chart (000 §6, §8-1)."""
    hurt, multiplier = target, 1
    if critical:
        lines.append("a critical against a mook MS (ザコＭＳ): the critical hit chart (クリティカルヒットチャート, "
                     "000 §6, line 296) decides the effect")
        crit = critical_hit(draw.d(6, 2), chart=state.rules.charts.critical)
        lines += _chart_lines(crit)
        hurt, multiplier = _apply_chart(state, hurt, crit, draw, lines)
        if hurt.destroyed:
            return hurt
    if target.side == "player":
        (loc_die,) = draw.d(6)
        found = hit_location(loc_die, target.hit_locations, mission_level=state.rules.mission_level)
        loc = found.location
        lines.append(f"hit location (命中箇所, 000 §6): {'; '.join(found.steps)}")
    else:
        loc = target.location(1)
        lines.append(f"the {target.name} has one armour value, {loc.armour}, and additional value "
                     f"{loc.additional_value} (an enemy MS rolls no hit location, 000 §6)")
    formula = DamageFormula.parse(weapon.damage)
    dmg = salvo_damage(formula, hits)
    dice = draw.d(formula.sides, formula.count)
    rolled = roll(dmg.expression, dice=list(dice))
    lines.append(f"damage (ダメージ): {dmg.text}" + (f" for {hits} missiles" if weapon.mode == "missile" else "")
                 + f", dice {', '.join(map(str, dice))}: {rolled.total} (no range modifier, 000 §6)")
    total = rolled.total
    if multiplier != 1:
        if state.rules.critical_multiplies == "rolled damage":
            total = rolled.total * multiplier
            lines.append(f"the critical multiplies the damage: {rolled.total} × {multiplier} = {total}")
        else:
            through = max(0, rolled.total - loc.armour) * multiplier
            total = through + loc.armour
            lines.append(f"the critical multiplies the damage through the armour: "
                         f"{max(0, rolled.total - loc.armour)} × {multiplier} = {through}")
    first = apply_damage(total, loc.armour, hurt.durability)
    result = first
    if first.additional_check and not first.destroyed:  # ruling: a destroyed MS has no secondary damage to check
        extra = draw.d(6, 2)
        result = apply_damage(total, loc.armour, hurt.durability, additional_value=loc.additional_value,
                              additional_dice=extra, additional_modifier=hurt.additional_modifier)
        if result.secondary_damage:
            result = apply_damage(total, loc.armour, hurt.durability, additional_value=loc.additional_value,
                                  additional_dice=extra, additional_modifier=hurt.additional_modifier,
                                  secondary_dice=draw.d(6, 2), secondary_chart=state.rules.charts.secondary)
    chart_steps = set(result.secondary.steps) if result.secondary else set()
    lines += [s for s in result.steps if not s.startswith("damage got through: roll 2D6") and s not in chart_steps]
    hurt = replace(hurt, durability=result.durability)
    if result.secondary:
        lines += _chart_lines(result.secondary)
        if result.secondary.entry.has("no damage"):
            lines.append(f"  this hit's damage is cancelled: durability stays {result.durability}")
        hurt, _ = _apply_chart(state, hurt, result.secondary, draw, lines)
    if hurt.destroyed and hurt.pending:
        lines.append(f"  the {hurt.name} is destroyed: the choices its chart results asked are moot")
        hurt = replace(hurt, pending=())
    if effects.ask(hurt):
        lines.append(effects.ask(hurt))
    return hurt


def _escape(state: BattleState, hurt: BattleUnit, draw: ActionDice, lines: list[str]) -> BattleUnit:
    """The destroyed unit's pilot and the escape chart (000 §6, line 336, §8-2)."""
    if hurt.side != "player" and state.rules.escape_for == "player":
        lines.append(f"the {hurt.name} is not a PC's MS: the text gives the escape check (脱出判定) to PCs "
                     "(000 §6, line 336), so its pilot makes none (BattleRules.escape_for)")
        return hurt
    if hurt.fainted:
        lines.append(f"the {hurt.name}'s pilot has fainted: a fainted pilot cannot escape, and failing to "
                     "escape is death (000 §8-2)")
        return replace(hurt, pilot_fate="killed (fainted, could not escape)")
    chart = state.rules.charts.escape
    modifier = hurt.escape_modifier
    lines.append(f"the {hurt.name}'s pilot makes the escape check (脱出判定, 000 §8-2): 2D6"
                 + (f" {modifier:+d}" if modifier else "") + " on the escape chart")
    result = escape(draw.d(6, 2), fainted=False, chart=chart, modifier=modifier)
    lines += _chart_lines(result.roll, modifier)
    fate = result.roll.entry.english
    for effect in result.roll.entry.effects:
        if effect.kind in ("pilot damage", "pilot left"):
            total, text = _rolled(effect.dice, draw)
            what = "takes" if effect.kind == "pilot damage" else "is left with"
            lines.append(f"  the pilot {what} {text}" + (" damage" if effect.kind == "pilot damage" else " durability"))
            fate += f" ({what} {text.split('= ')[-1]})"
            if effect.kind == "pilot damage":
                hurt = replace(hurt, pilot_damage=hurt.pilot_damage + total)
    lines.append(f"  the pilot {'escapes' if result.escaped else 'does not escape: dies (000 §8-2)'}")
    return replace(hurt, pilot_fate=fate)
