"""Every system's dice-command cases, as data (``tests/<package>/command_cases.toml``), run by one
parametrized runner: the field's habit (BCDice keeps its tests as TOML cases).

- ``[[roll]]``: ``roll_command(input, dice=dice)`` has each ``expect`` value (a dotted attribute
  path; a tuple compares to a list) and ``None`` for each name in ``none``;
- ``[[parse]]``: the same for ``parse_command(input)``;
- ``[[bad]]``: ``roll_command(input, seed=1)`` raises a ``ValueError`` whose message contains ``error``;
- ``[[cli]]``: ``rules-lib argv...`` exits with ``code`` (0 unless given) and prints ``output``.

A new system's file is found without an edit here: its folder is its package (``rules_lib.systems``).
"""

from __future__ import annotations

import importlib
import tomllib
from operator import attrgetter
from pathlib import Path

import pytest

from rules_lib.cli import main
from rules_lib.systems import systems

HERE = Path(__file__).parent
KINDS = ("roll", "parse", "bad", "cli")


def _cases(kind: str) -> list:
    found = []
    for system in systems():
        path = HERE / system.package / "command_cases.toml"
        if path.exists():
            for number, case in enumerate(tomllib.loads(path.read_text(encoding="utf-8")).get(kind, [])):
                unknown = set(case) - {"input", "dice", "expect", "none", "why", "error", "argv", "code", "output"}
                assert not unknown, f"{path.name}: [[{kind}]] {number} has unknown keys {sorted(unknown)}"
                label = case.get("input") or " ".join(case["argv"])
                found.append(pytest.param(system.package, case, id=f"{system.system}-{number}-{label}"))
    return found


def _commands(package: str):
    return importlib.import_module(f"rules_lib.{package}.commands")


def _check(result, case: dict) -> None:
    for path, expected in case.get("expect", {}).items():
        actual = attrgetter(path)(result)
        assert (list(actual) if isinstance(actual, tuple) else actual) == expected, (path, case.get("why"))
    for path in case.get("none", []):
        assert attrgetter(path)(result) is None, path


def test_every_kind_has_cases():
    assert all(_cases(kind) for kind in KINDS)


@pytest.mark.parametrize(("package", "case"), _cases("roll"))
def test_roll(package, case):
    _check(_commands(package).roll_command(case["input"], dice=case["dice"]), case)


@pytest.mark.parametrize(("package", "case"), _cases("parse"))
def test_parse(package, case):
    _check(_commands(package).parse_command(case["input"]), case)


@pytest.mark.parametrize(("package", "case"), _cases("bad"))
def test_bad(package, case):
    with pytest.raises(ValueError) as refused:
        _commands(package).roll_command(case["input"], seed=1)
    assert case["error"] in str(refused.value)


@pytest.mark.parametrize(("package", "case"), _cases("cli"))
def test_cli(package, case, capsys):
    assert main(case["argv"]) == case.get("code", 0)
    assert case.get("output", "") in capsys.readouterr().out
