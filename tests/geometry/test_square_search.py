"""`square.reachable` against a plain search written here: relax every pose until nothing
improves (no queue, no table, no border), and each of the library's three ways of searching
(step by step, a flat table, by square when the facing is free) must find the same poses, the
same points left and ways there that replay to them."""

import pytest

from rules_lib.geometry import square as square_module
from rules_lib.geometry.square import (
    DIAGONAL_STEPS,
    ORTHOGONAL_STEPS,
    TURNS,
    Facing,
    Pose,
    Square,
    Step,
    apply_step,
    cone_squares,
    reachable,
    squares_ahead,
)

ALL_STEPS = (*ORTHOGONAL_STEPS, *DIAGONAL_STEPS, *TURNS)
#: one square ahead for each facing, by hand (y grows southwards), and the facings clockwise
AHEAD_OF = {Facing.NORTH: (0, -1), Facing.EAST: (1, 0), Facing.SOUTH: (0, 1), Facing.WEST: (-1, 0)}
CLOCKWISE = (Facing.NORTH, Facing.EAST, Facing.SOUTH, Facing.WEST)
#: each step as (squares to the right, squares ahead, quarter turns clockwise), by hand
STEP_BY_HAND = {
    Step.FORWARD: (0, 1, 0), Step.BACKWARD: (0, -1, 0), Step.LEFT: (-1, 0, 0), Step.RIGHT: (1, 0, 0),
    Step.FORWARD_LEFT: (-1, 1, 0), Step.FORWARD_RIGHT: (1, 1, 0),
    Step.BACKWARD_LEFT: (-1, -1, 0), Step.BACKWARD_RIGHT: (1, -1, 0),
    Step.TURN_LEFT: (0, 0, -1), Step.TURN_RIGHT: (0, 0, 1),
}


def stepped(pose: Pose, step: Step) -> Pose:
    """The pose after a step, from the tables above."""
    right, ahead, turns = STEP_BY_HAND[step]
    index = CLOCKWISE.index(pose.facing)
    (fx, fy), (rx, ry) = AHEAD_OF[pose.facing], AHEAD_OF[CLOCKWISE[(index + 1) % 4]]
    square = Square(pose.square.x + ahead * fx + right * rx, pose.square.y + ahead * fy + right * ry)
    return Pose(square, CLOCKWISE[(index + turns) % 4])


def test_each_step_in_each_facing_by_hand():
    for facing in Facing:
        for step in Step:
            assert apply_step(Pose(Square(5, 5), facing), step) == stepped(Pose(Square(5, 5), facing), step)
    assert apply_step(Pose(Square(5, 5), Facing.NORTH), Step.FORWARD_RIGHT) == Pose(Square(6, 4), Facing.NORTH)
    assert apply_step(Pose(Square(5, 5), Facing.WEST), Step.TURN_RIGHT) == Pose(Square(5, 5), Facing.NORTH)
    assert apply_step(Pose(Square(5, 5), Facing.NORTH), Step.TURN_LEFT) == Pose(Square(5, 5), Facing.WEST)
    assert [step for step in Step if step.is_diagonal] == list(DIAGONAL_STEPS)
    assert [step for step in Step if step.is_turn] == list(TURNS)


def relaxed(start: Pose, points: int, cost_of, steps, last_step: bool, bounds) -> dict[Pose, int]:
    """The most points left at every pose reachable, by relaxing until a fixed point."""
    best = {start: points}
    changed = True
    while changed:
        changed = False
        for pose, left in list(best.items()):
            if left == 0:
                continue
            for step in steps:
                after = stepped(pose, step)
                if bounds and not (0 <= after.square.x < bounds[0] and 0 <= after.square.y < bounds[1]):
                    continue
                cost = cost_of(pose, step, after)
                if cost is None:
                    continue
                if cost <= left:
                    now = left - cost
                elif last_step:
                    now = 0
                else:
                    continue
                if now > best.get(after, -1):
                    best[after] = now
                    changed = True
    return best


