"""Square-grid geometry (rules_lib.geometry.square)."""

import pickle

import pytest

from rules_lib.geometry import square
from rules_lib.geometry.square import (
    ORTHOGONAL_STEPS,
    TURNS,
    Facing,
    Pose,
    Square,
    Step,
    apply_step,
    cone_squares,
    from_local,
    front_squares,
    grid_svg,
    in_cone,
    mark_rows,
    reachable,
    to_local,
)

ORIGIN = Square(5, 5)


@pytest.mark.parametrize("facing", list(Facing))
def test_local_coordinates_round_trip(facing):
    for lateral in range(-3, 4):
        for forward in range(-3, 4):
            square = from_local(ORIGIN, facing, lateral, forward)
            assert to_local(ORIGIN, facing, square) == (lateral, forward)


def test_front_squares_turn_with_the_facing():
    assert front_squares(ORIGIN, Facing.NORTH) == (Square(4, 4), Square(5, 4), Square(6, 4))
    assert front_squares(ORIGIN, Facing.EAST) == (Square(6, 4), Square(6, 5), Square(6, 6))
    assert set(front_squares(ORIGIN, Facing.SOUTH)) == {Square(4, 6), Square(5, 6), Square(6, 6)}


def test_cone_rows_grow_by_two_and_include_the_diagonals():
    squares = cone_squares(ORIGIN, Facing.WEST, 5)
    assert len(squares) == 3 + 5 + 7 + 9 + 11
    assert all(in_cone(ORIGIN, Facing.WEST, s) for s in squares)
    assert in_cone(ORIGIN, Facing.WEST, Square(0, 0))  # the diagonal edge, 5 ahead and 5 aside
    assert not in_cone(ORIGIN, Facing.WEST, Square(5, 4))  # beside
    assert not in_cone(ORIGIN, Facing.WEST, Square(6, 5))  # behind
    assert not in_cone(ORIGIN, Facing.WEST, Square(0, 5), max_distance=4)


def test_facing_parse_and_errors():
    assert Facing.parse("e") is Facing.EAST and Facing.parse(3) is Facing.WEST
    with pytest.raises(ValueError, match="allowed are north"):
        Facing.parse("up")


def test_steps_keep_facing_and_turns_keep_square():
    pose = Pose(ORIGIN, Facing.EAST)
    assert apply_step(pose, Step.FORWARD) == Pose(Square(6, 5), Facing.EAST)
    assert apply_step(pose, Step.BACKWARD_LEFT) == Pose(Square(4, 4), Facing.EAST)
    assert apply_step(pose, Step.TURN_LEFT) == Pose(ORIGIN, Facing.NORTH)


def brute_reach(start, points, cost, steps, partial):
    """Every pose reachable by trying every sequence of steps (small budgets only)."""
    found = {start}
    frontier = [(start, points)]
    while frontier:
        pose, left = frontier.pop()
        if left == 0:
            continue
        for step in steps:
            after = apply_step(pose, step)
            c = cost(pose, step, after)
            if c is None:
                continue
            if c <= left:
                rest = left - c
            elif partial:
                rest = 0
            else:
                continue
            if c == 0 and rest == left and after in found:
                continue
            found.add(after)
            frontier.append((after, rest))
    return found


