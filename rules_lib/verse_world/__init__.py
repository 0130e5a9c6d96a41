"""Verse World RPG (ヴァース・ワールドＲＰＧ), 3-4 combat and 3-5 simplified combat (source 004).

Modules by rule area: ``turn`` (initiative, delay, extra action), ``mp`` (pilot MP drain and
endurance), ``movement`` (square-map costs, locomotion modes, reachable squares), ``attack``
(attack, evasion, criticals as a parameter, damage, exact odds), ``ranged`` (rate of fire and
reloading), ``special`` (charge, tackle, ...), ``simplified`` (the seven-zone map), ``figures``, ``battle`` (the guided first battle).
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_names
from . import attack, figures, movement, mp, ranged, simplified, special, turn
from .attack import *
from .figures import *
from .movement import *
from .mp import *
from .ranged import *
from .simplified import *
from .simplified import can_melee as can_melee_in_zone
from .special import *
from .turn import *

if TYPE_CHECKING:  # what readers and tools see; at run time imported when first read (below)
    from ..battle import IllegalStep, StepResult, is_legal, legal_actions, legal_kinds, log_html, play, step
    from .battle import decision_odds, describe_odds
    from .battle_odds import *
    from .battle_state import *

#: the guided battle's names, imported when first read (rules_lib.lazy): the calculators use only
#: the rules, and the battle modules were most of this package's import time
_BATTLE = {
    "..battle": (
        "IllegalStep", "StepResult", "is_legal", "legal_actions", "legal_kinds", "log_html", "play",
        "step",
    ),
    ".battle": ("decision_odds", "describe_odds"),
    ".battle_odds": (
        "extra_action_odds", "first_to_act_chance", "mode_mp_odds", "move_plan", "mp_drain_odds",
    ),
    ".battle_state": (
        "ACTION_KINDS", "MOVE_STEPS", "Attack", "BattleRules", "BattleState", "Delay", "EndAction",
        "EndTurn", "Move", "Reload", "RollInitiative", "StandUp", "TryExtraAction", "Unit", "Weapon",
        "new_battle", "sample_units",
    ),
}
__getattr__, __dir__ = lazy_names(__name__, globals(), _BATTLE)

__all__ = [
    *attack.__all__, *figures.__all__, *movement.__all__, *mp.__all__, *ranged.__all__, *simplified.__all__,
    *special.__all__, *turn.__all__, "can_melee_in_zone",
    *(name for names in _BATTLE.values() for name in names),
]
