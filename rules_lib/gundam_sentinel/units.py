"""Units and pilots as data: mobility per terrain, unit class, weapons, pilot modifiers (000 §2, §4, §6).

Sample units live in ``units.toml`` beside this module. Only what the text states is filled in;
everything else is listed in a unit's ``missing`` (*not in the source text*) and asking for it
raises an error that says so.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from ..checks import halfwidth
from .d36 import whole_number

UnitClass = Literal["normal MS", "high-mobility MS", "MA or aircraft"]
UNIT_CLASSES: tuple[str, ...] = ("normal MS", "high-mobility MS", "MA or aircraft")
JAPANESE_CLASSES = {"normal MS": "通常のＭＳ", "high-mobility MS": "高機動型ＭＳ", "MA or aircraft": "ＭＡ及び航空機"}
#: the four slots of a mobility entry. Ruling: land/air/space/water — land first and space third
#: follow from the Zaku II example (000 §4, line 222); the text does not say which dash is air.
TERRAINS: tuple[str, ...] = ("land", "air", "space", "water")
#: the dashes a sheet may write for "cannot" (a mobility entry, a band a weapon does not reach, 000 §4, §6)
DASHES = frozenset({"-", "−", "―", "—", "－", "ー", "‐"})


def check_unit_class(unit_class: str) -> str:
    if unit_class not in UNIT_CLASSES:
        raise ValueError(f"unit class {unit_class!r}: allowed are {', '.join(map(repr, UNIT_CLASSES))}")
    return unit_class


@dataclass(frozen=True)
class Mobility:
    """**Mobility** (機動力): hexes per move action on land, in the air, in space, under water.

    ``None`` is a dash: the unit cannot move there at all.
    """

    land: int | None
    air: int | None
    space: int | None
    water: int | None

    @classmethod
    def parse(cls, text: str) -> Mobility:
        """Read ``"3/−/4/−"`` (any dash for "cannot move"), 000 §4."""
        if not isinstance(text, str):
            raise ValueError(f"mobility {text!r} is not text like '3/−/4/−'")
        parts = [p.strip() for p in text.replace("／", "/").split("/")]
        if len(parts) != 4:
            raise ValueError(
                f"mobility {text!r} does not parse: write four entries land/air/space/water separated by '/', "
                "each a whole number or a dash (e.g. '3/−/4/−')"
            )
        values: list[int | None] = []
        for terrain, part in zip(TERRAINS, parts, strict=True):
            if part in DASHES:
                values.append(None)
                continue
            part = halfwidth(part)
            if not part.isdigit():
                raise ValueError(
                    f"mobility {text!r} does not parse: the {terrain} entry {part!r} is neither a whole number nor a dash"
                )
            values.append(int(part))
        return cls(*values)

    def hexes(self, terrain: str) -> int | None:
        """Hexes one normal move covers in ``terrain``; ``None`` if the unit cannot move there."""
        if terrain not in TERRAINS:
            raise ValueError(f"terrain {terrain!r}: allowed are {', '.join(TERRAINS)}")
        return getattr(self, terrain)

    def can_move(self, terrain: str) -> bool:
        return self.hexes(terrain) is not None

    def __str__(self) -> str:
        return "/".join("−" if v is None else str(v) for v in (self.land, self.air, self.space, self.water))


#: a sheet's mobility entry the text does not give (``"?/?/4/?"``: only space is known)
UNKNOWN_MOBILITY = "?"


def parse_mobility(value: str) -> tuple[int | None | str, ...]:
    """A sheet's mobility: four entries land/air/space/water, each a number, ``None`` for a dash
    (cannot move, 000 §4), or ``"?"`` for an entry the text does not give. The format is checked
    by :meth:`Mobility.parse`."""
    if not isinstance(value, str):
        raise ValueError(f"mobility {value!r} is not text like '3/−/4/−'")
    parts = [p.strip() for p in value.replace("／", "/").split("/")]
    Mobility.parse("/".join("0" if p == UNKNOWN_MOBILITY else p for p in parts))  # the rule's own format check
    known = Mobility.parse("/".join("−" if p == UNKNOWN_MOBILITY else p for p in parts))
    return tuple(UNKNOWN_MOBILITY if p == UNKNOWN_MOBILITY else known.hexes(t) for p, t in zip(parts, TERRAINS, strict=True))


def mobility_hexes(value: str, terrain: str, name: str) -> int:
    """Hexes per move of the unit ``name`` in ``terrain`` from a sheet's mobility (000 §4); an error
    if the entry is a dash or not in the text."""
    if terrain not in TERRAINS:
        raise ValueError(f"terrain {terrain!r}: allowed are {', '.join(TERRAINS)}")
    hexes = parse_mobility(value)[TERRAINS.index(terrain)]
    if hexes == UNKNOWN_MOBILITY:
        raise ValueError(f"the {name}'s {terrain} mobility is not in the source text: fill it in")
    if hexes is None:
        raise ValueError(f"the {name} cannot move in {terrain} (a dash in {value})")
    return hexes  # type: ignore[return-value]


@dataclass(frozen=True)
class Weapon:
    """A weapon entry. Values the text does not give stay ``None``.

    ``range_modifiers`` maps a band (close, mid, long, extreme) to its to-hit modifier, ``None`` for
    "―" (000 §6); ``auto_attacks`` is the hit checks per auto burst (000 §7-3); ``salvo_at_least``
    a lower bound on the missiles or bombs of one launcher that a text example shows (it fires that
    many at once, 000 §7-1, §7-12); ``salvo_capacity`` the launcher's actual capacity, the cap
    :func:`.salvo.resolve_salvo` enforces (*not in the source text*: no sample unit has one);
    ``ammunition`` the rounds it holds.
    """

    name: str
    japanese: str = ""
    kind: str = ""
    auto_attacks: int | None = None
    salvo_at_least: int | None = None
    salvo_capacity: int | None = None
    ammunition: int | None = None
    damage: str | None = None
    range_modifiers: dict | None = None
    source: str = ""


@dataclass(frozen=True)
class HitLocation:
    """One row of the hit-location table of an MS sheet (000 §6): the 1D6 results that pick it,
    its **armour value** (装甲値) and **additional value** (追加値). No sheet is in the text."""

    name: str
    rolls: tuple[int, ...]
    armour: int
    additional_value: int


@dataclass(frozen=True)
class Unit:
    """A mobile suit, mobile armour or aircraft."""

    id: str
    name: str
    japanese: str = ""
    unit_class: str | None = None
    mobility: Mobility | None = None
    base_evasion: int | None = None
    durability: int | None = None
    propellant: int | None = None
    hit_locations: tuple[HitLocation, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    missing: tuple[str, ...] = ()
    note: str = ""
    sources: dict = field(default_factory=dict)

    def require(self, name: str):
        """The value of field ``name``, or an error saying it is not in the source text."""
        value = getattr(self, name.replace(" ", "_"))
        if value is None:
            raise ValueError(
                f"the {self.name}'s {name} is not in the source text (000 has no data sheet for it): pass a value"
            )
        return value

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        raise ValueError(f"the {self.name} has no weapon {name!r}: it has {[w.name for w in self.weapons]}")


@cache
def load_units() -> dict[str, Unit]:
    """The sample units of ``units.toml``, by id."""
    data = tomllib.loads((Path(__file__).parent / "units.toml").read_text(encoding="utf-8"))
    units = {}
    for entry in data["unit"]:
        weapons = tuple(
            Weapon(**{k: v for k, v in w.items() if k in Weapon.__dataclass_fields__}) for w in entry.get("weapon", [])
        )
        units[entry["id"]] = Unit(
            id=entry["id"],
            name=entry["name"],
            japanese=entry.get("japanese", ""),
            unit_class=check_unit_class(entry["unit_class"]) if "unit_class" in entry else None,
            mobility=Mobility.parse(entry["mobility"]) if "mobility" in entry else None,
            weapons=weapons,
            missing=tuple(entry.get("missing", ())),
            note=entry.get("note", ""),
            sources={k: v for k, v in entry.items() if k.endswith("_source")},
        )
    return units


def unit(unit_id: str) -> Unit:
    """A sample unit of ``units.toml`` by id: what the text states of it (000 §4, §7), the rest marked."""
    units = load_units()
    if unit_id not in units:
        raise ValueError(f"no sample unit {unit_id!r}: allowed are {', '.join(units)}")
    return units[unit_id]


@dataclass(frozen=True)
class Pilot:
    """A pilot's ability modifiers as the combat rules use them, and the NT value.

    perception (知覚力): initiative; reaction (反応力): action points; shooting (射撃力): to hit;
    piloting (操縦力): evasion and piloting checks; stamina (体力): fainting; mental (精神力): recovery;
    ``nt``: Newtype value (ニュータイプ値), 0 for a normal-type pilot.
    """

    perception: int = 0
    reaction: int = 0
    shooting: int = 0
    piloting: int = 0
    stamina: int = 0
    mental: int = 0
    nt: int = 0

    def __post_init__(self) -> None:
        for name in ("perception", "reaction", "shooting", "piloting", "stamina", "mental", "nt"):
            object.__setattr__(self, name, whole_number(getattr(self, name), f"{name} modifier"))
        if self.nt < 0:
            raise ValueError(f"NT value {self.nt} is negative: allowed are 0 or more")

    def __str__(self) -> str:
        """The modifiers in words: ``perception +1, reaction +2, ..., NT 0``."""
        modifiers = ", ".join(f"{name} {getattr(self, name):+d}"
                              for name in ("perception", "reaction", "shooting", "piloting", "stamina", "mental"))
        return f"{modifiers}, NT {self.nt}"


__all__ = [
    "Mobility", "Pilot", "load_units", "unit",
]
