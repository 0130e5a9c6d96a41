"""Time the Verse World exact helpers against brute force, and the calculators' update time.

Run: python benchmarks/bench_verse_world.py. Prints, for each case, the best time of several runs and
the ratio  brute force / helper (the helpers' memos cleared, so the work is timed, not a lookup); then
each calculator's median update after one input changes to a value new to every memo (see
``updates.py``), beside the goal of 2 ms and the memoised figure. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import timeit
from collections import Counter
from fractions import Fraction
from itertools import product

import updates  # benchmarks/updates.py: a calculator's update with new inputs

from rules_lib.geometry.square import ORTHOGONAL_STEPS, TURNS, Facing, Pose, Square, apply_step
from rules_lib.verse_world import (
    CriticalRule,
    attack_odds,
    endurance,
    extra_action_chance,
    move_costs,
    plan_move,
)
from rules_lib.verse_world import attack as attack_module
from rules_lib.verse_world import mp as mp_module
from rules_lib.verse_world.movement import step_cost
from rules_lib.widgets import verse_world as widgets_module
from rules_lib.widgets.verse_world import AttackCalculator, ChargePlanner, MovementPlanner, MpEndurance

DICE = list(product(range(1, 7), repeat=2))
RULE = CriticalRule.natural_total(12)


def best(function, number: int = 3, repeat: int = 5) -> float:
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number



def brute_attack(to_hit: int, evasion: int) -> dict[int, Fraction]:
    """HP lost by enumerating attack dice, evasion dice and up to two 3D6 damage rolls (1.2 M cases)."""
    counts: Counter = Counter()
    for a in DICE:
        kind = RULE.kind(a)
        for e in DICE:
            if kind == "fumble":
                counts[0] += 6**6
                continue
            direct = RULE.kind(e) == "fumble"
            hit = direct or to_hit + sum(a) > evasion + sum(e)
            if not hit:
                counts[0] += 6**6
                continue
            rolls = 2 if kind == "critical" else 1
            for dmg in product(range(1, 7), repeat=3 * rolls):
                counts[max(sum(dmg) + 3 - (0 if direct else 4), 0)] += 6 ** (6 - 3 * rolls)
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


def brute_endurance(mp: int) -> dict[int, Fraction]:
    counts: Counter = Counter()
    for dice in product(range(1, 7), repeat=mp):
        left = mp
        turns = 0
        for d in dice:
            if left <= 0:
                break
            left -= max(d - 3, 1)
            turns += 1
        counts[turns] += 1
    return {k: Fraction(v, 6**mp) for k, v in counts.items()}


def brute_extra(a: int, b: int) -> Fraction:
    return Fraction(sum(a + w + x > b + y + z for w, x, y, z in product(range(1, 7), repeat=4)), 6**4)


def brute_reach(points: int) -> set:
    """Every sequence of steps of a walking character, depth-first (small budgets only)."""
    costs = move_costs("character")
    found = set()
    stack = [(Pose(Square(0, 0), Facing.NORTH), points)]
    while stack:
        pose, left = stack.pop()
        found.add(pose)
        if left == 0:
            continue
        for step in (*ORTHOGONAL_STEPS, *TURNS):
            try:
                c = step_cost(costs, step)
            except ValueError:
                continue
            stack.append((apply_step(pose, step), left - c if c <= left else 0))
    return found


#: every memo the Verse World helpers and calculators keep: cleared to time a first computation
CACHES = (attack_module._attack_odds, attack_module._kinds, attack_module._raw_damage, mp_module._endurance,
          widgets_module._movement_view, widgets_module._endurance_view)


def clear_caches() -> None:
    for cached in CACHES:
        cached.cache_clear()


def attack_odds_cold():
    clear_caches()
    return attack_odds(5, 5, criticals=RULE, weapon_damage="3D6", physical_bonus=3, protection=4)


def attack_odds_computed():
    """The odds computed again (the damage dice already convolved), not looked up."""
    attack_module._attack_odds.cache_clear()
    attack_module._kinds.cache_clear()
    return attack_odds(5, 5, criticals=RULE, weapon_damage="3D6", physical_bonus=3, protection=4)


def endurance_cold():
    clear_caches()
    return endurance(8)


CASES = [
    ("attack odds, every cache cleared", attack_odds_cold, lambda: brute_attack(5, 5)),
    ("attack odds 5 vs 5, 3D6+3, crit 12", attack_odds_computed, lambda: brute_attack(5, 5)),
    ("MP endurance, 8 MP", endurance_cold, lambda: brute_endurance(8)),
    ("extra-action chance 5 vs 3", lambda: extra_action_chance(5, 3), lambda: brute_extra(5, 3)),
    ("reachable squares, 7 points", lambda: plan_move(7, scale="character"), lambda: brute_reach(7)),
]


def check_agreement() -> None:
    exact = attack_odds(5, 5, criticals=RULE, weapon_damage="3D6", physical_bonus=3, protection=4)
    assert dict(exact.damage.items()) == brute_attack(5, 5)
    assert dict(endurance(8).turns.items()) == brute_endurance(8)
    assert {p.square for p in brute_reach(7)} == plan_move(7, scale="character").squares()


def calculator_changes():
    """Each calculator and the changes a reader tries, one input at a time (the heaviest settings included)."""
    attack = AttackCalculator()
    charge = ChargePlanner()
    move = MovementPlanner()
    vernier = MovementPlanner(points=200, mode="vernier", size=21)
    mp = MpEndurance()
    mp_200 = MpEndurance(mp=200)
    return [
        ("attack: to-hit", [(attack.to_hit, v) for v in (6, 7, 8, 3, 4, 9, 5)]),
        ("attack: criticals at", [(attack.critical_at, v) for v in (12, 11, 10, 0)]),
        ("attack: weapon damage dice", [(attack.weapon, v) for v in ("2D6", "4D6", "3D6+2", "5D6", "3D6")]),
        ("attack: protection, extra damage rolls", [(attack.protection, 7), (attack.extra_rolls, 2),
                                                   (attack.protection, 2), (attack.extra_rolls, 0),
                                                   (attack.protection, 4)]),
        ("charge planner: points, locomotion", [(charge.points, v) for v in (50, 60, 80, 45)]
         + [(charge.mode, v) for v in ("roller", "vernier", "thruster")]),
        ("movement planner: points (walk, 15x15)", [(move.points, v) for v in (35, 40, 50, 60, 25, 30)]),
        ("movement planner: locomotion, facing", [(move.mode, v) for v in ("roller", "vernier", "walk")]
         + [(move.facing, v) for v in ("east", "south", "north")]),
        ("movement planner: vernier, 200 points, 21x21", [(vernier.points, v) for v in (190, 180, 150, 120, 200)]),
        ("MP endurance: starting MP (pilot)", [(mp.mp, v) for v in (30, 50, 100, 150, 200, 20)]),
        ("MP endurance: 200 MP, drain", [(mp_200.drain, v) for v in ("2", "1D6", "2D6", "3D6", "pilot")]),
    ]


def main() -> None:
    check_agreement()
    print(f"{'case':38} {'helper':>10} {'brute':>10} {'brute/helper':>13}")
    for name, helper, brute in CASES:
        t_helper = best(helper)
        t_brute = best(brute, number=1, repeat=1)
        print(f"{name:38} {t_helper * 1e3:8.3f}ms {t_brute * 1e3:8.1f}ms {t_brute / t_helper:12.1f}x")
    print()
    updates.report(calculator_changes())


if __name__ == "__main__":
    main()
