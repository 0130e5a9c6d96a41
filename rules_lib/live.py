"""The DOM class that names a live calculator: what the widgets put on themselves and the site reads.

It sits below both of its readers: ``rules_lib.widgets.base`` marks every calculator with it, and
``rules_lib.browser`` (which constructs calculators from ``rules_lib.widgets``) pairs a page's
widgets with the class it names, so neither imports the other to share it.
"""

from __future__ import annotations

LIVE_PREFIX = "rules-lib-live--"


def live_class(cls: type) -> str:
    """The DOM class that tells the page which calculator class to construct."""
    if not isinstance(cls, type):
        raise TypeError(f"live_class needs a calculator class, not {cls!r:.60}")
    return f"{LIVE_PREFIX}{cls.__module__}:{cls.__qualname__}"
