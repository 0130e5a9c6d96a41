"""The round: initiative, action points, action patterns and their costs (000 §1, §2, §3).

Most of the text's action-point cost table is missing (only its footnote survives, line 56).
The costs the text does give are built in; every other cost is a parameter the caller supplies
in :class:`ActionCosts` (*not in the source text*).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb
from typing import Literal

from .. import checks
from ..dice import Distribution, opposed, pool_distribution
from ..worked import Worked
from .d36 import whole_number
from .units import check_unit_class


@dataclass(frozen=True)
class Pattern:
    """An **action pattern** (行動パターン) and what the text says it does."""

    name: str
    japanese: str
    category: Literal["manoeuvre", "shooting", "melee", "other"]
    first_mover_only: bool = False
    to_hit: int = 0
    evasion: int = 0
    damage_multiplier: int = 1
    source: str = "000 §2"


PATTERNS: dict[str, Pattern] = {
    p.name: p
    for p in (
        # manoeuvre (機動系): 7 kinds, ※ = only when acting first
        Pattern("normal move", "通常移動", "manoeuvre"),
        Pattern("additional move", "追加移動", "manoeuvre"),
        Pattern("turn only", "旋回のみ", "manoeuvre"),
        Pattern("charge/disengage", "突撃・離脱", "manoeuvre"),
        Pattern("anti-ship attack", "対艦攻撃行動", "manoeuvre"),
        Pattern("evasive action", "回避行動", "manoeuvre", first_mover_only=True, evasion=1),
        Pattern("use of cover", "遮蔽物の利用", "manoeuvre", first_mover_only=True, evasion=3),
        # shooting (射撃系)
        Pattern("single shot", "単射", "shooting"),
        Pattern("snap shot", "速射", "shooting", to_hit=-3),
        Pattern("auto fire", "連射", "shooting"),
        Pattern("missile", "ミサイル", "shooting"),
        Pattern("large weapon use", "大型携帯火器の使用", "shooting"),
        Pattern("psycommu weapon", "サイコミュ兵器", "shooting"),
        Pattern("psycommu weapon (reflector)", "サイコミュ兵器（リフレクタータイプ）", "shooting"),
        Pattern("aim", "照準", "shooting", to_hit=1),
        Pattern("grenade throw", "グレネード投擲", "shooting"),
        Pattern("smoke deployment", "煙幕展開", "shooting"),
        Pattern("bombing", "爆撃", "shooting"),
        Pattern("mine laying", "機雷散布", "shooting"),
        Pattern("rapid-fire beam smart gun", "連射型ビームスマートガンの使用", "shooting", source="000 §7-5"),
        Pattern("plasma leader set-up", "プラズマリーダーの設置", "other", source="000 §7-16"),
        Pattern("psycho jammer use", "サイコジャマーの使用", "other", source="000 §7-17"),
        Pattern("psycho capture use", "サイコキャプチャーの使用", "other", source="000 §7-18"),
        # melee (格闘系)
        Pattern("slash/thrust", "斬る・突く", "melee"),
        Pattern("quick-draw slash", "抜き斬り", "melee", to_hit=-3),
        Pattern("ready", "構える", "melee", to_hit=1),
        Pattern("wind-up", "振りかぶる", "melee", to_hit=-3, damage_multiplier=2),
        Pattern("punch/kick", "殴る・蹴る", "melee"),
        Pattern("body slam", "体当たり", "melee", to_hit=-3, damage_multiplier=2),
        # other (その他)
        Pattern("reload", "弾倉交換", "other"),
        Pattern("drop weapon", "武器を捨てる", "other"),
        Pattern("stow weapon", "武器をしまう", "other"),
        Pattern("draw weapon", "武器を取り出す", "other"),
        Pattern("transform", "変形", "other"),
        Pattern("separate/combine", "分離／合体", "other"),
    )
}
#: aim and ready add +1 to the next hit check only, per action (000 §2, lines 129, 161)
NEXT_CHECKS_AFFECTED_BY_AIM = 1
#: evasive action and use of cover last for the round they are chosen in (000 §2, lines 89, 93)
EVASION_PATTERN_DURATION_ROUNDS = 1
#: wind-up and body slam: work out the damage as usual, then double it (000 §2, line 165)
DOUBLED_AFTER_NORMAL_DAMAGE = True
#: patterns that must accompany another one
REQUIRES = {"additional move": ("normal move",), "charge/disengage": ("normal move", "additional move"),
            "wind-up": ("slash/thrust",), "body slam": ("punch/kick",)}

#: the costs the text states, by unit class (normal MS, high-mobility MS, MA or aircraft)
NORMAL_MOVE_AP = {"normal MS": 4, "high-mobility MS": 3, "MA or aircraft": 2}  # 000 §2, line 67
ADDITIONAL_MOVE_AP = {"normal MS": 6, "high-mobility MS": 5, "MA or aircraft": 4}  # line 72
CHARGE_DISENGAGE_AP = {"normal MS": 2, "high-mobility MS": 1, "MA or aircraft": 0}  # line 81
RAPID_FIRE_BSG_AP = 8  # 000 §7-5, line 376: "large weapon use" + 2
RAPID_FIRE_BSG_EXTRA = 2
FIXED_AP = {
    "rapid-fire beam smart gun": RAPID_FIRE_BSG_AP,
    "large weapon use": RAPID_FIRE_BSG_AP - RAPID_FIRE_BSG_EXTRA,  # derived: 8 - 2 (not written as such)
    "plasma leader set-up": 5,  # 000 §7-16
    "psycho jammer use": 5,  # 000 §7-17
    "psycho capture use": 5,  # 000 §7-18
}


def may_choose(pattern: str, *, acting_first: bool) -> bool:
    """Whether a side may choose ``pattern`` this round: patterns marked ※ (evasive action, use of
    cover) only when acting first (000 §1, line 56, §2, line 62)."""
    if pattern not in PATTERNS:
        raise ValueError(f"no action pattern {pattern!r}: allowed are {', '.join(PATTERNS)}")
    return acting_first or not PATTERNS[pattern].first_mover_only


@dataclass(frozen=True)
class ActionCosts:
    """AP costs of the patterns whose costs are missing from the text.

    ``extra`` maps a pattern name to its cost: *not in the source text* (the AP table of 000 §1-§2
    is missing), so a plan that uses such a pattern needs its cost given here.
    """

    extra: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.extra, Mapping):
            raise ValueError(f"extra {checks.shown(self.extra)} is not a mapping of pattern name to AP cost")
        for name, cost in self.extra.items():
            if name not in PATTERNS:
                raise ValueError(f"no action pattern {name!r}: allowed are {', '.join(PATTERNS)}")
            if whole_number(cost, f"AP cost of {name!r}") < 0:
                raise ValueError(f"AP cost of {name!r} is {cost}: allowed are 0 or more")


def ap_cost(pattern: str, unit_class: str, costs: ActionCosts | None = None) -> int:
    """The AP cost of one pattern for a unit class (000 §2, §7-5, §7-16..18).

    Stated: normal move 4/3/2, additional move 6/5/4, charge/disengage +2/+1/0 (normal MS,
    high-mobility MS, MA or aircraft); rapid-fire beam smart gun 8, hence large weapon use 6;
    plasma leader, psycho jammer, psycho capture 5. Any other cost comes from ``costs``.
    """
    check_unit_class(unit_class)
    if pattern not in PATTERNS:
        raise ValueError(f"no action pattern {pattern!r}: allowed are {', '.join(PATTERNS)}")
    table = {"normal move": NORMAL_MOVE_AP, "additional move": ADDITIONAL_MOVE_AP,
             "charge/disengage": CHARGE_DISENGAGE_AP}
    if pattern in table:
        return table[pattern][unit_class]
    if pattern in FIXED_AP:
        return FIXED_AP[pattern]
    if costs is not None and pattern in costs.extra:
        return int(costs.extra[pattern])
    raise ValueError(
        f"the AP cost of {pattern!r} ({PATTERNS[pattern].japanese}) is not in the source text "
        "(the AP table is missing): give it among the extra costs of ActionCosts (each pattern's AP)"
    )


def moves_needed(hexes: int, mobility: int) -> int:
    """How many move actions it takes to cover ``hexes`` with ``mobility`` hexes per move (000 §4)."""
    hexes = whole_number(hexes, "hexes")
    mobility = whole_number(mobility, "mobility")
    if hexes < 1:
        raise ValueError(f"hexes {hexes!r}: allowed are 1 or more")
    if mobility < 1:
        raise ValueError(f"mobility {mobility!r}: a unit with mobility 0 or '−' cannot move there")
    return -(-hexes // mobility)


def ap_to_move(hexes: int, mobility: int, unit_class: str) -> int:
    """AP to move ``hexes`` in one round: one normal move, then an additional move for each further
    move (000 §4, line 231). A Zaku II (land mobility 3) needs 10 AP for 4+ hexes, 16 for 7+."""
    moves = moves_needed(hexes, mobility)
    return NORMAL_MOVE_AP[check_unit_class(unit_class)] + (moves - 1) * ADDITIONAL_MOVE_AP[unit_class]


@dataclass(frozen=True)
class ActionPoints(Worked):
    """This round's action points and what is owed to the next round."""

    available: int
    owed_next_round: int


