"""How long a calculator takes to update when a reader changes one input: shared by the bench scripts.

A reader tries new values, so the honest figure is an update whose inputs no memo has seen. Before
each timed change every memo of the library that is keyed by an input (an ``lru_cache``/``cache``
whose function takes a required argument, but for `NOT_INPUTS`) is cleared; the data loaders (no
required argument: ``load_units()``, ``locomotion_modes()``, ...) stay warm, as they are after a
page's first update. Each case is a cycle of changes (it ends where it began, so every change
updates), timed over a few passes; the median is printed on the clock and in CPU time, with the
memoised figure (the same changes again, every memo kept) beside it, labelled.
Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import inspect
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

#: the goal of issue 16 for a calculator's median update in CPython, in milliseconds
GOAL_MS = 2.0

#: a change a reader makes: an input widget and the value typed or picked
Change = tuple[Any, Any]


#: memos with an argument that is not a reader's input: ``checks._flag_names`` reads a rule
#: function's signature once per function, whatever the values passed
NOT_INPUTS = {"rules_lib.checks._flag_names"}


def _keyed_by_input(function: Callable) -> bool:
    if f"{function.__module__}.{function.__qualname__}" in NOT_INPUTS:
        return False
    try:
        parameters = inspect.signature(inspect.unwrap(function)).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in parameters)


def input_memos() -> list[Callable]:
    """Every memo in the loaded ``rules_lib`` modules that is keyed by an input."""
    found: dict[int, Callable] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("rules_lib") or module is None:
            continue
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)) and _keyed_by_input(value):
                found[id(value)] = value
    return list(found.values())


def clear_input_memos() -> None:
    for memo in input_memos():
        memo.cache_clear()


def _timed(control: Any, value: Any) -> tuple[float, float]:
    """Seconds of one change: on the clock, and of this process's CPU (the work, whatever else runs)."""
    if control.value == value:
        raise ValueError(f"{value!r} is already the input's value: the change would not update the calculator")
    start, cpu = time.perf_counter(), time.process_time()
    control.value = value
    return time.perf_counter() - start, time.process_time() - cpu


def _medians(times: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(t for t, _ in times), statistics.median(c for _, c in times)


def fresh_median(changes: Sequence[Change], rounds: int = 3) -> tuple[float, float]:
    """Median seconds (clock, CPU) of one change with every input memo cleared before it (`rounds` passes)."""
    memos = input_memos()
    times = []
    for _ in range(rounds):
        for control, value in changes:
            for memo in memos:
                memo.cache_clear()
            times.append(_timed(control, value))
    return _medians(times)


def memoised_median(changes: Sequence[Change], rounds: int = 3) -> float:
    """Median seconds of the same changes again, every memo kept (a reader going back and forth)."""
    for control, value in changes:  # every distinct input computed once
        control.value = value
    return _medians([_timed(control, value) for _ in range(rounds) for control, value in changes])[0]


def report(cases: Iterable[tuple[str, Sequence[Change]]]) -> None:
    """Print each calculator's median update with new inputs (clock and CPU) and memoised, beside the goal."""
    print(f"{'calculator update (one input changed)':52} {'new inputs':>11} {'(CPU)':>9} {'memoised':>10}   "
          f"(goal: median under {GOAL_MS:g} ms with new inputs)")
    for name, changes in cases:
        (fresh, cpu), kept = fresh_median(changes), memoised_median(changes)
        verdict = "ok" if fresh * 1e3 < GOAL_MS else "OVER"
        print(f"  {name:50} {fresh * 1e3:8.2f} ms {cpu * 1e3:6.2f} ms {kept * 1e3:7.2f} ms   {verdict}")
    print("  (new inputs: median over the changes listed, every input-keyed memo of rules_lib cleared before each,"
          " on the clock and in this process's CPU time, which a busy machine does not inflate; memoised: the same"
          " changes again, memos kept)")
