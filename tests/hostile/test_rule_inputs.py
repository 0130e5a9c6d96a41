"""Rule functions refuse nonsense by name, and costly ones refuse beyond a cap (issue 15, item 5)."""

import math
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_lib import checks
from rules_lib.dice import success_level_distribution
from rules_lib.gundam_sentinel.actions import ap_distribution
from rules_lib.gundam_sentinel.damage import largest_stopped
from rules_lib.gundam_sentinel.to_hit import HitOptions, check_hit
from rules_lib.gundam_sentinel.weapons import MAX_AUTO_FIRE_SPLITS, auto_fire_splits, spend_ammunition
from rules_lib.nemesis import abilities
from rules_lib.nemesis.action import binomial_faces
from rules_lib.nemesis.damage import apply_damage, damage_after_attenuation, penetrates
from rules_lib.verse_world import mp as vw_mp
from rules_lib.verse_world.figures import arc_svg, ranged_figure_rows, reach_svg
from rules_lib.verse_world.movement import MAX_MOVE_STEPS, plan_move
from rules_lib.wis6.levels import level_sequence
from rules_lib.wis6.rules import Wis6Error, Wis6Rules, whole


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: spend_ammunition(30, -1), "rounds used -1 is below 0: allowed are 0 or more"),
        (lambda: ap_distribution(2, borrow=1.5), "borrow 1.5 is not a whole number"),
        (lambda: ap_distribution(2, owed=-1), "owed -1 is below 0"),
        (lambda: check_hit(3, 4, 0, 45, HitOptions(target_pilot_fainted="abc")), "target_pilot_fainted 'abc' is not True or False"),
        (lambda: check_hit(3, 4, 0, 45, HitOptions(all_range=1)), "all_range 1 is not True or False"),
        (lambda: check_hit(3, 4, 0, 45, {"all_range": True}), "hit check options {'all_range': True} is not a HitOptions"),
        (lambda: damage_after_attenuation(math.nan, 2), "rolled damage nan is not a whole number"),
        (lambda: damage_after_attenuation(3.5, 2), "rolled damage 3.5 is not a whole number"),
        (lambda: damage_after_attenuation(3, 2, multiplier=2.0), "damage multiplier 2.0 is not a whole number"),
        (lambda: penetrates(math.inf, 3), "attack total inf is not a whole number"),
        (lambda: reach_svg(plan_move(3), -19, 5), "map width -19 is below 1"),
        (lambda: reach_svg(plan_move(3), 5, 5, cell=-22), "cell size -22 is below 1"),
    ],
)
def test_issue_examples_are_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()


@pytest.mark.parametrize(
    "call, cap",
    [
        (lambda: vw_mp.endurance(10_000), "allowed are 0 to 500"),
        (lambda: auto_fire_splits(60, 8), f"at most {MAX_AUTO_FIRE_SPLITS:,} are listed"),
        (lambda: plan_move(500), f"allowed are 0 to {MAX_MOVE_STEPS}"),
        (lambda: abilities.pool_odds(1000, 1000), "allowed are 0 to 200"),
        (lambda: abilities.contest_chance(10**9, 1, True), "allowed are 0 to 200"),
        (lambda: level_sequence(10**9), "allowed are 1 to 64"),
        (lambda: arc_svg(depth=10**5), "allowed are 1 to 49"),
        (lambda: ranged_figure_rows(behind=10**9), "allowed are 0 to 49"),
        (lambda: binomial_faces(10**5, 2), "allowed are 0 to 200"),
        (lambda: largest_stopped(10**9), "allowed are 0 to 10000"),
        (lambda: success_level_distribution(10, sides=10**9), "allowed are 1 to 1000"),
    ],
)
def test_costly_inputs_refuse_beyond_a_documented_cap(call, cap):
    with pytest.raises(ValueError, match=cap):
        call()


def test_just_inside_the_caps_still_answers():
    assert vw_mp.endurance(vw_mp.MAX_ENDURANCE_MP).turns.total() == 1
    assert abilities.pool_odds(200, 200).higher == abilities.pool_odds(200, 200).lower
    assert len(auto_fire_splits(10, 3)) == math.comb(9, 2)
    assert plan_move(20).squares()


HOSTILE = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5),
    st.lists(st.integers(), max_size=2), st.fractions(), st.complex_numbers(),
)


@given(HOSTILE)
def test_whole_accepts_only_ints(value):
    with pytest.raises(ValueError, match="^x .* is not a whole number$"):
        checks.whole(value, "x")


