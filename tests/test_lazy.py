"""A system package's battle names are imported when first read (rules_lib.lazy), with the same API as before."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from rules_lib.browser import calculator_modules

SYSTEMS = ["gundam_sentinel", "nemesis", "wis6", "verse_world"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_package_lists_each_battle_module_s_names_and_every_name_resolves(system):
    package = importlib.import_module(f"rules_lib.{system}")
    for relative, names in package._BATTLE.items():
        module = importlib.import_module(importlib.util.resolve_name(relative, package.__name__))
        if relative in (".battle_odds", ".battle_state"):  # offered whole, as `import *` did
            assert sorted(names) == sorted(module.__all__), (
                f"rules_lib.{system}._BATTLE[{relative!r}] must list {module.__name__}.__all__ (rules_lib.lazy)")
        assert all(hasattr(module, name) for name in names), relative
    assert len(package.__all__) == len(set(package.__all__))
    for name in package.__all__:
        assert getattr(package, name) is not None, name
    assert set(package.__all__) <= set(dir(package))
    namespace: dict = {}
    exec(f"from rules_lib.{system} import *", namespace)
    assert set(package.__all__) <= set(namespace)


def test_an_unknown_name_is_an_attribute_error_naming_it():
    import rules_lib.nemesis

    with pytest.raises(AttributeError, match="module 'rules_lib.nemesis' has no attribute 'no_such_rule'"):
        rules_lib.nemesis.no_such_rule  # noqa: B018


def test_the_calculators_import_no_battle_module_until_one_is_read():
    calculators = sorted(name for name in calculator_modules() if not name.endswith("_battle"))  # not the guided battles
    code = (
        "import sys\n"
        f"for name in {calculators!r}: __import__(name)\n"
        "print(sorted(m for m in sys.modules if 'battle' in m.rpartition('.')[2]))\n"
        "import rules_lib.gundam_sentinel as g\n"
        "assert g.BattleState.__module__ == 'rules_lib.gundam_sentinel.battle_state'\n"
        "print('rules_lib.gundam_sentinel.battle_state' in sys.modules)\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    # rules_lib.battle, the steps' plumbing, is a dependency of the calculators' base class
    assert shown[0] == "['rules_lib.battle']" and shown[1] == "True"
