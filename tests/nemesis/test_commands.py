"""The Nemesis ``AD`` and ``OP`` commands (002 §H4, §1-1, §5-1) against brute force."""

from fractions import Fraction
from itertools import product

import pytest

from rules_lib.cli import main
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


def test_roll_reads_pattern_and_attacks():
    result = commands.roll_command("AD[3]R", dice=[3, 3, 3])
    assert result.pattern == "triple" and result.attacks == 3  # the text's triple-3s example, 002 §1-1
    assert commands.roll_command("AD[34(5)]", dice=[5, 5, 1]).attacks == 0  # a bracketed face does not fire
    assert commands.roll_command("AD", dice=[4, 2, 3]).pattern == "straight"
    assert commands.roll_command("AD1", dice=[6]).pattern is None


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


@pytest.mark.parametrize("bad", ["AD4", "AD[7]", "AD[]", "OP5", "OP99>1", "ADX"])
def test_bad_commands(bad):
    with pytest.raises(ValueError):
        commands.roll_command(bad, seed=1)


def test_cli(capsys):
    assert main(["roll", "AD", "--system", "nemesis", "--dice", "2,3,4"]) == 0
    assert "straight" in capsys.readouterr().out
    assert main(["roll", "3D6+2", "--system", "nemesis", "--dice", "1,2,3"]) == 0
    assert "= 8" in capsys.readouterr().out
