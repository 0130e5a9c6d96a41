"""Verse World calculators (004): attack against evasion, charge planner, movement planner, MP endurance.

Each widget gathers inputs, makes one library call (``rules_lib.verse_world``) and shows the result.
"""

from __future__ import annotations

import html
from functools import lru_cache

from ..dice import percent
from ..geometry.square import Facing, Pose, Square
from ..verse_world import (
    MODE_KEYS,
    CriticalRule,
    Endurance,
    MovePlan,
    attack_odds,
    endurance,
    locomotion_mode,
    plan_charge,
    plan_move,
    reach_svg,
)
from .base import FormCalculator
from .layout import checkbox, dropdown, text_input
from .layout import int_input as _int
from .render import WorkedExample, distribution_table


def _mode_options() -> list[tuple[str, str]]:
    return [(f"{locomotion_mode(k).english} ({locomotion_mode(k).japanese})", k) for k in MODE_KEYS]


def _attack_figures(to_hit: int, attack_modifier: int, evasion: int, evasion_modifier: int, waive: bool, tie: str,
                    critical_at: int, over_critical_at: int, weapon: str, bonus: int, bonus_applies: bool,
                    protection: int, extra_rolls: int) -> str:
    odds = attack_odds(to_hit + attack_modifier, None if waive else evasion + evasion_modifier,
                       criticals=CriticalRule.natural_total(critical_at or None, over_critical_at or None), tie=tie,
                       weapon_damage=weapon.strip() or None, physical_bonus=bonus, bonus_applies=bonus_applies,
                       protection=protection,
                       extra_damage_rolls=extra_rolls)
    mean = odds.damage.mean()
    return (f"to-hit {to_hit} against evasion {evasion}, a long sword ({weapon}, physical damage bonus {bonus}) "
            f"against protection {protection}: hits {odds.hit}, mean HP lost {mean} (about {float(mean):.2f})")


def _charge_figures(points: int, scale: str, mode: str, squares: int) -> str:
    plan = plan_charge(points, scale=scale, mode=mode, squares=squares or None)
    return (f"{points} movement points by {locomotion_mode(mode).english} at {scale} scale: {plan.max_squares} squares, "
            f"a charge at {plan.attack_modifier} with {plan.extra_damage_rolls} extra damage roll(s)")


def _movement_figures(points: int, scale: str, mode: str, facing: str, last_step: bool, diagonals: bool,
                      size: int) -> str:
    plan, _ = _movement_view(points, scale, mode, facing, last_step, diagonals, size)
    return (f"{points} movement points by {locomotion_mode(mode).english} at {scale} scale, from the middle of a "
            f"{size}-square map: {len(plan.squares())} squares reachable")


def _endurance_figures(mp: int, drain: str) -> str:
    mean = endurance(mp, drain).mean()
    lost = next(label for label, key in _drains() if key == drain)
    return f"{mp} MP, {lost}: lasts {mean} turns on average (about {float(mean):.2f})"


