"""What a roll shows of its working (rules_lib.dice.roll): each step, the verdict and the dice."""

from rules_lib.dice import roll


def test_each_kind_of_step_in_the_working():
    assert roll("2D6+1", dice=[3, 4]).steps == ("2D6: 3+4 = 7", "7 + 1 = 8")
    assert roll("1D6", dice=[5]).steps == ("1D6: 5",)
    assert roll("2D66", dice=[1, 2, 3, 4]).steps == ("2D66: tens and units 12+34 = 46",)
    assert roll("1D66", dice=[1, 2]).steps == ("1D66: tens and units 12",)
    assert roll("7/2").steps == ("7 / 2 = 3 rounded down",)
    assert roll("7/2U").steps == ("7 / 2 = 4 rounded up",)
    assert roll("7/2R").steps == ("7 / 2 = 4 rounded to nearest",)
    assert roll("8/2").steps == ("8 / 2 = 4",)
    assert roll("3*4-5").steps == ("3 * 4 = 12", "12 - 5 = 7")
    assert roll("-1D6", dice=[2]).total == -2


def test_a_comparison_gives_its_target_and_verdict():
    hit = roll("2D6>=7", dice=[3, 4])
    assert (hit.total, hit.target, hit.success) == (7, 7, True)
    assert hit.steps[-1] == "7 >= 7: success"
    miss = roll("2D6>=1D6+5", dice=[1, 2, 6])
    assert (miss.total, miss.target, miss.success) == (3, 11, False)
    assert miss.steps[-1] == "3 >= 11: failure"
    assert roll("2D6", dice=[1, 1]).success is None


def test_the_text_and_the_record_of_a_roll():
    result = roll("2D6>=7", dice=[3, 4])
    assert result.text() == "2D6>=7 = 7\ndice: 3, 4\n  2D6: 3+4 = 7\n  7 >= 7: success\nsuccess"
    assert roll("3").text() == "3 = 3\ndice: none"
    assert roll("2D6>=9", dice=[3, 4]).text().endswith("failure")
    assert str(result) == "2D6>=7\n  2D6: 3+4 = 7\n  7 >= 7: success"
    assert result.to_dict() == {
        "expression": "2D6>=7", "total": 7, "dice": [{"sides": 6, "value": 3}, {"sides": 6, "value": 4}],
        "steps": ["2D6: 3+4 = 7", "7 >= 7: success"], "success": True, "target": 7,
    }
