from fractions import Fraction
from itertools import product

import pytest

from rules_lib.nemesis import (
    DuelRules,
    approach,
    approach_chance,
    approacher_dice,
    duel,
    duel_odds,
    enumerate_duel_odds,
    reroll,
    shooter_dice,
)


def test_approach_dice():
    assert shooter_dice([6]) == 6 and shooter_dice([5, 3]) == 3
    assert approacher_dice(1) == 1 and approacher_dice(1, active_spent=2) == 3
    with pytest.raises(ValueError, match="no range"):
        shooter_dice([])
    with pytest.raises(ValueError, match="active value spent -1"):
        approacher_dice(1, -1)


def test_approach_must_exceed():
    assert not approach([4], [4]).success and approach([5], [4]).success
    assert approach([6, 1], [5, 3], compare="highest").success and not approach([6, 1], [5, 3]).success
    with pytest.raises(ValueError, match="compare 'max'"):
        approach([1], [1], compare="max")


@pytest.mark.parametrize("n, m", [(1, 3), (2, 2), (3, 1), (0, 1)])
@pytest.mark.parametrize("compare", ["sum", "highest"])
def test_approach_chance_matches_enumeration(n, m, compare):
    rolls_a, rolls_b = list(product(range(1, 7), repeat=n)), list(product(range(1, 7), repeat=m))
    wins = sum(approach(a, b, compare).success for a in rolls_a for b in rolls_b)
    assert approach_chance(n, m, compare) == Fraction(wins, len(rolls_a) * len(rolls_b))


def test_duel_ranking_and_multipliers():
    assert duel([2, 2, 2], [3, 4, 5]).outcome == "A" and duel([2, 2, 2], [3, 4, 5]).multiplier == 3
    assert duel([1, 2, 3], [6, 6, 5]).multiplier == 2
    assert duel([6, 6, 5], [1, 1, 6]).outcome == "A"
    assert duel([1, 2, 3], [4, 5, 6]).outcome == "mutual"
    assert duel([5, 5, 5], [2, 2, 2]).outcome == "A"
    assert duel([5, 5, 5], [2, 2, 2], DuelRules(triple_vs_triple="mutual")).outcome == "mutual"
    assert duel([3, 3, 1], [3, 3, 6]).outcome == "mutual"
    assert duel([3, 3, 1], [3, 3, 6], DuelRules(pair_key="sum")).outcome == "B"
    assert duel([6, 1, 3], [5, 2, 3]).outcome == "mutual"
    assert duel([6, 1, 3], [5, 2, 3], DuelRules(plain_key="dice_descending")).outcome == "A"
    assert duel([6, 4, 1], [6, 4, 2]).outcome == "B"
    with pytest.raises(ValueError, match="triple_vs_triple 'x'"):
        DuelRules(triple_vs_triple="x")
    as_rolled = DuelRules(straight_order="as rolled")
    assert duel([3, 1, 2], [6, 6, 5]).multiplier == 2  # sorted, 3-1-2 is a straight and beats a pair
    assert duel([3, 1, 2], [6, 6, 5], as_rolled).outcome == "B"  # as rolled it is a plain roll
    with pytest.raises(ValueError, match="straight order 'up' is unknown"):
        DuelRules(straight_order="up")


@pytest.mark.parametrize("rules", [DuelRules(), DuelRules("mutual", "sum", "dice_descending"),
                                   DuelRules(straight_order="as rolled")])
def test_fresh_duel_odds_match_all_46656_pairs(rules):
    odds = duel_odds(rules=rules)
    assert odds == enumerate_duel_odds(rules=rules)
    assert odds.win == odds.lose and odds.win + odds.mutual + odds.lose == 1


@pytest.mark.parametrize("rules", [DuelRules(), DuelRules("mutual", "sum", "dice_descending")])
def test_a_sorted_duel_ignores_the_order_of_the_dice(rules):
    """Why the reference may play each multiset once under ``straight_order="sorted"``."""
    from itertools import permutations, product
    rolls = list(product(range(1, 7), repeat=3))
    for a in rolls[::7]:
        for b in rolls:
            outcomes = {(r.outcome, r.multiplier) for r in (duel(pa, pb, rules) for pa in set(permutations(a))
                                                           for pb in set(permutations(b)))}
            assert len(outcomes) == 1, (a, b)


@pytest.mark.parametrize("kept_a, kept_b", [((3, 3, 3), ()), ((1, 2, 4), ()), ((6, 6), (2, 3, 4)), ((5,), (5, 5))])
def test_kept_duel_odds_match_enumeration(kept_a, kept_b):
    assert duel_odds(kept_a, kept_b) == enumerate_duel_odds(kept_a, kept_b)


def test_kept_triple_sixes_never_loses():
    odds = duel_odds((6, 6, 6))
    assert odds.lose == 0 and odds.mutual == Fraction(1, 216) and odds.win_triple == odds.win


def test_rerolls():
    assert reroll([1, 2, 6], [0, 1], [6, 6]).dice == (6, 6, 6)
    paid = reroll([1, 6, 6], [0], [6], paid=True)
    assert paid.dice == (6, 6, 6) and paid.active_spent == 1
    with pytest.raises(ValueError, match="paid reroll changes at most 1"):
        reroll([1, 2, 6], [0, 1], [6, 6], paid=True)
    with pytest.raises(ValueError, match="distinct indices"):
        reroll([1, 2, 6], [0, 0], [6, 6])


def test_defensive_choices_hit_automatically():
    auto = duel([1, 2, 4], [6, 6, 6], defender_choice="evasion")
    assert auto.outcome == "A" and auto.multiplier == 1
    assert duel([1, 2, 4], [6, 6, 6], defender_choice="no_melee_weapon").outcome == "A"
    with pytest.raises(ValueError, match="defender choice 'run'"):
        duel([1, 2, 4], [6, 6, 6], defender_choice="run")


def test_duel_labels_name_each_side_in_the_text_s_words():
    """002 §6-2 (lines 279-287): A's pattern first, then B's, as 三ゾロ, 3連番, ゾロ目, 出目."""
    assert duel([2, 2, 2], [1, 2, 3]).labels == ("三ゾロ", "3連番")
    assert duel([5, 5, 1], [6, 4, 1]).labels == ("ゾロ目", "出目")


def test_only_a_triple_or_a_straight_multiplies_the_winner_s_damage():
    """002 §6-2, lines 279-281: a triple win deals ×3, a straight win ×2; a pair or a plain roll wins
    with its damage as rolled."""
    assert duel([6, 6, 1], [1, 2, 4]).multiplier == 1 and duel([1, 2, 4], [6, 6, 1]).multiplier == 1
    assert duel([6, 4, 1], [5, 3, 1]).multiplier == 1 and duel([5, 3, 1], [6, 4, 1]).multiplier == 1


def test_the_approach_names_the_number_compared():
    assert "sum 5" in approach([5], [4]).steps[0]
    assert "highest die 6" in approach([6, 1], [5, 3], compare="highest").steps[0]


def test_a_reroll_position_outside_the_three_dice_is_refused():
    with pytest.raises(ValueError, match="distinct indices 0, 1, 2"):
        reroll([1, 2, 3], [0, 5], [6, 6])
