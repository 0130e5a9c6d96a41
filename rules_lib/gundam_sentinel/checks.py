"""Special checks: fainting, recovery and escape (000 §8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .d36 import whole_number

FAINT_AT_MOST = 10  # 000 §8-1 line 582: "出目が１０以下だった場合、気絶"
NATURAL_ALWAYS_FAINTS = 2
RECOVER_ABOVE = 10  # line 584: "１０を上回った場合に回復"
RECOVERY_BEFORE_INITIATIVE = True  # line 583
FAINTED_MS_CAN_ACT = False  # line 585
ATTACKS_ON_FAINTED_ALWAYS_HIT = True  # line 585


@dataclass(frozen=True)
class Check:
    total: int
    result: bool
    steps: tuple[str, ...]


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
    return Check(total, faints, (f"2D6 {a}+{b} + stamina {stamina:+d} = {total}",
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
    return Check(total, ok, (f"2D6 {a}+{b} + mental {mental:+d} = {total}",
                             f"{total} {'>' if ok else '<='} {RECOVER_ABOVE}: {'recovers' if ok else 'still fainted'}"))


def recovery_chance(mental: int) -> Fraction:
    """Exact chance of recovering for a mental modifier (000 §8-1)."""
    return Fraction(sum(recovery_check((a, b), mental).result for a in range(1, 7) for b in range(1, 7)), 36)


def escape_check(dice: Sequence[int], *, fainted: bool, chart: Mapping[int, str] | None = None,
                 modifier: int = 0) -> str:
    """**Escape check** (脱出判定), 000 §8-2: after the MS is destroyed, 2D6 on the escape chart.
    The chart is *not in the source text* (``chart`` maps totals to results). A fainted pilot
    cannot escape, and failing to escape is death; ruling: so a fainted pilot dies."""
    a, b = _dice(dice)
    if fainted:
        return "cannot escape (fainted): dies"
    if chart is None:
        raise ValueError("the escape chart (脱出判定チャート) is not in the source text: pass chart")
    total = a + b + whole_number(modifier, "escape modifier")
    if total not in chart:
        raise ValueError(f"escape total {total} is not on the chart given ({min(chart)}..{max(chart)})")
    return chart[total]
