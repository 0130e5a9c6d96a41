"""The Verse World ``VW`` command (004 §3-4-2-2) against brute force."""

from fractions import Fraction
from itertools import product

import pytest

from rules_lib.cli import main
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


def test_fumble_fails_whatever_the_total():
    rolled = commands.roll_command("VW+20>=5", dice=[1, 1])
    assert rolled.check.fumbled and rolled.success is False


@pytest.mark.parametrize("bad", ["VW+8@2", "VW+8@12/11", "VW+8>=", "VW8"])
def test_bad_commands(bad):
    with pytest.raises(ValueError):
        commands.roll_command(bad, seed=1)


def test_cli(capsys):
    assert main(["roll", "VW+8>14", "--system", "verse-world", "--dice", "3,3"]) == 0
    assert "failure" in capsys.readouterr().out
    assert main(["odds", "2D6+5>=10", "--system", "verse-world"]) == 0
    assert "success: 5/6" in capsys.readouterr().out
