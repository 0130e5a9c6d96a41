"""BCDice's chat-line conventions for every system's commands (``rules_lib.dice.chat``): a comment after a
space, the secret ``S``, ``xN``/``repN``/``repeatN`` repetition, arithmetic in a target, the limits; and
Gundam Sentinel's text for them, as BCDice prints it."""

from __future__ import annotations

import importlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_lib.cli import SYSTEMS, main, roll_text
from rules_lib.dice.chat import GENERIC, MAX_REPEAT, ChatRoll, read_line
from rules_lib.dice.parser import MAX_EXPRESSION_LENGTH
from rules_lib.gundam_sentinel.commands import roll_command as gundam_roll

#: one command of each system with its dice, and what its JSON says
ONE = {"generic": ("2D6+3", [4, 5], {"total": 12}),
       "gundam-sentinel": ("BB+5>30", [6, 5], {"total": 74, "hit": True}),
       "wis6": ("SL<=13", [3], {"level": 4}),
       "nemesis": ("AD[3]R", [3, 3, 3], {"pattern": "triple", "attacks": 3}),
       "verse-world": ("VW+8>=10", [1, 1], {"success": False, "kind": "fumble"})}


def _json(capsys, *argv: str) -> dict:
    assert main(["roll", *argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _refusal(capsys, *argv: str) -> str:
    assert main(["roll", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    return err


@pytest.mark.parametrize("system", ONE)
def test_a_comment_after_a_space_is_kept_and_not_read(system, capsys):
    command, dice, expected = ONE[system]
    for comment in ("【射撃】rifle at 4 hexes", "#1st try", "回避　二回目"):
        data = _json(capsys, f"{command} {comment}", "--system", system, "--dice", ",".join(map(str, dice)))
        assert data.items() >= expected.items() and data["comment"] == comment and data["secret"] is False
    ideographic = _json(capsys, f"{command}\u3000射撃", "--system", system, "--dice", ",".join(map(str, dice)))
    assert ideographic["comment"] == "射撃"


@pytest.mark.parametrize(("system", "line"), [
    ("gundam-sentinel", "BB +14 >54"), ("gundam-sentinel", "GS +5>10"), ("gundam-sentinel", "BB+5 ＞30"),
    ("wis6", "SL<=13 +2"), ("nemesis", "AD [3]R"), ("nemesis", "OP5 >3"), ("verse-world", "VW +8"),
    ("verse-world", "VW+8 >=10"), ("generic", "2D6 +3"), ("generic", "1D20 <=13"),
])
def test_a_command_split_by_a_space_is_refused_not_shortened(system, line, capsys):
    err = _refusal(capsys, line, "--system", system, "--seed", "1")
    assert "goes on with the command" in err and "without spaces" in err


@pytest.mark.parametrize("system", ONE)
def test_the_secret_prefix_marks_the_result(system, capsys):
    command, dice, expected = ONE[system]
    data = _json(capsys, "S" + command, "--system", system, "--dice", ",".join(map(str, dice)))
    assert data["secret"] is True and data.items() >= expected.items()
    assert main(["roll", "s" + command + " 隠し", "--system", system, "--dice", ",".join(map(str, dice))]) == 0
    assert capsys.readouterr().out.startswith("secret roll: ")


@pytest.mark.parametrize(("system", "line", "secret", "command"), [
    ("wis6", "SL<=13", False, "SL<=13"),  # WIS6's SL, not a secret L<=13
    ("wis6", "SSL<=13", True, "SL<=13"),
    ("gundam-sentinel", "SDDC", False, "SDDC"),  # the chart, not a secret DDC
    ("gundam-sentinel", "SSDDC", True, "SDDC"),
    ("gundam-sentinel", "S2D6", True, "2D6"),
    ("nemesis", "SOP5>3", True, "OP5>3"),
    ("generic", "SD66", True, "D66"),
])
def test_s_is_the_secret_prefix_only_before_a_command(system, line, secret, command):
    commands = GENERIC if system == "generic" else importlib.import_module(
        f"rules_lib.{system.replace('-', '_')}.commands").COMMANDS
    read = commands.read(line)
    assert (read.secret, read.command) == (secret, command)


@pytest.mark.parametrize("system", ONE)
@pytest.mark.parametrize("word", ["x", "X", "rep", "repeat", "REPEAT"])
def test_repetition_rolls_the_command_n_times_with_the_dice_in_order(system, word, capsys):
    command, dice, expected = ONE[system]
    data = _json(capsys, f"{word}3 {command} 三回", "--system", system, "--dice", ",".join(map(str, dice * 3)))
    assert data["repeat"] == 3 and data["comment"] == "三回" and data["secret"] is False
    assert len(data["rolls"]) == 3 and all(roll.items() >= expected.items() for roll in data["rolls"])
    assert _json(capsys, f"S{word}2 {command}", "--system", system, "--seed", "4")["secret"] is True
    assert _json(capsys, f"{word}2 S{command}", "--system", system, "--seed", "4")["secret"] is True


@pytest.mark.parametrize(("line", "error"), [
    ("x0 2D6", f"1 to {MAX_REPEAT} times"), (f"x{MAX_REPEAT + 1} 2D6", f"1 to {MAX_REPEAT} times"),
    ("x3 x2 2D6", "cannot repeat another"), ("rep2 repeat3 2D6", "cannot repeat another"),
    ("", "the command is empty"), ("   ", "the command is empty"), ("\u3000", "the command is empty"),
    ("2D6 " + "c" * MAX_EXPRESSION_LENGTH, f"at most {MAX_EXPRESSION_LENGTH} are allowed, its comment included"),
    ("1D6+10000000001", "larger than 1000000000"),
])
def test_limits_and_empty_lines_are_refused_by_name(line, error, capsys):
    for system in SYSTEMS:
        assert error in _refusal(capsys, line, "--system", system, "--seed", "1")


def test_the_real_bounds_pass():
    assert len(gundam_roll(f"x{MAX_REPEAT} BB", seed=1).rolls) == MAX_REPEAT
    assert gundam_roll("x03 BB", seed=1).line.repeat == 3
    assert gundam_roll("BBM+0000000000005", dice=[5, 1]).total == 56  # 5, not "larger than" (leading zeros)
    assert gundam_roll("BB+1000000000", dice=[1, 1]).modifier == 1_000_000_000
    line = "2D6 " + "c" * (MAX_EXPRESSION_LENGTH - 4)
    assert SYSTEMS["generic"][0](line, seed=1).comment == "c" * (MAX_EXPRESSION_LENGTH - 4)


@pytest.mark.parametrize(("system", "line", "dice", "key", "value"), [
    ("wis6", "SL<=13+2", [4], "ability", 15),
    ("wis6", "SL<=(25+1)/2", [4], "ability", 13),
    ("verse-world", "VW+8>=10+2", [2, 2], "target", 12),
    ("nemesis", "OP4+1>3", [1] * 8, "totals", [5, 3]),
    ("gundam-sentinel", "BB+5>30+2", [5, 5], "evasion", 32),
    ("gundam-sentinel", "GS+5>10+2", [6, 4], "target", 12),
])
def test_a_target_may_be_arithmetic(system, line, dice, key, value, capsys):
    assert _json(capsys, line, "--system", system, "--dice", ",".join(map(str, dice)))[key] == value


@pytest.mark.parametrize("line", ["SL<=1D6", "SL<=x", "VW+8>=2D6", "OP1D6>3"])
def test_a_target_with_dice_is_refused(line, capsys):
    system = "wis6" if line.startswith("SL") else "verse-world" if line.startswith("VW") else "nemesis"
    err = _refusal(capsys, line, "--system", system, "--seed", "1")
    assert "not dice" in err or "not a whole number" in err


@pytest.mark.parametrize("system", ONE)
def test_odds_read_a_comment_and_the_secret_prefix_but_not_a_repetition(system, capsys):
    command = ONE[system][0]
    assert main(["odds", f"S{command} 【label】", "--system", system, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(_odds_json(capsys, command, system))
    assert main(["odds", f"x2 {command}", "--system", system]) == 2
    assert "odds are for one roll" in capsys.readouterr().err


def _odds_json(capsys, command: str, system: str) -> str:
    assert main(["odds", command, "--system", system, "--json"]) == 0
    return capsys.readouterr().out


def test_a_plain_command_gives_its_own_result_and_a_marked_line_a_chat_roll():
    assert not isinstance(gundam_roll("BB+5>30", seed=1), ChatRoll)
    for line in ("BB+5>30 射撃", "SBB+5>30", "x1 BB+5>30"):
        assert isinstance(gundam_roll(line, seed=1), ChatRoll)
    assert read_line(" x2\tBB+5>30  #a b ").comment == "#a b"


#: npm bcdice 4.9.0, GundamSentinel: each input with the dice BCDice drew and the text it printed
#: (GameSystem.eval(input).text; secret from .secret)
BCDICE = [
    ("x3 BB+5>30", [3, 5, 3, 6, 2, 1], False,
     "#1\n(BB+5>30) ＞ 35+5 ＞ 44 ＞ 命中(+10)\n\n#2\n(BB+5>30) ＞ 36+5 ＞ 45 ＞ 命中(+11)\n\n#3\n(BB+5>30) ＞ 21+5 ＞ 26 ＞ 回避"),
    ("rep2 BB+5>30", [5, 6, 6, 5], False,
     "#1\n(BB+5>30) ＞ 56+5 ＞ 65 ＞ 命中(+23)\n\n#2\n(BB+5>30) ＞ 65+5 ＞ 74 ＞ 命中(+28)"),
    ("repeat2 BB+5>30", [2, 6, 6, 2], False,
     "#1\n(BB+5>30) ＞ 26+5 ＞ 35 ＞ 命中(+5)\n\n#2\n(BB+5>30) ＞ 62+5 ＞ 71 ＞ 命中(+25)"),
    ("x3 BB+5>30 射撃", [2, 1, 3, 3, 6, 1], False,
     "#1\n(BB+5>30) ＞ 21+5 ＞ 26 ＞ 回避\n\n#2\n(BB+5>30) ＞ 33+5 ＞ 42 ＞ 命中(+8)\n\n#3\n(BB+5>30) ＞ 61+5 ＞ 66 ＞ 命中(+24)"),
    ("SBB+5>30", [6, 5], True, "(BB+5>30) ＞ 65+5 ＞ 74 ＞ 命中(+28)"),
    ("SX3 BB", [2, 2, 1, 6, 1, 2], True, "#1\n(BB) ＞ 22\n\n#2\n(BB) ＞ 16\n\n#3\n(BB) ＞ 12"),
    ("x3 SBB", [5, 1, 3, 3, 4, 5], True, "#1\n(BB) ＞ 51\n\n#2\n(BB) ＞ 33\n\n#3\n(BB) ＞ 45"),
    ("SBB 射撃", [6, 4], True, "(BB) ＞ 64"),
    ("SGS", [1, 2], True, "(GS) ＞ 3 ＞ 失敗"),
    ("sbb", [1, 3], True, "(BB) ＞ 13"),
    ("SECHC", [5, 6], True, "敵MSクリティカルヒットチャート(11) ＞ コントロール不能：目標ＭＳは１Ｄ６ラウンドの間、行動不能。"),
    ("x2 SDDC", [5, 6, 5, 2], False,
     "#1\n二次被害判定チャート(56) ＞ バックパック破損「推進剤３Ｄ６ポイント失う。」\n\n"
     "#2\n二次被害判定チャート(52) ＞ 右腕の携帯武装破損「右腕に持っていた武装を１つ失う。」"),
    ("BB+5>30+2", [5, 5], False, "(BB+5>30+2) ＞ 55+5 ＞ 64 ＞ 命中(+20)"),
    ("BB+5>(30+2)", [4, 4], False, "(BB+5>32) ＞ 44+5 ＞ 53 ＞ 命中(+13)"),
    ("GS+5>10+2", [1, 2], False, "(GS+5>10+2) ＞ 3+5 ＞ 8 ＞ 失敗"),
    ("BB>30-2", [3, 2], False, "(BB>30-2) ＞ 32 ＞ 命中(+0)"),
    ("BBM+0000000000005", [5, 1], False, "(BBM+0000000000005) ＞ 51+5 ＞ 56"),
    ("x03 BB", [5, 5, 5, 3, 3, 2], False, "#1\n(BB) ＞ 55\n\n#2\n(BB) ＞ 53\n\n#3\n(BB) ＞ 32"),
    ("x3　BB", [4, 2, 4, 3, 6, 1], False, "#1\n(BB) ＞ 42\n\n#2\n(BB) ＞ 43\n\n#3\n(BB) ＞ 61"),
    # a palette written with variables sends its values summed at the table (rules_lib.sheets.variables)
    ("BB+1+16 【小型ミサイル】", [6, 2], False, "(BB+1+16) ＞ 62+17 ＞ 91"),
    ("BBM+2+6>51 x", [1, 2], False, "(BBM+2+6>51) ＞ 12+8 ＞ 24 ＞ 回避"),
    ("GS+0>10 y", [1, 2], False, "(GS+0>10) ＞ 3+0 ＞ 3 ＞ 失敗"),
    ("BB+-1+16", [6, 5], False, "(BB+-1+16) ＞ 65+15 ＞ 92"),
]


def test_what_bcdice_drops_is_refused(capsys):
    # BCDice reads GS+5>10*2 as GS+5>10 (its target takes signs and digits only): the library refuses it
    assert "'*2' after 'GS+5>10' is not part of" in _refusal(capsys, "GS+5>10*2", "--system", "gundam-sentinel")


@pytest.mark.parametrize(("line", "dice", "secret", "text"), BCDICE, ids=[case[0] for case in BCDICE])
def test_gundam_lines_print_what_bcdice_prints(line, dice, secret, text, capsys):
    argv = ["roll", line, "--system", "gundam-sentinel", "--dice", ",".join(map(str, dice))]
    assert main([*argv, "--format", "bcdice"]) == 0
    assert capsys.readouterr().out == text + "\n"
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out).get("secret", False) is secret


_PIECES = st.sampled_from(["S", "s", "x2 ", "rep3 ", "x0 ", "BB", "BBM", "GS", "SL<=", "AD", "OP", "VW", "SDDC", "2D6",
                           "1D20<=", "+", "-", ">", ">=", "<=", "=", "(", ")", "[", "]", "@", "/", "*", "3", "0", "13",
                           " ", "\u3000", "【反応】", "#", "ｘ", "Ｓ", "１", "R", "\t"])


@settings(max_examples=300, deadline=None)
@given(text=st.lists(_PIECES, max_size=8).map("".join), system=st.sampled_from(sorted(SYSTEMS)))
def test_any_line_rolls_or_is_refused_with_a_message(text, system):
    roll, odds = SYSTEMS[system]
    for call, shown in ((lambda: roll(text, seed=3), roll_text), (lambda: odds(text), lambda r: r.to_dict())):
        try:
            result = call()
        except ValueError as refused:
            assert str(refused)
        else:
            assert result.to_dict() and shown(result)
