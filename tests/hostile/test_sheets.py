"""Hostile unit sheets (issue 33): each failure the probe found is refused with a sentence, within the
sheet limits (``rules_lib.sheets.limits``, engine limits not in the source text), or reads back whole."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tomllib

import pytest

from rules_lib import sheets
from rules_lib.cli import main
from rules_lib.sheets import limits
from rules_lib.sheets.text import kind_of


def _data(system: str, sheet_id: str) -> dict:
    return tomllib.loads(sheets.export(sheets.get(system, sheet_id), "toml"))


def _toml(system: str, sheet_id: str) -> str:
    return sheets.export(sheets.get(system, sheet_id), "toml")


def _bounded_child() -> None:
    # the child may use at most 1 GiB: a parser that blows up fails the test instead of the machine
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _cli(*argv: str) -> subprocess.CompletedProcess:
    """``rules-lib`` in a child bounded in memory and time."""
    return subprocess.run([sys.executable, "-m", "rules_lib", *argv], capture_output=True, text=True, timeout=120,
                          preexec_fn=_bounded_child, check=False)


def _printable(output: str) -> bool:
    return all(kind_of(char) is None for line in output.split("\n") for char in line)


# -- the terminal --------------------------------------------------------------------


@pytest.mark.parametrize("char", ["\\u001b[2J\\u001b[31m", "\\u0007", "\\u0000", "\\u009b31m", "\\u202e"],
                         ids=["ESC", "BEL", "NUL", "CSI", "RLO"])
def test_palette_output_never_prints_a_control_character(char, tmp_path, capsys):
    # TOML escapes put the characters in the name without a raw byte in the file
    text = _toml("wis6", "raider").replace('name = "heat axe"', f'name = "heat{char}axe"')
    path = tmp_path / "sheet.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["sheet", "--system", "wis6", "--file", str(path), "--format", "palette"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "weapons[2].name holds U+" in err
    assert _printable(out) and _printable(err)


# -- size, nesting and counts, checked before the parser ------------------------------------


def test_a_sheet_of_1000_nested_arrays_is_refused():
    text = 'system = "wis6"\nx = ' + "[" * 1000 + "]" * 1000 + "\n"  # 3 KB; tomllib recursed until it failed
    with pytest.raises(ValueError, match="nests more than 6 levels deep at line 2"):
        sheets.from_toml(text)
    inline = 'system = "wis6"\nx = ' + "{a = " * 1000 + "1" + "}" * 1000
    with pytest.raises(ValueError, match="nests more than 6 levels deep"):
        sheets.from_toml(inline)
    deep: list = []
    for _ in range(1000):  # a mapping built in Python, past the text: refused as it is walked
        deep = [deep]
    with pytest.raises(ValueError, match="nests more than 6 levels deep"):
        sheets.module("wis6").from_dict(_data("wis6", "raider") | {"growth": {"weapons": {"x": deep}}})


def test_brackets_in_strings_and_comments_are_not_nesting():
    text = _toml("wis6", "raider").replace('name = "Raider"', 'name = "[[[[[[[[.]]]]]]]]" # [[[[[[[[[[[[{{{{{{{.......')
    assert sheets.from_toml(text).name == "[[[[[[[[.]]]]]]]]"
    multiline = 'machine = """\n[[[[[[[[\\"""\n"""'  # an escaped quote inside a multi-line string
    with pytest.raises(ValueError, match="^machine holds U\\+000A"):  # not a nesting: the string is read whole
        sheets.from_toml(_toml("wis6", "raider").replace('machine = "Raider"', multiline))


def test_a_long_dotted_key_is_refused_before_the_parser_reads_it(tmp_path):
    # 41 KB of one dotted key took tomllib 1.55 GB and 11.4 s; here in a child bounded to 1 GiB
    key = ".".join(["a"] * 20_500)
    path = tmp_path / "dotted.toml"
    path.write_text(f"{key} = 1\n", encoding="utf-8")
    refused = _cli("sheet", "--system", "wis6", "--file", str(path))
    assert refused.returncode == 2, refused.stderr
    assert "nests more than 6 levels deep at line 1" in refused.stderr
    with pytest.raises(ValueError, match="nests more than 6 levels deep at line 1"):
        sheets.from_toml(f"{key} = 1\n")
    with pytest.raises(ValueError, match="nests more than 6 levels deep at line 1"):
        sheets.from_toml(f"[{key}]\n")


def test_a_20_mb_name_is_refused():
    name = "x" * 20_000_000
    with pytest.raises(ValueError, match="the sheet is 20,00[0-9,]+ bytes or more: a sheet is at most 65,536 bytes"):
        sheets.from_toml(_toml("wis6", "raider").replace('name = "Raider"', f'name = "{name}"'))
    with pytest.raises(ValueError, match="^name is 20,000,000 characters long: a name or other value is at most 40"):
        sheets.module("wis6").from_dict(_data("wis6", "raider") | {"name": name})
    with pytest.raises(ValueError, match="^sources.name is 20,000,000 characters long: a source or note is at most 500"):
        sheets.module("wis6").from_dict(_data("wis6", "raider") | {"sources": {"name": name}})


@pytest.mark.parametrize("system, sheet_id", [("gundam-sentinel", "zaku-ii"), ("wis6", "raider"),
                                              ("nemesis", "ss-01"), ("verse-world", "bandit")])
def test_100000_weapons_are_refused(system, sheet_id):
    data = _data(system, sheet_id)
    weapon = data["weapons"][0]
    with pytest.raises(ValueError, match="^weapons has 100,000 entries: a list of a sheet has at most 20"):
        sheets.module(system).from_dict(data | {"weapons": [weapon] * 100_000})
    with pytest.raises(ValueError, match="a sheet is at most 65,536 bytes"):
        sheets.from_toml(sheets.dumps(data | {"weapons": [weapon] * 5_000}))  # over 64 KB
    assert len(sheets.module(system).from_dict(data | {"weapons": [weapon] * 1}).to_dict()["weapons"]) == 1


def test_unknown_keys_by_the_thousand_are_named_briefly():
    data = _data("wis6", "raider") | {f"k{i}": 1 for i in range(20)}
    with pytest.raises(ValueError, match="unknown field\\(s\\) 'k0', 'k1', 'k2', 'k3', 'k4' and 15 more; allowed"):
        sheets.module("wis6").from_dict(data)
    with pytest.raises(ValueError, match="the sheet has 1,015 keys: a table of a sheet has at most 40"):
        sheets.module("wis6").from_dict(_data("wis6", "raider") | {f"k{i}": 1 for i in range(1_000)})


# -- only regular files, and at most the limit read ------------------------------------------


def test_dev_zero_is_refused_without_reading_it():
    refused = _cli("sheet", "--system", "wis6", "--file", "/dev/zero")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "rules-lib: /dev/zero is a character device, not a regular file: a sheet is read from a file" in refused.stderr


def test_a_fifo_and_a_folder_are_refused(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # no writer: opening it to read would wait for ever
    refused = _cli("sheet", "--system", "wis6", "--file", str(fifo))
    assert refused.returncode == 2 and "is a FIFO (named pipe), not a regular file" in refused.stderr
    with pytest.raises(ValueError, match="is a folder, not a regular file"):
        limits.read_sheet_file(tmp_path)
    with pytest.raises(ValueError, match="cannot read .*: No such file or directory"):
        limits.read_sheet_file(tmp_path / "missing.toml")


def test_a_file_over_the_limit_is_refused_after_reading_one_byte_more(tmp_path, monkeypatch):
    big = tmp_path / "big.toml"
    with big.open("wb") as file:
        file.truncate(1 << 30)  # a sparse 1 GiB file
    read: list[int] = []
    real = os.fdopen

    def watched(*args, **kwargs):
        handle = real(*args, **kwargs)
        original = handle.read
        handle.read = lambda size=-1: read.append(size) or original(size)
        return handle

    monkeypatch.setattr(os, "fdopen", watched)
    with pytest.raises(ValueError, match="big.toml is more than 65,536 bytes: a sheet is at most 65,536 bytes"):
        limits.read_sheet_file(big)
    assert read == [limits.MAX_SHEET_BYTES + 1]
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'name = "\xe9"')
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        limits.read_sheet_file(bad)
    marked = tmp_path / "bom.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + _toml("wis6", "raider").encode())
    assert sheets.from_toml(limits.read_sheet_file(marked)) == sheets.get("wis6", "raider")


# -- values in the texts' ranges ------------------------------------------------------------


@pytest.mark.parametrize("durability", [-3, 0])
def test_nemesis_part_durability_is_1_or_more(durability):
    data = _data("nemesis", "ss-01")
    data["part_durability"]["head"] = durability
    with pytest.raises(ValueError, match=f"SS-01's head durability \\(部位耐久値\\) {durability} is below 1"):
        sheets.module("nemesis").from_dict(data)


def test_nemesis_weapon_attacks_are_1_or_more():
    data = _data("nemesis", "ss-01")
    data["weapons"][0]["attacks"] = -1
    with pytest.raises(ValueError, match="attacks \\(回数\\) -1 is below 1"):
        sheets.module("nemesis").from_dict(data)


def test_a_newline_in_a_nemesis_weapon_ability_is_refused_by_the_text_rule():
    data = _data("nemesis", "ss-01")
    data["weapons"][0]["abilities"] = ["迎撃1\nx"]  # was an AttributeError inside the ability parser
    with pytest.raises(ValueError, match="^weapons\\[1\\]\\.abilities\\[1\\] holds U\\+000A \\(a line break\\)"):
        sheets.module("nemesis").from_dict(data)
    from rules_lib.nemesis.silhouette import parse_ability

    with pytest.raises(ValueError, match="unknown ability"):
        parse_ability("迎撃1\nx")


def test_a_wis6_role_typo_is_refused_naming_the_roles():
    data = _data("wis6", "asuka-kestrel")
    assert any("jamming" in line.label for line in sheets.module("wis6").from_dict(data).palette())
    with pytest.raises(ValueError, match="role 'operater' is unknown: allowed are 'operator', 'pilot'"):
        sheets.module("wis6").from_dict(data | {"role": "operater"})


def test_a_sheet_that_is_not_a_table_or_names_no_known_system_is_refused():
    with pytest.raises(ValueError, match="is not a table"):
        sheets.module("wis6").from_dict(["not", "a", "sheet"])
    with pytest.raises(ValueError, match="the sheet's system 'd20' has no sheets: allowed are"):
        sheets.from_toml('system = "d20"')
    with pytest.raises(ValueError, match="the sheet's system \\[1\\] has no sheets"):
        sheets.from_toml("system = [1]")
    with pytest.raises(ValueError, match="a sheet's TOML is text, not bytes"):
        sheets.from_toml(b'system = "wis6"')


# -- an export reads back ------------------------------------------------------------------


@pytest.mark.parametrize("system, sheet_id, field, empty", [
    ("gundam-sentinel", "zaku-ii", "japanese", ""), ("gundam-sentinel", "zaku-ii", "mook", False),
    ("nemesis", "ss-01", "abilities_text", ""), ("nemesis", "ss-01", "profile", {}),
    ("nemesis", "ss-01", "part_labels", {}), ("wis6", "raider", "growth", {}), ("wis6", "raider", "ac_points", 0),
])
def test_an_empty_field_with_a_source_reads_back(system, sheet_id, field, empty):
    # the export left out an empty japanese or abilities_text and kept its source: the tool then
    # refused to read its own export ("sources for fields that are not on the sheet")
    data = _data(system, sheet_id)
    data[field] = empty
    data["sources"][field] = "a player's sheet"
    sheet = sheets.module(system).from_dict(data)
    assert sheets.from_toml(sheets.export(sheet, "toml")) == sheet
    data["sources"].pop(field)  # without a source the empty field is left out, as the samples leave it
    sheet = sheets.module(system).from_dict(data)
    assert field not in sheet.to_dict() and sheets.from_toml(sheets.export(sheet, "toml")) == sheet


@pytest.mark.parametrize("value", [1_000, -1_000, 10**400])
def test_a_number_beyond_the_sheet_limit_is_refused_naming_it(value):
    data = _data("gundam-sentinel", "zaku-ii")
    data["pilot"]["shooting"] = value
    with pytest.raises(ValueError, match="^pilot.shooting .* is out of range: a number on a sheet is -999 to 999"):
        sheets.module("gundam-sentinel").from_dict(data)
