"""Verse World RPG (ヴァース・ワールドＲＰＧ), 3-4 combat and 3-5 simplified combat (source 004).

Modules by rule area: ``turn`` (initiative, delay, extra action), ``mp`` (pilot MP drain and
endurance), ``movement`` (square-map costs, locomotion modes, reachable squares), ``attack``
(attack, evasion, criticals as a parameter, damage, exact odds), ``ranged`` (rate of fire and
reloading), ``special`` (charge, tackle, ...), ``simplified`` (the seven-zone map), ``figures``, ``battle`` (the guided first battle).
"""

from ..battle import IllegalStep, StepResult, is_legal, legal_actions, legal_kinds, log_html, play, step
from . import attack, battle_odds, battle_state, figures, movement, mp, ranged, simplified, special, turn
from .attack import *
from .battle import decision_odds, describe_odds
from .battle_odds import *
from .battle_state import *
from .figures import *
from .movement import *
from .mp import *
from .ranged import *
from .simplified import *
from .simplified import can_melee as can_melee_in_zone
from .special import *
from .turn import *

__all__ = [
    *attack.__all__, *battle_odds.__all__, *battle_state.__all__, *figures.__all__, *movement.__all__,
    *mp.__all__, *ranged.__all__, *simplified.__all__, *special.__all__, *turn.__all__,
    "is_legal", "legal_actions", "legal_kinds", "log_html", "play", "step", "IllegalStep", "StepResult",
    "can_melee_in_zone", "decision_odds", "describe_odds",
]
