"""weapons.py (000 §6, §7): each input guard at its boundary (the value refused, with its message,
and the nearest value accepted), the defaults of the readings, and the text's numbers no check states.

`make mutation` found these unchecked: dropping a guard or moving a bound or default by one changed
no value of the book and failed no test.
"""

from fractions import Fraction

import pytest

from rules_lib.geometry.hex import Hex
from rules_lib.gundam_sentinel import weapons
from rules_lib.gundam_sentinel.salvo import DamageFormula


def test_shots_used_needs_the_count_the_mode_uses():
    with pytest.raises(ValueError, match="uses as many shots as its attacks: pass attacks"):
        weapons.shots_used("beam machine gun auto")
    assert weapons.shots_used("beam machine gun auto", attacks=5) == {"weapon": 5}
    with pytest.raises(ValueError, match="missiles use as many as were fired: pass fired"):
        weapons.shots_used("missiles")
    assert weapons.shots_used("missiles", fired=4) == {"weapon": 4}
    # the all-round beam cannon uses 1 shot whatever the targets (000 §7-14), but a firing has a target
    assert weapons.shots_used("all-round beam cannon") == {"weapon": 1}
    assert weapons.shots_used("all-round beam cannon", targets=1) == {"weapon": 1}
    with pytest.raises(ValueError, match="targets 0 is below 1: allowed are 1 or more"):
        weapons.shots_used("all-round beam cannon", targets=0)


def test_auto_fire_attacks_only_of_the_weapons_the_text_names():
    assert weapons.auto_fire_attacks("Zaku machine gun") == 5
    with pytest.raises(ValueError, match="auto-fire attacks of 'rifle' are not in the source text"):
        weapons.auto_fire_attacks("rifle")


def test_split_auto_fire_gives_each_target_at_least_one_check():
    with pytest.raises(ValueError, match=r"split \(\): give each target at least 1 hit check"):
        weapons.split_auto_fire(5, [])
    with pytest.raises(ValueError, match=r"split \(0, 1\): give each target at least 1 hit check"):
        weapons.split_auto_fire(5, [0, 1])
    assert weapons.split_auto_fire(5, [1, 1]) == (1, 1)


def test_auto_fire_splits_bounds():
    assert weapons.auto_fire_splits(0, 1) == []
    assert weapons.auto_fire_splits(1, 1) == [(1,)]
    with pytest.raises(ValueError, match="targets 0 is below 1: allowed are 1 to 1000000"):
        weapons.auto_fire_splits(5, 0)
    # MAX_AUTO_FIRE_SPLITS: C(100000, 1) splits are listed, C(100001, 1) refused
    assert len(weapons.auto_fire_splits(100_001, 2)) == 100_000
    with pytest.raises(ValueError, match="100002 attacks over 2 targets make 100,001 splits: at most 100,000"):
        weapons.auto_fire_splits(100_002, 2)
    # the bounds on the work: 10**6 attacks and targets are checked, one more is refused
    weapons._check_split_count(10**6, 10**6)
    with pytest.raises(ValueError, match="attacks 1000001 is above 1000000"):
        weapons._check_split_count(10**6 + 1, 1)
    with pytest.raises(ValueError, match="targets 1000001 is above 1000000"):
        weapons._check_split_count(10**6, 10**6 + 1)


def test_psycommu_guards():
    with pytest.raises(ValueError, match="NT spent 0: an all-range attack with funnels or bits needs"):
        weapons.psycommu_units(0)
    assert weapons.psycommu_units(1) == 2
    with pytest.raises(ValueError, match="remote weapon 'bit': allowed are 'funnel', 'leader bit'"):
        weapons.remote_move_allowed(1, 1, "bit")
    with pytest.raises(ValueError, match="hexes flown -1 and from the body 0: allowed are 0 or more"):
        weapons.remote_move_allowed(-1, 0)
    with pytest.raises(ValueError, match="hexes flown 0 and from the body -1: allowed are 0 or more"):
        weapons.remote_move_allowed(0, -1)
    assert weapons.remote_move_allowed(0, 0)
    assert not weapons.leader_bits_allowed(0) and weapons.leader_bits_allowed(1)
    with pytest.raises(ValueError, match="distance 0: allowed are 1 or more hexes"):
        weapons.psy_missile_in_range(0)
    assert weapons.psy_missile_in_range(1)
    with pytest.raises(ValueError, match="NT spent 0: psycommu guidance needs 1 or more"):
        weapons.psy_missile_sets(0)
    assert weapons.psy_missile_sets(1) == 1


def test_punch_damage_and_its_durabilities():
    with pytest.raises(ValueError, match="durability -1: allowed are 0 or more"):
        weapons.punch_damage(-1)
    assert weapons.punch_damage(0) == DamageFormula(1, 6, 0)
    assert weapons.durabilities_for_punch("1D6+0") == tuple(range(0, 10))
    assert weapons.durabilities_for_punch("1D6+2", up_to=25) == tuple(range(20, 26))
    assert weapons.durabilities_for_punch("1D6+30") == (300,)  # up to 300 by default


