"""{{name}}: the rules of ``{{code}}``, one small module per rule area as the chapter grows.

A rule is a pure function over small frozen dataclasses; its docstring cites the text
(``{{code}} §1-1, line 12``); its result carries ``steps`` (the working, one line a step); a
number the text does not give is a named parameter whose docstring says *not in the source text*;
bad input raises ``ValueError`` naming the value and what is allowed (``rules_lib.checks``).
"""

from __future__ import annotations

#: the source text every rule of this package cites
SOURCE = "{{code}}"
