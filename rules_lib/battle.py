"""What every system's guided battle shares: the refusal of an illegal step, and a step's result.

Each system keeps its own battle state and steps (``rules_lib.<system>.battle``); these two types
make them behave alike, so a widget or a test can drive any of them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

State = TypeVar("State")


class IllegalStep(ValueError):
    """An action that is not allowed in this state; the message names the reason.

    Raised before any die is drawn, so the state passed in (frozen) is unchanged.
    """


@dataclass(frozen=True)
class StepResult(Generic[State]):
    """What a step did: the new state, the explanation (plain English, with sources), the dice
    rolled, and the rule function's own result where one is useful (``detail``)."""

    state: State
    explanation: tuple[str, ...]
    dice: tuple[int, ...] = ()
    detail: object = None
