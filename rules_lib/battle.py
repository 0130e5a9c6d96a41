"""The battle engine every system's guided battle runs on.

A system keeps only its rules in ``rules_lib.<system>.battle``: its frozen state (with a ``log`` of
lines and a ``phase``, ``"over"`` at the end), its actions (frozen dataclasses; given dice, where
an action takes them, are its ``dice`` field), a ``check`` that refuses an illegal action without
drawing dice, the candidate actions of a state, and one step function a kind. :class:`Referee`
binds those into the one loop every battle shares: the action's ``kind``, ``is_legal``,
``legal_actions``, ``legal_kinds``, ``step`` and ``play``, and registers the system's state class,
so that this module's :func:`step`, :func:`play`, :func:`is_legal`, :func:`legal_actions` and
:func:`legal_kinds` play any system's battle (each system's package re-exports them). A step draws
its dice through :class:`ActionDice` and ends with :func:`finish`; :func:`log_html` shows any
battle's log, and :func:`drive` plays any battle by its own legal actions (the test that all four
run alike).
Board and unit rendering live in each system's ``figures`` module.
"""

from __future__ import annotations

import html
import importlib
import math
import random
from collections import abc
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from types import UnionType
from typing import Any, Generic, Literal, Protocol, TypeVar, Union, get_args, get_origin, get_type_hints

from . import checks
from .checks import MAX_TEXT_LENGTH, whole
from .dice import GivenDice, SeededDice, parse
from .dice.enumeration import dice_sides

State = TypeVar("State")


class IllegalStep(ValueError):
    """An action that is not allowed in this state; the message names the reason.

    Raised before any die is drawn, so the state passed in (frozen) is unchanged.
    """


@dataclass(frozen=True)
class StepResult(Generic[State]):
    """What a step did: the new state, the explanation (plain English, with sources), the dice
    rolled, and the rule function's own result where one is useful (``detail``)."""

    state: State
    explanation: tuple[str, ...]
    dice: tuple[int, ...] = ()
    detail: object = None


#: the most dice one step draws at once (a bound of the library's, not a rule: the texts' steps roll
#: a handful; Nemesis's largest pool is a few dozen)
MAX_DICE_A_STEP = 1000


class ActionDice:
    """The dice of one step: the action's given dice in order, or the step's dice source.

    ``given`` are the faces an action brings (all must be used); ``source`` a
    :class:`~rules_lib.dice.SeededDice`, or a :class:`~rules_lib.dice.GivenDice` shared by several
    steps (which the caller finishes). Records what was drawn. A step that draws a die with
    neither, a given die that does not fit its die, and given dice left over are refused with
    :class:`IllegalStep`.
    """

    def __init__(self, given: Sequence[int] | None, source: SeededDice | GivenDice | None, what: str) -> None:
        self.own = GivenDice(list(given)) if given is not None else None
        self.source: GivenDice | SeededDice | None = self.own if self.own is not None else source
        self.drawn: list[int] = []
        self.what = what

    def d(self, sides: int, count: int = 1, what: str | None = None) -> tuple[int, ...]:
        """``count`` dice of ``sides`` faces (``what`` names them in a refusal)."""
        what = what or self.what
        if self.source is None:
            raise IllegalStep(f"{what} needs dice: give dice=(...) or a SeededDice")
        count = checks.whole(count, f"{what}: the number of dice", minimum=0, maximum=MAX_DICE_A_STEP, error=IllegalStep)
        try:
            values = tuple(self.source.draw(sides) for _ in range(count))
        except ValueError as error:
            raise IllegalStep(f"{what}: {error}") from None
        self.drawn.extend(values)
        return values

    def expression(self, expression: str, what: str | None = None) -> list[int]:
        """One die for each die of a dice ``expression`` (``"2D6+1"``), in order."""
        return [self.d(sides, what=what)[0] for sides in dice_sides(parse(expression).root)]

    @staticmethod
    def check_given(given: Sequence[int] | None, sides: int, count: int, what: str,
                    error: type[IllegalStep] = IllegalStep) -> None:
        """Refuse given dice that are not ``count`` dice of ``sides`` faces, before the step runs
        (a check can call this; ``None``, no given dice, passes)."""
        if given is None:
            return
        dice = tuple(given)
        if len(dice) != count:
            raise error(f"{what} needs {count} d{sides} rolls, not {len(dice)}: {list(dice)}")
        for die in dice:
            if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= sides:
                raise error(f"die {die!r} is not on a d{sides}: allowed are 1 to {sides}")

    def finish(self) -> tuple[int, ...]:
        """Every die drawn; refuses given dice of the action that were not all used."""
        if self.own is not None:
            try:
                self.own.finish()
            except ValueError as error:
                raise IllegalStep(f"{self.what}: {error}") from None
        return tuple(self.drawn)


