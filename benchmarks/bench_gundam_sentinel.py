"""Time the Gundam Sentinel rules: the full to-hit table and each calculator's update.

Run: python benchmarks/bench_gundam_sentinel.py. Prints times; nothing here asserts a time.

- the to-hit table: exact hit and critical chances for every modifier from -20 to +40 against every
  evasion value from 11 to 86 (the 48 values of the extended 1D36 scale in that span), by
  ``hit_table`` and by ``hit_odds`` entry by entry without the cache (both count on the precomputed
  distribution of the 36 roll steps), and a brute-force enumeration of the same table for
  comparison (the goal: the table at least 20 times faster than brute force);
- each calculator: the median time of one input change to a value new to every memo (``updates.py``),
  which the book promises stays well under 50 ms (the goal is a median under 2 ms), and the memoised figure.
"""

from __future__ import annotations

import timeit
from fractions import Fraction
from itertools import product

import updates  # benchmarks/updates.py: a calculator's update with new inputs

from rules_lib.gundam_sentinel import d36
from rules_lib.gundam_sentinel import to_hit as to_hit_rules
from rules_lib.gundam_sentinel.to_hit import HitOptions, hit_table
from rules_lib.widgets.gundam_sentinel import ActionPointPlanner, HexFigure, SalvoCalculator, ToHitCalculator

MODIFIERS = range(-20, 41)
EVASIONS = [v for v in range(11, 87) if d36.is_d36_value(v)]


def library_table() -> dict:
    return hit_table(MODIFIERS, EVASIONS, HitOptions(target_is_mob=True))


def entry_by_entry_table() -> dict:
    compute = to_hit_rules._hit_odds.__wrapped__  # bypass the cache: every entry is computed
    return {(m, e): (o.hit, o.critical) for m in MODIFIERS for e in EVASIONS
            for o in (compute(m, e, HitOptions(target_is_mob=True)),)}


def brute_table() -> dict:
    table = {}
    for m in MODIFIERS:
        for e in EVASIONS:
            ev = d36.step_of(e)
            hits = crits = 0
            for tens, units in product(range(1, 7), repeat=2):
                step = max(0, 6 * (tens - 1) + units - 1 + m)
                hit = step > ev
                hits += hit
                crits += hit and step >= 35
            table[(m, e)] = (Fraction(hits, 36), Fraction(crits, 36))
    return table


def best(function, number: int = 1, repeat: int = 3) -> float:
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def calculator_changes():
    """Each calculator and the changes a reader tries, one input at a time."""
    to_hit = ToHitCalculator(weapon=14, evasion=54)
    salvo = SalvoCalculator(fired=15, evasion=54, per_hit_damage="1D3+4/2")
    salvo_plain = SalvoCalculator(fired=15, evasion=54)
    planner = ActionPointPlanner()
    figure = HexFigure()
    return [
        ("to-hit: weapon modifier, snap shot", [(to_hit.weapon, v) for v in range(-20, 41, 7)]
         + [(to_hit.snap, True), (to_hit.snap, False)]),
        ("to-hit: evasion value", [(to_hit.evasion, v) for v in ("36", "45", "63", "21", "54")]),
        ("salvo: missiles fired (damage 1D3+4/2)", [(salvo.fired, v) for v in (3, 6, 9, 12, 20, 30, 15)]),
        ("salvo: missiles fired (no damage dice)", [(salvo_plain.fired, v) for v in (3, 6, 9, 12, 20, 30, 15)]),
        ("salvo: damage dice", [(salvo.damage, v) for v in ("3D6+3", "2D6", "1D3+4", "1D3+4/2")]),
        ("AP planner: roll, acting first", [(planner.roll, v) for v in (1, 3, 6, 2)]
         + [(planner.first, False), (planner.first, True)]),
        ("hex figure: facing, kind", [(figure.facing, v) for v in (1, 2, 3, 4, 5, 0)]
         + [(figure.kind, "range bands"), (figure.kind, "firing arc"), (figure.kind, "front hexes")]),
    ]


def main() -> None:
    entries = len(MODIFIERS) * len(EVASIONS)
    assert library_table() == brute_table() == entry_by_entry_table()
    lib, each, brute = best(library_table), best(entry_by_entry_table), best(brute_table)
    print(f"to-hit table: {len(MODIFIERS)} modifiers x {len(EVASIONS)} evasions = {entries} entries")
    print(f"  hit_table          {lib * 1000:8.1f} ms  ({lib / entries * 1e6:6.2f} us per entry; "
          f"brute force / hit_table = {brute / lib:5.1f}x, goal 20x)")
    print(f"  hit_odds, uncached {each * 1000:8.1f} ms  ({each / entries * 1e6:6.2f} us per entry; "
          f"brute force / hit_odds = {brute / each:5.1f}x)")
    print(f"  brute force        {brute * 1000:8.1f} ms  ({brute / entries * 1e6:6.2f} us per entry)")

    updates.report(calculator_changes())


if __name__ == "__main__":
    main()
