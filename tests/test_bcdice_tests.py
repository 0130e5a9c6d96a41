"""The BCDice-format test data of WIS6, Nemesis and Verse World (tests/<system>/bcdice_tests.toml).

Each file is what ``rules-lib bcdice-tests --system X`` prints now (so it is kept current), and
every case, replayed with its ``rands`` as the given dice, prints its ``output`` with
``rules-lib roll`` and answers its flags from the BCDice-API server's roll.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rules_lib import bcdice_tests
from rules_lib.api_systems import roll
from rules_lib.cli import main
from rules_lib.dice.roll import GivenDice

TESTS = Path(__file__).resolve().parent
SYSTEMS = tuple(bcdice_tests.COMMANDS)
#: the flags each system's commands can raise (WIS6 and Nemesis have no fumble; Nemesis no critical)
EXPECTED_FLAGS = {"wis6": {"success", "failure", "critical"}, "nemesis": {"success", "failure"},
                  "verse-world": {"success", "failure", "critical", "fumble"}}


def _path(system: str) -> Path:
    return TESTS / system.replace("-", "_") / "bcdice_tests.toml"


def _cases(system: str) -> list[dict]:
    return tomllib.loads(_path(system).read_text(encoding="utf-8"))["test"]


ALL_CASES = [(system, case) for system in SYSTEMS for case in _cases(system)]


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_file_is_what_the_command_prints_now(system, capsys):
    assert main(["bcdice-tests", "--system", system]) == 0
    assert capsys.readouterr().out == _path(system).read_text(encoding="utf-8"), \
        f"regenerate: rules-lib bcdice-tests --system {system} > {_path(system).relative_to(TESTS.parent)}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_command_and_flag_is_covered(system):
    cases = _cases(system)
    assert {case["game_system"] for case in cases} == {bcdice_tests.game_system(system).id}
    assert {case["input"] for case in cases} >= set(bcdice_tests.COMMANDS[system])
    assert {flag for case in cases for flag in bcdice_tests.FLAGS if case.get(flag)} == EXPECTED_FLAGS[system]
    assert any(case.get("secret") for case in cases)


@pytest.mark.parametrize(("system", "case"), ALL_CASES,
                         ids=[f"{system}-{number}-{case['input']}" for number, (system, case) in enumerate(ALL_CASES)])
def test_the_case_replays(system, case, capsys):
    values = [r["value"] for r in case["rands"]]
    assert main(["roll", "--system", system, case["input"], "--dice", ",".join(map(str, values))]) == 0
    assert capsys.readouterr().out == case["output"] + "\n"
    dice = GivenDice(values)
    answer = roll(bcdice_tests.game_system(system), case["input"], dice)
    dice.finish()  # every die of the case is drawn
    assert [r["sides"] for r in answer["rands"]] == [r["sides"] for r in case["rands"]]
    assert {flag: answer[flag] for flag in (*bcdice_tests.FLAGS, "secret")} == \
        {flag: case.get(flag, False) for flag in (*bcdice_tests.FLAGS, "secret")}


def test_an_unknown_system_is_refused(capsys):
    assert main(["bcdice-tests", "--system", "gundam-sentinel"]) == 2
    assert "wis6" in capsys.readouterr().err
