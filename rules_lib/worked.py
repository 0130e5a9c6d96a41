"""What every rule's result shares: its working, ``steps``.

A result dataclass subclasses :class:`Worked` and declares only its own values; ``steps`` is
keyword-only, so it is always named where a result is built (``MpLoss(die, raw, loss, steps=...)``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Worked:
    """A result with its working: ``steps``, plain English, one line per step, so the book can show
    how a number came about (CONTRIBUTING.md, "Results carry their working")."""

    steps: tuple[str, ...]
