"""WIS6 combat rules (戦闘時ルール, source ``001``): success levels on a d20, damage, special actions, growth.

Every rule function cites its section of ``001_b9af664c3920e39c.txt`` (``001 §3-1``); the
readings taken where the text is silent are the fields of :class:`Wis6Rules`.
"""

from ..battle import StepResult, is_legal, legal_actions, legal_kinds, log_html, play, step
from . import attack, battle_state, counter, figures, growth, levels, rules, special, turn
from .attack import *
from .battle import decision_odds, describe_odds
from .battle_state import *
from .counter import *
from .figures import *
from .growth import *
from .levels import *
from .rules import *
from .special import *
from .turn import *

__all__ = [
    *attack.__all__, *battle_state.__all__, *counter.__all__, *figures.__all__, *growth.__all__,
    *levels.__all__, *rules.__all__, *special.__all__, *turn.__all__,
    "is_legal", "legal_actions", "legal_kinds", "log_html", "play", "step", "StepResult", "decision_odds",
    "describe_odds",
]