# -- what every system's referee shares: typed actions, is_legal = step, no stuck battle -----------

_HINTS: dict[type, dict[str, object]] = {}


def check_action_types(action: object, error: type[IllegalStep] = IllegalStep) -> None:
    """Refuse, with :class:`IllegalStep`, an action whose fields do not have their declared types.

    ``Move(unit=3)`` or ``RollAP("Zaku II", borrow="2")`` would otherwise fail deep inside a rule
    with a ``TypeError``; here the field, the value and the type allowed are named.
    """
    if not is_dataclass(action) or isinstance(action, type):
        raise error(f"{_short(action)} is not a battle action")
    cls = type(action)
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls)
    for item in fields(action):
        hint = _HINTS[cls].get(item.name, Any)
        value = getattr(action, item.name)
        if not _matches(value, hint):
            raise error(f"{cls.__name__}.{item.name} {_short(value)} is not {_describe(hint)}")


def legal(check: Callable[[State, object], None], step: Callable[..., object], state: State,
          action: object, error: type[IllegalStep] = IllegalStep) -> bool:
    """``is_legal`` of every system: true exactly when ``step(state, action)`` would not refuse.

    The types and the rules are checked without dice (``check``); an action that brings its own
    dice is then stepped on a copy (the state is frozen), so given dice that do not fit (a 7 on a
    d6, one die too few or too many) make it illegal, as ``step`` would refuse them.
    """
    try:
        check_action_types(action, error)
        check(state, action)
        if getattr(action, "dice", None) is not None:
            step(state, action)
    except IllegalStep:
        return False
    return True


NO_ACTION_LEFT = "no legal action remains for either side: the battle ends in a draw (a ruling; the texts have no such case)"


def _end_in_draw(result: StepResult, reason: str) -> StepResult:
    """``result`` with its battle over in a draw: no winner, nobody acting, ``reason`` the last line
    of the log and of the step's explanation (and the state's ``end_reason``, which the status shows)."""
    state = result.state
    changes: dict[str, object] = {"phase": "over", "winner": None}
    names = {f.name for f in fields(state)}
    if "actor" in names:
        changes["actor"] = None
    if "log" in names:
        changes["log"] = state.log + (reason,)
    if "end_reason" in names:
        changes["end_reason"] = reason
    return replace(result, state=replace(state, **changes), explanation=result.explanation + (reason,))


def settle(result: StepResult, legal_actions: Callable[[State], Sequence[object]]) -> StepResult:
    """End a battle that a step left without any legal action: a draw, said in the log."""
    state = result.state
    if getattr(state, "phase", None) == "over" or legal_actions(state):
        return result
    return _end_in_draw(result, NO_ACTION_LEFT)


@dataclass(frozen=True)
class Stalemate(Generic[State]):
    """How the engine sees a battle that makes no progress, which it ends in a draw.

    None of the four texts ends a battle but by destruction (002 §7-2, line 345: the phases
    alternate until one side is destroyed; a Nemesis side may concede, 002 §7-1, line 335); two
    units that can no longer hurt each other (out of propellant beyond every weapon's range, out of
    ammunition) would play on for ever. So a battle ends in a draw once ``limit(state)`` whole rounds
    have passed in which no unit took damage: a ruling, *not in the source text*, each system's
    ``stalemate_rounds`` (``None``: never).

    ``counter`` is the state's field that counts the rounds, and what the system calls one
    (``"round"``, ``"turn"``); ``damage(state)`` is what the units have left that damage only lowers
    (durability, AP, HP, structure and parts; compared with ``==``), so that a change of it is damage
    dealt, and since it cannot fall for ever, every battle ends. The state keeps ``quiet_since``:
    the first round of the present run without damage, which the referee moves on when damage is
    dealt.
    """

    counter: str
    damage: Callable[[State], object]
    limit: Callable[[State], int | None]


