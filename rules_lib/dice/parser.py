"""A hand-written recursive-descent parser for the dice notation of the texts.

The notation follows BCDice, the dice bot of Japanese online play:

    expression := sum [comparison sum]
    comparison := '>' | '>=' | '<' | '<=' | '=' | '<>'
    sum        := product (('+' | '-') product)*
    product    := unary (('*' | '/' ['U' | 'R']) unary)*
    unary      := '-' unary | primary
    primary    := INT ['D' INT] | 'D' INT | '(' sum ')'

``D66`` and ``D36`` (any count) are two d6 read as tens and units, 11..66, as the
texts use them. Full-width characters (２Ｄ６, U+FF01 to U+FF5E, and the ideographic
space), ``×``, ``÷`` and the minus sign ``−`` are read as their ASCII forms; nothing else
outside ASCII is notation (not ``²``, not ``٣``). Nothing is evaluated here; see ``roll``
and ``exact``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..checks import halfwidth
from .errors import DiceLimitError, DiceSyntaxError
from .syntax import BinaryOp, Comparison, Dice, Negate, Node, Number

MAX_EXPRESSION_LENGTH = 200
MAX_DICE = 200
MAX_SIDES = 1000
MAX_NUMBER = 1_000_000_000
TENS_UNITS_SIDES = (36, 66)

_ALIASES = {"×": "*", "÷": "/", "−": "-", "＊": "*", "／": "/", "ｘ": "*"}
_COMPARISONS = (">=", "<=", "<>", ">", "<", "=")
_PRIMARY = "a number, a dice roll like 1D6, or '('"


@dataclass(frozen=True)
class ParsedExpression:
    """A parsed expression: its arithmetic ``value`` and an optional comparison."""

    text: str
    value: Node
    comparison: Comparison | None

    @property
    def root(self) -> Node | Comparison:
        return self.comparison or self.value

    def __str__(self) -> str:
        return str(self.root)


_DIGITS = re.compile("[0-9]+")


def normalize(text: str) -> str:
    """Map the documented full-width and typographic characters to ASCII, one for one.

    Only these fold: full-width ASCII (２Ｄ６＋１), the ideographic space and the aliases
    ``× ÷ −``. Other characters are kept as they are, so the grammar refuses them by name
    (NFKC would turn ``²`` into ``2`` and read ``1D6²`` as a 62-sided die).
    """
    text = halfwidth("".join(_ALIASES.get(char, char) for char in text))
    return "".join(char.upper() if char.isascii() else char for char in text)


def check_text(text: object, what: str = "the expression") -> str:
    """The limits every notation shares, dice expressions and system commands alike.

    Text (a ``str``), at most `MAX_EXPRESSION_LENGTH` characters, digits only ASCII or
    full-width, no number longer than `MAX_NUMBER` allows. Returns the normalised text.
    """
    if not isinstance(text, str):
        raise TypeError(f"{what} is a string, not {type(text).__name__}")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceLimitError(
            text, MAX_EXPRESSION_LENGTH + 1,
            f"{what} is {len(text)} characters long; at most {MAX_EXPRESSION_LENGTH} are allowed",
        )
    folded = normalize(text)
    for index, char in enumerate(folded):
        if not char.isascii() and (char.isdigit() or char.isnumeric()):
            raise DiceSyntaxError(
                text, index + 1, "an ASCII digit 0-9 or a full-width digit ０-９", repr(char)
            )
    for number in _DIGITS.finditer(folded):
        # checked before int(): a long digit string costs time and has a conversion limit
        digits = number.group()
        if _too_large(digits):
            shown = digits if len(digits) <= 20 else f"{digits[:20]}... ({len(digits)} digits)"
            raise DiceLimitError(text, number.start() + 1, f"the number {shown} is larger than {MAX_NUMBER}")
    return folded


def _too_large(digits: str) -> bool:
    """Whether a run of ASCII digits is a number above `MAX_NUMBER`; leading zeros do not count
    (``0000000000005`` is 5), and the length is checked before ``int()`` reads it."""
    significant = digits.lstrip("0")
    return len(significant) > len(str(MAX_NUMBER)) or int(significant or "0") > MAX_NUMBER


def parse(text: str) -> ParsedExpression:
    """Parse a dice expression, raising `DiceSyntaxError` with the position on error."""
    check_text(text, "a dice expression")
    return _Parser(text).parse()


def parsed_expression(expression: str | ParsedExpression) -> ParsedExpression:
    """``expression`` parsed when it is text, as given when it is parsed already; anything else
    (``odds(5)``) is refused by name."""
    if isinstance(expression, ParsedExpression):
        return expression
    if isinstance(expression, str):
        return parse(expression)
    raise ValueError(f"dice expression {expression!r:.60} is not text: write it as text, like '2D6+1'")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.chars = normalize(text)
        self.index = 0
        self.dice_total = 0

    # -- scanning ---------------------------------------------------------
    def _skip_spaces(self) -> None:
        while self.index < len(self.chars) and self.chars[self.index] in " \t\r\n":
            self.index += 1

    def _peek(self) -> str:
        self._skip_spaces()
        return self.chars[self.index] if self.index < len(self.chars) else ""

    def _accept(self, token: str) -> bool:
        self._skip_spaces()
        if self.chars.startswith(token, self.index):
            self.index += len(token)
            return True
        return False

    def _operator(self, operators: tuple[str, ...]) -> tuple[str, int] | None:
        """The next operator if it is one of ``operators`` (tried in order), consumed, with its
        position; ``None`` (nothing consumed) otherwise."""
        position = self._position()
        for operator in operators:
            if self._accept(operator):
                return operator, position
        return None

    def _position(self) -> int:
        self._skip_spaces()
        return self.index + 1

    def _fail(self, expected: str) -> DiceSyntaxError:
        self._skip_spaces()
        if self.index >= len(self.chars):
            found = "the end of the expression"
        else:
            found = repr(self.text[self.index])
        return DiceSyntaxError(self.text, self.index + 1, expected, found)

    def _integer(self) -> tuple[int, int] | None:
        self._skip_spaces()
        start = self.index
        while self.index < len(self.chars) and self.chars[self.index] in "0123456789":
            self.index += 1
        if start == self.index:
            return None
        digits = self.chars[start:self.index]
        if _too_large(digits):
            raise DiceLimitError(self.text, start + 1, f"the number {digits} is larger than {MAX_NUMBER}")
        return int(digits), start + 1

    # -- grammar ----------------------------------------------------------
    def parse(self) -> ParsedExpression:
        if not self.chars.strip():
            raise self._fail(_PRIMARY)
        value = self._sum()
        comparison = None
        if operator := self._operator(_COMPARISONS):
            op, position = operator
            comparison = Comparison(op, value, self._sum(), position)
        if self._peek():
            raise self._fail("an operator (+ - * /), a comparison or the end of the expression")
        _check_divisors(self.text, comparison or value)
        return ParsedExpression(self.text, value, comparison)

    def _sum(self) -> Node:
        node = self._product()
        while operator := self._operator(("+", "-")):
            op, position = operator
            node = BinaryOp(op, node, self._product(), position)
        return node

    def _product(self) -> Node:
        node = self._unary()
        while operator := self._operator(("*", "/")):
            op, position = operator
            right = self._unary()
            rounding = "down"
            if op == "/":
                if self._accept("U"):
                    rounding = "up"
                elif self._accept("R"):
                    rounding = "nearest"
            node = BinaryOp(op, node, right, position, rounding)
        return node

    def _unary(self) -> Node:
        position = self._position()
        if self._accept("-"):
            return Negate(self._unary(), position)
        return self._primary()

    def _primary(self) -> Node:
        position = self._position()
        if self._accept("("):
            node = self._sum()
            if not self._accept(")"):
                raise self._fail("')' to close the '(' at position " + str(position))
            return node
        number = self._integer()
        if self._peek() == "D":
            return self._dice(number[0] if number else 1, position)
        if number is None:
            raise self._fail(_PRIMARY)
        return Number(number[0], position)

    def _dice(self, count: int, position: int) -> Dice:
        self.index += 1  # the 'D'
        sides = self._integer()
        if sides is None:
            raise self._fail("the number of sides after 'D' (as in 1D6)")
        if count < 1:
            raise DiceLimitError(self.text, position, f"a roll needs at least 1 die, not {count}")
        if count > MAX_DICE:
            raise DiceLimitError(self.text, position, f"{count} dice is too many; at most {MAX_DICE} are allowed")
        if sides[0] < 1:
            raise DiceLimitError(self.text, sides[1], f"a die needs at least 1 side, not {sides[0]}")
        if sides[0] > MAX_SIDES:
            raise DiceLimitError(
                self.text, sides[1], f"{sides[0]} sides is too many; at most {MAX_SIDES} are allowed"
            )
        self.dice_total += count
        if self.dice_total > MAX_DICE:
            raise DiceLimitError(
                self.text, position,
                f"the expression rolls {self.dice_total} dice; at most {MAX_DICE} are allowed in all",
            )
        return Dice(count, sides[0], position, tens_units=sides[0] in TENS_UNITS_SIDES)


def bounds(node: Node) -> tuple[int, int]:
    """The smallest and largest value a node can take."""
    match node:
        case Number(value=value):
            return value, value
        case Dice(count=count, sides=sides, tens_units=True):
            return 11 * count, 66 * count
        case Dice(count=count, sides=sides):
            return count, count * sides
        case Negate(operand=operand):
            low, high = bounds(operand)
            return -high, -low
        case BinaryOp(op="+", left=left, right=right):
            (a, b), (c, d) = bounds(left), bounds(right)
            return a + c, b + d
        case BinaryOp(op="-", left=left, right=right):
            (a, b), (c, d) = bounds(left), bounds(right)
            return a - d, b - c
        case BinaryOp(op="*", left=left, right=right):
            (a, b), (c, d) = bounds(left), bounds(right)
            corners = (a * c, a * d, b * c, b * d)
            return min(corners), max(corners)
        case BinaryOp(op="/", left=left, right=right):
            (a, b), (c, d) = bounds(left), bounds(right)
            # the divisor never includes 0 (checked at parse time); the extremes of
            # x / y over a box lie at its corners, widened by one for rounding
            corners = [x / y for x in (a, b) for y in (c, d)]
            return int(min(corners)) - 1, int(max(corners)) + 1
    raise TypeError(f"not a dice expression node: {node!r}")


def _check_divisors(text: str, node: Node | Comparison) -> None:
    match node:
        case Comparison(left=left, right=right) | BinaryOp(left=left, right=right):
            _check_divisors(text, left)
            _check_divisors(text, right)
            if isinstance(node, BinaryOp) and node.op == "/":
                low, high = bounds(right)
                if low <= 0 <= high:
                    raise DiceLimitError(
                        text, node.position,
                        f"the divisor {right} can be 0; division needs a divisor that is never 0",
                    )
        case Negate(operand=operand):
            _check_divisors(text, operand)


__all__ = [
    "MAX_DICE", "MAX_EXPRESSION_LENGTH", "MAX_SIDES", "ParsedExpression", "parse",
]
