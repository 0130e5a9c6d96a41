"""Silhouettes (the setting's mecha) and their weapons, as data (002 §H1, §H2, §H3).

Unit sheets are TOML files beside this module (``ss-01.toml``); strings keep the text's
characters. A parameter of the §H1 list that a sheet does not give is ``None``: it is not in
the source text, and nothing here invents it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from .. import checks
from ..checks import halfwidth
from ..dice import parse
from ..worked import Worked

DATA = Path(__file__).parent

#: English key -> the text's Japanese label, §H1 order, then the two the sheet adds (§H2).
PARAMETER_LABELS: dict[str, str] = {
    "armour": "装甲値",
    "attenuation": "減衰値",
    "structure": "構造値",
    "active": "能動値",
    "mobility": "機動性",
    "agility": "運動性",
    "control": "制御値",
    "power": "動力値",
    "sensors": "索敵値",
    "load": "積載値",
    "weight": "重量値",
    "stability": "安定性",
    "stealth": "隠密性",
    "output": "出力度",
}
#: the order the SS-01 sheet lists its game data in (002 §H2, lines 95-113)
SHEET_PARAMETERS = (
    "armour", "attenuation", "structure", "active", "agility", "mobility",
    "stealth", "output", "stability", "sensors",
)
PARTS = ("head", "torso", "right_arm", "left_arm", "right_leg", "left_leg")
PART_LABELS: dict[str, str] = {
    "head": "頭部", "torso": "胴体", "right_arm": "右腕",
    "left_arm": "左腕", "right_leg": "右脚", "left_leg": "左脚",
}
#: body kinds: vehicles and aircraft have only a torso (002 §7-1, line 337)
BODY_PARTS: dict[str, tuple[str, ...]] = {
    "humanoid": PARTS,
    "vehicle": ("torso",),
    "aircraft": ("torso",),
}


@dataclass(frozen=True)
class AbilityKind:
    key: str
    label: str
    has_value: bool
    applies_to: str  # "weapon" or "unit"
    meaning: str


#: every ability the text names (§H2 sheet, §H5, §H6), by English key
ABILITIES: dict[str, AbilityKind] = {a.key: a for a in (
    AbilityKind("interception", "迎撃", True, "weapon", "rolls this many d6 to intercept a guided weapon (§H5, §H6)"),
    AbilityKind("no_swap", "持替不要", False, "weapon", "needs no weapon swap (§H2)"),
    AbilityKind("quick_fire", "速射", False, "weapon", "attacks once per matching action die (§1-1)"),
    AbilityKind("rapid_fire", "連射", False, "weapon", "attacks once per matching action die; several rounds hit (§1-1, §H5)"),
    AbilityKind("fall", "転倒", True, "weapon", "the attacker rolls this many d6 in a fall check (§H5)"),
    AbilityKind("guidance", "誘導", True, "weapon", "a guided weapon: rolls this many d6 against interception (§H6)"),
    AbilityKind("no_counter_fire", "反撃不可", False, "weapon", "cannot be used for counter-fire (§H6)"),
    AbilityKind("flight", "飛行", False, "unit", "may fly on a triple (§H5)"),
    AbilityKind("stealth", "ステルス", False, "unit", "may try stealth on a triple (§H5)"),
    AbilityKind("melee", "格闘", False, "unit", "a straight also opens the melee phase (§1-1, §H5)"),
)}
_BY_LABEL = {a.label: a for a in ABILITIES.values()}


@dataclass(frozen=True)
class Ability:
    """One ability as a sheet writes it: ``迎撃1`` is interception with value 1."""

    kind: AbilityKind
    value: int | None = None

    @property
    def key(self) -> str:
        return self.kind.key

    @property
    def text(self) -> str:
        return self.kind.label + ("" if self.value is None else str(self.value))


def parse_ability(text: str, applies_to: str | None = None) -> Ability:
    """Read an ability as written (``迎撃1``, ``持替不要``, ``格闘``) or by English key (``interception 1``) (002 §H2, §H5)."""
    raw = halfwidth(str(text)).strip()
    match = re.fullmatch(r"(.*?)\s*(\d+)?", raw, re.DOTALL)  # any text matches: an odd one is refused by name below
    name, number = match.group(1), match.group(2)
    kind = _BY_LABEL.get(name) or ABILITIES.get(name.lower().replace(" ", "_"))
    if kind is None:
        known = ", ".join(f"{a.label} ({a.key})" for a in ABILITIES.values())
        raise ValueError(f"unknown ability {text!r}: known are {known}")
    if applies_to is not None and kind.applies_to != applies_to:
        raise ValueError(f"ability {text!r} is a {kind.applies_to} ability, not a {applies_to} ability")
    if kind.has_value and number is None:
        raise ValueError(f"ability {text!r} needs a value, e.g. {kind.label}1")
    if not kind.has_value and number is not None:
        raise ValueError(f"ability {text!r} takes no value: write {kind.label}")
    return Ability(kind, int(number) if number is not None else None)


# -- proper range --------------------------------------------------------------------


@dataclass(frozen=True)
class ProperRange:
    """A weapon's range written as die faces: ``34(5)`` is faces 3 and 4, and 5 in brackets.

    ``faces`` are the proper (適正) faces; ``extended`` the parenthesised ones. What the
    parenthesised face does is a ruling (see :class:`ExtendedFace` in ``shooting``).
    """

    text: str
    faces: tuple[int, ...]
    extended: tuple[int, ...] = ()

    def __str__(self) -> str:
        return self.text


_RANGE = re.compile(r"([^()]*)(?:\(([^()]*)\))?")


def parse_proper_range(text: str | int) -> ProperRange:
    """Parse a proper range (適正射程) such as ``34(5)``, ``3`` or ``1``: each digit is a d6 face.

    002 §H1 (line 55) says the action dice tell whether a weapon can be used; §1-1 (line 167)
    reads range 1 as a die showing 1. Full-width characters read as ASCII.
    """
    original = text
    raw = halfwidth(str(text)).replace(" ", "")
    match = _RANGE.fullmatch(raw)
    if not raw or match is None or not match.group(1):
        raise ValueError(
            f"proper range {original!r} is not written as die faces 1 to 6, "
            "optionally with faces in brackets, like '34(5)'"
        )
    groups = [match.group(1), match.group(2) or ""]
    if match.group(2) is not None and not match.group(2):
        raise ValueError(f"proper range {original!r} has empty brackets: write faces 1 to 6 inside, like '34(5)'")
    for char in "".join(groups):
        if not char.isdigit():
            raise ValueError(
                f"proper range {original!r}: {char!r} is not a die face; "
                "allowed are the digits 1 to 6, like '34(5)'"
            )
    faces: list[list[int]] = [[], []]
    for index, group in enumerate(groups):
        for char in group:
            face = int(char)
            if not 1 <= face <= 6:
                raise ValueError(f"proper range {original!r}: face {face} is not on a d6; allowed are 1 to 6")
            if face in faces[0] or face in faces[1]:
                raise ValueError(f"proper range {original!r}: face {face} is written twice")
            faces[index].append(face)
    return ProperRange(raw, tuple(faces[0]), tuple(faces[1]))


# -- weapons and silhouettes ---------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    """A weapon (武装): attack (攻撃力), damage (ダメージ), range and abilities (002 §H1, lines 49-59).

    Ranged weapons give a proper range (適正射程); melee weapons give only a range (射程),
    normally 1 (§1-1, line 167). ``attacks`` is 回数 (see the ruling on what 30 means).
    """

    key: str
    name: str
    attack: str
    damage: str
    proper_range: ProperRange | None = None
    range: int | None = None
    attacks: int | None = None
    abilities: tuple[Ability, ...] = ()
    two_handed: bool | None = None
    #: the book's English name (not in the source text), shown beside the text's Japanese ``name``
    english: str = ""

    def __post_init__(self) -> None:
        if (self.proper_range is None) == (self.range is None):
            raise ValueError(f"weapon {self.name!r} needs exactly one of a proper range (ranged) or a range (melee)")
        if self.range is not None and not 1 <= self.range <= 6:
            raise ValueError(f"weapon {self.name!r}: range {self.range!r} is not a d6 face 1 to 6")
        for expression in (self.attack, self.damage):
            parse(expression)  # a clear DiceSyntaxError for a bad expression
        if not isinstance(self.english, str):
            raise ValueError(f"weapon {self.name!r}: its English name must be text, not {type(self.english).__name__}")

    @property
    def is_melee(self) -> bool:
        return self.range is not None

    @property
    def label(self) -> str:
        """The name as the book shows it: the text's Japanese, then the book's English in brackets."""
        return f"{self.name} ({self.english})" if self.english else self.name

    @property
    def range_label(self) -> str:
        """適正射程 (proper range) for a ranged weapon, 射程 (range) for a melee one (§1-1, line 167)."""
        return "射程" if self.is_melee else "適正射程"

    @property
    def faces(self) -> tuple[int, ...]:
        """The die faces the weapon is used on (proper faces; a melee weapon its range)."""
        return (self.range,) if self.range is not None else self.proper_range.faces

    def ability(self, key: str) -> Ability | None:
        return next((a for a in self.abilities if a.key == key), None)

    def has(self, key: str) -> bool:
        if key not in ABILITIES:
            raise ValueError(f"unknown ability {key!r}: known are {', '.join(ABILITIES)}")
        return self.ability(key) is not None

    def as_sheet(self) -> dict[str, Any]:
        sheet: dict[str, Any] = {"name": self.name, "attack": self.attack, "damage": self.damage}
        if self.proper_range is not None:
            sheet["proper_range"] = self.proper_range.text
        else:
            sheet["range"] = self.range
        if self.attacks is not None:
            sheet["attacks"] = self.attacks
        sheet["abilities"] = [a.text for a in self.abilities]
        return sheet


@dataclass(frozen=True)
class Silhouette:
    """A silhouette's data sheet (002 §H1, §H2). ``None`` = not given by the text."""

    model: str
    name: str
    parameters: Mapping[str, int | None]
    part_durability: Mapping[str, int]
    weapons: tuple[Weapon, ...] = ()
    abilities: tuple[Ability, ...] = ()
    abilities_text: str = ""
    body: str = "humanoid"
    profile: Mapping[str, str] = field(default_factory=dict)
    part_labels: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        checks.check_fields(self)
        if self.body not in BODY_PARTS:
            raise ValueError(f"body {self.body!r} is not one of {', '.join(BODY_PARTS)}")
        for key, value in self.parameters.items():
            if key not in PARAMETER_LABELS:
                raise ValueError(f"unknown parameter {key!r}: known are {', '.join(PARAMETER_LABELS)}")
            if value is not None:
                checks.whole(value, f"parameter {key}", minimum=0)
        expected = set(BODY_PARTS[self.body])
        if set(self.part_durability) != expected:
            raise ValueError(
                f"a {self.body} has the parts {', '.join(BODY_PARTS[self.body])}, not {', '.join(self.part_durability)}"
            )

    def __getattr__(self, key: str) -> int | None:
        # sheet values read as attributes: unit.armour, unit.sensors; None = not in the text
        if key in PARAMETER_LABELS:
            return self.parameters.get(key)
        raise AttributeError(key)

    def weapon(self, key: str) -> Weapon:
        for weapon in self.weapons:
            if key in (weapon.key, weapon.name):
                return weapon
        raise ValueError(f"{self.model} has no weapon {key!r}: it has {', '.join(w.key for w in self.weapons)}")

    def has(self, key: str) -> bool:
        if key not in ABILITIES:
            raise ValueError(f"unknown ability {key!r}: known are {', '.join(ABILITIES)}")
        return any(a.key == key for a in self.abilities)

    def derived_stability(self) -> int | None:
        """安定性 = 制御値 + 重量値 (§H1, line 35); ``None`` when either is not given."""
        control, weight = self.parameters.get("control"), self.parameters.get("weight")
        return None if control is None or weight is None else control + weight

    def evasion_value(self, evasion_modifier: int | None = None) -> int | None:
        """回避値 = 運動性 − 回避補正 (§H1, line 33). 回避補正 is *not in the source text*: pass it."""
        agility = self.parameters.get("agility")
        if evasion_modifier is None or agility is None:
            return None
        return agility - evasion_modifier

    def as_sheet(self) -> dict[str, Any]:
        """The sheet as the text gives it (labels verbatim), for display and the catalogue."""
        return {
            "model": self.model,
            "name": self.name,
            "abilities": [a.text for a in self.abilities],
            "abilities_text": self.abilities_text,
            "profile": dict(self.profile),
            "parameters": {k: v for k, v in self.parameters.items() if v is not None},
            "parameter_labels": {k: PARAMETER_LABELS[k] for k, v in self.parameters.items() if v is not None},
            "part_durability": dict(self.part_durability),
            "part_labels": dict(self.part_labels),
            "weapons": {w.key: w.as_sheet() for w in self.weapons},
        }

    def sheet_lines(self) -> list[str]:
        """The sheet as lines of text, in the order of 002 §H2."""
        lines = [f"◆{self.model} {self.name}"]
        lines += [f"{PARAMETER_LABELS[k]}：{v}" for k, v in self.parameters.items() if v is not None]
        lines.append("部位耐久値")
        lines.append("　".join(f"{self.part_labels.get(p, PART_LABELS[p])}：{d}" for p, d in self.part_durability.items()))
        lines.append("機体アビリティ")
        lines.append(self.abilities_text or "、".join(a.text for a in self.abilities))
        lines.append("武装")
        for w in self.weapons:
            reach = f"適正射程：{w.proper_range}" if w.proper_range else f"射程：{w.range}"
            count = f"　回数：{w.attacks}" if w.attacks is not None else ""
            lines.append(f"{w.label}　攻撃力：{w.attack}　ダメージ：{w.damage}　{reach}{count}"
                         f"　武装アビリティ：{'、'.join(a.text for a in w.abilities)}")
        return lines


