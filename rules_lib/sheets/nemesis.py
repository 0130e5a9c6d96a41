"""Nemesis unit sheets: a silhouette's data sheet, parts and weapons as 002 §H1-§H2 list them.

The sample sheet (``data/nemesis/ss-01.toml``) is the text's own SS-01 ソルジャー1 (002 §H2,
lines 63-131), loaded from the verbatim data file :func:`~rules_lib.nemesis.load_silhouette`
reads, so the book's battle and the sheet are one data. A player's sheet writes the silhouette
in full (the same keys as ``rules_lib/nemesis/ss-01.toml``);
:func:`~rules_lib.nemesis.silhouette.silhouette_from_dict` validates it (parameters of §H1, the parts of its body, weapons with a proper
range or a range, dice expressions for attack and damage, abilities by name).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .. import checks
from ..nemesis.damage import armour_odds_against, damage_distribution, hit_location_distribution
from ..nemesis.melee import approach_chance
from ..nemesis.silhouette import (
    PARAMETER_LABELS,
    PART_LABELS,
    Silhouette,
    Weapon,
    load_silhouette,
    silhouette_from_dict,
)
from . import ccfolia
from .base import (
    armed,
    check_sheet,
    check_sources,
    cited_or_default,
    load_directory,
    require,
    sheet_named,
    text,
    whole,
)
from .palette import PaletteLine
from .variables import PaletteValues, Variable, ccfolia_params, split_variables, with_variables

SYSTEM = "nemesis"
SHAPE = {"id": str, "system": str, "silhouette": str, "sources": dict, "model": str, "name": str, "body": str,
         "abilities": [str], "abilities_text": str, "profile": dict, "parameters": dict, "part_durability": dict,
         "part_labels": dict,
         "weapons": [{"key": str, "name": str, "attack": str, "damage": str, "proper_range": (str, int), "range": int,
                      "attacks": int, "abilities": [str], "two_handed": bool, "english": str}]}
SECTIONS = ("model", "name", "body", "abilities", "abilities_text", "profile", "parameters", "part_durability",
            "part_labels", "weapons")


@dataclass(frozen=True)
class NemesisSheet:
    """A silhouette as a unit sheet: ``sources`` gives the provenance of each section."""

    id: str
    silhouette: Silhouette
    sources: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        checks.check_fields(self)
        text(self.id, "sheet id")
        armed(self.silhouette.weapons, self.silhouette.model, " (002 §H1)")
        # a sheet is the unit undamaged: a part at 0 is destroyed (002 §7-1, line 321)
        for part, durability in self.silhouette.part_durability.items():
            whole(durability, f"{self.silhouette.model}'s {part} durability (部位耐久値)", minimum=1)
        for weapon in self.silhouette.weapons:  # 回数, the weapon's number of attacks (002 §H1, line 57)
            if weapon.attacks is not None:
                whole(weapon.attacks, f"{weapon.name}'s attacks (回数)", minimum=1)

    @property
    def name(self) -> str:
        return f"{self.silhouette.model} {self.silhouette.name}"

    def to_dict(self) -> dict[str, Any]:
        s = self.silhouette
        data: dict[str, Any] = {
            "id": self.id, "system": SYSTEM, "model": s.model, "name": s.name, "body": s.body,
            "abilities": [a.text for a in s.abilities],
            "abilities_text": cited_or_default(s.abilities_text, "abilities_text", self.sources),
            "profile": cited_or_default(dict(s.profile), "profile", self.sources),
            "parameters": {k: v for k, v in s.parameters.items() if v is not None},
            "part_durability": dict(s.part_durability),
            "part_labels": cited_or_default(dict(s.part_labels), "part_labels", self.sources),
            "sources": dict(self.sources) or None,
            "weapons": [_weapon_dict(w) for w in s.weapons],
        }
        return {k: v for k, v in data.items() if v is not None}

    def palette(self, armour: int | None = None, own_commands: bool = False,
                variables: bool = False) -> tuple[PaletteLine | Variable, ...]:
        """The chat palette in BCDice's generic notation (002 §1-1, §3-1, §4-1, §5-1, §7-1).

        ``armour`` completes each attack line as ``attack>armour`` (penetrates when it exceeds the
        armour, 002 §3-1); ``own_commands`` writes ``AD[faces]`` instead of ``3D6``, which reads the
        pattern and the weapon's attacks. ``variables`` writes the mobility once, as ``//機動性=2``,
        and the approach as ``{機動性}D6`` (:mod:`rules_lib.sheets.variables`); the weapons' rolls are the
        weapons' own and stay as written.
        """
        s = self.silhouette
        values = PaletteValues(variables)
        lines = [PaletteLine("3D6", "【行動判定力】action dice (002 §1-1, line 151): triple, straight and each weapon's faces; "
                             "AD in rules-lib reads them")]
        for w in s.weapons:
            reach = f"適正射程 {w.proper_range}" if w.proper_range else f"射程 {w.range}"
            if own_commands:
                faces = str(w.proper_range) if w.proper_range else str(w.range)
                rapid = "R" if w.has("rapid_fire") or w.has("quick_fire") else ""
                lines.append(PaletteLine(f"AD[{faces}]{rapid}", f"【{w.label}】action dice: attacks on {reach}"))
            attack = _generic(w.attack) + (f">{armour}" if armour is not None else "")
            lines.append(PaletteLine(attack, f"【{w.label} 攻撃力】{reach}: exceeds the armour to penetrate (002 §3-1)"))
            lines.append(PaletteLine(_generic(w.damage), f"【{w.label} ダメージ】minus attenuation, at least 1; "
                                     "melee ignores attenuation (002 §4-1)"))
        mobility = s.parameters.get("mobility")
        if mobility:
            def dice() -> str:
                return values.value(PARAMETER_LABELS["mobility"], mobility)

            lines.append(PaletteLine(f"{dice()}D6", f"【接近判定】approach: mobility {dice()} dice against the shooter's "
                                     "(002 §5-1); OPa>b in rules-lib compares the pools"))
        lines.append(PaletteLine("1D20", "【部位】hit location (002 §7-1) / initiative tie-break (002 §1-1)"))
        return with_variables(values, lines)

    def ccfolia(self, armour: int | None = None, own_commands: bool = False, variables: bool = False) -> dict[str, Any]:
        """The CCFOLIA character piece: structure and each part's durability as bars, parameters as params
        (with ``variables``, the approach line refers to the mobility param: ``{機動性}D6``)."""
        s = self.silhouette
        structure = s.parameters.get("structure") or 0
        status = ([("構造値", structure, structure)] if structure else [])
        status += [(s.part_labels.get(p, PART_LABELS.get(p, p)), d, d) for p, d in s.part_durability.items()]
        status += [(f"{w.name} 回数", w.attacks, w.attacks) for w in s.weapons if w.attacks is not None]
        params = [(PARAMETER_LABELS[k], v) for k, v in s.parameters.items() if v is not None]
        memo = "\n".join(s.sheet_lines() + ["Nemesis (002); " + "; ".join(sorted(set(self.sources.values())))])
        named, lines = split_variables(self.palette(armour, own_commands, variables))
        return ccfolia.character(self.name, memo=memo, initiative=s.parameters.get("sensors") or 0,
                                 status=status, params=ccfolia_params(named, params),
                                 commands=[str(line) for line in lines])

    def key_odds(self, armours: tuple[int, ...] = (4, 6, 8), attenuation: int = 0) -> dict[str, Any]:
        """Exact odds: each weapon's armour check and damage against targets of these armour values and
        ``attenuation`` (002 §3-1, §4-1), the approach (002 §5-1) and the hit location (002 §7-1)."""
        s = self.silhouette
        return {
            "armour": {f"{w.label} vs armour {a}": odds
                       for w in s.weapons
                       for a, odds in armour_odds_against(w.attack, armours, w.damage, attenuation,
                                                          melee=w.is_melee).items()},
            "approach vs 3 dice": approach_chance(s.parameters.get("mobility") or 0, 3),
            "hit location": hit_location_distribution(s.body),
        }

    def odds_rows(self) -> list[tuple[str, Fraction]]:
        """Key odds as (label, exact chance) rows: penetration per weapon (002 §3-1), approach against 3 dice (002 §5-1)."""
        odds = self.key_odds()
        rows = [(f"penetrates: {label}", o.penetration) for label, o in odds["armour"].items()]
        return rows + [("approach succeeds against a shooter's 3 dice", odds["approach vs 3 dice"])]

    def damage_rows(self, attenuation: int = 0) -> list[tuple[str, Fraction]]:
        """Mean damage of each weapon against a target's ``attenuation``, at least 1 (002 §4-1; melee ignores it)."""
        return [(f"{w.label} ({w.damage}) vs attenuation {attenuation}",
                 damage_distribution(w.damage, attenuation, melee=w.is_melee).mean()) for w in self.silhouette.weapons]


