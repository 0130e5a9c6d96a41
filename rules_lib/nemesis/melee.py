"""Approach phase and melee duel (002 §5-1, §5-2, §6-1, §6-2)."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import accumulate, product
from typing import Literal

from .. import checks
from ..dice import Distribution, StraightOrder, check_straight_order, opposed_pools, pattern
from ..worked import Worked
from .action import check_faces

# -- approach ------------------------------------------------------------------------

ApproachCompare = Literal["sum", "highest"]
#: active value paid per extra approach die, and dice it buys (§5-1, line 245)
APPROACH_ACTIVE_COST = 1
APPROACH_DICE_PER_PAYMENT = 1


def shooter_dice(ranges_used: Sequence[int]) -> int:
    """The shooter rolls as many dice as the lowest range it shot at this turn (002 §5-1, lines 239-241).

    A range is the die face the shot used (a range-6 weapon → 6 dice; ranges 5 and 3 → 3).
    The text gives no number for a side that has not shot: that is an error here.
    """
    ranges = check_faces(ranges_used, "ranges used")
    if not ranges:
        raise ValueError("the shooter used no range this turn: the text gives it no approach dice")
    return min(ranges)


def approacher_dice(mobility: int, active_spent: int = 0) -> int:
    """The approacher rolls its mobility (機動力) in dice, +1 per active value spent (002 §5-1, lines 243-245)."""
    checks.whole(mobility, "mobility (機動性)", minimum=0)
    checks.whole(active_spent, "active value spent", minimum=0)
    return mobility + active_spent * APPROACH_DICE_PER_PAYMENT


@dataclass(frozen=True)
class ApproachResult(Worked):
    success: bool
    approacher_total: int
    shooter_total: int


def _pool_value(faces: tuple[int, ...], compare: ApproachCompare) -> int:
    if compare == "sum":
        return sum(faces)
    return max(faces, default=0)


def approach(approacher: Sequence[int], shooter: Sequence[int], compare: ApproachCompare = "sum") -> ApproachResult:
    """The approach check: the approacher must exceed (超えた) the shooter; ties go to the shooter (002 §5-1).

    The text does not say what number is compared: ``compare="sum"`` (the default, like the
    initiative roll) or ``"highest"`` (the highest single die).
    """
    if compare not in ("sum", "highest"):
        raise ValueError(f"compare {compare!r} is not 'sum' or 'highest'")
    a = check_faces(approacher, "approacher's dice")
    s = check_faces(shooter, "shooter's dice")
    av, sv = _pool_value(a, compare), _pool_value(s, compare)
    what = "sum" if compare == "sum" else "highest die"
    steps = [f"approacher {len(a)} dice {'+'.join(map(str, a)) or '-'}: {what} {av}",
             f"shooter {len(s)} dice {'+'.join(map(str, s)) or '-'}: {what} {sv}"]
    success = av > sv
    steps.append(f"{av} > {sv}: the approach succeeds, melee attack (§5-2)" if success
                 else f"{av} does not exceed {sv}: the approach fails")
    return ApproachResult(success, av, sv, steps=tuple(steps))


def approach_chance(approacher: int, shooter: int, compare: ApproachCompare = "sum") -> Fraction:
    """Exact chance that ``approacher`` d6 exceed ``shooter`` d6 (002 §5-1)."""
    checks.whole(approacher, "approacher's dice", minimum=0)
    checks.whole(shooter, "shooter's dice", minimum=0)
    if compare == "sum":
        return opposed_pools(approacher, shooter).higher
    if compare != "highest":
        raise ValueError(f"compare {compare!r} is not 'sum' or 'highest'")
    a, s = _highest_distribution(approacher), _highest_distribution(shooter)
    return sum((p * q for x, p in a.items() for y, q in s.items() if x > y), Fraction(0))


def _highest_distribution(dice: int) -> Distribution:
    if dice == 0:
        return Distribution({0: Fraction(1)})
    return Distribution({h: Fraction(h**dice - (h - 1) ** dice, 6**dice) for h in range(1, 7)})


def multi_hit_allowed(phase: Literal["approach", "duel"]) -> bool:
    """A melee attack after a won approach never multi-hits (§5-2, line 253); in the duel some
    weapons may (§6-2, lines 275-277), though no weapon in the text gives a count."""
    if phase not in ("approach", "duel"):
        raise ValueError(f"phase {phase!r} is not 'approach' or 'duel'")
    return phase == "duel"


# -- melee duel ----------------------------------------------------------------------

TripleVsTriple = Literal["higher_wins", "mutual"]
PairKey = Literal["pair_value", "sum"]
PlainKey = Literal["sum", "dice_descending"]
#: damage multiplier for a win with each pattern (§6-2, lines 275-277)
WIN_MULTIPLIER = {"triple": 3, "straight": 2, "pair": 1, "plain": 1}
PATTERN_RANK = {"plain": 0, "pair": 1, "straight": 2, "triple": 3}
#: the duel's strength order, strongest first, in the text's words (§6-2)
DUEL_RANKING = ("三ゾロ", "3連番", "ゾロ目", "出目")
DUEL_LABELS = {"triple": "三ゾロ", "straight": "3連番", "pair": "ゾロ目", "plain": "出目"}
#: free rerolls per side: up to 3 dice (§6-1, line 261); then 1 die for 1 active value (line 267)
FREE_REROLL_DICE = 3
PAID_REROLL_DICE = 1
PAID_REROLL_COST = 1


@dataclass(frozen=True)
class DuelRules:
    """The duel's open readings (see the rulings page); ``straight_order`` is how a straight (3連番)
    is read, as for the action dice (:func:`~.action.read_pattern`). Read ``"as rolled"``, a roll
    that keeps some dice (:func:`duel_odds`) lists the kept dice first, then the new ones
    (:func:`reroll` keeps each die in its place)."""

    triple_vs_triple: TripleVsTriple = "higher_wins"
    pair_key: PairKey = "pair_value"
    plain_key: PlainKey = "sum"
    straight_order: StraightOrder = "sorted"

    def __post_init__(self) -> None:
        check_straight_order(self.straight_order)
        for name, allowed in (("triple_vs_triple", ("higher_wins", "mutual")),
                              ("pair_key", ("pair_value", "sum")), ("plain_key", ("sum", "dice_descending"))):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} {getattr(self, name)!r} is not one of {', '.join(allowed)}")


@checks.checked_arguments
def duel_key(dice: Sequence[int], rules: DuelRules = DuelRules()) -> tuple:
    """A sortable strength of a duel roll (002 §6-2): (class rank, value within the class).

    Two rolls with equal keys are a mutual hit; straights always share one key (always mutual).
    """
    faces = check_faces(dice, "duel dice")
    if len(faces) != 3:
        raise ValueError(f"a duel roll is exactly 3 dice, not {len(faces)}")
    kind = pattern(faces, rules.straight_order)
    if kind == "triple":
        return (3, (faces[0],) if rules.triple_vs_triple == "higher_wins" else ())
    if kind == "straight":
        return (2, ())
    if kind == "pair":
        if rules.pair_key == "sum":
            return (1, (sum(faces),))
        paired = next(f for f in faces if faces.count(f) == 2)
        return (1, (paired,))
    if rules.plain_key == "sum":
        return (0, (sum(faces),))
    return (0, tuple(sorted(faces, reverse=True)))


@dataclass(frozen=True)
class DuelResult:
    outcome: str  # "A" wins, "B" wins, or "mutual" (相打ち)
    patterns: tuple[str, str]
    multiplier: int  # of the winner's damage; 1 for each side on a mutual hit
    steps: tuple[str, ...]
    #: the sides that roll melee damage: the winner, both on a mutual hit, A alone on an automatic hit
    damage_rolled_by: tuple[str, ...] = ()

    @property
    def labels(self) -> tuple[str, str]:
        return (DUEL_LABELS[self.patterns[0]], DUEL_LABELS[self.patterns[1]])


DefenderChoice = Literal["duel", "defence", "evasion", "parry", "no_melee_weapon"]


@checks.checked_arguments
def duel(a: Sequence[int], b: Sequence[int], rules: DuelRules = DuelRules(),
         defender_choice: DefenderChoice = "duel") -> DuelResult:
    """Compare two duel rolls (002 §6-2): triple > straight > pair > plain; higher wins within a class;
    ties hit both (相打ち); a triple win deals ×3 damage and a straight win ×2.

    A is the attacker (the second player, who makes the melee attack, §6-1, line 263). If the
    defender B chooses defence, evasion or parry, or has no melee weapon, A hits automatically and
    only A's damage is rolled (§6-2, line 273, §6-1, line 265); no multiplier applies (ruling).
    """
    a, b = check_faces(a, "A's duel dice"), check_faces(b, "B's duel dice")
    if defender_choice not in ("duel", "defence", "evasion", "parry", "no_melee_weapon"):
        raise ValueError(f"defender choice {defender_choice!r} is not duel, defence, evasion, parry or no_melee_weapon")
    if defender_choice != "duel":
        why = "has no melee weapon" if defender_choice == "no_melee_weapon" else f"chose {defender_choice}"
        return DuelResult("A", (pattern(a, rules.straight_order), pattern(b, rules.straight_order)), 1,
                          (f"B {why}: A hits automatically; only A rolls damage (no multiplier)",), ("A",))
    ka, kb = duel_key(a, rules), duel_key(b, rules)
    pa, pb = pattern(a, rules.straight_order), pattern(b, rules.straight_order)
    steps = [f"A {'-'.join(map(str, a))}: {pa} ({DUEL_LABELS[pa]})",
             f"B {'-'.join(map(str, b))}: {pb} ({DUEL_LABELS[pb]})"]
    if ka == kb:
        steps.append("equal strength: mutual hit (相打ち), both roll melee damage")
        return DuelResult("mutual", (pa, pb), 1, tuple(steps), ("A", "B"))
    winner, kind = ("A", pa) if ka > kb else ("B", pb)
    why = "stronger class" if ka[0] != kb[0] else "higher within the class"
    steps.append(f"{winner} wins ({why})")
    multiplier = WIN_MULTIPLIER[kind]
    if multiplier > 1:
        steps.append(f"won with a {kind}: ×{multiplier} damage")
    return DuelResult(winner, (pa, pb), multiplier, tuple(steps), (winner,))


@dataclass(frozen=True)
class DuelOdds:
    """Chances for side A: win, mutual hit, lose (and A's chances of winning with ×3 / ×2)."""

    win: Fraction
    mutual: Fraction
    lose: Fraction
    win_triple: Fraction
    win_straight: Fraction


@cache
def _key_counts(kept: tuple[int, ...], rules: DuelRules) -> tuple[dict[tuple, int], dict[tuple, str], int]:
    """How many of a side's rolls have each strength key, each key's pattern, and how many rolls
    there are (6 ** dice rolled), for a side keeping ``kept`` and rolling the rest."""
    fresh = 3 - len(kept)
    counts: Counter = Counter()
    kinds: dict[tuple, str] = {}
    for rest in product(range(1, 7), repeat=fresh):
        roll = kept + rest
        key = duel_key(roll, rules)
        counts[key] += 1
        kinds[key] = pattern(roll, rules.straight_order)
    return dict(counts), kinds, 6**fresh


@checks.checked_arguments
def duel_odds(kept_a: Sequence[int] = (), kept_b: Sequence[int] = (), rules: DuelRules = DuelRules()) -> DuelOdds:
    """Exact duel odds (002 §6-1, §6-2) when A keeps ``kept_a`` and rolls the rest, and B likewise.

    ``()`` is a fresh 3D6; three dice are a kept roll. Computed by grouping each side's rolls
    by strength (at most 216 rolls a side), then counting, for each of A's groups, B's rolls that
    are weaker (a running sum over B's groups in order) or equal, in whole numbers.
    """
    a, b = check_faces(kept_a, "A's kept dice"), check_faces(kept_b, "B's kept dice")
    for kept in (a, b):
        if len(kept) > 3:
            raise ValueError(f"at most 3 dice can be kept, not {len(kept)}")
    (counts_a, kinds_a, total_a), (counts_b, _, total_b) = _key_counts(a, rules), _key_counts(b, rules)
    b_keys = sorted(counts_b)
    weaker_than = list(accumulate((counts_b[k] for k in b_keys), initial=0))  # B's rolls below b_keys[i]
    win = mutual = win3 = win2 = 0
    for key, n in counts_a.items():
        wins = n * weaker_than[bisect_left(b_keys, key)]
        win += wins
        mutual += n * counts_b.get(key, 0)
        if kinds_a[key] == "triple":
            win3 += wins
        elif kinds_a[key] == "straight":
            win2 += wins
    total = total_a * total_b
    return DuelOdds(Fraction(win, total), Fraction(mutual, total), Fraction(total - win - mutual, total),
                    Fraction(win3, total), Fraction(win2, total))


@checks.checked_arguments
def enumerate_duel_odds(kept_a: Sequence[int] = (), kept_b: Sequence[int] = (),
                        rules: DuelRules = DuelRules()) -> DuelOdds:
    """The same by playing every pair of rolls through :func:`duel` (the slow reference).

    Read ``"sorted"``, a duel depends only on which faces each side rolled, not their order, so each
    side's new dice are played once per multiset, weighted by how many orders roll it; read
    ``"as rolled"``, every ordered roll is played."""
    a, b = tuple(kept_a), tuple(kept_b)
    counts: Counter = Counter()
    for ra, weight_a in _rolls(3 - len(a), rules):
        for rb, weight_b in _rolls(3 - len(b), rules):
            result = duel(a + ra, b + rb, rules)
            tag = result.outcome
            if tag == "A" and result.multiplier > 1:
                tag = f"A{result.multiplier}"
            counts[tag] += weight_a * weight_b
    total = sum(counts.values())
    f = {k: Fraction(v, total) for k, v in counts.items()}
    win = f.get("A", 0) + f.get("A3", 0) + f.get("A2", 0)
    return DuelOdds(Fraction(win), Fraction(f.get("mutual", 0)), Fraction(f.get("B", 0)),
                    Fraction(f.get("A3", 0)), Fraction(f.get("A2", 0)))


def _rolls(fresh: int, rules: DuelRules) -> list[tuple[tuple[int, ...], int]]:
    """Each roll of ``fresh`` new dice with how many ordered rolls it stands for."""
    if rules.straight_order != "sorted":
        return [(roll, 1) for roll in product(range(1, 7), repeat=fresh)]
    orders = Counter(tuple(sorted(roll)) for roll in product(range(1, 7), repeat=fresh))
    return sorted(orders.items())


@dataclass(frozen=True)
class Reroll(Worked):
    dice: tuple[int, ...]
    active_spent: int


def reroll(dice: Sequence[int], positions: Sequence[int], new_faces: Sequence[int], paid: bool = False) -> Reroll:
    """Reroll duel dice (002 §6-1): up to 3 dice free, once; then ``paid=True`` rerolls 1 die for 1 active value.

    ``positions`` index the dice (0, 1, 2); ``new_faces`` are the new dice in the same order.
    """
    faces = check_faces(dice, "duel dice")
    new = check_faces(new_faces, "new dice")
    if len(faces) != 3:
        raise ValueError(f"a duel roll is exactly 3 dice, not {len(faces)}")
    positions = tuple(positions)
    if len(set(positions)) != len(positions) or any(p not in (0, 1, 2) for p in positions):
        raise ValueError(f"positions {positions!r} must be distinct indices 0, 1, 2")
    if len(new) != len(positions):
        raise ValueError(f"{len(positions)} dice rerolled but {len(new)} new faces given")
    limit = PAID_REROLL_DICE if paid else FREE_REROLL_DICE
    if len(positions) > limit:
        raise ValueError(f"{'a paid reroll' if paid else 'the free reroll'} changes at most {limit} dice, "
                         f"not {len(positions)}")
    out = list(faces)
    for p, f in zip(positions, new, strict=True):
        out[p] = f
    cost = PAID_REROLL_COST if paid and positions else 0
    steps = (f"{'-'.join(map(str, faces))}: reroll {len(positions)} di{'e' if len(positions) == 1 else 'ce'}"
             f"{' for 1 active value' if cost else ''} → {'-'.join(map(str, out))}",)
    return Reroll(tuple(out), cost, steps=steps)


__all__ = [
    "APPROACH_ACTIVE_COST", "APPROACH_DICE_PER_PAYMENT", "DUEL_LABELS", "DUEL_RANKING", "FREE_REROLL_DICE",
    "PAID_REROLL_COST", "PAID_REROLL_DICE", "PATTERN_RANK", "WIN_MULTIPLIER", "DuelOdds", "DuelRules",
    "approach", "approach_chance", "approacher_dice", "duel", "duel_key", "duel_odds", "enumerate_duel_odds",
    "multi_hit_allowed", "reroll", "shooter_dice",
]
