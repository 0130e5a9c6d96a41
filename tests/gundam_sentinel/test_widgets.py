import html
from fractions import Fraction

from rules_lib.gundam_sentinel import actions, salvo, to_hit
from rules_lib.widgets.gundam_sentinel import ActionPointPlanner, HexFigure, SalvoCalculator, ToHitCalculator


def test_to_hit_calculator_shows_the_library_odds():
    calc = ToHitCalculator(weapon=14, evasion=54)
    assert calc.answer.odds.hit == Fraction(11, 18)
    assert "hit: 11/18 (61.11%)" in calc.result.value
    calc.snap.value = True
    calc.mob.value = True
    expected = to_hit.hit_odds(11, 54, to_hit.HitOptions(target_is_mob=True))
    assert calc.answer.odds.hit == expected.hit and calc.answer.odds.critical == expected.critical
    assert f"critical: {expected.critical}" in calc.result.value
    calc.evasion.value = "57"
    assert calc.answer is None and "not on the 1D36 scale" in calc.result.value


def test_salvo_calculator():
    calc = SalvoCalculator(fired=15, evasion=54, per_hit_damage="1D3+4/2")
    expected = salvo.salvo_odds(15, 54, per_hit_damage="1D3+4/2")
    assert calc.odds.hits == expected.hits and calc.odds.damage == expected.damage
    assert "1D3+4/2 -> 1D3" in html.unescape(calc.result.value) and calc.odds.damage[0] == 0  # a miss's blast
    calc.blast.value = "2D6"
    assert calc.odds.damage == salvo.salvo_odds(15, 54, per_hit_damage="1D3+4/2", blast="2D6").damage
    calc.blast.value = "0"
    assert calc.odds is None and "blast damage '0'" in html.unescape(calc.result.value)
    calc.blast.value = ""
    calc.damage.value = "lots"
    assert calc.odds is None and "does not parse" in calc.result.value
    calc.damage.value = ""
    calc.fired.value = 6
    assert calc.odds.damage is None and calc.odds.modifier == 5


def test_action_point_planner():
    planner = ActionPointPlanner(roll=4, reaction=2)
    assert planner.plan.ap.available == 6
    assert "charge/disengage + normal move" in planner.result.value
    planner.borrow.value = 2
    assert planner.plan.ap.available == 8
    planner.owed.value = 1
    assert planner.plan is None and "又借り" in planner.result.value
    planner.owed.value = 0
    planner.first.value = False
    expected = actions.plan_round(4, 2, planner.candidates.value, "normal MS", acting_first=False, borrow=2,
                                  anticipation=True, max_borrow=2)
    assert planner.plan == expected


def test_hex_figure():
    figure = HexFigure()
    assert figure.figure.value.count(">○<") == 3
    figure.kind.value = "firing arc"
    figure.arc.value = 180
    assert figure.figure.value.startswith("<svg")
    figure.kind.value = "range bands"
    assert "out of range" in figure.figure.value