class AttackCalculator(FormCalculator):
    """Exact odds of an attack against an evasion roll, and the damage taken (004 §3-4-2-2)."""

    example = WorkedExample("004 §3-4-2-2", {
        "to_hit": 5, "attack_modifier": 0, "evasion": 5, "evasion_modifier": 0, "waive": False, "tie": "defender",
        "critical_at": 0, "over_critical_at": 0, "weapon": "3D6", "bonus": 3, "bonus_applies": True,
        "protection": 4, "extra_rolls": 0}, _attack_figures)

    def __init__(self, to_hit: int = 5, evasion: int = 5, weapon_damage: str = "3D6", physical_bonus: int = 3,
                 protection: int = 4) -> None:
        self.to_hit = _int("to-hit base value (命中基本値)", to_hit, -20, 40)
        self.attack_modifier = _int("attack modifier (charge -4, tackle -2, ...)", 0, -20, 20)
        self.evasion = _int("evasion base value (回避基本値)", evasion, -20, 40)
        self.evasion_modifier = _int("evasion modifier (full defence +5, picked up -2, ...)", 0, -20, 20)
        self.waive = checkbox("the defender gives up evasion")
        self.tie = dropdown("equal totals go to", [("the defender (a ruling)", "defender"), ("the attacker", "attacker")],
                            "defender")
        self.critical_at = _int("critical at a natural 2D6 of at least (0: none; not in the source text)", 0, 0, 12)
        self.over_critical_at = _int("over-critical at a natural 2D6 of at least (0: none; not in the source text)",
                                     0, 0, 12)
        self.weapon = text_input("weapon damage dice", weapon_damage)
        self.bonus = _int("physical damage bonus", physical_bonus, 0, 30)
        self.bonus_applies = checkbox("the bonus applies (not for magic guns)", True)
        self.protection = _int("final protection (最終防護点)", protection, 0, 60)
        self.extra_rolls = _int("extra damage rolls (charge: 1 to 5)", 0, 0, 5)
        self.odds = None
        super().__init__([self.to_hit, self.attack_modifier, self.evasion, self.evasion_modifier, self.waive, self.tie,
                          self.critical_at, self.over_critical_at, self.weapon, self.bonus, self.bonus_applies,
                          self.protection, self.extra_rolls])

    def criticals(self) -> CriticalRule:
        crit = self.critical_at.value or None
        over = self.over_critical_at.value or None
        if crit is not None and crit < 3 or over is not None and over < 3:
            raise ValueError("a critical threshold below 3 would include double ones, which are a fumble")
        return CriticalRule.natural_total(crit, over)

    def _compute(self) -> str:
        self.odds = None
        odds = attack_odds(
            self.to_hit.value + self.attack_modifier.value,
            None if self.waive.value else self.evasion.value + self.evasion_modifier.value,
            criticals=self.criticals(), tie=self.tie.value, weapon_damage=self.weapon.value.strip() or None,
            physical_bonus=self.bonus.value, bonus_applies=self.bonus_applies.value,
            protection=self.protection.value, extra_damage_rolls=self.extra_rolls.value,
        )
        self.odds = odds
        parts = [
            f"<p><b>hit {odds.hit} ({percent(odds.hit)})</b>; attack fumble {odds.attacker_fumble} "
            f"({percent(odds.attacker_fumble)}); direct hit {odds.direct_hit} ({percent(odds.direct_hit)}); "
            f"equal totals {odds.tie} ({percent(odds.tie)}), decided for the {html.escape(self.tie.value)}</p>",
            f"<p>criticals: {html.escape(self.criticals().name)}</p>",
            distribution_table(odds.outcomes.items(), "outcome"),
        ]
        if odds.damage is not None:
            parts.append(f"<p>HP lost per attack (0 when it misses), mean {float(odds.damage.mean()):.2f}</p>")
            parts.append(distribution_table(odds.damage.items(), "HP lost"))
        return "".join(parts)


class ChargePlanner(FormCalculator):
    """Movement points and locomotion → the longest straight run-up, penalty, extra damage rolls, MP (004 §3-4-3-1)."""

    example = WorkedExample("004 §3-4-3-1", {"points": 45, "scale": "mecha", "mode": "thruster", "squares": 0},
                            _charge_figures)

    def __init__(self, points: int = 45, mode: str = "thruster") -> None:
        self.points = _int("movement points (移動力)", points, 0, 1000)
        self.scale = dropdown("scale", ["mecha", "character"], "mecha")
        self.mode = dropdown("locomotion", _mode_options(), mode)
        self.squares = _int("run-up squares (0 = the longest possible)", 0, 0, 1000)
        self.plan = None
        super().__init__([self.points, self.scale, self.mode, self.squares])

    def _compute(self) -> str:
        self.plan = None
        plan = plan_charge(self.points.value, scale=self.scale.value, mode=self.mode.value,
                           squares=self.squares.value or None)
        self.plan = plan
        verdict = (f"charge: attack {plan.attack_modifier}, {plan.extra_damage_rolls} extra damage roll(s) on a hit"
                   if plan.possible else "no charge: it needs 4 squares straight")
        rows = "".join(f"<li>{html.escape(step)}</li>" for step in plan.steps)
        return f"<p><b>{plan.max_squares} squares: {verdict}</b>; mecha MP this turn: {plan.mecha_mp_per_turn}</p><ul>{rows}</ul>"