def replayed(reach, target: Pose) -> tuple[Pose, int]:
    """Where a way there ends and what it leaves, stepping it from the start."""
    pose, left = reach.start, reach.points
    for step, paid, partial in reach.path_to(target):
        pose = stepped(pose, step)
        left = 0 if partial else left - paid
    return pose, left


#: costs the same everywhere: orthogonal 2, diagonal 3, a quarter turn 1
COSTS = {**dict.fromkeys(ORTHOGONAL_STEPS, 2), **dict.fromkeys(DIAGONAL_STEPS, 3), **dict.fromkeys(TURNS, 1)}
#: a facing that costs nothing and moves that are the same in every facing (an omnidirectional mode)
FREE_FACING = {**dict.fromkeys(ORTHOGONAL_STEPS, 2), **dict.fromkeys(DIAGONAL_STEPS, 3), **dict.fromkeys(TURNS, 0)}
#: forward is cheap, every other move dear, turning 1: the facing matters
AHEAD = {Step.FORWARD: 1, Step.FORWARD_LEFT: 2, Step.FORWARD_RIGHT: 2, Step.LEFT: 3, Step.RIGHT: 3,
         Step.BACKWARD: 4, Step.BACKWARD_LEFT: 5, Step.BACKWARD_RIGHT: 5, Step.TURN_LEFT: 1, Step.TURN_RIGHT: 1}
START = Pose(Square(1, 2), Facing.EAST)


@pytest.mark.parametrize("costs", [COSTS, FREE_FACING, AHEAD], ids=["fixed", "facing-free", "ahead"])
@pytest.mark.parametrize("bounds", [(5, 4), None], ids=["map", "open"])
@pytest.mark.parametrize("last_step", [False, True])
@pytest.mark.parametrize("points", [0, 1, 2, 3, 5, 7])
def test_every_way_of_searching_finds_what_relaxing_finds(costs, bounds, last_step, points):
    expected = relaxed(START, points, lambda before, step, after: costs[step], ALL_STEPS, last_step, bounds)
    by_table = reachable(START, points, costs, last_step_with_what_is_left=last_step, bounds=bounds)
    by_call = reachable(START, points, lambda before, step, after: costs[step],
                        last_step_with_what_is_left=last_step, bounds=bounds)
    for reach in (by_table, by_call):
        assert dict(reach.remaining) == expected
        assert reach.squares() == {pose.square for pose in expected}
        for target, left in expected.items():
            assert replayed(reach, target) == (target, left), target
    assert dict(by_table.came_from) == dict(by_call.came_from)
    assert by_table == by_call  # the squares a search may know beforehand are no part of its result
    assert "came_from" not in repr(by_table) and "known_squares" not in repr(by_table)


def test_by_default_a_step_must_be_paid_in_full():
    reach = reachable(START, 1, COSTS, bounds=(5, 4))
    assert dict(reach.remaining) == relaxed(START, 1, lambda b, s, a: COSTS[s], ALL_STEPS, False, (5, 4))
    assert Square(2, 2) not in reach.squares()


def test_an_open_map_takes_at_most_10000_points_a_bounded_one_more():
    turning = (Step.TURN_RIGHT,)
    assert len(reachable(START, 10_000, COSTS, steps=turning).poses()) == 4
    with pytest.raises(ValueError, match="movement points 10001 is above 10000"):
        reachable(START, 10_001, COSTS, steps=turning)
    assert len(reachable(START, 10_001, COSTS, steps=turning, bounds=(5, 4)).poses()) == 4
    assert len(reachable(START, 10_001, lambda b, s, a: 1, steps=turning, bounds=(5, 4)).poses()) == 4


