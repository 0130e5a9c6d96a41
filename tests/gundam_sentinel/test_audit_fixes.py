"""The audit's fixes (issue 14 item 5, issue 12): movement costs, turn only, the psycho jammer's doubles,
the guided psy-missile salvo bonus, salvo capacities, leader bits, nuclear weapons, one source per number."""

from fractions import Fraction

import pytest

from rules_lib.geometry.hex import Hex
from rules_lib.gundam_sentinel import actions, figures, movement, salvo, to_hit, units, weapons


def test_movement_costs_spend_the_mobility_by_terrain():
    woods = movement.MovementCosts(per_terrain={"woods": 2})
    path = [Hex(0, -1), Hex(0, -2)]
    assert movement.move(Hex(0, 0), 0, path, mobility=3).mobility_spent == 2
    priced = movement.move(Hex(0, 0), 0, path, mobility=3, terrain={Hex(0, -2): "woods"}, costs=woods)
    assert priced.mobility_spent == 3 and "woods, cost 2" in priced.steps[2]
    with pytest.raises(ValueError, match="needs 4 mobility in this move: allowed are up to the mobility, 3"):
        movement.move(Hex(0, 0), 0, path + [Hex(0, -3)], mobility=3, terrain={Hex(0, -2): "woods"}, costs=woods)
    with pytest.raises(ValueError, match="'swamp' has no movement cost.*not in the source text"):
        movement.move(Hex(0, 0), 0, path, mobility=3, terrain={Hex(0, -1): "swamp"}, costs=woods)
    with pytest.raises(ValueError, match="allowed are 1 or more"):
        movement.MovementCosts(per_terrain={"road": 0})


def test_zaku_land_mobility_covers_three_plain_hexes():
    zaku = units.unit("zaku-ii")
    path = [Hex(0, -1), Hex(0, -2), Hex(0, -3)]
    assert movement.move(Hex(0, 0), 0, path, mobility=zaku.mobility.land).hexes_moved == 3
    with pytest.raises(ValueError, match="up to the mobility, 3"):
        movement.move(Hex(0, 0), 0, path + [Hex(0, -4)], mobility=zaku.mobility.land)


def test_no_stacking_counts_occupants():
    assert movement.check_hex_free(Hex(0, 0), [Hex(1, 0)]) == 1
    with pytest.raises(ValueError, match="no stacking"):
        movement.check_hex_free(Hex(0, 0), [Hex(0, 0)])


def test_turn_only_reaches_every_other_facing_and_figure_4_shows_it():
    for facing in range(6):
        options = movement.turn_only_options(facing)
        assert sorted(abs(d) for d in options.values()) == [60, 60, 120, 120, 180]
        assert facing not in options
    svg = figures.turn_only_figure(0)
    for label in ("+60°", "−60°".replace("−", "-"), "+120°", "180°", "now"):
        assert label in svg
    assert "turn only" in svg


def test_psycho_jammer_doubles_give_the_hit_only():
    assert not to_hit.all_range_doubles_critical("psycho jammer")
    assert to_hit.all_range_doubles_critical("psycommu weapon")
    jammer = to_hit.check_hit(3, 3, 0, 86, to_hit.HitOptions(all_range=True, doubles_critical=False))
    assert jammer.hit and not jammer.critical and not jammer.secondary_damage
    on_player = to_hit.check_hit(3, 3, 0, 86, to_hit.HitOptions(all_range=True, attacker_is_player=False, doubles_critical=False))
    assert on_player.hit and not on_player.secondary_damage
    funnel = to_hit.check_hit(3, 3, 0, 86, to_hit.HitOptions(all_range=True))
    assert funnel.hit and funnel.critical
    assert to_hit.hit_odds(0, 86, to_hit.HitOptions(all_range=True, doubles_critical=False)).critical == 0
    assert to_hit.hit_odds(0, 86, to_hit.HitOptions(all_range=True)).critical == Fraction(1, 6)
    with pytest.raises(ValueError, match="allowed are"):
        to_hit.all_range_doubles_critical("beam rifle")


def test_guided_psy_missiles_take_no_salvo_bonus_unless_asked():
    assert salvo.salvo_bonus(6) == 5
    assert salvo.salvo_bonus(6, psycommu_guided=True) == 0
    assert salvo.salvo_bonus(6, psycommu_guided=True, guided_salvo_bonus=True) == 5
    plain = salvo.resolve_salvo(3, 6, 6, 54, psycommu_guided=True)
    bonus = salvo.resolve_salvo(3, 6, 6, 54, psycommu_guided=True, guided_salvo_bonus=True)
    assert (plain.modifier, bonus.modifier) == (0, 5)
    assert salvo.salvo_odds(6, 54, psycommu_guided=True).salvo_bonus == 0
    # a double still makes every guided missile hit
    assert salvo.resolve_salvo(2, 2, 6, 66, psycommu_guided=True).hits == 6