def _generic(expression: str) -> str:
    """A sheet's dice as BCDice writes them: the text's full-width plus becomes ``+``."""
    return expression.replace("＋", "+").replace("－", "-").replace(" ", "")


def _weapon_dict(w: Weapon) -> dict[str, Any]:
    data: dict[str, Any] = {"key": w.key, "name": w.name, "attack": w.attack, "damage": w.damage,
                            "proper_range": str(w.proper_range) if w.proper_range else None, "range": w.range,
                            "attacks": w.attacks, "abilities": [a.text for a in w.abilities], "two_handed": w.two_handed,
                            "english": w.english or None}
    return {k: v for k, v in data.items() if v is not None}


def from_dict(data: Mapping[str, Any], *, sample: bool = False) -> NemesisSheet:
    """A sheet from its TOML mapping: in full, or ``silhouette = "SS-01"`` naming a shipped data sheet."""
    check_sheet(data, ("id", "system", "silhouette", "sources", *SECTIONS), SHAPE, SYSTEM, "Nemesis sheet")
    for weapon in data.get("weapons", []):
        require(weapon, ("name", "attack", "damage"), f"Nemesis weapon {weapon.get('name')!r}")
    if "silhouette" in data:
        silhouette = load_silhouette(data["silhouette"])
        sources = check_sources(data, ("silhouette",), f"Nemesis sheet {data.get('id')!r}", sample=sample)
        # one source for the whole shipped sheet, spread over its sections so an export round-trips
        full = NemesisSheet(data.get("id"), silhouette).to_dict()
        sources = {k: sources["silhouette"] for k in SECTIONS if k in full} if sources else {}
        return NemesisSheet(data.get("id"), silhouette, sources)
    missing = [k for k in ("id", "model", "name", "parameters", "part_durability", "weapons") if k not in data]
    if missing:
        raise ValueError(f"Nemesis sheet {sheet_named(data)} lacks {', '.join(missing)}")
    sources = check_sources(data, SECTIONS, f"Nemesis sheet {data.get('id')!r}", sample=sample)
    silhouette = silhouette_from_dict({k: data[k] for k in SECTIONS if k in data})
    return NemesisSheet(data["id"], silhouette, sources)


def load_sheets() -> dict[str, NemesisSheet]:
    """The sample sheets of ``data/nemesis/`` by id."""
    return load_directory(SYSTEM, from_dict)
