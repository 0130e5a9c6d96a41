from fractions import Fraction

from rules_lib.widgets.wis6 import AttackCalculator, CounterCalculator, GrowthPlanner, SuccessLevelCalculator
from rules_lib.wis6 import CounterValues, Wis6Rules, attack_odds, counter_odds, level_odds
from tests.html_values import row


def test_success_level_calculator_shows_exact_odds():
    calculator = SuccessLevelCalculator(12)
    calculator.ability.value = 20
    assert calculator.odds == level_odds(20)
    assert calculator.odds.levels[8] == Fraction(1, 20)
    assert "critical 1/20 (5.00%) at level 16" in calculator.result.value
    assert row(calculator.result.value, "level 8")[:2] == ["1/20", "5.00%"]
    calculator.ability.value = 10
    assert "fails 1/2 (50.00%)" in calculator.result.value


def test_attack_calculator_matches_the_library():
    calculator = AttackCalculator()
    calculator.attack_ability.value = 16
    calculator.evasion_ability.value = 12
    calculator.weapon_attack.value = 10
    calculator.armour.value = 8
    calculator.covering.value = True
    expected = attack_odds(16, 12, 10, 8, covering=True)
    assert calculator.odds == expected
    assert f"mean damage {expected.mean_damage}" in calculator.result.value
    assert row(calculator.result.value, "critical (クリティカル)")[0] == "1/20"
    calculator.halving.value = "up"
    assert calculator.odds == attack_odds(16, 12, 10, 8, covering=True, rules=Wis6Rules(halving="up", armour_halving="up"))


def test_counter_calculator_matches_the_library():
    calculator = CounterCalculator()
    calculator.own_ap.value = 12
    expected = counter_odds(14, 16, CounterValues(enemy_weapon_attack=10, own_armour=4, own_ap=12, own_weapon_attack=8))
    assert calculator.odds == expected
    assert f"lands with chance {expected.counter_lands}" in calculator.result.value


def test_growth_planner_applies_the_plan_and_shows_overspending():
    planner = GrowthPlanner()
    planner.buy_armour.value = 1
    planner.buy_ap.value = 2
    assert planner.growth.sheet.armour == 6 and planner.growth.sheet.ap == 50
    assert "banked 5 pilot and 0 AC points" in planner.result.value
    planner.buy_weapon.value = 1
    assert planner.growth is None
    assert "spends 10 AC growth points but only 5 are banked" in planner.result.value
    planner.ac_points.value = 10
    assert planner.growth.sheet.weapons == {"weapon": 11}
    assert "<td>2 × 5 points: +2</td>" in planner.result.value


def test_the_attack_example_line_keeps_the_texts_figures_when_the_inputs_change():
    """Ability 33 and covering: the result is for them, the line under it says the figures are the example's."""
    calculator = AttackCalculator()
    example = attack_odds(16, 12, 10, 5)
    assert f"damage is calculated {example.damage_calculated}, mean damage {example.mean_damage}; your inputs are the example" \
        in calculator.example_view.value
    calculator.attack_ability.value = 33
    calculator.covering.value = True
    changed = attack_odds(33, 12, 10, 5, covering=True)
    assert f"mean damage {changed.mean_damage}" in calculator.result.value
    assert f"mean damage {example.mean_damage}; your inputs differ from the example" in calculator.example_view.value