def test_salvo_capacities_are_lower_bounds_and_the_cap_a_parameter():
    launcher = units.unit("nouvelle-gm-iii").weapon("small missiles")
    assert launcher.salvo_at_least == 15 and launcher.salvo_capacity is None
    assert units.unit("core-booster-easy").weapon("ordinary bombs").salvo_at_least == 6
    assert salvo.resolve_salvo(3, 6, 20, 54).fired == 20
    with pytest.raises(ValueError, match="at most 15"):
        salvo.resolve_salvo(3, 6, 16, 54, capacity=15)


def test_nuclear_weapon_example():
    on_map = {"GP02A": Hex(0, 0), "GM": Hex(0, -2), "Alex": Hex(1, 0)}
    combat = weapons.nuclear_effect_example("combat", on_map, "GP02A", anti_nuclear=["Alex"])
    assert combat.destroyed == ("GP02A", "GM") and combat.survivors == ("Alex",)
    scenario_units = {"GP02A": Hex(0, 0), "GM": Hex(0, -1), "Ball": Hex(0, -1), "far": Hex(0, -3)}
    scenario = weapons.nuclear_effect_example("scenario", scenario_units, "GP02A", target=Hex(0, -1))
    assert scenario.destroyed == ("GM", "Ball")
    with pytest.raises(ValueError, match="allowed is an adjacent hex"):
        weapons.nuclear_effect_example("scenario", scenario_units, "GP02A", target=Hex(0, -3))
    with pytest.raises(ValueError, match="not among the units"):
        weapons.nuclear_effect_example("combat", on_map, "Zaku")


def test_one_source_for_each_modifier(monkeypatch):
    """Evasion, the to-hit table, equipment and the calculator read the same numbers."""
    from rules_lib.gundam_sentinel import d36

    evasive = to_hit.evasion_value(45, evasive_action=True, cover=True, riding_sfs=True)
    expected = (actions.PATTERNS["evasive action"].evasion + actions.PATTERNS["use of cover"].evasion
                + to_hit.SFS_EVASION)
    assert d36.steps_between(45, evasive.value) == expected
    assert to_hit.TO_HIT_MODIFIERS[to_hit.SNAP_SHOT].value == actions.PATTERNS["snap shot"].to_hit
    assert weapons.ewac_modifier(friendly_ewac_on_map=True) == to_hit.EWAC_TO_HIT
    assert weapons.ewac_modifier(friendly_ewac_on_map=True, shooting=False) == 0
    assert weapons.smoke_modifier(through_smoke=True) == to_hit.SMOKE_TO_HIT
    # a changed pattern value reaches evasion_value
    changed = dict(to_hit.EVASION_MODIFIERS)
    changed["evasive action (回避行動)"] = to_hit.Modifier("evasive action (回避行動)", 2)
    monkeypatch.setattr(to_hit, "EVASION_MODIFIERS", changed)
    assert d36.steps_between(45, to_hit.evasion_value(45, evasive_action=True).value) == 2


def test_to_hit_calculator_reads_the_library_table():
    from rules_lib.widgets.gundam_sentinel import ToHitCalculator

    calc = ToHitCalculator(weapon=0, evasion=54)
    calc.snap.value = calc.smoke.value = calc.jamming.value = calc.steal_yard.value = calc.ewac.value = True
    expected = sum(to_hit.TO_HIT_MODIFIERS[name].value for name in (
        to_hit.SNAP_SHOT, to_hit.SMOKE, to_hit.JAMMING, to_hit.STEAL_YARD, to_hit.EWAC))
    assert calc.answer.modifier.total == expected == -19


def test_equipment_rules():
    assert weapons.big_lang_maintenance([4, 2]).repaired == (4, 2)
    with pytest.raises(ValueError, match="allowed are 1 to 3 per scenario turn"):
        weapons.big_lang_maintenance([1, 2, 3, 4])
    with pytest.raises(ValueError, match="never during combat"):
        weapons.big_lang_maintenance([1], in_combat=True)
    assert weapons.ewac_detects(3, minovsky_normal_or_lower=True)
    assert not weapons.ewac_detects(4, minovsky_normal_or_lower=True)
    assert not weapons.ewac_detects(1, minovsky_normal_or_lower=False)
    assert [d for d in range(1, 9) if weapons.cloud_placement_allowed(d, "beam disturbance")] == [1, 2, 3, 4]
    assert weapons.cloud_active(0) and not weapons.cloud_active(1, "beam disturbance")
    assert weapons.beam_disturbance_damage(15) == 7 and weapons.beam_disturbance_damage(15, rounding="up") == 8
    assert weapons.steal_yard_modifier(steal_yard_on=True) == -6
    assert not weapons.steal_yard_allows(True, steal_yard_on=True) and weapons.steal_yard_allows(False, steal_yard_on=True)
    assert weapons.durabilities_for_punch("1D6+2") == tuple(range(20, 30))
