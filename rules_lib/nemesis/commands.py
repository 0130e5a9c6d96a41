"""Nemesis dice commands in the style of BCDice commands (BCDice has no dicebot for this wargame).

- ``AD``: the action dice (行動判定力, 002 §1-1, line 151): 3D6, read as a triple (三ゾロ目), a
  straight (三連番) or a pair (ゾロ目) (002 §H4). ``ADn`` rolls ``n`` dice instead (fewer after
  destroyed legs or a fall, 002 §7-1, §H5; a pattern is read only from 3 dice).
- ``AD[34(5)]``: the same, also counting the attacks of a weapon whose proper range
  (適正射程) is ``34(5)`` (002 §H1, line 55, §1-1, lines 159-161). A trailing ``R`` marks a rapid-
  or quick-fire weapon (連射, 速射), which attacks once per matching die. A bracketed face
  does not fire (the library's reading, :class:`~.action.ExtendedFace`).
- ``OPa>b``: opposed d6 pools (002 §5-1, the approach check): ``a`` d6 summed must exceed
  ``b`` d6 summed; a tie goes to the second pool.
- Anything else is BCDice's generic notation (``3D6``, ``1D20+1>6``, ``3D6+2``) rolled by
  :func:`rules_lib.dice.roll`. Generic ``3D6`` gives the total only: ``AD`` adds the pattern and
  the attacks, ``OP`` the comparison of two pools. ``a`` and ``b`` may be arithmetic (``OP4+1>3``).

A line may carry BCDice's comment, secret ``S`` and ``xN`` repetition (:mod:`rules_lib.dice.chat`):
``AD[34(5)] 【rifle】``, ``SOP5>3``, ``x2 AD``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..checks import command_text
from ..dice import Distribution, Odds, RollResult, opposed_pools, percent, pool_distribution
from ..dice.chat import ChatRoll, CommandSet, whole_number
from ..dice.errors import quoted
from ..dice.roll import DiceSource
from ..worked import Worked
from .action import (
    ACTION_DICE,
    ExtendedFace,
    attack_count,
    attack_count_distribution,
    pattern_odds,
    read_pattern,
)
from .melee import approach
from .silhouette import Weapon, parse_ability, parse_proper_range

SYSTEM = "nemesis"
_AD = re.compile(r"^AD(\d+)?(?:\[([0-9()]+)\](R)?)?$", re.ASCII)
_OP = re.compile(r"^OP([^>]+)>(.+)$")
#: the most dice a pool command rolls (a guard, not a rule: the text's pools are mobility-sized)
MAX_POOL = 30


@dataclass(frozen=True)
class ActionCommand:
    dice: int
    weapon: Weapon | None


@dataclass(frozen=True)
class OpposedCommand:
    first: int
    second: int


def _weapon(faces: str, rapid: bool) -> Weapon:
    return Weapon(key="weapon", name=f"proper range {faces}", attack="1D20", damage="1D6",
                  proper_range=parse_proper_range(faces),
                  abilities=(parse_ability("連射"),) if rapid else ())


def parse_command(expression: str) -> ActionCommand | OpposedCommand:
    """Read ``AD``, ``ADn``, ``AD[faces]``, ``AD[faces]R`` or ``OPa>b``, with a clear error otherwise."""
    text = COMMANDS.command(expression)
    match = _AD.match(text)
    if match:
        count = int(match.group(1)) if match.group(1) else ACTION_DICE
        if not 0 <= count <= ACTION_DICE:
            raise ValueError(f"command {quoted(expression)}: {count} action dice; allowed are 0 to {ACTION_DICE} (002 §1-1)")
        weapon = _weapon(match.group(2), bool(match.group(3))) if match.group(2) else None
        return ActionCommand(count, weapon)
    match = _OP.match(text)
    if match:
        first, second = (whole_number(match.group(i), "pool size") for i in (1, 2))
        for n in (first, second):
            if not 0 <= n <= MAX_POOL:
                raise ValueError(f"command {quoted(expression)}: {n} dice is too {'many' if n > MAX_POOL else 'few'}; "
                                 f"allowed are 0 to {MAX_POOL}")
        return OpposedCommand(first, second)
    raise ValueError(
        f"command {quoted(expression)} does not parse: allowed are AD, ADn, AD[faces], AD[faces]R and OPa>b, "
        "e.g. AD, AD2, AD[34(5)], AD[3]R, OP5>3"
    )


@dataclass(frozen=True)
class CommandRoll(Worked):
    expression: str
    command: str
    dice: tuple[int, ...]
    pattern: str | None
    attacks: int | None
    success: bool | None
    totals: tuple[int, int] | None

    def to_dict(self) -> dict:
        data = {"expression": self.expression, "system": SYSTEM, "command": self.command, "dice": list(self.dice)}
        if self.command == "AD":
            data.update({"pattern": self.pattern, "attacks": self.attacks})
        else:
            data.update({"totals": list(self.totals), "success": self.success})
        data["steps"] = list(self.steps)
        return data

    def text(self) -> str:
        head = f"{self.expression} = {'-'.join(map(str, self.dice)) or 'no dice'}"
        return "\n".join([head] + [f"  {s}" for s in self.steps])


def _roll(command: str, source: DiceSource) -> CommandRoll:
    parsed = parse_command(command)
    text = command_text(command)
    if isinstance(parsed, ActionCommand):
        faces = tuple(source.draw(6) for _ in range(parsed.dice))
        steps: list[str] = [f"{parsed.dice}D6 action dice: {'-'.join(map(str, faces)) or 'none'} (002 §1-1)"]
        kind = None
        if len(faces) == ACTION_DICE:
            reading = read_pattern(faces)
            kind = reading.pattern
            steps += reading.steps[1:]
        attacks = None
        if parsed.weapon is not None:
            count = attack_count(faces, parsed.weapon)
            attacks = count.attacks
            steps += count.steps
        return CommandRoll(text, "AD", faces, kind, attacks, None, None, steps=tuple(steps))
    first = tuple(source.draw(6) for _ in range(parsed.first))
    second = tuple(source.draw(6) for _ in range(parsed.second))
    result = approach(first, second)
    steps = tuple(s.replace("approacher", "first pool").replace("shooter", "second pool") for s in result.steps)
    return CommandRoll(text, "OP", first + second, None, None, result.success,
                       (result.approacher_total, result.shooter_total), steps=steps)


def roll_command(expression: str, *, seed: int | None = None,
                 dice: Sequence[int] | None = None) -> CommandRoll | RollResult | ChatRoll:
    """Roll a chat line with a seed or the d6 given (for ``OP`` the first pool's dice first); a
    secret, repeated or commented line gives a :class:`~rules_lib.dice.chat.ChatRoll`."""
    return COMMANDS.roll(expression, seed=seed, dice=dice)


@dataclass(frozen=True)
class CommandOdds:
    expression: str
    command: str
    patterns: Distribution | None = None
    attacks: Distribution | None = None
    totals: Distribution | None = None
    higher: Fraction | None = None
    tie: Fraction | None = None

    def to_dict(self) -> dict:
        data: dict = {"expression": self.expression, "system": SYSTEM, "command": self.command}
        if self.command == "AD":
            data["patterns"] = None if self.patterns is None else {k: str(v) for k, v in self.patterns.items()}
            data["attacks"] = None if self.attacks is None else {str(k): str(v) for k, v in self.attacks.items()}
            data["total"] = {str(k): str(v) for k, v in self.totals.items()}
        else:
            data.update({"success": str(self.higher), "tie": str(self.tie)})
        return data

    def text(self) -> str:
        lines = [self.expression]
        if self.command == "OP":
            lines.append(f"first pool exceeds the second: {self.higher} ({percent(self.higher)})")
            lines.append(f"tie (the second pool holds): {self.tie} ({percent(self.tie)})")
            return "\n".join(lines)
        for title, dist in (("pattern", self.patterns), ("attacks", self.attacks), ("total", self.totals)):
            if dist is not None:
                lines.append(f"{title}:")
                lines += [f"  {str(k):>8}  {str(v):>8}  {percent(v):>7}" for k, v in dist.items()]
        return "\n".join(lines)


def _odds(command: str) -> CommandOdds:
    parsed = parse_command(command)
    text = command_text(command)
    if isinstance(parsed, ActionCommand):
        patterns = pattern_odds() if parsed.dice == ACTION_DICE else None
        attacks = None
        if parsed.weapon is not None:
            attacks = attack_count_distribution(parsed.weapon, parsed.dice, ExtendedFace.IGNORED)
        return CommandOdds(text, "AD", patterns=patterns, attacks=attacks, totals=pool_distribution(parsed.dice))
    result = opposed_pools(parsed.first, parsed.second)
    return CommandOdds(text, "OP", higher=result.higher, tie=result.tie)


def odds_command(expression: str) -> CommandOdds | Odds:
    """Exact odds: patterns and attacks of ``AD`` (002 §H4, §1-1), the approach chance of ``OP`` (002 §5-1)."""
    return COMMANDS.odds(expression)


#: this system's commands under BCDice's chat conventions (comment, secret, repetition)
#: what ``rules-lib --help`` shows of these commands: one example each, and the key of the message
#: saying what it rolls (rules_lib.messages)
HELP_EXAMPLES: tuple[tuple[str, str], ...] = (
    ("AD[34(5)]", "help.nemesis.action_dice"), ("OP5>3", "help.nemesis.approach"))
COMMANDS = CommandSet(SYSTEM, own=re.compile("AD|OP"), roll_own=_roll, odds_own=_odds)