def stalemate_rounds(value: object, error: type[ValueError] = ValueError) -> int | None:
    """Check a system's ``stalemate_rounds`` reading: a whole number of rounds, 1 or more, or ``None``
    (refused with ``error``, the system's own ``ValueError``)."""
    if value is None:
        return None
    return whole(value, "stalemate_rounds (rounds without damage before a draw; None for no limit)",
                 minimum=1, maximum=MAX_STALEMATE_ROUNDS, error=error)


def _no_progress(rule: Stalemate, before: State, result: StepResult[State]) -> StepResult[State]:
    """``result`` of a step from ``before`` under the no-progress ``rule``: ``quiet_since`` moved on
    past damage dealt, and the battle over in a draw once ``limit`` rounds have passed without any
    (its round counter left at the last round played). Each referee with a rule runs it after every step."""
    state = result.state
    if rule.damage(state) != rule.damage(before):
        state = replace(state, quiet_since=getattr(before, rule.counter) + 1)
        result = replace(result, state=state)
    limit = rule.limit(state)
    now = getattr(state, rule.counter)
    quiet = now - state.quiet_since
    if getattr(state, "phase", None) == "over" or limit is None or quiet < limit:
        return result
    first, last = state.quiet_since, now - 1
    span = f"{rule.counter}s {first}–{last}" if last > first else f"{rule.counter} {first}"
    reason = (f"no unit has taken damage in {quiet} whole {rule.counter}s ({span}): the battle ends in a draw "
              f"(the book's ruling, not in the source text: stalemate_rounds = {limit})")
    return _end_in_draw(replace(result, state=replace(state, **{rule.counter: last})), reason)


#: the most rounds without damage a battle may be given before its draw (a bound on the input)
MAX_STALEMATE_ROUNDS = 1000
#: the default of every system's ``stalemate_rounds``: the book's ruling (see each rulings page)
STALEMATE_ROUNDS = 10


def refuse_broken_start(problems: Iterable[str]) -> None:
    """Refuse a battle set up so that it could not be played: every problem named at once.

    Each system lists its own (a unit already destroyed, fainted or at 0 AP; two units on one
    square or hex); a ``ValueError`` names them all.
    """
    problems = [p for p in problems if p]
    if problems:
        raise ValueError("the battle cannot start: " + "; ".join(problems))


class Named(Protocol):
    """Anything with a ``name``: a unit of a battle, a weapon of a unit."""

    @property
    def name(self) -> str: ...


NamedItem = TypeVar("NamedItem", bound=Named)


def by_name(items: Sequence[NamedItem], name: str, refusal: str,
            error: type[IllegalStep] = IllegalStep) -> NamedItem:
    """The item of ``items`` called ``name`` (a state's unit, a unit's weapon); otherwise ``error``
    (a system's own :class:`IllegalStep`) with the message ``refusal`` followed by the names there are."""
    if isinstance(items, (str, bytes)) or not all(isinstance(getattr(item, "name", None), str) for item in items):
        raise TypeError(f"the items looked up by name are named things (units, weapons), not {_short(items)}")
    for item in items:
        if item.name == name:
            return item
    raise error(refusal + ", ".join(item.name for item in items))


@checks.checked_arguments
def shared_positions(positions: Mapping[str, Hashable]) -> str | None:
    """A problem line when two units stand on the same square or hex, else ``None``."""
    seen: dict[Hashable, str] = {}
    for name, where in positions.items():
        if where in seen:
            return f"{seen[where]} and {name} both stand on {where}"
        seen[where] = name
    return None


