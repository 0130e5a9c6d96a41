"""BCDice's test data (``test/data/<Dicebot>.toml``) for the systems BCDice has no dicebot for.

``rules-lib bcdice-tests --system wis6`` writes one ``[[ test ]]`` case for every outcome class of
each command below: the library rolls the command with every combination of its dice, and the
first combination (in counting order) of each class is kept. A class is the BCDice flags with the
reading the command reports (a WIS6 success level, a Nemesis pattern and attack count, a Verse World
check kind). ``game_system`` is the dicebot id of :mod:`rules_lib.api_systems`, ``output`` the text
that server answers (what ``rules-lib roll`` prints), so a dicebot author can check a port against
the library, and the project checks its own commands against the files (tests/test_bcdice_tests.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from itertools import product
from typing import Any

from .api_systems import GameSystem, game_systems, roll
from .dice.roll import GivenDice

#: the commands each file covers, every kind of each system's own commands (its help examples too,
#: except Nemesis's OP5>3: its 8 dice are 1,679,616 rolls to try; OP2>1 and OP1>1 have its classes).
#: The list is this project's choice, not in the source text.
COMMANDS: dict[str, tuple[str, ...]] = {
    "wis6": ("SL<=13", "SL<=1", "SL<=20", "SL<=40"),
    "nemesis": ("AD", "AD2", "AD[34(5)]", "AD[3]R", "AD[56]R", "OP2>1", "OP1>1"),
    "verse-world": ("VW+8", "VW+8@11>14", "VW+8@11/12>14", "VW+7>=12", "VW-2>=8"),
}
#: one secret line per system: bcdice's tests mark what ``S`` rolls with ``secret = true``
SECRET_PREFIX = "S"
#: the keys of a roll's JSON (``to_dict``) that name its reading, besides the flags
_READING_KEYS = ("level", "pattern", "attacks", "kind", "success")
FLAGS = ("success", "failure", "critical", "fumble")
HEADER = ("BCDice-format test cases for the {system} commands of rules_lib ({bot} is this project's id:\n"
          "BCDice has no dicebot for the system). Written by `rules-lib bcdice-tests --system {system}`:\n"
          "do not edit; regenerate. One case per outcome class of each command, with its dice (`rands`,\n"
          "in the order drawn), the text `rules-lib roll` prints and the flags that are true.")


def game_system(system: str) -> GameSystem:
    """The BCDice-API system of ``--system`` name ``system``."""
    for game in game_systems().values():
        if game.system == system:
            return game
    raise ValueError(f"--system {system!r} has no dice commands; allowed are {', '.join(sorted(COMMANDS))}")


class _Recorder:
    """Draws the dice given (then 1s), and keeps the sides asked for: how many dice a command takes."""

    def __init__(self, values: Sequence[int] = ()) -> None:
        self._values = list(values)
        self.sides: list[int] = []

    def draw(self, sides: int) -> int:
        self.sides.append(sides)
        return self._values[len(self.sides) - 1] if len(self.sides) <= len(self._values) else 1


def _all_dice(game: GameSystem, command: str) -> Iterator[tuple[int, ...]]:
    """Every combination of the dice ``command`` draws (each command here draws a fixed count)."""
    recorder = _Recorder()
    roll(game, command, recorder)
    yield from product(*(range(1, sides + 1) for sides in recorder.sides))


def _outcome_class(game: GameSystem, command: str, answer: dict[str, Any], dice: Sequence[int]) -> tuple:
    reading = game.commands.roll(command, dice=list(dice)).to_dict()
    return (tuple(answer[flag] for flag in FLAGS), tuple(str(reading.get(key)) for key in _READING_KEYS))


def case(game: GameSystem, command: str, dice: Sequence[int]) -> dict[str, Any]:
    """One ``[[ test ]]`` case: ``command`` rolled with ``dice`` as the server answers it."""
    answer = roll(game, command, GivenDice(dice))
    found: dict[str, Any] = {"game_system": game.id, "input": command, "output": answer["text"]}
    if answer["secret"]:
        found["secret"] = True
    found |= {flag: True for flag in FLAGS if answer[flag]}
    found["rands"] = [{"sides": r["sides"], "value": r["value"]} for r in answer["rands"]]
    return found


def cases(system: str) -> list[dict[str, Any]]:
    """The cases of ``system``: for each command, the first dice of each outcome class, then one secret roll."""
    game = game_system(system)
    found = []
    for command in COMMANDS[system]:
        seen = set()
        for dice in _all_dice(game, command):
            answer = roll(game, command, GivenDice(dice))
            outcome = _outcome_class(game, command, answer, dice)
            if outcome not in seen:
                seen.add(outcome)
                found.append(case(game, command, dice))
    first = COMMANDS[system][0]
    found.append(case(game, SECRET_PREFIX + first, next(_all_dice(game, first))))
    return found


def _value(value: str | bool) -> str:
    # a JSON string is a valid TOML basic string (as rules_lib.sheets.toml_text writes them)
    return "true" if value is True else json.dumps(value, ensure_ascii=False)


def dumps(system: str) -> str:
    """The TOML file of ``system``'s cases, laid out as BCDice's own files (``[[ test ]]``, one die a line)."""
    lines = [f"# {line}" for line in HEADER.format(system=system, bot=game_system(system).id).splitlines()]
    for found in cases(system):
        lines += ["", "[[ test ]]"]
        lines += [f"{key} = {_value(value)}" for key, value in found.items() if key != "rands"]
        lines += ["rands = [", *(f"  {{ sides = {r['sides']}, value = {r['value']} }}," for r in found["rands"]), "]"]
    return "\n".join(lines) + "\n"


__all__ = ["COMMANDS", "FLAGS", "case", "cases", "dumps", "game_system"]
