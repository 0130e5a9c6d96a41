"""Chat palettes (チャットパレット): one line per roll, the command first, then its label.

A line is ``COMMAND label``; pasted whole, it rolls with ``rules-lib roll --system SYSTEM`` (and,
for generic notation and the Gundam Sentinel commands, with BCDice on CCFOLIA), which read the
label after the space as a comment (:mod:`rules_lib.dice.chat`). A line holds no line break or
control character (:mod:`rules_lib.sheets.text`): CCFOLIA and the site's *Copy chat palette* split
a palette at line breaks, so one inside a label would be a line of its own. A line is at most as
long as a chat line may be (`MAX_LINE_LENGTH`, what ``rules-lib roll`` and the site's roller read).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dice.parser import MAX_EXPRESSION_LENGTH
from .text import check_line

#: the longest palette line, command, space and label: a chat line's limit (``rules_lib.dice.chat``)
MAX_LINE_LENGTH = MAX_EXPRESSION_LENGTH


@dataclass(frozen=True)
class PaletteLine:
    command: str
    label: str

    def __post_init__(self) -> None:
        if not isinstance(self.command, str) or not isinstance(self.label, str):
            raise ValueError(f"palette line {self.command!r:.60} {self.label!r:.60}: command and label are texts")
        check_line(self.command, "palette command")
        check_line(self.label, f"palette label of {self.command}")
        if not self.command or any(c.isspace() for c in self.command):
            raise ValueError(f"palette command {self.command!r} must be one word with no spaces")
        if len(str(self)) > MAX_LINE_LENGTH:
            raise ValueError(f"palette line {self.command} is {len(str(self))} characters long: a chat line is at most "
                             f"{MAX_LINE_LENGTH}, so a longer one would not roll (a name or value on the sheet is too long for it)")

    def __str__(self) -> str:
        return f"{self.command} {self.label}".rstrip()


def split_line(line: str) -> PaletteLine:
    """A palette line back into its command and label."""
    if not isinstance(line, str):
        raise ValueError(f"palette line {line!r:.60} is not text")
    command, _, label = line.strip().partition(" ")
    return PaletteLine(command, label)


def signed(value: int) -> str:
    """A modifier as a command writes it: ``+2``, ``-1``, or nothing for 0 (``2D6``, ``BB>52``)."""
    return f"{value:+d}" if value else ""
