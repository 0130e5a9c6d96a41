"""Sizes shared by every calculator's inputs, so each one is readable on a phone and on a desktop.

On the site, ``book/stylesheets/widgets.css`` lets every labelled row wrap: a long label breaks
onto more lines, and where the row is too narrow the input moves below its label. In JupyterLab
(no site stylesheet) a label keeps its whole text (``description_width: initial``, never cut)
and the row wraps its input below the label when the two do not fit side by side.
"""

from __future__ import annotations

import ipywidgets as widgets

#: a label as wide as its text: never cut
LABEL_STYLE = {"description_width": "initial"}
#: the widest a labelled row of a form grows: enough for a label and a number side by side
FORM_WIDTH = "36em"


def form_row() -> widgets.Layout:
    """A labelled input that fills its calculator (less its margins) up to `FORM_WIDTH`, wrapping when narrow."""
    return widgets.Layout(width="auto", max_width=FORM_WIDTH, flex_flow="row wrap")


def inline_row(width: str) -> widgets.Layout:
    """A labelled input beside buttons (the battles): `width` wide where there is room."""
    return widgets.Layout(width=width, max_width="100%", flex_flow="row wrap")


def int_input(description: str, value: int, low: int, high: int, **kwargs) -> widgets.BoundedIntText:
    """A whole number between `low` and `high`, the range shown in the label."""
    return widgets.BoundedIntText(value=value, min=low, max=high, description=f"{description} ({low} to {high})",
                                  style=LABEL_STYLE, layout=form_row(), **kwargs)


def text_input(description: str, value: str, **kwargs) -> widgets.Text:
    """A text input (a dice expression, a list of dice), updated when the reader presses Enter or leaves it."""
    return widgets.Text(value=value, description=description, style=LABEL_STYLE, layout=form_row(),
                        continuous_update=False, **kwargs)


def dropdown(description: str, options, value, **kwargs) -> widgets.Dropdown:
    """A choice of named options (``(label, value)`` pairs or plain values)."""
    return widgets.Dropdown(options=options, value=value, description=description, style=LABEL_STYLE,
                            layout=form_row(), **kwargs)


def checkbox(description: str, value: bool = False) -> widgets.Checkbox:
    """A yes/no input with its description beside the box (not indented, so it wraps freely)."""
    return widgets.Checkbox(value=value, description=description, indent=False, style=LABEL_STYLE,
                            layout=widgets.Layout(width="auto", max_width="100%"))
