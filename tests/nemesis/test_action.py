from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules_lib.nemesis import (
    ExtendedFace,
    InitiativeSide,
    action_dice_count,
    attack_count,
    attack_count_distribution,
    binomial_faces,
    chance_to_open_melee,
    enumerate_attack_counts,
    initiative,
    load_silhouette,
    may_open_melee,
    pattern_odds,
    read_pattern,
    response_action,
    shooting_order,
    weapon_from_dict,
    weapon_swap,
)

ROLLS = list(product(range(1, 7), repeat=3))


def weapon(proper_range, *abilities):
    return weapon_from_dict({"name": f"gun {proper_range}", "attack": "1D20", "damage": "1D6",
                             "proper_range": proper_range, "abilities": list(abilities)})


def test_patterns_match_enumeration_of_all_216_rolls():
    counts = Counter(read_pattern(r).pattern for r in ROLLS)
    assert counts == {"triple": 6, "straight": 24, "pair": 90, "plain": 96}
    assert {k: v * 216 for k, v in pattern_odds().items()} == counts
    assert read_pattern([6, 5, 4]).is_straight and read_pattern([4, 2, 3]).is_straight
    assert read_pattern([5, 5, 5]).matching_dice == 3 and read_pattern([2, 2, 5]).label == "ゾロ目"


def test_straights_read_as_rolled_run_up_or_down_in_the_order_given():
    counts = Counter(read_pattern(r, straight_order="as rolled").pattern for r in ROLLS)
    assert counts == {"triple": 6, "straight": 8, "pair": 90, "plain": 112}  # 逆連番 included: 4 runs x 2
    assert {k: v * 216 for k, v in pattern_odds(straight_order="as rolled").items()} == counts
    assert read_pattern([2, 3, 4], straight_order="as rolled").is_straight
    assert read_pattern([6, 5, 4], straight_order="as rolled").is_straight
    out_of_order = read_pattern([4, 2, 3], straight_order="as rolled")
    assert out_of_order.pattern == "plain" and "read as rolled (a ruling" in out_of_order.steps[1]
    assert chance_to_open_melee(True, straight_order="as rolled") == Fraction(6 + 8, 216)
    assert may_open_melee([4, 2, 3], melee_ability=True).allowed
    assert not may_open_melee([4, 2, 3], melee_ability=True, straight_order="as rolled").allowed
    with pytest.raises(ValueError, match="straight order 'rolled' is unknown: allowed are 'sorted', 'as rolled'"):
        read_pattern([1, 2, 3], straight_order="rolled")


def test_pattern_needs_three_d6_faces():
    with pytest.raises(ValueError, match="exactly 3 dice"):
        read_pattern([1, 2])
    with pytest.raises(ValueError, match="7 is not a d6 face"):
        read_pattern([1, 2, 7])


@pytest.mark.parametrize("proper_range", ["1", "3", "34(5)", "56", "123456"])
@pytest.mark.parametrize("abilities", [(), ("連射",)])
@pytest.mark.parametrize("extended", list(ExtendedFace))
def test_attack_count_distribution_matches_enumeration(proper_range, abilities, extended):
    gun = weapon(proper_range, *abilities)
    assert attack_count_distribution(gun, extended=extended) == enumerate_attack_counts(gun, extended=extended)
    brute = Counter(attack_count(r, gun, extended).attacks for r in ROLLS)
    assert {k: v / 216 for k, v in brute.items()} == {k: float(p) for k, p in attack_count_distribution(gun, extended=extended).items()}


def test_triple_threes_and_once_per_turn():
    assert attack_count([3, 3, 3], weapon("3", "連射")).attacks == 3
    assert attack_count([3, 3, 3], weapon("3", "速射")).attacks == 3
    assert attack_count([3, 3, 3], weapon("3")).attacks == 1
    assert attack_count([3, 3, 3], weapon("3"), multi_attack="every_weapon").attacks == 3
    rifle = load_silhouette().weapon("assault_rifle")
    assert attack_count([5, 5, 5], rifle).attacks == 0
    assert attack_count([5, 5, 5], rifle, extended="fires").attacks == 1
    assert attack_count_distribution(rifle)[1] == 1 - Fraction(4, 6) ** 3
    with pytest.raises(ValueError, match="multi_attack 'x'"):
        attack_count([1, 1, 1], rifle, multi_attack="x")