def _require(data: Mapping[str, Any], keys: tuple[str, ...], what: str) -> None:
    missing = [key for key in keys if key not in data]
    if missing:
        raise ValueError(f"{what}: missing {', '.join(missing)} (needed are {', '.join(keys)})")


@checks.checked_arguments
def weapon_from_dict(data: Mapping[str, Any]) -> Weapon:
    """A weapon from a sheet's ``[[weapons]]`` table (weapon parameters of 002 §H1)."""
    unknown = set(data) - {"key", "name", "attack", "damage", "proper_range", "range", "attacks", "abilities", "two_handed",
                          "english"}
    if unknown:
        raise ValueError(f"weapon {data.get('name')!r}: unknown fields {sorted(unknown)}")
    _require(data, ("name", "attack", "damage"), f"weapon {data.get('name')!r:.60}")
    proper = data.get("proper_range")
    return Weapon(
        key=data.get("key", data["name"]),
        name=data["name"],
        attack=data["attack"],
        damage=data["damage"],
        proper_range=parse_proper_range(proper) if proper is not None else None,
        range=data.get("range"),
        attacks=data.get("attacks"),
        abilities=tuple(parse_ability(a, "weapon") for a in data.get("abilities", [])),
        two_handed=data.get("two_handed"),
        english=data.get("english", ""),
    )