def test_melee_damage_refuses_a_pattern_it_does_not_know():
    with pytest.raises(ValueError, match="no action pattern 'uppercut'"):
        weapons.melee_damage("1D6+2", patterns=["uppercut"])


def test_piloting_check_reads_two_d6_faces_and_a_known_rule():
    for bad in ((1, 2, 3), (0, 1), (7, 1), (True, 1), (1,)):
        with pytest.raises(ValueError, match="give two d6 faces, each 1 to 6"):
            weapons.piloting_check(bad, 0)
    assert weapons.piloting_check((1, 6), 0).total == 7
    assert weapons.piloting_check((6, 1), 0).total == 7
    with pytest.raises(ValueError, match="success rule '=': allowed are '>' and '>='"):
        weapons.piloting_check((3, 3), 0, success_rule="=")
    # the other reading (ruling "Does reaching a target number of 10 succeed?"): 10 succeeds
    assert weapons.piloting_check((4, 6), 0, success_rule=">=").success
    assert not weapons.piloting_check((4, 6), 0).success


def test_mines_per_map():
    with pytest.raises(ValueError, match="2 scenario hexes: the 6 charges are all laid"):
        weapons.lay_mines("scenario", 2)
    assert weapons.lay_mines("scenario")["mines_in_hex"] == 6
    for bad in (0, 7):
        with pytest.raises(ValueError, match=f"{bad} hexes: one action lays 1 to 6 mines"):
            weapons.lay_mines("combat", bad)
    assert weapons.lay_mines("combat", 1)["hexes_mined"] == 1
    assert weapons.lay_mines("combat", 6)["hexes_mined"] == 6


def test_clouds_and_their_guards():
    with pytest.raises(ValueError, match="cloud 'fog': allowed are 'smoke', 'beam disturbance'"):
        weapons.cloud_placement_allowed(1, "fog")
    with pytest.raises(ValueError, match="cloud 'fog': allowed are 'smoke', 'beam disturbance'"):
        weapons.cloud_active(0, "fog")
    with pytest.raises(ValueError, match="rounds since the cloud was laid -1: allowed are 0 or more"):
        weapons.cloud_active(-1)
    with pytest.raises(ValueError, match="rounding 'nearest': allowed are 'down', 'up'"):
        weapons.beam_disturbance_damage(7, rounding="nearest")
    # smoke changes to-hit only, the gas beam damage only (000 §7-20, lines 523, 527)
    assert weapons.BEAM_DISTURBANCE.modifier == 0 and weapons.SMOKE.multiplier == 1
    assert weapons.beam_disturbance_damage(15, rounding="up") == 8 == 15 - weapons.beam_disturbance_damage(15)


def test_equipment_guards_at_their_boundaries():
    with pytest.raises(ValueError, match="scenario hexes -1: allowed are 0 or more"):
        weapons.ewac_detects(-1, minovsky_normal_or_lower=True)
    assert weapons.ewac_detects(0, minovsky_normal_or_lower=True)
    assert not weapons.big_lang_can_maintain(0) and weapons.big_lang_can_maintain(1)


def test_the_special_equipment_costs_5_ap():
    # plasma leader, psycho jammer, psycho capture: 5 AP each (000 §7-16, line 480, §7-17, line 486, §7-18, line 494)
    assert weapons.PLASMA_LEADER.ap == weapons.PSYCHO_JAMMER.ap == weapons.PSYCHO_CAPTURE.ap == 5


def test_nuclear_example_guards_and_its_scenario_reading():
    units = {"GP02A": Hex(0, 0), "GM": Hex(0, -1), "Alex": Hex(0, -1)}
    with pytest.raises(ValueError, match=r"anti-nuclear units \['Zaku'\] are not among the units"):
        weapons.nuclear_effect_example("combat", units, "GP02A", anti_nuclear=["Zaku"])
    with pytest.raises(ValueError, match="used on one adjacent hex: pass target"):
        weapons.nuclear_effect_example("scenario", units, "GP02A")
    # ruling "Nuclear weapons on the scenario map and anti-nuclear defence": as written, no protection there
    plain = weapons.nuclear_effect_example("scenario", units, "GP02A", anti_nuclear=["Alex"], target=Hex(0, -1))
    assert plain.destroyed == ("GM", "Alex")
    other = weapons.nuclear_effect_example("scenario", units, "GP02A", anti_nuclear=["Alex"], target=Hex(0, -1),
                                           protected_on_scenario_map=True)
    assert other.destroyed == ("GM",)
    assert Fraction(len(plain.survivors)) == 1
