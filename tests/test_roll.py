import pytest

from rules_lib.dice import DiceReplayError, roll


def test_given_dice_replay_a_worked_example():
    result = roll("2D6+3", dice=[4, 5])
    assert result.total == 12
    assert [d.value for d in result.dice] == [4, 5]
    assert result.steps == ("2D6: 4+5 = 9", "9 + 3 = 12")


def test_d36_reads_tens_then_units():
    assert roll("1D36", dice=[3, 6]).total == 36
    assert roll("D66", dice=[6, 1]).total == 61
    assert roll("2D66", dice=[1, 1, 6, 6]).total == 77


def test_comparison_reports_success_and_target():
    result = roll("2D6>=10", dice=[4, 6])
    assert (result.total, result.target, result.success) == (10, 10, True)
    assert roll("2D6>=10", dice=[4, 5]).success is False


def test_division_rounds_down_unless_told():
    assert roll("1D6/2", dice=[5]).total == 2
    assert roll("1D6/2U", dice=[5]).total == 3
    assert roll("1D6/2R", dice=[5]).total == 3
    assert roll("1D6/2R", dice=[4]).total == 2
    assert roll("-1D6/2", dice=[5]).total == -3


def test_seeded_rolls_repeat():
    first = roll("10D6+1D20", seed=42)
    assert first == roll("10D6+1D20", seed=42)
    assert len(first.dice) == 11


@pytest.mark.parametrize(
    ("dice", "fragment"),
    [([4], "more dice than the 1 given"), ([4, 5, 6], "uses only 2"), ([4, 7], "allowed are 1 to 6"), ([0, 1], "die 1")],
)
def test_given_dice_must_fit(dice, fragment):
    with pytest.raises(DiceReplayError) as caught:
        roll("2D6", dice=dice)
    assert fragment in str(caught.value)


def test_to_dict_is_json_ready():
    data = roll("2D6+3", dice=[4, 5]).to_dict()
    assert data["total"] == 12 and data["dice"] == [{"sides": 6, "value": 4}, {"sides": 6, "value": 5}]
