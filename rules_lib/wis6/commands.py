"""WIS6 dice commands in the style of BCDice commands (BCDice has no WIS6 dicebot).

- ``SL<=A``: a success roll (001 §3-1): 1D20 against the ability value ``A``, read as a success
  level 0 (failed), 1, 2, 4, 8, ...; a roll of 1 is a critical (001 §3-1, line 43) and takes the
  maximum level (:func:`~.levels.maximum_level`, a ruling: :class:`~.rules.Wis6Rules`). ``A`` may
  be arithmetic (``SL<=13+2``).
- Anything else is BCDice's generic notation (``1D20<=13``, ``2D6+3``), rolled by
  :func:`rules_lib.dice.roll`. ``1D20<=13`` says only hit or miss; ``SL<=13`` adds the level
  and the critical, which the damage formulas need (001 §3-2).

A line may carry BCDice's comment, secret ``S`` and ``xN`` repetition (:mod:`rules_lib.dice.chat`):
``SSL<=13 【反応】evasion``, ``x2 SL<=13``.

``roll_command`` and ``odds_command`` are what ``rules-lib roll/odds --system wis6`` call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..dice import Odds, RollResult, percent
from ..dice.chat import ChatRoll, CommandSet, whole_number
from ..dice.errors import quoted
from ..dice.roll import DiceSource
from .levels import DIE_SIDES, LevelOdds, SuccessRoll, check_ability, level_odds, success_roll
from .rules import DEFAULT_RULES, Wis6Rules

_SL = re.compile(r"^SL<=(.+)$")
SYSTEM = "wis6"


def parse_command(expression: str) -> int:
    """The ability value of ``SL<=A`` (001 §3-1), or an error naming the form allowed."""
    form = "the WIS6 success roll is SL<=ability, e.g. SL<=13"
    match = _SL.match(COMMANDS.command(expression))
    if not match:
        raise ValueError(f"command {quoted(expression)} does not parse: {form}")
    try:
        ability = whole_number(match.group(1), "ability value")
    except ValueError as error:
        raise ValueError(f"command {quoted(expression)}: {error}; {form}") from None
    return check_ability(ability, "ability value")


@dataclass(frozen=True)
class _SuccessCommand:
    """What an ``SL<=A`` roll and its odds share: the command as read, and the head of their JSON."""

    expression: str

    def _dict(self, **values: object) -> dict:
        """The JSON form (``rules-lib --json``): the command, then ``values`` in order."""
        return {"expression": self.expression, "system": SYSTEM, "command": "SL", **values}


@dataclass(frozen=True)
class SuccessCommandRoll(_SuccessCommand):
    """An ``SL<=A`` roll: the d20, the level reached and whether it is a critical."""

    result: SuccessRoll

    def to_dict(self) -> dict:
        return self._dict(dice=[self.result.roll], ability=self.result.ability, level=self.result.level,
                          critical=self.result.critical, success=self.result.succeeded, steps=list(self.result.steps))

    def text(self) -> str:
        r = self.result
        head = f"{self.expression} = {r.roll}: " + (f"success level {r.level}" if r.level else "failed (level 0)")
        return "\n".join([head + (" (critical)" if r.critical else "")] + [f"  {s}" for s in r.steps])


def _roll(command: str, source: DiceSource, rules: Wis6Rules = DEFAULT_RULES) -> SuccessCommandRoll:
    ability = parse_command(command)
    return SuccessCommandRoll(f"SL<={ability}", success_roll(source.draw(DIE_SIDES), ability, rules))


def roll_command(expression: str, *, seed: int | None = None, dice: Sequence[int] | None = None,
                 rules: Wis6Rules = DEFAULT_RULES) -> SuccessCommandRoll | RollResult | ChatRoll:
    """Roll a chat line: ``SL<=A`` (001 §3-1) with a seed or the one d20 given, other text as
    generic notation; a secret, repeated or commented line gives a :class:`~rules_lib.dice.chat.ChatRoll`."""
    return COMMANDS.roll(expression, seed=seed, dice=dice, rules=rules)


@dataclass(frozen=True)
class SuccessCommandOdds(_SuccessCommand):
    """The exact odds of ``SL<=A``: each success level, failure and a critical."""

    odds: LevelOdds

    def to_dict(self) -> dict:
        o = self.odds
        return self._dict(ability=o.ability, success=str(1 - o.failure), critical=str(o.critical),
                          critical_level=o.critical_level, levels={str(k): str(v) for k, v in o.levels.items()})

    def text(self) -> str:
        o = self.odds
        lines = [self.expression, f"success: {1 - o.failure} ({percent(1 - o.failure)})",
                 f"critical (a 1): {o.critical} ({percent(o.critical)}), at level {o.critical_level}"]
        lines += [f"  level {k:>3}  {str(v):>6}  {percent(v):>7}" for k, v in o.levels.items()]
        return "\n".join(lines)


def _odds(command: str, rules: Wis6Rules = DEFAULT_RULES) -> SuccessCommandOdds:
    ability = parse_command(command)
    return SuccessCommandOdds(f"SL<={ability}", level_odds(ability, rules))


def odds_command(expression: str, rules: Wis6Rules = DEFAULT_RULES) -> SuccessCommandOdds | Odds:
    """Exact odds of ``SL<=A`` (001 §3-1, :func:`~.levels.level_odds`); other text as generic notation."""
    return COMMANDS.odds(expression, rules=rules)


def success_chance(ability: int) -> Fraction:
    """The chance ``1D20<=A`` succeeds, which is also ``SL<=A`` reaching level 1 or more (001 §3-1)."""
    return 1 - level_odds(ability).failure


#: this system's commands under BCDice's chat conventions (comment, secret, repetition)
#: what ``rules-lib --help`` shows of these commands: one example each, and the key of the message
#: saying what it rolls (rules_lib.messages)
HELP_EXAMPLES: tuple[tuple[str, str], ...] = (("SL<=13", "help.wis6.level"),)
COMMANDS = CommandSet(SYSTEM, own=re.compile("SL"), roll_own=_roll, odds_own=_odds)
