"""A catalogue check fails when the rule it checks is wrong (issue 12: "a check can fail").

Each test breaks one rule of the library (a constant or a default the rule function uses) and
runs the chapter's notebook cells in-process (``tools/mutation.py``'s ``run_checks``, no
Jupyter kernel), then asserts that the check of the entry fails, while the unbroken library
passes it. ``make mutation`` does the same for every small change to the rule modules.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from mutation import run_checks  # noqa: E402


def _check_passes(notebook: str, example_id: str) -> bool:
    from mutation import checks_of

    path = ROOT / "book" / notebook
    cell = max(c.cell for c in checks_of(path.parent) if c.example_id == example_id and c.notebook == path)
    return run_checks({path: cell})[example_id]


def _break(monkeypatch, target: str, value) -> None:
    module_name, attribute = target.rsplit(".", 1)
    module = __import__(module_name, fromlist=[attribute])
    monkeypatch.setattr(module, attribute, value)


BROKEN_RULES = [
    # (notebook, entry, what to break, the wrong value)
    ("wis6/03-attacks.ipynb", "wis6-damage-critical", "rules_lib.wis6.attack.CRITICAL_MULTIPLIER", 3),
    ("wis6/03-attacks.ipynb", "wis6-damage-equal-levels", "rules_lib.wis6.attack.EQUAL_DIVISOR", 3),
    ("nemesis/03-armour-and-damage.ipynb", "nem-minimum-damage", "rules_lib.nemesis.damage.MINIMUM_DAMAGE", 2),
    ("verse-world/01-combat-turn.ipynb", "vw-one-move-one-attack", "rules_lib.verse_world.turn.MOVES_PER_ACTION", 2),
    ("verse-world/06-simplified-combat.ipynb", "vw-simple-charge", "rules_lib.verse_world.simplified.FAST_CHARGE_MODES", ()),
    ("gundam-sentinel/05-damage-and-checks.ipynb", "gs-faint-check", "rules_lib.gundam_sentinel.checks.FAINT_AT_MOST", 9),
]


@pytest.mark.parametrize(("notebook", "example_id", "target", "wrong"), BROKEN_RULES, ids=lambda v: str(v))
def test_breaking_the_rule_fails_its_check(monkeypatch, notebook, example_id, target, wrong):
    assert _check_passes(notebook, example_id)
    _break(monkeypatch, target, wrong)
    assert not _check_passes(notebook, example_id), f"{example_id} still passes with {target} = {wrong!r}"


def test_the_fall_check_fails_if_the_default_stops_being_the_text(monkeypatch):
    from rules_lib.nemesis import FallReading, abilities

    monkeypatch.setattr(abilities.defender_falls, "__defaults__", (FallReading.DEFENDER_RESISTS,))
    assert not _check_passes("nemesis/05-abilities-and-interrupts.ipynb", "nem-fall-check")


def test_simple_charge_check_fails_if_mover_names_are_compared_raw(monkeypatch):
    from rules_lib.verse_world import simplified

    # the old bug: "Thruster" compared as written never matched "thruster"
    monkeypatch.setattr(simplified, "mover_key", lambda mover, combat="mecha": mover)
    assert not _check_passes("verse-world/06-simplified-combat.ipynb", "vw-simple-charge")
