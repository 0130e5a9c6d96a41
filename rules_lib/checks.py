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

import inspect
import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache, wraps
from numbers import Rational, Real
from typing import ParamSpec, TypeVar, get_type_hints

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
    return text.translate(_HALFWIDTH)


def command_text(expression: object) -> str:
    """A dice command as the systems' parsers read it: half-width, upper case, without spaces
    (``ｖｗ＋８`` is ``VW+8``), or an error when ``expression`` is not text."""
    if not isinstance(expression, str):
        raise ValueError(f"command {expression!r} is not text")
    return halfwidth(expression).strip().upper().replace(" ", "")


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
    signature = inspect.signature(function)

    @wraps(function)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        bound = signature.bind(*args, **kwargs)
        for name in _flag_names(function):
            if name in bound.arguments:
                flag(bound.arguments[name], name)
        return function(*args, **kwargs)

    return checked


@cache
def _flag_names(function: Callable) -> tuple[str, ...]:
    # read on the first call, when every name the annotations use exists
    hints = get_type_hints(function)
    return tuple(name for name in inspect.signature(function).parameters if hints.get(name) is bool)
