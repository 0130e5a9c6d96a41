"""WIS6 calculators: success-level odds, attack against evasion, counter, and the growth planner.

Each gathers inputs and shows what one ``rules_lib.wis6`` call returns (001 §3, §4-5, §5).
"""

from __future__ import annotations

import html
from dataclasses import replace

from ..dice import percent
from ..wis6 import (
    COUNTER_LABELS,
    OUTCOME_LABELS,
    AttackOdds,
    CounterOdds,
    CounterValues,
    Growth,
    GrowthPlan,
    LevelOdds,
    Sheet,
    Wis6Rules,
    apply_growth,
    attack_odds,
    counter_odds,
    growth_options,
    level_odds,
)
from .base import FormCalculator
from .layout import checkbox, dropdown
from .layout import int_input as _int
from .render import WorkedExample, distribution_table, error_line

ABILITY_MAX = 999
VALUE_MAX = 999


def _level_name(level: int) -> str:
    return "failed" if level == 0 else f"level {level}"


def _levels_figures(ability: int) -> str:
    odds = level_odds(ability)
    return (f"ability {ability}: " + ", ".join(f"level {level} {p}" for level, p in odds.levels.items())
            + f"; fails {odds.failure}; critical at level {odds.critical_level}")


def _attack_figures(attack_ability: int, evasion_ability: int, weapon_attack: int, armour: int,
                    covering: bool, halving: str) -> str:
    odds = attack_odds(attack_ability, evasion_ability, weapon_attack, armour, covering=covering,
                       rules=Wis6Rules(halving=halving, armour_halving=halving))
    return (f"attack ability {attack_ability} and weapon attack {weapon_attack} against reaction {evasion_ability} "
            f"and armour {armour}: damage is calculated {odds.damage_calculated}, mean damage {odds.mean_damage}")


def _counter_figures(attack_ability: int, counter_ability: int, enemy_weapon_attack: int, own_armour: int,
                     own_ap: int, own_weapon_attack: int) -> str:
    values = CounterValues(enemy_weapon_attack=enemy_weapon_attack, own_armour=own_armour, own_ap=own_ap,
                           own_weapon_attack=own_weapon_attack)
    odds = counter_odds(attack_ability, counter_ability, values)
    return (f"enemy attack ability {attack_ability} against counter ability {counter_ability}: "
            f"wrecked first {odds.wrecked}, the counter lands {odds.counter_lands}")


def _growth_figures(pilot_points: int, ac_points: int, **_unchanged: int) -> str:
    return (f"{pilot_points} pilot and {ac_points} AC points buy "
            + ", ".join(f"{o.stat.replace('_', ' ')} +{o.total_gain}" for o in growth_options(pilot_points, ac_points)))


class SuccessLevelCalculator(FormCalculator):
    """The exact chance of each success level of one d20 against an ability (001 §3-1)."""

    example = WorkedExample("001 §3-1", {"ability": 20}, _levels_figures)

    def __init__(self, ability: int = 20, rules: Wis6Rules | None = None) -> None:
        self.rules = rules or Wis6Rules()
        self.ability = _int("ability value (能力値)", ability, 1, ABILITY_MAX)
        self.odds: LevelOdds | None = None
        super().__init__([self.ability])

    def _compute(self) -> str:
        self.odds = level_odds(self.ability.value, self.rules)
        odds = self.odds
        rows = [(_level_name(level), p) for level, p in odds.levels.items()]
        return (
            f"<p>ability {odds.ability}: fails {odds.failure} ({percent(odds.failure)}); "
            f"critical {odds.critical} ({percent(odds.critical)}) at level {odds.critical_level}</p>"
            + distribution_table(rows, "success level")
        )

    def _clear(self) -> None:
        self.odds = None


