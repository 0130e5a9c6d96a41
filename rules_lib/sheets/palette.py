"""Chat palettes (チャットパレット): one line per roll, the command first, then its label.

A line is ``COMMAND label``; the command is what ``rules-lib roll --system SYSTEM`` (and, for
generic notation and the Gundam Sentinel commands, BCDice on CCFOLIA) rolls.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PaletteLine:
    command: str
    label: str

    def __post_init__(self) -> None:
        if not self.command or any(c.isspace() for c in self.command):
            raise ValueError(f"palette command {self.command!r} must be one word with no spaces")
        if "\n" in self.label:
            raise ValueError(f"palette label {self.label!r} must be one line")

    def __str__(self) -> str:
        return f"{self.command} {self.label}".rstrip()


def split_line(line: str) -> PaletteLine:
    """A palette line back into its command and label."""
    command, _, label = line.strip().partition(" ")
    return PaletteLine(command, label)


def signed(value: int) -> str:
    """A modifier as a command writes it: ``+2``, ``-1``, or nothing for 0 (``2D6``, ``BB>52``)."""
    return f"{value:+d}" if value else ""
