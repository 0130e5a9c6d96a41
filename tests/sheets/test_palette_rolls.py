"""Every line of every chat palette the sheets export rolls whole (command, space, label), as a player
pastes it: with ``rules-lib roll --system X`` and with the site's dice roller (``rules_lib.browser.roll_inline``,
what a click in the page calls). The label is the line's comment, kept as written."""

from __future__ import annotations

import json

import pytest

from rules_lib import browser, sheets
from rules_lib.cli import main
from rules_lib.sheets.palette import split_line

#: a target for each system whose palette takes one (an evasion, an armour); the others ignore it
TARGETS = {"gundam-sentinel": 46, "nemesis": 6}


def _variants(system: str, sheet) -> list[tuple[str, str]]:
    """(variant, palette) for every option of the export: no target and a target, generic and own commands,
    and the Verse World palette with a critical from 11 (``critical_at``, not in the source text)."""
    found = [(f"target={target},own={own}",
              sheets.export(sheet, "palette", target=target, own_commands=own))
             for target in (None, TARGETS.get(system)) for own in (False, True)]
    if system == "verse-world":
        found.append(("critical_at=11", "\n".join(str(line) for line in sheet.palette(own_commands=True, critical_at=11))))
    ccfolia = json.loads(sheets.export(sheet, "ccfolia", target=TARGETS.get(system)))["data"]["commands"]
    return [*found, ("ccfolia", ccfolia)]


def _lines():
    for system in sheets.SYSTEMS:
        for sheet_id, sheet in sheets.load(system).items():
            seen = set()
            for variant, palette in _variants(system, sheet):
                for line in palette.splitlines():
                    if line not in seen:
                        seen.add(line)
                        yield pytest.param(system, line, id=f"{system}:{sheet_id}:{variant}:{line.split(' ')[0]}")


LINES = list(_lines())


def test_every_system_and_variant_is_here():
    assert {param.values[0] for param in LINES} == set(sheets.SYSTEMS)
    assert len(LINES) > 100


@pytest.mark.parametrize(("system", "line"), LINES)
def test_every_palette_line_rolls_whole_with_the_cli(system, line, capsys):
    label = split_line(line).label
    assert label, f"palette line {line!r} has no label"
    code = main(["roll", line, "--system", system, "--seed", "7", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    rolled = json.loads(out)
    assert rolled["comment"] == label and rolled["secret"] is False


@pytest.mark.parametrize(("system", "line"), LINES)
def test_every_palette_line_rolls_whole_in_the_site_dice_roller(system, line):
    shown = json.loads(browser.roll_inline(line))
    assert shown["ok"], shown["line"]
    command = split_line(line).command
    # generic notation (2D6+3, 1D20<=13) is the generic roll's; a system's own command its system's
    assert shown["system"] in (system, "generic")
    assert shown["system"] == system or command[:1].isdigit()
    assert shown["detail"].endswith(f"comment: {split_line(line).label}")
