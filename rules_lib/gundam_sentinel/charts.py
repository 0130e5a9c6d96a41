"""The charts 000 refers to but does not print, as data: critical hit, secondary damage, escape (000 §6, §8-2).

000 sends the reader to a **critical hit chart** (クリティカルヒットチャート, §6, line 296), a
**secondary damage chart** (二次被害判定チャート, §6, line 325) and an **escape chart**
(脱出判定チャート, §8-2, line 589), none of which is in the text. The default charts here are
*from BCDice's transcription, not in the source text* (``charts.toml``: the public BCDice
GundamSentinel dicebot, file and commit in its header), with three more charts BCDice carries
(ship additional damage, anti-aircraft gun results, rehabilitation). Every rule function that
uses a chart takes it as a parameter, so a group can pass its own :class:`Chart`.

An entry's effect is plain English plus, where it is a rule the battle can apply, structured
:class:`Effect` values (``kind`` from :data:`EFFECT_KINDS`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path

from .. import checks
from ..dice import Distribution, percent
from .d36 import whole_number

#: what every default chart is, said wherever one is shown
BCDICE_LABEL = "from BCDice's transcription, not in the source text"

#: the structured effects an entry can carry; ``value``/``dice``/``sign``/``which`` qualify them
EFFECT_KINDS: dict[str, str] = {
    "destroyed": "the MS is destroyed (durability 0)",
    "damage multiplier": "this hit's damage is multiplied by value",
    "no damage": "this hit's damage is cancelled",
    "to hit": "value added to the MS's shooting and melee hit checks from now on (which: the part lost, "
              "counted once however often it is lost, its worst value)",
    "evasion": "value (or sign x dice) added to the MS's evasion value from now on",
    "faint": "the pilot faints, no check",
    "faint check": "the pilot makes a fainting check with value as a modifier (000 §8-1)",
    "pilot damage": "the pilot takes dice damage",
    "extra AP": "every action costs value more AP from now on",
    "cannot act": "the unit cannot act for value (or dice) rounds (which: 'turn' for a ship)",
    "lose weapon": "a weapon is lost; which names it: 'hand-held' (the one in the broken arm), 'lowest-numbered "
                   "in use', 'head-mounted' (every one), 'right arm', 'left arm', 'right hand', 'left hand' (the "
                   "one that hand holds), 'fixed', 'not hand-held' (one such), 'main gun', 'secondary gun'",
    "arm disabled": "an arm can no longer use weapons (which: 'right arm', 'left arm', or 'one arm' not named)",
    "no weapon swap": "the MS can no longer swap hand-held weapons",
    "lose item": "an item is lost (which names it)",
    "morale check": "a morale check with value as a modifier (not in 000; which: the condition, if any)",
    "additional check": "value added to the MS's later additional-damage 2D6",
    "initiative": "value added to the pilot's initiative",
    "escape modifier": "value added to the pilot's escape check",
    "escape check": "the pilot makes the escape check at once",
    "no additional move": "the MS can no longer take an additional move",
    "propellant": "sign x dice propellant",
    "AP die": "value (or sign x dice) added to the action-point die from now on",
    "turn limit": "the MS turns at most value degrees",
    "escaped": "the pilot gets out",
    "pilot left": "the pilot is left with dice durability",
    "killed": "the pilot dies",
    "ship part": "a ship's part is damaged (which)",
    "ship damage": "the ship takes dice x value more damage",
    "anti-aircraft modifier": "value added to the ship's anti-aircraft defence from then on (which: the condition)",
    "no launch or landing": "no MS can launch from or land on the ship (which: the condition)",
    "immobile": "the ship cannot leave its hex",
    "durability percent": "the ship loses dice x value percent of its durability",
    "rehabilitation": "value months of rehabilitation (which: 'plus another roll')",
}


@dataclass(frozen=True)
class Effect:
    """One structured effect of a chart entry (``kind`` from :data:`EFFECT_KINDS`)."""

    kind: str
    value: int | None = None
    dice: str | None = None
    sign: int = 1
    which: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in EFFECT_KINDS:
            raise ValueError(f"effect kind {self.kind!r}: allowed are {', '.join(EFFECT_KINDS)}")
        if self.sign not in (1, -1):
            raise ValueError(f"effect sign {self.sign!r}: allowed are 1 and -1")

    def amount_text(self) -> str:
        if self.dice:
            return ("-" if self.sign < 0 else "") + self.dice + (f" x {self.value}" if self.value not in (None, 1) else "")
        return "" if self.value is None else f"{self.value:+d}"

    def __str__(self) -> str:
        """The effect in words: ``to hit -6 (main camera)``."""
        amount = self.amount_text()
        return self.kind + (f" {amount}" if amount else "") + (f" ({self.which})" if self.which else "")

    def to_dict(self) -> dict:
        data: dict = {"kind": self.kind}
        for key in ("value", "dice", "which"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.sign != 1:
            data["sign"] = self.sign
        return data


@dataclass(frozen=True)
class ChartEntry:
    """One entry: its 1-based ``position`` as BCDice lists it, its short Japanese ``term``, the
    effect in English and as :class:`Effect` values. A D66 entry also has ``row`` and ``column``;
    an entry of BCDice's charts has ``bcdice``, BCDice's full text of it (``charts_bcdice.toml``)."""

    position: int
    term: str
    english: str
    effects: tuple[Effect, ...] = ()
    row: int | None = None
    column: int | None = None
    bcdice: str = ""

    def has(self, kind: str) -> bool:
        return any(e.kind == kind for e in self.effects)

    def label(self) -> str:
        return f"{self.english} ({self.term})"


@dataclass(frozen=True)
class Chart:
    """A chart: ``dice`` is ``"2D6"`` (entry 1 at total ``first``) or ``"D66"`` (a 6 x 6 grid, first
    die the row, second the column). ``clamp`` bounds a modified 2D6 total; ``modifier_allowed``
    says whether the chart takes a modifier. An anti-aircraft-style chart has a ``grid`` of
    results by target (rows) and total (columns) instead of entries."""

    id: str
    name: str
    japanese: str
    dice: str
    entries: tuple[ChartEntry, ...] = ()
    first: int = 2
    modifier_allowed: bool = False
    clamp: tuple[int, int] | None = None
    target_clamp: tuple[int, int] | None = None
    grid: tuple[tuple[str | int, ...], ...] = ()
    referred_to: str = ""
    provenance: str = ""
    label: str = BCDICE_LABEL

    def __post_init__(self) -> None:
        if self.clamp is not None and not (isinstance(self.clamp, tuple) and len(self.clamp) == 2
                                           and all(type(edge) is int for edge in self.clamp)):
            raise ValueError(f"chart {self.id}: clamp {checks.shown(self.clamp)} is not (lowest, highest) total")
        if self.dice not in ("2D6", "D66"):
            raise ValueError(f"chart {self.id}: dice {self.dice!r}: allowed are '2D6' and 'D66'")
        if self.dice == "D66" and len(self.entries) != 36:
            raise ValueError(f"chart {self.id}: a D66 grid has 36 entries, not {len(self.entries)}")
        if self.dice == "2D6" and not self.grid:
            low, high = self.totals_range()
            if self.first > 2 or self.first + len(self.entries) - 1 < 12 or (self.clamp and self.clamp[1] > high):
                raise ValueError(f"chart {self.id}: entries for totals {self.first}..{high} do not cover 2D6 (2..12)")

    def totals_range(self) -> tuple[int, int]:
        if self.grid:
            return self.clamp or (1, len(self.grid[0]))
        return self.first, self.first + len(self.entries) - 1

    def total(self, dice_sum: int, modifier: int = 0) -> int:
        """The total read on the chart: 2D6 + modifier, clamped as the chart clamps (BCDice's ``clamp``)."""
        total = dice_sum + modifier
        if self.clamp:
            total = min(max(total, self.clamp[0]), self.clamp[1])
        return total

    def entry(self, total: int) -> ChartEntry:
        """The 2D6 entry for a (clamped) total."""
        low, high = self.totals_range()
        checks.whole(total, f"{self.name}: total")
        if not low <= total <= high:
            raise ValueError(f"{self.name}: total {total} is off the chart ({low}..{high})")
        return self.entries[total - self.first]

    def cell(self, row: int, column: int) -> ChartEntry:
        """The D66 entry at ``row`` (first die) and ``column`` (second die)."""
        for name, die in (("row (first die)", row), ("column (second die)", column)):
            if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
                raise ValueError(f"{self.name}: {name} {die!r}: allowed are 1 to 6")
        return self.entries[(row - 1) * 6 + column - 1]

    def result(self, target: int, total: int) -> str | int:
        """A grid chart's result for a (clamped) target row and total column."""
        if not self.grid:
            raise ValueError(f"{self.name} is no grid chart: read it with entry(total)")
        checks.whole(target, f"{self.name}: target row", minimum=1, maximum=len(self.grid))
        checks.whole(total, f"{self.name}: total column", minimum=1, maximum=len(self.grid[0]))
        return self.grid[target - 1][total - 1]


@dataclass(frozen=True)
class ChartRoll:
    """One roll on a chart: the dice, the modifier, the total after clamping, the entry (or a grid
    ``result`` with its ``target``), the effects and the working in ``steps``."""

    chart: Chart
    dice: tuple[int, ...]
    modifier: int
    total: int
    entry: ChartEntry | None
    steps: tuple[str, ...]
    target: int | None = None
    result: str | int | None = None

    @property
    def effects(self) -> tuple[Effect, ...]:
        return self.entry.effects if self.entry else ()

    def roll_text(self) -> str:
        """The roll as BCDice prints it inside the brackets: ``7``, ``7+1=8``, ``11`` (D66)."""
        if self.chart.dice == "D66":
            return f"{self.dice[0]}{self.dice[1]}"
        dice_sum = sum(self.dice)
        if not self.modifier:
            return str(self.total)
        sign = f"+{self.modifier}" if self.modifier > 0 else str(self.modifier)
        text = f"{dice_sum}{sign}={self.total}"
        return f"({text})" if self.chart.grid else text

    def bcdice_line(self) -> str:
        """The line BCDice prints: the chart, the roll and the entry's full text (a chart of a group's
        own, with no BCDice text, shows the entry's term); for the anti-aircraft chart, the result."""
        if self.chart.grid:
            return f"{self.chart.japanese}({self.roll_text()}vs{self.target}) ＞ 結果「{self.result}」"
        return f"{self.chart.japanese}({self.roll_text()}) ＞ {self.entry.bcdice or self.entry.term}"

    def to_dict(self) -> dict:
        data: dict = {"chart": self.chart.id, "name": self.chart.name, "japanese": self.chart.japanese,
                      "dice": list(self.dice), "modifier": self.modifier, "total": self.total}
        if self.chart.grid:
            data.update({"target": self.target, "entry": self.total, "row": self.target, "column": self.total,
                         "result": str(self.result), "success": isinstance(self.result, int)})
        else:
            data.update({"entry": self.entry.position, "term": self.entry.term, "effect": self.entry.english,
                         "effects": [e.to_dict() for e in self.entry.effects]})
            if self.entry.row is not None:
                data.update({"row": self.entry.row, "column": self.entry.column})
        data["source"] = self.chart.label
        data["bcdice"] = self.bcdice_line()
        data["steps"] = list(self.steps)
        return data

    def text(self) -> str:
        if self.chart.grid:
            head = f"{self.chart.id} {self.roll_text()} vs defence {self.target}: result {self.result}"
        else:
            head = f"{self.chart.id} {self.roll_text()}: {self.entry.label()}"
        return "\n".join([head] + [f"  {s}" for s in self.steps] + [f"  BCDice: {self.bcdice_line()}"])


def _dice(dice: Sequence[int]) -> tuple[int, int]:
    dice = tuple(dice)
    if len(dice) != 2 or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise ValueError(f"chart dice {dice!r}: give two d6 faces, each 1 to 6")
    return dice  # type: ignore[return-value]


@checks.checked_arguments
def roll_chart(chart: Chart | str, dice: Sequence[int], modifier: int = 0, *, target: int | None = None) -> ChartRoll:
    """Read ``chart`` with two d6 (000 §6, §8-2; the charts: BCDice's, *not in the source text*).

    2D6 charts add ``modifier`` and clamp as the chart does; the D66 grid reads the first die as the
    row and the second as the column; the anti-aircraft chart also needs ``target`` (its defence,
    clamped to 1..6 as BCDice clamps it).
    """
    chart = get_chart(chart) if isinstance(chart, str) else chart
    a, b = _dice(dice)
    modifier = whole_number(modifier, "chart modifier")
    if modifier and not chart.modifier_allowed:
        raise ValueError(f"the {chart.name} ({chart.id}) takes no modifier, got {modifier:+d}")
    source = f"{chart.name} ({chart.japanese}, {chart.label})"
    if target is not None and not chart.grid:
        raise ValueError(f"the {chart.name} ({chart.id}) takes no target, got {target!r}")
    if chart.dice == "D66":
        entry = chart.cell(a, b)
        steps = (f"{source}: D66 {a}{b}, row {a} (first die), column {b} (second die)", entry.label())
        return ChartRoll(chart, (a, b), 0, 10 * a + b, entry, steps)
    total = chart.total(a + b, modifier)
    working = f"2D6 {a}+{b} = {a + b}" + (f", {modifier:+d} = {a + b + modifier}" if modifier else "")
    if total != a + b + modifier:
        working += f", read as {total} (the chart runs {chart.clamp[0]}..{chart.clamp[1]})"
    if chart.grid:
        if target is None:
            raise ValueError(f"the {chart.name} needs the anti-aircraft defence: write {chart.id}[+m]=t, t from 1 to 6")
        raw = whole_number(target, "anti-aircraft defence")
        low, high = chart.target_clamp or (1, len(chart.grid))
        row = min(max(raw, low), high)
        result = chart.result(row, total)
        steps = (f"{source}: {working}", f"defence {raw}" + (f", read as {row}" if row != raw else "")
                 + f": result {result}" + (" (a number: BCDice's success)" if isinstance(result, int) else ""))
        return ChartRoll(chart, (a, b), modifier, total, None, steps, row, result)
    entry = chart.entry(total)
    return ChartRoll(chart, (a, b), modifier, total, entry, (f"{source}: {working}", f"{total}: {entry.label()}"))


@dataclass(frozen=True)
class ChartOdds:
    """Exact odds of a chart: ``entries`` maps each entry's position (grid charts: each result) to
    its chance, ``totals`` each total read."""

    chart: Chart
    modifier: int
    target: int | None
    entries: Distribution
    totals: Distribution

    def of(self, kind: str) -> Fraction:
        """The chance that the entry carries an effect of ``kind``."""
        if self.chart.grid:
            raise ValueError(f"the {self.chart.name} has results, not effects: read .entries")
        return self.entries.probability(lambda p: self.chart.entries[p - 1].has(kind))

    def rows(self) -> list[tuple[str, str, Fraction]]:
        """(where, what, chance) for every entry that can come up, in the chart's order."""
        out = []
        for key, p in self.entries.items():
            if self.chart.grid:
                out.append((f"result {key}", str(key), p))
            else:
                e = self.chart.entries[key - 1]
                where = f"{e.row}{e.column}" if e.row else str(self.chart.first + key - 1)
                out.append((where, e.label(), p))
        return out

    def to_dict(self) -> dict:
        data: dict = {"chart": self.chart.id, "name": self.chart.name, "modifier": self.modifier,
                      "source": self.chart.label}
        if self.target is not None:
            data["target"] = self.target
            data["results"] = {str(k): str(v) for k, v in self.entries.items()}
        else:
            data["entries"] = {str(k): str(v) for k, v in self.entries.items()}
        data["totals"] = {str(k): str(v) for k, v in self.totals.items()}
        return data

    def text(self) -> str:
        head = f"{self.chart.id} {self.chart.name} ({self.chart.label})" + (
            f", modifier {self.modifier:+d}" if self.modifier else "") + (
            f", defence {self.target}" if self.target is not None else "")
        return "\n".join([head] + [f"  {where:>9}  {str(p):>6}  {percent(p):>7}  {what}" for where, what, p in self.rows()])


@checks.checked_arguments
def chart_odds(chart: Chart | str, modifier: int = 0, *, target: int | None = None) -> ChartOdds:
    """The exact distribution over a chart's entries, with a modifier (and a grid chart's target):
    every one of the 36 rolls is read through :func:`roll_chart`, so odds and rolls cannot differ."""
    chart = get_chart(chart) if isinstance(chart, str) else chart
    entries: dict = {}
    totals: dict[int, int] = {}
    row = target
    for a in range(1, 7):
        for b in range(1, 7):
            r = roll_chart(chart, (a, b), modifier, target=target)
            key = r.result if chart.grid else r.entry.position
            row = r.target
            entries[key] = entries.get(key, 0) + 1
            totals[r.total] = totals.get(r.total, 0) + 1
    return ChartOdds(chart, whole_number(modifier, "chart modifier"), row,
                     Distribution.from_counts(entries), Distribution.from_counts(totals))


def chart_odds_text(chart: Chart, modifier: int = 0, *, target: int | None = None) -> str:
    """The exact odds of a chart in one line, entries with the same effect together, in chart order."""
    odds = chart_odds(chart, modifier, target=target)
    if chart.dice == "D66":
        return "each of the 36 cells 1/36 (2.78%)"
    if chart.grid:
        groups = {str(k): p for k, p in odds.entries.items()}
    else:
        groups: dict[str, Fraction] = {}
        for position, p in odds.entries.items():
            label = chart.entries[position - 1].label()
            groups[label] = groups.get(label, Fraction(0)) + p
    head = f"modifier {modifier:+d}: " if modifier else ""
    return head + "; ".join(f"{label} {p} ({percent(p)})" for label, p in groups.items())


# -- loading ----------------------------------------------------------------------------------------

CHARTS_FILE = Path(__file__).with_name("charts.toml")
#: BCDice's full text of each entry, apart from the project's English (its header says why)
BCDICE_TEXT_FILE = Path(__file__).with_name("charts_bcdice.toml")


def _entry(position: int, raw: Mapping, d66: bool, bcdice: str) -> ChartEntry:
    effects = tuple(Effect(**e) for e in raw.get("effects", ()))
    row = column = None
    if d66:
        row, column = divmod(position - 1, 6)
        row, column = row + 1, column + 1
    return ChartEntry(position, raw["term"], raw["english"], effects, row, column, bcdice)


def _chart(raw: Mapping, label: str, bcdice: Sequence[str]) -> Chart:
    d66 = raw["dice"] == "D66"
    grid = tuple(tuple(int(c) if c.isdigit() else c for c in row) for row in raw.get("grid", ()))
    entries = raw.get("entry", ())
    if bcdice and len(bcdice) != len(entries):
        raise ValueError(f"chart {raw['id']}: {len(bcdice)} BCDice texts for {len(entries)} entries")
    return Chart(
        id=raw["id"], name=raw["name"], japanese=raw["japanese"], dice=raw["dice"],
        entries=tuple(_entry(i, e, d66, bcdice[i - 1] if bcdice else "") for i, e in enumerate(entries, start=1)),
        first=raw.get("first", 2), modifier_allowed=raw.get("modifier", False),
        clamp=tuple(raw["clamp"]) if "clamp" in raw else None,
        target_clamp=tuple(raw["target_clamp"]) if "target_clamp" in raw else None,
        grid=grid, referred_to=raw.get("referred_to", ""), provenance=raw.get("provenance", ""), label=label,
    )


@cache
def load_charts(path: Path = CHARTS_FILE, bcdice_path: Path = BCDICE_TEXT_FILE) -> dict[str, Chart]:
    """The charts of ``charts.toml`` by id (ECHC, SDDC, PEJC, ASDC, RTJC, AARC), each entry with
    BCDice's text of it from ``charts_bcdice.toml``."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    with open(bcdice_path, "rb") as f:
        texts = tomllib.load(f)
    label = data["source"]["label"]
    return {raw["id"]: _chart(raw, label, texts.get(raw["id"], ())) for raw in data["chart"]}


def get_chart(chart_id: str) -> Chart:
    """A default chart by its BCDice command name."""
    charts = load_charts()
    key = chart_id.strip().upper() if isinstance(chart_id, str) else chart_id
    if key not in charts:
        raise ValueError(f"chart {chart_id!r}: allowed are {', '.join(charts)}")
    return charts[key]


@dataclass(frozen=True)
class DefaultCharts:
    """The charts the rules use, each replaceable (a group may use its own): critical hit against a
    mook MS (000 §6), secondary damage (000 §6), escape (000 §8-2). Defaults: BCDice's."""

    critical: Chart = field(default_factory=lambda: get_chart("ECHC"))
    secondary: Chart = field(default_factory=lambda: get_chart("SDDC"))
    escape: Chart = field(default_factory=lambda: get_chart("PEJC"))


__all__ = [
    "BCDICE_LABEL", "Chart", "ChartEntry", "ChartOdds", "ChartRoll", "DefaultCharts", "Effect", "chart_odds",
    "get_chart", "load_charts", "roll_chart",
]
