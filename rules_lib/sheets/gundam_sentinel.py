"""GUNDAM SENTINEL unit sheets: an MS (or MA) with its weapons and hit locations, and its pilot (000).

000 has no MS data sheets. The sample sheets (``data/gundam-sentinel/``) are the first battle's
two units; the few values the text states cite it (the Zaku II's mobility ``3/−/4/−``, 000 §4,
line 222), everything else is marked *not in the source text*. Validation reuses the rules:
mobility is read by :meth:`~rules_lib.gundam_sentinel.units.Mobility.parse` (a ``?`` is an
entry the text does not give), weapons are :class:`~rules_lib.gundam_sentinel.battle_state.BattleWeapon`,
the pilot a :class:`~rules_lib.gundam_sentinel.units.Pilot`. The palette is BCDice's
GundamSentinel dicebot: ``BB+m>e`` per weapon and range band, ``BBM`` against mooks, ``GS``
checks and the charts, so it rolls on CCFOLIA as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..checks import flag
from ..dice import distribution
from ..geometry.hex import Hex
from ..gundam_sentinel.battle_state import (
    BANDS,
    NO_MODIFIER,
    BattleUnit,
    BattleWeapon,
    hit_location_from_table,
    unit_from_table,
    weapon_from_table,
)
from ..gundam_sentinel.checks import faint_chance, recovery_chance
from ..gundam_sentinel.d36 import step_of
from ..gundam_sentinel.damage import check_hit_location_table
from ..gundam_sentinel.ranges import JAPANESE_BANDS
from ..gundam_sentinel.salvo import salvo_modifier
from ..gundam_sentinel.to_hit import CRITICAL_AT, evasion_value, hit_odds
from ..gundam_sentinel.units import (
    UNIT_CLASSES,
    UNKNOWN_MOBILITY,
    HitLocation,
    Pilot,
    check_unit_class,
    mobility_hexes,
    parse_mobility,
)
from . import ccfolia
from .base import (
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
from .palette import PaletteLine, signed
from .variables import PaletteValues, Variable, ccfolia_params, split_variables, with_variables

SYSTEM = "gundam-sentinel"
BAND_LABELS = JAPANESE_BANDS  # the text's names of the range bands (000 §6)
UNKNOWN = UNKNOWN_MOBILITY
PILOT_FIELDS = ("perception", "reaction", "shooting", "piloting", "stamina", "mental", "nt")
PILOT_LABELS = {"perception": "知覚力", "reaction": "反応力", "shooting": "射撃力", "piloting": "操縦力",
                "stamina": "体力", "mental": "精神力", "nt": "NT値"}
VALUE_FIELDS = ("name", "japanese", "side", "unit_class", "mobility", "base_evasion", "durability", "propellant",
                "hit_locations", "pilot", "mook")
WEAPON_FIELDS = ("name", "japanese", "mode", "range_modifiers", "damage", "ammo", "capacity", "salvo_at_least", "source")
SHAPE = {"id": str, "system": str, "name": str, "japanese": str, "side": str, "unit_class": str, "mobility": str,
         "base_evasion": int, "durability": int, "propellant": int, "mook": bool, "sources": dict,
         "pilot": dict.fromkeys(PILOT_FIELDS, int),
         "hit_locations": [{"name": str, "rolls": [int], "armour": int, "additional_value": int}],
         "weapons": [{"name": str, "japanese": str, "mode": str, "range_modifiers": dict.fromkeys(BANDS, (int, str)),
                      "damage": str, "ammo": int, "capacity": int, "salvo_at_least": int, "source": str}]}
#: BCDice GundamSentinel charts the palette offers (BCDice reference, GundamSentinel.rb lines 30-35)
CHARTS = {"ECHC": "【敵MSクリティカルヒットチャート】enemy MS critical hit chart (BCDice)",
          "SDDC": "【二次被害判定チャート】secondary damage chart (BCDice; the chart is not in 000)"}
PLAYER_CHARTS = {"PEJC": "【PC用脱出判定チャート】PC escape chart (BCDice; 000 §8-2 names it)"}


@dataclass(frozen=True)
class GundamSheet:
    """An MS and its pilot. ``durability`` and ``propellant`` are the full values."""

    id: str
    name: str
    japanese: str
    side: str
    unit_class: str
    mobility: str
    base_evasion: int
    durability: int
    propellant: int
    hit_locations: tuple[HitLocation, ...]
    weapons: tuple[BattleWeapon, ...]
    pilot: Pilot
    sources: Mapping[str, str] = field(default_factory=dict)
    #: a mook MS (ザコＭＳ), the only target of the 66+ critical (000 §6)
    mook: bool = False

    def __post_init__(self) -> None:
        text(self.id, "sheet id")
        text(self.name, "name")
        if self.side not in ("player", "enemy"):
            raise ValueError(f"side {self.side!r}: allowed are 'player' (a PC's MS) and 'enemy'")
        check_unit_class(self.unit_class)
        parse_mobility(self.mobility)
        step_of(self.base_evasion, "base evasion")
        whole(self.durability, f"{self.name}'s durability (耐久力)", minimum=1)
        whole(self.propellant, f"{self.name}'s propellant (推進剤)", minimum=0)
        check_hit_location_table(self.hit_locations, self.name)
        armed(self.weapons, self.name)

    def hexes(self, terrain: str = "space") -> int:
        """Hexes per move in ``terrain`` (000 §4); an error if the entry is a dash or not in the text."""
        return mobility_hexes(self.mobility, terrain, self.name)

    def evasion(self) -> int:
        """Evasion value: base + piloting, in steps of the 1D36 scale (000 §6)."""
        return evasion_value(self.base_evasion, piloting=self.pilot.piloting).value

    def to_unit(self, position: Hex, facing: int, terrain: str = "space") -> BattleUnit:
        """The sheet as a unit of the guided battle, undamaged, at ``position`` facing ``facing`` (as the
        battle builds its sample units)."""
        return unit_from_table(self.to_dict(), position, facing, terrain)

    # -- export -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id, "system": SYSTEM, "name": self.name,
            "japanese": cited_or_default(self.japanese, "japanese", self.sources),
            "side": self.side, "unit_class": self.unit_class, "mobility": self.mobility,
            "base_evasion": self.base_evasion, "durability": self.durability, "propellant": self.propellant,
            "mook": cited_or_default(self.mook, "mook", self.sources), "sources": dict(self.sources) or None,
            "pilot": {f: getattr(self.pilot, f) for f in PILOT_FIELDS},
            "hit_locations": [{"name": h.name, "rolls": list(h.rolls), "armour": h.armour,
                               "additional_value": h.additional_value} for h in self.hit_locations],
            "weapons": [_weapon_dict(w) for w in self.weapons],
        }
        return {k: v for k, v in data.items() if v is not None}

    def attack_modifiers(self) -> list[tuple[BattleWeapon, str, int]]:
        """Each weapon's final to-hit modifier per range band it reaches: band modifier + shooting (000 §6),
        and for a missile launcher the salvo modifier of its full salvo (000 §7-1, line 343)."""
        return [(w, band, w.range_modifiers[band] + self.pilot.shooting + _salvo(w))
                for w in self.weapons for band in BANDS if w.range_modifiers.get(band) is not None]

    def palette(self, evasion: int | None = None, variables: bool = False) -> tuple[PaletteLine | Variable, ...]:
        """The chat palette in BCDice GundamSentinel commands; ``evasion`` completes each ``BB+m>e``.
        ``variables`` writes the pilot's values once, as ``//射撃力=1`` lines, and ``{射撃力}`` where a
        line uses them (``BB+{射撃力}+16``: the same roll as ``BB+17``; :mod:`rules_lib.sheets.variables`)."""
        if evasion is not None:
            step_of(evasion, "target evasion")
        target = "" if evasion is None else f">{evasion}"
        p = self.pilot
        values = PaletteValues(variables)

        def pilot(field: str) -> str:  # a pilot value added to a roll: +1, or +{射撃力}
            return values.signed(PILOT_LABELS[field], getattr(p, field))

        def shown(field: str) -> str:  # the same value in a label: +1, or {射撃力}
            return values.shown(PILOT_LABELS[field], getattr(p, field), f"{getattr(p, field):+d}")

        lines = [PaletteLine(f"2D6{pilot('perception')}", f"【イニシアチブ】initiative: 2D6 + perception {shown('perception')} (000 §1)"),
                 PaletteLine(f"1D6{pilot('reaction')}", f"【行動ポイント】action points: 1D6 + reaction {shown('reaction')} (000 §1)")]
        for weapon, band, modifier in self.attack_modifiers():
            salvo = f", a full salvo of {weapon.capacity} {_salvo(weapon):+d} (000 §7-1)" if _salvo(weapon) else ""

            def label(weapon: BattleWeapon = weapon, band: str = band, salvo: str = salvo) -> str:
                return (f"【{weapon.japanese or weapon.name}】{BAND_LABELS[band]} {band}: range "
                        f"{weapon.range_modifiers[band]:+d}, shooting {shown('shooting')} (000 §6){salvo}")

            def written(modifier: int = modifier) -> str:
                # the band's and the salvo's part of the modifier stay numbers: the weapon's, not the pilot's
                return f"{pilot('shooting')}{signed(modifier - p.shooting)}" if variables else signed(modifier)

            lines.append(PaletteLine(f"BB{written()}{target}", label() + ("" if evasion is not None else "; add >evasion")))
            lines.append(PaletteLine(f"BBM{written()}{target}",
                                     label() + f", against a mook MS: {CRITICAL_AT} or more is a critical"))
        for weapon in self.weapons:
            lines.append(PaletteLine(weapon.damage.replace(" ", ""), f"【{weapon.japanese or weapon.name} damage】"
                                     + ("per missile" if weapon.mode == "missile" else "per hit")))
        lines.append(PaletteLine(f"GS{pilot('stamina')}>10", "【気絶判定】fainting check: success stays conscious, a natural 2 "
                                 "always faints (000 §8-1)"))
        lines.append(PaletteLine(f"GS{pilot('mental')}>10", "【回復判定】recovery check while fainted (000 §8-1)"))
        charts = {**CHARTS, **(PLAYER_CHARTS if self.side == "player" else {})}
        lines += [PaletteLine(command, label) for command, label in charts.items()]
        return with_variables(values, lines)

    def ccfolia(self, evasion: int | None = None, variables: bool = False) -> dict[str, Any]:
        """The CCFOLIA character piece: durability, propellant and ammunition bars, the palette
        (with ``variables``, the palette refers to the pilot's params by name: ``BB+{射撃力}+16``)."""
        status = [("耐久力", self.durability, self.durability), ("推進剤", self.propellant, self.propellant)]
        status += [(f"{w.japanese or w.name} 弾数", w.ammo, w.ammo) for w in self.weapons]
        params = [("回避値 evasion", self.evasion()), ("機動力 mobility", self.mobility), ("unit class", self.unit_class)]
        params += [(PILOT_LABELS[f], getattr(self.pilot, f)) for f in PILOT_FIELDS]
        memo = "\n".join([f"{self.name} {self.japanese} ({self.side}, {self.unit_class})",
                          *(f"hit location {'/'.join(map(str, h.rolls))}: {h.name}, armour {h.armour}, "
                            f"additional {h.additional_value}" for h in self.hit_locations),
                          "GUNDAM SENTINEL (000); values not in the source text are marked in the sheet's TOML"])
        named, lines = split_variables(self.palette(evasion, variables))
        return ccfolia.character(self.name, memo=memo, initiative=self.pilot.perception, status=status,
                                 params=ccfolia_params(named, params), commands=[str(line) for line in lines])

    def key_odds(self, evasions: tuple[int, ...] = (45, 52, 56)) -> dict[str, Any]:
        """Exact odds: each weapon and band against some evasions (000 §6), fainting and recovery (000 §8-1)."""
        hits = {f"{w.name} {band} vs {e}": hit_odds(m, e).hit for w, band, m in self.attack_modifiers() for e in evasions}
        return {"hit": hits, "faint": faint_chance(self.pilot.stamina), "recover": recovery_chance(self.pilot.mental)}

    def odds_rows(self) -> list[tuple[str, Fraction]]:
        """Key odds as (label, exact chance) rows: to hit per weapon and band (000 §6), fainting, recovery (000 §8-1)."""
        odds = self.key_odds()
        rows = [(f"hit: {label}", p) for label, p in odds["hit"].items()]
        return rows + [("pilot faints on a fainting check", odds["faint"]), ("pilot recovers on a recovery check", odds["recover"])]

    def damage_rows(self) -> list[tuple[str, Fraction]]:
        """Mean damage of one hit of each weapon, before armour (the weapon's damage roll; per missile for a salvo)."""
        return [(f"{w.name}, {'per missile' if w.mode == 'missile' else 'per hit'} ({w.damage})", distribution(w.damage).mean())
                for w in self.weapons]


def _salvo(weapon: BattleWeapon) -> int:
    return salvo_modifier(weapon.capacity) if weapon.mode == "missile" and weapon.capacity else 0


def _weapon_dict(weapon: BattleWeapon) -> dict[str, Any]:
    data = {"name": weapon.name, "japanese": weapon.japanese or None, "mode": weapon.mode,
            "range_modifiers": {b: NO_MODIFIER if weapon.range_modifiers.get(b) is None else weapon.range_modifiers[b]
                                for b in BANDS},
            "damage": weapon.damage, "ammo": weapon.ammo, "capacity": weapon.capacity,
            "salvo_at_least": weapon.salvo_at_least, "source": weapon.source}
    return {k: v for k, v in data.items() if v is not None}


def _weapon(entry: Mapping[str, Any], sample: bool) -> BattleWeapon:
    known_keys(entry, WEAPON_FIELDS, f"weapon {entry.get('name')!r}")
    require(entry, ("name", "mode", "range_modifiers", "damage", "ammo"), f"weapon {entry.get('name')!r}")
    if sample and not entry.get("source"):
        raise ValueError(f"weapon {entry.get('name')!r} has no source")
    known_keys(entry.get("range_modifiers", {}), BANDS, f"weapon {entry.get('name')!r} range modifiers")
    text(entry.get("name"), "weapon name")
    return weapon_from_table(entry)


def from_dict(data: Mapping[str, Any], *, sample: bool = False) -> GundamSheet:
    """A sheet from its TOML mapping; a sample sheet must give a source for every value."""
    check_sheet(data, ("id", "system", *VALUE_FIELDS, "weapons", "sources"), SHAPE, SYSTEM, "GUNDAM SENTINEL sheet")
    sources = check_sources(data, VALUE_FIELDS, f"sheet {data.get('id')!r}", sample=sample)
    missing = [f for f in ("id", "name", "side", "unit_class", "mobility", "base_evasion", "durability", "propellant",
                           "hit_locations", "weapons", "pilot") if f not in data]
    if missing:
        raise ValueError(f"GUNDAM SENTINEL sheet {sheet_named(data)} lacks {', '.join(missing)}")
    if data["unit_class"] not in UNIT_CLASSES:
        check_unit_class(data["unit_class"])
    pilot = dict(data["pilot"])
    known_keys(pilot, PILOT_FIELDS, "pilot")
    locations = []
    for entry in data["hit_locations"]:
        known_keys(entry, ("name", "rolls", "armour", "additional_value"), "hit location")
        require(entry, ("name", "rolls", "armour", "additional_value"), f"hit location {entry.get('name')!r}")
        locations.append(hit_location_from_table(entry))
    return GundamSheet(
        id=data["id"], name=data["name"], japanese=data.get("japanese", ""), side=data["side"],
        unit_class=data["unit_class"], mobility=data["mobility"], base_evasion=data["base_evasion"],
        durability=data["durability"], propellant=data["propellant"], hit_locations=tuple(locations),
        weapons=tuple(_weapon(w, sample) for w in data["weapons"]), pilot=Pilot(**pilot), sources=sources,
        mook=flag(data.get("mook", False), "mook"),
    )


def load_sheets() -> dict[str, GundamSheet]:
    """The sample sheets of ``data/gundam-sentinel/`` by id."""
    return load_directory(SYSTEM, from_dict)
