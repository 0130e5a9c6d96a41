"""Hostile exact odds: every call answers or refuses within its budget (time and peak memory).

For each expression: the estimated cost (``rules_lib.dice.cost``), then the wall time and
the peak Python memory (tracemalloc) of ``odds``, whether it answered or was refused.
The expressions are those of the hostile-input probe (issue 15) and the most expensive
ones the budget still accepts. Goal: every answer within about a second; every refusal
at once (a few milliseconds). Run: ``python benchmarks/bench_hostile.py``.
"""

from __future__ import annotations

import time
import tracemalloc

from rules_lib.dice import MAX_EXACT_STEPS, DiceLimitError, odds, parse
from rules_lib.dice.cost import estimate

PROBE = [
    "2D1000/2D1000",
    "2D1000>=2D1000",
    "+".join(["2D1000/2D1000*0"] * 12),
    "+".join(f"2D{1000 - i}/2D{999 - i}*0" for i in range(12)),
    "+".join(f"9D{200 - i}/D{999 - i}*0" for i in range(15)),
    "100D100",
    "200D6",
]
NEAR_BUDGET = [
    "200D11",
    "200D10>=200D11/2",
    "2D1000/2D1000R",
    "-2D1000/2D1000U",
    "+".join(f"9D{200 - i}/D{999 - i}*0" for i in range(14)),
    "+".join(f"19D{100 - i}/D{999 - i}*0" for i in range(8)),
    "+".join(f"14D{140 - i}/D{999 - i}*0" for i in range(13)),
    "1D1000/1D1000*0+1D999/1D999*0+1D998/1D998*0+1D997/1D997*0",
    "1D44*1D45",
    "(1D1000-500)*(1D3-2)",
    "1D1000+1D1000>1D1000+1D1000",
    "100D20/(1D6+1)",
    "D66*D36/1D6",
    "2D6*2D6*2D6",
    "(2D6*2D6*2D6)/(1D6*1D6)",
]


def _call(expression: str) -> str:
    try:
        odds(expression)
    except DiceLimitError:
        return "refused"
    return "answered"


def measure(expression: str) -> tuple[str, int, float, float]:
    """Outcome, estimated steps, seconds (a plain run) and peak MB (a second run under tracemalloc,
    which slows Python down several times, so it is not timed)."""
    try:
        steps = estimate(parse(expression)).steps
    except DiceLimitError:
        steps = -1
    start = time.perf_counter()
    outcome = _call(expression)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    _call(expression)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return outcome, steps, seconds, peak / 2**20


def main() -> None:
    print(f"budget: {MAX_EXACT_STEPS:,} steps")
    print(f"{'expression':60} {'outcome':>9} {'steps':>12} {'seconds':>8} {'peak MB':>8}")
    for expression in PROBE + NEAR_BUDGET:
        outcome, steps, seconds, peak = measure(expression)
        shown = expression if len(expression) <= 60 else expression[:57] + "..."
        steps_text = f"{steps:,}" if steps >= 0 else "span"
        print(f"{shown:60} {outcome:>9} {steps_text:>12} {seconds:8.3f} {peak:8.1f}")


if __name__ == "__main__":
    main()
