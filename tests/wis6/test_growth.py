import pytest

from rules_lib.wis6 import (
    ALL_WEAPONS,
    GrowthPlan,
    Sheet,
    Wis6Error,
    apply_growth,
    award_growth_points,
    growth_options,
)

SHEET = Sheet({"reaction": 12, "ballistic": 14}, ap=40, armour=5, mobility=4, weapons={"rifle": 10, "sabre": 8})


def test_award_and_bank():
    sheet = award_growth_points(award_growth_points(SHEET))
    assert (sheet.pilot_points, sheet.ac_points) == (10, 10)


def test_each_cost():
    sheet = award_growth_points(SHEET)
    assert apply_growth(sheet, GrowthPlan(abilities={"reaction": 1})).sheet.abilities["reaction"] == 13
    grown = apply_growth(sheet, GrowthPlan(ap=1, armour=1)).sheet
    assert (grown.ap, grown.armour, grown.ac_points) == (45, 6, 1)
    assert apply_growth(sheet, GrowthPlan(mobility=1)).sheet.mobility == 5
    weapon = apply_growth(sheet, GrowthPlan(weapons={"rifle": 1}))
    assert weapon.sheet.weapons == {"rifle": 11, "sabre": 8} and weapon.ac_spent == 5


def test_all_weapons_scope():
    sheet = award_growth_points(SHEET)
    grown = apply_growth(sheet, GrowthPlan(weapons={ALL_WEAPONS: 1}), weapon_attack_scope="all_weapons").sheet
    assert grown.weapons == {"rifle": 11, "sabre": 9}


def test_overspending_and_unknown_names_are_errors():
    sheet = award_growth_points(SHEET)
    with pytest.raises(Wis6Error, match="spends 6 AC growth points but only 5 are banked"):
        apply_growth(sheet, GrowthPlan(armour=2))
    with pytest.raises(Wis6Error, match="spends 6 pilot growth points but only 5"):
        apply_growth(sheet, GrowthPlan(abilities={"reaction": 6}))
    with pytest.raises(Wis6Error, match="ability 'luck' is not on the sheet"):
        apply_growth(sheet, GrowthPlan(abilities={"luck": 1}))
    with pytest.raises(Wis6Error, match="weapon 'axe' is not on the sheet"):
        apply_growth(sheet, GrowthPlan(weapons={"axe": 1}))
    with pytest.raises(Wis6Error, match="armour purchases -1 is below 0"):
        GrowthPlan(armour=-1)


def test_leftover_points_stay_banked():
    result = apply_growth(award_growth_points(SHEET), GrowthPlan(abilities={"ballistic": 2}, armour=1))
    assert (result.sheet.pilot_points, result.sheet.ac_points) == (3, 2)
    assert result.steps[-1] == "spent 2 pilot and 3 AC points; banked 3 pilot and 2 AC points"


def test_growth_options():
    options = {o.stat: o for o in growth_options(5, 7)}
    assert options["ap"].total_gain == 35
    assert (options["armour"].purchases, options["armour"].points_left) == (2, 1)
    assert options["weapon_attack"].total_gain == 1
    assert options["ability"].total_gain == 5


def test_sheet_and_plan_bounds():
    # Boundaries of the sheet's and the plan's counts: the value just refused and the value just accepted.
    with pytest.raises(Wis6Error, match="ability 'reaction'.*0.*below 1"):
        Sheet({"reaction": 0}, ap=40, armour=5, mobility=4)
    assert Sheet({"reaction": 1}, ap=40, armour=5, mobility=4).abilities == {"reaction": 1}
    with pytest.raises(Wis6Error, match="weapon attack 'rifle'.*-1.*below 0"):
        Sheet({"reaction": 1}, ap=40, armour=5, mobility=4, weapons={"rifle": -1})
    assert Sheet({"reaction": 1}, ap=40, armour=5, mobility=4, weapons={"rifle": 0}).weapons == {"rifle": 0}
    with pytest.raises(Wis6Error, match="ability raise 'reaction'.*-1.*below 0"):
        GrowthPlan(abilities={"reaction": -1})
    assert GrowthPlan(abilities={"reaction": 0}).pilot_cost() == 0
    with pytest.raises(Wis6Error, match="weapon purchases 'rifle'.*-1.*below 0"):
        GrowthPlan(weapons={"rifle": -1})
    assert GrowthPlan(weapons={"rifle": 0}).ac_cost() == 0
