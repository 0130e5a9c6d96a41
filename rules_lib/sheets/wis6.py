"""WIS6 unit sheets: a pilot's abilities and their AC, with growth points (001 §1-§5).

The text gives no unit sheets: the sample sheets (``data/wis6/``) are the book's first battle
units, every value marked *not in the source text*. Validation reuses the rules: abilities are
ability values (001 §3-1), weapons are :class:`~rules_lib.wis6.battle.Weapon`, and a growth plan
must be paid from the points banked (:func:`~rules_lib.wis6.apply_growth`, 001 §5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .. import checks
from ..wis6 import Sheet as GrowthSheet
from ..wis6 import apply_growth, attack_odds, check_ability, highest_roll_for_level, level_odds
from ..wis6.battle_state import Unit, Weapon, unit_from_table, weapon_from_table
from ..wis6.growth import GrowthPlan
from ..wis6.special import OPERATOR, WEAPON_ABILITIES
from ..wis6.turn import Combatant, Square
from . import ccfolia
from .base import (
    NOT_IN_TEXT,
    armed,
    check_sheet,
    check_sources,
    cited_or_default,
    known_keys,
    load_directory,
    require,
    sheet_named,
    text,
    whole,
)
from .palette import PaletteLine
from .variables import PaletteValues, Variable, ccfolia_params, split_variables, with_variables

SYSTEM = "wis6"
ABILITIES = ("reaction", "ballistic", "energy", "information")
ABILITY_LABELS = {"reaction": "反応", "ballistic": "実弾", "energy": "ＥＮ", "information": "情報"}
VALUE_FIELDS = ("name", "machine", "side", "role", *ABILITIES, "mobility", "ap", "armour",
                "pilot_points", "ac_points", "growth")
WEAPON_FIELDS = ("name", "kind", "attack", "range", "ammo", "missile", "source")
#: the roles (役職) a sheet may name: the one the text names, the operator (オペレーター, 001 §4-6,
#: line 95; §4-7, line 101), whose palette has the jamming line, and ``pilot`` for every other
#: (a name not in the source text, which names no other role)
ROLES = (OPERATOR, "pilot")
PLAN_FIELDS = ("abilities", "ap", "armour", "mobility", "weapons")
WEAPON_SHAPE = {"name": str, "kind": str, "attack": int, "range": int, "ammo": int, "missile": bool, "source": str}
SHAPE = {"id": str, "system": str, "name": str, "machine": str, "side": str, "role": str,
         **dict.fromkeys((*ABILITIES, "mobility", "ap", "armour", "pilot_points", "ac_points"), int),
         "growth": {"abilities": dict, "ap": int, "armour": int, "mobility": int, "weapons": dict},
         "sources": dict, "weapons": [WEAPON_SHAPE]}


@dataclass(frozen=True)
class Wis6Sheet:
    """A WIS6 pilot and AC. ``ap`` is the AC's full AP; ``pilot_points``/``ac_points`` the growth
    points banked (001 §5, line 112); ``growth`` a plan (:class:`~rules_lib.wis6.growth.GrowthPlan`
    fields) still to be paid from them, checked when the sheet is made."""

    id: str
    name: str
    machine: str
    side: str
    role: str
    reaction: int
    ballistic: int
    energy: int
    information: int
    mobility: int
    ap: int
    armour: int
    weapons: tuple[Weapon, ...]
    pilot_points: int = 0
    ac_points: int = 0
    growth: Mapping[str, Any] = field(default_factory=dict)
    sources: Mapping[str, str] = field(default_factory=dict)
    weapon_sources: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        checks.check_fields(self)
        text(self.id, "sheet id")
        for label in ("name", "machine", "side", "role"):
            text(getattr(self, label), label)
        if self.role not in ROLES:
            raise ValueError(f"{self.name}'s role {self.role!r} is unknown: allowed are {', '.join(map(repr, ROLES))} "
                             "(001 §4-6, line 95, names the role operator, オペレーター; any other role is 'pilot')")
        for label in ABILITIES:
            check_ability(getattr(self, label), f"{self.name}'s {label} ({ABILITY_LABELS[label]})")
        whole(self.mobility, f"{self.name}'s mobility (機動値)", minimum=0)
        whole(self.ap, f"{self.name}'s AP", minimum=1)
        whole(self.armour, f"{self.name}'s armour (装甲値)", minimum=0)
        armed(self.weapons, f"{self.name}'s AC")
        names = [w.name for w in self.weapons]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}'s weapons need different names: {names}")
        known_keys(self.growth, PLAN_FIELDS, f"{self.name}'s growth plan")
        self.grown()  # a plan that overspends the banked points is refused here (001 §5)

    def growth_sheet(self) -> GrowthSheet:
        return GrowthSheet({a: getattr(self, a) for a in ABILITIES}, self.ap, self.armour, self.mobility,
                           {w.name: w.attack for w in self.weapons}, self.pilot_points, self.ac_points)

    def grown(self):
        """The growth plan applied to the banked points (:func:`~rules_lib.wis6.apply_growth`, 001 §5)."""
        return apply_growth(self.growth_sheet(), GrowthPlan(**self.growth))

    def to_unit(self, square: Square) -> Unit:
        """The sheet as a unit of the guided battle, at full AP on ``square`` (as the battle builds its sample units)."""
        return unit_from_table(self.to_dict(), square)

    @property
    def initiative(self) -> int:
        """Reaction + mobility, the action order's value (001 §1-2, line 8)."""
        return Combatant(self.name, self.reaction, self.mobility).initiative

    # -- export -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "system": SYSTEM}
        for label in VALUE_FIELDS:
            value = getattr(self, label)
            if label == "growth":
                value = {k: dict(v) if isinstance(v, Mapping) else v for k, v in value.items()}
            if label in ("growth", "pilot_points", "ac_points"):
                value = cited_or_default(value, label, self.sources)  # no plan, nothing banked: left out
            data[label] = value
        data["sources"] = dict(self.sources) or None
        data["weapons"] = [_weapon_dict(w, s) for w, s in zip(self.weapons, self._weapon_sources(), strict=True)]
        return {k: v for k, v in data.items() if v is not None}

    def _weapon_sources(self) -> tuple[str, ...]:
        return self.weapon_sources or tuple("" for _ in self.weapons)

    def palette(self, own_commands: bool = False, variables: bool = False) -> tuple[PaletteLine | Variable, ...]:
        """The chat palette: BCDice's generic ``1D20<=A`` per ability and weapon (001 §3-1), the
        success-level thresholds in the label; ``own_commands`` writes ``SL<=A``, which reads the level.
        Evasion rolls reaction; an attack, a counter (001 §4-5, line 82) and a missile's interception
        (001 §4-4, line 75) roll the weapon's ability (実弾 or ＥＮ), so those are on the weapon's line.
        ``variables`` writes each ability once, as a ``//反応=12`` line, and ``{反応}`` where a line uses
        it (:mod:`rules_lib.sheets.variables`); the thresholds, which follow from the value, are then left out."""
        values = PaletteValues(variables)

        def check(kind: str) -> str:
            ability = values.value(ABILITY_LABELS[kind], getattr(self, kind))
            return f"SL<={ability}" if own_commands else f"1D20<={ability}"

        def levels(kind: str) -> str:
            return "" if variables else f": {_levels(getattr(self, kind))}"

        def named(kind: str) -> str:
            return values.value(ABILITY_LABELS[kind], getattr(self, kind))

        # evasion rolls reaction; a counter and the interception of a missile roll the weapon's
        # ability instead (001 §4-5, line 82; §4-4, line 75)
        lines = [PaletteLine(check("reaction"), f"【反応】evasion, reaction {named('reaction')}{levels('reaction')}")]
        for weapon in self.weapons:
            extra = f", {weapon.ammo} rounds" if weapon.ammo is not None else ""
            lines.append(PaletteLine(check(weapon.kind), f"【{weapon.name}】attack / counter / missile interception, "
                                     f"{WEAPON_ABILITIES[weapon.kind]} {named(weapon.kind)}, weapon attack "
                                     f"{weapon.attack}, range {weapon.range}{extra}{levels(weapon.kind)}"))
        if self.role == OPERATOR:
            lines.append(PaletteLine(check("information"), f"【情報】jamming (operator, 3 a session), information "
                                     f"{named('information')}{levels('information')}"))
        lines.append(PaletteLine("1D20", "action-order tie die (the die is not in the source text: the book's d20)"))
        return with_variables(values, lines)

    def ccfolia(self, own_commands: bool = False, variables: bool = False) -> dict[str, Any]:
        """The CCFOLIA character piece: AP and ammunition bars, abilities as params, the palette
        (with ``variables``, the palette refers to the params by name: ``1D20<={反応}``)."""
        status = [("AP", self.ap, self.ap)] + [(f"{w.name} ammo", w.ammo, w.ammo) for w in self.weapons if w.ammo is not None]
        params = [(f"{ABILITY_LABELS[a]} {a}", getattr(self, a)) for a in ABILITIES]
        params += [("機動値 mobility", self.mobility), ("装甲値 armour", self.armour)]
        memo = "\n".join([f"{self.name}, {self.role}, AC {self.machine} ({self.side})",
                          *(w.describe() for w in self.weapons),
                          f"growth points banked: pilot {self.pilot_points}, AC {self.ac_points}",
                          "WIS6 (001); values: " + _provenance(self.sources)])
        named, lines = split_variables(self.palette(own_commands, variables))
        return ccfolia.character(f"{self.name} ({self.machine})", memo=memo, initiative=self.initiative,
                                 status=status, params=ccfolia_params(named, params), commands=[str(line) for line in lines])

    def key_odds(self) -> dict[str, Any]:
        """Success and level odds of each roll on the sheet (001 §3-1), exact."""
        rolls = {"reaction": self.reaction, **{w.name: getattr(self, w.kind) for w in self.weapons}}
        return {label: level_odds(ability) for label, ability in rolls.items()}

    def odds_rows(self) -> list[tuple[str, Fraction]]:
        """Key odds as (label, exact chance) rows: success, level 2 or more, and a critical per roll (001 §3-1)."""
        rows = []
        for label, odds in self.key_odds().items():
            rows += [(f"{label}: success", 1 - odds.failure), (f"{label}: level 2 or more", odds.at_least(2)),
                     (f"{label}: critical (a 1)", odds.critical)]
        return rows

    def damage_rows(self, defender: tuple[int, int] = (12, 4)) -> list[tuple[str, Fraction]]:
        """Mean damage of each weapon against a defender of reaction and armour ``defender`` (001 §3-2),
        every roll and outcome counted (0 when the attack does no damage)."""
        reaction, armour = defender
        return [(f"{w.name} vs reaction {reaction}, armour {armour}",
                 attack_odds(getattr(self, w.kind), reaction, w.attack, armour).mean_damage) for w in self.weapons]


