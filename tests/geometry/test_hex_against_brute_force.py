"""Hex geometry against values found independently: distances by a breadth-first walk over the
six neighbours, bearings and wedges from the hexes' centres worked out by hand (flat-topped,
circumradius 1: a column is 1.5 wide, a row sqrt(3) high), turns by trying every turn."""

import math
from collections import deque

import pytest

from rules_lib.geometry import hex as hexgeo
from rules_lib.geometry.hex import DIRECTIONS, MAX_RADIUS, Hex

ORIGIN = Hex(0, 0)
#: hexes one step away by hand: up, up-right, down-right, down, down-left, up-left
NEIGHBOURS_BY_HAND = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def walked_distances(start: Hex, radius: int) -> dict[Hex, int]:
    """Steps from ``start`` to every hex within ``radius`` steps, by a breadth-first walk."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] == radius:
            continue
        for dq, dr in NEIGHBOURS_BY_HAND:
            there = Hex(here.q + dq, here.r + dr)
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def test_the_neighbours_are_the_six_hexsides_clockwise_from_up():
    assert [(d.q, d.r) for d in DIRECTIONS] == list(NEIGHBOURS_BY_HAND)
    assert [ORIGIN.neighbour(side) for side in range(6)] == [Hex(q, r) for q, r in NEIGHBOURS_BY_HAND]


def test_distance_is_the_number_of_steps_of_a_walk():
    start = Hex(2, -1)
    for target, steps in walked_distances(start, 4).items():
        assert hexgeo.distance(start, target) == steps, target
        assert hexgeo.distance(target, start) == steps, target


@pytest.mark.parametrize("radius", [0, 1, 2, 3])
def test_hexes_within_are_those_a_walk_reaches_in_order(radius):
    centre = Hex(-1, 2)
    assert hexgeo.hexes_within(centre, radius) == sorted(walked_distances(centre, radius))


def test_hexes_within_accepts_radii_0_to_the_limit_only():
    assert len(hexgeo.hexes_within(ORIGIN, MAX_RADIUS)) == 3 * MAX_RADIUS * (MAX_RADIUS + 1) + 1
    for bad, side in ((MAX_RADIUS + 1, "above"), (-1, "below")):
        with pytest.raises(ValueError, match=f"radius {bad} is {side}"):
            hexgeo.hexes_within(ORIGIN, bad)


def test_the_third_coordinate_and_the_text_of_a_hex():
    assert Hex(2, -5).s == 3 and Hex(2, -5).cube() == (2, -5, 3)
    assert str(Hex(2, -5)) == "(2,-5)"
    assert Hex(2, -5) - Hex(1, 1) == Hex(1, -6)


@pytest.mark.parametrize("facing, front, rear", [
    (0, (5, 0, 1), (2, 3, 4)), (1, (0, 1, 2), (3, 4, 5)), (3, (2, 3, 4), (5, 0, 1)), (5, (4, 5, 0), (1, 2, 3)),
])
def test_front_and_rear_hexsides(facing, front, rear):
    assert hexgeo.front_hexsides(facing) == front
    assert hexgeo.rear_hexsides(facing) == rear
    assert hexgeo.front_hexes(ORIGIN, facing) == tuple(ORIGIN.neighbour(side) for side in front)
    assert hexgeo.rear_hexes(ORIGIN, facing) == tuple(ORIGIN.neighbour(side) for side in rear)


def test_facings_0_to_5_are_accepted_and_6_refused_as_no_hexside():
    assert hexgeo.check_facing(0) == 0 and hexgeo.check_facing(5) == 5
    for bad in (6, -1):
        with pytest.raises(ValueError, match=f"facing {bad} is not a hexside: allowed are 0 to 5"):
            hexgeo.check_facing(bad)


def test_hexside_towards_each_neighbour_and_refusing_others():
    start = Hex(3, -2)
    for side, (dq, dr) in enumerate(NEIGHBOURS_BY_HAND):
        assert hexgeo.hexside_towards(start, Hex(3 + dq, -2 + dr)) == side
    with pytest.raises(ValueError, match=r"hex \(3,0\) is not adjacent to \(3,-2\) \(distance 2\)"):
        hexgeo.hexside_towards(start, Hex(3, 0))
    with pytest.raises(ValueError, match="distance 0"):
        hexgeo.hexside_towards(start, start)


def test_a_forward_step_goes_only_into_the_three_front_hexes():
    for facing in range(6):
        fronts = {(facing + k) % 6 for k in (-1, 0, 1)}
        for side in range(6):
            to = ORIGIN.neighbour(side)
            if side in fronts:
                assert hexgeo.front_step(ORIGIN, facing, to) == side
            else:
                with pytest.raises(ValueError, match=f"hexside {side}, .* is behind the unit facing {facing}"):
                    hexgeo.front_step(ORIGIN, facing, to)


def test_turning_wraps_around_the_six_hexsides():
    assert hexgeo.turn(0, -1) == 5 and hexgeo.turn(2, 7) == 3 and hexgeo.turn(4, 0) == 4


def test_the_smallest_turn_between_two_facings_found_by_trying_each():
    for old in range(6):
        for new in range(6):
            # the turns that reach new, smallest first; 180 degrees is +3 (clockwise)
            fits = [d for d in (0, 1, -1, 2, -2, 3) if (old + d) % 6 == new]
            assert hexgeo.turn_between(old, new) == fits[0], (old, new)


def test_hex_centres_by_hand():
    assert hexgeo.center(Hex(1, 0)) == pytest.approx((1.5, math.sqrt(3) / 2))
    assert hexgeo.center(Hex(0, 1)) == pytest.approx((0.0, math.sqrt(3)))
    assert hexgeo.center(Hex(-2, 1), size=2.0) == pytest.approx((-6.0, 0.0))


#: hexes whose bearing from the origin is easy by hand (degrees clockwise from up)
BEARINGS = [
    (Hex(0, -1), 0), (Hex(1, -1), 60), (Hex(1, 0), 120), (Hex(0, 1), 180), (Hex(-1, 1), 240), (Hex(-1, 0), 300),
    (Hex(1, -2), 30), (Hex(2, -1), 90), (Hex(1, 1), 150), (Hex(-1, 2), 210), (Hex(-2, 1), 270), (Hex(-1, -1), 330),
]


@pytest.mark.parametrize("target, degrees", BEARINGS)
def test_bearing_by_hand(target, degrees):
    assert hexgeo.bearing(ORIGIN, target) == pytest.approx(degrees)
    assert hexgeo.bearing(target, ORIGIN) == pytest.approx((degrees + 180) % 360)


def test_a_hex_has_no_bearing_from_itself():
    with pytest.raises(ValueError, match=r"hex \(0,0\) is the unit's own hex"):
        hexgeo.bearing(ORIGIN, ORIGIN)


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.parametrize("target, degrees", BEARINGS)
def test_relative_bearing_is_above_minus_180_and_at_most_180(facing, target, degrees):
    expected = (degrees - 60 * facing) % 360
    expected = expected - 360 if expected > 180 else expected
    assert hexgeo.relative_bearing(ORIGIN, facing, target) == pytest.approx(expected)


#: the wedge of each hex of BEARINGS for a unit facing up; those on a line between two wedges
#: (30, 90, 150, 210, 270, 330 degrees) go to the wedge nearer the front
WEDGES_FACING_UP = {0: 0, 60: 1, 120: 2, 180: 3, 240: 4, 300: 5, 30: 0, 90: 1, 150: 2, 210: 4, 270: 5, 330: 0}


@pytest.mark.parametrize("facing", range(6))
@pytest.mark.parametrize("target, degrees", BEARINGS)
def test_sextant_by_hand(facing, target, degrees):
    relative = (degrees - 60 * facing) % 360  # turning by whole hexsides keeps it in the table
    assert hexgeo.sextant(ORIGIN, facing, target) == WEDGES_FACING_UP[relative]


@pytest.mark.parametrize("arc, inside", [
    (60, {0, 30, 330}), (120, {0, 30, 330, 60, 300}), (180, {0, 30, 60, 90, 270, 300, 330}),
    (179, {0, 30, 60, 300, 330}), (300, set(range(0, 360, 30)) - {180}), (360, set(range(0, 360, 30))),
])
def test_in_arc_by_hand_with_the_edge_inside(arc, inside):
    for target, degrees in BEARINGS:
        assert hexgeo.in_arc(ORIGIN, 0, target, arc) == (degrees in inside), (arc, degrees)


def test_in_arc_accepts_more_than_0_to_360_degrees_only():
    assert hexgeo.in_arc(ORIGIN, 0, Hex(0, -3), 0.5)
    assert not hexgeo.in_arc(ORIGIN, 0, Hex(1, -2), 0.5)
    for bad in (0, -60, 360.5):
        with pytest.raises(ValueError, match=rf"arc {bad!r} degrees: allowed are more than 0 and at most 360"):
            hexgeo.in_arc(ORIGIN, 0, Hex(0, 5), bad)


def test_range_bands_include_both_ends_and_name_what_lies_beyond():
    bands = ((1, 3, "short"), (4, 6, "medium"))
    assert [hexgeo.band(d, bands, "out of range") for d in (1, 3, 4, 6, 7)] == [
        "short", "short", "medium", "medium", "out of range"]
    with pytest.raises(ValueError, match="distance 0: a target is at least 1 hex away"):
        hexgeo.band(0, bands, "out of range")


def _degrees_from_up(target: Hex) -> float:
    """The bearing from the origin by the centres worked out by hand (x = 1.5 q, y = sqrt(3) (r + q/2))."""
    x, y = 1.5 * target.q, math.sqrt(3) * (target.r + target.q / 2)
    return math.degrees(math.atan2(x, -y)) % 360


@pytest.mark.parametrize("target, wedge", [
    (Hex(-1, 100), 3), (Hex(1, 99), 3),  # half a degree either side of straight behind
    (Hex(40, -19), 2), (Hex(20, -39), 1),  # just past the lines at 90 and 30 degrees
])
def test_far_hexes_just_off_a_line_between_wedges(target, wedge):
    degrees = _degrees_from_up(target)
    relative = degrees - 360 if degrees > 180 else degrees
    assert hexgeo.bearing(ORIGIN, target) == pytest.approx(degrees)
    assert hexgeo.relative_bearing(ORIGIN, 0, target) == pytest.approx(relative)
    assert hexgeo.sextant(ORIGIN, 0, target) == wedge
