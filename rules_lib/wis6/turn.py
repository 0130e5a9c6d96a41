"""The turn: initiative from reaction + mobility, then each unit recovers, moves and attacks (001 §1).

The map is a grid of squares named like 『Ａ－３』 (a letter and a number, 001 §1-3, line 15).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .. import checks
from ..checks import halfwidth
from ..dice import GivenDice, SeededDice
from ..worked import Worked
from .rules import DEFAULT_RULES, Wis6Error, Wis6Rules, whole

#: What each unit does on its action, in this order (001 §1-3, lines 14–16).
ACTION_STEPS: tuple[str, ...] = ("recover bad status", "move", "attack")
#: The phases of a battle (001 §1-1 to §1-4): the order is decided once, then step 3 repeats.
BATTLE_PHASES: tuple[str, ...] = ("situation", "action order", "actions", "back to actions")


@dataclass(frozen=True)
class Combatant:
    """A unit in the action order: its pilot's reaction (反応値) and its AC's mobility (機動値)."""

    name: str
    reaction: int
    mobility: int

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise Wis6Error(f"a combatant needs a name, not {self.name!r}")
        whole(f"{self.name}'s reaction", self.reaction, minimum=1)
        whole(f"{self.name}'s mobility", self.mobility, minimum=0)

    @property
    def initiative(self) -> int:
        """Reaction + mobility (001 §1-2, line 8)."""
        return self.reaction + self.mobility


@dataclass(frozen=True)
class Initiative(Worked):
    """The action order: names first to last, each unit's total, the tie-break dice and the working."""

    order: tuple[str, ...]
    totals: dict[str, int]
    tie_rolls: tuple[tuple[str, int], ...]


@checks.checked_arguments
def initiative_order(
    combatants: Sequence[Combatant],
    *,
    dice: Sequence[int] | None = None,
    seed: int | None = None,
    rules: Wis6Rules = DEFAULT_RULES,
) -> Initiative:
    """The action order (行動順, 001 §1-2): highest reaction + mobility first.

    Units with equal totals each roll a die (``rules.tie_die_sides``, a d20 by default: *not
    in the source text*) and the higher roll goes first; units still tied roll again (a
    ruling). Tie-break dice come from ``dice`` (in the order the tied units are listed) or
    from a generator seeded with ``seed``. Without ties no die is rolled.
    """
    units = list(combatants)
    if not units:
        raise Wis6Error("the action order needs at least one combatant")
    names = [u.name for u in units]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise Wis6Error(f"combatant names must differ: {', '.join(duplicates)} appears twice")
    if dice is not None and seed is not None:
        raise Wis6Error("give tie-break dice or a seed, not both")
    source = GivenDice(dice) if dice is not None else SeededDice(seed)
    steps = [f"{u.name}: reaction {u.reaction} + mobility {u.mobility} = {u.initiative}" for u in units]
    tie_rolls: list[tuple[str, int]] = []
    order: list[str] = []
    for total in sorted({u.initiative for u in units}, reverse=True):
        group = [u.name for u in units if u.initiative == total]
        order.extend(_break_ties(group, total, source, rules.tie_die_sides, tie_rolls, steps))
    if isinstance(source, GivenDice):
        try:
            source.finish()
        except ValueError as error:
            raise Wis6Error(f"tie-break dice: {error}") from None
    steps.append("action order: " + ", ".join(order))
    return Initiative(tuple(order), {u.name: u.initiative for u in units}, tuple(tie_rolls), steps=tuple(steps))


def _break_ties(group, total, source, sides, tie_rolls, steps) -> list[str]:
    if len(group) == 1:
        return list(group)
    rolls = {}
    for name in group:
        try:
            rolls[name] = source.draw(sides)
        except ValueError as error:
            raise Wis6Error(f"tie-break dice: {error}") from None
        tie_rolls.append((name, rolls[name]))
    steps.append(
        f"tie at {total}: each rolls a d{sides}: " + ", ".join(f"{n} {r}" for n, r in rolls.items())
    )
    ordered: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied_again = [n for n in group if rolls[n] == value]
        if len(tied_again) > 1:
            steps.append(f"{', '.join(tied_again)} tie again on {value}: they roll again (ruling)")
        ordered.extend(_break_ties(tied_again, total, source, sides, tie_rolls, steps))
    return ordered


