"""Hostile input to the command line and the notation (issue 15, item 6)."""

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_lib.cli import main
from rules_lib.dice import DiceLimitError, DiceSyntaxError, parse, roll
from rules_lib.gundam_sentinel.commands import odds_command, parse_command


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_closed_pipe_ends_quietly():
    # rules-lib odds 200D6 | head -1
    pipeline = subprocess.run(
        f'"{sys.executable}" -m rules_lib odds 200D6 | head -1', shell=True,
        capture_output=True, text=True, timeout=120,
    )
    assert pipeline.stdout == "200D6\n"
    assert pipeline.stderr == ""


@pytest.mark.parametrize("argv", [("roll", "-1D6+10", "--dice", "4"), ("roll", "--dice", "4", "-1D6+10")])
def test_negative_expression_needs_no_double_dash(capsys, argv):
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out.splitlines()[0] == "-1D6+10 = 6"


def test_negative_seed_still_reads_as_a_seed(capsys):
    code, out, _ = run(capsys, "roll", "1D6", "--seed", "-5")
    assert code == 0 and out.startswith("1D6 = ")


@pytest.mark.parametrize(
    "argv",
    [("odds", "BB>" + "6" * 4000, "--system", "gundam-sentinel"),
     ("roll", "GS+" + "9" * 5000, "--system", "gundam-sentinel"),
     ("odds", "GS+٣>1", "--system", "gundam-sentinel"),
     ("roll", "1D6", "--seed", "9" * 5000),
     ("roll", "2D6", "--dice", "3," + "4" * 5000),
     ("roll", "1D6²"),
     ("odds", "9" * 5000)],
)
def test_system_commands_obey_the_same_limits(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert len(err) < 400  # the hostile text is not echoed in full
    assert "Exceeds the limit" not in err  # Python's own conversion message does not leak


def test_only_ascii_and_full_width_digits_are_notation():
    assert str(parse("２Ｄ６＋１")) == "2D6+1"
    assert str(parse("1D6\u3000+1")) == "1D6+1"
    for text in ("1D6²", "٣D6", "1D٦", "1D6+①", "1D6+Ⅳ"):
        with pytest.raises(DiceSyntaxError, match="expected"):
            parse(text)
    with pytest.raises(DiceSyntaxError, match="ASCII digit"):
        parse_command("GS+٣>1")
    assert odds_command("ＧＳ＋２＞１０").hit is not None


@given(st.characters(whitelist_categories=("Nd", "No", "Nl")))
def test_no_other_unicode_digit_reads_as_a_number(digit):
    if digit.isascii() or "０" <= digit <= "９":
        return
    with pytest.raises(DiceSyntaxError):
        parse(f"1D6+{digit}")


def test_long_numbers_refused_before_conversion():
    with pytest.raises(DiceLimitError, match=r"\(150 digits\) is larger than 1000000000"):
        roll("1+" + "1" * 150)
    with pytest.raises(DiceLimitError, match="5002 characters long; at most 200"):
        roll("1+" + "1" * 5000)
