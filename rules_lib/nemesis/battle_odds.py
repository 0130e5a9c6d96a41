"""Exact odds at the Nemesis guided battle's decisions (002 §1-1, §3-1, §4-1, §5-1, §6-1)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .. import checks
from ..battle import IllegalStep
from ..dice import Distribution, percent, pool_distribution
from ..dice.shapes import opposed
from .battle import _faces, action_kind, check
from .battle_damage import _to_part
from .battle_state import Action, BattleState, BattleUnit
from .damage import (
    damage_distribution,
    defended,
    penetration_chance,
)
from .melee import (
    approach_chance,
    approacher_dice,
    duel_odds,
    shooter_dice,
)
from .silhouette import Weapon


@checks.checked_arguments
def initiative_chance(a: BattleUnit, b: BattleUnit, dice_a: int = 3, dice_b: int = 3) -> dict[str, Fraction]:
    """Exact chances, before the roll, that A's sum + sensors is higher, equal or lower than B's (002 §1-1)."""
    da = pool_distribution(dice_a).map(lambda s: s + a.sheet.sensors)
    db = pool_distribution(dice_b).map(lambda s: s + b.sheet.sensors)
    odds = opposed(da, db)
    return {"higher": odds.higher, "tie": odds.tie, "lower": odds.lower}


@dataclass(frozen=True)
class DecisionOdds:
    """The exact odds of an action, in words and numbers (``chance`` is the headline chance)."""

    chance: Fraction | None
    mean_damage: Fraction | None
    text: str


def decision_odds(state: BattleState, action: Action) -> DecisionOdds:
    """The exact odds the player faces when choosing ``action`` (only for legal actions): penetration and
    damage (002 §3-1, §4-1), the approach (§5-1), the duel (§6-2), defence (§H6) and the part roll (§7-1)."""
    check(state, action)
    kind = action_kind(action)
    if kind == "shoot":
        unit = state.unit(action.side)
        weapon = unit.weapon(action.weapon)
        target = state.opponent(action.side)
        return _hit_odds(weapon, target, melee=False, multiplier=1, prefix=f"the {weapon.label} against {target.name}")
    if kind == "armour":
        hit = state.pending[0]
        weapon = state.unit(hit.attacker).weapon(hit.weapon)
        target = state.opponent(hit.attacker)
        return _hit_odds(weapon, target, hit.melee, hit.multiplier, prefix=f"the {weapon.label} against {target.name}")
    if kind == "damage":
        hit = state.pending[0]
        weapon = state.unit(hit.attacker).weapon(hit.weapon)
        target = state.opponent(hit.attacker)
        dist = damage_distribution(weapon.damage, target.sheet.attenuation, hit.melee, hit.multiplier)
        if action.defend:
            dist = dist.map(lambda d: defended(d, state.rules.defence_rounding))
        reach = dist.probability(lambda d: _to_part(target.structure, d, state.rules.part_damage) > 0)
        how = "defending (damage halved)" if action.defend else "not defending"
        return DecisionOdds(reach, dist.mean(),
                            f"{how}: mean damage {float(dist.mean()):.2f}; chance that it reaches a part "
                            f"(structure {target.structure} left) {reach} = {percent(reach)}")
    if kind == "approach":
        unit, target = state.unit(action.side), state.opponent(action.side)
        n = approacher_dice(unit.sheet.mobility, action.active_spent)
        m = shooter_dice(target.ranges_used)
        p = approach_chance(n, m, state.rules.approach_compare)
        return DecisionOdds(p, None, f"approach with {n} dice against {m}: succeeds {p} = {percent(p)}")
    if kind in ("melee", "open-melee"):
        unit, target = state.unit(action.side), state.opponent(action.side)
        weapon = target.melee_weapon()
        if len(target.rolled) != 3 or weapon is None or target.unusable_reason(weapon):
            return DecisionOdds(Fraction(1), None, f"{target.name} cannot answer in the duel: an automatic hit")
        o = duel_odds(unit.rolled, target.rolled, state.rules.duel)
        return DecisionOdds(o.win, None, f"duel {_faces(unit.rolled)} against {_faces(target.rolled)}: "
                                         f"win {percent(o.win)}, mutual {percent(o.mutual)}, lose {percent(o.lose)}")
    return DecisionOdds(None, None, "")


def _hit_odds(weapon: Weapon, target: BattleUnit, melee: bool, multiplier: int, prefix: str) -> DecisionOdds:
    p = penetration_chance(weapon.attack, target.sheet.armour)
    dist = damage_distribution(weapon.damage, target.sheet.attenuation, melee, multiplier)
    return DecisionOdds(p, dist.mean(),
                        f"{prefix}: {weapon.attack} exceeds armour {target.sheet.armour} with chance {p} = {percent(p)}; "
                        f"if it does, mean damage {float(dist.mean()):.2f} "
                        f"({min(dist.support)} to {max(dist.support)})")


def damage_odds(state: BattleState) -> Distribution:
    """The exact damage distribution of the hit waiting in the damage phase (002 §4-1)."""
    if state.phase != "damage":
        raise IllegalStep("no hit waits for damage")
    hit = state.pending[0]
    weapon = state.unit(hit.attacker).weapon(hit.weapon)
    target = state.opponent(hit.attacker)
    return damage_distribution(weapon.damage, target.sheet.attenuation, hit.melee, hit.multiplier)


__all__ = [
    "DecisionOdds", "decision_odds", "initiative_chance",
]
