"""The WIS6 ``SL<=A`` command (001 §3-1) against the rule function and brute force; single rolls, refusals and CLI lines are
data in command_cases.toml (tests/test_command_cases.py)."""

from fractions import Fraction

import pytest

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
