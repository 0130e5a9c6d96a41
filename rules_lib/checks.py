"""One set of input checks for every rule function: whole numbers, ranges, flags, text.

Each check returns the value when it is allowed and otherwise raises a ``ValueError``
(or the subclass given as ``error``) whose message names the argument, the value and
what is allowed: ``"borrow 1.5 is not a whole number"``, ``"used -1 is below 0: allowed
are 0 or more"``. ``bool`` is not a number here (``True`` is no count of dice), ``NaN``
and infinities are never numbers, and floats only where a caller says so.

Functions whose work grows with an input name a cap (``MAX_...``) in their module and call
`whole` with it as ``maximum``, so they refuse at once instead of running for minutes.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from functools import cache, wraps
from numbers import Rational, Real
from types import UnionType
from typing import ParamSpec, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")
R = TypeVar("R")
P = ParamSpec("P")

#: the longest text any rule function reads (names, squares, dice written as text)
MAX_TEXT_LENGTH = 200


#: full-width ASCII (U+FF01-FF5E), the ideographic space and the minus sign, to their ASCII forms
_HALFWIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20, 0x2212: 0x2D}


def halfwidth(text: str) -> str:
    """``text`` with full-width ASCII (``２Ｄ６＋１``, ``Ａ－３``), the ideographic space and the minus
    sign ``−`` as ASCII, one character for one; nothing else changes.

    The one full-width normaliser of the library: Japanese sheets and chat palettes write numbers and
    commands full-width. Unlike NFKC it folds nothing else (NFKC reads ``²`` as ``2``).
    """
    if not isinstance(text, str):
        raise ValueError(f"{_shown(text)} is not text")
    return text.translate(_HALFWIDTH)


def command_text(expression: object) -> str:
    """A dice command as the systems' parsers read it: half-width, upper case, without spaces
    (``ｖｗ＋８`` is ``VW+8``), or an error when ``expression`` is not text."""
    if not isinstance(expression, str):
        raise ValueError(f"command {expression!r} is not text")
    return halfwidth(expression).strip().upper().replace(" ", "")


def shown(value: object) -> str:
    """``repr(value)`` cut to 60 characters, for an error message."""
    return _shown(value)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:60]}... ({len(text)} characters)"


def _range(minimum: object, maximum: object) -> str:
    if minimum is not None and maximum is not None:
        return f"{minimum} to {maximum}"
    if minimum is not None:
        return f"{minimum} or more"
    return f"at most {maximum}"


def _bounded(value, what: str, minimum, maximum, error: type[ValueError]):
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        side = "below" if minimum is not None and value < minimum else "above"
        edge = minimum if side == "below" else maximum
        raise error(f"{what} {_shown(value)} is {side} {edge}: allowed are {_range(minimum, maximum)}")
    return value


def whole(
    value: object, what: str, *, minimum: int | None = None, maximum: int | None = None,
    error: type[ValueError] = ValueError,
) -> int:
    """``value`` if it is an ``int`` (not a bool) within ``minimum..maximum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} {_shown(value)} is not a whole number")
    return _bounded(value, what, minimum, maximum, error)


