"""BCDice's 34 GundamSentinel test cases, replayed with their forced dice (data: bcdice_cases.toml).

BB, BBM, GS and AARC lines must equal BCDice's output exactly. For the other charts BCDice prints the
entry's full Japanese sentence, which the project does not copy (its charts are in English with the
entry's short Japanese name as a term): there the line must equal BCDice's up to the entry, and
BCDice's sentence must contain the entry's term.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from rules_lib.cli import main
from rules_lib.gundam_sentinel.charts import ChartRoll
from rules_lib.gundam_sentinel.commands import roll_command

CASES = tomllib.loads((Path(__file__).with_name("bcdice_cases.toml")).read_text(encoding="utf-8"))["test"]


def _dice(case: dict) -> list[int]:
    assert all(r["sides"] == 6 for r in case["rands"])
    return [r["value"] for r in case["rands"]]


def test_all_34_cases_are_here():
    assert len(CASES) == 34
    assert {c["game_system"] for c in CASES} == {"GundamSentinel"}


@pytest.mark.parametrize("case", CASES, ids=[f"{i:02d}-{c['input'].split()[0]}" for i, c in enumerate(CASES)])
def test_bcdice_case(case):
    result = roll_command(case["input"], dice=_dice(case))
    expected = case["output"]
    if isinstance(result, ChartRoll) and not result.chart.grid:
        head = f"{result.chart.japanese}({result.roll_text()}) ＞ "
        assert expected.startswith(head), (expected, result.bcdice_line())
        assert result.entry.term in expected[len(head):]
    else:
        assert result.bcdice_line() == expected
    data = result.to_dict()
    if isinstance(result, ChartRoll):
        if result.chart.grid:  # BCDice's condition: a number is a success
            assert data["success"] is case.get("success", False)
            assert data["success"] is not case.get("failure", False)
    else:
        flag = data.get("hit", data.get("success"))
        assert (flag is True) == case.get("success", False)
        assert (flag is False) == case.get("failure", False)
        assert data.get("critical", False) == case.get("critical", False)


BASIC = [c for c in CASES if c["input"].startswith(("BB", "GS"))]


@pytest.mark.parametrize("case", BASIC, ids=[c["input"].split()[0] for c in BASIC])
def test_format_bcdice_prints_the_line(case, capsys):
    command = case["input"].split()[0]
    dice = ",".join(str(d) for d in _dice(case))
    assert main(["roll", "--system", "gundam-sentinel", command, "--dice", dice, "--format", "bcdice"]) == 0
    assert capsys.readouterr().out == case["output"] + "\n"


def test_format_bcdice_refuses_other_systems(capsys):
    assert main(["roll", "2D6", "--dice", "3,4", "--format", "bcdice"]) == 2
    assert "gundam-sentinel" in capsys.readouterr().err


def test_json_of_every_chart_command(capsys):
    def run(*argv):
        assert main(["roll", "--system", "gundam-sentinel", *argv, "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    sddc = run("SDDC", "--dice", "3,4")
    assert (sddc["chart"], sddc["total"], sddc["row"], sddc["column"], sddc["entry"]) == ("SDDC", 34, 3, 4, 16)
    assert sddc["effects"] == [{"kind": "evasion", "dice": "1D3", "sign": -1}] and "1D3" in sddc["effect"]
    aarc = run("AARC+1=9", "--dice", "6,6")
    assert (aarc["chart"], aarc["total"], aarc["target"], aarc["result"], aarc["entry"]) == ("AARC", 13, 6, "6", 13)
    pejc = run("PEJC-5", "--dice", "1,2")
    assert (pejc["total"], pejc["entry"], pejc["effects"]) == (2, 1, [{"kind": "escaped"}])
    echc = run("ECHC", "--dice", "2,3")
    assert (echc["total"], echc["entry"], echc["term"]) == (5, 4, "頭部直撃")
    assert {"kind": "to hit", "value": -6, "which": "main camera"} in echc["effects"]
    rtjc = run("RTJC+20", "--dice", "1,1")
    assert (rtjc["total"], rtjc["entry"]) == (12, 11) and rtjc["effects"][0]["which"] == "plus another roll"
    asdc = run("ASDC", "--dice", "6,6")
    assert (asdc["total"], asdc["entry"], asdc["term"]) == (12, 11, "エンジン誘爆")
