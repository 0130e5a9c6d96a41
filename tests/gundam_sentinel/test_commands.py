"""The dice commands against the book's rule functions, and every chart's exact odds by enumeration; single rolls, refusals and CLI lines are
data in command_cases.toml (tests/test_command_cases.py)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rules_lib.dice import D36_RESULTS
from rules_lib.gundam_sentinel import d36
from rules_lib.gundam_sentinel.charts import (
    Chart,
    ChartEntry,
    Effect,
    chart_odds,
    get_chart,
    load_charts,
    roll_chart,
)
from rules_lib.gundam_sentinel.commands import basic_battle, odds_command, roll_command
from rules_lib.gundam_sentinel.to_hit import HitOptions, check_hit

PAIRS = list(itertools.product(range(1, 7), repeat=2))


@pytest.mark.parametrize("mob", [False, True])
def test_bb_agrees_with_the_rules_on_the_scale_and_differs_only_in_the_critical_flag(mob):
    differ = 0
    for modifier in range(-40, 41, 3):
        for evasion in list(D36_RESULTS) + [71, 76, 81]:
            for a, b in PAIRS:
                command = basic_battle(a, b, modifier, evasion, mob)
                rule = check_hit(a, b, modifier, evasion, HitOptions(target_is_mob=mob))
                assert (command.total, command.hit, command.margin) == (rule.total, rule.hit, rule.margin)
                loose = check_hit(a, b, modifier, evasion, HitOptions(target_is_mob=mob, critical_needs_hit=False))
                assert command.critical == loose.critical
                if command.critical != rule.critical:
                    differ += 1
                    assert mob and not rule.hit and command.total >= 66  # only a missed 66+ against a mook
    assert (differ > 0) == mob


def test_off_scale_evasions_are_compared_as_numbers_like_bcdice():
    for a, b in PAIRS:
        for modifier in (-10, 0, 5, 20):
            at_30 = basic_battle(a, b, modifier, 30, False)
            assert at_30.hit == basic_battle(a, b, modifier, 26, False).hit  # 30 hits exactly when 26 does
            if at_30.hit:
                assert at_30.margin == basic_battle(a, b, modifier, 26, False).margin
            assert basic_battle(a, b, modifier, 27, False).hit == (at_30.total >= 31)
    assert basic_battle(3, 1, 0, 27, False).margin == 0  # BCDice prints 命中(+0) for 31 against 27
    assert roll_command("BB>29", dice=[3, 1]).bcdice_line() == "(BB>29) ＞ 31 ＞ 命中(+-2)"
    with pytest.raises(ValueError, match="not on the 1D36 scale"):
        check_hit(3, 1, 0, 30)  # the book's rule keeps the text's scale


def test_bbm_flags_66_even_on_a_miss():
    roll = roll_command("BBM>71", dice=[6, 6])
    assert roll.critical and roll.hit is False and roll.bcdice_line() == "(BBM>71) ＞ 66 ＞ 回避 ＞ クリティカル"
    assert not check_hit(6, 6, 0, 71, HitOptions(target_is_mob=True)).critical


@pytest.mark.parametrize("expression", ["BB", "BBM+8>30", "BB-20>11", "BBM+3>54", "GS", "GS-3>7", "BB+5>30"])
def test_command_odds_equal_counting_the_rolls(expression):
    odds = odds_command(expression)
    rolls = [roll_command(expression, dice=[a, b]) for a, b in PAIRS]
    if odds.hit is not None:
        assert odds.hit == Fraction(sum(bool(r.hit) for r in rolls), 36)
    if odds.critical is not None:
        assert odds.critical == Fraction(sum(r.critical for r in rolls), 36)
    for total, p in odds.total.items():
        assert p == Fraction(sum(r.total == total for r in rolls), 36)


def _brute_2d6(chart: Chart, modifier: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for a, b in PAIRS:
        total = a + b + modifier
        if chart.clamp:
            total = max(chart.clamp[0], min(chart.clamp[1], total))
        position = total - 1  # totals 2..12 are entries 1..11
        counts[position] = counts.get(position, 0) + 1
    return counts


@pytest.mark.parametrize("chart_id", ["ECHC", "ASDC", "PEJC", "RTJC"])
@pytest.mark.parametrize("modifier", [0, -13, -3, 1, 4, 13])
def test_2d6_chart_odds_by_enumeration(chart_id, modifier):
    chart = get_chart(chart_id)
    if modifier and not chart.modifier_allowed:
        with pytest.raises(ValueError, match="takes no modifier"):
            chart_odds(chart, modifier)
        return
    odds = chart_odds(chart, modifier)
    expected = {k: Fraction(n, 36) for k, n in _brute_2d6(chart, modifier).items()}
    assert dict(odds.entries.items()) == expected and odds.entries.total() == 1


def test_the_d66_grid_reads_row_then_column_and_each_cell_is_1_in_36():
    chart = get_chart("SDDC")
    odds = chart_odds(chart)
    assert dict(odds.entries.items()) == {p: Fraction(1, 36) for p in range(1, 37)}
    assert roll_chart(chart, (1, 6)).entry.has("faint") and roll_chart(chart, (6, 1)).entry.term == "メインスラスター破損"
    assert roll_chart(chart, (3, 6)).entry.effects == (Effect("extra AP", 1),)
    assert roll_chart(chart, (2, 1)).entry.effects == (Effect("faint check", -6),)
    assert odds.of("faint check") == Fraction(7, 36) and odds.of("destroyed") == Fraction(1, 36)


@pytest.mark.parametrize("modifier", [-14, -1, 0, 1, 3, 12])
@pytest.mark.parametrize("target", [-2, 1, 3, 6, 9])
def test_anti_aircraft_odds_by_enumeration_with_bcdice_clamps(modifier, target):
    grid = get_chart("AARC").grid
    counts: dict = {}
    for a, b in PAIRS:
        row = max(1, min(6, target))
        column = max(1, min(13, a + b + modifier))
        result = grid[row - 1][column - 1]
        counts[result] = counts.get(result, 0) + 1
    odds = chart_odds("AARC", modifier, target=target)
    assert dict(odds.entries.items()) == {k: Fraction(n, 36) for k, n in counts.items()}
    assert odds.target == max(1, min(6, target))


def test_structured_effects_the_battle_applies():
    echc = get_chart("ECHC")
    assert echc.entry(5).effects[0] == Effect("to hit", -6, which="main camera")
    assert echc.entry(10).effects == (Effect("evasion", -6),)
    assert echc.entry(2).has("destroyed") and echc.entry(12).has("destroyed")
    assert [echc.entry(t).effects[0].value for t in (7, 8, 9)] == [2, 2, 3]
    assert chart_odds(echc).of("damage multiplier") == Fraction(6 + 5 + 4, 36)  # totals 7, 8, 9
    pejc = get_chart("PEJC")
    assert chart_odds(pejc).of("killed") == Fraction(4 + 3 + 2 + 1, 36)  # totals 9..12
    assert chart_odds(pejc, 3).of("killed") == Fraction(26, 36)


def test_a_group_may_pass_its_own_chart():
    own = Chart("MY", "house escape chart", "脱出判定チャート", "2D6", tuple(
        ChartEntry(i, "脱出" if i < 7 else "死亡", "escapes" if i < 7 else "dies",
                   (Effect("escaped" if i < 7 else "killed"),)) for i in range(1, 12)), label="a house rule")
    assert chart_odds(own).of("killed") == Fraction(15, 36)
    assert roll_chart(own, (6, 6)).entry.english == "dies"
    with pytest.raises(ValueError, match="D66 grid has 36"):
        Chart("X", "x", "x", "D66", ())


def test_every_chart_has_provenance():
    for chart in load_charts().values():
        assert chart.label == "from BCDice's transcription, not in the source text"
        assert "GundamSentinel.rb" in chart.provenance and chart.referred_to
    assert d36.step_of(66) == 35


@pytest.mark.parametrize("text", ["ECHC", "SDDC", "ASDC", "PEJC+3", "RTJC-1", "AARC+1=3", "BB+5>30", "BBM", "GS+2"])
def test_the_site_rolls_every_command_on_a_click(text):
    import json

    from rules_lib.browser import roll_inline

    shown = json.loads(roll_inline(text))
    assert shown["ok"] and shown["system"] == "gundam-sentinel" and isinstance(shown["total"], int)


def test_the_working_says_when_the_total_is_floored():
    assert "floored" in roll_command("BB-20", dice=[1, 5]).steps[1]
    assert "floored" not in roll_command("BB-6", dice=[2, 1]).steps[1]  # 21 - 6 steps is exactly 11
    assert roll_command("BB-6", dice=[2, 1]).total == 11
