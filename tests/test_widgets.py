from rules_lib.widgets import DiceOddsCalculator


def test_dice_odds_calculator_shows_exact_success():
    calculator = DiceOddsCalculator("2D6")
    calculator.expression.value = "2D6>=10"
    assert calculator.odds.success.numerator == 1 and calculator.odds.success.denominator == 6
    assert "success 1/6 (16.67%)" in calculator.result.value
    rows = dict(calculator.odds.distribution.items())
    assert rows[12] == rows[2] and str(rows[12]) == "1/36"
    assert ">12</td><td style='text-align:right;padding:0 0.6em'>1/36</td>" in calculator.result.value


def test_dice_odds_calculator_shows_errors_in_place():
    calculator = DiceOddsCalculator()
    calculator.expression.value = "2D6+"
    assert calculator.odds is None
    assert "position 5" in calculator.result.value
