"""Verse World dice commands in the style of BCDice commands (BCDice has no Verse World dicebot).

- ``VW+b[@c[/o]][>=t|>t]``: a 2D6 check, base value ``b`` + 2D6 = the achievement value (達成値)
  (004 §3-4-2-2, line 42 attack, line 50 evasion). Double ones (１ゾロ) are a fumble (line 43) and fail
  whatever the total. The text uses critical and over-critical (line 45, line 51) but never says which
  rolls they are: ``@c`` names a natural 2D6 total from which a roll is critical and ``/o`` one
  from which it is over-critical (both *not in the source text*,
  :meth:`~.attack.CriticalRule.natural_total`); without ``@`` no roll is judged critical.
  ``>t`` is an attack against an evasion total ``t`` (the attack must beat it; a tie goes to the
  defender, the chapter's ruling); ``>=t`` a check against a difficulty ``t``, judged by
  :func:`~.attack.difficulty_check` (the rule of the fumble's luck check, :func:`~.attack.fumble_check`).
- Anything else is BCDice's generic notation (``2D6+5>=10``), rolled by
  :func:`rules_lib.dice.roll`; ``VW`` adds the fumble and the critical readings.

The target ``t`` may be arithmetic (``VW+8>=10+2``). A line may carry BCDice's comment, secret ``S``
and ``xN`` repetition (:mod:`rules_lib.dice.chat`): ``VW+8 【命中】attack``, ``SVW+8``, ``x2 VW+8``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from ..dice import Odds, RollResult, percent
from ..dice.chat import ChatRoll, CommandSet, whole_number
from ..dice.errors import quoted
from ..dice.roll import DiceSource
from ..worked import Worked
from .attack import CheckRoll, CriticalRule, check_roll, difficulty_check

SYSTEM = "verse-world"
_VW = re.compile(r"^VW((?:[+-]\d+)*)(?:@(\d+)(?:/(\d+))?)?(?:(>=|>)([^<>=]+))?$", re.ASCII)
_TERM = re.compile(r"[+-]\d+", re.ASCII)


@dataclass(frozen=True)
class CheckCommand:
    text: str
    base: int
    criticals: CriticalRule
    op: str | None
    target: int | None


def parse_command(expression: str) -> CheckCommand:
    """Read ``VW+b[@c[/o]][>=t|>t]``, with a clear error otherwise."""
    text = COMMANDS.command(expression)
    match = _VW.match(text)
    if not match:
        raise ValueError(
            f"command {quoted(expression)} does not parse: the Verse World check is VW+base[@critical[/over-critical]]"
            "[>=difficulty or >evasion], e.g. VW+8, VW+8@12, VW+8@11/12>14, VW+7>=12"
        )
    base = sum(int(t) for t in _TERM.findall(match.group(1)))
    critical_at = int(match.group(2)) if match.group(2) else None
    over_at = int(match.group(3)) if match.group(3) else None
    if critical_at is not None and over_at is not None and over_at < critical_at:
        raise ValueError(f"command {quoted(expression)}: the over-critical total {over_at} is below the critical {critical_at}")
    criticals = CriticalRule.natural_total(critical_at, over_at) if critical_at is not None else CriticalRule.none()
    target = whole_number(match.group(5), "target") if match.group(5) is not None else None
    return CheckCommand(text, base, criticals, match.group(4), target)


def _succeeds(command: CheckCommand, check: CheckRoll) -> bool | None:
    if command.target is None:
        return None
    if command.op == ">=":  # the one rule of a check against a difficulty
        return difficulty_check(command.base, command.target, check.dice).success
    return not check.fumbled and check.total > command.target


@dataclass(frozen=True)
class CommandRoll(Worked):
    expression: str
    check: CheckRoll
    target: int | None
    success: bool | None

    def to_dict(self) -> dict:
        return {"expression": self.expression, "system": SYSTEM, "command": "VW", "dice": list(self.check.dice),
                "base": self.check.base, "total": self.check.total, "kind": self.check.kind,
                "target": self.target, "success": self.success, "steps": list(self.steps)}

    def text(self) -> str:
        return "\n".join([f"{self.expression} = {self.check.total} ({self.check.kind})"] + [f"  {s}" for s in self.steps])


def _roll(text: str, source: DiceSource) -> CommandRoll:
    command = parse_command(text)
    check = check_roll("check", command.base, (source.draw(6), source.draw(6)), criticals=command.criticals)
    success = _succeeds(command, check)
    steps = list(check.steps)
    if success is not None:
        if check.fumbled:
            steps.append("a fumble fails whatever the total (004 §3-4-2-2, line 43)")
        else:
            steps.append(f"{check.total} {command.op} {command.target}: {'success' if success else 'failure'}")
    return CommandRoll(command.text, check, command.target, success, steps=tuple(steps))


def roll_command(expression: str, *, seed: int | None = None,
                 dice: Sequence[int] | None = None) -> CommandRoll | RollResult | ChatRoll:
    """Roll a chat line: ``VW...`` with a seed or the two d6 given (004 §3-4-2-2), other text as
    generic notation; a secret, repeated or commented line gives a :class:`~rules_lib.dice.chat.ChatRoll`."""
    return COMMANDS.roll(expression, seed=seed, dice=dice)


@dataclass(frozen=True)
class CommandOdds:
    expression: str
    fumble: Fraction
    critical: Fraction
    over_critical: Fraction
    success: Fraction | None

    def to_dict(self) -> dict:
        return {"expression": self.expression, "system": SYSTEM, "command": "VW", "fumble": str(self.fumble),
                "critical": str(self.critical), "over_critical": str(self.over_critical),
                "success": None if self.success is None else str(self.success)}

    def text(self) -> str:
        lines = [self.expression]
        if self.success is not None:
            lines.append(f"success: {self.success} ({percent(self.success)})")
        for label, p in (("fumble", self.fumble), ("critical", self.critical), ("over-critical", self.over_critical)):
            lines.append(f"{label}: {p} ({percent(p)})")
        return "\n".join(lines)


def _odds(text: str) -> CommandOdds:
    command = parse_command(text)
    counts = {"fumble": 0, "critical": 0, "over-critical": 0, "normal": 0}
    successes = 0
    for pair in product(range(1, 7), repeat=2):
        check = check_roll("check", command.base, pair, criticals=command.criticals)
        counts[check.kind] += 1
        successes += bool(_succeeds(command, check))
    success = Fraction(successes, 36) if command.target is not None else None
    return CommandOdds(command.text, Fraction(counts["fumble"], 36), Fraction(counts["critical"], 36),
                       Fraction(counts["over-critical"], 36), success)


def odds_command(expression: str) -> CommandOdds | Odds:
    """Exact odds of ``VW...`` over the 36 rolls of 2D6 (004 §3-4-2-2); other text as generic notation."""
    return COMMANDS.odds(expression)


#: this system's commands under BCDice's chat conventions (comment, secret, repetition)
#: what ``rules-lib --help`` shows of these commands: one example each, and the key of the message
#: saying what it rolls (rules_lib.messages)
HELP_EXAMPLES: tuple[tuple[str, str], ...] = (("VW+8@11>14", "help.verse-world.attack"),)
COMMANDS = CommandSet(SYSTEM, own=re.compile("VW"), roll_own=_roll, odds_own=_odds)
