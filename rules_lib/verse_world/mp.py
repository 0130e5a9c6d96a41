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
    #: the mean of ``turns``, summed in whole numbers as they were counted (`_mean_turns`)
    mean_turns: Fraction

    def mean(self) -> Fraction:
        return self.mean_turns

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
    denominator, alive = _alive(mp, tuple(loss.items()))
    turns, mean = _turns_from(denominator, alive), _mean_turns(denominator, alive)
    steps = (
        f"per-turn loss {drain}: " + ", ".join(f"{v} ({p})" for v, p in loss.items()),
        f"{mp} MP lasts {min(turns.support)} to {max(turns.support)} turns, mean {float(mean):.2f}",
    )
    return Endurance(mp, drain, turns, mean, steps=steps)


#: the bound's r is a multiple of 1 / 2**R_BITS (finer would tighten a slot by less than a bit at 200 MP)
R_BITS = 10


def _slot_width(mp: int, weights: list[tuple[int, int]]) -> int:
    """Bits a slot of `_turns` needs: more than any count of reaching a loss below ``mp`` in n turns.

    With W(z) = sum of weight * z**value, the count of reaching s in n turns is the coefficient of
    z**s in W(z)**n, at most W(r)**n / r**s for any r > 0 (the coefficients are not negative). For
    an r with W(r) <= 1 that is at most r**-(mp - 1) for every n, and a slot of the sum over s < mp
    holds at most mp times that. The bound D**n (every sequence of n losses) needs 2-3 times the bits.
    """
    def at_most_one(numerator: int) -> bool:  # W(numerator / 2**R_BITS) <= 1, in integers
        return sum(weight * numerator ** value << (R_BITS * (top - value)) for value, weight in weights) <= 1 << (R_BITS * top)

    top = max(value for value, _ in weights)
    if not at_most_one(1):  # a loss of 1 counted more than 2**R_BITS ways: the bound of every sequence
        most = (mp - 1) // min(value for value, _ in weights)  # S_n >= n * smallest loss
        return _whole_bytes((sum(weight for _, weight in weights) ** most).bit_length() + 1)
    low, high = 1, 1 << R_BITS  # the largest r = low / 2**R_BITS with W(r) <= 1
    if at_most_one(high):
        low = high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if at_most_one(middle) else (low, middle)
    most_count = -(-(1 << (R_BITS * (mp - 1))) // low ** (mp - 1))  # ceiling of r**-(mp - 1)
    return _whole_bytes((mp * most_count).bit_length() + 1)


def _whole_bytes(bits: int) -> int:
    return -(-bits // 8) * 8


#: the most like dice `_sparse_form` looks for in a loss (each one a factor 1 - z of Q)
SPARSE_FORM_MOST_DICE = 8


def _times_one_minus_z(terms: dict[int, int]) -> dict[int, int]:
    product = dict(terms)
    for power, c in terms.items():
        product[power + 1] = product.get(power + 1, 0) - c
    return {power: c for power, c in product.items() if c}


def _sparse_form(weights: list[tuple[int, int]]) -> tuple[int, list[tuple[int, int]]]:
    """The j and P = W * (1 - z)**j, as (power, coefficient) terms, that leave the fewest terms and sums.

    The counts of a sum of k like dice are W = (z**a * (1 - z**m) / (1 - z))**k: times (1 - z)**k
    they are k + 1 terms. A loss that is no such sum keeps j = 0 (P = W).
    """
    w = {value: weight for value, weight in weights}
    best = (len(w), 0, w)  # (terms of P + running sums, j, P)
    for j in range(1, SPARSE_FORM_MOST_DICE + 1):
        if j >= best[0]:  # the j running sums alone would cost more than the best
            break
        w = _times_one_minus_z(w)
        if len(w) + j < best[0]:
            best = (len(w) + j, j, w)
    _, j, w = best
    return j, sorted(w.items())


def _turns(mp: int, loss: tuple[tuple[int, Fraction], ...]) -> Distribution:
    """Exact turns until ``mp`` is used up: P(T > n) = P(S_n < mp), S_n the loss after n turns (`_alive`)."""
    return _turns_from(*_alive(mp, loss))


def _alive(mp: int, loss: tuple[tuple[int, Fraction], ...]) -> tuple[int, list[int]]:
    """D and the numerators of P(T > n) over D**n, n = 0, 1, ... until the first 0, in integers.

    Counts are over D**n (D the common denominator of the loss probabilities). For every total loss
    s below ``mp``, the counts in each number of turns n are the coefficients of a polynomial in n,
    packed into one integer (a slot of ``width`` bits per n), so each s costs a few whole-number
    operations. With the weights as W(z) and x one slot (one turn more), the counts of reaching
    exactly s are h(s) in H(z) = 1 + x W(z) H(z), and P(S_n < mp) * D**n is slot n of f(mp - 1),
    f(s) the sum of h(t) for t <= s. `_sparse_form` writes W as P / (1 - z)**j with few terms (a sum
    of k like d6: k + 1 terms instead of 5k + 1), so H = 1 + x P G with G = H / (1 - z)**j:
    h(s) is x times P's few terms of g, and g is the j-th running sum of h, whose first is f itself.
    """
    if mp <= 0:
        return 1, [0]  # over at once: P(T > 0) = 0
    denominator = math.lcm(*(p.denominator for _, p in loss))
    weights = [(value, int(p * denominator)) for value, p in loss]
    width = _slot_width(mp, weights)
    j, p = _sparse_form(weights)
    # most dice have coefficients of 1 or -1, and a factor of 2**k is a shift: no product of long
    # integers. The first term added seeds the sum, a factor of 1 first (taken as it is, not copied).
    signed_shifts = [(power, abs(c).bit_length() - 1, c) for power, c in p if abs(c) & (abs(c) - 1) == 0]
    added = sorted(((power, bits) for power, bits, c in signed_shifts if c > 0), key=lambda term: term[1] > 0)
    subtracted = [(power, bits) for power, bits, c in signed_shifts if c < 0]
    multiplied = [(power, c) for power, c in p if abs(c) & (abs(c) - 1)]
    seed = added.pop(0) if added else None
    pad = p[-1][0]  # g[pad + s]: the packed g(s); zeros for s < 0
    g = [0] * pad + [1]  # h(0) = 1 (no turn, no loss), and so every running sum of it
    sums = [1] * max(j, 1)  # the running sums' last values: f first, g last; f alone for j = 0
    for i in range(pad + 1, pad + mp):
        if seed is None:
            term = 0
        else:
            term = g[i - seed[0]] << seed[1] if seed[1] else g[i - seed[0]]
        for power, bits in added:
            term += g[i - power] << bits if bits else g[i - power]
        for power, bits in subtracted:
            term -= g[i - power] << bits if bits else g[i - power]
        for power, c in multiplied:
            term += c * g[i - power]
        h = term << width
        term = sums[0] = sums[0] + h  # f(s)
        for k in range(1, j):
            term = sums[k] = sums[k] + term
        g.append(term if j else h)
    below = sums[0]  # f(mp - 1)
    size = width // 8  # bytes a slot (`_slot_width` gives whole bytes): the slots are read in one pass
    packed_bytes = below.to_bytes(-(-below.bit_length() // 8), "little")
    # numerators of P(T > n) over D**n, until it is 0
    alive = [int.from_bytes(packed_bytes[i:i + size], "little") for i in range(0, len(packed_bytes), size)]
    alive.append(0)
    return denominator, alive


def _turns_from(denominator: int, alive: list[int]) -> Distribution:
    """P(T = n) = P(T > n - 1) - P(T > n), from the numerators of `_alive`."""
    turns = {}
    scale = 1
    for n in range(1, len(alive)):
        ended = alive[n - 1] * denominator - alive[n]
        scale *= denominator
        if ended:
            turns[n] = Fraction(ended, scale)
    return Distribution(turns or {0: Fraction(1)})


def _mean_turns(denominator: int, alive: list[int]) -> Fraction:
    """E[T] = sum over n >= 0 of P(T > n), over one denominator D**(N - 1) (Horner's rule): one fraction
    at the end rather than one a turn."""
    total = 0
    for numerator in alive[:-1]:  # the last is 0
        total = total * denominator + numerator
    return Fraction(total, denominator ** max(len(alive) - 2, 0))


__all__ = [
    "PILOT_MP_LOSS", "PILOT_MP_MINIMUM_LOSS", "Endurance", "MpLoss", "drain_distribution", "endurance",
    "pilot_mp_loss", "pilot_mp_loss_distribution",
]
