from fractions import Fraction
from itertools import product

import pytest

from rules_lib.dice.enumeration import enumerate_distribution
from rules_lib.gundam_sentinel.salvo import (
    DamageFormula,
    blast_damage,
    resolve_salvo,
    salvo_damage,
    salvo_hits,
    salvo_modifier,
    salvo_odds,
)


def test_nouvelle_gm3_example():
    salvo = resolve_salvo(3, 6, 15, 54)
    assert (salvo.modifier, salvo.check.total, salvo.check.margin, salvo.extra_hits, salvo.hits) == (14, 62, 4, 2, 3)
    assert salvo_damage("1D3+4/2", 3).text == "1D3×3+12/2"


def test_core_booster_example():
    bombs = resolve_salvo(5, 3, 6, 54)
    assert (bombs.modifier, bombs.check.margin, bombs.hits) == (5, 4, 3)
    assert salvo_damage("3D6+3", 3).text == "3D6×3+3×3"


@pytest.mark.parametrize(("margin", "fired", "hits"), [(0, 5, 0), (-3, 5, 0), (1, 5, 1), (2, 5, 2), (3, 5, 2),
                                                       (4, 15, 3), (30, 6, 6)])
def test_one_more_hit_per_two_steps_capped_at_fired(margin, fired, hits):
    assert salvo_hits(margin, fired) == hits


@pytest.mark.parametrize("bad", [0, -1, "x"])
def test_bad_missile_counts(bad):
    with pytest.raises(ValueError, match="missiles fired"):
        salvo_modifier(bad)


def test_capacity_is_one_launcher():
    with pytest.raises(ValueError, match="at most 15"):
        resolve_salvo(3, 6, 16, 54, capacity=15)


