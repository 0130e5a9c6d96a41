"""A property over generated sheets of every system (issue 33, item 3): the TOML export (the one format
the tool writes that it reads back) reads back to the same sheet, and the palette and the CCFOLIA
piece export whole, each palette line within a chat line's length and every text by the text rule.

A sheet is generated from a sample: its names replaced by any text the sheet limits allow (up to
`MAX_NAME_LENGTH` characters of any kind but those the text rule refuses), some of its optional
fields left empty (an empty ``japanese``, ``abilities_text``, ``profile``, ...), one to four weapons,
and a source for any subset of its fields, or none.
"""

from __future__ import annotations

import json
import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_lib import sheets
from rules_lib.sheets import ccfolia
from rules_lib.sheets.limits import MAX_ENTRIES, MAX_NAME_LENGTH, MAX_NOTE_LENGTH
from rules_lib.sheets.palette import MAX_LINE_LENGTH, split_line
from rules_lib.sheets.text import check_lines, kind_of
from rules_lib.sheets.wis6 import ROLES

#: a target for each system whose palette takes one (an evasion, an armour)
TARGETS = {"gundam-sentinel": 66, "nemesis": 6}
SAMPLES = [(system, sheet_id) for system in sheets.SYSTEMS for sheet_id in sheets.load(system)]
#: per system: the texts replaced by generated names (``*``: each entry of that list or table), and
#: the optional ones that may also be empty
NAMES = {
    "gundam-sentinel": ("name", "weapons.*.name", "hit_locations.*.name"),
    "wis6": ("name", "machine", "side", "weapons.*.name"),
    "nemesis": ("model", "name", "weapons.*.name", "part_labels.*", "profile.*"),
    "verse-world": ("name", "pilot", "weapons.*.name", "weapons.*.japanese"),
}
MAYBE_EMPTY = {
    "gundam-sentinel": {"japanese": "", "mook": False, "weapons.*.japanese": ""},
    "wis6": {"growth": {}, "pilot_points": 0, "ac_points": 0},
    "nemesis": {"abilities_text": "", "profile": {}, "part_labels": {}},
    "verse-world": {},
}
#: the fields a sheet's ``sources`` may cite
CITABLE = {"gundam-sentinel": sheets.module("gundam-sentinel").VALUE_FIELDS,
           "wis6": sheets.module("wis6").VALUE_FIELDS,
           "nemesis": sheets.module("nemesis").SECTIONS,
           "verse-world": sheets.module("verse-world").VALUE_FIELDS}

_character = st.characters(codec="utf-8").filter(lambda c: kind_of(c) is None)
_name = st.text(_character, min_size=1, max_size=MAX_NAME_LENGTH).filter(str.strip)
_note = st.text(_character, min_size=1, max_size=MAX_NOTE_LENGTH).filter(str.strip)


def _places(data: dict, path: str):
    """(table, key) for each place ``path`` names in ``data``."""
    *parents, last = path.split(".")
    tables = [data]
    for part in parents:
        tables = [item for table in tables if part in table
                  for item in (table[part] if isinstance(table[part], list) else [table[part]])]
    for table in tables:
        for key in (list(table) if last == "*" else [last] if last in table else []):
            yield table, key


@st.composite
def sheet_data(draw, system: str, sheet_id: str) -> dict:
    data = tomllib.loads(sheets.export(sheets.get(system, sheet_id), "toml"))
    data.pop("silhouette", None)
    weapons = data["weapons"]
    data["weapons"] = [dict(weapons[i % len(weapons)]) for i in range(draw(st.integers(1, 4)))]
    for path in NAMES[system]:
        for table, key in _places(data, path):
            table[key] = draw(_name)
    # weapons need names of their own on a WIS6 sheet (and keys on a Nemesis one)
    for number, weapon in enumerate(data["weapons"], start=1):
        weapon["name"] = f"{number} {weapon['name']}"[:MAX_NAME_LENGTH]
        if "key" in weapon:
            weapon["key"] = f"w{number}"
    if system == "wis6":
        data["role"] = draw(st.sampled_from(ROLES))
    if system == "verse-world":
        data["side"] = draw(st.sampled_from(("pc", "gm")))
    for path, empty in MAYBE_EMPTY[system].items():
        if draw(st.booleans()):
            for table, key in _places(data, path) if "*" in path else [(data, path)]:
                table[key] = empty
    data.pop("sources", None)
    present = [field for field in CITABLE[system] if field in data]
    cited = draw(st.lists(st.sampled_from(present), unique=True)) if present else []
    if cited:
        data["sources"] = {field: draw(_note) for field in cited}
    return data


_sheets = st.sampled_from(SAMPLES).flatmap(lambda sample: st.tuples(st.just(sample[0]), sheet_data(*sample)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_sheets)
def test_every_generated_sheet_reads_back_from_its_export(generated):
    system, data = generated
    sheet = sheets.module(system).from_dict(data)
    exported = sheets.export(sheet, "toml")
    assert sheets.from_toml(exported) == sheet
    assert sheets.from_toml(exported, system) == sheet
    for target in (None, TARGETS.get(system)):
        for own in (False, True):
            palette = sheets.export(sheet, "palette", target=target, own_commands=own)
            check_lines(palette, "palette")
            for line in palette.split("\n"):
                assert len(line) <= MAX_LINE_LENGTH and str(split_line(line)) == line
            piece = json.loads(sheets.export(sheet, "ccfolia", target=target, own_commands=own))
            ccfolia.check_character(piece)
            assert piece["data"]["commands"] == palette


def test_the_generator_reaches_the_limits():
    assert MAX_ENTRIES >= 4 and MAX_NAME_LENGTH == 40  # the names above go up to the limit
