"""The Nemesis-theatre assault-giant wargame (002): silhouettes, action dice, shooting, armour
and damage, approach and melee duels, abilities and interrupt actions.

Sections are cited as the text numbers them (``002 §5-1``); its six unnumbered headings are
§H1 (parameters) to §H6 (interrupt actions), in order of appearance.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_names
from . import abilities, action, damage, figures, melee, silhouette
from .abilities import *
from .action import *
from .damage import *
from .figures import *
from .melee import *
from .silhouette import *

if TYPE_CHECKING:  # what readers and tools see; at run time imported when first read (below)
    from ..battle import IllegalStep, StepResult, is_legal, legal_actions, legal_kinds, log_html, play, step
    from .battle_odds import *
    from .battle_state import *

#: the guided battle's names, imported when first read (rules_lib.lazy): the calculators use only
#: the rules, and the battle modules were most of this package's import time
_BATTLE = {
    "..battle": (
        "IllegalStep", "StepResult", "is_legal", "legal_actions", "legal_kinds", "log_html", "play",
        "step",
    ),
    ".battle_odds": ("DecisionOdds", "decision_odds", "initiative_chance",),
    ".battle_state": (
        "Approach", "ArmourCheck", "BattleRules", "BattleState", "BattleUnit", "ChooseOrder", "Concede",
        "Damage", "EndAction", "Melee", "OpenMelee", "ResponseAction", "RollActionDice", "Shoot",
        "SideAction", "SwapWeapon", "new_battle",
    ),
}
__getattr__, __dir__ = lazy_names(__name__, globals(), _BATTLE)

__all__ = [
    *abilities.__all__, *action.__all__, *damage.__all__, *figures.__all__, *melee.__all__, *silhouette.__all__,
    *(name for names in _BATTLE.values() for name in names),
]
