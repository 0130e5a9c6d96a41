from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.nemesis import (
    HIT_LOCATION,
    UnitState,
    apply_damage,
    armour_check,
    damage_after_attenuation,
    damage_distribution,
    defended,
    destruction_effects,
    hit_location,
    hit_location_distribution,
    load_silhouette,
    penetration_chance,
    roll_damage,
    structure_loss_distribution,
)


def test_armour_check_must_exceed():
    assert armour_check("1D20＋1", 6, dice=[6]).penetrated
    equal = armour_check("1D20＋1", 6, dice=[5])
    assert not equal.penetrated and equal.structure_loss == 1
    with pytest.raises(ValueError, match="armour"):
        armour_check("1D20", -1, dice=[3])


@pytest.mark.parametrize("armour", [0, 6, 10, 21, 25])
def test_penetration_chance_matches_enumeration(armour):
    brute = Fraction(sum(d + 1 > armour for d in range(1, 21)), 20)
    assert penetration_chance("1D20＋1", armour) == brute


@pytest.mark.parametrize("attenuation, melee", [(0, False), (5, False), (12, False), (12, True)])
def test_damage_distribution_matches_enumeration(attenuation, melee):
    brute = Counter(max(sum(r) + 2 - (0 if melee else attenuation), 1) for r in product(range(1, 7), repeat=3))
    assert damage_distribution("3D6+2", attenuation, melee) .probabilities == {k: Fraction(v, 216) for k, v in brute.items()}


def test_minimum_damage_and_melee_and_multiplier():
    assert damage_after_attenuation(3, 5) == 1 and damage_after_attenuation(3, 2) == 1 and damage_after_attenuation(3, 1) == 2
    assert damage_after_attenuation(3, 5, melee=True) == 3
    assert damage_after_attenuation(12, 0, melee=True, multiplier=3) == 36
    assert roll_damage("3D6＋2", 20, dice=[1, 1, 1]).damage == 1
    with pytest.raises(ValueError, match="multiplier 4"):
        damage_after_attenuation(3, 0, multiplier=4)


def test_structure_loss_is_a_mixture():
    dist = structure_loss_distribution("1D20＋1", "3D6＋2", armour=6, attenuation=0)
    brute: Counter = Counter()
    for a in range(1, 21):
        for r in product(range(1, 7), repeat=3):
            brute[(sum(r) + 2) if a + 1 > 6 else 1] += 1
    assert dist.probabilities == {k: Fraction(v, 20 * 216) for k, v in brute.items()}


def test_defence_halves():
    assert defended(7) == 4 and defended(7, "down") == 3 and defended(1) == 1
    with pytest.raises(ValueError, match="rounding"):
        defended(4, "nearest")


def test_hit_location_table():
    faces = sorted(f for fs in HIT_LOCATION.values() for f in fs)
    assert faces == list(range(1, 21))
    assert hit_location(1) == hit_location(20) == "head" and hit_location(15) == "torso"
    assert hit_location(17, body="vehicle") == "torso"
    assert hit_location_distribution("aircraft").probabilities == {"torso": 1}
    with pytest.raises(ValueError, match="21 is not a 1D20 face"):
        hit_location(21)


def test_overflow_goes_to_a_part():
    state = UnitState.fresh(load_silhouette())
    hit = apply_damage(state, 15)
    assert hit.state.structure == 5 and hit.part_hit is None
    spill = apply_damage(hit.state, 8, location_roll=10)
    assert spill.state.structure == 0 and spill.part_damage == 3 and spill.state.parts["torso"] == 7
    whole = apply_damage(hit.state, 8, location_roll=10, part_damage="whole")
    assert whole.part_damage == 8
    again = apply_damage(spill.state, 6, location_roll=1)
    assert again.part_damage == 6 and again.destroyed_now == ("head",) and again.state.parts["head"] == 0
    lost = apply_damage(again.state, 4, location_roll=20)
    assert lost.part_damage == 0 and lost.state.parts["head"] == 0
    exact = apply_damage(hit.state, 5)
    assert exact.state.structure == 0 and exact.part_hit is None
    with pytest.raises(ValueError, match="give the 1D20 hit-location roll"):
        apply_damage(spill.state, 1)
    with pytest.raises(ValueError, match="damage -1"):
        apply_damage(state, -1)


def test_destruction_effects():
    e = destruction_effects(["head", "left_leg", "right_leg"])
    assert e.interrupt_surcharge == 1 and e.action_dice_lost == 4 and e.may_concede and not e.out_of_action
    assert destruction_effects(["torso"]).out_of_action
    arm = destruction_effects(["right_arm"])
    assert arm.unusable_arms == ("right_arm",) and arm.two_handed_unusable
    assert not destruction_effects([]).may_concede
    with pytest.raises(ValueError, match="unknown part 'tail'"):
        destruction_effects(["tail"])


def test_rapid_fire_hits_one_damage_roll_per_hit():
    from rules_lib.nemesis import RapidFireDamage, rapid_fire_hits

    for count in range(1, 6):
        result = rapid_fire_hits("1D6", 0, count, dice=[[face] for face in range(1, count + 1)])
        assert result.hits == result.damage_rolls == count
        assert result.per_hit == tuple(range(1, count + 1))
    # attenuation and the minimum of 1 apply to each hit
    assert rapid_fire_hits("1D6", 2, 2, dice=[[1], [6]]).per_hit == (1, 4)
    once = rapid_fire_hits("1D6", 0, 3, dice=[[5]], reading=RapidFireDamage.ONE_ROLL_EACH_HIT)
    assert once.per_hit == (5, 5, 5) and once.damage_rolls == 1 and once.total == 15


def test_rapid_fire_hits_refuses_bad_input():
    from rules_lib.nemesis import rapid_fire_hits

    with pytest.raises(ValueError, match="rapid-fire count 0 is not a whole number"):
        rapid_fire_hits("1D6", 0, 0)
    with pytest.raises(ValueError, match="1 sets of damage dice given; this attack rolls its damage 2"):
        rapid_fire_hits("1D6", 0, 2, dice=[[3]])


def test_roll_damage_shows_the_duel_multiplier_the_attenuation_and_the_minimum():
    """002 §4-1, lines 213, 217, §6-2, line 279: damage × the duel's multiplier, minus attenuation
    except in melee, at least 1; the working says each step."""
    plain = roll_damage("1D6", 2, dice=[5])
    assert plain.damage == 3 and "5 − attenuation 2 = 3" in plain.steps
    assert not any(s.startswith("duel win") for s in plain.steps)
    duel_win = roll_damage("1D6", 2, melee=True, multiplier=2, dice=[5])
    assert duel_win.damage == 10 and "duel win ×2: 5 × 2 = 10" in duel_win.steps
    assert "melee weapon: attenuation does not apply" in duel_win.steps and len(duel_win.steps) == 3
    low = roll_damage("1D6", 9, dice=[5])
    assert low.damage == 1 and low.steps[-1] == "-4 is 1 or less: minimum guaranteed damage 1"
