"""MP drain in a mecha: the pilot's 1D6-3 (at least 1) per turn, and how long a given MP lasts.

004 §3-4-1 (line 21) for the pilot (操手); the mecha's own MP (機兵MP) is spent by locomotion modes
(004 §3-4-3-1, lines 128–158), see :mod:`rules_lib.verse_world.movement`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .. import checks
from ..dice import Distribution, distribution
from ..worked import Worked

#: The pilot's MP loss at the end of each combat turn in a mecha (004 §3-4-1, line 21).
PILOT_MP_LOSS = "1D6-3"
#: ... but at least this much.
PILOT_MP_MINIMUM_LOSS = 1


@dataclass(frozen=True)
class MpLoss(Worked):
    """One end-of-turn MP loss of a pilot, with its working."""

    die: int
    raw: int
    loss: int


@checks.checked_flags
def pilot_mp_loss(die: int, *, riding_mecha: bool = True) -> MpLoss:
    """The pilot's MP loss for one combat turn, from the 1D6 rolled (004 §3-4-1, line 21).

    Only while riding a mecha; on foot nothing is lost (the loss is 0).
    """
    checks.whole(die, "the 1D6 of the MP drain", minimum=1, maximum=6)
    if not riding_mecha:
        return MpLoss(die, 0, 0, steps=("not riding a mecha: no MP drain",))
    raw = die - 3
    loss = max(raw, PILOT_MP_MINIMUM_LOSS)
    steps = [f"1D6-3 = {die}-3 = {raw}"]
    if raw < PILOT_MP_MINIMUM_LOSS:
        steps.append(f"below the minimum: lose {PILOT_MP_MINIMUM_LOSS}")
    else:
        steps.append(f"lose {loss}")
    return MpLoss(die, raw, loss, steps=tuple(steps))


def pilot_mp_loss_distribution() -> Distribution:
    """Exact distribution of one turn's pilot MP loss (004 §3-4-1, line 21): 1 with 4/6, 2 with 1/6, 3 with 1/6."""
    return distribution(PILOT_MP_LOSS).map(lambda v: max(v, PILOT_MP_MINIMUM_LOSS))


def drain_distribution(drain: str) -> Distribution:
    """The per-turn loss of a drain (004 §3-4-1, line 21; §3-4-3-1 for the modes): ``"pilot"`` (1D6-3, at least 1) or a dice expression (``"2D6"``, ``"2"``)."""
    if drain == "pilot":
        return pilot_mp_loss_distribution()
    return distribution(drain)


@dataclass(frozen=True)
class Endurance(Worked):
    """How many combat turns a starting MP lasts under a per-turn loss."""

    mp: int
    drain: str
    turns: Distribution

    def mean(self) -> Fraction:
        return self.turns.mean()

    def at_least(self, turns: int) -> Fraction:
        """Chance that the MP lasts at least ``turns`` turns before running out."""
        return self.turns.at_least(turns)


#: the largest starting MP ``endurance`` computes: the work grows with its square (10,000 MP
#: took over 20 s). A bound on the work, not a rule of the text.
MAX_ENDURANCE_MP = 500


def endurance(mp: int, drain: str = "pilot") -> Endurance:
    """Distribution of the number of combat turns until ``mp`` runs out, exactly (004 §3-4-1, line 21).

    A turn ends, the loss is taken; the MP has run out at the first turn end at which it is 0 or
    less (a ruling: what happens at 0 MP is not in the text). ``drain``: ``"pilot"`` for the pilot's
    1D6-3 (at least 1), or a locomotion mode's mecha-MP cost as dice (``"2"``, ``"1D6"``, ``"2D6"``,
    ``"3D6"``). Computed exactly from the chain of MP lost so far: P(T > n) = P(loss after n turns < mp).
    """
    checks.whole(mp, "starting MP", minimum=0, maximum=MAX_ENDURANCE_MP)
    # a calculator asks again for inputs it has seen: each distinct (mp, drain) is computed once
    try:
        hash(drain)
    except TypeError:  # an unhashable drain is refused by drain_distribution, with its message
        return _endurance.__wrapped__(mp, drain)
    return _endurance(mp, drain)


@lru_cache(maxsize=256)
def _endurance(mp: int, drain: str) -> Endurance:
    loss = drain_distribution(drain)
    if min(loss.support) < 1:
        raise ValueError(f"drain {drain!r} can lose less than 1 MP a turn: MP would never run out")
    turns = _turns(mp, tuple(loss.items()))
    steps = (
        f"per-turn loss {drain}: " + ", ".join(f"{v} ({p})" for v, p in loss.items()),
        f"{mp} MP lasts {min(turns.support)} to {max(turns.support)} turns, mean {float(turns.mean()):.2f}",
    )
    return Endurance(mp, drain, turns, steps=steps)


def _turns(mp: int, loss: tuple[tuple[int, Fraction], ...]) -> Distribution:
    """Exact turns until ``mp`` is used up, in integers: P(T > n) = P(S_n < mp), S_n the loss after n turns.

    Counts are over D**n (D the common denominator of the loss probabilities). For every total loss
    s below ``mp``, the counts of reaching exactly s in each number of turns n are the coefficients of
    a polynomial in n, packed into one integer (a slot of ``width`` bits per n), so each s costs a few
    whole-number operations: h(s) = (sum of weight(v) * h(s - v)) shifted one slot (one turn more).
    The sum of h(s) over s < mp holds P(S_n < mp) * D**n in slot n.
    """
    if mp <= 0:
        return Distribution({0: Fraction(1)})
    denominator = math.lcm(*(p.denominator for _, p in loss))
    weights = [(value, int(p * denominator)) for value, p in loss]
    most = (mp - 1) // min(value for value, _ in weights)  # S_n >= n * smallest loss: no more turns below mp
    width = (denominator ** most).bit_length() + 1  # a slot holds any count over D**n, n <= most
    reached = [1] + [0] * (mp - 1)  # reached[s]: the packed counts of a total loss of exactly s
    for s in range(1, mp):
        packed = 0
        for value, weight in weights:
            if value <= s:  # a weight of 1 (most dice) needs no product of these long integers
                packed += reached[s - value] if weight == 1 else weight * reached[s - value]
        reached[s] = packed << width
    below = sum(reached)
    mask = (1 << width) - 1
    alive = []  # numerators of P(T > n) over D**n, until it is 0
    while below:
        alive.append(below & mask)
        below >>= width
    alive.append(0)
    turns = {}
    scale = 1
    for n in range(1, len(alive)):
        ended = alive[n - 1] * denominator - alive[n]
        scale *= denominator
        if ended:
            turns[n] = Fraction(ended, scale)
    return Distribution(turns)


__all__ = [
    "PILOT_MP_LOSS", "PILOT_MP_MINIMUM_LOSS", "Endurance", "MpLoss", "drain_distribution", "endurance",
    "pilot_mp_loss", "pilot_mp_loss_distribution",
]
