"""GUNDAM SENTINEL RPG -OutLaws Edition-: the combat rules of 000 (【戦闘】), exact and cited.

Modules by rule area: :mod:`.d36` (the 1D36 step scale), :mod:`.to_hit` (hit checks and evasion),
:mod:`.ranges` (range bands, arcs, direction), :mod:`.actions` (initiative, action points,
patterns), :mod:`.movement`, :mod:`.salvo` (missiles and bombing), :mod:`.weapons` (auto fire,
psycommu, melee, equipment), :mod:`.damage`, :mod:`.checks` (fainting, recovery, escape),
:mod:`.commands` (BCDice's dice commands), :mod:`.charts` (the charts 000 refers to), :mod:`.units` (sample units), :mod:`.figures`,
:mod:`.battle` (a guided first battle, step by step).
"""

from ..battle import is_legal, legal_actions, legal_kinds, log_html, play, step
from . import d36
from .actions import (
    ADDITIONAL_MOVE_AP,
    CHARGE_DISENGAGE_AP,
    FIXED_AP,
    NORMAL_MOVE_AP,
    PATTERNS,
    ActionCosts,
    action_points,
    ap_at_least,
    ap_cost,
    ap_distribution,
    ap_to_move,
    fitting_plans,
    initiative,
    initiative_odds,
    moves_needed,
    plan_actions,
    scenario_turns,
)
from .battle import (
    BattleRules,
    BattleState,
    BattleUnit,
    BattleWeapon,
    EndPhase,
    Fire,
    IllegalStep,
    Move,
    RollAP,
    RollInitiative,
    StepResult,
    Turn,
    new_battle,
    sample_units,
)
from .battle_odds import FireOdds, ap_chance, describe_fire_odds, fire_odds, initiative_chances
from .charts import (
    BCDICE_LABEL,
    Chart,
    ChartEntry,
    ChartOdds,
    ChartRoll,
    DefaultCharts,
    Effect,
    chart_odds,
    get_chart,
    load_charts,
    roll_chart,
)
from .checks import escape, escape_check, faint_chance, faint_check, recovery_chance, recovery_check
from .commands import odds_command, parse_command, roll_command
from .damage import (
    AddOnArmour,
    HitLocationResult,
    apply_damage,
    critical_hit,
    hit_location,
    hit_with_addon,
    largest_stopped,
    secondary_damage_chance,
)
from .figures import board_svg, status_line, units_html
from .movement import check_hex_free, move, rear_hexes_allowed, spend_propellant, turn_only
from .ranges import (
    START_DISTANCE,
    DirectionModifiers,
    attack_direction,
    direction_modifier,
    facing_each_other,
    in_firing_arc,
    in_range_of_any_weapon,
    range_band,
    starting_positions,
    weapon_modifier,
    wired_can_attack,
)
from .salvo import DamageFormula, resolve_salvo, salvo_damage, salvo_hits, salvo_modifier, salvo_odds
from .to_hit import (
    EVASION_MODIFIERS,
    TO_HIT_MODIFIERS,
    HitOptions,
    check_hit,
    evasion_value,
    hit_odds,
    terrain_modifier,
    total_modifier,
)
from .units import Mobility, Pilot, load_units, unit
from .weapons import (
    auto_fire_splits,
    funnel_attack_cap,
    leader_bits,
    piloting_check,
    piloting_check_odds,
    psycommu_units,
    punch_damage,
    shots_used,
    spend_ammunition,
    split_auto_fire,
)

__all__ = [
    "BCDICE_LABEL", "Chart", "ChartEntry", "ChartOdds", "ChartRoll", "DefaultCharts", "Effect", "chart_odds",
    "critical_hit", "escape", "get_chart", "load_charts", "roll_chart",
    "BattleRules", "BattleState", "BattleUnit", "BattleWeapon", "EndPhase", "Fire", "FireOdds", "IllegalStep",
    "Move", "RollAP", "RollInitiative", "StepResult", "Turn", "ap_chance", "board_svg", "describe_fire_odds",
    "fire_odds", "initiative_chances", "is_legal", "legal_actions", "legal_kinds", "log_html", "new_battle",
    "play", "sample_units", "status_line", "step", "units_html",
    "ADDITIONAL_MOVE_AP", "CHARGE_DISENGAGE_AP", "EVASION_MODIFIERS", "FIXED_AP", "NORMAL_MOVE_AP", "PATTERNS",
    "START_DISTANCE", "TO_HIT_MODIFIERS", "ActionCosts", "AddOnArmour", "DamageFormula", "DirectionModifiers",
    "Mobility", "Pilot", "action_points", "ap_at_least", "ap_cost", "ap_distribution", "ap_to_move",
    "apply_damage", "attack_direction", "auto_fire_splits", "check_hex_free", "check_hit", "d36", "HitOptions",
    "direction_modifier", "escape_check", "evasion_value", "facing_each_other", "faint_chance", "faint_check",
    "fitting_plans", "funnel_attack_cap", "HitLocationResult", "hit_location", "hit_odds", "hit_with_addon",
    "in_firing_arc",
    "in_range_of_any_weapon", "initiative", "initiative_odds", "largest_stopped", "leader_bits", "load_units",
    "move", "moves_needed", "odds_command", "parse_command", "piloting_check", "piloting_check_odds",
    "plan_actions", "psycommu_units", "punch_damage", "range_band", "rear_hexes_allowed", "recovery_chance",
    "recovery_check", "resolve_salvo", "roll_command", "salvo_damage", "salvo_hits", "salvo_modifier",
    "salvo_odds", "scenario_turns", "secondary_damage_chance", "shots_used", "spend_ammunition", "spend_propellant",
    "split_auto_fire", "starting_positions", "terrain_modifier", "total_modifier", "turn_only", "unit",
    "weapon_modifier", "wired_can_attack",
]
