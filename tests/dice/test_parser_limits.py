"""The dice parser's limits and positions, each at its boundary (`make mutation`, issue 31).

The limits are the engine's, not any text's (dice rulings: "How large may an expression be?"):
200 characters, 200 dice in all, 1,000 sides, numbers up to 1,000,000,000. Each is tested on the
value just refused and the value just accepted, the message checked, so that a limit moved by one,
a comparison turned at its edge or a refusal dropped fails here.
"""

import pytest

from rules_lib.dice import DiceLimitError, DiceSyntaxError, parse
from rules_lib.dice.parser import _Parser, bounds


def refused(text: str, match: str) -> DiceSyntaxError:
    with pytest.raises(DiceSyntaxError, match=match) as caught:
        parse(text)
    return caught.value


def test_an_expression_is_at_most_200_characters():
    assert str(parse("11" + "+1" * 99)) == "11" + "+1" * 99  # 200 characters
    error = refused("111" + "+1" * 99, "is 201 characters long; at most 200 are allowed")
    assert isinstance(error, DiceLimitError) and error.position == 201


def test_a_roll_has_1_to_200_dice():
    assert parse("200D1").value.count == 200
    assert parse("1D6").value.count == 1
    assert refused("201D1", "201 dice is too many; at most 200 are allowed").position == 1
    assert refused("0D6", "a roll needs at least 1 die, not 0").position == 1


def test_an_expression_rolls_at_most_200_dice_in_all():
    assert str(parse("100D1+100D1")) == "100D1+100D1"
    assert str(parse("199D1+1D1")) == "199D1+1D1"
    error = refused("100D1+101D1", "the expression rolls 201 dice; at most 200 are allowed in all")
    assert error.position == 7  # the roll that goes over
    refused("1D1+200D1", "rolls 201 dice")


def test_a_die_has_1_to_1000_sides():
    assert parse("1D1000").value.sides == 1000
    assert parse("1D1").value.sides == 1
    assert refused("1D1001", "1001 sides is too many; at most 1000 are allowed").position == 3
    assert refused("2+1D0", "a die needs at least 1 side, not 0").position == 5


def test_positions_count_from_1_after_spaces():
    assert refused("1 + 0D6", "at least 1 die").position == 5
    assert refused(" 2D6 / (1D6 - 1)", "can be 0").position == 6
    assert parse("1 + 2D6").value.right.position == 5
    assert parse("1 + 2D6").value.position == 3
    assert parse("12+3").value.right.position == 4


def test_a_number_is_at_most_1000000000():
    assert parse("1000000000").value.value == 1_000_000_000
    assert parse("999999999+1").value.left.value == 999_999_999
    refused("1000000001", "the number 1000000001 is larger than 1000000000")
    refused("10000000000", "the number 10000000000 is larger than 1000000000")


def test_the_parser_itself_refuses_a_long_number():
    # parse() checks the text first; the parser's own guard keeps int() safe if it is called alone
    with pytest.raises(DiceLimitError, match="the number 10000000000 is larger than 1000000000") as caught:
        _Parser("1+10000000000").parse()
    assert caught.value.position == 3


@pytest.mark.parametrize("text", ["1D6+٣", "1D6+Ⅳ", "1D6²"])
def test_a_digit_outside_ascii_and_full_width_is_refused_by_name(text):
    error = refused(text, "an ASCII digit 0-9 or a full-width digit")
    assert error.position == len(text)


def test_a_non_text_expression_is_refused_by_name():
    with pytest.raises(TypeError, match="a dice expression is a string, not int"):
        parse(26)


def test_d36_and_d66_are_the_tens_and_units_dice():
    assert [parse(f"1D{sides}").value.tens_units for sides in (35, 36, 37, 65, 66, 67)] == [
        False, True, False, False, True, False]


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("7", 7, 7),
        ("3D6", 3, 18),
        ("2D66", 22, 132),
        ("1D36", 11, 66),
        ("-2D6", -12, -2),
        ("1D6+2D4", 3, 14),
        ("1D6-2D4", -7, 4),
        ("(1D6-3)*(2D4-5)", -9, 9),
        ("1D20/2D6", -1, 11),  # corners 1/12 .. 20/2, widened by one for rounding
        ("(1D6-7)/3", -3, 1),
        ("7/2", 2, 4),
    ],
)
def test_bounds_are_the_extremes_of_a_node(text, low, high):
    assert bounds(parse(text).value) == (low, high)


@pytest.mark.parametrize(
    ("text", "ok"),
    [("6/1D6", True), ("6/(1D6-7)", True), ("6/(1D6-1)", False), ("6/(1-1D6)", False),
     ("6/(1D6-6)", False), ("6/(2-1D6)", False), ("6/-1", True), ("6/1", True), ("6/0", False)],
)
def test_a_divisor_that_can_be_0_is_refused(text, ok):
    if ok:
        parse(text)
    else:
        refused(text, "can be 0; division needs a divisor that is never 0")