def _matches(value: object, hint: object) -> bool:
    if hint is Any:
        return True
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, UnionType):
        return any(_matches(value, arg) for arg in args)
    if hint is type(None):
        return value is None
    if origin is Literal:
        return any(type(value) is type(arg) and value == arg for arg in args)
    if origin in (tuple, Sequence, abc.Sequence):
        if not isinstance(value, tuple if origin is tuple else (tuple, list)):
            return False
        if len(value) > _MAX_ITEMS:
            return False
        if origin is tuple and args and args[-1] is not Ellipsis:
            # a wrong length is left to the rule, whose message says what is needed
            return all(_matches(v, args[min(i, len(args) - 1)]) for i, v in enumerate(value))
        return all(_matches(v, args[0]) for v in value) if args else True
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if hint is str:
        return isinstance(value, str) and len(value) <= MAX_TEXT_LENGTH
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True  # a hint this check does not know (a TypeVar, a Protocol): left to the rule


def _describe(hint: object) -> str:
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, UnionType):
        return " or ".join(_describe(arg) for arg in args)
    if hint is type(None):
        return "None"
    if origin is Literal:
        return "one of " + ", ".join(map(repr, args))
    if origin is tuple:
        if args and args[-1] is Ellipsis:
            return f"a tuple of {_describe(args[0])}"
        return f"a tuple of {len(args)} ({', '.join(_describe(a) for a in args)})"
    names = {int: "a whole number", str: "text", bool: "True or False", float: "a number"}
    if hint in names:
        return names[hint]
    return getattr(hint, "__name__", str(hint))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


_MAX_ITEMS = 1000


# -- the loop every battle shares ---------------------------------------------------------------------


def finish(state: State, lines: Sequence[str], dice: Sequence[int] = (), detail: object = None,
           **changes: object) -> StepResult[State]:
    """A step's result: ``state`` with ``changes`` and the step's ``lines`` appended to its log."""
    new = replace(state, log=state.log + tuple(lines), **changes)
    return StepResult(new, tuple(lines), tuple(dice), detail)


