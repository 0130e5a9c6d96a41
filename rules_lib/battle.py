"""What every system's guided battle shares: the refusal of an illegal step, and a step's result.

Each system keeps its own battle state and steps (``rules_lib.<system>.battle``); these types make
them behave alike, so a widget or a test can drive any of them the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .dice import GivenDice, SeededDice

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


class ActionDice:
    """The dice of one step: the action's given dice in order, or a seeded generator.

    Records what was drawn. A step that needs dice but has neither, a given die that does not fit
    its die, and given dice left over are refused with :class:`IllegalStep`.
    """

    def __init__(self, given: Sequence[int] | None, source: SeededDice | None, what: str) -> None:
        if given is None and source is None:
            raise IllegalStep(f"{what} needs dice: give dice=(...) or a SeededDice")
        self.source: GivenDice | SeededDice = GivenDice(list(given)) if given is not None else source
        self.drawn: list[int] = []
        self.what = what

    def d(self, sides: int, count: int = 1) -> tuple[int, ...]:
        """``count`` dice of ``sides`` faces."""
        try:
            values = tuple(self.source.draw(sides) for _ in range(count))
        except ValueError as error:
            raise IllegalStep(f"{self.what}: {error}") from None
        self.drawn.extend(values)
        return values

    def finish(self) -> tuple[int, ...]:
        """Every die drawn; refuses given dice that were not all used."""
        if isinstance(self.source, GivenDice):
            try:
                self.source.finish()
            except ValueError as error:
                raise IllegalStep(f"{self.what}: {error}") from None
        return tuple(self.drawn)
