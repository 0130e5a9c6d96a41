"""Exact odds at the guided battle's decisions (000 §1, §6, §7-1, §8-1): a firing, initiative, AP, fainting."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..dice import Distribution, percent
from .actions import ap_at_least, initiative_odds
from .battle import _check_fire
from .battle_effects import check_waiting
from .battle_state import BattleState, Fire
from .checks import faint_chance
from .d36 import step_of, value_of
from .damage import secondary_damage_chance
from .salvo import blast_damage, resolve_salvo, salvo_damage, salvo_modifier, salvo_odds
from .to_hit import CRITICAL_AT, HitOptions, check_hit, hit_odds


@dataclass(frozen=True)
class FireOdds:
    """The exact odds of a firing before the dice: the final modifier (a salvo's bonus included), the
    chance to hit, the missiles hitting, the damage that gets through the armour (with a missed
    salvo's blast, which no armour meets), the chance of secondary damage (``additional``) and of
    destroying the target (both before any critical hit chart), and of a critical against a mook MS
    (``critical``)."""

    modifier: int
    evasion: int
    hit: Fraction
    hits: Distribution
    through: Distribution
    destroy: Fraction
    additional: Fraction
    critical: Fraction = Fraction(0)

    @property
    def expected_hits(self) -> Fraction:
        return self.hits.mean()

    @property
    def expected_through(self) -> Fraction:
        return self.through.mean()


def fire_odds(state: BattleState, action: Fire) -> FireOdds:
    """Exact odds of ``action`` in ``state`` (000 §6, §7-1, §8-1), with :func:`~.to_hit.hit_odds`,
    :func:`~.salvo.salvo_odds`, :func:`~.salvo.salvo_damage` and :func:`~.salvo.blast_damage`: the hit
    location (a PC's MS: each 1D6 face), the damage dice, the armour and a missed salvo's blast
    (000 §7-1, line 346) are all enumerated. Refuses an illegal firing (a lost weapon, or any firing
    while a chart result waits for a choice), as the battle does."""
    check_waiting(state, action)
    p = _check_fire(state, action)
    modifier = p.weapon_mod + p.unit.pilot.shooting + p.unit.to_hit_modifier
    evasion = p.target.evasion()
    critical = Fraction(0)
    if p.target.mook:  # a modified 66+ that hits a mook MS (000 §6): the same rule functions, every roll
        on_mook = HitOptions(target_is_mob=True, target_pilot_fainted=p.target.fainted)
        for t in range(1, 7):
            for u in range(1, 7):
                if p.weapon.mode == "missile":
                    crit = resolve_salvo(t, u, p.fired, evasion, other_modifier=modifier,
                                         options=on_mook).check.critical
                else:
                    crit = check_hit(t, u, modifier, evasion, on_mook).critical
                critical += Fraction(crit, 36)
    salvo_bonus = salvo_modifier(p.fired) if p.weapon.mode == "missile" else 0
    fainted = p.target.fainted
    if p.weapon.mode == "missile":
        if fainted:  # every attack on a fainted pilot hits (000 §8-1): salvo_odds has no such option
            counts: dict[int, int] = {}
            for t in range(1, 7):
                for u in range(1, 7):
                    h = resolve_salvo(t, u, p.fired, evasion, other_modifier=modifier, options=HitOptions(target_pilot_fainted=True)).hits
                    counts[h] = counts.get(h, 0) + 1
            hits = Distribution.from_counts(counts)
        else:
            hits = salvo_odds(p.fired, evasion, other_modifier=modifier).hits
    else:
        odds = hit_odds(modifier, evasion, HitOptions(target_pilot_fainted=fainted))
        hits = Distribution({1: odds.hit, 0: 1 - odds.hit}) if 0 < odds.hit < 1 else Distribution({int(odds.hit): Fraction(1)})
    if p.target.side == "player":
        faces = [p.target.location(f, state.rules.mission_level) for f in range(1, 7)]
    else:
        faces = [p.target.location(1)] * 6
    through: dict[int, Fraction] = {}
    destroy = additional = Fraction(0)
    for h, ph in hits.items():
        if h == 0:  # a miss: a salvo's blast comes off the durability whole (see battle._blast), else nothing
            miss = (blast_damage(p.weapon.damage, state.rules.blast).distribution if p.weapon.mode == "missile"
                    else Distribution({0: Fraction(1)}))
            for d, pd in miss.items():
                through[d] = through.get(d, Fraction(0)) + ph * pd
                if d and d >= p.target.durability:
                    destroy += ph * pd
            continue
        damage = salvo_damage(p.weapon.damage, h).distribution
        for loc in faces:
            for d, pd in damage.items():
                t = max(0, d - loc.armour)
                q = ph * pd / 6
                through[t] = through.get(t, Fraction(0)) + q
                if t >= p.target.durability:
                    destroy += q
                elif t > 0:
                    additional += q * secondary_damage_chance(loc.additional_value)
    hit = 1 - hits[0] if 0 in hits.support else Fraction(1)
    return FireOdds(modifier + salvo_bonus, evasion, hit, hits, Distribution(through), destroy, additional, critical)


def describe_fire_odds(state: BattleState, action: Fire) -> str:
    """One line for a player about to fire: hit chance, expected hits (a salvo), damage through armour."""
    o = fire_odds(state, action)
    weapon = state.unit(action.unit).weapon(action.weapon)
    evasion_step = step_of(o.evasion)
    need = value_of(evasion_step - o.modifier + 1)
    target = state.opponent(action.unit)
    if target.fainted:
        parts = [f"{weapon.name}: the {target.name}'s pilot has fainted, so every attack hits (000 §8-1): "
                 f"{percent(o.hit)} to hit"]
    elif o.hit == 0:
        parts = [f"{weapon.name}: final modifier {o.modifier:+d} against evasion {o.evasion}: no roll hits"]
    else:
        parts = [f"{weapon.name}: final modifier {o.modifier:+d} against evasion {o.evasion}, so a 1D36 of "
                 f"{need} or more hits: {percent(o.hit)} ({o.hit}) to hit"]
    if weapon.mode == "missile":
        parts.append(f"expected missiles hitting {float(o.expected_hits):.2f}")
    parts.append(f"expected damage through the armour {float(o.expected_through):.2f}"
                 + (" (a miss's blast included)" if weapon.mode == "missile" else ""))
    parts.append(f"secondary damage {percent(o.additional)}, destroyed {percent(o.destroy)}")
    if target.mook:
        parts.append(f"critical (a mook MS, {CRITICAL_AT} or more: the critical hit chart) {percent(o.critical)}; "
                     "the damage and destruction odds are before any critical")
    return "; ".join(parts)


def initiative_chances(state: BattleState) -> dict[str, Fraction]:
    """Exact chances of each unit winning the initiative outright, and of a tie (re-rolled) (000 §1)."""
    a, b = state.units
    odds = initiative_odds(a.pilot.perception, b.pilot.perception)
    return {a.name: odds["A"], b.name: odds["B"], "tie": odds["tie"]}


def ap_chance(state: BattleState, name: str, needed: int) -> Fraction:
    """The chance the unit rolls at least ``needed`` AP this round (000 §1)."""
    u = state.unit(name)
    return ap_at_least(needed, u.pilot.reaction, owed=state.owed[state.index(name)])


def faint_risk(state: BattleState, name: str) -> Fraction:
    """The chance the unit's pilot faints when a fainting check is called for (000 §8-1)."""
    return faint_chance(state.unit(name).pilot.stamina)


__all__ = [
    "FireOdds", "ap_chance", "describe_fire_odds", "fire_odds", "initiative_chances",
]