class Referee(Generic[State]):
    """One system's battle bound to the shared loop.

    ``state`` is the system's state class (a state finds its referee by it: :func:`referee_of`);
    ``kinds`` names each action class's kind (one spelling: lower case, words joined by ``-``);
    ``checks`` maps each kind to ``check(state, action)``, which raises :class:`IllegalStep`
    without drawing dice (``before``, when given, is checked first for every kind);
    ``candidates(state)`` lists the actions worth offering (the legal ones are those ``is_legal``
    accepts); ``steps`` maps each kind to ``step(state, action, dice) -> StepResult``, where
    ``dice`` is the seeded source used when the action brings no given dice of its own;
    ``stalemate``, when given, ends a battle that makes no progress in a draw (:class:`Stalemate`).
    """

    def __init__(self, state: type[State], kinds: Mapping[type, str],
                 checks: Mapping[str, Callable[[State, Any], None]],
                 candidates: Callable[[State], Iterable[object]],
                 steps: Mapping[str, Callable[..., StepResult[State]]],
                 error: type[IllegalStep] = IllegalStep,
                 before: Callable[[State, Any], None] | None = None,
                 stalemate: Stalemate[State] | None = None) -> None:
        # checked before the referee is registered for its state class (referee_of finds it there)
        if not isinstance(state, type):
            raise TypeError(f"a referee's state is a battle state class, not {_short(state)}")
        if not isinstance(kinds, Mapping) or not all(isinstance(k, type) and isinstance(v, str) for k, v in kinds.items()):
            raise TypeError(f"a referee's kinds map action classes to kind names, not {_short(kinds)}")
        for what, table in (("checks", checks), ("steps", steps)):
            if not isinstance(table, Mapping) or not all(callable(v) for v in table.values()):
                raise TypeError(f"a referee's {what} map kind names to functions, not {_short(table)}")
        for what, function in (("candidates", candidates), ("before", before)):
            if function is not None and not callable(function):
                raise TypeError(f"a referee's {what} is a function, not {_short(function)}")
        if not (isinstance(error, type) and issubclass(error, IllegalStep)):
            raise TypeError(f"a referee's error is an IllegalStep class, not {_short(error)}")
        if stalemate is not None and not isinstance(stalemate, Stalemate):
            raise TypeError(f"a referee's stalemate is a Stalemate, not {_short(stalemate)}")
        self.state_class = state
        self.kinds = dict(kinds)
        self.stalemate = stalemate
        self.checks = dict(checks)
        self.before = before
        self.candidates = candidates
        self.steps = dict(steps)
        self.error = error
        for what, table in (("check", self.checks), ("step", self.steps)):
            missing = set(self.kinds.values()) - set(table)
            if missing:
                raise ValueError(f"no {what} for the action kinds {sorted(missing)}")
        _REFEREES[state] = self

    def own_state(self, state: object) -> State:
        """``state``, refused (with this battle's error) unless it is a state of this referee's battle."""
        if not isinstance(state, self.state_class):
            raise self.error(f"{_short(state)} is not a state of this battle: it takes a "
                             f"{self.state_class.__module__}.{self.state_class.__name__}")
        return state

    def check(self, state: State, action: object) -> None:
        """Raise :class:`IllegalStep` with the reason when ``action`` is not allowed now; draw no dice."""
        self.own_state(state)
        kind = self.action_kind(action)
        if self.before is not None:
            self.before(state, action)
        self.checks[kind](state, action)

    @property
    def kind_names(self) -> tuple[str, ...]:
        """Every kind, in the order the actions were declared (the order a widget shows them)."""
        return tuple(dict.fromkeys(self.kinds.values()))

    def action_kind(self, action: object) -> str:
        """The kind of ``action``; anything that is not one of this battle's actions is refused."""
        try:
            return self.kinds[type(action)]
        except (KeyError, TypeError):
            allowed = ", ".join(cls.__name__ for cls in self.kinds)
            raise self.error(f"{_short(action)} is not a battle action: allowed are {allowed}") from None

    def is_legal(self, state: State, action: object) -> bool:
        """True exactly when ``step(state, action)`` would not refuse, given dice included; a state of
        another battle (or no state) is refused, not answered False."""
        self.own_state(state)
        return legal(self.check, self.step, state, action, self.error)

    def legal_actions(self, state: State) -> tuple[object, ...]:
        """Every candidate action allowed now, so a widget can offer exactly these."""
        self.own_state(state)
        if getattr(state, "phase", None) == "over":
            return ()
        return tuple(a for a in self.candidates(state) if self.is_legal(state, a))

    def legal_kinds(self, state: State) -> frozenset[str]:
        """The kinds of the actions allowed now."""
        return frozenset(self.action_kind(a) for a in self.legal_actions(state))

    def step(self, state: State, action: object, dice: object = None) -> StepResult[State]:
        """Apply one ``action``; refuse an illegal one with :class:`IllegalStep` before any die is drawn.

        A wrongly typed action, or given dice that do not fit (a ``ValueError`` of the dice), is
        refused too; a step that leaves no legal action ends the battle (:func:`settle`), and so does
        one that ends the referee's ``stalemate_rounds`` without damage (:class:`Stalemate`). ``dice`` is
        a dice source (:class:`~rules_lib.dice.SeededDice`); given faces go on the action.
        """
        check_action_types(action, self.error)
        if dice is not None and not isinstance(dice, (SeededDice, GivenDice)):
            raise self.error(f"the dice of a step are a SeededDice, not {_short(dice)}: "
                             "give an action's own faces as its dice=(...)")
        self.check(state, action)
        try:
            result = self.steps[self.action_kind(action)](state, action, dice)
        except IllegalStep as refusal:
            if isinstance(refusal, self.error):
                raise
            raise self.error(str(refusal)) from None
        except ValueError as problem:  # given dice that do not fit the step's dice
            raise self.error(str(problem)) from None
        if self.stalemate is not None:
            result = _no_progress(self.stalemate, state, result)
        return settle(result, self.legal_actions)

    def play(self, state: State, actions: Sequence[object], dice: object = None) -> list[StepResult[State]]:
        """Apply ``actions`` in turn; every step's result (the last holds the final state)."""
        self.own_state(state)
        if isinstance(actions, (str, bytes)) or not isinstance(actions, abc.Sequence):
            raise TypeError(f"the actions played are a list of actions, not {_short(actions)}")
        results = []
        for action in actions:
            results.append(self.step(state, action, dice))
            state = results[-1].state
        return results


