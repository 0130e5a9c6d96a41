"""Growth after a battle (戦闘終了後, 001 §5): 5 pilot and 5 AC growth points, spent or banked.

The costs are in ``growth.toml`` beside this module, each with its line in the text.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from ..worked import Worked
from .rules import Wis6Error, whole

_DATA = tomllib.loads((Path(__file__).parent / "growth.toml").read_text(encoding="utf-8"))

#: Growth points everyone gets after each battle scene (001 §5, line 111).
PILOT_POINTS_AWARDED: int = _DATA["award"]["pilot"]
AC_POINTS_AWARDED: int = _DATA["award"]["ac"]
#: The key of a plan's weapons under ``weapon_attack_scope="all_weapons"``.
ALL_WEAPONS = "all weapons"


@dataclass(frozen=True)
class GrowthCost:
    """What one purchase costs and gives: ``cost`` points of ``pool`` raise ``stat`` by ``gain``."""

    stat: str
    pool: Literal["pilot", "ac"]
    cost: int
    gain: int
    japanese: str


#: Every purchase, by stat: the pilot's abilities (001 §5-1) and the AC's values (001 §5-2).
COSTS: Mapping[str, GrowthCost] = MappingProxyType(
    {
        stat: GrowthCost(stat, pool, entry["cost"], entry["gain"], entry["japanese"])
        for pool in ("pilot", "ac")
        for stat, entry in _DATA[pool].items()
    }
)


def _frozen_counts(name: str, values: Mapping[str, int], minimum: int) -> Mapping[str, int]:
    checked = {}
    for key, value in dict(values).items():
        if not isinstance(key, str) or not key.strip():
            raise Wis6Error(f"{name}: {key!r} is not a name")
        checked[key] = whole(f"{name} {key!r}", value, minimum=minimum)
    return MappingProxyType(checked)


@dataclass(frozen=True)
class Sheet:
    """A PC and its AC as growth sees them, with the growth points banked (蓄積) so far.

    ``abilities``: the pilot's ability values by name (e.g. reaction, ballistic, energy,
    information; the text lists none, so any name is accepted). ``weapons``: weapon attack
    power by weapon name.
    """

    abilities: Mapping[str, int]
    ap: int
    armour: int
    mobility: int
    weapons: Mapping[str, int] = field(default_factory=dict)
    pilot_points: int = 0
    ac_points: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "abilities", _frozen_counts("ability", self.abilities, 1))
        object.__setattr__(self, "weapons", _frozen_counts("weapon attack", self.weapons, 0))
        whole("AP", self.ap, minimum=0)
        whole("armour", self.armour, minimum=0)
        whole("mobility", self.mobility, minimum=0)
        whole("banked pilot points", self.pilot_points, minimum=0)
        whole("banked AC points", self.ac_points, minimum=0)


def award_growth_points(sheet: Sheet) -> Sheet:
    """After a battle scene: +5 pilot and +5 AC growth points, added to any banked (001 §5, lines 111–112)."""
    return replace(
        sheet, pilot_points=sheet.pilot_points + PILOT_POINTS_AWARDED, ac_points=sheet.ac_points + AC_POINTS_AWARDED
    )


@dataclass(frozen=True)
class GrowthPlan:
    """What to buy: pilot ability raises (+1 each) and AC purchases, counted in purchases.

    ``ap=2`` buys AP twice (+10 for 2 points); ``armour=1`` buys armour +1 for 3 points;
    ``weapons={"beam rifle": 1}`` buys that weapon's attack +1 for 5 points.
    """

    abilities: Mapping[str, int] = field(default_factory=dict)
    ap: int = 0
    armour: int = 0
    mobility: int = 0
    weapons: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "abilities", _frozen_counts("ability raise", self.abilities, 0))
        object.__setattr__(self, "weapons", _frozen_counts("weapon purchases", self.weapons, 0))
        for name in ("ap", "armour", "mobility"):
            whole(f"{name} purchases", getattr(self, name), minimum=0)

    def pilot_cost(self) -> int:
        return sum(self.abilities.values()) * COSTS["ability"].cost

    def ac_cost(self) -> int:
        return (
            self.ap * COSTS["ap"].cost
            + self.armour * COSTS["armour"].cost
            + self.mobility * COSTS["mobility"].cost
            + sum(self.weapons.values()) * COSTS["weapon_attack"].cost
        )


@dataclass(frozen=True)
class Growth(Worked):
    """A spending plan applied: the new sheet, the points spent from each pool, and the working."""

    sheet: Sheet
    pilot_spent: int
    ac_spent: int


def apply_growth(
    sheet: Sheet,
    plan: GrowthPlan,
    *,
    weapon_attack_scope: Literal["one_weapon", "all_weapons"] = "one_weapon",
) -> Growth:
    """Spend banked growth points on ``plan`` and return the grown sheet (001 §5).

    Pilot points buy only pilot abilities and AC points only AC values (a reading: the text
    lists them under separate headings, 001 §5-1 and §5-2). Points left over stay banked.
    ``weapon_attack_scope`` (*not in the source text*, 001 §5-2, line 121): a weapon-attack purchase
    raises one named weapon (``"one_weapon"``) or every weapon of the AC (``"all_weapons"``, plan
    key ``"all weapons"``). Overspending either pool raises an error naming both numbers.
    """
    if weapon_attack_scope not in ("one_weapon", "all_weapons"):
        raise Wis6Error(f"weapon_attack_scope {weapon_attack_scope!r} is not one of one_weapon, all_weapons")
    pilot_cost, ac_cost = plan.pilot_cost(), plan.ac_cost()
    if pilot_cost > sheet.pilot_points:
        raise Wis6Error(
            f"the plan spends {pilot_cost} pilot growth points but only {sheet.pilot_points} are banked"
        )
    if ac_cost > sheet.ac_points:
        raise Wis6Error(f"the plan spends {ac_cost} AC growth points but only {sheet.ac_points} are banked")
    steps: list[str] = []
    abilities = dict(sheet.abilities)
    for name, raises in plan.abilities.items():
        if name not in abilities:
            raise Wis6Error(f"ability {name!r} is not on the sheet: it has {', '.join(abilities) or 'none'}")
        if raises:
            gain = raises * COSTS["ability"].gain
            steps.append(f"{name} {abilities[name]} → {abilities[name] + gain} for {raises * COSTS['ability'].cost} pilot points")
            abilities[name] += gain
    values = {"ap": sheet.ap, "armour": sheet.armour, "mobility": sheet.mobility}
    for stat in values:
        bought = getattr(plan, stat)
        if bought:
            cost = COSTS[stat]
            new = values[stat] + bought * cost.gain
            steps.append(f"{stat} {values[stat]} → {new} for {bought * cost.cost} AC points ({bought} × {cost.cost})")
            values[stat] = new
    weapons = dict(sheet.weapons)
    cost = COSTS["weapon_attack"]
    for name, bought in plan.weapons.items():
        if not bought:
            continue
        if weapon_attack_scope == "all_weapons":
            if name != ALL_WEAPONS:
                raise Wis6Error(f"with weapon_attack_scope='all_weapons' the plan key is {ALL_WEAPONS!r}, not {name!r}")
            targets = list(weapons)
        elif name not in weapons:
            raise Wis6Error(f"weapon {name!r} is not on the sheet: it has {', '.join(weapons) or 'none'}")
        else:
            targets = [name]
        for target in targets:
            steps.append(
                f"{target} attack {weapons[target]} → {weapons[target] + bought * cost.gain}"
                + (f" for {bought * cost.cost} AC points" if target == targets[0] else " (same purchase)")
            )
            weapons[target] += bought * cost.gain
    pilot_left, ac_left = sheet.pilot_points - pilot_cost, sheet.ac_points - ac_cost
    steps.append(f"spent {pilot_cost} pilot and {ac_cost} AC points; banked {pilot_left} pilot and {ac_left} AC points")
    grown = Sheet(abilities, values["ap"], values["armour"], values["mobility"], weapons, pilot_left, ac_left)
    return Growth(grown, pilot_cost, ac_cost, steps=tuple(steps))


@dataclass(frozen=True)
class GrowthOption:
    """What one kind of purchase can buy with the points available."""

    stat: str
    japanese: str
    pool: str
    cost: int
    gain: int
    purchases: int
    total_gain: int
    points_left: int


def growth_options(pilot_points: int, ac_points: int) -> tuple[GrowthOption, ...]:
    """For each purchase, what the points buy if all of its pool goes there (001 §5-1, §5-2)."""
    available = {
        "pilot": whole("pilot points", pilot_points, minimum=0),
        "ac": whole("AC points", ac_points, minimum=0),
    }
    options = []
    for cost in COSTS.values():
        points = available[cost.pool]
        purchases = points // cost.cost
        options.append(
            GrowthOption(
                cost.stat, cost.japanese, cost.pool, cost.cost, cost.gain,
                purchases, purchases * cost.gain, points - purchases * cost.cost,
            )
        )
    return tuple(options)


__all__ = [
    "AC_POINTS_AWARDED", "ALL_WEAPONS", "COSTS", "PILOT_POINTS_AWARDED", "Growth", "GrowthCost",
    "GrowthOption", "GrowthPlan", "Sheet", "apply_growth", "award_growth_points", "growth_options",
]
