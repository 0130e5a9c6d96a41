"""Verse World unit sheets: a pilot (操手) in a mecha (機兵), with locomotion modes and weapons (004 §3-4).

004 gives no unit sheets: the sample sheets (``data/verse-world/``) are the book's first battle
units, every value a sample, not in the source text. Validation reuses the rules: the unit is a
:class:`~rules_lib.verse_world.battle.Unit` (locomotion modes from ``locomotion.toml``, 004
§3-4-3-1, walking always; weapons with six-sided damage dice and an optional constant, ``2D6+1``;
every ranged class of ``ranged_weapons.toml``, 004 §3-4-2-3, lines 71–80: a magic gun's magazine,
and for a sling or thrown weapon ``assumed_bonus``, whether the physical bonus applies, which the
text does not say). The guided battle takes magic guns only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

from .. import checks
from ..geometry.square import Facing, Pose, Square
from ..verse_world.attack import CriticalRule, attack_odds, damage_expression
from ..verse_world.battle_state import UNIT_TABLE_FIELDS, Unit, Weapon, unit_from_table
from ..verse_world.movement import locomotion_mode
from . import ccfolia
from .base import armed, check_sheet, check_sources, known_keys, load_directory, require, sheet_named, text
from .limits import MAX_ENTRIES
from .palette import PaletteLine
from .variables import PaletteValues, Variable, ccfolia_params, split_variables, with_variables

SYSTEM = "verse-world"
VALUE_FIELDS = UNIT_TABLE_FIELDS
LABELS = {"initiative_bonus": "イニシアティブボーナス", "reaction": "再行動値", "luck": "幸運値", "pilot_mp": "操手MP",
          "to_hit": "命中基本値", "evasion": "回避基本値", "physical_bonus": "物理ダメージボーナス",
          "protection": "最終防護点", "mecha_mp": "機兵MP", "movement": "移動力"}
WEAPON_FIELDS = ("name", "japanese", "kind", "damage", "ranged_class", "magazine", "spares", "assumed_bonus", "source")
SHAPE = {"id": str, "system": str, "name": str, "pilot": str, "side": str, "modes": [str], "sources": dict,
         **dict.fromkeys(("initiative_bonus", "reaction", "luck", "pilot_mp", "to_hit", "evasion", "physical_bonus",
                          "protection", "hp", "mecha_mp", "movement"), int),
         "weapons": [{"name": str, "japanese": str, "kind": str, "damage": str, "ranged_class": str, "magazine": int,
                      "spares": int, "assumed_bonus": bool, "source": str}]}
#: the sheet stands where the battle puts it; a sheet alone needs some pose to build its Unit
_NOWHERE = Pose(Square(0, 0), Facing.NORTH)


@dataclass(frozen=True)
class VerseWorldSheet:
    """A pilot and mecha at full HP and MP, with a full magazine in each magic gun."""

    id: str
    unit: Unit
    sources: Mapping[str, str] = field(default_factory=dict)
    weapon_sources: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        checks.check_fields(self)
        text(self.id, "sheet id")
        armed(self.unit.weapons, self.unit.name)

    @property
    def name(self) -> str:
        return self.unit.name

    def to_unit(self, pose: Pose) -> Unit:
        """The sheet as a unit of the guided battle, standing at ``pose``."""
        return Unit(**{f.name: getattr(self.unit, f.name) for f in fields(Unit) if f.name not in ("pose", "prone")},
                    pose=pose)

    def to_dict(self) -> dict[str, Any]:
        u = self.unit
        data: dict[str, Any] = {"id": self.id, "system": SYSTEM}
        data.update({f: list(getattr(u, f)) if f == "modes" else getattr(u, f) for f in VALUE_FIELDS})
        data["sources"] = dict(self.sources) or None
        sources = self.weapon_sources or tuple("" for _ in u.weapons)
        data["weapons"] = [_weapon_dict(w, s) for w, s in zip(u.weapons, sources, strict=True)]
        return {k: v for k, v in data.items() if v is not None}

    @checks.checked_arguments
    def damage(self, weapon: Weapon, rolls: int = 1) -> str:
        """A weapon's damage as the text writes it: dice, then the physical bonus if it applies (004 §3-4-2-2, -3)."""
        return damage_expression(weapon.damage, self.unit.physical_bonus, rolls=rolls, bonus_applies=weapon.bonus_applies)

    def palette(self, own_commands: bool = False, critical_at: int | None = None,
                variables: bool = False) -> tuple[PaletteLine | Variable, ...]:
        """The chat palette in BCDice's generic notation (004 §3-4-1, §3-4-2-2).

        ``own_commands`` writes the attack and evasion as ``VW+b``, which reads the fumble (and,
        with ``critical_at``, a critical from that natural total: *not in the source text*).
        ``variables`` writes each value once, as ``//命中基本値=6``, and ``{命中基本値}`` where a line
        uses it (:mod:`rules_lib.sheets.variables`).
        """
        u = self.unit
        values = PaletteValues(variables)

        def value(field: str) -> str:
            return values.value(LABELS[field], getattr(u, field))

        def plus(field: str) -> str:
            return values.signed(LABELS[field], getattr(u, field))

        def check(field: str) -> str:
            if not own_commands:
                return f"2D6{plus(field)}"
            base = values.shown(LABELS[field], getattr(u, field), f"{getattr(u, field):+d}")
            return "VW" + (f"+{base}" if variables else base) + (f"@{critical_at}" if critical_at is not None else "")

        def damage(weapon) -> str:
            if not variables or not weapon.bonus_applies:
                return self.damage(weapon)
            return damage_expression(weapon.damage, 0) + plus("physical_bonus")

        note = "; double ones fumble (VW in rules-lib reads it)" if not own_commands else ""
        bonus = values.shown(LABELS["initiative_bonus"], u.initiative_bonus, f"{u.initiative_bonus:+d}")
        lines = [PaletteLine(f"2D6{plus('initiative_bonus')}", f"【イニシアティブ】initiative: bonus {bonus} + 2D6 (004 §3-4-1, line 9)"),
                 PaletteLine(check("to_hit"), f"【命中】attack: to-hit {value('to_hit')} + 2D6 (004 §3-4-2-2, line 42){note}"),
                 PaletteLine(check("evasion"), f"【回避】evasion: {value('evasion')} + 2D6, beat by the attack to be hit (line 50){note}")]
        for w in u.weapons:
            lines.append(PaletteLine(damage(w), f"【{w.japanese}】damage ({w.name}, {w.kind}); a critical rolls the dice "
                                     "once more (004 §3-4-2-2, line 45)"))
        lines.append(PaletteLine(f"2D6{plus('reaction')}", f"【再行動】extra action: re-action value {value('reaction')} + 2D6 against the other side (004 §3-4-1, line 16; the formula is a ruling)"))
        lines.append(PaletteLine(f"2D6{plus('luck')}", f"【幸運】fumble check: luck {value('luck')} + 2D6 against the GM's difficulty 9-16 (line 43)"))
        lines.append(PaletteLine("1D6-3", "【MP消費】the pilot's MP loss at the end of a turn, at least 1 (004 §3-4-1, line 21)"))
        return with_variables(values, lines)

    def ccfolia(self, own_commands: bool = False, critical_at: int | None = None, variables: bool = False) -> dict[str, Any]:
        """The CCFOLIA character piece: HP, pilot MP, mecha MP and magazines as bars (with ``variables``,
        the palette refers to the params by name: ``2D6+{命中基本値}``)."""
        u = self.unit
        status = [("HP", u.hp, u.max_hp), ("操手MP", u.pilot_mp, u.pilot_mp), ("機兵MP", u.mecha_mp, u.mecha_mp)]
        status += [(f"{w.japanese} 装填", w.loaded, w.magazine) for w in u.weapons if w.magazine is not None]
        status += [(f"{w.japanese} 予備弾倉", w.spares, w.spares) for w in u.weapons if w.magazine is not None]
        params = [(LABELS[f], getattr(u, f)) for f in LABELS if f not in ("pilot_mp", "mecha_mp")]
        params.append(("locomotion", ", ".join(f"{locomotion_mode(m).japanese} {m}" for m in u.modes)))
        memo = "\n".join([f"{u.name}, piloted by {u.pilot} ({u.side})", *(w.describe() for w in u.weapons),
                          "Verse World (004); " + "; ".join(sorted(set(self.sources.values()))) if self.sources else ""])
        named, lines = split_variables(self.palette(own_commands, critical_at, variables))
        return ccfolia.character(f"{u.name} ({u.pilot})", memo=memo.strip(), initiative=u.initiative_bonus,
                                 status=status, params=ccfolia_params(named, params),
                                 commands=[str(line) for line in lines])

    def key_odds(self, evasions: tuple[int, ...] = (4, 6, 8), criticals: CriticalRule | None = None) -> dict[str, Any]:
        """Exact hit odds of each weapon against some evasion values (004 §3-4-2-2); criticals are a choice."""
        if isinstance(evasions, str) or not isinstance(evasions, Sequence) or len(evasions) > MAX_ENTRIES:
            raise ValueError(f"evasions {checks.shown(evasions)} are not a list of at most {MAX_ENTRIES} evasion values")
        rule = criticals or CriticalRule.none()
        u = self.unit
        return {f"{w.name} vs evasion {e}": attack_odds(u.to_hit, e, criticals=rule, weapon_damage=w.damage,
                                                         physical_bonus=u.physical_bonus, bonus_applies=w.bonus_applies)
                for w in u.weapons for e in evasions}

    def odds_rows(self) -> list[tuple[str, Fraction]]:
        """Key odds as (label, exact chance) rows: hit per weapon and evasion (004 §3-4-2-2), no criticals judged."""
        rows = []
        for label, odds in self.key_odds().items():
            rows += [(f"hits: {label}", odds.hit), (f"attack fumbles: {label}", odds.attacker_fumble)]
        return rows

    def damage_rows(self, evasion: int = 6, protection: int = 4) -> list[tuple[str, Fraction]]:
        """Mean HP an attack of each weapon takes from a defender of ``evasion`` and ``protection``, misses
        counted as 0 (004 §3-4-2-2); no criticals judged."""
        u = self.unit
        return [(f"{w.name} ({self.damage(w)}) vs evasion {evasion}, protection {protection}",
                 attack_odds(u.to_hit, evasion, criticals=CriticalRule.none(), weapon_damage=w.damage,
                             physical_bonus=u.physical_bonus, bonus_applies=w.bonus_applies, protection=protection).damage.mean())
                for w in u.weapons]