def test_a_step_refused_by_the_cost_function_is_not_taken():
    wall = Square(2, 2)

    def cost(before, step, after):
        return None if after.square == wall else COSTS[step]

    reach = reachable(START, 6, cost, bounds=(5, 4))
    assert dict(reach.remaining) == relaxed(START, 6, cost, ALL_STEPS, False, (5, 4))
    assert wall not in reach.squares() and Square(3, 2) in reach.squares()


def test_only_the_steps_given_are_taken():
    steps = (Step.FORWARD, Step.TURN_RIGHT)
    reach = reachable(START, 4, COSTS, steps=steps, bounds=(5, 4))
    assert dict(reach.remaining) == relaxed(START, 4, lambda b, s, a: COSTS[s], steps, False, (5, 4))


def test_facings_at_a_square_and_a_pose_out_of_reach():
    reach = reachable(START, 1, COSTS, bounds=(5, 4))
    assert reach.facings_at(START.square) == (Facing.NORTH, Facing.EAST, Facing.SOUTH)
    with pytest.raises(ValueError, match=r"pose \(3, 2\) facing east is not reachable with 1 points"):
        reach.path_to(Pose(Square(3, 2), Facing.EAST))


def test_a_start_off_the_map_and_a_free_move_are_refused():
    with pytest.raises(ValueError, match=r"start square \(5, 0\) is outside the 5x4 map"):
        reachable(Pose(Square(5, 0), Facing.NORTH), 3, COSTS, bounds=(5, 4))
    assert reachable(Pose(Square(4, 3), Facing.NORTH), 0, COSTS, bounds=(5, 4)).squares() == {Square(4, 3)}
    with pytest.raises(ValueError, match="step forward costs 0: a step must cost 0 or more, and a move to another square at least 1"):
        reachable(START, 3, lambda before, step, after: 0)
    with pytest.raises(ValueError, match="costs -1"):
        reachable(START, 3, lambda before, step, after: -1)


def test_cones_and_runs_ahead_go_at_most_100_squares():
    origin = Square(0, 0)
    assert cone_squares(origin, Facing.NORTH, 1) == (Square(-1, -1), Square(0, -1), Square(1, -1))
    assert len(cone_squares(origin, Facing.NORTH, 100)) == sum(2 * n + 1 for n in range(1, 101))
    assert squares_ahead(origin, Facing.EAST, 100)[-1] == Square(100, 0)
    with pytest.raises(ValueError, match="cone depth 101 is above 100"):
        cone_squares(origin, Facing.NORTH, 101)
    with pytest.raises(ValueError, match="squares ahead 101 is above 100"):
        squares_ahead(origin, Facing.NORTH, 101)


def test_a_search_may_keep_exactly_the_most_poses_allowed(monkeypatch):
    everywhere = Pose(Square(0, 0), Facing.NORTH)
    monkeypatch.setattr(square_module, "MAX_REACH_POSES", 48)  # a 4 x 3 map in 4 facings
    assert len(reachable(everywhere, 30, lambda b, s, a: COSTS[s], bounds=(4, 3)).poses()) == 48
    monkeypatch.setattr(square_module, "MAX_REACH_POSES", 47)
    with pytest.raises(ValueError, match="reaches more than 47 poses"):
        reachable(everywhere, 30, lambda b, s, a: COSTS[s], bounds=(4, 3))


@pytest.mark.parametrize("bounds", [(5, 4), None])
def test_a_table_of_costs_with_a_free_move_or_a_negative_turn_is_refused(bounds):
    with pytest.raises(ValueError, match="step forward costs 0: a step must cost 0 or more"):
        reachable(START, 3, {Step.FORWARD: 0, Step.TURN_LEFT: 1}, bounds=bounds)
    with pytest.raises(ValueError, match="step turn-left costs -1"):
        reachable(START, 3, {Step.FORWARD: 1, Step.TURN_LEFT: -1}, bounds=bounds)
    free_turns = reachable(START, 1, {Step.FORWARD: 1, Step.TURN_LEFT: 0}, bounds=bounds)
    assert len(free_turns.poses()) == 8  # four facings on the start square and on the one ahead
