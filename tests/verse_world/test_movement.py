"""Square-map movement and locomotion modes (004 §3-4-2-1, §3-4-3-1)."""

import pytest

from rules_lib.geometry.square import Facing, Pose, Square
from rules_lib.verse_world import (
    MODE_KEYS,
    last_step,
    locomotion_mode,
    move_costs,
    plan_move,
    step_cost,
    terrain_cost,
    walk_path,
)


def test_base_costs_both_scales():
    c = move_costs("character")
    assert (c.forward, c.backward, c.turn_90) == (1, 2, 1)
    m = move_costs("mecha")
    assert (m.forward, m.backward, m.turn_90) == (10, 20, 10)


@pytest.mark.parametrize("mode,square,turn,mp", [
    ("roller", 7, 10, "2"), ("vernier", 6, 0, "1D6"), ("hover", 5, 10, "2D6"),
    ("thruster", 4, None, "3D6"), ("glide-pack", 5, 0, "2D6"), ("magic-board", 5, 7, "1D6"),
])
def test_modes(mode, square, turn, mp):
    costs = move_costs("mecha", mode)
    assert costs.forward == square and costs.turn_90 == turn
    assert locomotion_mode(mode).mecha_mp_per_turn == mp


def test_direction_freedom():
    assert move_costs("mecha", "vernier").sideways == 6
    assert move_costs("mecha", "vernier", diagonals=True).diagonal == 6
    assert move_costs("mecha", "roller").sideways is None
    assert move_costs("mecha", "roller").backward == 14
    assert move_costs("mecha", "roller", backward_factor=1).backward == 7


def test_clear_errors():
    with pytest.raises(ValueError, match="thruster mode moves forward only: 'backward'"):
        walk_path(["backward"], 40, scale="mecha", mode="thruster")
    with pytest.raises(ValueError, match="turning is not allowed"):
        step_cost(move_costs("mecha", "thruster"), "turn-left")
    with pytest.raises(ValueError, match="'jet pack' is unknown: allowed are walk, roller"):
        move_costs("mecha", "jet pack")
    with pytest.raises(ValueError, match="mecha special action"):
        move_costs("character", "hover")
    with pytest.raises(ValueError, match="is below 0"):
        plan_move(-5)
    with pytest.raises(ValueError, match="only forward and backward: 'left'"):
        walk_path(["left"], 5)


def test_last_step_rule():
    assert last_step(5, 10).allowed and last_step(5, 10).remaining_after == 0
    assert not last_step(0, 10).allowed
    assert last_step(25, 10).remaining_after == 15
    path = walk_path(["forward", "forward"], 15, scale="mecha")
    assert path.end.square == Square(0, -2) and path.remaining == 0
    with pytest.raises(ValueError, match="no movement points are left"):
        walk_path(["forward", "forward", "forward"], 15, scale="mecha")


def test_terrain_multiplier_rounds_up():
    assert terrain_cost(5, 2) == 10 and terrain_cost(5, "3/2") == 8
    path = walk_path(["forward"], 10, scale="mecha", terrain={Square(0, -1): 2})
    assert path.remaining == 0  # 20 asked, 10 paid under the last-step rule
    with pytest.raises(ValueError, match="more than 0"):
        terrain_cost(5, 0)


def test_reach_character_scale():
    plan = plan_move(2, scale="character")
    assert plan.squares() == {Square(0, 0), Square(0, -1), Square(0, -2), Square(0, 1),
                              Square(-1, 0), Square(1, 0)}
    no_partial = plan_move(2, scale="character", last_step_rule=False)
    assert Square(-1, 0) in no_partial.squares()  # turn left (1) + forward (1)
    assert Square(0, 1) in no_partial.squares()


def test_reach_thruster_is_a_straight_line():
    plan = plan_move(40, scale="mecha", mode="thruster", start=Pose(Square(0, 0), Facing.EAST))
    assert plan.squares() == {Square(x, 0) for x in range(0, 11)}


def test_land_roller_cannot_enter_rough_ground():
    rough = {Square(0, -2)}
    spinner = plan_move(30, scale="mecha", mode="roller", rough=rough)
    land = plan_move(30, scale="mecha", mode="roller", rough=rough, roller_kind="land-roller")
    assert Square(0, -3) in spinner.squares() and Square(0, -3) not in land.squares()


def test_every_mode_plans():
    for mode in MODE_KEYS:
        assert plan_move(30, scale="mecha", mode=mode).squares()
