"""WIS6 combat rules (戦闘時ルール, source ``001``): success levels on a d20, damage, special actions, growth.

Every rule function cites its section of ``001_b9af664c3920e39c.txt`` (``001 §3-1``); the
readings taken where the text is silent are the fields of :class:`Wis6Rules`.
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_names
from . import attack, counter, figures, growth, levels, rules, special, turn
from .attack import *
from .counter import *
from .figures import *
from .growth import *
from .levels import *
from .rules import *
from .special import *
from .turn import *

if TYPE_CHECKING:  # what readers and tools see; at run time imported when first read (below)
    from ..battle import StepResult, is_legal, legal_actions, legal_kinds, log_html, play, step
    from .battle import decision_odds, describe_odds
    from .battle_state import *

#: the guided battle's names, imported when first read (rules_lib.lazy): the calculators use only
#: the rules, and the battle modules were most of this package's import time
_BATTLE = {
    "..battle": (
        "StepResult", "is_legal", "legal_actions", "legal_kinds", "log_html", "play", "step",
    ),
    ".battle": ("decision_odds", "describe_odds"),
    ".battle_state": (
        "ANSWERS", "Attack", "BattleRules", "BattleState", "EndAction", "IllegalStep", "Jam", "MoveTo",
        "RollOrder", "Unit", "Weapon", "new_battle", "sample_units",
    ),
}
__getattr__, __dir__ = lazy_names(__name__, globals(), _BATTLE)

__all__ = [
    *attack.__all__, *counter.__all__, *figures.__all__, *growth.__all__, *levels.__all__, *rules.__all__,
    *special.__all__, *turn.__all__,
    *(name for names in _BATTLE.values() for name in names),
]