def number(
    value: object, what: str, *, minimum: Real | None = None, maximum: Real | None = None,
    allow_float: bool = False, error: type[ValueError] = ValueError,
) -> int | Fraction | float:
    """An exact number (``int`` or ``Fraction``), or a finite float when ``allow_float``."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise error(f"{what} {_shown(value)} is not a number")
    if not isinstance(value, Rational):
        if not math.isfinite(value):
            raise error(f"{what} {_shown(value)} is not a finite number")
        if not allow_float:
            raise error(f"{what} {_shown(value)} is not exact: give a whole number or a Fraction")
    return _bounded(value, what, minimum, maximum, error)


def flag(value: object, what: str, *, error: type[ValueError] = ValueError) -> bool:
    """``value`` if it is ``True`` or ``False`` (not a truthy string or number)."""
    if not isinstance(value, bool):
        raise error(f"{what} {_shown(value)} is not True or False")
    return value


def of_type(value: object, what: str, kind: type[T], *, error: type[ValueError] = ValueError) -> T:
    """``value`` if it is a ``kind`` (an options object, say), not a look-alike ``dict`` or text."""
    if not isinstance(value, kind):
        raise error(f"{what} {_shown(value)} is not a {kind.__name__}")
    return value


def text(
    value: object, what: str, *, max_length: int = MAX_TEXT_LENGTH, error: type[ValueError] = ValueError,
) -> str:
    """``value`` if it is a ``str`` of at most ``max_length`` characters."""
    if not isinstance(value, str):
        raise error(f"{what} {_shown(value)} is not text")
    if len(value) > max_length:
        raise error(f"{what} is {len(value)} characters long: allowed are at most {max_length}")
    return value


def choice(value: T, what: str, allowed: Iterable[T], *, error: type[ValueError] = ValueError) -> T:
    """``value`` if it is one of ``allowed``."""
    allowed = tuple(allowed)
    try:
        known = value in allowed
    except TypeError:  # an unhashable or uncomparable value is no choice either
        known = False
    if not known:
        raise error(f"{what} {_shown(value)} is unknown: allowed are {', '.join(map(repr, allowed))}")
    return value


def checked_flags(function: Callable[P, R]) -> Callable[P, R]:
    """Decorate a rule function so that each of its ``bool`` parameters must be ``True`` or ``False``.

    A flag given as ``"abc"``, ``1.5`` or ``None`` would otherwise be read as truthy or falsy and
    silently change the rule (a fainted-pilot flag of ``"abc"`` once made every hit check hit).
    """
    return _checked(function, types=False)


def checked_arguments(function: Callable[P, R]) -> Callable[P, R]:
    """`checked_flags`, and each parameter whose hint is a class of ``rules_lib`` (an options
    object, a hex, a weapon; or a union of such classes with ``None`` or builtins) must be one.

    A look-alike would otherwise fail deep inside the rule with an ``AttributeError`` that names
    neither the argument nor what is allowed (``maximum_level(12, rules=3)``).
    """
    return _checked(function, types=True)


def _checked(function: Callable[P, R], *, types: bool) -> Callable[P, R]:
    signature = inspect.signature(function)

    @wraps(function)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        bound = signature.bind(*args, **kwargs).arguments
        for name in _flag_names(function):
            if name in bound:
                flag(bound[name], name)
        for name, shape in _typed_names(function) if types else ():
            if name in bound:
                _check_shape(bound[name], name, shape)
        return function(*args, **kwargs)

    return checked


def check_fields(instance: object) -> None:
    """For a dataclass's ``__post_init__``: each field whose hint is a class of ``rules_lib``, a
    sequence of such classes or a mapping holds one (the `checked_arguments` rule for fields), and
    each ``bool`` field is ``True`` or ``False``.

    A look-alike (``Unit(weapons=[None])``) would otherwise be stored and fail much later, far from
    the call that gave it, with an ``AttributeError``.
    """
    cls = type(instance)
    for name in _field_flag_names(cls):
        flag(getattr(instance, name), name)
    for name, shape in _field_shapes(cls):
        _check_shape(getattr(instance, name), name, shape)


# A parameter's shape: the alternatives of its hint, each ("type", kinds), ("items", kinds) for a
# sequence of one of kinds, or ("mapping", ()) for any mapping.
_Shape = tuple[tuple[str, tuple[type, ...]], ...]


def _check_shape(value: object, name: str, shape: _Shape) -> None:
    for form, kinds in shape:
        if form == "type" and isinstance(value, kinds):
            return
        if form == "mapping" and isinstance(value, Mapping):
            return
        if form == "items" and _is_items(value, kinds):
            return
    raise ValueError(f"{name} {_shown(value)} is not {_describe(shape)}")


def _is_items(value: object, kinds: tuple[type, ...]) -> bool:
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        return False
    # an iterator is not read twice: only a list or a tuple is checked item by item
    return not isinstance(value, list | tuple) or all(isinstance(item, kinds) for item in value)


def _names(kinds: tuple[type, ...]) -> str:
    return " or ".join("None" if k is type(None) else k.__name__ for k in kinds)


def _describe(shape: _Shape) -> str:
    said = {"type": lambda kinds: f"a {_names(kinds)}", "mapping": lambda kinds: "a mapping",
            "items": lambda kinds: f"a list or tuple of {_names(kinds)}"}
    return " or ".join(said[form](kinds) for form, kinds in shape)


def _hints(function: Callable) -> dict[str, object]:
    # read on the first call, when every name the annotations use exists
    try:
        return get_type_hints(function)
    except NameError:  # a class imported only for type checkers (a battle's state): left unchecked
        return {}


@cache
def _flag_names(function: Callable) -> tuple[str, ...]:
    hints = _hints(function)
    return tuple(name for name in inspect.signature(function).parameters if hints.get(name) is bool)


@cache
def _typed_names(function: Callable) -> tuple[tuple[str, _Shape], ...]:
    hints = _hints(function)
    found = []
    for name in inspect.signature(function).parameters:
        shape = _shape(hints.get(name))
        if shape is not None:
            found.append((name, shape))
    return tuple(found)


@cache
def _field_flag_names(cls: type) -> tuple[str, ...]:
    hints = _hints(cls)
    return tuple(f.name for f in dataclasses.fields(cls) if hints.get(f.name) is bool)


@cache
def _field_shapes(cls: type) -> tuple[tuple[str, _Shape], ...]:
    hints = _hints(cls)
    found = []
    for f in dataclasses.fields(cls):
        shape = _shape(hints.get(f.name))
        if shape is not None:
            found.append((f.name, shape))
    return tuple(found)


def _ours(kind: object) -> bool:
    # an enum is given by its value too (``"two-handed"`` for a Grip): the rule reads it; a protocol
    # is no class to test against
    return (isinstance(kind, type) and kind.__module__.startswith("rules_lib") and not issubclass(kind, Enum)
            and not getattr(kind, "_is_protocol", False))


_SEQUENCES = (Sequence, Iterable, Collection, tuple, list)


def _shape(hint: object) -> _Shape | None:
    """The shape to check for ``hint``, or ``None`` when it names no class of ``rules_lib`` (and no
    mapping) or has a part the checks cannot judge (a callable, a literal, a type variable)."""
    members = get_args(hint) if get_origin(hint) in (Union, UnionType) else (hint,)
    shape, ours = [], False
    for member in members:
        origin, args = get_origin(member), get_args(member)
        if origin is None and isinstance(member, type) and not issubclass(member, Enum) \
                and not getattr(member, "_is_protocol", False):
            shape.append(("type", (member,)))
            ours = ours or _ours(member)
        elif origin in (Mapping, dict):
            shape.append(("mapping", ()))
            ours = True
        elif origin in _SEQUENCES and args and all(a is Ellipsis or _ours(a) for a in args) \
                and not any(issubclass(a, tuple) for a in args if a is not Ellipsis):
            # a NamedTuple item (a Square) may be given as a plain tuple: such items are not checked
            shape.append(("items", tuple(a for a in args if a is not Ellipsis)))
            ours = True
        else:
            return None
    if not ours:
        return None
    # the alternatives of one form together: "a Hex or None", not "a Hex or a None"
    types = tuple(k for form, kinds in shape if form == "type" for k in kinds)
    rest = tuple(entry for entry in shape if entry[0] != "type")
    return ((("type", types),) if types else ()) + rest
