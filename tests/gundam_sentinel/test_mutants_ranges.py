"""Range bands and attack direction (ranges.py) at their boundaries: values the book's checks let a
wrong rule change, and the refusals of bad arguments with the nearest good one accepted."""

import pytest

from rules_lib.geometry.hex import Hex
from rules_lib.gundam_sentinel import ranges

MODIFIERS = {"close": 2, "mid": 0, "long": -2, "extreme": None}


def test_each_band_starts_and_ends_where_the_text_says():
    """000 §6, line 280: 1-2 hexes close, 3-4 mid, 5-6 long, 7-8 extreme, 9 or more out of range."""
    assert [ranges.range_band(d) for d in range(1, 10)] == [
        "close", "close", "mid", "mid", "long", "long", "extreme", "extreme", "out of range"]
    assert ranges.in_range_of_any_weapon(8) and not ranges.in_range_of_any_weapon(9)


def test_melee_needs_an_adjacent_target():
    """000 §6, line 282: melee only against an adjacent target."""
    assert [ranges.melee_possible(d) for d in (0, 1, 2)] == [False, True, False]


def test_a_weapon_modifier_is_refused_at_a_dash_and_out_of_range():
    """000 §6, line 283: the weapon's modifier at the band; a '―' entry cannot attack there."""
    assert [ranges.weapon_modifier(MODIFIERS, d) for d in (2, 3, 6)] == [2, 0, -2]
    with pytest.raises(ValueError, match="cannot attack at extreme range"):
        ranges.weapon_modifier(MODIFIERS, 7)
    with pytest.raises(ValueError, match="out of range"):
        ranges.weapon_modifier(MODIFIERS, 9)
    # an all-range attack uses the close-range modifier whatever the distance (000 §7-6, line 385)
    assert ranges.weapon_modifier(MODIFIERS, 7, all_range=True) == 2


def test_wired_weapons_reach_close_and_mid_only():
    """000 §7-6, line 385: wired beam guns cannot attack at long range or beyond."""
    assert [ranges.wired_can_attack(d) for d in (1, 4, 5)] == [True, True, False]


def test_direction_modifier_refuses_an_unknown_direction():
    """000 §6, lines 308-313: the optional attack-direction modifier, front, side or rear (values not
    in the source text)."""
    given = ranges.DirectionModifiers(front=0, side=-1, rear=-2)
    assert [ranges.direction_modifier(d, given) for d in ("front", "side", "rear")] == [0, -1, -2]
    with pytest.raises(ValueError, match="direction 'back': allowed are"):
        ranges.direction_modifier("back", given)  # type: ignore[arg-type]


def test_facing_each_other_needs_hex_and_facing_pairs():
    """000 §1, line 21: the two sides start facing each other."""
    a, b = ranges.starting_positions()
    assert ranges.facing_each_other(a, b) is True
    assert ranges.facing_each_other(a, (b[0], 0)) is False
    with pytest.raises(ValueError, match="b .* is not \\(hex, facing\\)"):
        ranges.facing_each_other(a, (Hex(0, -9),))  # type: ignore[arg-type]
    assert b[0] == Hex(0, -9)
