"""Every system's dice commands share the Gundam commands' limits, and the CLI never leaks a traceback
(issue 33, item 5).

WIS6 (``SL``), Nemesis (``AD``, ``OP``) and Verse World (``VW``) read a line through the one chat
reader (:meth:`rules_lib.dice.chat.CommandSet.command`): at most 200 characters, digits ASCII or
full-width only (``SL<=٣`` is not ``SL<=3``), no number above the engine's bound, and a refusal
quotes at most an excerpt of what it was given. A closed standard output and a full disk end the
command with one line on stderr.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rules_lib.cli import main
from rules_lib.dice.errors import EXCERPT_LENGTH
from rules_lib.nemesis import commands as nemesis
from rules_lib.verse_world import commands as verse_world
from rules_lib.wis6 import commands as wis6

#: each system: its commands module, a command with a number in it (``{}``), and its name for --system
SYSTEMS = {
    "wis6": (wis6, "SL<={}"),
    "nemesis": (nemesis, "OP{}>3"),
    "verse-world": (verse_world, "VW+8>={}"),
}
#: what a refusal may add to the excerpt it quotes (the limit named, the form allowed)
MESSAGE_ROOM = 260


def _refusal(module, line: str) -> str:
    with pytest.raises(ValueError) as refused:
        module.roll_command(line, seed=1)
    with pytest.raises(ValueError):
        module.odds_command(line)
    return str(refused.value)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("digit", ["٣", "۳", "३", "৩", "³", "③", "Ⅲ"])
def test_a_digit_of_another_script_is_no_number(system, digit):
    module, form = SYSTEMS[system]
    message = _refusal(module, form.format(digit))
    assert "ASCII digit" in message or "expected" in message


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_full_width_digits_are_read_as_ascii(system):
    module, form = SYSTEMS[system]
    full_width = form.format("３").translate({ord(c): ord(c) + 0xFEE0 for c in "+<=>0123456789"})
    assert module.roll_command(full_width, seed=1).to_dict() == module.roll_command(form.format(3), seed=1).to_dict()


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("digits", [12, 150, 5000])
def test_a_long_number_is_refused_by_the_engine_not_by_python(system, digits):
    module, form = SYSTEMS[system]
    message = _refusal(module, form.format("9" * digits))
    assert "Exceeds the limit" not in message and "4300" not in message
    assert "larger than 1000000000" in message or "at most 200 are allowed" in message
    assert len(message) < EXCERPT_LENGTH + MESSAGE_ROOM


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@pytest.mark.parametrize("line", ["{}" + "A" * 100_000, "{} " + "comment " * 20_000, "{}" + "Z" * 190])
def test_a_long_line_is_refused_with_an_excerpt(system, line):
    module, form = SYSTEMS[system]
    message = _refusal(module, line.format(form.format(3)))
    assert len(message) < EXCERPT_LENGTH + MESSAGE_ROOM
    assert "A" * (EXCERPT_LENGTH + 1) not in message and "Z" * (EXCERPT_LENGTH + 1) not in message


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_cli_refuses_a_100_kb_command_in_one_short_line(system, capsys):
    _, form = SYSTEMS[system]
    assert main(["roll", "--system", system, "--seed", "1", form.format(3) + "X" * 100_000]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and len(err) < EXCERPT_LENGTH + MESSAGE_ROOM


def _shell(command: str) -> subprocess.CompletedProcess:
    return subprocess.run(f'"{sys.executable}" -m rules_lib {command}', shell=True, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("redirect, says", [(">&-", "standard output is closed"),
                                            ("> /dev/full", "could not be written: No space left on device")])
@pytest.mark.parametrize("command", ["roll 2D6 --seed 1", "odds 'SL<=13' --system wis6 --json", "--help",
                                     "sheet --system wis6 --list"])
def test_output_that_cannot_be_written_ends_in_one_line(command, redirect, says):
    if "/dev/full" in redirect and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    done = _shell(f"{command} {redirect}")
    assert done.returncode == 1
    (line,) = done.stderr.splitlines()
    assert line.startswith("rules-lib: ") and says in line


def test_bcdice_format_names_the_system_given(capsys):
    assert main(["roll", "--system", "wis6", "--format", "bcdice", "SL<=13", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "--system 'wis6' has none" in err and "gundam-sentinel (BCDice's GundamSentinel dicebot)" in err


def test_bcdice_format_does_not_claim_the_right_system_is_wrong(capsys):
    assert main(["roll", "--system", "gundam-sentinel", "--format", "bcdice", "x2 2D6", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "not 'gundam-sentinel'" not in err
    assert "'x2 2D6' is generic dice notation" in err and "leave out --format bcdice" in err
    assert main(["roll", "--system", "gundam-sentinel", "--format", "bcdice", "BB+1>30", "--dice", "3,4"]) == 0
    assert capsys.readouterr().out.startswith("(BB+1>30)")
