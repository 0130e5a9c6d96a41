"""GUNDAM SENTINEL RPG -OutLaws Edition-: the combat rules of 000 (【戦闘】), exact and cited.

Modules by rule area: :mod:`.d36` (the 1D36 step scale), :mod:`.to_hit` (hit checks and evasion),
:mod:`.ranges` (range bands, arcs, direction), :mod:`.actions` (initiative, action points,
patterns), :mod:`.movement`, :mod:`.salvo` (missiles and bombing), :mod:`.weapons` (auto fire,
psycommu, melee, equipment), :mod:`.damage`, :mod:`.checks` (fainting, recovery, escape),
:mod:`.commands` (BCDice's dice commands), :mod:`.charts` (the charts 000 refers to), :mod:`.units` (sample units), :mod:`.figures`,
:mod:`.battle` (a guided first battle, step by step).
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_names
from . import actions, charts, checks, d36, damage, figures, movement, ranges, salvo, to_hit, units, weapons
from .actions import *
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

if TYPE_CHECKING:  # what readers and tools see; at run time imported when first read (below)
    from ..battle import IllegalStep, StepResult, is_legal, legal_actions, legal_kinds, log_html, play, step
    from .battle_effects import *
    from .battle_odds import *
    from .battle_state import *

#: the guided battle's names, imported when first read (rules_lib.lazy): the calculators use only
#: the rules, and the battle modules were most of this package's import time
_BATTLE = {
    "..battle": (
        "IllegalStep", "StepResult", "is_legal", "legal_actions", "legal_kinds", "log_html", "play",
        "step",
    ),
    ".battle_odds": (
        "FireOdds", "ap_chance", "describe_fire_odds", "fire_odds", "initiative_chances",
    ),
    ".battle_effects": ("Option", "options"),
    ".battle_state": (
        "BattleRules", "BattleState", "BattleUnit", "BattleWeapon", "Choose", "Decision", "EndPhase", "Fire",
        "Move", "RollAP", "RollInitiative", "Turn", "new_battle", "sample_units",
    ),
}
__getattr__, __dir__ = lazy_names(__name__, globals(), _BATTLE)

__all__ = [
    *actions.__all__, *charts.__all__, *checks.__all__, *damage.__all__, *figures.__all__,
    *movement.__all__, *ranges.__all__, *salvo.__all__, *to_hit.__all__, *units.__all__, *weapons.__all__,
    "d36", "odds_command", "parse_command", "roll_command",
    *(name for names in _BATTLE.values() for name in names),
]
