from fractions import Fraction

import pytest

from rules_lib.gundam_sentinel import checks, damage, weapons


def test_faint_and_recovery_by_brute_force():
    for stamina in (-2, 0, 3, 9):
        brute = sum(a + b == 2 or a + b + stamina <= 10 for a in range(1, 7) for b in range(1, 7))
        assert checks.faint_chance(stamina) == Fraction(brute, 36)
    assert checks.faint_check((1, 1), 20).result
    assert checks.recovery_chance(0) == Fraction(3, 36)
    with pytest.raises(ValueError, match="two d6"):
        checks.faint_check((7, 1), 0)


def test_escape():
    assert "dies" in checks.escape_check((6, 6), fainted=True)
    with pytest.raises(ValueError, match="not in the source text"):
        checks.escape_check((3, 3), fainted=False)
    assert checks.escape_check((3, 3), fainted=False, chart={6: "escapes"}) == "escapes"


def test_armour_and_additional_damage():
    assert damage.largest_stopped(6) == 6
    hit = damage.apply_damage(7, 6, 1)
    assert hit.through == 1 and hit.destroyed and hit.additional_check
    assert not damage.apply_damage(6, 6, 10).additional_check
    assert damage.apply_damage(8, 6, 10, ignores_armour=True).through == 8
    assert damage.secondary_damage_chance(7) == Fraction(21, 36)
    with pytest.raises(ValueError, match="additional value"):
        damage.apply_damage(9, 6, 10, additional_dice=(1, 1))


def test_add_on_armour():
    mantle = damage.AddOnArmour("ABC mantle", 2, 5, beam_only=True)
    assert damage.hit_with_addon(9, mantle, beam=False).to_body == 9
    assert damage.hit_with_addon(9, mantle, beam=True).to_body == 0
    assert damage.hit_with_addon(9, mantle, beam=True, overflow_to_body=True).to_body == 2


def test_weapons():
    assert str(weapons.punch_damage(25)) == "1D6+2"
    assert weapons.melee_damage("1D6+2", doubled=True).support == (6, 8, 10, 12, 14, 16)
    assert weapons.psycommu_units(2) == 4 and weapons.fin_funnel_barrier_nt() == 2
    with pytest.raises(ValueError, match="NT value is only 1"):
        weapons.psycommu_units(2, pilot_nt=1)
    assert weapons.leader_bits(4).sets == 4
    with pytest.raises(ValueError, match="allowed are 1 to 4"):
        weapons.leader_bits(5)
    assert weapons.split_auto_fire(5, [4, 1]) == (4, 1)
    with pytest.raises(ValueError, match="at most 5"):
        weapons.split_auto_fire(5, [4, 2])
    assert len(weapons.auto_fire_splits(5, 2)) == 4
    assert weapons.shots_used("machine gun auto") == {"weapon": 10}
    assert weapons.jamming_modifier(2) == 0 and weapons.jamming_modifier(3) == -6
    assert weapons.smoke_modifier(into_smoke_hex=True) == 0
    assert weapons.beam_disturbance_damage(7) == 3
    assert not weapons.i_field_blocks(beam=True, adjacent=True)


def test_piloting_checks_by_brute_force():
    for own, other in ((0, 0), (2, 1), (-1, 3)):
        brute = sum(a + b + own > 10 + other for a in range(1, 7) for b in range(1, 7))
        assert weapons.piloting_check_odds(own, opponent_piloting=other) == Fraction(brute, 36)
    assert weapons.piloting_check((5, 5), 0, success_rule=">=").success
    assert not weapons.piloting_check((5, 5), 0).success


def test_hit_location_adds_mission_level_and_skill_and_stays_on_the_table():
    from rules_lib.gundam_sentinel import hit_location
    from rules_lib.gundam_sentinel.units import HitLocation

    table = (HitLocation("legs", (1, 2), 5, 5), HitLocation("body", (3, 4), 6, 4), HitLocation("head", (5, 6), 3, 6))
    assert hit_location(2, table).location.name == "legs"
    assert hit_location(2, table, mission_level=1).location.name == "body"
    found = hit_location(5, table, mission_level=2, skill_modifier=1)
    assert (found.total, found.location.name) == (8, "head") and "off the table" in found.steps[1]
    assert hit_location(1, table, skill_modifier=-2).location.name == "legs"
    for bad in (0, 7):
        with pytest.raises(ValueError, match="a d6 shows 1 to 6"):
            hit_location(bad, table)
    with pytest.raises(ValueError, match="no hit-location table"):
        hit_location(3, ())


def test_ammunition_is_spent_per_firing_and_an_empty_weapon_cannot_fire():
    from rules_lib.gundam_sentinel import shots_used, spend_ammunition

    assert spend_ammunition(30, shots_used("machine gun auto")["weapon"]) == 20
    assert spend_ammunition(15, shots_used("missiles", fired=15)["weapon"]) == 0
    with pytest.raises(ValueError, match="cannot fire until its magazine is changed"):
        spend_ammunition(0, 1, weapon="the Zaku's machine gun")
    with pytest.raises(ValueError, match="has 5 rounds left but the firing uses 10"):
        spend_ammunition(5, 10)
