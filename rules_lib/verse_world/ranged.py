"""Ranged weapons: rate of fire, reloading and whether the physical damage bonus applies.

004 §3-4-2-3 (lines 71–80); the classes and their numbers are in ``ranged_weapons.toml``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .. import checks
from ..worked import Worked


@dataclass(frozen=True)
class RangedWeapon:
    key: str
    english: str
    japanese: str
    lines: str
    cycle: str
    physical_bonus: str  # "yes", "no" or "unknown" (not in the source text)
    reload_turns: int | None = None
    reload_dice: str | None = None
    prepare_turns: int | None = None
    shots_per_combat: int | None = None


@cache
def ranged_weapons() -> dict[str, RangedWeapon]:
    data = tomllib.loads((Path(__file__).parent / "ranged_weapons.toml").read_text(encoding="utf-8"))
    return {
        key: RangedWeapon(
            key, e["english"], e["japanese"], e["lines"], e["cycle"], e["physical_bonus"],
            e.get("reload_turns"), e.get("reload_dice"), e.get("prepare_turns"), e.get("shots_per_combat"),
        )
        for key, e in data.items()
    }


def ranged_weapon(name: str) -> RangedWeapon:
    """A ranged weapon class of 004 §3-4-2-3 by key (``"magic gun"``, ``"crossbow"``, ...)."""
    key = name.strip().lower().replace(" ", "-").replace("_", "-") if isinstance(name, str) else name
    weapons = ranged_weapons()
    if key not in weapons:
        raise ValueError(f"ranged weapon {name!r} is unknown: allowed are {', '.join(weapons)}")
    return weapons[key]


def physical_bonus_applies(weapon: str, *, assumed: bool | None = None) -> bool:
    """Whether the physical damage bonus (物理ダメージボーナス) is added to this weapon's damage.

    Magic guns: no (004 §3-4-2-3, line 72); crossbows and bows: yes (004 §3-4-2-3, line 74, line 77). For slings and thrown weapons the text
    does not say (*not in the source text*): pass ``assumed=True`` or ``False``.
    """
    w = ranged_weapon(weapon)
    if w.physical_bonus == "unknown":
        if assumed is None:
            raise ValueError(
                f"whether the physical damage bonus applies to a {w.english} is not in the source text: "
                "pass assumed=True or assumed=False"
            )
        return assumed
    return w.physical_bonus == "yes"


@dataclass(frozen=True)
class FireSchedule(Worked):
    """What a weapon does in each combat turn: ``"shoot"``, ``"prepare"``, ``"reload"`` or ``"idle"``."""

    weapon: str
    actions: tuple[str, ...]

    @property
    def shot_turns(self) -> tuple[int, ...]:
        return tuple(n for n, a in enumerate(self.actions, start=1) if a == "shoot")

    def turns_doing(self, action: str) -> tuple[int, ...]:
        return tuple(n for n, a in enumerate(self.actions, start=1) if a == action)


#: the most combat turns a fire schedule lists: an engine limit, *not in the source text*
MAX_SCHEDULE_TURNS = 1000


def fire_schedule(
    weapon: str,
    turns: int,
    *,
    magazine: int | None = None,
    spare_magazines: int = 0,
    reload_rolls: Sequence[int] = (),
    carried: int | None = None,
) -> FireSchedule:
    """A weapon firing as often as it can over ``turns`` combat turns (004 §3-4-2-3).

    - magic gun: every turn while loaded; each reload from a spare magazine takes 1 turn (004 §3-4-2-3, line 71).
      ``magazine`` (shots per magazine) comes from the weapon table, not in this text: required.
    - muzzle-loader: one shot per combat (004 §3-4-2-3, line 71).
    - crossbow: after a shot, reloading takes 1D6 turns (004 §3-4-2-3, line 74); ``reload_rolls`` are those dice, in order.
      Reading: the crossbow starts loaded and the reload turns follow the shot.
    - bow, sling, staff sling: a turn of preparation, then the shot (004 §3-4-2-3, line 77, line 80).
    - thrown weapons: every turn while ready ones last (``carried``, line 80, line 112).
    """
    w = ranged_weapon(weapon)
    checks.whole(turns, "turns", minimum=0, maximum=MAX_SCHEDULE_TURNS)
    actions: list[str] = []
    steps: list[str] = []
    if w.cycle == "ammunition":
        if magazine is None:
            raise ValueError("a magic gun's shots per magazine come from the weapon table: pass magazine=")
        checks.whole(magazine, "magazine", minimum=1)
        checks.whole(spare_magazines, "spare magazines", minimum=0)
        loaded, spares = magazine, spare_magazines
        for _ in range(turns):
            if loaded:
                actions.append("shoot")
                loaded -= 1
            elif spares:
                actions.append("reload")
                spares -= 1
                loaded = magazine
            else:
                actions.append("idle")
        steps.append(f"{magazine} shot(s) a magazine, {spare_magazines} spare; a reload takes {w.reload_turns} turn")
    elif w.cycle == "once-per-combat":
        actions = ["shoot"] + ["idle"] * (turns - 1) if turns else []
        steps.append("a single-shot muzzle-loader fires once per combat")
    elif w.cycle == "reload-roll":
        rolls = list(reload_rolls)
        for r in rolls:
            checks.whole(r, "crossbow reload roll (1D6)", minimum=1, maximum=6)
        loaded = True
        reloading = 0
        while len(actions) < turns:
            if loaded:
                actions.append("shoot")
                loaded = False
                if len(actions) < turns:
                    if not rolls:
                        raise ValueError("the crossbow needs a 1D6 reload roll after each shot: pass reload_rolls=")
                    reloading = rolls.pop(0)
                    steps.append(f"shot on turn {len(actions)}; reload 1D6 = {reloading} turn(s)")
            else:
                actions.append("reload")
                reloading -= 1
                if reloading == 0:
                    loaded = True
    elif w.cycle == "prepare-then-shoot":
        cycle = ["prepare"] * w.prepare_turns + ["shoot"]
        actions = [cycle[n % len(cycle)] for n in range(turns)]
        steps.append(f"{w.prepare_turns} turn of preparation, then a shot: one shot every {len(cycle)} turns")
    elif w.cycle == "every-turn-while-carried":
        if carried is None:
            raise ValueError("thrown weapons last as long as the ready ones: pass carried=")
        checks.whole(carried, "thrown weapons carried ready", minimum=0)
        actions = ["shoot" if n < carried else "idle" for n in range(turns)]
        steps.append(f"one throw a turn while the {carried} ready weapon(s) last")
    return FireSchedule(w.key, tuple(actions), steps=tuple(steps))


def turns_per_shot(weapon: str) -> int | None:
    """Turns per shot of a fixed-cycle weapon (004 §3-4-2-3): bow, sling 2; magic gun, thrown 1; else ``None``."""
    w = ranged_weapon(weapon)
    if w.cycle == "prepare-then-shoot":
        return w.prepare_turns + 1
    if w.cycle in ("ammunition", "every-turn-while-carried"):
        return 1
    return None


__all__ = [
    "MAX_SCHEDULE_TURNS", "FireSchedule", "RangedWeapon", "fire_schedule", "physical_bonus_applies", "ranged_weapon",
    "turns_per_shot",
]
