import json

import pytest

from rules_lib.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bb_roll_json_replays_the_missile_example(capsys):
    code, out, _ = run(capsys, "roll", "--system", "gundam-sentinel", "BB+14>54", "--dice", "3,6", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["total"], data["hit"], data["margin"], data["critical"]) == (62, True, 4, False)


def test_bbm_reports_criticals_and_steps_past_66(capsys):
    code, out, _ = run(capsys, "roll", "--system", "gundam-sentinel", "BBM+3>54", "--dice", "6,5", "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == 72 and data["critical"] is True and data["margin"] == 10


def test_odds_json_has_exact_fractions(capsys):
    code, out, _ = run(capsys, "odds", "--system", "gundam-sentinel", "BB+14>54", "--json")
    data = json.loads(out)
    assert code == 0 and data["hit"] == "11/18" and data["critical"] == "0"
    code, out, _ = run(capsys, "odds", "--system", "gundam-sentinel", "BBM+14>54", "--json")
    assert json.loads(out)["critical"] == "5/12"


def test_gs_general_check(capsys):
    code, out, _ = run(capsys, "roll", "--system", "gundam-sentinel", "GS+2", "--dice", "4,5", "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == 11 and data["success"] is True and data["target"] == 10
    code, out, _ = run(capsys, "odds", "--system", "gundam-sentinel", "GS>10", "--json")
    assert json.loads(out)["success"] == "1/12"


def test_text_output_and_seeded_rolls(capsys):
    code, out, _ = run(capsys, "roll", "--system", "gundam-sentinel", "BB+14>54", "--dice", "3,6")
    assert code == 0 and out.startswith("BB+14>54 = 62")
    first = run(capsys, "roll", "--system", "gundam-sentinel", "BB>54", "--seed", "7")[1]
    assert first == run(capsys, "roll", "--system", "gundam-sentinel", "BB>54", "--seed", "7")[1]


@pytest.mark.parametrize(
    "argv",
    [("roll", "--system", "gundam-sentinel", "BB+x"), ("odds", "--system", "gundam-sentinel", "BB>5x"),
     ("roll", "--system", "gundam-sentinel", "BB", "--dice", "7,1"),
     ("roll", "--system", "gundam-sentinel", "BB", "--dice", "1,2,3"),
     ("odds", "--system", "gundam-sentinel", "XX")],
)
def test_bad_commands_exit_2_with_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_plain_dice_roll_as_bcdice_generic_notation(capsys):
    """BCDice rolls generic dice in every system, so a Gundam palette's 2D6+1 line works at the table."""
    code, out, _ = run(capsys, "roll", "--system", "gundam-sentinel", "2D6+1", "--dice", "3,4")
    assert code == 0 and out.startswith("2D6+1 = 8")
    code, out, _ = run(capsys, "odds", "--system", "gundam-sentinel", "2D6>=7", "--json")
    assert code == 0 and '"success": "7/12"' in out