class MovementPlanner(FormCalculator):
    """Movement points, scale and locomotion → the squares reachable on a square map (004 §3-4-2-1)."""

    example = WorkedExample("004 §3-4-2-1", {"points": 30, "scale": "mecha", "mode": "walk", "facing": "north",
                                             "last_step": True, "diagonals": False, "size": 15}, _movement_figures)

    def __init__(self, points: int = 30, mode: str = "walk", scale: str = "mecha", size: int = 15) -> None:
        self.points = _int("movement points (移動力)", points, 0, 200)
        self.scale = dropdown("scale", ["mecha", "character"], scale)
        self.mode = dropdown("locomotion", _mode_options(), mode)
        self.facing = dropdown("facing", [f.name.lower() for f in Facing], "north")
        self.last_step = checkbox("a last step with the points left (line 27)", True)
        self.diagonals = checkbox("omnidirectional modes step diagonally (a ruling)")
        self.size = _int("map size (squares a side)", size, 3, 21)
        self.plan = None
        super().__init__([self.points, self.scale, self.mode, self.facing, self.last_step, self.diagonals, self.size])

    def _compute(self) -> str:
        self.plan = None
        self.plan, shown = _movement_view(self.points.value, self.scale.value, self.mode.value, self.facing.value,
                                          self.last_step.value, self.diagonals.value, self.size.value)
        return shown


#: how many past inputs a calculator keeps the result of (a reader going back and forth pays once)
VIEW_CACHE_SIZE = 128


@lru_cache(maxsize=VIEW_CACHE_SIZE)
def _movement_view(points: int, scale: str, mode: str, facing: str, last_step: bool, diagonals: bool,
                   n: int) -> tuple[MovePlan, str]:
    """The movement planner's plan and HTML for one set of inputs, searched once per distinct inputs."""
    start = Pose(Square(n // 2, n // 2), Facing.parse(facing))
    plan = plan_move(points, scale=scale, mode=mode, start=start, bounds=(n, n), last_step_rule=last_step,
                     diagonals=diagonals)
    costs = "; ".join(html.escape(step) for step in plan.costs.steps)
    return plan, (f"<p><b>{len(plan.squares())} squares reachable</b> (the start included); "
                  f"mecha MP this turn: {plan.mecha_mp_per_turn}</p><p>{costs}</p>" + reach_svg(plan, n, n))


def _drains() -> list[tuple[str, str]]:
    """The pilot's drain and each distinct mecha-MP cost of the locomotion modes, with the modes named."""
    by_cost: dict[str, list[str]] = {}
    for key in MODE_KEYS[1:]:
        mode = locomotion_mode(key)
        by_cost.setdefault(mode.mecha_mp_per_turn, []).append(mode.english)
    return [("pilot: 1D6-3, at least 1 (操手)", "pilot")] + [
        (f"mecha MP {cost} a turn ({', '.join(names)})", cost) for cost, names in by_cost.items()
    ]


class MpEndurance(FormCalculator):
    """Starting MP → exact distribution of the combat turns before it runs out (004 §3-4-1, line 21)."""

    example = WorkedExample("004 §3-4-1", {"mp": 20, "drain": "pilot"}, _endurance_figures)

    def __init__(self, mp: int = 20, drain: str = "pilot") -> None:
        self.mp = _int("starting MP", mp, 0, 200)
        self.drain = dropdown("MP lost each turn", _drains(), drain)
        self.endurance = None
        super().__init__([self.mp, self.drain])

    def _compute(self) -> str:
        self.endurance = None
        self.endurance, shown = _endurance_view(self.mp.value, self.drain.value)
        return shown


@lru_cache(maxsize=VIEW_CACHE_SIZE)
def _endurance_view(mp: int, drain: str) -> tuple[Endurance, str]:
    """The MP endurance and its HTML for one set of inputs: the 200-row table is drawn once per distinct inputs."""
    result = endurance(mp, drain)
    mean = result.mean()
    return result, (f"<p><b>{result.mp} MP lasts {float(mean):.2f} turns on average</b> "
                    f"(exactly {mean})</p>" + distribution_table(result.turns.items(), "turns"))
