"""The rules reach the charts: a mook critical, secondary damage after the additional-damage check, escape."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_lib.gundam_sentinel import checks, damage
from rules_lib.gundam_sentinel.charts import Chart, ChartEntry, Effect, chart_odds, get_chart


def test_secondary_damage_reads_the_d66_grid_after_the_additional_check():
    hit = damage.apply_damage(9, 6, 30, additional_value=7, additional_dice=(3, 4), secondary_dice=(3, 6))
    assert hit.secondary_damage and hit.secondary.entry.term == "操縦機構破損"
    assert hit.secondary.entry.effects == (Effect("extra AP", 1),) and hit.durability == 27
    missed = damage.apply_damage(9, 6, 30, additional_value=7, additional_dice=(4, 4), secondary_dice=(3, 6))
    assert missed.secondary_damage is False and missed.secondary is None
    worse = damage.apply_damage(9, 6, 30, additional_value=7, additional_dice=(4, 4), additional_modifier=-1,
                                secondary_dice=(1, 1))
    assert worse.secondary_damage and worse.durability == 30  # 奇蹟的に無傷: this hit's damage is cancelled


def test_a_group_may_replace_the_secondary_chart():
    own = Chart("MINE", "house chart", "二次被害判定チャート", "D66",
                tuple(ChartEntry(i, "気絶", "faint check", (Effect("faint check", 0),)) for i in range(1, 37)))
    hit = damage.apply_damage(9, 6, 30, additional_value=7, additional_dice=(1, 1), secondary_dice=(6, 6),
                              secondary_chart=own)
    assert hit.secondary.chart is own and hit.secondary_effect == "faint check"


def test_critical_hit_chart_and_its_odds():
    roll = damage.critical_hit((2, 3))
    assert roll.total == 5 and roll.entry.effects[0] == Effect("to hit", -6, which="main camera")
    odds = chart_odds(get_chart("ECHC"))
    assert odds.of("destroyed") == Fraction(2, 36) and odds.of("faint") == Fraction(5, 36)


def test_escape_uses_the_chart_and_a_fainted_pilot_dies():
    assert checks.escape((1, 1), fainted=False).escaped
    late = checks.escape((3, 3), fainted=False, modifier=3)
    assert late.killed and not late.escaped and late.roll.total == 9
    fainted = checks.escape((1, 1), fainted=True)
    assert fainted.killed and fainted.roll is None
    assert checks.escape_check((3, 3), fainted=False, chart={6: "escapes"}) == "escapes"
    with pytest.raises(ValueError, match="two d6"):
        checks.escape((0, 3), fainted=False)


def test_every_chart_and_entry_term_is_in_the_glossary():
    from pathlib import Path

    from rules_lib.gundam_sentinel.charts import load_charts

    glossary = (Path(__file__).parents[2] / "book" / "gundam-sentinel" / "_glossary.md").read_text(encoding="utf-8")
    for chart in load_charts().values():
        assert chart.japanese in glossary, chart.japanese
        for entry in chart.entries:
            term = entry.term if chart.id != "RTJC" else entry.term.split("と")[0]
            assert term in glossary or term in ("２ヶ月", "３ヶ月", "４ヶ月", "５ヶ月"), term  # 1 to 6 months in one row
