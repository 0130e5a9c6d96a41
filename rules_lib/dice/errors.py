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
            f"{quoted(expression)}: at position {position}, expected {expected} but found {found}"
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
        ValueError.__init__(self, f"{quoted(expression)}: at position {position}, {message}")


class DiceReplayError(ValueError):
    """The exact dice given for a replay do not fit the expression."""


#: the most characters of a given text a message quotes (a 100 KB line is not echoed back)
EXCERPT_LENGTH = 80


def quoted(text: str, limit: int = EXCERPT_LENGTH) -> str:
    """``text`` as a message quotes it: in full when short, otherwise its first ``limit``
    characters and its length (hostile input is never echoed whole)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


__all__ = [
    "DiceLimitError", "DiceReplayError", "DiceSyntaxError",
]
