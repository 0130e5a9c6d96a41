"""{{name}}: the guided first battle (``book/{{system}}/02-first-battle.ipynb``), still to write.

The shape every system's battle follows (``rules_lib.battle``, CONTRIBUTING.md "A guided first
battle"): a frozen :class:`BattleState` with its ``log``, ``legal_actions(state)`` and
``step(state, action) -> StepResult`` that refuses an illegal action with :class:`IllegalStep`.
Until the rules are encoded there is no action, and the battle says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..battle import IllegalStep, StepResult


@dataclass(frozen=True)
class BattleState:
    """Whose turn it is and what happened so far (units, positions and resources come with the rules)."""

    round: int = 1
    log: tuple[str, ...] = ()


def new_battle() -> BattleState:
    """The first battle's starting state."""
    return BattleState()


def legal_actions(state: BattleState) -> tuple[object, ...]:
    """What may be done next: nothing until the rules of ``{{code}}`` are encoded."""
    return ()


def step(state: BattleState, action: object) -> StepResult[BattleState]:
    """Apply ``action``; every action is refused while the battle has no rules."""
    raise IllegalStep(f"{action!r} is not an action of the {{short_name}} battle: it has no actions yet")


__all__ = ["BattleState", "IllegalStep", "StepResult", "legal_actions", "new_battle", "step"]
