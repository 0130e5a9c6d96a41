"""Hex-grid geometry (rules_lib.geometry.hex), shared by every system on a hex map."""

import pytest

from rules_lib.geometry import hex as hexgeo
from rules_lib.geometry.hex import DIRECTIONS, Hex


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