#: each system's referee, by the class of its battle state
_REFEREES: dict[type, Referee] = {}


def referee_of(state: object) -> Referee:
    """The referee of ``state``'s battle; anything that is not a battle's state is refused.

    A system's referee is registered when its ``rules_lib.<system>.battle`` module runs, but a state
    can be made without it (``rules_lib.gundam_sentinel.new_battle`` reads only the state's module):
    the first time a state of a ``rules_lib`` system is met, that system's battle module is imported.
    """
    if type(state) not in _REFEREES:
        _import_battle_of(type(state))
    try:
        return _REFEREES[type(state)]
    except KeyError:
        known = ", ".join(f"{cls.__module__}.{cls.__name__}" for cls in _REFEREES)
        raise IllegalStep(f"{_short(state)} is not the state of a battle: allowed are {known}") from None


def _import_battle_of(cls: type) -> None:
    """Import the battle module of the ``rules_lib`` system that defines ``cls``, which registers its referee."""
    parts = getattr(cls, "__module__", "").split(".")
    if len(parts) < 3 or parts[0] != __name__.partition(".")[0]:
        return  # not a system's state: refused by the caller
    battle = ".".join(parts[:2]) + ".battle"
    try:
        importlib.import_module(battle)
    except ModuleNotFoundError as missing:
        if missing.name != battle:
            raise


def step(state: State, action: object, dice: SeededDice | None = None) -> StepResult[State]:
    """Apply one ``action`` to any system's battle ``state`` and return the new state with its
    explanation (the step of the ``Referee`` its system registered).

    Given dice go on the action (``dice=(...)``, the faces in order, all used); ``dice`` here is
    the :class:`~rules_lib.dice.SeededDice` an action without them draws from. An illegal action is
    refused with :class:`IllegalStep`, naming the reason, before any die is drawn.
    """
    return referee_of(state).step(state, action, dice)


def play(state: State, actions: Sequence[object], dice: SeededDice | None = None) -> list[StepResult[State]]:
    """Apply ``actions`` in turn to any system's battle; every step's result (the last holds the final state)."""
    return referee_of(state).play(state, actions, dice)


def is_legal(state: object, action: object) -> bool:
    """True exactly when ``step(state, action)`` would not refuse, given dice included."""
    return referee_of(state).is_legal(state, action)


def legal_actions(state: object) -> tuple[object, ...]:
    """Every action the battle offers now (none once it is over), so a widget can offer exactly these."""
    return referee_of(state).legal_actions(state)


def legal_kinds(state: object) -> frozenset[str]:
    """The kinds of the actions allowed now (``"move"``, ``"end-action"``, ...)."""
    return referee_of(state).legal_kinds(state)


def drive(referee: Referee[State], state: State, seed: int, *, max_steps: int = 500) -> list[StepResult[State]]:
    """Play a battle by its own legal actions, chosen and rolled from ``seed``, until it is over.

    The same driver runs every system's battle: it knows only the engine's protocol. Stops after
    ``max_steps`` steps if the battle has not ended by then.
    """
    choose = random.Random(seed)
    dice = SeededDice(seed)
    results: list[StepResult[State]] = []
    for _ in range(max_steps):
        actions = referee.legal_actions(state)
        if not actions:
            break
        results.append(referee.step(state, choose.choice(actions), dice))
        state = results[-1].state
    return results


#: the longest log line shown (a line is a sentence or two): a bound on the page, not a rule
MAX_LOG_LINE = 2_000


def log_html(lines: Sequence[str], last: int | None = None) -> str:
    """A battle's log (or its ``last`` lines) as an HTML list."""
    if isinstance(lines, str) or not isinstance(lines, Iterable):
        raise ValueError(f"log lines {checks.shown(lines)} are not a list of text")
    shown = list(lines)[-last:] if last else list(lines)
    for line in shown:
        checks.text(line, "log line", max_length=MAX_LOG_LINE)
    return "<ol class='battle-log' style='font-size:0.85em;margin:0'>" + "".join(f"<li>{html.escape(line)}</li>" for line in shown) + "</ol>"
