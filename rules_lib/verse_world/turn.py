"""The combat turn: initiative, delaying, end-of-turn processing and the extra action.

004 §3-4 and §3-4-1 (lines 2–21); the simplified rules use the same turn (004 §3-5-1, line 174).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .. import checks
from ..dice import RollResult, roll
from ..worked import Worked

#: One combat turn (戦闘ターン) lasts 10 seconds (004 §3-4, line 3).
SECONDS_PER_TURN = 10
#: Casting a higher or powerful spell may run over 2 or more combat turns, as its spell list says
#: (004 §3-4, line 3). The spell list itself is not in this text.
MULTI_TURN_CASTING_MIN_TURNS = 2
#: The dice of the initiative roll: initiative bonus + 2D6 (004 §3-4-1, line 9).
INITIATIVE_DICE = "2D6"
#: A delayed character acts at initiative roll value 0, at the end of the turn (004 §3-4-1, line 10).
DELAYED_ACTS_AT = 0

#: At most one extra action per combat turn, for one character (004 §3-4-1, line 14).
MAX_EXTRA_ACTIONS_PER_TURN = 1
#: One action: one move and one attack, the move first (004 §3-4-2, line 23).
MOVES_PER_ACTION = 1
ATTACKS_PER_ACTION = 1
ACTION_ORDER = ("move", "attack")



def action_step_allowed(done: Sequence[str], step: str) -> bool:
    """Whether ``step`` ("move" or "attack") may come next in one action after the steps ``done``
    (004 §3-4-2, line 23): at most MOVES_PER_ACTION moves and ATTACKS_PER_ACTION attacks, in the order of
    ACTION_ORDER (move first, attack after). The GM or a special action may say otherwise.
    """
    checks.choice(step, "action step", ACTION_ORDER)
    for earlier in done:
        checks.choice(earlier, "action step", ACTION_ORDER)
    limits = {"move": MOVES_PER_ACTION, "attack": ATTACKS_PER_ACTION}
    if list(done).count(step) >= limits[step]:
        return False
    later = ACTION_ORDER[ACTION_ORDER.index(step) + 1:]
    return not any(earlier in later for earlier in done)


Side = Literal["pc", "gm"]
NpcPlacement = Literal["on-ties", "always"]
#: The end-of-turn processing (004 §3-4-1, lines 13–14), then the pilot's MP drain (line 21; its place
#: relative to the extra action is a ruling: at the very end of the turn).
END_OF_TURN_STEPS = ("delayed-actions", "ongoing-effects", "extra-action")
PILOT_MP_STEP = "pilot-mp-drain"


def casting_spans_turns(turns: int) -> bool:
    """Whether a spell cast over ``turns`` combat turns is a multi-turn casting (004 §3-4, line 3)."""
    checks.whole(turns, "casting turns", minimum=1)
    return turns >= MULTI_TURN_CASTING_MIN_TURNS


def initiative_roll(bonus: int, *, dice: Sequence[int] | None = None, seed: int | None = None) -> RollResult:
    """Initiative roll value = initiative bonus + 2D6 (004 §3-4-1, line 9)."""
    checks.whole(bonus, "initiative bonus")
    return roll(f"{INITIATIVE_DICE}{bonus:+d}", dice=dice, seed=seed)


@dataclass(frozen=True)
class Combatant:
    """A character in the turn order: its name, side, initiative roll value and whether it delays."""

    name: str
    side: Side
    initiative: int
    delays: bool = False

    def __post_init__(self) -> None:
        if self.side not in ("pc", "gm"):
            raise ValueError(
                f"side {self.side!r} is not a side: allowed are 'pc' (player character) and 'gm' "
                "(GM-side NPCs and enemy MOBs)"
            )
        checks.whole(self.initiative, f"initiative roll value of {self.name}")


@dataclass(frozen=True)
class Slot:
    """One place in the acting order."""

    position: int
    name: str
    side: Side
    initiative: int
    delayed: bool

    @property
    def acts_at(self) -> int:
        """The initiative value at which it acts: its own, or 0 when delayed (004 §3-4-1, line 10)."""
        return DELAYED_ACTS_AT if self.delayed else self.initiative


@dataclass(frozen=True)
class TurnOrder(Worked):
    """The acting order of one combat turn, with its working."""

    slots: tuple[Slot, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(slot.name for slot in self.slots)

    @property
    def first_actor(self) -> Slot | None:
        """The character who actually acts first (a delayed one acts only at the end)."""
        return self.slots[0] if self.slots else None


@checks.checked_arguments
def turn_order(
    combatants: Iterable[Combatant], *, npcs_after_pcs: NpcPlacement = "on-ties"
) -> TurnOrder:
    """The acting order (004 §3-4-1, lines 10–13).

    Highest initiative roll value first. Characters that declared a delay act at value 0, after
    everyone else, among themselves again by their real initiative roll values. On equal values
    player characters act before GM-side characters; within a side, the players (or the GM) decide:
    the library keeps the order in which the characters were given.
    ``npcs_after_pcs``: ``"on-ties"`` (the reading used) or ``"always"`` (GM characters after every
    player character whatever their values) -- the text puts this sentence in the tie paragraph.
    """
    if npcs_after_pcs not in ("on-ties", "always"):
        raise ValueError(f"npcs_after_pcs {npcs_after_pcs!r} is not allowed: use 'on-ties' or 'always'")
    given = list(combatants)
    names = [c.name for c in given]
    if len(set(names)) != len(names):
        raise ValueError(f"two combatants share a name: {sorted(n for n in set(names) if names.count(n) > 1)}")

    def key(item: tuple[int, Combatant]):
        index, c = item
        side_rank = 0 if c.side == "pc" else 1
        if npcs_after_pcs == "always":
            return (side_rank, -c.initiative, index)
        return (-c.initiative, side_rank, index)

    acting = [item for item in enumerate(given) if not item[1].delays]
    delayed = [item for item in enumerate(given) if item[1].delays]
    ordered = sorted(acting, key=key) + sorted(delayed, key=key)
    slots = tuple(
        Slot(position, c.name, c.side, c.initiative, c.delays)
        for position, (_, c) in enumerate(ordered, start=1)
    )
    steps = [
        f"{s.position}. {s.name} ({s.side}) initiative {s.initiative}"
        + (f", delayed: acts at {DELAYED_ACTS_AT}, end of turn" if s.delayed else "")
        for s in slots
    ]
    return TurnOrder(slots, steps=tuple(steps))


@checks.checked_flags
def end_of_turn_steps(*, riding_mecha: bool) -> tuple[str, ...]:
    """What happens once everyone has acted (004 §3-4-1, lines 13–14, line 21), in order."""
    return END_OF_TURN_STEPS + ((PILOT_MP_STEP,) if riding_mecha else ())


@dataclass(frozen=True)
class ExtraActionCheck(Worked):
    """Who may try the extra action (再行動) this turn, and against whom."""

    candidate: str | None
    passive: str | None


ExtraActionCandidate = Literal["first-actor", "highest-initiative"]


@checks.checked_arguments
def extra_action_check(
    order: TurnOrder,
    *,
    fallen: Iterable[str] = (),
    candidate_rule: ExtraActionCandidate = "first-actor",
) -> ExtraActionCheck:
    """The extra-action contest of a turn (004 §3-4-1, lines 14–16).

    Only the one character who acted first may try; a delayed character never may; if that
    character has fallen, nobody may this turn. The passive side is the opposing side's character
    who acted last, or the next-latest if that one has fallen.
    ``candidate_rule``: ``"first-actor"`` (the reading used: the first character who actually acted)
    or ``"highest-initiative"`` (the highest initiative roll value; if it delayed, nobody).
    """
    fallen = set(fallen)
    unknown = fallen - set(order.names)
    if unknown:
        raise ValueError(f"fallen characters {sorted(unknown)} are not in the turn order")
    if candidate_rule not in ("first-actor", "highest-initiative"):
        raise ValueError(
            f"candidate_rule {candidate_rule!r} is not allowed: use 'first-actor' or 'highest-initiative'"
        )
    steps = []
    if not order.slots:
        return ExtraActionCheck(None, None, steps=("nobody acted",))
    if candidate_rule == "highest-initiative":
        top = max(order.slots, key=lambda s: (s.initiative, -s.position))
        if top.delayed:
            steps.append(f"{top.name} has the highest initiative but delayed: no extra action this turn")
            return ExtraActionCheck(None, None, steps=tuple(steps))
        first = top
    else:
        first = order.first_actor
        if first.delayed:
            steps.append("everyone delayed: no extra action this turn")
            return ExtraActionCheck(None, None, steps=tuple(steps))
    steps.append(f"{first.name} acted first (initiative {first.initiative})")
    if first.name in fallen:
        steps.append(f"{first.name} has fallen: nobody gets an extra action this turn")
        return ExtraActionCheck(None, None, steps=tuple(steps))
    opponents = [s for s in order.slots if s.side != first.side]
    for slot in reversed(opponents):
        if slot.name in fallen:
            steps.append(f"{slot.name} acted last on the other side but has fallen: take the next-latest")
            continue
        steps.append(f"passive side: {slot.name}, the opposing character who acted last")
        return ExtraActionCheck(first.name, slot.name, steps=tuple(steps))
    steps.append("no opposing character stands: there is nobody to contest")
    return ExtraActionCheck(first.name, None, steps=tuple(steps))


def extra_action_roll(
    active_value: int, passive_value: int, *, active_dice: Sequence[int], passive_dice: Sequence[int]
) -> tuple[bool, tuple[str, ...]]:
    """One extra-action contest: re-action value + 2D6 each; the active side must win (004 §3-4-1, line 16).

    Fumble, critical and over-critical mean nothing here (004 §3-4-1, line 17): double ones are just a total of 2.
    Both sides rolling their re-action value + 2D6 is a ruling (the text gives no formula).
    """
    a = roll(f"2D6{active_value:+d}", dice=active_dice)
    p = roll(f"2D6{passive_value:+d}", dice=passive_dice)
    won = a.total > p.total
    verdict = "the active side wins: extra action" if won else "the active side does not win: no extra action"
    return won, (
        f"active: re-action value {active_value} + 2D6 ({'+'.join(map(str, active_dice))}) = {a.total}",
        f"passive: re-action value {passive_value} + 2D6 ({'+'.join(map(str, passive_dice))}) = {p.total}",
        verdict,
    )


def extra_action_chance(active_value: int, passive_value: int) -> Fraction:
    """Exact chance that the active side wins the extra-action contest of 004 §3-4-1 (ties do not win)."""
    checks.whole(active_value, "active re-action value")
    checks.whole(passive_value, "passive re-action value")
    wins = sum(
        a_count * p_count
        for a_total, a_count in _TWO_D6_COUNTS.items()
        for p_total, p_count in _TWO_D6_COUNTS.items()
        if a_total + active_value > p_total + passive_value
    )
    return Fraction(wins, 36 * 36)


#: How many of the 36 rolls of 2D6 give each total.
_TWO_D6_COUNTS = {total: 6 - abs(total - 7) for total in range(2, 13)}


__all__ = [
    "ACTION_ORDER", "ATTACKS_PER_ACTION", "DELAYED_ACTS_AT", "END_OF_TURN_STEPS", "INITIATIVE_DICE",
    "MAX_EXTRA_ACTIONS_PER_TURN", "MOVES_PER_ACTION", "MULTI_TURN_CASTING_MIN_TURNS", "SECONDS_PER_TURN",
    "Combatant", "ExtraActionCheck", "Slot", "TurnOrder", "action_step_allowed", "casting_spans_turns",
    "end_of_turn_steps", "extra_action_chance", "extra_action_check", "extra_action_roll", "initiative_roll",
    "turn_order",
]
