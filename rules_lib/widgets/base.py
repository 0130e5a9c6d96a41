"""The base of every calculator: a VBox that the published site can bring to life.

A subclass builds its widgets in ``__init__`` (every argument with a default, so the
browser can construct it), calls ``super().__init__(children)`` and observes its inputs.
The site pairs the Python widget tree with the page's stored one, so the children must
keep their shape: values change, widgets are not added or removed after construction.
Results are shown in ``HTML`` widgets (not ``Output``, which needs a Jupyter kernel).
"""

from __future__ import annotations

import ipywidgets as widgets

from ..browser import live_class


class Calculator(widgets.VBox):
    """A calculator widget whose class the site's live runtime can construct (``rules_lib.browser``)."""

    def __init__(self, children=(), **kwargs) -> None:
        super().__init__(children, **kwargs)
        self.add_class(live_class(type(self)))
