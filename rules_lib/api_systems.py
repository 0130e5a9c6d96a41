"""The game systems a BCDice-API server offers, and one roll or odds answered as its JSON.

Gundam Sentinel is served under BCDice's own id, name and sort key, its text BCDice's line
(``rules-lib roll --format bcdice``); WIS6, Nemesis and Verse World, which BCDice has no dicebot
for, under ids of this project (prefixed ``RulesLib_`` so that no future BCDice dicebot shares
one), their text what ``rules-lib roll`` prints. Everything here only calls the systems'
``commands`` modules: no rule is written twice.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from .dice.chat import CommandSet, has_bcdice_line
from .dice.roll import DiceSource
from .messages import message
from .systems import systems

#: the dicebot id, name and sort key of each system (BCDice's own for Gundam Sentinel)
_DICEBOTS: dict[str, tuple[str, str, str]] = {
    "gundam-sentinel": ("GundamSentinel", "ガンダム・センチネルRPG", "かんたむせんちねる"),
    "wis6": ("RulesLib_WIS6", "WIS6", "WIS6"),
    "nemesis": ("RulesLib_Nemesis", "Nemesis-theatre assault-giant wargame", "Nemesis"),
    "verse-world": ("RulesLib_VerseWorld", "Verse World RPG", "Verse World"),
}
#: what starts generic notation or a repetition, before a system's own prefixes (BCDice's pattern)
_COMMON_PATTERN = r"[+\-\dD(\[]+|(repeat|rep|x)\d+"
_VERDICT_KEYS = ("hit", "success")  # a roll's verdict in its JSON: Gundam's BB says "hit"
_CRITICAL_KINDS = ("critical", "over-critical")  # Verse World's check kinds


@dataclass(frozen=True)
class GameSystem:
    """One system as BCDice-API lists it, with the library's commands that roll it."""

    id: str
    name: str
    sort_key: str
    system: str  # rules-lib --system NAME
    commands: CommandSet
    help_examples: tuple[tuple[str, str], ...]  # (example, the key of the message saying what it rolls)

    @property
    def command_pattern(self) -> str:
        """A line that may be a command matches this (case ignored), as BCDice's ``command_pattern``."""
        own = f"|{self.commands.own.pattern}" if self.commands.own is not None else ""
        return f"^S?({_COMMON_PATTERN}{own})"

    @property
    def help_message(self) -> str:
        """The commands, one example a line (``例) SL<=13 : ...``), as BCDice's help messages show them."""
        lines = [f"{self.name} (rules_lib, --system {self.system})", ""]
        lines += [f"例) {example} : {message(key, 'en')}" for example, key in self.help_examples]
        lines += ["", "S before a command rolls it in secret; x3 (rep3, repeat3) and a space roll it three times;",
                  "after a space, a comment."]
        return "\n".join(lines) + "\n"

    def summary(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "sort_key": self.sort_key}

    def info(self) -> dict[str, Any]:
        return {"ok": True, **self.summary(), "command_pattern": self.command_pattern,
                "help_message": self.help_message}


@cache
def game_systems() -> dict[str, GameSystem]:
    """Every system with dice commands, by dicebot id, in ``sort_key`` order (as bcdice-api lists them)."""
    found = []
    for system in systems():
        # the registry's systems with a commands module, found as rules_lib.cli finds them (not
        # imported from it: the CLI imports this server)
        name = f"{__package__}.{system.package}.commands"
        if importlib.util.find_spec(name) is None:
            continue
        module = importlib.import_module(name)
        bot_id, name, sort_key = _DICEBOTS[system.system]
        found.append(GameSystem(bot_id, name, sort_key, system.system, module.COMMANDS,
                                tuple(getattr(module, "HELP_EXAMPLES", ()))))
    return {game.id: game for game in sorted(found, key=lambda game: game.sort_key)}


class _RecordedDice:
    """Passes draws on from ``source`` and keeps each die, for bcdice-api's ``rands``."""

    def __init__(self, source: DiceSource) -> None:
        self._source = source
        self.rands: list[dict[str, Any]] = []

    def draw(self, sides: int) -> int:
        value = self._source.draw(sides)
        self.rands.append({"kind": "normal", "sides": sides, "value": value})
        return value


def roll(game: GameSystem, command: str, source: DiceSource) -> dict[str, Any]:
    """bcdice-api's answer to a roll of ``command`` (a chat line) with dice from ``source``;
    a ``ValueError`` (with the library's message) when the line does not roll."""
    line = game.commands.read(command)
    recorded = _RecordedDice(source)
    result = game.commands.roll(command, source=recorded)
    rolls = getattr(result, "rolls", (result,))
    flags = _flags(rolls[0]) if line.repeat is None else {}  # BCDice flags no repetition (Repeat#roll)
    return {"ok": True, "text": text(result), "secret": line.secret,
            "success": flags.get("success", False), "failure": flags.get("failure", False),
            "critical": flags.get("critical", False), "fumble": flags.get("fumble", False),
            "rands": recorded.rands}


def text(result: Any) -> str:
    """BCDice's line where the library has it (Gundam Sentinel's own commands), else the CLI's text."""
    if has_bcdice_line(result):
        return result.bcdice_line()
    return result.text()  # what rules-lib roll prints (rules_lib.cli.roll_text)


def _flags(result: Any) -> dict[str, bool]:
    data = result.to_dict()
    verdict = next((data[key] for key in _VERDICT_KEYS if data.get(key) is not None), None)
    return {"success": verdict is True, "failure": verdict is False,
            "critical": data.get("critical") is True or data.get("kind") in _CRITICAL_KINDS,
            "fumble": data.get("kind") == "fumble"}


def odds(game: GameSystem, command: str) -> dict[str, Any]:
    """The exact odds of ``command`` (this project's extension): the library's JSON, fractions as text."""
    return {"ok": True, **game.commands.odds(command).to_dict()}


def help_examples(game: GameSystem) -> list[str]:
    """The commands the help message shows (each one a test rolls)."""
    return re.findall(r"^例\) (\S+)", game.help_message, re.MULTILINE)


__all__ = ["GameSystem", "game_systems", "help_examples", "odds", "roll", "text"]
