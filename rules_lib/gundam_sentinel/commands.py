"""This system's dice commands, as the public BCDice GundamSentinel dicebot defines them.

- ``BB[+m][>e]``: a hit check, 1D36 moved ``m`` steps, against evasion ``e`` (000 §6).
- ``BBM[+m][>e]``: the same against a mook (mob) MS: a modified 66 or more is a critical.
- ``GS[+m][>t]``: a general check, 2D6 + ``m`` must exceed ``t`` (10 if not given).

``roll_command`` and ``odds_command`` are what ``rules-lib roll/odds --system gundam-sentinel`` call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..dice import Distribution, GivenDice, SeededDice, percent
from ..dice.parser import check_text
from . import d36
from .to_hit import check_hit, hit_odds

_BB = re.compile(r"^BB(M)?((?:[+-]\d+)*)(?:>([+-]?\d+))?$")
_GS = re.compile(r"^GS((?:[+-]\d+)*)(?:>([+-]?\d+))?$")
_TERM = re.compile(r"[+-]\d+")
GENERAL_TARGET = 10


def _normalise(expression: str) -> str:
    if not isinstance(expression, str):
        raise ValueError(f"command {expression!r} is not text")
    table = str.maketrans("０１２３４５６７８９＋－−＞ＢＭＧＳ", "0123456789+--＞BMGS")
    return expression.strip().upper().translate(table).replace("＞", ">").replace(" ", "")


@dataclass(frozen=True)
class Command:
    kind: str  # "BB", "BBM" or "GS"
    modifier: int
    target: int | None
    text: str


def parse_command(expression: str) -> Command:
    """Read ``BB``, ``BBM`` or ``GS`` with an optional modifier and evasion/target."""
    text = _normalise(expression)
    check_text(expression, "the command")  # the limits of every notation (length, digits)
    m = _BB.match(text)
    if m:
        modifier = sum(int(t) for t in _TERM.findall(m.group(2)))
        target = None
        if m.group(3) is not None:
            target = int(m.group(3))
            d36.step_of(target, "evasion")
        return Command("BBM" if m.group(1) else "BB", modifier, target, text)
    m = _GS.match(text)
    if m:
        modifier = sum(int(t) for t in _TERM.findall(m.group(1)))
        target = int(m.group(2)) if m.group(2) is not None else GENERAL_TARGET
        return Command("GS", modifier, target, text)
    raise ValueError(
        f"command {expression!r} does not parse: allowed are BB[+m][>e], BBM[+m][>e] and GS[+m][>t], "
        "e.g. BB+14>54, BBM-3>45, GS+2>10"
    )


@dataclass(frozen=True)
class CommandRoll:
    expression: str
    kind: str
    dice: tuple[int, int]
    roll: int
    modifier: int
    total: int
    target: int | None
    hit: bool | None
    margin: int | None
    critical: bool
    steps: tuple[str, ...]

    def to_dict(self) -> dict:
        data = {
            "expression": self.expression, "system": "gundam-sentinel", "command": self.kind,
            "dice": list(self.dice), "roll": self.roll, "modifier": self.modifier, "total": self.total,
        }
        if self.kind == "GS":
            data.update({"target": self.target, "success": self.hit})
        else:
            data.update({"evasion": self.target, "hit": self.hit, "margin": self.margin,
                         "critical": self.critical, "mob": self.kind == "BBM"})
        data["steps"] = list(self.steps)
        return data

    def text(self) -> str:
        return "\n".join([f"{self.expression} = {self.total}"] + [f"  {s}" for s in self.steps])


def roll_command(expression: str, *, seed: int | None = None, dice: Sequence[int] | None = None) -> CommandRoll:
    """Roll a command with a seed or with the two dice given (tens first for BB)."""
    command = parse_command(expression)
    source = GivenDice(dice) if dice is not None else SeededDice(seed)
    a, b = source.draw(6), source.draw(6)
    if isinstance(source, GivenDice):
        source.finish()
    if command.kind == "GS":
        total = a + b + command.modifier
        success = total > command.target
        steps = (f"2D6 {a}+{b} = {a + b}" + (f", {command.modifier:+d} = {total}" if command.modifier else ""),
                 f"{total} {'>' if success else '<='} {command.target}: {'success' if success else 'failure'}")
        return CommandRoll(command.text, "GS", (a, b), a + b, command.modifier, total, command.target,
                           success, None, False, steps)
    mob = command.kind == "BBM"
    if command.target is None:
        check = check_hit(a, b, command.modifier, 11)
        critical = mob and d36.step_of(check.total) >= d36.step_of(66)
        steps = tuple(s for s in check.steps if "evasion" not in s and "exceed" not in s)
        if critical:
            steps += (f"{check.total} is 66 or more against a mook MS: critical",)
        return CommandRoll(command.text, command.kind, (a, b), check.roll, command.modifier, check.total,
                           None, None, None, critical, steps)
    check = check_hit(a, b, command.modifier, command.target, target_is_mob=mob)
    return CommandRoll(command.text, command.kind, (a, b), check.roll, command.modifier, check.total,
                       command.target, check.hit, check.margin, check.critical, check.steps)


@dataclass(frozen=True)
class CommandOdds:
    expression: str
    kind: str
    hit: Fraction | None
    critical: Fraction | None
    total: Distribution
    margin: Distribution | None

    def to_dict(self) -> dict:
        data: dict = {"expression": self.expression, "system": "gundam-sentinel", "command": self.kind}
        if self.kind == "GS":
            data["success"] = str(self.hit)
        else:
            data["hit"] = None if self.hit is None else str(self.hit)
            data["critical"] = str(self.critical)
            data["mob"] = self.kind == "BBM"
            if self.margin is not None:
                data["margin"] = {str(k): str(v) for k, v in self.margin.items()}
        data["total"] = {str(k): str(v) for k, v in self.total.items()}
        return data

    def text(self) -> str:
        lines = [self.expression]
        label = "success" if self.kind == "GS" else "hit"
        if self.hit is not None:
            lines.append(f"{label}: {self.hit} ({percent(self.hit)})")
        if self.kind != "GS":
            lines.append(f"critical: {self.critical} ({percent(self.critical)})"
                         + ("" if self.kind == "BBM" else " (only BBM, against a mook MS, judges criticals)"))
        for outcome, p in self.total.items():
            lines.append(f"  {outcome:>4}  {str(p):>6}  {percent(p):>7}")
        return "\n".join(lines)


def odds_command(expression: str) -> CommandOdds:
    """Exact odds of a command: for BB/BBM the chance to hit and of a critical, for GS of success."""
    command = parse_command(expression)
    if command.kind == "GS":
        totals = Distribution.uniform(a + b + command.modifier for a in range(1, 7) for b in range(1, 7))
        return CommandOdds(command.text, "GS", totals.probability(lambda t: t > command.target), None, totals, None)
    mob = command.kind == "BBM"
    if command.target is None:
        base = hit_odds(command.modifier, 11)
        critical = base.total.probability(lambda t: d36.step_of(t) >= d36.step_of(66)) if mob else Fraction(0)
        return CommandOdds(command.text, command.kind, None, critical, base.total, None)
    result = hit_odds(command.modifier, command.target, target_is_mob=mob)
    return CommandOdds(command.text, command.kind, result.hit, result.critical, result.total, result.margin)
