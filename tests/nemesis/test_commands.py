"""The Nemesis ``AD`` and ``OP`` commands (002 §H4, §1-1, §5-1) against brute force; single rolls, refusals and CLI lines are
data in command_cases.toml (tests/test_command_cases.py)."""

from fractions import Fraction
from itertools import product

import pytest

from rules_lib.dice import pattern
from rules_lib.nemesis import commands


def test_action_dice_patterns_by_brute_force():
    counts: dict[str, int] = {}
    for dice in product(range(1, 7), repeat=3):
        counts[pattern(dice)] = counts.get(pattern(dice), 0) + 1
    result = commands.odds_command("AD")
    assert dict(result.patterns.items()) == {k: Fraction(v, 216) for k, v in counts.items()}
    assert result.totals == commands.odds_command("3D6").distribution  # the generic roll's total
    assert commands.odds_command("AD1").totals[6] == Fraction(1, 6) and commands.odds_command("AD1").patterns is None


@pytest.mark.parametrize("faces, rapid", [("34(5)", False), ("3", True), ("6", False), ("123", True)])
def test_attack_counts_by_brute_force(faces, rapid):
    fires = {int(c) for c in faces.split("(")[0]}
    expected: dict[int, Fraction] = {}
    for dice in product(range(1, 7), repeat=3):
        matching = sum(d in fires for d in dice)
        attacks = matching if rapid else min(matching, 1)
        expected[attacks] = expected.get(attacks, Fraction(0)) + Fraction(1, 216)
    result = commands.odds_command(f"AD[{faces}]" + ("R" if rapid else ""))
    assert dict(result.attacks.items()) == expected


def test_opposed_pools_by_brute_force():
    higher = tie = 0
    for dice in product(range(1, 7), repeat=5):
        a, b = sum(dice[:3]), sum(dice[3:])
        higher += a > b
        tie += a == b
    result = commands.odds_command("OP3>2")
    assert (result.higher, result.tie) == (Fraction(higher, 6**5), Fraction(tie, 6**5))
    rolled = commands.roll_command("OP3>2", dice=[1, 2, 3, 3, 3])
    assert rolled.totals == (6, 6) and rolled.success is False  # a tie holds for the second pool