class AttackCalculator(FormCalculator):
    """Attack against evasion: exact odds of each outcome and of the damage (001 §3-2, §4-2)."""

    example = WorkedExample("001 §3-2", {"attack_ability": 16, "evasion_ability": 12, "weapon_attack": 10,
                                         "armour": 5, "covering": False, "halving": "down"}, _attack_figures)

    def __init__(
        self,
        attack_ability: int = 16,
        evasion_ability: int = 12,
        weapon_attack: int = 10,
        armour: int = 5,
        covering: bool = False,
        rules: Wis6Rules | None = None,
    ) -> None:
        self.base_rules = rules or Wis6Rules()
        self.attack_ability = _int("attack ability (実弾/ＥＮ)", attack_ability, 1, ABILITY_MAX)
        self.evasion_ability = _int("evasion: reaction (反応)", evasion_ability, 1, ABILITY_MAX)
        self.weapon_attack = _int("weapon attack (武器攻撃力)", weapon_attack, 0, VALUE_MAX)
        self.armour = _int("armour (装甲値)", armour, 0, VALUE_MAX)
        self.covering = checkbox("covering (カバーリング): armour halved", covering)
        self.halving = dropdown("an odd value halved rounds (a ruling)", [("down", "down"), ("up", "up")],
                                self.base_rules.halving)
        self.odds: AttackOdds | None = None
        inputs = [self.attack_ability, self.evasion_ability, self.weapon_attack, self.armour, self.covering, self.halving]
        super().__init__(inputs)

    @property
    def rules(self) -> Wis6Rules:
        return replace(self.base_rules, halving=self.halving.value, armour_halving=self.halving.value)

    def _compute(self) -> str:
        self.odds = attack_odds(
            self.attack_ability.value, self.evasion_ability.value, self.weapon_attack.value,
            self.armour.value, covering=self.covering.value, rules=self.rules,
        )
        odds = self.odds
        outcomes = [(OUTCOME_LABELS[o], p) for o, p in odds.outcomes.items()]
        mean = odds.mean_damage
        return (
            distribution_table(outcomes, "outcome")
            + f"<p>damage is calculated with chance {odds.damage_calculated} ({percent(odds.damage_calculated)}); "
            f"mean damage {mean} ≈ {float(mean):.2f}</p>"
            + distribution_table(odds.damage.items(), "damage")
        )

    def _clear(self) -> None:
        self.odds = None


class CounterCalculator(FormCalculator):
    """A counter: the hit taken, the chance of being wrecked, and the damage dealt back (001 §4-5)."""

    example = WorkedExample("001 §4-5", {"attack_ability": 14, "counter_ability": 16, "enemy_weapon_attack": 10,
                                         "own_armour": 4, "own_ap": 30, "own_weapon_attack": 8}, _counter_figures)

    def __init__(
        self,
        attack_ability: int = 14,
        counter_ability: int = 16,
        enemy_weapon_attack: int = 10,
        own_armour: int = 4,
        own_ap: int = 30,
        own_weapon_attack: int = 8,
        rules: Wis6Rules | None = None,
    ) -> None:
        self.rules = rules or Wis6Rules()
        self.attack_ability = _int("enemy attack ability", attack_ability, 1, ABILITY_MAX)
        self.counter_ability = _int("counter: weapon ability", counter_ability, 1, ABILITY_MAX)
        self.enemy_weapon_attack = _int("enemy weapon attack", enemy_weapon_attack, 0, VALUE_MAX)
        self.own_armour = _int("own armour (装甲値)", own_armour, 0, VALUE_MAX)
        self.own_ap = _int("own AP (ＡＰ)", own_ap, 1, VALUE_MAX)
        self.own_weapon_attack = _int("own weapon attack", own_weapon_attack, 0, VALUE_MAX)
        self.odds: CounterOdds | None = None
        inputs = [
            self.attack_ability, self.counter_ability, self.enemy_weapon_attack,
            self.own_armour, self.own_ap, self.own_weapon_attack,
        ]
        super().__init__(inputs)

    def _compute(self) -> str:
        values = CounterValues(
            enemy_weapon_attack=self.enemy_weapon_attack.value, own_armour=self.own_armour.value,
            own_ap=self.own_ap.value, own_weapon_attack=self.own_weapon_attack.value,
        )
        self.odds = counter_odds(self.attack_ability.value, self.counter_ability.value, values, rules=self.rules)
        odds = self.odds
        outcomes = [(COUNTER_LABELS[o], p) for o, p in odds.outcomes.items()]
        return (
            distribution_table(outcomes, "counter")
            + f"<p>the counter lands with chance {odds.counter_lands} ({percent(odds.counter_lands)}); "
            f"mean damage taken {float(odds.self_damage.mean()):.2f}, dealt {float(odds.enemy_damage.mean()):.2f}</p>"
            + "<p>damage taken first</p>" + distribution_table(odds.self_damage.items(), "damage taken")
            + "<p>damage dealt to the enemy</p>" + distribution_table(odds.enemy_damage.items(), "damage dealt")
        )

    def _clear(self) -> None:
        self.odds = None


