"""Tests that fail on wrong versions of the hit-check rules (to_hit.py) that the book's checks let pass."""

from itertools import product

import pytest

from rules_lib.gundam_sentinel.to_hit import (
    HitOptions,
    all_range_doubles_critical,
    check_hit,
    pattern_modifiers,
    total_modifier,
)


def test_total_modifier_refuses_a_string_or_a_number_for_the_list():
    """000 §6, line 285: the final hit modifier is a sum of named modifiers, so its argument is a list
    of them; a bare string or number is refused with a message naming it, a one-item list is summed."""
    with pytest.raises(ValueError, match="modifiers 'aim' are not a list of \\(name, value\\) or Modifier"):
        total_modifier("aim")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="modifiers 5 are not a list"):
        total_modifier(5)  # type: ignore[arg-type]
    assert total_modifier([("aim", 1)]).total == 1


def test_pattern_modifiers_refuse_an_unknown_pattern_and_count_each_aim():
    """000 §2, line 129: each aim (照準) adds +1 to the next hit check; line 105: snap shot -3. A name
    that is no action pattern is refused (ValueError naming the allowed ones), not a KeyError."""
    with pytest.raises(ValueError, match="no action pattern 'aimm': allowed are"):
        pattern_modifiers(["aimm"])
    assert pattern_modifiers(["aim", "aim"]).total == 2
    assert pattern_modifiers(["aim", "snap shot"]).total == -2


#: the all-range kinds whose double is a critical for a player's attack and automatic secondary
#: damage on a player's MS: 000 §7-6, line 387 (funnels, bits), §7-7, line 403 (incoms), §7-8, line 415
#: (reflectors), §7-9, line 423 (psy-missiles), §7-19, line 504 (leader bits)
DOUBLES_CRITICAL_KINDS = ("psycommu weapon", "incom", "reflector", "psy-missile", "leader bit")


@pytest.mark.parametrize("kind", DOUBLES_CRITICAL_KINDS)
def test_an_all_range_double_of_these_kinds_is_a_critical_or_secondary_damage(kind):
    """000 lines 387, 403, 415, 423, 504: a double (ゾロ目) in the all-range attack always hits, a
    player's attack is then a critical hit and a player's MS so hit takes secondary damage. A roll of
    33 with -30 against evasion 66 would miss without the double rule."""
    options = dict(all_range=True, doubles_critical=all_range_doubles_critical(kind))
    by_player = check_hit(3, 3, -30, 66, HitOptions(**options))
    on_player = check_hit(3, 3, -30, 66, HitOptions(**options, attacker_is_player=False))
    assert (by_player.hit, by_player.critical, by_player.secondary_damage) == (True, True, False)
    assert (on_player.hit, on_player.critical, on_player.secondary_damage) == (True, False, True)


def test_the_psycho_jammers_double_only_hits():
    """000 §7-17, line 487: the psycho jammer's double always hits, and the line gives nothing more
    (no critical, no automatic secondary damage); an unknown kind is refused."""
    options = HitOptions(all_range=True, doubles_critical=all_range_doubles_critical("psycho jammer"))
    check = check_hit(3, 3, -30, 66, options)
    assert (check.hit, check.critical, check.secondary_damage) == (True, False, False)
    with pytest.raises(ValueError, match="all-range attack 'funnel': allowed are"):
        all_range_doubles_critical("funnel")
    # every double of the 36 rolls hits, and no other roll does, at this hopeless modifier
    hits = [t == u for t, u in product(range(1, 7), repeat=2) if check_hit(t, u, -30, 66, options).hit]
    assert hits == [True] * 6
