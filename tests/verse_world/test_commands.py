"""The Verse World ``VW`` command (004 §3-4-2-2) against brute force; single rolls, refusals and CLI lines are
data in command_cases.toml (tests/test_command_cases.py)."""

from fractions import Fraction
from itertools import product

import pytest

from rules_lib.verse_world import commands


@pytest.mark.parametrize("base, op, target", [(8, ">=", 14), (8, ">", 14), (0, ">=", 2), (5, ">", 20)])
def test_success_by_brute_force(base, op, target):
    wins = sum(
        (a, b) != (1, 1) and (base + a + b > target if op == ">" else base + a + b >= target)
        for a, b in product(range(1, 7), repeat=2)
    )
    result = commands.odds_command(f"VW+{base}{op}{target}")
    assert result.success == Fraction(wins, 36)
    assert result.fumble == Fraction(1, 36)
    assert result.critical == 0  # no criticals unless @ names them (not in the source text)


def test_critical_readings_are_a_named_choice():
    result = commands.odds_command("VW+8@11/12")
    assert (result.critical, result.over_critical) == (Fraction(2, 36), Fraction(1, 36))
    assert commands.roll_command("VW+8@11/12", dice=[6, 6]).check.kind == "over-critical"
    assert commands.roll_command("VW+8", dice=[6, 6]).check.kind == "normal"
