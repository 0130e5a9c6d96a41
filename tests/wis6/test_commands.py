"""The WIS6 ``SL<=A`` command (001 §3-1) against the rule function and brute force."""

from fractions import Fraction

import pytest

from rules_lib.cli import main
from rules_lib.wis6 import commands, success_roll
from rules_lib.wis6.levels import DIE_SIDES


@pytest.mark.parametrize("ability", [1, 7, 13, 20, 25])
def test_odds_match_every_d20_face(ability):
    result = commands.odds_command(f"SL<={ability}")
    by_level: dict[int, Fraction] = {}
    for face in range(1, DIE_SIDES + 1):
        level = success_roll(face, ability).level
        by_level[level] = by_level.get(level, Fraction(0)) + Fraction(1, DIE_SIDES)
    assert dict(result.odds.levels.items()) == by_level
    # the level-1-or-better chance is what BCDice's generic 1D20<=A gives
    assert 1 - result.odds.failure == commands.odds_command(f"1D20<={ability}").success


def test_roll_reads_the_level_and_the_critical():
    assert commands.roll_command("SL<=13", dice=[3]).result.level == 4  # 3 <= 13/4
    assert commands.roll_command("SL<=13", dice=[14]).result.level == 0
    critical = commands.roll_command("ｓｌ＜＝13", dice=[1]).result
    assert critical.critical and critical.level == 8


def test_generic_notation_falls_through():
    result = commands.roll_command("1D20<=13", dice=[13])
    assert result.success is True and result.total == 13


@pytest.mark.parametrize("bad", ["SL<=0", "SL<=x", "SL13", "SL>=13"])
def test_bad_commands_name_the_form(bad):
    with pytest.raises(ValueError, match="SL<=|ability"):
        commands.roll_command(bad, seed=1)


def test_cli(capsys):
    assert main(["roll", "SL<=13", "--system", "wis6", "--dice", "2"]) == 0
    assert "success level 4" in capsys.readouterr().out
    assert main(["odds", "SL<=13", "--system", "wis6", "--json"]) == 0
    assert '"success": "13/20"' in capsys.readouterr().out
    assert main(["roll", "SL<=0", "--system", "wis6"]) == 2