class GrowthPlanner(FormCalculator):
    """Growth points to spend: what each purchase buys, and a plan applied to a sheet (001 §5)."""

    example = WorkedExample("001 §5", {"pilot_points": 5, "ac_points": 5}, _growth_figures, )

    def __init__(
        self,
        pilot_points: int = 5,
        ac_points: int = 5,
        ability: int = 12,
        ap: int = 40,
        armour: int = 5,
        mobility: int = 4,
        weapon_attack: int = 10,
    ) -> None:
        self.pilot_points = _int("pilot growth points", pilot_points, 0, VALUE_MAX)
        self.ac_points = _int("AC growth points", ac_points, 0, VALUE_MAX)
        self.ability = _int("ability now (能力値)", ability, 1, VALUE_MAX)
        self.ap = _int("AP now", ap, 0, VALUE_MAX)
        self.armour = _int("armour now", armour, 0, VALUE_MAX)
        self.mobility = _int("mobility now", mobility, 0, VALUE_MAX)
        self.weapon_attack = _int("weapon attack now", weapon_attack, 0, VALUE_MAX)
        self.buy_ability = _int("buy: ability +1 ×", 0, 0, VALUE_MAX)
        self.buy_ap = _int("buy: AP +5 ×", 0, 0, VALUE_MAX)
        self.buy_armour = _int("buy: armour +1 ×", 0, 0, VALUE_MAX)
        self.buy_mobility = _int("buy: mobility +1 ×", 0, 0, VALUE_MAX)
        self.buy_weapon = _int("buy: weapon attack +1 ×", 0, 0, VALUE_MAX)
        self.growth: Growth | None = None
        inputs = [
            self.pilot_points, self.ac_points, self.ability, self.ap, self.armour, self.mobility,
            self.weapon_attack, self.buy_ability, self.buy_ap, self.buy_armour, self.buy_mobility, self.buy_weapon,
        ]
        super().__init__(inputs)

    def _options_table(self) -> str:
        """What each purchase buys with the points given: shown with the plan, and with a refused plan."""
        options = growth_options(self.pilot_points.value, self.ac_points.value)
        rows = "".join(
            f"<tr><td>{html.escape(o.stat)} ({html.escape(o.japanese)})</td><td>{o.pool}</td>"
            f"<td>{o.cost} → +{o.gain}</td><td>{o.purchases} × {o.cost} points: +{o.total_gain}</td><td>{o.points_left}</td></tr>"
            for o in options
        )
        return (
            "<table class='odds-table'><thead><tr><th>value</th><th>points</th><th>cost → gain</th>"
            f"<th>all points buy</th><th>left</th></tr></thead><tbody>{rows}</tbody></table>"
        )

    def _compute(self) -> str:
        table = self._options_table()
        sheet = Sheet(
            {"ability": self.ability.value}, self.ap.value, self.armour.value, self.mobility.value,
            {"weapon": self.weapon_attack.value}, self.pilot_points.value, self.ac_points.value,
        )
        plan = GrowthPlan(
            abilities={"ability": self.buy_ability.value}, ap=self.buy_ap.value, armour=self.buy_armour.value,
            mobility=self.buy_mobility.value, weapons={"weapon": self.buy_weapon.value},
        )
        self.growth = apply_growth(sheet, plan)
        steps = "".join(f"<li>{html.escape(step)}</li>" for step in self.growth.steps)
        return table + f"<p>the plan:</p><ul>{steps}</ul>"

    def _clear(self) -> None:
        self.growth = None

    def _error_html(self, message: str) -> str:
        return self._options_table() + error_line(message)