def _levels(ability: int) -> str:
    parts = []
    level = 2
    while (top := highest_roll_for_level(level, ability)) >= 1:
        parts.append(f"Lv{level} ≤{top}")
        level *= 2
    return ", ".join(["Lv1 ≤" + str(min(ability, 20)), *parts, "1 critical"])


def _provenance(sources: Mapping[str, str]) -> str:
    kinds = sorted(set(sources.values()))
    return "; ".join(kinds) if kinds else "a player's sheet"


def _weapon_dict(weapon: Weapon, source: str) -> dict[str, Any]:
    data = {"name": weapon.name, "kind": weapon.kind, "attack": weapon.attack, "range": weapon.range,
            "ammo": weapon.ammo, "missile": weapon.missile or None, "source": source or None}
    return {k: v for k, v in data.items() if v is not None}


def from_dict(data: Mapping[str, Any], *, sample: bool = False) -> Wis6Sheet:
    """A sheet from its TOML mapping; a sample sheet must give a source for every value."""
    check_sheet(data, ("id", "system", *VALUE_FIELDS, "weapons", "sources"), SHAPE, SYSTEM, "WIS6 sheet")
    sources = check_sources(data, VALUE_FIELDS, f"WIS6 sheet {data.get('id')!r}", sample=sample)
    weapons, weapon_sources = [], []
    for entry in data.get("weapons", []):
        known_keys(entry, WEAPON_FIELDS, f"WIS6 weapon {entry.get('name')!r}")
        require(entry, ("name", "kind", "attack", "range"), f"WIS6 weapon {entry.get('name')!r}")
        if sample and not entry.get("source"):
            raise ValueError(f"WIS6 sheet {data.get('id')!r}: weapon {entry.get('name')!r} has no source")
        weapons.append(weapon_from_table(entry))
        weapon_sources.append(entry.get("source", ""))
    missing = [f for f in ("id", "name", "machine", "side", "role", *ABILITIES, "mobility", "ap", "armour") if f not in data]
    if missing:
        raise ValueError(f"WIS6 sheet {sheet_named(data)} lacks {', '.join(missing)}")
    values = {f: data[f] for f in VALUE_FIELDS if f in data}
    return Wis6Sheet(id=data["id"], weapons=tuple(weapons), sources=sources,
                     weapon_sources=tuple(weapon_sources) if any(weapon_sources) else (), **values)


def load_sheets() -> dict[str, Wis6Sheet]:
    """The sample sheets of ``data/wis6/`` by id."""
    return load_directory(SYSTEM, from_dict)


__all__ = ["NOT_IN_TEXT", "ROLES", "Wis6Sheet", "from_dict", "load_sheets"]
