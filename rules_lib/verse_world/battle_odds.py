"""Exact odds at the Verse World guided battle's other decisions (004 §3-4-1, §3-4-2-1): who acts first,
the extra action, the pilots' MP drain, a locomotion mode's MP, and the reachable squares."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from .. import checks
from ..dice import Distribution
from ..geometry.square import ORTHOGONAL_STEPS, TURNS, Pose, reachable
from ..geometry.square import Step as GridStep
from .battle import _extra_check
from .battle_state import BattleState
from .movement import MovePlan, locomotion_mode, move_costs, step_cost
from .mp import drain_distribution, pilot_mp_loss_distribution
from .turn import Combatant, extra_action_chance, turn_order


@checks.checked_arguments
def first_to_act_chance(state: BattleState) -> Fraction:
    """Exact chance that the first unit acts first after the initiative roll (004 §3-4-1), ties by side.

    Enumerated over the 36 x 36 rolls of both units' 2D6.
    """
    first, second = state.units
    wins = 0
    for a1, a2, b1, b2 in product(range(1, 7), repeat=4):
        order = turn_order([Combatant(first.name, first.side, first.initiative_bonus + a1 + a2),
                            Combatant(second.name, second.side, second.initiative_bonus + b1 + b2)],
                           npcs_after_pcs=state.rules.npcs_after_pcs)
        wins += order.slots[0].name == first.name
    return Fraction(wins, 6 ** 4)


@checks.checked_arguments
def extra_action_odds(state: BattleState) -> Fraction | None:
    """Exact chance that this turn's extra-action contest is won (004 §3-4-1), or ``None`` if nobody may try."""
    if state.order is None:
        return None
    found = _extra_check(state)
    if found.passive is None:
        return None
    return extra_action_chance(state.unit(found.candidate).reaction, state.unit(found.passive).reaction)


def mp_drain_odds() -> Distribution:
    """The pilot's MP loss at the end of a turn: 1 (4/6), 2 (1/6), 3 (1/6) (004 §3-4-1, line 21)."""
    return pilot_mp_loss_distribution()


def mode_mp_odds(mode: str) -> Distribution:
    """The mecha MP a locomotion mode costs for a turn (004 §3-4-3-1)."""
    return drain_distribution(locomotion_mode(mode).mecha_mp_per_turn)


@checks.checked_arguments
def move_plan(state: BattleState, mode: str | None = None) -> MovePlan | None:
    """The squares the acting unit can still reach this action (004 §3-4-2-1), or ``None``.

    The search of :func:`~rules_lib.verse_world.plan_move` (``geometry.square.reachable`` over the
    mode's :func:`~rules_lib.verse_world.step_cost`, the last-step rule on), with the other unit's
    square closed: a mecha does not enter or pass through it (a reading, not in the source text).
    """
    if state.phase != "action" or state.actor is None or state.current.attacked:
        return None
    unit = state.unit(state.actor)
    mode = state.current.mode or mode or "walk"
    points = state.current.points_left if state.current.mode else unit.movement
    costs = move_costs("mecha", mode)
    enemy = state.opponent(unit.name).pose.square
    no_turning = (unit.name, "thruster") in state.modes_used
    allowed = []
    for candidate in (*ORTHOGONAL_STEPS, *TURNS):
        try:
            step_cost(costs, candidate)
        except ValueError:
            continue
        if not (no_turning and candidate.is_turn):
            allowed.append(candidate)

    def cost(before: Pose, move: GridStep, after: Pose) -> int | None:
        return None if after.square == enemy else step_cost(costs, move)

    reach = reachable(unit.pose, points, cost, steps=allowed, last_step_with_what_is_left=True,
                      bounds=(state.rules.width, state.rules.height))
    return MovePlan(costs, reach, locomotion_mode(mode).mecha_mp_per_turn, frozenset())


__all__ = [
    "extra_action_odds", "first_to_act_chance", "mode_mp_odds", "move_plan", "mp_drain_odds",
]