@pytest.mark.parametrize("points", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("partial", [False, True])
def test_reachable_matches_trying_every_sequence(points, partial):
    costs = {Step.FORWARD: 1, Step.BACKWARD: 2, Step.TURN_LEFT: 1, Step.TURN_RIGHT: 1}

    def cost(before, step, after):
        return costs.get(step)

    steps = (*ORTHOGONAL_STEPS, *TURNS)
    start = Pose(ORIGIN, Facing.NORTH)
    reach = reachable(start, points, cost, steps=steps, last_step_with_what_is_left=partial)
    assert reach.poses() == brute_reach(start, points, cost, steps, partial)


def test_reachable_path_and_bounds():
    reach = reachable(Pose(Square(0, 0), Facing.SOUTH), 3, lambda b, s, a: 1,
                      steps=(Step.FORWARD, Step.TURN_LEFT), bounds=(2, 2))
    assert reach.squares() == {Square(0, 0), Square(0, 1), Square(1, 1), Square(1, 0)}
    path = reach.path_to(Pose(Square(1, 1), Facing.EAST))
    assert [s.label for s, _, _ in path] == ["forward", "turn-left", "forward"]
    with pytest.raises(ValueError, match="not reachable"):
        reach.path_to(Pose(Square(5, 5), Facing.EAST))


def test_reachable_rejects_bad_input():
    with pytest.raises(ValueError, match="is below 0"):
        reachable(Pose(ORIGIN, Facing.NORTH), -1, lambda b, s, a: 1)
    with pytest.raises(ValueError, match="at least 1"):
        reachable(Pose(ORIGIN, Facing.NORTH), 2, lambda b, s, a: 0)


def test_reachable_refuses_a_search_over_its_cap(monkeypatch):
    monkeypatch.setattr(square, "MAX_REACH_POSES", 50)
    with pytest.raises(ValueError, match="more than 50 poses"):
        reachable(Pose(ORIGIN, Facing.NORTH), 1_000, lambda b, s, a: 1)
    with pytest.raises(ValueError, match="movement points 1000000 is above 10000"):  # refused before any search
        reachable(Pose(ORIGIN, Facing.NORTH), 10**6, lambda b, s, a: 1)
    with pytest.raises(ValueError, match=r"map bounds \(\) are not \(width, height\)"):
        reachable(Pose(ORIGIN, Facing.NORTH), 1, lambda b, s, a: 1, bounds=())
    assert len(reachable(Pose(Square(1, 1), Facing.NORTH), 10**6, lambda b, s, a: 1, bounds=(3, 3)).poses()) == 36


def test_figures():
    rows = mark_rows(ORIGIN, Facing.NORTH, range(-1, 2), range(-1, 2), lambda s: to_local(ORIGIN, Facing.NORTH, s)[1] == 1)
    assert rows == ["〇〇〇", "×▲×", "×××"]
    svg = grid_svg(3, 2, fills={Square(1, 1): "#000"}, labels={Square(1, 1): "▲"}, title="t")
    assert svg.startswith("<svg") and svg.count("<rect") == 6 and "▲" in svg


@pytest.mark.parametrize("partial", [False, True])
@pytest.mark.parametrize("bounds", [None, (5, 4)])
def test_reachable_with_a_cost_mapping_equals_the_cost_function(partial, bounds):
    costs = {Step.FORWARD: 2, Step.BACKWARD: 3, Step.LEFT: None, Step.FORWARD_RIGHT: 3, Step.TURN_LEFT: 0,
             Step.TURN_RIGHT: 1}
    start = Pose(Square(2, 2), Facing.WEST)
    by_function = reachable(start, 9, lambda b, s, a: costs[s], steps=tuple(costs), last_step_with_what_is_left=partial,
                            bounds=bounds)
    by_mapping = reachable(start, 9, costs, steps=tuple(costs), last_step_with_what_is_left=partial, bounds=bounds)
    assert list(by_mapping.remaining.items()) == list(by_function.remaining.items())
    assert list(by_mapping.came_from.items()) == list(by_function.came_from.items())
    assert all(type(pose) is Pose and type(pose.square) is Square for pose in by_mapping.remaining)


OMNIDIRECTIONAL = {Step.FORWARD: 6, Step.BACKWARD: 6, Step.LEFT: 6, Step.RIGHT: 6, Step.TURN_LEFT: 0, Step.TURN_RIGHT: 0}
WITH_DIAGONALS = {**OMNIDIRECTIONAL, Step.FORWARD_LEFT: 9, Step.FORWARD_RIGHT: 9, Step.BACKWARD_LEFT: 9,
                  Step.BACKWARD_RIGHT: 9}


@pytest.mark.parametrize("partial", [False, True])
@pytest.mark.parametrize("costs", [OMNIDIRECTIONAL, WITH_DIAGONALS, {**OMNIDIRECTIONAL, Step.TURN_RIGHT: None}],
                         ids=["orthogonal", "diagonals", "one-turn"])
def test_a_search_where_the_facing_is_free_goes_by_square_and_finds_the_same(partial, costs):
    """Turns cost 0 and every facing moves alike: squares from the square search, poses from the pose search."""
    steps = tuple(step for step, cost in costs.items() if cost is not None)
    assert square._facing_is_free({s: costs[s] for s in steps},
                                  [(s, s.is_turn, square._STEP_OFFSETS.get(s)) for s in steps])
    start = Pose(Square(3, 2), Facing.EAST)
    by_function = reachable(start, 20, lambda b, s, a: costs[s], steps=steps, last_step_with_what_is_left=partial,
                            bounds=(7, 5))
    by_square = reachable(start, 20, costs, steps=steps, last_step_with_what_is_left=partial, bounds=(7, 5))
    assert by_square.squares() == by_function.squares()
    assert by_square.squares() == frozenset(pose.square for pose in by_square.remaining)
    assert list(by_square.remaining.items()) == list(by_function.remaining.items())
    assert list(by_square.came_from.items()) == list(by_function.came_from.items())
    assert by_square == by_function and repr(by_square) == repr(by_function)
    assert pickle.loads(pickle.dumps(by_square)) == by_function  # made when read, pickled as made


@pytest.mark.parametrize("change", [{Step.TURN_LEFT: 1, Step.TURN_RIGHT: 1}, {Step.BACKWARD: 12}])
def test_a_turn_that_costs_or_a_facing_that_changes_a_move_keeps_the_pose_search(change):
    costs = {**OMNIDIRECTIONAL, **change}
    assert not square._facing_is_free(costs, [(s, s.is_turn, square._STEP_OFFSETS.get(s)) for s in costs])
