"""BCDice's chat-line conventions: the one place every system's dice commands read them.

A chat line (a line of a chat palette, チャットパレット, or what a player types at the table) is
``[S][xN ]COMMAND[ COMMENT]``, read as BCDice reads it (``BCDice::Preprocessor``,
``CommonCommand::Repeat``, ``Base#dice_command``; bcdice 4.9.0):

- **Comment.** The command ends at the first space (half- or full-width); the rest is a comment,
  which is not read: ``SL<=13 【反応】evasion`` rolls ``SL<=13``. A comment that starts with a sign
  that continues a command (``+ - * / < > = @ ( ) [ ]``, as in ``BB +14 >54``) is refused: BCDice
  would roll ``BB`` alone and drop the rest, a command silently shortened.
- **Secret.** ``S`` before a command (``SBB+5>30``, ``SSL<=13``, ``S2D6``) rolls it in secret; the
  result says so. ``S`` is the prefix only when what follows starts a command, as BCDice reads
  it: ``SL<=13`` is WIS6's ``SL``, ``SDDC`` the chart.
- **Repetition.** ``xN``, ``repN`` or ``repeatN`` (any case) and a space roll the command ``N``
  times, 1 to `MAX_REPEAT` (BCDice's ``REPEAT_LIMIT``); one repetition may not hold another.
- **Limits.** The whole line, comment included, is at most `MAX_EXPRESSION_LENGTH` characters;
  a number in the command is at most ``MAX_NUMBER`` (leading zeros do not count); an empty line is
  refused by name. These are the engine's guards, not rules of any text (the dice rulings page).

:class:`CommandSet` runs one system's commands under these conventions: its own commands by its
functions, anything else as the generic notation of :func:`rules_lib.dice.roll`. A line that is
one command, nothing more, gives that command's result; a secret, repeated or commented line a
:class:`ChatRoll` holding the rolls.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import checks
from ..checks import command_text, halfwidth
from .errors import DiceLimitError, DiceReplayError, DiceSyntaxError, quoted
from .exact import odds
from .parser import MAX_EXPRESSION_LENGTH, check_text, parse
from .roll import DiceSource, GivenDice, dice_source, roll_from

#: the most times ``xN`` repeats a command (BCDice's ``Repeat::REPEAT_LIMIT``)
MAX_REPEAT = 100
#: signs that go on with a command: a comment starting with one is part of a command split by a space
CONTINUING = "+-*/<>=@()[]×÷"

_REPEAT = re.compile(r"(S?)(REPEAT|REP|X)(\d+)\s+(.*)", re.IGNORECASE | re.DOTALL)
_REPEAT_START = re.compile(r"(REPEAT|REP|X)\d+(\s|$)", re.IGNORECASE)
#: what starts generic notation (BCDice's AddDice prefix: a number or a D, after signs and brackets)
_GENERIC = re.compile(r"[-+(]*(\d|D\d)", re.IGNORECASE)
_SPACE = re.compile(r"\s+")


@checks.checked_arguments
def is_generic(command: str) -> bool:
    """Whether ``command`` starts as generic dice notation does (``2D6+1``, ``D66``, ``(1+1)D6``, ``-1D6``)."""
    return _GENERIC.match(halfwidth(command)) is not None


@dataclass(frozen=True)
class ChatLine:
    """A chat line read: the ``command`` (half-width, as written), its ``comment``, whether it is
    ``secret``, and ``repeat``, the N of ``xN`` (``None`` without a repetition), with the word used."""

    command: str
    comment: str = ""
    secret: bool = False
    repeat: int | None = None
    repeat_word: str = ""

    @property
    def plain(self) -> bool:
        """Whether the line is the command alone: no secret, no repetition, no comment."""
        return not (self.secret or self.repeat is not None or self.comment)


def read_line(text: object, own: re.Pattern[str] | None = None) -> ChatLine:
    """Read a chat line: the repetition, the secret ``S``, the command and the comment.

    ``own`` matches the start of the system's own commands (BCDice's prefixes): ``S`` is the
    secret prefix when what follows matches it or starts generic notation.
    """
    if not isinstance(text, str):
        raise ValueError(f"command {quoted(repr(text))} is not text")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceLimitError(text, MAX_EXPRESSION_LENGTH + 1,
                             f"the line is {len(text)} characters long; at most {MAX_EXPRESSION_LENGTH} are allowed, "
                             "its comment included")
    line = text.strip()  # str.strip and \s take the ideographic space for a space, as BCDice does
    if not line:
        raise ValueError("the command is empty: write a dice command, then (after a space) a comment if you like")
    secret, repeat, word = False, None, ""
    # halfwidth maps one character to one, so a position in the folded line is one in the line
    repeated = _REPEAT.fullmatch(halfwidth(line))
    if repeated:
        secret, word, repeat, line = bool(repeated[1]), repeated[2], int(repeated[3]), line[repeated.start(4):].strip()
        if not 1 <= repeat <= MAX_REPEAT:
            raise ValueError(f"{word}{repeated[3]}: a command is repeated 1 to {MAX_REPEAT} times (BCDice's limit), "
                             f"not {repeat}")
        if _REPEAT_START.match(halfwidth(line)):
            raise ValueError(f"{quoted(text.strip())}: a repetition cannot repeat another (BCDice refuses it too)")
    command, _, comment = _SPACE.sub(" ", line, count=1).partition(" ")
    command, comment = halfwidth(command), comment.strip()  # the comment as written
    if comment[:1] and halfwidth(comment[0]) in CONTINUING:
        raise ValueError(
            f"{quoted(text.strip())}: the text after the space, {quoted(comment, 30)}, goes on with the command; "
            f"BCDice would roll {quoted(command, 30)} alone and take the rest as a comment. Write the command without spaces, then a space "
            "and the comment"
        )
    if command[:1] in "sS" and (is_generic(command[1:]) or (own is not None and own.match(command[1:].upper()))):
        secret, command = True, command[1:]
    check_text(command, "the command")
    return ChatLine(command, comment, secret, repeat, word)


@checks.checked_arguments
def whole_number(text: str, what: str) -> int:
    """A number written in a command, with + - * / and brackets as the dice notation reads them
    (``13+2``, ``(12+1)/2``; ``/`` rounds down, ``/U`` up, ``/R`` to the nearest), but no dice."""
    checks.text(text, what)
    try:
        parsed = parse("0" + text if text.startswith("+") else text)
    except DiceLimitError:
        raise
    except DiceSyntaxError:
        raise ValueError(f"{what} {quoted(text)} is not a whole number or arithmetic (+ - * / and brackets)") from None
    if parsed.comparison is not None:
        raise ValueError(f"{what} {quoted(text)} is a number, not a comparison")
    source = GivenDice(())
    try:
        return roll_from(parsed, source).total
    except DiceReplayError:
        raise ValueError(f"{what} {quoted(text)} is a number or arithmetic (+ - * /), not dice") from None


@dataclass(frozen=True)
class ChatRoll:
    """The rolls of a secret, repeated or commented chat line: ``rolls`` holds one result per
    repetition (one without ``xN``), each what the command alone gives."""

    line: ChatLine
    system: str
    rolls: tuple[Any, ...]

    @property
    def secret(self) -> bool:
        return self.line.secret

    @property
    def comment(self) -> str:
        return self.line.comment

    def to_dict(self) -> dict:
        """One roll: its JSON and ``secret`` (and ``comment``); a repetition: the rolls under ``rolls``."""
        marks: dict[str, Any] = {"secret": self.line.secret}
        if self.line.comment:
            marks["comment"] = self.line.comment
        if self.line.repeat is None:
            return {**self.rolls[0].to_dict(), **marks}
        return {"expression": self.line.command, "system": self.system, "repeat": self.line.repeat, **marks,
                "rolls": [roll.to_dict() for roll in self.rolls]}

    def text(self) -> str:
        """Each roll's text (numbered ``#1``, ``#2``... when repeated), marked secret, then the comment."""
        mark = "secret roll: " if self.line.secret else ""
        if self.line.repeat is None:
            first, *rest = self.rolls[0].text().splitlines()
            lines = [mark + first, *rest]
        else:
            lines = [f"{mark}{self.line.command}, {self.line.repeat} times ({self.line.repeat_word}{self.line.repeat})"]
            for number, roll in enumerate(self.rolls, start=1):
                first, *rest = roll.text().splitlines()
                lines += [f"#{number} {first}", *(f"  {step}" for step in rest)]
        if self.line.comment:
            lines.append(f"comment: {self.line.comment}")
        return "\n".join(lines)

    def bcdice_line(self) -> str:
        """BCDice's text: the command's line, or ``#1``, ``#2``... each line, a blank line between.

        Refused (``ValueError``) where a roll has no BCDice text: a system BCDice has no dicebot for,
        or generic notation, which the library does not print as BCDice does."""
        if not has_bcdice_line(self):
            raise ValueError(f"{self.system}'s {quoted(self.line.command)} has no BCDice text: only the commands "
                             "of a system with a BCDice dicebot have one")
        lines = [roll.bcdice_line() for roll in self.rolls]
        if self.line.repeat is None:
            return lines[0]
        return "\n\n".join(f"#{number}\n{line}" for number, line in enumerate(lines, start=1))


