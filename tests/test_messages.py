"""The message tables (rules_lib.messages): English and Japanese hold the same keys and fields, a changed
English text makes its Japanese stale, the language is chosen as documented, and the CLI speaks it."""

from __future__ import annotations

import contextlib
import io

import pytest

from rules_lib import messages
from rules_lib.cli import main
from rules_lib.messages import en, ja


def test_every_english_message_has_a_current_japanese_one():
    assert messages.stale() == {}


def test_a_changed_english_text_makes_its_japanese_stale():
    table = dict(ja.MESSAGES)
    text, _ = table["cli.roll"]
    table["cli.roll"] = (text, messages.source_sha256("roll an expression, now longer"))
    table["cli.extra"] = ("余分", "0" * 16)
    del table["cli.odds"]
    found = messages.stale(table)
    assert found["cli.roll"].startswith("stale") and found["cli.odds"] == "missing"
    assert found["cli.extra"].startswith("extra")
    table = dict(ja.MESSAGES)
    table["cli.lang"] = ("言語", messages.source_sha256(en.MESSAGES["cli.lang"]))  # {languages} dropped
    assert "fields" in messages.stale(table)["cli.lang"]


def test_fields_are_filled_in_and_a_missing_one_is_named():
    assert messages.message("cli.not_written", "ja", reason="disk full").endswith("disk full")
    with pytest.raises(ValueError, match="needs reason"):
        messages.message("cli.not_written", "en")
    with pytest.raises(ValueError, match="no message has the key"):
        messages.message("no.such.key")


def test_the_language_is_the_one_asked_then_in_use_then_the_environment(monkeypatch):
    for name in ("RULES_LIB_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert messages.language() == "en"
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert messages.language() == "ja"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # the first one set decides
    assert messages.language() == "en"
    monkeypatch.setenv("RULES_LIB_LANG", "ja")
    assert messages.language() == "ja"
    with messages.use_language("en"):
        assert messages.language() == "en" and messages.language("ja") == "ja"
    monkeypatch.setenv("RULES_LIB_LANG", "fr")
    with pytest.raises(ValueError, match="language 'fr': the library speaks en, ja"):
        messages.language()
    with pytest.raises(ValueError, match="language 'de'"):
        messages.language("de")


def _out(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [["--lang", "ja", "--help"], ["roll", "--help", "--lang=ja"], ["sheet", "--lang", "ja", "--help"]])
def test_the_cli_speaks_japanese_with_lang_anywhere(argv):
    code, out, _ = _out(*argv)
    assert code == 0 and "使い方:" in out and "オプション:" in out and "このヘルプを表示して終了する" in out
    assert "show this help message" not in out


def test_the_environment_chooses_the_cli_language(monkeypatch):
    monkeypatch.setenv("RULES_LIB_LANG", "ja")
    code, out, _ = _out("--help")
    assert code == 0 and messages.message("cli.description", "ja") in out
    assert "命中判定：1D36 + 14 を回避値 54 と比べる" in out  # each system's example, in Japanese
    code, _, err = _out("roll")
    assert code == 2 and err.strip() == "rules-lib roll: 次の引数が必要です: expression（--help を参照）"
    monkeypatch.setenv("RULES_LIB_LANG", "fr")
    code, _, err = _out("roll", "2D6")
    assert code == 2 and err.strip() == "rules-lib: RULES_LIB_LANG: language 'fr': the library speaks en, ja"


def test_english_stays_the_default_and_argparse_is_itself_again_after(monkeypatch):
    import argparse

    for name in ("RULES_LIB_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert "Dice and exact odds" not in _out("--lang", "ja", "--help")[1]
    code, out, _ = _out("--help")
    assert code == 0 and out.startswith("usage: rules-lib") and "Dice and exact odds for the rules book." in out
    assert argparse._("options") == "options"


def test_bcdice_output_stays_bcdices_in_japanese():
    argv = ["roll", "BB+14>54", "--system", "gundam-sentinel", "--dice", "3,5", "--format", "bcdice"]
    assert _out(*argv)[1] == _out("--lang", "ja", *argv)[1] == "(BB+14>54) ＞ 35+14 ＞ 61 ＞ 命中(+3)\n"