@pytest.mark.parametrize(("fired", "other", "evasion"), [(15, 0, 54), (6, 0, 54), (3, -5, 45), (1, 10, 66)])
def test_salvo_odds_match_brute_force(fired, other, evasion):
    counts = {}
    for tens, units in product(range(1, 7), repeat=2):
        step = max(0, 6 * (tens - 1) + units - 1 + fired - 1 + other)
        margin = step - (6 * (evasion // 10 - 1) + evasion % 10 - 1)
        hits = 0 if margin <= 0 else min(fired, 1 + margin // 2)
        counts[hits] = counts.get(hits, 0) + 1
    odds = salvo_odds(fired, evasion, other_modifier=other)
    assert dict(odds.hits.items()) == {h: Fraction(n, 36) for h, n in counts.items()}


def test_damage_readings_match_enumeration():
    assert salvo_damage("1D3+4/2", 3).distribution == enumerate_distribution("1D3*3+12/2")
    assert salvo_damage("1D3+4/2", 3, divisor_scope="whole").distribution == enumerate_distribution("(1D3*3+12)/2")
    assert salvo_damage("1D3+4/2", 3, dice_per_hit=True).distribution == enumerate_distribution("3D3+12/2")
    assert salvo_damage("3D6+3", 1).text == "3D6+3"


def test_damage_distribution_of_a_salvo_mixes_hits():
    odds = salvo_odds(2, 54, other_modifier=14, per_hit_damage="1D6")
    assert odds.damage.total() == 1
    assert odds.damage[0] == 0  # a miss does blast damage (000 §7-1, line 346), never 0


@pytest.mark.parametrize(("per_hit", "blast", "shown"), [
    ("1D3+4/2", None, "1D3"), ("3D6+3", None, "3D6"), ("2D6", None, "2D6"), ("3D6+3", "1D6+1", "1D6+1"),
])
def test_blast_damage_of_a_miss(per_hit, blast, shown):
    """The default is the book's ruling, one hit's dice without the bonus; an entry given replaces it.
    Either way every outcome is at least 1: the text says a miss damages the target."""
    result = blast_damage(per_hit, blast)
    assert str(result.formula) == shown
    assert result.distribution == enumerate_distribution(shown)
    assert min(result.distribution.support) >= 1
    assert "not in the source text" in " ".join(result.steps)


@pytest.mark.parametrize("bad", ["0", "0D6", "x", "1D0"])
def test_blast_damage_refuses_no_damage(bad):
    with pytest.raises(ValueError, match="damage"):
        blast_damage("1D3+4/2", bad)


@pytest.mark.parametrize(("fired", "other", "evasion", "per_hit", "blast"), [
    (15, 0, 54, "1D3+4/2", None), (6, 0, 54, "3D6+3", None), (3, -5, 45, "2D6", "1D3"), (1, 0, 54, "2D6+2", None),
])
def test_salvo_damage_odds_include_the_blast_by_enumeration(fired, other, evasion, per_hit, blast):
    """Every 1D36 roll and every damage die, resolved with resolve_salvo and rolled by hand."""
    formula = DamageFormula.parse(per_hit)
    miss = DamageFormula.parse(blast) if blast else DamageFormula(formula.count, formula.sides)
    counts: dict[int, int] = {}
    for tens, units in product(range(1, 7), repeat=2):
        hits = resolve_salvo(tens, units, fired, evasion, other_modifier=other).hits
        # each roll weighs the same: (faces of the hit's dice) × (faces of the blast's dice)
        if hits:  # the text's writing: the dice rolled once, times the hits, plus the bonus (rounded down)
            for dice in product(range(1, formula.sides + 1), repeat=formula.count):
                value = sum(dice) * hits + formula.bonus * hits // formula.divisor
                counts[value] = counts.get(value, 0) + miss.sides ** miss.count
        else:
            for dice in product(range(1, miss.sides + 1), repeat=miss.count):
                value = sum(dice) + miss.bonus // miss.divisor
                counts[value] = counts.get(value, 0) + formula.sides ** formula.count
    odds = salvo_odds(fired, evasion, other_modifier=other, per_hit_damage=per_hit, blast=blast)
    total = sum(counts.values())
    assert dict(odds.damage.items()) == {v: Fraction(n, total) for v, n in counts.items()}


@pytest.mark.parametrize("bad", ["3D", "D6", "1D3+4/0", "x"])
def test_bad_damage(bad):
    with pytest.raises(ValueError, match="damage"):
        DamageFormula.parse(bad)


@pytest.mark.parametrize("guided", [False, True])
@pytest.mark.parametrize("bonus", [False, True])
@pytest.mark.parametrize(("fired", "other", "evasion"), [(15, 0, 54), (6, 0, 54), (3, -5, 45), (6, 0, 86), (2, 30, 11)])
def test_salvo_odds_agree_with_resolve_salvo_roll_by_roll(fired, other, evasion, guided, bonus):
    """salvo_odds counts on the step distribution; resolve_salvo, roll by roll, must agree."""
    counts = {}
    for tens, units in product(range(1, 7), repeat=2):
        hits = resolve_salvo(tens, units, fired, evasion, other_modifier=other, psycommu_guided=guided,
                             guided_salvo_bonus=bonus).hits
        counts[hits] = counts.get(hits, 0) + 1
    odds = salvo_odds(fired, evasion, other_modifier=other, psycommu_guided=guided, guided_salvo_bonus=bonus)
    assert dict(odds.hits.items()) == {h: Fraction(n, 36) for h, n in counts.items()}


@pytest.mark.parametrize("per_hit", ["1D3+4/2", "3D6+3", "2D6", "1D6+5/3"])
@pytest.mark.parametrize("scope", ["bonus", "whole"])
@pytest.mark.parametrize("dice_per_hit", [False, True])
def test_salvo_odds_damage_is_salvo_damage(per_hit, scope, dice_per_hit):
    from rules_lib.gundam_sentinel.salvo import _damage_distribution

    for hits in (1, 2, 3, 7):
        expected = salvo_damage(per_hit, hits, divisor_scope=scope, dice_per_hit=dice_per_hit).distribution
        assert _damage_distribution(per_hit, hits, dice_per_hit, scope) == expected
