import pytest

from rules_lib.geometry import hex as hexgeo
from rules_lib.geometry.hex import DIRECTIONS, Hex
from rules_lib.gundam_sentinel import figures, ranges


def test_neighbours_distance_and_fronts():
    origin = Hex(0, 0)
    assert all(hexgeo.distance(origin, origin + d) == 1 for d in DIRECTIONS)
    assert hexgeo.distance(Hex(0, 0), Hex(3, -1)) == 3
    for facing in range(6):
        fronts, rears = set(hexgeo.front_hexes(origin, facing)), set(hexgeo.rear_hexes(origin, facing))
        assert len(fronts) == len(rears) == 3 and not fronts & rears
    assert hexgeo.turn(5, 1) == 0 and hexgeo.turn_between(0, 3) == 3 and hexgeo.turn_between(0, 5) == -1
    assert len(hexgeo.hexes_within(origin, 2)) == 19


@pytest.mark.parametrize("bad", [6, -1, "0", 1.0])
def test_bad_facing(bad):
    with pytest.raises(ValueError, match="facing"):
        hexgeo.front_hexes(Hex(0, 0), bad)


def test_sextants_and_arcs():
    origin = Hex(0, 0)
    for side, d in enumerate(DIRECTIONS):
        assert hexgeo.sextant(origin, 0, origin + d) == side
        assert hexgeo.sextant(origin, side, origin + d) == 0
    assert hexgeo.in_arc(origin, 0, Hex(0, -5), 60)
    assert not hexgeo.in_arc(origin, 0, Hex(0, 5), 180)
    assert hexgeo.in_arc(origin, 0, Hex(0, 5), 360)
    with pytest.raises(ValueError, match="arc"):
        hexgeo.in_arc(origin, 0, Hex(0, 5), 0)


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
