"""HTML for calculator results: a table with bars, so no plotting library is needed."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..reader import distribution_table

__all__ = ["WorkedExample", "distribution_table", "error_line", "example_line"]


def error_line(message: str) -> str:
    return f"<p class='calculator-error' style='color:#b71c1c'>{html.escape(message)}</p>"


@dataclass(frozen=True)
class WorkedExample:
    """The example a calculator is preset with, and what it comes to, for the line under it.

    ``inputs`` maps the calculator's input attributes to the example's values; ``figures`` computes
    the example's result as plain text from those values, with the library (never literals);
    ``from_text`` says whether the inputs are the source text's own or the book's, applied to the
    text's rule at ``source``.
    """

    source: str
    inputs: Mapping[str, object]
    figures: Callable[..., str]
    from_text: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.source, str) or not self.source.strip():
            raise ValueError(f"a worked example needs its source (e.g. '001 §3-1'), not {self.source!r}")
        if not callable(self.figures):
            raise TypeError(f"a worked example's figures must be a function of its inputs, not {self.figures!r}")


def example_line(example: WorkedExample, current: Mapping[str, object], figures: str | None = None) -> str:
    """The line under a calculator: the example it is preset with, labelled as the text's or the book's,
    and whether the ``current`` inputs are that example; its figures are always the example's."""
    figures = example.figures(**example.inputs) if figures is None else figures
    whose = "The text's example" if example.from_text else "The book's example"
    differing = [name for name, value in example.inputs.items() if current.get(name) != value]
    verdict = ("your inputs differ from the example: the figures here are the example's, not your inputs'"
               if differing else "your inputs are the example")
    mark = "" if differing else "✓ "
    return (f"<p class='calculator-example'>{mark}{whose} ({html.escape(example.source)}): "
            f"{html.escape(figures)}; {verdict}.</p>")
