"""The mutation tool measures what it claims (issue 31): every kind of rule is changed, each change
has a key of its own, the equivalents name live changes, and a check's reach is traced."""

import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from mutants import mutated_function, mutated_module, points_of  # noqa: E402
from mutation import EQUIVALENTS, TARGETS, Reach  # noqa: E402

MODULES = sorted(p for sources, _ in TARGETS.values() for s in sources for p in (ROOT / s).glob("*.py")
                 if p.name not in ("__init__.py", "figures.py"))


def _descriptions(path: str, function: str) -> set[str]:
    return {f"{p.snippet}: {p.description}" for p in points_of(ROOT / path) if p.function == function}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_point_has_a_key_of_its_own_and_compiles(path):
    points = points_of(path)
    keys = [p.key for p in points]
    assert len(keys) == len(set(keys))
    for point in points[:: max(1, len(points) // 15)]:  # a sample of each module's changes compiles
        assert mutated_module(point) is not None
        if not point.at_import:
            assert mutated_function(point) is not None, point.key


def test_refusals_constants_bounds_and_fstring_results_are_changed():
    movement = "rules_lib/gundam_sentinel/movement.py"
    assert "if occupants >= MAX_UNITS_PER_HEX: refusal dropped" in _descriptions(movement, "check_hex_free")
    assert "occupants >= MAX_UNITS_PER_HEX: GtE -> Gt" in _descriptions(movement, "check_hex_free")
    assert "MAX_UNITS_PER_HEX = 1: 1 -> 2" in _descriptions(movement, "<module>")
    assert any(d.endswith("clamp dropped)") for d in _descriptions("rules_lib/wis6/attack.py", "damage"))
    # a bound of an input check is a rule (other than minimum=0); the value checked and its name are not
    turn = "rules_lib/wis6/turn.py"
    assert "minimum=1: 1 -> 2" in _descriptions(turn, "Combatant.__post_init__")
    assert not any("minimum=0: 0 -> 1" in d for f in ("move", "distance") for d in _descriptions(turn, f))


def test_messages_and_the_working_are_not_changed():
    for path in MODULES:
        for point in points_of(path):
            assert "raise " not in point.snippet and "steps.append" not in point.snippet, point.key


def test_default_arguments_and_nested_functions_are_attributed():
    points = {p.key: p for p in points_of(ROOT / "rules_lib/gundam_sentinel/movement.py")}
    default = points["rules_lib/gundam_sentinel/movement.py:spend_propellant:move_patterns=0:0 -> 1"]
    assert default.at_import and default.binds == ("spend_propellant",)
    nested = [p for p in points_of(ROOT / "rules_lib/verse_world/movement.py") if "<locals>" not in p.function
              and p.function.count(".") and not p.function[0].isupper()]
    assert all(p.top == p.function.split(".")[0] for p in nested)


def test_a_reach_covers_the_functions_and_constants_a_check_reads():
    path = ROOT / "rules_lib/gundam_sentinel/movement.py"
    reach = Reach(frozenset({(str(path), "check_hex_free")}), frozenset({"MAX_UNITS_PER_HEX"}))
    points = {p.key: p for p in points_of(path)}
    assert reach.reaches(points["rules_lib/gundam_sentinel/movement.py:check_hex_free:occupants + 1:Add -> Sub"])
    assert reach.reaches(points["rules_lib/gundam_sentinel/movement.py:<module>:MAX_UNITS_PER_HEX = 1:1 -> 2"])
    assert not reach.reaches(points["rules_lib/gundam_sentinel/movement.py:<module>:PLAIN_HEX_COST = 1:1 -> 2"])


def test_every_equivalent_names_a_live_mutant_and_a_reason():
    equivalents = tomllib.loads(EQUIVALENTS.read_text(encoding="utf-8"))["equivalent"]
    live = {p.key for path in MODULES for p in points_of(path)}
    stale = sorted(k for k in equivalents if k not in live)
    assert not stale, f"{EQUIVALENTS.name} names mutants that no longer exist: {stale}"
    assert all(len(reason) > 20 for reason in equivalents.values())
