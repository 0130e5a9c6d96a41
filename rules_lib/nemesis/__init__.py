"""The Nemesis-theatre assault-giant wargame (002): silhouettes, action dice, shooting, armour
and damage, approach and melee duels, abilities and interrupt actions.

Sections are cited as the text numbers them (``002 §5-1``); its six unnumbered headings are
§H1 (parameters) to §H6 (interrupt actions), in order of appearance.
"""

from ..battle import IllegalStep, StepResult, is_legal, legal_actions, legal_kinds, log_html, play, step
from . import abilities, action, battle_odds, battle_state, damage, figures, melee, silhouette
from .abilities import *
from .action import *
from .battle_odds import *
from .battle_state import *
from .damage import *
from .figures import *
from .melee import *
from .silhouette import *

__all__ = [
    *abilities.__all__, *action.__all__, *battle_odds.__all__, *battle_state.__all__, *damage.__all__,
    *figures.__all__, *melee.__all__, *silhouette.__all__,
    "is_legal", "legal_actions", "legal_kinds", "log_html", "play", "step", "IllegalStep", "StepResult",
]
