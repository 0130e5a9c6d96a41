"""{{name}}: the rules' tests (one file per rule module, like the other systems)."""

import pytest

from rules_lib.{{package}} import battle, rules
from rules_lib.systems import get


def test_the_package_is_the_registered_system_and_cites_its_text():
    assert get("{{system}}").package == "{{package}}"
    assert rules.SOURCE == get("{{system}}").code


def test_the_battle_without_rules_offers_nothing_and_refuses_every_action():
    state = battle.new_battle()
    assert battle.legal_actions(state) == ()
    with pytest.raises(battle.IllegalStep, match="has no actions yet"):
        battle.step(state, "attack")