@checks.checked_flags
def action_points(
    roll: int,
    reaction: int,
    *,
    borrow: int = 0,
    anticipation: bool = False,
    owed: int = 0,
    max_borrow: int | None = None,
) -> ActionPoints:
    """This round's **action points** (行動ポイント), 000 §1 (line 54).

    1D6 (``roll``) + the reaction modifier (反応力). A pilot with the skill **anticipation**
    (予想行動) may borrow ``borrow`` AP from the next round; they are repaid next round
    (``owed`` there), and a round that repays may not borrow again (no 又借り). How many AP may
    be borrowed is *not in the source text*: ``max_borrow`` must be given to borrow.
    Ruling: AP never go below 0.
    """
    roll = whole_number(roll, "AP roll")
    if not 1 <= roll <= 6:
        raise ValueError(f"AP roll {roll!r} is not a d6 face: allowed are 1 to 6")
    reaction = whole_number(reaction, "reaction modifier")
    borrow = whole_number(borrow, "borrowed AP")
    owed = whole_number(owed, "owed AP")
    if borrow < 0 or owed < 0:
        raise ValueError(f"borrowed {borrow} and owed {owed} AP: allowed are 0 or more")
    steps = [f"1D6 {roll} + reaction {reaction:+d} = {roll + reaction}"]
    available = roll + reaction
    if owed:
        available -= owed
        steps.append(f"repay {owed} borrowed last round: {available}")
    if borrow:
        if not anticipation:
            raise ValueError("borrowing AP needs the skill anticipation (予想行動)")
        if owed:
            raise ValueError(f"this round repays {owed} AP: it may not borrow again (又借り is not allowed)")
        if max_borrow is None:
            raise ValueError("how many AP may be borrowed is not in the source text: pass max_borrow")
        if borrow > max_borrow:
            raise ValueError(f"borrow {borrow} AP: allowed are 0 to {max_borrow} (max_borrow)")
        available += borrow
        steps.append(f"borrow {borrow} from next round (予想行動): {available}")
    if available < 0:
        steps.append("below 0: no AP this round")
        available = 0
    steps.append(f"{available} AP this round; unused AP are lost and cannot be given away (000 §3)")
    return ActionPoints(available, borrow, steps=tuple(steps))


