import json
import subprocess
import sys

import pytest

from rules_lib.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_with_given_dice_prints_total_and_dice(capsys):
    code, out, _ = run(capsys, "roll", "2D6+3", "--dice", "4,5")
    assert code == 0
    assert out.splitlines()[:2] == ["2D6+3 = 12", "dice: 4, 5"]


def test_roll_d36_json(capsys):
    code, out, _ = run(capsys, "roll", "1D36", "--dice", "3,6", "--json")
    assert code == 0 and json.loads(out)["total"] == 36


def test_odds_json_is_exact(capsys):
    code, out, _ = run(capsys, "odds", "2D6>=10", "--json")
    assert code == 0 and json.loads(out)["success"] == "1/6"


@pytest.mark.parametrize(
    "argv",
    [("roll", "2D6+"), ("roll", "1000000D1000000"), ("odds", "100D100"), ("roll", "2D6", "--dice", "x"),
     ("roll", "2D6", "--dice", "7,1"), ("roll",), ("odds", "1D6", "--system", "nope")],
)
def test_bad_input_exits_2_with_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1


def test_module_entry_point_runs():
    completed = subprocess.run(
        [sys.executable, "-m", "rules_lib", "roll", "2D6+3", "--dice", "4,5"], capture_output=True, text=True
    )
    assert completed.returncode == 0 and completed.stdout.startswith("2D6+3 = 12")
