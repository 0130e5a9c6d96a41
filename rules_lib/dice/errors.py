"""Errors raised for dice expressions that cannot be read or are too large to handle."""

from __future__ import annotations


class DiceSyntaxError(ValueError):
    """A dice expression that does not follow the notation.

    ``position`` is the 1-based character where reading stopped, ``expected`` says
    what would have been allowed there.
    """

    def __init__(self, expression: str, position: int, expected: str, found: str) -> None:
        self.expression = expression
        self.position = position
        self.expected = expected
        self.found = found
        super().__init__(
            f"{_shown(expression)}: at position {position}, expected {expected} but found {found}"
        )


class DiceLimitError(DiceSyntaxError):
    """A well-formed expression that asks for more than the engine allows.

    It is a `DiceSyntaxError` so that callers need to catch one error type
    for any expression they were given; the message names the limit.
    """

    def __init__(self, expression: str, position: int, message: str) -> None:
        self.expression = expression
        self.position = position
        self.expected = message
        self.found = ""
        ValueError.__init__(self, f"{_shown(expression)}: at position {position}, {message}")


class DiceReplayError(ValueError):
    """The exact dice given for a replay do not fit the expression."""


def _shown(expression: str, limit: int = 80) -> str:
    """The expression as quoted in a message, cut short when very long (hostile input)."""
    if len(expression) <= limit:
        return repr(expression)
    return f"{expression[:limit]!r}... ({len(expression)} characters)"


__all__ = [
    "DiceLimitError", "DiceReplayError", "DiceSyntaxError",
]
