import pytest

from rules_lib.dice import DiceLimitError, DiceSyntaxError, parse
from rules_lib.dice.parser import MAX_DICE, MAX_EXPRESSION_LENGTH


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("2D6+3", "2D6+3"),
        ("2d6+3", "2D6+3"),
        ("D66", "1D66"),
        ("1D36", "1D36"),
        ("3D6>=12", "3D6>=12"),
        ("1D3×3+12/2", "1D3*3+12/2"),
        ("３Ｄ６＋３", "3D6+3"),
        ("(1D6+2)*3/2U", "(1D6+2)*3/2U"),
        ("10/3R", "10/3R"),
        ("1-(2-3)", "1-(2-3)"),
        ("-1D6", "-1D6"),
        ("2D6 <> 7", "2D6<>7"),
        (" 2 D 6 ", "2D6"),
    ],
)
def test_reads_the_notation(text, shown):
    assert str(parse(text)) == shown


def test_d36_and_d66_are_tens_and_units():
    assert parse("1D36").value.tens_units
    assert parse("D66").value.tens_units
    assert not parse("1D6").value.tens_units


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("2D6+", 5, "a number, a dice roll"),
        ("3D", 3, "the number of sides"),
        ("(2D6", 5, "')'"),
        ("2D6)", 4, "an operator"),
        ("", 1, "a number"),
        ("2D6>=", 6, "a number"),
        ("2D6 ? 3", 5, "an operator"),
        ("2D6>3>4", 6, "an operator"),
    ],
)
def test_syntax_errors_name_position_and_expectation(text, position, expected):
    with pytest.raises(DiceSyntaxError) as caught:
        parse(text)
    assert caught.value.position == position
    assert expected in caught.value.expected
    assert f"position {position}" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1000000D1000000", f"at most {MAX_DICE}"),
        ("1D1000000", "sides is too many"),
        ("0D6", "at least 1 die"),
        ("1D0", "at least 1 side"),
        ("150D6+150D6", "in all"),
        ("1" * 12, "larger than"),
        ("1+" * 150 + "1", f"at most {MAX_EXPRESSION_LENGTH}"),
        ("6/(1D6-1)", "can be 0"),
        ("6/0", "can be 0"),
    ],
)
def test_oversized_or_impossible_requests_are_refused(text, fragment):
    with pytest.raises(DiceLimitError) as caught:
        parse(text)
    assert fragment in str(caught.value)
    assert isinstance(caught.value, DiceSyntaxError) and isinstance(caught.value, ValueError)


def test_leading_zeros_do_not_count_toward_the_number_limit():
    assert str(parse("1D6+0000000000005")) == "1D6+5"
    assert str(parse("0" * 150 + "1000000000")) == "1000000000"  # the bound itself, however written
    with pytest.raises(DiceLimitError, match="larger than 1000000000"):
        parse("00001000000001")


def test_non_string_is_a_type_error():
    with pytest.raises(TypeError):
        parse(26)