@checks.checked_arguments
def silhouette_from_dict(data: Mapping[str, Any]) -> Silhouette:
    """A silhouette from the mapping a unit TOML file holds (parameters of 002 §H1)."""
    _require(data, ("model", "name", "parameters", "part_durability"), f"unit sheet {data.get('model')!r:.60}")
    return Silhouette(
        model=data["model"],
        name=data["name"],
        parameters=dict(data["parameters"]),
        part_durability=dict(data["part_durability"]),
        weapons=tuple(weapon_from_dict(w) for w in data.get("weapons", [])),
        abilities=tuple(parse_ability(a, "unit") for a in data.get("abilities", [])),
        abilities_text=data.get("abilities_text", ""),
        body=data.get("body", "humanoid"),
        profile=dict(data.get("profile", {})),
        part_labels=dict(data.get("part_labels", {})),
    )


@checks.checked_arguments
def load_silhouette(model: str = "SS-01") -> Silhouette:
    """Load a unit sheet shipped beside this module, by model (``SS-01``: the file ``ss-01.toml``; 002 §H2)."""
    # looked up among the files there are: a model is never made into a path (no "../", no long names)
    sheets = {p.stem.upper(): p for p in DATA.glob("*.toml")}
    path = sheets.get(model.upper()) if isinstance(model, str) else None
    if path is None:
        raise ValueError(f"no unit sheet for model {checks.shown(model)}: known are {', '.join(sorted(sheets))}")
    return silhouette_from_dict(tomllib.loads(path.read_text(encoding="utf-8")))