def has_bcdice_line(result: object) -> bool:
    """Whether a roll (or each roll of a chat line's :class:`ChatRoll`) has BCDice's text: only a
    system with a BCDice dicebot's own commands do (the CLI's ``--format bcdice``, the API's text)."""
    return all(hasattr(roll, "bcdice_line") for roll in getattr(result, "rolls", (result,)))


@dataclass(frozen=True)
class CommandSet:
    """One system's dice commands under the chat conventions.

    ``own`` matches the start of the system's own commands (upper case, half-width), as BCDice's
    prefixes do; ``roll_own(command, source, **options)`` rolls one with dice drawn from
    ``source`` and ``odds_own(command, **options)`` gives its exact odds. ``is_own`` decides which
    commands are the system's when that is wider than ``own`` (Gundam Sentinel names every
    non-generic command in its errors); any other command is generic notation.
    """

    system: str
    own: re.Pattern[str] | None = None
    roll_own: Callable[..., Any] | None = None
    odds_own: Callable[..., Any] | None = None
    is_own: Callable[[str], bool] | None = None

    def owns(self, command: str) -> bool:
        """Whether ``command`` (text) is one of this system's own commands."""
        if not isinstance(command, str):
            raise TypeError(f"a command is text, not {checks.shown(command)}")
        if self.is_own is not None:
            return self.is_own(command)
        return self.own is not None and self.own.match(command.upper()) is not None

    def read(self, expression: object) -> ChatLine:
        return read_line(expression, self.own)

    def command(self, expression: object) -> str:
        """The command of a chat line as a system's parser reads it: within the limits, digits ASCII
        or full-width, folded to half-width upper case without spaces (``ｓｌ＜＝１３ 回避`` is ``SL<=13``)."""
        return command_text(self.read(expression).command)

    def roll(self, expression: object, *, seed: int | None = None, dice: Sequence[int] | None = None,
             source: DiceSource | None = None, **options: Any) -> Any:
        """Roll a chat line with a seed, the exact dice given (every repetition's, in order), or dice
        drawn from ``source`` (any object with ``draw(sides)``: the BCDice-API server records them)."""
        line = self.read(expression)
        if source is not None:
            if seed is not None or dice is not None:
                raise ValueError("give a seed, dice or a dice source, not more than one")
            if not callable(getattr(source, "draw", None)):
                raise TypeError(f"a dice source has a draw(sides) method, not {checks.shown(source)}")
        else:
            source = dice_source(seed, dice)
        rolls = tuple(self._roll_one(line.command, source, options) for _ in range(line.repeat or 1))
        if isinstance(source, GivenDice):
            source.finish()
        return rolls[0] if line.plain else ChatRoll(line, self.system, rolls)

    def _roll_one(self, command: str, source: DiceSource, options: dict[str, Any]) -> Any:
        if self.roll_own is not None and self.owns(command):
            return self.roll_own(command, source, **options)
        return roll_from(command, source)

    def odds(self, expression: object, **options: Any) -> Any:
        """The exact odds of a chat line's command (a comment and ``S`` allowed; one roll, no ``xN``)."""
        line = self.read(expression)
        if line.repeat is not None:
            raise ValueError(f"odds are for one roll: drop {line.repeat_word}{line.repeat} and ask for {line.command}")
        if self.odds_own is not None and self.owns(line.command):
            return self.odds_own(line.command, **options)
        return odds(line.command)


#: generic notation alone (``rules-lib roll`` without ``--system``)
GENERIC = CommandSet("generic")

__all__ = ["CONTINUING", "GENERIC", "MAX_REPEAT", "ChatLine", "ChatRoll", "CommandSet", "has_bcdice_line", "is_generic", "read_line",
           "whole_number"]
