"""GUNDAM SENTINEL RPG -OutLaws Edition-: the combat rules of 000 (【戦闘】), exact and cited.

Modules by rule area: :mod:`.d36` (the 1D36 step scale), :mod:`.to_hit` (hit checks and evasion),
:mod:`.ranges` (range bands, arcs, direction), :mod:`.actions` (initiative, action points,
patterns), :mod:`.movement`, :mod:`.salvo` (missiles and bombing), :mod:`.weapons` (auto fire,
psycommu, melee, equipment), :mod:`.damage`, :mod:`.checks` (fainting, recovery, escape),
:mod:`.commands` (BCDice's dice commands), :mod:`.charts` (the charts 000 refers to), :mod:`.units` (sample units), :mod:`.figures`,
:mod:`.battle` (a guided first battle, step by step).
"""

from ..battle import IllegalStep, StepResult, is_legal, legal_actions, legal_kinds, log_html, play, step
from . import (
    actions,
    battle_odds,
    battle_state,
    charts,
    checks,
    d36,
    damage,
    figures,
    movement,
    ranges,
    salvo,
    to_hit,
    units,
    weapons,
)
from .actions import *
from .battle_odds import *
from .battle_state import *
from .charts import *
from .checks import *
from .commands import odds_command, parse_command, roll_command
from .damage import *
from .figures import *
from .movement import *
from .ranges import *
from .salvo import *
from .to_hit import *
from .units import *
from .weapons import *

__all__ = [
    *actions.__all__, *battle_odds.__all__, *battle_state.__all__, *charts.__all__, *checks.__all__,
    *damage.__all__, *figures.__all__, *movement.__all__, *ranges.__all__, *salvo.__all__, *to_hit.__all__,
    *units.__all__, *weapons.__all__,
    "is_legal", "legal_actions", "legal_kinds", "log_html", "play", "step", "d36", "IllegalStep",
    "StepResult", "odds_command", "parse_command", "roll_command",
]