# -- grip before combat (§H3) --------------------------------------------------------


class Grip(StrEnum):
    ONE_HANDED = "one-handed"
    TWO_HANDED = "two-handed"

    @property
    def label(self) -> str:
        return {"one-handed": "片手持ち", "two-handed": "両手持ち"}[self.value]


@dataclass(frozen=True)
class GripDefaults(Worked):
    """``grip`` is ``None`` when the text gives no default: the player sets it before combat."""

    grip: Grip | None
    equipped: str  # "ranged" or "melee"

    @property
    def equipped_label(self) -> str:
        return {"ranged": "射撃武器", "melee": "格闘武器"}[self.equipped]


@checks.checked_flags
def grip_defaults(ranged_weapons: int, both_arms_armed: bool = False, melee_weapons: int = 0,
                  declared: str | None = None) -> GripDefaults:
    """Default grip and weapon in hand before combat (002 §H3, lines 133-139).

    One ranged weapon only: two-handed. Weapons on both arms: each one-handed. Ranged and
    melee weapons and no declaration: the ranged weapon is in hand.
    """
    for name, count in (("ranged_weapons", ranged_weapons), ("melee_weapons", melee_weapons)):
        checks.whole(count, name, minimum=0)
    if declared not in (None, "ranged", "melee"):
        raise ValueError(f"declared weapon {declared!r} is not 'ranged' or 'melee'")
    steps = []
    if both_arms_armed:
        grip = Grip.ONE_HANDED
        steps.append("weapons on both arms: each is held one-handed (片手持ち)")
    elif ranged_weapons == 1:
        grip = Grip.TWO_HANDED
        steps.append("only one ranged weapon: held two-handed (両手持ち)")
    else:
        grip = None
        steps.append("more than one ranged weapon, or none: the text gives no default; set the grip before combat")
    if declared:
        equipped = declared
        steps.append(f"declared: the {declared} weapon is in hand")
    elif ranged_weapons:
        equipped = "ranged"
        steps.append("no declaration and a ranged weapon: the ranged weapon (射撃武器) is in hand")
    else:
        equipped = "melee"
        steps.append("no ranged weapon: the melee weapon is in hand")
    return GripDefaults(grip, equipped, steps=tuple(steps))


__all__ = [
    "ABILITIES", "BODY_PARTS", "PARAMETER_LABELS", "PARTS", "Grip", "ProperRange", "Silhouette", "Weapon",
    "grip_defaults", "load_silhouette", "parse_ability", "parse_proper_range", "silhouette_from_dict",
    "weapon_from_dict",
]
