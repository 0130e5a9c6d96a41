"""Special checks: fainting, recovery and escape (000 §8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .. import checks
from ..worked import Worked
from .charts import Chart, ChartRoll, get_chart, roll_chart
from .d36 import whole_number

FAINT_AT_MOST = 10  # 000 §8-1, line 582: "出目が１０以下だった場合、気絶"
NATURAL_ALWAYS_FAINTS = 2
RECOVER_ABOVE = 10  # line 584: "１０を上回った場合に回復"
RECOVERY_BEFORE_INITIATIVE = True  # line 583
FAINTED_MS_CAN_ACT = False  # line 585
ATTACKS_ON_FAINTED_ALWAYS_HIT = True  # line 585


@dataclass(frozen=True)
class Check(Worked):
    total: int
    result: bool


def _dice(dice: Sequence[int]) -> tuple[int, int]:
    dice = tuple(dice)
    if len(dice) != 2 or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice {dice!r}: give two d6 faces, each 1 to 6")
    return dice  # type: ignore[return-value]


def faint_check(dice: Sequence[int], stamina: int) -> Check:
    """**Fainting check** (気絶判定), 000 §8-1: 2D6 + stamina (体力) modifier; 10 or less faints,
    and a natural 2 always faints whatever the modifiers. ``result`` is True when the pilot faints."""
    a, b = _dice(dice)
    stamina = whole_number(stamina, "stamina modifier")
    total = a + b + stamina
    natural = a + b == NATURAL_ALWAYS_FAINTS
    faints = natural or total <= FAINT_AT_MOST
    why = "a natural 2" if natural else f"{total} {'<=' if faints else '>'} {FAINT_AT_MOST}"
    return Check(total, faints, steps=(f"2D6 {a}+{b} + stamina {stamina:+d} = {total}",
                                 f"{why}: {'faints' if faints else 'stays conscious'}"))


def faint_chance(stamina: int) -> Fraction:
    """Exact chance of fainting for a stamina modifier (000 §8-1)."""
    return Fraction(sum(faint_check((a, b), stamina).result for a in range(1, 7) for b in range(1, 7)), 36)


def recovery_check(dice: Sequence[int], mental: int) -> Check:
    """**Recovery check** (回復判定), 000 §8-1: before each round's initiative, 2D6 + mental (精神力)
    modifier; the pilot recovers when the total is over 10. ``result`` is True on recovery."""
    a, b = _dice(dice)
    mental = whole_number(mental, "mental modifier")
    total = a + b + mental
    ok = total > RECOVER_ABOVE
    return Check(total, ok, steps=(f"2D6 {a}+{b} + mental {mental:+d} = {total}",
                             f"{total} {'>' if ok else '<='} {RECOVER_ABOVE}: {'recovers' if ok else 'still fainted'}"))


def recovery_chance(mental: int) -> Fraction:
    """Exact chance of recovering for a mental modifier (000 §8-1)."""
    return Fraction(sum(recovery_check((a, b), mental).result for a in range(1, 7) for b in range(1, 7)), 36)


@dataclass(frozen=True)
class EscapeResult(Worked):
    """An escape check: whether the pilot got out, died, the chart roll (``None`` for a fainted
    pilot, who cannot escape) and the working."""

    escaped: bool
    killed: bool
    roll: ChartRoll | None

    @property
    def outcome(self) -> str:
        return self.roll.entry.english if self.roll else "cannot escape (fainted): dies"


@checks.checked_arguments
def escape(dice: Sequence[int], *, fainted: bool, chart: Chart | None = None, modifier: int = 0) -> EscapeResult:
    """**Escape check** (脱出判定), 000 §8-2 (line 589): after the MS is destroyed, 2D6 on the escape
    chart (脱出判定チャート). The chart is *not in the source text*: ``chart`` defaults to BCDice's PC
    escape chart, where a higher total is worse and ``modifier`` adds to it (:mod:`.charts`). A
    fainted pilot cannot escape, and failing to escape is death (line 590); ruling: so a fainted
    pilot dies, and an entry without "escaped" is a failure."""
    a, b = _dice(dice)
    if fainted:
        return EscapeResult(False, True, None, steps=("the pilot has fainted: cannot escape, and failing to escape is death (000 §8-2)",))
    roll = roll_chart(chart or get_chart("PEJC"), (a, b), whole_number(modifier, "escape modifier"))
    escaped = roll.entry.has("escaped")
    killed = roll.entry.has("killed") or not escaped
    return EscapeResult(escaped, killed, roll, steps=roll.steps + (("escapes" if escaped else "fails to escape: dies (000 §8-2)"),))


def escape_check(dice: Sequence[int], *, fainted: bool, chart: Mapping[int, str] | Chart | None = None,
                 modifier: int = 0) -> str:
    """**Escape check** (脱出判定), 000 §8-2, as one line: the entry's effect. ``chart`` is a
    :class:`~.charts.Chart` (default BCDice's, *not in the source text*) or a mapping of totals to
    results (a group's own chart). A fainted pilot cannot escape and dies (ruling)."""
    if chart is None or isinstance(chart, Chart):
        return escape(dice, fainted=fainted, chart=chart, modifier=modifier).outcome
    a, b = _dice(dice)
    if fainted:
        return "cannot escape (fainted): dies"
    total = a + b + whole_number(modifier, "escape modifier")
    if total not in chart:
        raise ValueError(f"escape total {total} is not on the chart given ({min(chart)}..{max(chart)})")
    return chart[total]


__all__ = [
    "escape", "escape_check", "faint_chance", "faint_check", "recovery_chance", "recovery_check",
]
