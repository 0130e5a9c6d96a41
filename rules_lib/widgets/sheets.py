"""A live sheet builder: pick a sample sheet or edit one as TOML, see its key odds, copy it to CCFOLIA.

Every value shown comes from :mod:`rules_lib.sheets`: validation is the sheet type's own
(``from_toml``), the odds its ``odds_rows`` (exact fractions), the palette and the CCFOLIA JSON its
export. The copy buttons and the TOML download are plain HTML in the result, so they also work on
the page's stored state before Python has started. A sheet the library refuses (a bad value, a line
break or control character in a name: :mod:`rules_lib.sheets.text`) shows the refusal with the copy
buttons disabled, so nothing of it reaches the clipboard.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import ipywidgets as widgets

from .. import sheets
from ..dice import percent
from ..sheets import udonarium
from ..sheets.ccfolia import to_json
from .base import FormCalculator
from .render import error_line

YOUR_SHEET = "(your sheet: edit the TOML)"
TARGET_LABELS = {"gundam-sentinel": "Evasion", "nemesis": "Armour"}
#: the copy buttons: the class of the text each copies, and its label
COPIES = (("rules-lib-ccfolia-json", "Copy CCFOLIA JSON"), ("rules-lib-palette", "Copy chat palette"))
_COPY = ("navigator.clipboard.writeText(this.closest('.rules-lib-sheet').querySelector('.{cls}').textContent)"
         ".then(() => {{ this.textContent = '{done}'; }})")


class SheetCalculator(FormCalculator):
    """Build a unit sheet of ``system`` live: validated on every change, exported on the spot."""

    def __init__(self, system: str = "wis6", sheet_id: str | None = None, target: str = "") -> None:
        self.system = system
        self.samples = sheets.load(system)
        first = sheet_id or next(iter(self.samples))
        self.choice = widgets.Dropdown(options=[*self.samples, YOUR_SHEET], value=first, description="Sheet")
        self.toml = widgets.Textarea(value=sheets.export(self.samples[first], "toml"), description="TOML",
                                     rows=16, continuous_update=False, layout=widgets.Layout(width="100%"))
        self.target = widgets.Text(value=target, description=TARGET_LABELS.get(system, "Target"),
                                   placeholder="blank: none" if system in TARGET_LABELS else "(not used by this system)",
                                   continuous_update=False)
        self._last_choice = first
        self._filling = False
        self._sample_text = self.toml.value
        # the TOML text last read, with what follows from it alone: the sheet, its TOML export and its
        # odds tables (a change of target alone reads nothing again)
        self._read: tuple[str, Any, str, str] | None = None
        self.sheet = None
        super().__init__([self.choice, self.toml, self.target])

    def _update(self, change: object = None) -> None:
        if not self._filling:  # the TOML filled in for a chosen sample: the update under way shows it
            super()._update(change)

    def _compute(self) -> str:
        if self.choice.value != self._last_choice:
            self._last_choice = self.choice.value
            if self.choice.value in self.samples:
                self._filling = True
                try:
                    self._sample_text = sheets.export(self.samples[self.choice.value], "toml")
                    self.toml.value = self._sample_text
                finally:
                    self._filling = False
        text = self.toml.value
        if self._read is None or self._read[0] != text:
            sheet = sheets.from_toml(text, self.system)
            # a sample's text is its sheet's export already
            exported = text if text == self._sample_text else sheets.export(sheet, "toml")
            self._read = (text, sheet, exported, _odds_tables(sheet))
        _, self.sheet, toml, tables = self._read
        target = self._target()
        # one CCFOLIA piece, as sheets.export makes it, for both tables: its JSON, and Udonarium's ZIP of
        # data.xml (issue 37), the same bytes as udonarium.export
        character = self.sheet.ccfolia(**sheets.palette_options(sheets.system_of(self.sheet), target))
        ccfolia = to_json(character)
        piece = base64.b64encode(udonarium.archive(character, udonarium.dicebot(self.system))).decode("ascii")
        palette = sheets.export(self.sheet, "palette", target=target)
        return (
            "<div class='rules-lib-sheet'>"
            f"<p>✓ a valid {html.escape(self.system)} sheet: <b>{html.escape(self.sheet.name)}</b></p>"
            f"<p>{' '.join(_button(cls, label) for cls, label in COPIES)} "
            f"<a class='rules-lib-download' download='{html.escape(self.sheet.id)}.toml' "
            f"href='data:text/plain;charset=utf-8,{quote(toml)}'>Download TOML</a> "
            f"<a class='rules-lib-download' download='{html.escape(self.sheet.id)}-udonarium.zip' "
            f"href='data:application/zip;base64,{piece}'>Download Udonarium piece (ZIP)</a></p>"
            f"{tables}"
            "<p><b>Chat palette</b></p>"
            f"<pre class='rules-lib-palette'>{html.escape(palette)}</pre>"
            "<details><summary>CCFOLIA clipboard JSON</summary>"
            f"<pre class='rules-lib-ccfolia-json' style='white-space:pre-wrap'>{html.escape(ccfolia)}</pre></details>"
            "</div>"
        )

    def _target(self) -> int | None:
        text = self.target.value.strip()
        if not text or self.system not in TARGET_LABELS:
            return None
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{TARGET_LABELS[self.system].lower()} {text!r} is not a whole number") from None

    def _clear(self) -> None:
        self.sheet = None

    def _error_html(self, message: str) -> str:
        """The refusal, above the copy buttons disabled: a refused sheet has nothing to copy."""
        buttons = " ".join(_button(cls, label, disabled=True) for cls, label in COPIES)
        return f"<div class='rules-lib-sheet'>{error_line(message)}<p>{buttons}</p></div>"


def _odds_tables(sheet: Any) -> str:
    """The sheet's key odds and mean damage as HTML tables (its ``odds_rows`` and ``damage_rows``)."""
    rows = "".join(f"<tr><td>{html.escape(label)}</td><td style='text-align:right;padding:0 0.6em'>{p}</td>"
                   f"<td style='text-align:right'>{percent(p)}</td></tr>" for label, p in sheet.odds_rows())
    damage = "".join(f"<tr><td>{html.escape(label)}</td><td style='text-align:right;padding:0 0.6em'>{mean}</td>"
                     f"<td style='text-align:right'>≈ {float(mean):.2f}</td></tr>" for label, mean in sheet.damage_rows())
    return (
        "<p><b>Key odds</b> (exact)</p>"
        f"<table class='odds-table'><thead><tr><th>roll</th><th>chance</th><th>%</th></tr></thead><tbody>{rows}</tbody></table>"
        "<p><b>Mean damage</b> (exact)</p>"
        f"<table class='odds-table'><thead><tr><th>attack</th><th>mean</th><th>decimal</th></tr></thead><tbody>{damage}</tbody></table>"
    )


