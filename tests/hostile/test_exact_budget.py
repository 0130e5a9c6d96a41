"""Exact odds answer or refuse before any work: the cost estimate (issue 15, item 1).

Timing is shown by ``benchmarks/bench_hostile.py``; here the budget is checked through the
estimate, and the dense engine is cross-checked against brute-force enumeration.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_lib.dice import MAX_EXACT_STEPS, DiceLimitError, distribution, odds, parse
from rules_lib.dice.cost import estimate
from rules_lib.dice.enumeration import enumerate_distribution

TWELVE = "+".join(["2D1000/2D1000*0"] * 12)
TWELVE_DISTINCT = "+".join(f"2D{1000 - i}/2D{999 - i}*0" for i in range(12))


def test_the_probe_examples_answer_within_the_budget():
    assert estimate(parse("2D1000/2D1000")).steps <= MAX_EXACT_STEPS
    assert odds("2D1000/2D1000").distribution.total() == 1
    both = odds("2D1000>=2D1000")
    # ties are 1/|outcomes| weighted: P(X >= Y) = (1 + P(X = Y)) / 2 for equal X, Y
    tie = sum(p * p for _, p in distribution("2D1000").items())
    assert both.success == (1 + tie) / 2
    assert len(TWELVE) == 191
    assert distribution(TWELVE)[0] == 1


#: fifteen distinct divisions, each multiplied by 0: 194 characters, 150 dice, over the budget
HEAVY_ZERO_TERMS = "+".join(f"9D{200 - i}/D{999 - i}*0" for i in range(15))


def test_zero_factors_do_not_hide_work():
    alone = estimate(parse("9D200/D999")).steps
    assert estimate(parse("9D200/D999*0")).steps >= alone > 100_000
    assert len(HEAVY_ZERO_TERMS) <= 200
    with pytest.raises(DiceLimitError, match=r"the limit is 2,000,000 \(about a second\): roll it instead"):
        odds(HEAVY_ZERO_TERMS)
    # the twelve distinct 2D1000/2D999*0 terms of the same shape are within it, and exact
    assert distribution(TWELVE_DISTINCT)[0] == 1


@pytest.mark.parametrize("text", ["100D100", "200D66", "1D1000*1D1000", "2D1000+2D1000"])
def test_too_wide_is_refused_with_a_roll_suggested(text):
    with pytest.raises(DiceLimitError, match="exact odds are limited to 2001: roll it instead"):
        odds(text)


SMALL = st.sampled_from(["1D6", "2D4", "(1D3-2)", "-1D5", "3", "-2", "1D36", "(1D4+1)"])


@given(SMALL, st.sampled_from(["+", "-", "*", "/", "/U", "/R"]), SMALL,
       st.sampled_from(["", ">=", "<", "=", "<>", ">", "<="]), SMALL)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_dense_engine_matches_enumeration(left, op, right, comparison, other):
    suffix = op[1:]
    text = f"{left}{op[0]}{right}{suffix}" + (f"{comparison}{other}" if comparison else "")
    try:
        parsed = parse(text)
        exact = distribution(parsed)
    except DiceLimitError:
        return  # a divisor that can be 0, or a product wider than 2,001 values
    if _rolls(parsed) > 5000:
        return
    assert exact == enumerate_distribution(text)


def _rolls(parsed) -> int:
    from rules_lib.dice.enumeration import dice_sides

    total = 1
    for sides in dice_sides(parsed.root):
        total *= sides
    return total
