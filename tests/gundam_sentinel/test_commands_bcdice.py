"""BCDice's 34 GundamSentinel test cases, replayed with their forced dice (data: bcdice_cases.toml).

Each case's input is rolled whole, comment included, as BCDice reads it; every line must equal BCDice's
output exactly (a chart's entry with BCDice's full text of it, ``charts_bcdice.toml``).
"""

from __future__ import annotations

import itertools
import json
import tomllib
from pathlib import Path

import pytest

from rules_lib.cli import main
from rules_lib.gundam_sentinel.charts import ChartRoll, get_chart
from rules_lib.gundam_sentinel.commands import CHART_COMMANDS, roll_command

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
    assert result.bcdice_line() == case["output"]
    data = result.to_dict()
    assert data["comment"] == case["input"].split(None, 1)[1] and data["secret"] is False
    if isinstance(result.rolls[0], ChartRoll):
        if result.rolls[0].chart.grid:  # BCDice's condition: a number is a success
            assert data["success"] is case.get("success", False)
            assert data["success"] is not case.get("failure", False)
    else:
        flag = data.get("hit", data.get("success"))
        assert (flag is True) == case.get("success", False)
        assert (flag is False) == case.get("failure", False)
        assert data.get("critical", False) == case.get("critical", False)


@pytest.mark.parametrize("case", CASES, ids=[f"{i:02d}-{c['input'].split()[0]}" for i, c in enumerate(CASES)])
def test_format_bcdice_prints_the_line(case, capsys):
    dice = ",".join(str(d) for d in _dice(case))
    assert main(["roll", "--system", "gundam-sentinel", case["input"], "--dice", dice, "--format", "bcdice"]) == 0
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


@pytest.mark.parametrize("chart", [c for c in CHART_COMMANDS if c != "AARC"])  # AARC prints a grid's result
def test_every_chart_line_tells_its_entry_apart(chart, capsys):
    """``--format bcdice`` for each of the 36 rolls: entries that say different things print different
    texts (BCDice's full text); two positions print the same text only where BCDice's chart repeats an
    entry word for word (ECHC 6 and 7, PEJC 2 to 4, ...), and then the book's entries are equal too."""
    printed: dict[str, set[int]] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        assert main(["roll", "--system", "gundam-sentinel", chart, "--dice", f"{a},{b}", "--format", "bcdice"]) == 0
        line = capsys.readouterr().out.rstrip("\n")
        entry = roll_command(chart, dice=[a, b]).entry
        assert line.split(" ＞ ", 1)[1] == entry.bcdice
        printed.setdefault(entry.bcdice, set()).add(entry.position)
    entries = get_chart(chart).entries
    assert set().union(*printed.values()) == {e.position for e in entries}  # every entry can come up
    for positions in printed.values():
        same = {(entries[p - 1].term, entries[p - 1].english, entries[p - 1].effects) for p in positions}
        assert len(same) == 1, (chart, positions)
    assert len(printed) == len({(e.term, e.english, e.effects) for e in entries})