@checks.checked_arguments
def turn_sequence(initiative: Initiative) -> tuple[tuple[str, str], ...]:
    """One turn (ターン): each unit in the action order does its three steps (001 §1-3, §1-4).

    The order is decided once: the text returns to step 3, not step 2, after each turn (a
    reading of 001 §1-4, line 20), so the same sequence repeats every turn.
    """
    return tuple((name, step) for name in initiative.order for step in ACTION_STEPS)


# -- the square map -------------------------------------------------------------------

_SQUARE = re.compile(r"([A-Z])\s*-\s*([0-9]+)")


@dataclass(frozen=True, order=True)
class Square:
    """A map square named by a column letter and a row number, like ``A-3`` (001 §1-3, line 15)."""

    column: str
    row: int

    def __str__(self) -> str:
        return f"{self.column}-{self.row}"

    @property
    def column_index(self) -> int:
        return ord(self.column) - ord("A")


def parse_square(name: str, *, columns: int | None = None, rows: int | None = None) -> Square:
    """Read a square name such as ``"A-3"`` or the text's full-width 『Ａ－３』.

    ``columns`` and ``rows`` (the map's size, set by the GM's situation, 001 §1-1) bound it
    when given. The letter is read as the column, the number as the row (a reading: distances
    do not depend on it).
    """
    if not isinstance(name, str):
        raise Wis6Error(f"square {name!r} is not a name like 'A-3'")
    text = halfwidth(name).strip().upper()
    match = _SQUARE.fullmatch(text)
    if not match or int(match.group(2)) < 1:
        raise Wis6Error(f"square {name!r} is not a name like 'A-3': a letter A-Z, a dash, a row number 1 or more")
    square = Square(match.group(1), int(match.group(2)))
    if columns is not None and square.column_index >= whole("columns", columns, minimum=1):
        raise Wis6Error(f"square {name!r} is off the map: columns run A to {chr(ord('A') + columns - 1)}")
    if rows is not None and square.row > whole("rows", rows, minimum=1):
        raise Wis6Error(f"square {name!r} is off the map: rows run 1 to {rows}")
    return square


@checks.checked_arguments
def distance(a: str | Square, b: str | Square, rules: Wis6Rules = DEFAULT_RULES) -> int:
    """Squares between two squares (001 §1-3, line 15, §4-2, line 67) under ``rules.metric`` (a ruling: the text gives no metric).

    ``"chebyshev"``: a diagonal step counts 1 (the larger of the column and row differences);
    ``"manhattan"``: steps are orthogonal only (the sum of the differences).
    """
    a = a if isinstance(a, Square) else parse_square(a)
    b = b if isinstance(b, Square) else parse_square(b)
    dx, dy = abs(a.column_index - b.column_index), abs(a.row - b.row)
    return max(dx, dy) if rules.metric == "chebyshev" else dx + dy


@dataclass(frozen=True)
class Move(Worked):
    """A checked move: where from and to, how far, and the working."""

    start: Square
    end: Square
    distance: int
    mobility: int


@checks.checked_arguments
def move(
    start: str | Square,
    end: str | Square,
    mobility: int,
    *,
    columns: int | None = None,
    rows: int | None = None,
    rules: Wis6Rules = DEFAULT_RULES,
) -> Move:
    """Move up to the AC's mobility (機動値) in squares (001 §1-3, line 15); farther raises an error."""
    whole("mobility", mobility, minimum=0)
    a = start if isinstance(start, Square) else parse_square(start, columns=columns, rows=rows)
    b = end if isinstance(end, Square) else parse_square(end, columns=columns, rows=rows)
    far = distance(a, b, rules)
    if far > mobility:
        raise Wis6Error(
            f"{b} is {far} squares from {a} ({rules.metric} distance), but the mobility is {mobility}: "
            f"a move may go at most {mobility} squares"
        )
    step = f"{a} to {b}: {far} squares ({rules.metric} distance, a ruling), within mobility {mobility}"
    return Move(a, b, far, mobility, steps=(step,))


__all__ = [
    "ACTION_STEPS", "Combatant", "Initiative", "Move", "Square", "distance", "initiative_order", "move",
    "parse_square", "turn_sequence",
]