def _weapon_dict(w: Weapon, source: str) -> dict[str, Any]:
    data = {"name": w.name, "japanese": w.japanese, "kind": w.kind, "damage": w.damage, "ranged_class": w.ranged_class,
            "magazine": w.magazine, "spares": w.spares or None, "assumed_bonus": w.assumed_bonus, "source": source or None}
    return {k: v for k, v in data.items() if v is not None}


def from_dict(data: Mapping[str, Any], *, sample: bool = False) -> VerseWorldSheet:
    """A sheet from its TOML mapping; a sample sheet must give a source for every value."""
    check_sheet(data, ("id", "system", *VALUE_FIELDS, "weapons", "sources"), SHAPE, SYSTEM, "Verse World sheet")
    missing = [f for f in ("id", *VALUE_FIELDS, "weapons") if f not in data]
    if missing:
        raise ValueError(f"Verse World sheet {sheet_named(data)} lacks {', '.join(missing)}")
    sources = check_sources(data, VALUE_FIELDS, f"Verse World sheet {data['id']!r}", sample=sample)
    weapon_sources = []
    for entry in data["weapons"]:
        known_keys(entry, WEAPON_FIELDS, f"weapon {entry.get('name')!r}")
        require(entry, ("name", "kind", "damage"), f"weapon {entry.get('name')!r}")
        if sample and not entry.get("source"):
            raise ValueError(f"Verse World sheet {data['id']!r}: weapon {entry.get('name')!r} has no source")
        weapon_sources.append(entry.get("source", ""))
    unit = unit_from_table(data, _NOWHERE)
    return VerseWorldSheet(data["id"], unit, sources, tuple(weapon_sources) if any(weapon_sources) else ())


def load_sheets() -> dict[str, VerseWorldSheet]:
    """The sample sheets of ``data/verse-world/`` by id."""
    return load_directory(SYSTEM, from_dict)
