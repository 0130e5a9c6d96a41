"""rules_lib.reader: values in words, and tables of chances (issue 34)."""

from fractions import Fraction

import pytest

from rules_lib.gundam_sentinel.charts import Effect
from rules_lib.gundam_sentinel.units import Pilot
from rules_lib.gundam_sentinel.weapons import leader_bits
from rules_lib.reader import ABSENT, odds_table, reader_text
from rules_lib.wis6.special import declare_cooperation
from tests.test_reader_output import repr_found


@pytest.mark.parametrize(("value", "words"), [
    (None, ABSENT),
    (True, "yes"),
    ((5,), "5"),
    (("assault_rifle",), "assault_rifle"),
    ([], "none"),
    ({"land": 3, "air": None}, f"land: 3, air: {ABSENT}"),
    ({"level_1": 20}, "level 1: 20"),
    ({"head": [1, 20], "torso": [5]}, "head: (1, 20), torso: (5)"),
    ([[-1, 1], [0, 1]], "(-1, 1), (0, 1)"),
    (Fraction(1, 3), "1/3"),
])
def test_reader_text_writes_values_in_words(value, words):
    assert reader_text(value) == words


def test_an_odds_table_prints_lines_and_shows_a_table():
    table = odds_table({1: Fraction(1, 4), 10: Fraction(3, 4)}, "hits")
    assert str(table).splitlines() == [" 1  1/4  (25.00%)", "10  3/4  (75.00%)"]
    assert "<th>hits</th>" in table._repr_html_() and "3/4" in table._repr_html_()


@pytest.mark.parametrize("bad", [3, "12", {1: "1/2"}, {1: Fraction(3, 2)}, {1: True}])
def test_an_odds_table_refuses_what_is_not_outcomes_and_chances(bad):
    with pytest.raises((TypeError, ValueError), match="table of chances"):
        odds_table(bad)


@pytest.mark.parametrize(("value", "words"), [
    (Pilot(perception=1, reaction=2, nt=3),
     "perception +1, reaction +2, shooting +0, piloting +0, stamina +0, mental +0, NT 3"),
    (Effect("to hit", -6, which="main camera"), "to hit -6 (main camera)"),
    (Effect("extra AP", 1), "extra AP +1"),
    (leader_bits(4), "4 sets of bits (20 bits), at most 4 attacks a round"),
])
def test_result_classes_read_as_words(value, words):
    assert str(value) == words and repr_found(str(value)) == []


def test_a_cooperation_reads_as_words():
    words = str(declare_cooperation("Ben", "Asuka"))
    assert words.startswith("Ben cooperates with Asuka: neither moves nor attacks") and repr_found(words) == []
    assert str(declare_cooperation("Ben", "Asuka").release()) == "Ben's cooperation with Asuka is over"