def test_binomial_faces_and_counts():
    assert binomial_faces(3, 2)[3] == Fraction(1, 27)
    assert binomial_faces(0, 2)[0] == 1 and binomial_faces(2, 6)[2] == 1
    with pytest.raises(ValueError, match="the number of dice -1"):
        binomial_faces(-1, 2)
    assert action_dice_count().dice == 3 and action_dice_count(1).dice == 1
    assert action_dice_count(2).dice == 0 and action_dice_count(0, fell_last_turn=True).dice == 2
    with pytest.raises(ValueError, match="destroyed legs 3"):
        action_dice_count(3)


def test_initiative_sum_sensors_agility_then_d20():
    a = InitiativeSide((6, 5, 1), sensors=2, agility=1)
    assert initiative(a, InitiativeSide((3, 3, 3), 2, 1)).chooser == "A"
    tie = InitiativeSide((4, 4, 4), sensors=2, agility=2)
    assert initiative(a, tie).decided_by == "agility" and initiative(a, tie).chooser == "B"
    same = InitiativeSide((4, 4, 4), sensors=2, agility=1)
    result = initiative(a, same, d20=[(7, 7), (3, 12)])
    assert (result.chooser, result.decided_by) == ("B", "1D20")
    with pytest.raises(ValueError, match="still tied"):
        initiative(a, same)
    with pytest.raises(ValueError, match="not a 1D20 face"):
        initiative(a, same, d20=[(0, 3)])
    with pytest.raises(ValueError, match="sensors"):
        InitiativeSide((1, 2, 3), sensors=-1, agility=0)


def test_response_action_and_swap():
    spent = response_action([6, 2, 2], give_up=[2, 2])
    assert spent.remaining == (6,) and spent.active_gain == 1
    with pytest.raises(ValueError, match="exactly 2 dice"):
        response_action([6, 2, 2], give_up=[2])
    with pytest.raises(ValueError, match="cannot give up a 5"):
        response_action([6, 2, 2], give_up=[5, 2])
    swap = weapon_swap([3, 4, 1], give_up=1)
    assert swap.remaining == (3, 4)
    bayonet = load_silhouette().weapon("bayonet")
    assert weapon_swap([3, 4, 1], None, bayonet).remaining == (3, 4, 1)
    with pytest.raises(ValueError, match="say which"):
        weapon_swap([3, 4, 1], None)


def test_shooting_order_is_largest_first():
    unit = load_silhouette()
    assert shooting_order([1, 4, 3], unit.weapons) == [(4, ("assault_rifle",)), (3, ("assault_rifle",)), (1, ("bayonet",))]


def test_melee_opening():
    assert may_open_melee([2, 2, 2]).allowed and may_open_melee([2, 2, 2]).becomes_label == "後攻"
    assert not may_open_melee([2, 3, 4]).allowed and may_open_melee([2, 3, 4], melee_ability=True).allowed
    assert not may_open_melee([2, 2, 2], opponent_flying=True).allowed
    assert may_open_melee([2, 2, 2], opponent_flying=True, self_flying=True).allowed
    assert not may_open_melee([2, 2, 2], own_turn_skipped_by_stealth=True).allowed
    assert chance_to_open_melee() == Fraction(6, 216)
    assert chance_to_open_melee(True) == Fraction(30, 216) == Fraction(
        sum(may_open_melee(r, melee_ability=True).allowed for r in ROLLS), 216)


def test_swap_needed():
    from rules_lib.nemesis import Grip, swap_needed

    unit = load_silhouette()
    assert swap_needed(unit.weapon("assault_rifle")) and not swap_needed(unit.weapon("bayonet"))
    assert swap_needed(grip_from=Grip.ONE_HANDED, grip_to=Grip.TWO_HANDED)
    assert not swap_needed(grip_from="two-handed", grip_to="one-handed")
    with pytest.raises(ValueError, match="say what changes"):
        swap_needed()


def test_a_melee_weapon_is_never_a_multi_attack():
    """002 §1-1, line 159: only quick and rapid fire (速射, 連射) attack once per matching die; a melee
    weapon (射程 1, line 167) on triple 1s still attacks once, whatever the reading of multi-attacks."""
    bayonet = load_silhouette().weapon("bayonet")
    assert attack_count([1, 1, 1], bayonet).attacks == 1
    assert attack_count([1, 1, 1], bayonet, multi_attack="every_weapon").attacks == 1
