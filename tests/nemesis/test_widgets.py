from fractions import Fraction

from rules_lib.dice import percent
from rules_lib.nemesis import (
    DuelRules,
    action_dice_odds,
    armour_odds,
    contest_odds,
    duel_odds,
    fall_chance,
)
from rules_lib.widgets.nemesis import (
    ActionDiceCalculator,
    ArmourCalculator,
    MeleeDuelCalculator,
    OpposedPoolsCalculator,
)
from tests.html_values import row


def test_action_dice_calculator_shows_patterns_and_attacks():
    calculator = ActionDiceCalculator()
    calculator.proper_range.value = "3"
    calculator.rapid_fire.value = True
    expected = action_dice_odds("3", rapid_fire=True)
    assert calculator.odds.attacks == expected.attacks
    assert calculator.odds.attacks[3] == Fraction(1, 216)
    assert row(calculator.result.value, "3")[:2] == ["1/216", "0.46%"]
    assert row(calculator.result.value, "三ゾロ目 triple")[0] == "1/36"
    calculator.extended.value = "fires"
    calculator.proper_range.value = "34(5)"
    assert calculator.odds.firing_faces == (3, 4, 5) and "fires on 3/4/5" in calculator.result.value


def test_action_dice_calculator_shows_bad_range_in_place():
    calculator = ActionDiceCalculator()
    calculator.proper_range.value = "7x"
    assert calculator.odds is None
    assert "proper range &#x27;7x&#x27;: &#x27;x&#x27; is not a die face" in calculator.result.value


def test_armour_calculator_shows_penetration_and_damage():
    calculator = ArmourCalculator()
    calculator.armour.value = 10
    calculator.attenuation.value = 5
    expected = armour_odds("1D20＋1", 10, "3D6＋2", 5)
    assert calculator.odds == expected and expected.penetration == Fraction(11, 20)
    assert f"&gt; 10): 11/20 ({percent(Fraction(11, 20))})" in calculator.result.value
    assert row(calculator.result.value, "1")[0] == str(expected.damage[1])
    calculator.melee.value = True
    assert calculator.odds.damage == armour_odds("1D20＋1", 10, "3D6＋2", 5, melee=True).damage
    calculator.attack.value = "1D"
    assert calculator.odds is None and "calculator-error" in calculator.result.value


def test_opposed_pools_calculator():
    calculator = OpposedPoolsCalculator()
    calculator.check.value = "approach"
    calculator.first_dice.value = 3
    calculator.second_dice.value = 3
    expected = contest_odds("approach", 3, 3)
    assert calculator.odds.success == expected.success == expected.pools.higher
    assert f"{expected.success} ({percent(expected.success)})" in calculator.result.value
    calculator.check.value = "fall"
    calculator.fall_reading.value = "as_written"
    assert calculator.odds.success == fall_chance(3, 3, "as_written")
    assert "the defender falls (as_written)" in calculator.result.value
    # the menu says which reading is the text, and starts there
    assert OpposedPoolsCalculator().fall_reading.value == "as_written"
    labels = dict((value, label) for label, value in calculator.fall_reading.options)
    assert "the text" in labels["as_written"] and "a reading" in labels["defender_resists"]


def test_melee_duel_calculator_fresh_and_kept():
    calculator = MeleeDuelCalculator()
    fresh = duel_odds()
    assert calculator.odds == fresh
    assert row(calculator.result.value, "A wins")[:2] == [str(fresh.win), percent(fresh.win)]
    calculator.kept_a.value = "6,6,6"
    assert calculator.odds.lose == 0 and "A keeps 6-6-6" in calculator.result.value
    calculator.kept_b.value = "5 5 5"
    calculator.triple_vs_triple.value = "mutual"
    assert calculator.odds == duel_odds((6, 6, 6), (5, 5, 5), DuelRules("mutual"))
    assert calculator.odds.mutual == 1
    calculator.kept_b.value = "9"
    assert calculator.odds is None and "9 is not a d6 face" in calculator.result.value
