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


def test_figures_are_svg():
    for svg in (figures.front_hexes_figure(2), figures.turning_figure(), figures.firing_arc_figure(120),
                figures.range_bands_figure()):
        assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert figures.front_hexes_figure(0).count(">○<") == 3
