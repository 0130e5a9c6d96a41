"""Look-alike arguments are refused by name (issue 33, item 3): a list of the library's classes, a
mapping, a dataclass's fields, and the hand-checked cases the hostile sweep found."""

from __future__ import annotations

import pytest

from rules_lib.catalogue import UnknownExample, get_example
from rules_lib.dice.exact import Distribution
from rules_lib.dice.syntax import compare, divide
from rules_lib.geometry import square
from rules_lib.geometry.square import Facing, Pose, Square, apply_step, chebyshev, to_local
from rules_lib.gundam_sentinel.actions import MAX_PLAN_COMBINATIONS, PATTERNS, fitting_plans
from rules_lib.nemesis.silhouette import load_silhouette, silhouette_from_dict
from rules_lib.samples import sample_tables
from rules_lib.wis6.battle_state import new_battle as wis6_battle
from rules_lib.wis6.battle_state import sample_units


def test_a_list_of_units_holds_units():
    unit = sample_units()[0]
    with pytest.raises(ValueError, match=r"weapons \[None\] is not a list or tuple of Weapon"):
        type(unit)(**{**unit.__dict__, "weapons": [None]})
    assert wis6_battle().units  # the sample units pass their own check


def test_a_mapping_is_a_mapping():
    with pytest.raises(ValueError, match="probabilities 3 are not a mapping"):
        Distribution(3)
    with pytest.raises(ValueError, match="positions 3 is not a mapping"):
        from rules_lib.battle import shared_positions
        shared_positions(3)


def test_hand_checked_cases():
    with pytest.raises(UnknownExample, match="no worked example 'gs-nope'"):
        get_example("gs-nope")
    with pytest.raises(KeyError):  # still a KeyError for callers that caught one
        get_example("gs-nope")
    with pytest.raises(ValueError, match="comparison '=>' is unknown"):
        compare("=>", 1, 2)
    with pytest.raises(ValueError, match="division by 0"):
        divide(3, 0, "down")
    with pytest.raises(ValueError, match=r"squares \(\) and \(1, 2\) are not both"):
        chebyshev((), (1, 2))
    with pytest.raises(ValueError, match="step 'wrong' is not a Step"):
        apply_step(Pose(Square(0, 0), Facing.NORTH), "wrong")
    assert to_local(Square(0, 0), "east", Square(1, 0)) == to_local(Square(0, 0), Facing.EAST, Square(1, 0))
    with pytest.raises(ValueError, match="facing nan is not a direction"):
        to_local(Square(0, 0), float("nan"), Square(1, 0))
    with pytest.raises(ValueError, match="no unit sheet for model '../ss-01'"):
        load_silhouette("../ss-01")
    with pytest.raises(ValueError, match="system '..' has no sample units"):
        sample_tables("..")
    with pytest.raises(ValueError, match="missing model, name, parameters, part_durability"):
        silhouette_from_dict({})


def test_plans_are_refused_past_their_work_limit():
    with pytest.raises(ValueError, match="1 candidates in up to 1000000000 patterns are 100,001 combinations"):
        fitting_plans(3, ["normal move"], "normal MS", acting_first=True, max_patterns=10**9)
    with pytest.raises(ValueError, match=f"allowed are at most {MAX_PLAN_COMBINATIONS:,}"):
        fitting_plans(30, list(PATTERNS), "normal MS", acting_first=True, max_patterns=5)
    with pytest.raises(ValueError, match="no action pattern 'flying kick'"):
        fitting_plans(3, ["flying kick"], "normal MS", acting_first=True)


def test_an_open_search_is_bounded_by_its_points():
    with pytest.raises(ValueError, match=f"above {square.MAX_REACH_POINTS}"):
        square.reachable(Pose(Square(0, 0), Facing.NORTH), square.MAX_REACH_POINTS + 1, lambda b, s, a: 1)