def _button(cls: str, label: str, *, disabled: bool = False) -> str:
    if disabled:
        return f"<button type='button' class='rules-lib-copy' data-copies='{cls}' disabled>{label}</button>"
    script = _COPY.format(cls=cls, done=f"{label} ✓ copied")
    return f"<button type='button' class='rules-lib-copy' data-copies='{cls}' onclick=\"{script}\">{label}</button>"


# The site constructs a calculator from its class alone (rules_lib.browser), so each system has its own.


def _for_system(system: str) -> Callable[..., None]:
    """The constructor of a sheet builder fixed to ``system``: the base's, without its first argument."""

    def __init__(self: SheetCalculator, sheet_id: str | None = None, target: str = "") -> None:
        SheetCalculator.__init__(self, system, sheet_id, target)

    return __init__


class GundamSentinelSheetCalculator(SheetCalculator):
    """The sheet builder for GUNDAM SENTINEL (000); ``target`` is the evasion the ``BB`` lines aim at."""

    __init__ = _for_system("gundam-sentinel")


class Wis6SheetCalculator(SheetCalculator):
    """The sheet builder for WIS6 (001)."""

    __init__ = _for_system("wis6")


class NemesisSheetCalculator(SheetCalculator):
    """The sheet builder for the Nemesis wargame (002); ``target`` is the armour the attack lines must exceed."""

    __init__ = _for_system("nemesis")


class VerseWorldSheetCalculator(SheetCalculator):
    """The sheet builder for Verse World (004)."""

    __init__ = _for_system("verse-world")


#: the sheet builder of each system, by the name ``rules-lib --system`` uses
CALCULATORS: dict[str, type[SheetCalculator]] = {
    "gundam-sentinel": GundamSentinelSheetCalculator, "wis6": Wis6SheetCalculator,
    "nemesis": NemesisSheetCalculator, "verse-world": VerseWorldSheetCalculator,
}
