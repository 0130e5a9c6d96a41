"""Reader-facing text in English and Japanese: one message table per language, and the language in use.

Text the library shows a reader (a help line, a label, an explanation) is a message: a key, and its
text in each language, with ``{name}`` fields filled in when it is shown. The English table
(:mod:`rules_lib.messages.en`) is the source; the Japanese (:mod:`rules_lib.messages.ja`) stores, beside
each text, the hash of the English it was translated from, so an English change makes its Japanese
*stale* until it is brought up to date (``tests/test_messages.py`` fails on a stale, missing or extra
key, or on fields that differ). A small typed table rather than gettext catalogues: the same Python
files run in Pyodide in the reader's browser with nothing to compile, and a test can check both
tables against each other.

The language is ``lang`` where a function takes one; else the one set with `use_language` (the
site's worker sets the page's); else ``RULES_LIB_LANG``; else Japanese when the locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``) is Japanese; else English.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import string
from collections.abc import Iterator
from contextvars import ContextVar

from . import en, ja

LANGUAGES: tuple[str, ...] = ("en", "ja")
DEFAULT = "en"
_chosen: ContextVar[str | None] = ContextVar("rules_lib_language", default=None)


def source_sha256(text: str) -> str:
    """The hash that ties a translation to the English it was made from (16 hex digits)."""
    if not isinstance(text, str):
        raise ValueError(f"only a text has a translation hash, not {type(text).__name__}")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def check_language(lang: object) -> str:
    """``lang`` if it is one of `LANGUAGES`, else an error naming it and what is allowed."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ValueError(f"language {lang!r:.40}: the library speaks {', '.join(LANGUAGES)}")
    return lang


def _from_locale() -> str | None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:  # the first one set decides, as POSIX reads them
            return "ja" if value.lower().startswith("ja") else None
    return None


def language(lang: str | None = None) -> str:
    """The language to speak: ``lang`` when given, else the one in use (see the module's docstring)."""
    if lang is not None:
        return check_language(lang)
    chosen = _chosen.get()
    if chosen is not None:
        return chosen
    named = os.environ.get("RULES_LIB_LANG")
    if named:
        return check_language(named)
    return _from_locale() or DEFAULT


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on in this context (the site's worker calls it with the page's language)."""
    _chosen.set(check_language(lang))


@contextlib.contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the ``with`` block."""
    token = _chosen.set(check_language(lang))
    try:
        yield lang
    finally:
        _chosen.reset(token)


def fields(text: str) -> set[str]:
    """The ``{name}`` fields a message fills in."""
    if not isinstance(text, str):
        raise ValueError(f"a message is a text, not {type(text).__name__}")
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def message(key: str, lang: str | None = None, **values: object) -> str:
    """The text of ``key`` in the language to speak, its fields filled in from ``values``.

    A key without a Japanese text yet is shown in English (``tests/test_messages.py`` keeps that from
    being committed)."""
    if not isinstance(key, str) or key not in en.MESSAGES:
        raise ValueError(f"no message has the key {key!r:.60}")
    spoken = language(lang)
    text = en.MESSAGES[key]
    if spoken == "ja" and key in ja.MESSAGES:
        text = ja.MESSAGES[key][0]
    missing = fields(text) - set(values)
    if missing:
        raise ValueError(f"message {key} needs {', '.join(sorted(missing))}")
    return text.format(**values)


def stale(language_table: dict[str, tuple[str, str]] | None = None) -> dict[str, str]:
    """Each key whose translation is out of date with its English, and why: missing, stale, extra or
    with other fields than the English."""
    table = ja.MESSAGES if language_table is None else language_table
    found = {}
    for key, english in en.MESSAGES.items():
        if key not in table:
            found[key] = "missing"
        elif table[key][1] != source_sha256(english):
            found[key] = "stale: the English changed after it was translated"
        elif fields(table[key][0]) != fields(english):
            found[key] = f"fields {sorted(fields(table[key][0]))}, the English has {sorted(fields(english))}"
    found.update({key: "extra: no English message has this key" for key in table if key not in en.MESSAGES})
    return found


__all__ = ["DEFAULT", "LANGUAGES", "check_language", "fields", "language", "message", "set_language",
           "source_sha256", "stale", "use_language"]