@given(st.integers(), st.integers(-50, 50), st.integers(-50, 50))
def test_whole_ranges_name_the_bounds(value, low, high):
    try:
        assert checks.whole(value, "x", minimum=low, maximum=high) == value
        assert low <= value <= high
    except ValueError as error:
        assert not low <= value <= high
        assert f"allowed are {low} to {high}" in str(error)


@given(st.floats())
def test_number_refuses_floats_unless_allowed_and_never_nan(value):
    with pytest.raises(ValueError):
        checks.number(value, "x")
    if math.isfinite(value):
        assert checks.number(value, "x", allow_float=True) == value
    else:
        with pytest.raises(ValueError, match="not a finite number"):
            checks.number(value, "x", allow_float=True)


def test_number_flag_text_choice():
    assert checks.number(Fraction(1, 3), "p", minimum=0, maximum=1) == Fraction(1, 3)
    with pytest.raises(ValueError, match="p 2 is above 1: allowed are 0 to 1"):
        checks.number(2, "p", minimum=0, maximum=1)
    for value in (0, 1, "yes", None):
        with pytest.raises(ValueError, match="is not True or False"):
            checks.flag(value, "melee")
    with pytest.raises(ValueError, match="is 201 characters long"):
        checks.text("x" * 201, "name")
    with pytest.raises(ValueError, match="is not text"):
        checks.text(3, "name")
    with pytest.raises(ValueError, match=r"mode \[\] is unknown"):
        checks.choice([], "mode", ("walk",))


def test_system_checkers_share_the_checker():
    with pytest.raises(Wis6Error, match="AP 1.5 is not a whole number"):
        whole("AP", 1.5)
    from rules_lib.nemesis.damage import UnitState
    from rules_lib.nemesis.silhouette import load_silhouette

    with pytest.raises(ValueError, match="damage nan is not a whole number"):
        apply_damage(UnitState.fresh(load_silhouette()), math.nan)
    with pytest.raises(ValueError, match="state None is not a UnitState"):
        apply_damage(None, 3)  # type: ignore[arg-type]


def _issue_33_examples():
    from rules_lib import dice
    from rules_lib.dice.shapes import pool_distribution
    from rules_lib.geometry.hex import MAX_RADIUS, Hex, hexes_within
    from rules_lib.gundam_sentinel.charts import load_charts
    from rules_lib.nemesis.action import MAX_ENUMERATED_DICE, enumerate_attack_counts
    from rules_lib.nemesis.silhouette import load_silhouette
    from rules_lib.verse_world.attack import MAX_DAMAGE_ROLLS, damage_expression
    from rules_lib.wis6.rules import halve

    grid = next(chart for chart in load_charts().values() if chart.grid)
    weapon = load_silhouette().weapons[0]
    return [
        (lambda: dice.odds(5), "dice expression 5 is not text"),
        (lambda: grid.result(1, total=-10**9), "total column -1000000000 is below 1"),
        (lambda: halve(14, "down", 0), "divisor 0 is below 1"),
        (lambda: damage_expression("2D6", rolls=10**18), f"allowed are 1 to {MAX_DAMAGE_ROLLS}"),
        (lambda: hexes_within(Hex(0, 0), 10**6), f"allowed are 0 to {MAX_RADIUS}"),
        (lambda: enumerate_attack_counts(weapon, dice=9), f"allowed are 0 to {MAX_ENUMERATED_DICE}"),
        (lambda: pool_distribution(200, 1000), "exact odds are limited to 2,001"),
    ]


@pytest.mark.parametrize("index", range(7))
def test_issue_33_examples_refuse_at_once_by_name(index):
    """The unbounded calls issue 33 named: each a ValueError with its limit, in well under a second."""
    import time

    call, message = _issue_33_examples()[index]
    began = time.process_time()
    with pytest.raises(ValueError, match=re.escape(message)):
        call()
    assert time.process_time() - began < 0.5


def test_checked_arguments_refuse_a_look_alike_by_name():
    from rules_lib.geometry.hex import Hex, bearing
    from rules_lib.wis6.levels import maximum_level

    with pytest.raises(ValueError, match="rules 3 is not a Wis6Rules"):
        maximum_level(12, rules=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"is not a Hex"):
        bearing(Hex(0, 0), (1, 0))  # type: ignore[arg-type]
    assert maximum_level(12) == maximum_level(12, rules=Wis6Rules())
