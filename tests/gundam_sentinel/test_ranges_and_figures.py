"""Gundam Sentinel range bands, attack direction and the chapter's hex figures (000 §5, §6)."""

import pytest

from rules_lib.geometry.hex import Hex
from rules_lib.gundam_sentinel import figures, ranges


def test_range_bands_and_direction():
    assert [ranges.range_band(d) for d in (1, 2, 3, 4, 5, 6, 7, 8, 9, 12)] == (
        ["close"] * 2 + ["mid"] * 2 + ["long"] * 2 + ["extreme"] * 2 + ["out of range"] * 2)
    with pytest.raises(ValueError, match="at least 1 hex"):
        ranges.range_band(0)
    assert ranges.attack_direction(Hex(0, 0), 0, Hex(0, 4)) == "rear"
    assert ranges.attack_direction(Hex(0, 0), 0, Hex(0, -4)) == "front"
    assert ranges.attack_direction(Hex(0, 0), 0, Hex(2, 0)) == "side"
    assert ranges.direction_modifier("rear", ranges.DirectionModifiers(front=0, side=-1, rear=-2)) == -2
    assert ranges.facing_each_other(*ranges.starting_positions())


@pytest.mark.parametrize("distance", range(1, 10))
def test_funnels_and_bits_take_the_band_of_their_distance(distance):
    """000 §7-6, line 386 (and §7-19, line 503): a funnel's hit check goes by its distance to the
    target as usual; the other reading, line 385's close band everywhere, stays a named option."""
    assert ranges.modifier_band(distance, funnel_or_bit=True) == ranges.range_band(distance)
    assert ranges.modifier_band(distance, funnel_or_bit=True, funnel_reading="always close and rear") == "close"
    assert ranges.modifier_band(distance, all_range=True) == "close"  # incoms, reflectors, psy-missiles ...


def test_funnels_and_bits_come_from_the_rear_only_when_adjacent():
    target = Hex(0, 0)
    for attacker in [Hex(0, 0).neighbour(side) for side in range(6)]:  # every adjacent hex, front ones too
        assert ranges.attack_direction(target, 0, attacker, funnel_or_bit=True) == "rear"
    for attacker in (Hex(0, -3), Hex(2, -1), Hex(2, 0), Hex(0, 3), Hex(-2, 1), Hex(0, -8)):
        assert ranges.attack_direction(target, 0, attacker, funnel_or_bit=True) == ranges.attack_direction(
            target, 0, attacker)
        assert ranges.attack_direction(target, 0, attacker, funnel_or_bit=True,
                                       funnel_reading="always close and rear") == "rear"
        assert ranges.attack_direction(target, 0, attacker, all_range=True) == "rear"


def test_a_funnel_out_of_range_cannot_attack_by_distance():
    modifiers = {"close": 2, "mid": 1, "long": 0, "extreme": -2}
    assert ranges.weapon_modifier(modifiers, 7, funnel_or_bit=True) == -2
    assert ranges.weapon_modifier(modifiers, 7, funnel_or_bit=True, funnel_reading="always close and rear") == 2
    with pytest.raises(ValueError, match="out of range"):
        ranges.weapon_modifier(modifiers, 9, funnel_or_bit=True)


@pytest.mark.parametrize("bad", ["close", None, 1])
def test_funnel_reading_must_be_named(bad):
    with pytest.raises(ValueError, match="funnel reading .* allowed are 'by distance', 'always close and rear'"):
        ranges.modifier_band(3, funnel_or_bit=True, funnel_reading=bad)
    with pytest.raises(ValueError, match="funnel reading"):
        ranges.attack_direction(Hex(0, 0), 0, Hex(0, -3), funnel_or_bit=True, funnel_reading=bad)


def test_figures_are_svg():
    for svg in (figures.front_hexes_figure(2), figures.turning_figure(), figures.firing_arc_figure(120),
                figures.range_bands_figure()):
        assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert figures.front_hexes_figure(0).count(">○<") == 3