def ap_distribution(reaction: int, *, borrow: int = 0, owed: int = 0) -> Distribution:
    """The exact distribution of this round's AP for 1D6 + ``reaction`` (+ borrowed - owed), floored at 0 (000 §1)."""
    reaction = whole_number(reaction, "reaction modifier")
    checks.whole(borrow, "borrow", minimum=0)
    checks.whole(owed, "owed", minimum=0)
    return Distribution.uniform(max(0, r + reaction + borrow - owed) for r in range(1, 7))


def ap_at_least(needed: int, reaction: int, *, borrow: int = 0, owed: int = 0) -> Fraction:
    """The chance of having at least ``needed`` AP this round (000 §1)."""
    return ap_distribution(reaction, borrow=borrow, owed=owed).at_least(whole_number(needed, "AP needed"))


@dataclass(frozen=True)
class Plan(Worked):
    """A combination of action patterns for one phase."""

    patterns: tuple[str, ...]
    cost: int
    ap: int
    fits: bool


def plan_actions(
    patterns: Sequence[str],
    ap: int,
    unit_class: str,
    *,
    acting_first: bool,
    costs: ActionCosts | None = None,
) -> Plan:
    """Check a plan of patterns against this round's AP (000 §1-§3).

    Refuses patterns only the first mover may choose (evasive action, use of cover) when acting
    second, an additional move without a normal move, and a charge/disengage without a move.
    """
    ap = whole_number(ap, "AP")
    count = Counter(patterns)
    for name in count:
        if name not in PATTERNS:
            raise ValueError(f"no action pattern {name!r}: allowed are {', '.join(PATTERNS)}")
        if not may_choose(name, acting_first=acting_first):
            raise ValueError(f"{name!r} ({PATTERNS[name].japanese}) may be chosen only by the side acting first")
        if name in REQUIRES and not any(count[r] for r in REQUIRES[name]):
            raise ValueError(f"{name!r} is chosen on top of {' or '.join(map(repr, REQUIRES[name]))}")
    if count["normal move"] > 1:
        raise ValueError("a round has one normal move; further moves are additional moves (000 §2)")
    steps = []
    cost = 0
    for name in patterns:
        c = ap_cost(name, unit_class, costs)
        cost += c
        steps.append(f"{name} ({PATTERNS[name].japanese}): {c} AP")
    fits = cost <= ap
    steps.append(f"total {cost} AP of {ap}: {'fits' if fits else 'does not fit'}")
    return Plan(tuple(patterns), cost, ap, fits, steps=tuple(steps))


