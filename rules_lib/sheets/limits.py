"""How large a unit sheet may be, checked before any work is done on it.

No text gives a sheet's size: these are the engine's limits (*not in the source text*; the book's
rulings on unit sheets, ``book/dice/_rulings.md``, state them). A sheet's TOML text is at most
`MAX_SHEET_BYTES` bytes, read from a regular file only and never more than that plus one byte
(`read_sheet_file`); its nesting (tables, lists, dotted keys) is measured on the raw text before
``tomllib`` reads it (`check_nesting`), so neither a deep list nor a long dotted key reaches the
parser; then every list, table and text of the parsed sheet is bounded and every text passes the
text rule (`check_tree`, :mod:`rules_lib.sheets.text`).
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .text import check_line

#: the longest sheet, in bytes of its UTF-8 TOML (the samples are 1 to 3 KB)
MAX_SHEET_BYTES = 64 * 1024
#: the deepest nesting of tables, lists and dotted keys (a sheet uses 4: weapons, a weapon, its modifiers)
MAX_DEPTH = 6
#: the most entries of a list (weapons, hit locations, abilities, modes) or keys of a table
MAX_ENTRIES = 20
MAX_KEYS = 40
#: the longest name, label or other value that reaches a palette line (a weapon's name, a sheet's id)
MAX_NAME_LENGTH = 40
#: the longest note: a source (``sources``, a weapon's ``source``), ``abilities_text``, ``profile``
MAX_NOTE_LENGTH = 500
#: the largest whole number on a sheet, either side of 0 (the samples' largest is 40, a movement)
MAX_NUMBER = 999
#: the fields whose texts are notes; every other text is a name (`MAX_NAME_LENGTH`)
NOTE_FIELDS = frozenset({"sources", "source", "abilities_text", "profile"})

_LIMIT = "(an engine limit, not in the source text)"


def check_size(text: str) -> str:
    """``text`` if its UTF-8 is at most `MAX_SHEET_BYTES` bytes."""
    # a character is at least one byte: a text that long is too long without encoding it
    size = len(text) if len(text) > MAX_SHEET_BYTES else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_SHEET_BYTES:
        raise ValueError(f"the sheet is {size:,} bytes or more: a sheet is at most {MAX_SHEET_BYTES:,} bytes {_LIMIT}")
    return text


# the tokens that open or close a nesting level, a string or a comment, or end a key
_TOKEN = re.compile(r"\"\"\"|'''|[\"'#\[\]{}.=,\n]")
_BASIC_END = re.compile(r"[\"\\\n]")
_MULTILINE_BASIC_END = re.compile(r"\"\"\"|\\")


def _skip_string(text: str, at: int, opening: str) -> int:
    """The index after the string that ``opening`` (a TOML quote) began just before ``at``."""
    if opening == "'''":
        end = text.find("'''", at)
        return _after_quotes(text, end + 3, "'") if end >= 0 else len(text)
    if opening == "'":
        ends = [i for i in (text.find("'", at), text.find("\n", at)) if i >= 0]
        return min(ends) + 1 if ends else len(text)
    pattern = _MULTILINE_BASIC_END if opening == '"""' else _BASIC_END
    while (found := pattern.search(text, at)) is not None:
        if found.group() == "\\":
            at = found.end() + 1  # an escape: the next character is the string's
            continue
        if found.group() == '"""':
            return _after_quotes(text, found.end(), '"')
        return found.end()  # the closing quote, or the end of the line (a single-line string ends there)
    return len(text)


def _after_quotes(text: str, at: int, quote: str) -> int:
    # a multi-line string may end in one or two quotes of its own before its closing three
    for _ in range(2):
        if text.startswith(quote, at):
            at += 1
    return at


def check_nesting(text: str) -> str:
    """``text`` if no table, list or dotted key in it nests deeper than `MAX_DEPTH`, measured on the
    raw text (strings and comments skipped) so that ``tomllib`` never reads a deeper one."""
    depth = dots = 0
    at = 0
    while (token := _TOKEN.search(text, at)) is not None:
        kind, at = token.group(), token.end()
        if kind in ('"""', "'''", '"', "'"):
            at = _skip_string(text, at, kind)
            continue
        if kind == "#":
            end = text.find("\n", at)
            at = len(text) if end < 0 else end
            continue
        if kind in "[{":
            depth, dots = depth + 1, 0
        elif kind in "]}":
            depth, dots = max(depth - 1, 0), 0
        elif kind == ".":
            dots += 1  # a float's point counts too: the bound only errs on the safe side
        else:
            dots = 0
        if depth + dots > MAX_DEPTH:
            line = text.count("\n", 0, token.start()) + 1
            raise ValueError(f"the sheet nests more than {MAX_DEPTH} levels deep at line {line} (tables, lists or "
                             f"dotted keys): a sheet nests at most {MAX_DEPTH} {_LIMIT}")
    return text


