"""This system's dice commands, exactly as the public BCDice GundamSentinel dicebot computes them.

- ``BB[+m][>e]``: a hit check, 1D36 moved ``m`` steps, against evasion ``e`` (000 §6).
- ``BBM[+m][>e]``: the same against a mook (mob) MS: a modified 66 or more is a critical,
  **whether or not it hits** (BCDice; the book's :func:`~.to_hit.check_hit` needs a hit).
- ``GS[+m][>t]``: a general check, 2D6 + ``m`` must exceed ``t`` (10 if not given).
- ``ECHC``, ``SDDC``, ``ASDC``, ``PEJC[+m]``, ``RTJC[+m]``, ``AARC[+m]=t``: the charts of
  :mod:`.charts` (BCDice's transcription, *not in the source text*).

The arithmetic is BCDice's (``GundamSentinel.rb`` at commit 98145305, see ``charts.toml``): an
evasion is any whole number, and one whose units digit is 0 or 7-9 is compared as a plain number
and counted as ``tens * 6 + units`` (``BB+5>30`` hits from 31 up, ``+1`` at 31). The book's rule
functions keep the text's readings; the chapter's rulings page lists each difference. Where BCDice
silently reads a malformed modifier as 0 or ignores trailing text, the library refuses the
command and says why.

A line is read with BCDice's conventions (:mod:`rules_lib.dice.chat`): a comment after a space
(``BB+5>30 射撃``), the secret ``S`` (``SBB+5>30``), ``xN``/``repN``/``repeatN`` repetition
(``x3 BB+5>30``), whose ``--format bcdice`` text is BCDice's (``#1``, ``#2``, ...).

``roll_command`` and ``odds_command`` are what ``rules-lib roll/odds --system gundam-sentinel`` call;
``CommandRoll.bcdice_line()`` is BCDice's output line (``--format bcdice``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..checks import halfwidth
from ..dice import Distribution, Odds, RollResult, percent
from ..dice.chat import ChatRoll, CommandSet, is_generic
from ..dice.errors import quoted
from ..dice.roll import DiceSource
from .charts import ChartOdds, ChartRoll, chart_odds, get_chart, roll_chart
from .to_hit import CRITICAL_AT  # a modified 66 or more flags BBM's critical (BCDice: hit or not)

GENERAL_TARGET = 10
#: the BCDice dicebot whose output lines these commands print (``rules-lib roll --format bcdice``)
BCDICE_DICEBOT = "GundamSentinel"
CHART_COMMANDS = ("ECHC", "SDDC", "ASDC", "PEJC", "RTJC", "AARC")
ALLOWED = ("BB[+m][>e], BBM[+m][>e], GS[+m][>t], ECHC, SDDC, ASDC, PEJC[+m], RTJC[+m], AARC[+m]=t "
           "(e.g. BB+14>54, BBM-3>45, GS+2>10, PEJC+3, AARC-1=4)")

_BB = re.compile(r"^BB(M)?([-+][-+\d]+)?(>([-+\d]+))?", re.ASCII)
_GS = re.compile(r"^GS([-+][-+\d]+)?(>([-+\d]+))?", re.ASCII)
_PARENTHESES = re.compile(r"\([\d/+*\-CURF]+\)", re.ASCII)


# -- BCDice's arithmetic ------------------------------------------------------------------------------


class _Arithmetic:
    """BCDice's integer arithmetic (``Command::Parser``/``ArithmeticEvaluator``): + - * / and
    parentheses; ``/`` rounds up for this system (its ``round_type`` is CEIL) unless followed by
    F (down), R (half away from zero), C or U (up)."""

    _TOKEN = re.compile(r"\d+|[-+*/()]|[CURF]", re.ASCII)

    def __init__(self, text: str, what: str) -> None:
        self.text, self.what = text, what
        self.tokens = self._TOKEN.findall(text)
        if "".join(self.tokens) != text:
            self.fail()
        self.i = 0

    def fail(self) -> None:
        raise ValueError(f"{self.what} {quoted(self.text)} is not whole-number arithmetic (+ - * / and brackets); "
                         "BCDice would read it as 0 or not at all, the library refuses it")

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, *allowed: str) -> str | None:
        if self.peek() in allowed:
            self.i += 1
            return self.tokens[self.i - 1]
        return None

    def whole(self, signed_terms: bool = False) -> int:
        value = self.terms() if signed_terms else self.add()
        if self.peek() is not None:
            self.fail()
        return value

    def terms(self) -> int:  # Command::Parser's modifier: one or more "+x" / "-x"
        total = 0
        while self.peek() is not None:
            sign = self.take("+", "-")
            if sign is None:
                self.fail()
            total += self.mul() if sign == "+" else -self.mul()
        return total

    def add(self) -> int:
        value = self.mul()
        while (op := self.take("+", "-")) is not None:
            value = value + self.mul() if op == "+" else value - self.mul()
        return value

    def mul(self) -> int:
        value = self.unary()
        while (op := self.take("*", "/")) is not None:
            right = self.unary()
            if op == "*":
                value *= right
                continue
            if right == 0:
                raise ValueError(f"{self.what} {quoted(self.text)} divides by zero")
            how = self.take("C", "U", "R", "F")
            if how == "F":
                value = value // right
            elif how == "R":
                q = Fraction(value, right)
                value = int(math.floor(abs(q) + Fraction(1, 2))) * (1 if q >= 0 else -1)
            else:
                value = -((-value) // right)
        return value

    def unary(self) -> int:
        if self.take("+"):
            return self.unary()
        if self.take("-"):
            return -self.unary()
        if self.take("("):
            value = self.add()
            if not self.take(")"):
                self.fail()
            return value
        token = self.peek()
        if token is None or not token.isdigit():
            self.fail()
        self.i += 1
        return int(token)


def _evaluate(text: str, what: str, *, signed_terms: bool = False) -> int:
    return _Arithmetic(text, what).whole(signed_terms)


def _preprocess(command: str) -> str:
    """BCDice's preprocessing of a command (its comment already split off by the chat line): work
    out bracketed arithmetic, upper-case. Full-width digits and signs are read as ASCII (a
    convenience for the book's Japanese text; BCDice does not)."""
    text = halfwidth(command).strip()
    while True:
        replaced = _PARENTHESES.sub(lambda m: str(_evaluate(m.group(0).upper(), "bracketed value")), text)
        if replaced == text:
            break
        text = replaced
    return text.upper()


# -- parsing ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """A parsed command: ``kind`` (BB, BBM, GS or a chart id), the modifier, the evasion/target/
    defence (``None`` when not given), whether a modifier was written, and the text as BCDice echoes it."""

    kind: str
    modifier: int
    target: int | None
    text: str
    has_modifier: bool = False


def _refuse_trailing(m: re.Match, text: str, expression: str, form: str) -> None:
    """Refuse text after a command's whole ``form``: BCDice ignores it, the library does not."""
    if m.end() != len(text):
        raise ValueError(f"command {quoted(expression)}: {quoted(text[m.end():], 30)} after "
                         f"{quoted(text[:m.end()], 30)} is not part of {form} (BCDice would ignore it; the library "
                         "refuses it)")


def parse_command(expression: str) -> Command:
    """Read one of :data:`ALLOWED` as BCDice reads it (after its preprocessing); a comment after a
    space is allowed, as on a chat line (:mod:`rules_lib.dice.chat`, which also checks the limits)."""
    text = _preprocess(COMMANDS.read(expression).command)
    m = _BB.match(text)
    if m:
        _refuse_trailing(m, text, expression, "BB[+m][>e]")
        modifier = _evaluate(m.group(2), "modifier") if m.group(2) else 0
        target = _evaluate(m.group(4), "evasion") if m.group(3) else None
        return Command("BBM" if m.group(1) else "BB", modifier, target, text, m.group(2) is not None)
    m = _GS.match(text)
    if m:
        _refuse_trailing(m, text, expression, "GS[+m][>t]")
        modifier = _evaluate(m.group(1), "modifier") if m.group(1) else 0
        target = _evaluate(m.group(3), "target") if m.group(2) else GENERAL_TARGET
        return Command("GS", modifier, target, text, m.group(1) is not None)
    if text in ("ECHC", "SDDC", "ASDC"):
        return Command(text, 0, None, text)
    for kind in ("PEJC", "RTJC", "AARC"):
        if text.startswith(kind):
            rest = text[len(kind):]
            target = None
            if kind == "AARC":
                m = re.fullmatch(r"(.*?)==?([^=]+)", rest)
                if not m:
                    raise ValueError(f"command {quoted(expression)}: AARC needs the anti-aircraft defence, AARC[+m]=t")
                rest, target = m.group(1), _evaluate(m.group(2), "anti-aircraft defence")
            if rest and rest[0] not in "+-":
                raise ValueError(f"command {quoted(expression)}: {kind} takes only a modifier, {kind}[+m]"
                                 + ("=t" if kind == "AARC" else ""))
            modifier = _evaluate(rest, "modifier", signed_terms=True) if rest else 0
            return Command(kind, modifier, target, text, bool(rest))
    raise ValueError(f"command {quoted(expression)} does not parse: allowed are {ALLOWED}")


# -- BB / BBM / GS -------------------------------------------------------------------------------------


def _bcdice_units(value: int) -> int:
    """BCDice's count for a margin: tens * 6 + units (floor division, as Ruby's ``div``/``modulo``)."""
    return (value // 10) * 6 + value % 10


@dataclass(frozen=True)
class BasicBattle:
    """BCDice's basic combat (``roll_basic_battle``) for one pair of dice."""

    total: int
    hit: bool | None
    margin: int | None
    critical: bool


def basic_battle(tens: int, units: int, modifier: int, evasion: int | None, mob: bool) -> BasicBattle:
    """BB/BBM as BCDice computes it: carry the modifier through the units die in steps of six,
    floor the total at 11, hit when the total (as a number) exceeds the evasion, margin
    ``(tens*6+units)`` of total minus the same of the evasion; BBM flags 66 or more (000 §6)."""
    carry, units_left = divmod(units + modifier - 1, 6)
    total = max(11, (tens + carry) * 10 + units_left + 1)
    critical = mob and total >= CRITICAL_AT
    if evasion is None:
        return BasicBattle(total, None, None, critical)
    hit = total > evasion
    return BasicBattle(total, hit, _bcdice_units(total) - _bcdice_units(evasion), critical)


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
    has_modifier: bool = False

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
        data["bcdice"] = self.bcdice_line()
        data["steps"] = list(self.steps)
        return data

    def bcdice_line(self) -> str:
        """Exactly the line BCDice prints, e.g. ``(BB+5>30) ＞ 65+5 ＞ 74 ＞ 命中(+28)``."""
        parts = [f"({self.expression})"]
        if self.has_modifier:
            parts.append(f"{self.roll}+{self.modifier}" if self.modifier >= 0 else f"{self.roll}{self.modifier}")
        parts.append(str(self.total))
        if self.kind == "GS":
            parts.append("成功" if self.hit else "失敗")
        elif self.target is not None:
            parts.append(f"命中(+{self.margin})" if self.hit else "回避")
        if self.critical:
            parts.append("クリティカル")
        return " ＞ ".join(parts)

    def text(self) -> str:
        return "\n".join([f"{self.expression} = {self.total}"] + [f"  {s}" for s in self.steps])


def _roll_basic(command: Command, a: int, b: int) -> CommandRoll:
    if command.kind == "GS":
        total = a + b + command.modifier
        success = total > command.target
        steps = (f"2D6 {a}+{b} = {a + b}" + (f", {command.modifier:+d} = {total}" if command.modifier else ""),
                 f"{total} {'>' if success else '<='} {command.target}: {'success' if success else 'failure'}")
        return CommandRoll(command.text, "GS", (a, b), a + b, command.modifier, total, command.target,
                           success, None, False, steps, command.has_modifier)
    result = basic_battle(a, b, command.modifier, command.target, command.kind == "BBM")
    steps = [f"1D36: tens {a}, units {b} -> {10 * a + b}"]
    if command.modifier:
        steps.append(f"{command.modifier:+d} steps -> {result.total}"
                     + (" (floored at 11)" if 6 * (a - 1) + b - 1 + command.modifier < 0 else ""))
    if command.target is not None:
        steps.append(f"{result.total} {'exceeds' if result.hit else 'does not exceed'} evasion {command.target}: "
                     + (f"hit, margin {result.margin:+d}" if result.hit else "evaded")
                     + ("" if 1 <= command.target % 10 <= 6 and command.target >= 11 else
                        f" (evasion {command.target} is off the 1D36 scale: compared as a number, counted as "
                        f"{command.target // 10}*6+{command.target % 10}, as BCDice does)"))
    if result.critical:
        steps.append(f"{result.total} is {CRITICAL_AT} or more against a mook MS: critical (BCDice flags it hit or not)")
    return CommandRoll(command.text, command.kind, (a, b), 10 * a + b, command.modifier, result.total,
                       command.target, result.hit, result.margin, result.critical, tuple(steps), command.has_modifier)


def is_own_command(expression: str) -> bool:
    """Whether ``expression`` is one of this system's commands; BCDice rolls anything that starts
    like dice notation (``2D6+1``, ``D66``, ``(1+1)D6``) as its generic dice instead."""
    return not is_generic(expression)


def _roll(text: str, source: DiceSource) -> CommandRoll | ChartRoll:
    command = parse_command(text)
    dice = (source.draw(6), source.draw(6))
    if command.kind in ("BB", "BBM", "GS"):
        return _roll_basic(command, *dice)
    return roll_chart(get_chart(command.kind), dice, command.modifier, target=command.target)


def roll_command(expression: str, *, seed: int | None = None,
                 dice: Sequence[int] | None = None) -> CommandRoll | ChartRoll | RollResult | ChatRoll:
    """Roll a chat line with a seed or with the two dice given (BCDice's order: tens first for BB, the
    row first for SDDC; a repetition's dice one roll after another); generic notation is rolled as
    :func:`rules_lib.dice.roll` rolls it; a secret, repeated or commented line gives a
    :class:`~rules_lib.dice.chat.ChatRoll`."""
    return COMMANDS.roll(expression, seed=seed, dice=dice)


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


def _odds(text: str) -> CommandOdds | ChartOdds:
    command = parse_command(text)
    if command.kind not in ("BB", "BBM", "GS"):
        return chart_odds(get_chart(command.kind), command.modifier, target=command.target)
    rolls = [_roll_basic(command, a, b) for a in range(1, 7) for b in range(1, 7)]
    totals = Distribution.uniform(r.total for r in rolls)
    hit = None if command.target is None else Fraction(sum(bool(r.hit) for r in rolls), 36)
    if command.kind == "GS":
        return CommandOdds(command.text, "GS", hit, None, totals, None)
    critical = Fraction(sum(r.critical for r in rolls), 36)
    margin = None
    if command.target is not None:
        margin = Distribution.uniform(r.margin for r in rolls)
    return CommandOdds(command.text, command.kind, hit, critical, totals, margin)


def odds_command(expression: str) -> CommandOdds | ChartOdds | Odds:
    """Exact odds of a command, from the same arithmetic as the roll over all 36 pairs of dice: for
    BB/BBM the chance to hit and of a critical, for GS of success, for a chart each entry's chance;
    generic notation as :func:`rules_lib.dice.odds` gives them."""
    return COMMANDS.odds(expression)


#: this system's commands under BCDice's chat conventions; ``own`` is BCDice's ``register_prefix``
#: what ``rules-lib --help`` shows of these commands: one example each, and the key of the message
#: saying what it rolls (rules_lib.messages)
HELP_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("BB+14>54", "help.gundam-sentinel.hit"), ("GS+2>10", "help.gundam-sentinel.check"),
    ("SDDC", "help.gundam-sentinel.chart"))
COMMANDS = CommandSet("gundam-sentinel", own=re.compile(r"BBM?|GS|AARC|PEJC|RTJC|ECHC|ASDC|SDDC"),
                      roll_own=_roll, odds_own=_odds, is_own=is_own_command)


__all__ = ["ALLOWED", "CHART_COMMANDS", "BasicBattle", "Command", "CommandOdds", "CommandRoll", "basic_battle",
           "odds_command", "parse_command", "roll_command"]