#: the most combinations `fitting_plans` tries (all 35 patterns of the text, up to 4 in a plan,
#: are 82,250): a bound on the work, *not in the source text*
MAX_PLAN_COMBINATIONS = 100_000


def fitting_plans(
    ap: int,
    candidates: Iterable[str],
    unit_class: str,
    *,
    acting_first: bool,
    costs: ActionCosts | None = None,
    max_patterns: int = 4,
) -> list[Plan]:
    """Every combination of up to ``max_patterns`` candidate patterns that is legal and fits ``ap`` (000 §1-§3).

    Combinations are unordered (a multiset), most expensive first. The search tries every multiset,
    so it is refused at once when there would be more than `MAX_PLAN_COMBINATIONS` of them.
    """
    if isinstance(candidates, str) or not isinstance(candidates, Iterable):
        raise ValueError(f"candidates {candidates!r:.60} are not a list of action pattern names")
    candidates = sorted(set(candidates), key=str)
    for name in candidates:
        if name not in PATTERNS:
            raise ValueError(f"no action pattern {name!r:.60}: allowed are {', '.join(PATTERNS)}")
    whole_number(max_patterns, "max_patterns")
    if max_patterns < 1:
        raise ValueError(f"max_patterns {max_patterns} is below 1: allowed are 1 or more")
    if not candidates:
        return []
    tried = 0
    for size in range(1, max_patterns + 1):  # stops at the first size over the limit
        tried += comb(len(candidates) + size - 1, size)
        if tried > MAX_PLAN_COMBINATIONS:
            break
    if tried > MAX_PLAN_COMBINATIONS:
        raise ValueError(f"{len(candidates)} candidates in up to {max_patterns} patterns are {tried:,} combinations "
                         f"to try: allowed are at most {MAX_PLAN_COMBINATIONS:,} (fewer candidates or patterns)")
    plans = []
    for size in range(1, max_patterns + 1):
        for combo in combinations_with_replacement(candidates, size):
            try:
                plan = plan_actions(combo, ap, unit_class, acting_first=acting_first, costs=costs)
            except ValueError:
                continue
            if plan.fits:
                plans.append(plan)
    return sorted(plans, key=lambda p: (-p.cost, p.patterns))


# -- initiative -----------------------------------------------------------------------------------

TieRule = Literal["reroll", "tie"]


@dataclass(frozen=True)
class Initiative(Worked):
    first: Literal["A", "B", "tie"]
    totals: tuple[int, int]