def parse_toml(text: str) -> dict[str, Any]:
    """The mapping of a sheet's TOML text, its size and nesting bounded before ``tomllib`` reads it."""
    check_nesting(check_size(text))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"the sheet is not valid TOML: {error}") from None


def _field(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def check_tree(value: Any, path: str = "", depth: int = 0) -> None:
    """Bound a sheet's parsed mapping: its depth, the entries of each list and table, each whole
    number, the length of each text (a note's or a name's), and each text and key by the text rule; each refusal names
    the field (``weapons[2].name``, lists counted from 1)."""
    where = path or "the sheet"
    if depth > MAX_DEPTH:
        raise ValueError(f"{where} nests more than {MAX_DEPTH} levels deep: a sheet nests at most {MAX_DEPTH} {_LIMIT}")
    if isinstance(value, int) and not isinstance(value, bool):
        if not -MAX_NUMBER <= value <= MAX_NUMBER:
            shown = f"{value:,}" if abs(value) < 10**30 else f"a number of {len(str(abs(value))):,} digits"
            raise ValueError(f"{where} {shown} is out of range: a number on a sheet is -{MAX_NUMBER} to {MAX_NUMBER} {_LIMIT}")
    elif isinstance(value, str):
        note = NOTE_FIELDS.intersection(re.split(r"[.\[]", path))
        most = MAX_NOTE_LENGTH if note else MAX_NAME_LENGTH
        if len(value) > most:
            kind = "a source or note" if note else "a name or other value"
            raise ValueError(f"{where} is {len(value):,} characters long: {kind} is at most {most} characters {_LIMIT}")
        check_line(value, where)
    elif isinstance(value, Mapping):
        if len(value) > MAX_KEYS:
            raise ValueError(f"{where} has {len(value):,} keys: a table of a sheet has at most {MAX_KEYS} {_LIMIT}")
        for key, item in value.items():
            if isinstance(key, str):
                if len(key) > MAX_NAME_LENGTH:
                    raise ValueError(f"a key of {where} is {len(key):,} characters long: "
                                     f"a key is at most {MAX_NAME_LENGTH} characters {_LIMIT}")
                check_line(key, f"a key of {where}")
            check_tree(item, _field(path, key), depth + 1)
    elif isinstance(value, list | tuple):
        if len(value) > MAX_ENTRIES:
            raise ValueError(f"{where} has {len(value):,} entries: a list of a sheet has at most {MAX_ENTRIES} {_LIMIT}")
        for number, item in enumerate(value, start=1):
            check_tree(item, f"{where}[{number}]", depth + 1)


def read_sheet_file(path: str | os.PathLike[str]) -> str:
    """The text of the sheet file at ``path``: a regular file only (never a device, a FIFO or a
    folder), of at most `MAX_SHEET_BYTES` bytes, UTF-8 (a leading byte-order mark is dropped); at
    most `MAX_SHEET_BYTES` + 1 bytes are read."""
    shown = Path(path)
    try:
        # non-blocking: opening a FIFO with no writer would otherwise wait for one
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise ValueError(f"cannot read {shown}: {error.strerror}") from None
    mode = os.fstat(handle).st_mode  # of the file opened, not of what the path named a moment before
    if not stat.S_ISREG(mode):
        os.close(handle)
        raise ValueError(f"{shown} is {_file_kind(mode)}, not a regular file: a sheet is read from a file")
    with os.fdopen(handle, "rb") as file:
        data = file.read(MAX_SHEET_BYTES + 1)
    if len(data) > MAX_SHEET_BYTES:
        raise ValueError(f"{shown} is more than {MAX_SHEET_BYTES:,} bytes: a sheet is at most "
                         f"{MAX_SHEET_BYTES:,} bytes {_LIMIT}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{shown} is not UTF-8 text (byte {error.start + 1} is not UTF-8)") from None


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


__all__ = ["MAX_DEPTH", "MAX_ENTRIES", "MAX_KEYS", "MAX_NAME_LENGTH", "MAX_NOTE_LENGTH", "MAX_NUMBER", "MAX_SHEET_BYTES",
           "NOTE_FIELDS", "check_nesting", "check_size", "check_tree", "parse_toml", "read_sheet_file"]
