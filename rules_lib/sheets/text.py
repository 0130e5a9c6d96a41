"""The one text rule for every sheet value that reaches a palette, a chat line, a terminal or a page.

A sheet's text is one line of characters that show. A chat palette is one command a line, and
CCFOLIA's ``commands`` and the site's *Copy chat palette* split at every line break: a weapon
named ``x\\rECHC`` would add a line that rolls a chart. A control character (ESC, BEL, NUL) acts on
the terminal that prints it, and a bidirectional override makes a line read differently from what
it holds. So these characters are refused wherever a sheet's text comes in or goes out, with the
field and the character named (``weapons[2].name holds U+000D (a line break)``):

- every character ``str.splitlines()`` breaks a line at (`LINE_BREAKS`),
- every control character (Unicode category Cc, U+0000-001F and U+007F-009F),
- the bidirectional embeddings, overrides, isolates and marks (`BIDI_CONTROLS`),
- a lone surrogate (half of a UTF-16 pair, no character at all).

What the rule reads is *not in the source text*: the texts say nothing of how a sheet is typed.
"""

from __future__ import annotations

import re
import unicodedata

#: every character ``str.splitlines()`` splits on (Python's documentation, str.splitlines)
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
#: the bidirectional embeddings and overrides (U+202A-202E), isolates (U+2066-2069) and the
#: left-to-right, right-to-left and Arabic letter marks (U+200E, U+200F, U+061C)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_CONTROLS = "\x00-\x1f\x7f-\x9f"  # Unicode category Cc, all of it
_REFUSED = re.compile(f"[{_CONTROLS}\u2028\u2029{''.join(sorted(BIDI_CONTROLS))}\ud800-\udfff]")


def kind_of(char: str) -> str | None:
    """What makes ``char`` unfit for a sheet's text, or ``None`` when it may appear."""
    if char in LINE_BREAKS:
        return "a line break"
    if unicodedata.category(char) == "Cc":
        return "a control character"
    if char in BIDI_CONTROLS:
        return "a bidirectional control"
    if "\ud800" <= char <= "\udfff":
        return "a lone surrogate"
    return None


def check_line(value: str, where: str) -> str:
    """``value`` if it is one line of characters that show, else a ``ValueError`` naming ``where``
    (the field, ``weapons[2].name``) and the first character refused (as ``U+000D``)."""
    found = _REFUSED.search(value)
    if found is None:
        return value
    char, at = found.group(), found.start()
    shown = value[max(0, at - 20):at + 20]
    raise ValueError(f"{where} holds U+{ord(char):04X} ({kind_of(char)}) at character {at + 1} ({shown!r}): "
                     "a sheet's text is one line without control characters, line breaks or bidirectional controls")


def check_lines(value: str, where: str) -> str:
    """``value`` if each of its lines (split at ``\\n`` alone, as CCFOLIA's memo and palette are written)
    passes `check_line`."""
    if not isinstance(value, str):
        raise TypeError(f"{where} must be text, not {type(value).__name__}")
    for number, line in enumerate(value.split("\n"), start=1):
        check_line(line, f"{where}, line {number}")
    return value


__all__ = ["BIDI_CONTROLS", "LINE_BREAKS", "check_line", "check_lines", "kind_of"]