def initiative(dice_a: Sequence[int], perception_a: int, dice_b: Sequence[int], perception_b: int) -> Initiative:
    """**Initiative** (イニシアチブ), 000 §1 (line 44): each side's representative rolls 2D6 +
    perception (知覚力); the higher total acts first (先攻). A tie is *not settled by the text*:
    the result is ``"tie"`` and the book's ruling is to roll again.
    """
    totals = []
    steps = []
    for side, dice, perception in (("A", dice_a, perception_a), ("B", dice_b, perception_b)):
        dice = tuple(dice)
        if len(dice) != 2 or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
            raise ValueError(f"side {side}'s dice {dice!r}: give two d6 faces, each 1 to 6")
        perception = whole_number(perception, "perception modifier")
        totals.append(sum(dice) + perception)
        steps.append(f"side {side}: 2D6 {dice[0]}+{dice[1]} + perception {perception:+d} = {totals[-1]}")
    first = "A" if totals[0] > totals[1] else "B" if totals[1] > totals[0] else "tie"
    steps.append("tie: roll again (ruling)" if first == "tie" else f"side {first} acts first (先攻)")
    return Initiative(first, (totals[0], totals[1]), steps=tuple(steps))


def initiative_odds(perception_a: int, perception_b: int) -> dict[str, Fraction]:
    """Exact chances that side A acts first, B acts first, or they tie before any re-roll (000 §1)."""
    a = pool_distribution(2).map(lambda t: t + whole_number(perception_a, "perception modifier"))
    b = pool_distribution(2).map(lambda t: t + whole_number(perception_b, "perception modifier"))
    result = opposed(a, b)
    return {"A": result.higher, "B": result.lower, "tie": result.tie}


#: the round's sequence (000 §1, lines 30-38)
ROUND_SEQUENCE = (
    "initiative (イニシアチブ)",
    "first side determines its AP",
    "first side acts (move, attack)",
    "second side determines its AP",
    "second side acts (move, attack)",
)
#: one battle on the combat map is one turn on the scenario map however many rounds it lasts (000 §1)
SCENARIO_TURNS_PER_BATTLE = 1
COMBAT_MAPS_PER_SCENARIO_HEX = 1


def scenario_turns(hexes_moved: int = 0, battles: int = 0, rounds_per_battle: Sequence[int] = ()) -> int:
    """Scenario-map turns elapsed (000 §1, line 26): one per hex a unit moves, one per battle
    whatever its number of rounds."""
    hexes_moved = whole_number(hexes_moved, "hexes moved")
    checks.whole(battles, "battles", minimum=0)
    if rounds_per_battle and len(rounds_per_battle) != battles:
        raise ValueError(f"{len(rounds_per_battle)} round counts given for {battles} battles")
    return hexes_moved + battles * SCENARIO_TURNS_PER_BATTLE



@dataclass(frozen=True)
class RoundPlan:
    """This round's AP, and every legal combination of candidate patterns that fits, each with the
    chance of rolling at least its cost."""

    ap: ActionPoints
    plans: tuple[tuple[Plan, Fraction], ...]


def plan_round(
    roll: int,
    reaction: int,
    candidates: Iterable[str],
    unit_class: str,
    *,
    acting_first: bool,
    borrow: int = 0,
    owed: int = 0,
    anticipation: bool = False,
    max_borrow: int | None = None,
    costs: ActionCosts | None = None,
    max_patterns: int = 4,
) -> RoundPlan:
    """The action-point planner: AP for this roll, the plans that fit, and P(AP >= each plan's cost) (000 §1-§3)."""
    ap = action_points(roll, reaction, borrow=borrow, anticipation=anticipation, owed=owed, max_borrow=max_borrow)
    plans = fitting_plans(ap.available, candidates, unit_class, acting_first=acting_first, costs=costs,
                          max_patterns=max_patterns)
    spread = ap_distribution(reaction, borrow=borrow, owed=owed)
    return RoundPlan(ap, tuple((plan, spread.at_least(plan.cost)) for plan in plans))


__all__ = [
    "ADDITIONAL_MOVE_AP", "CHARGE_DISENGAGE_AP", "FIXED_AP", "MAX_PLAN_COMBINATIONS", "NORMAL_MOVE_AP", "PATTERNS",
    "ActionCosts",
    "action_points", "ap_at_least", "ap_cost", "ap_distribution", "ap_to_move", "fitting_plans", "initiative",
    "initiative_odds", "moves_needed", "plan_actions", "scenario_turns",
]
