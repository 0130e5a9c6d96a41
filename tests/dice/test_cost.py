"""The exact-odds price list (rules_lib.dice.cost), worked out by hand from its formulas.

A d``n`` roll of ``k`` dice has a table of ``span + 1`` entries and counts of at most
``ceil(k log2 n)`` bits (``1 + bits // 60`` machine words); its ``steps`` are
``2 * length * words * k.bit_length()``; a table costs ``length * (28 + 8 * words)`` bytes.
A sum visits ``a * b * words`` pairs when one side has at most 24 entries, else
``(a + b) * words * 4``; a product always visits pairs; a division costs 4 per run of equal
quotient (``len(a) // |y| + 1`` for each divisor ``y``); a comparison ``(a + b) * words``.
"""

import pytest

from rules_lib.dice import DiceLimitError, odds, parse
from rules_lib.dice import cost as cost_module
from rules_lib.dice.cost import MAX_EXACT_BYTES, MAX_EXACT_STEPS, Cost, check, estimate

PRICES = [
    # a number: one entry, no bits, one step, no table of its own
    ("5", Cost(1, 0, 1, 0)),
    # 1D6: 6 entries, ceil(log2 6) = 3 bits, 2 * 6 * 1 * 1 steps, 6 * 36 bytes
    ("1D6", Cost(6, 3, 12, 216)),
    # 3D6: 16 entries, ceil(3 * 2.585) = 8 bits, 3 is 2 bits long: 2 * 16 * 2 steps
    ("3D6", Cost(16, 8, 64, 576)),
    # D66 read as tens and units: 11..66 per die, 36 faces: 20 of them, ceil(20 * log2 36) = 104 bits,
    # 2 words; 220..1320 is 1,101 entries; 2 * 1101 * 2 * 5 steps; 1101 * (28 + 16) bytes
    ("20D66", Cost(1101, 104, 22020, 48444)),
    # a one-sided die has one outcome: no bits; 200 = 8 bits long: 2 * 1 * 1 * 8
    ("200D1", Cost(1, 0, 16, 36)),
    # 59 bits still fit one word, 60 need two: 2 * 60 * 1 * 6 steps against 2 * 61 * 2 * 6
    ("59D2", Cost(60, 59, 720, 2160)),
    ("60D2", Cost(61, 60, 1464, 2684)),
    # 100 bits, 2 words: 2 * 101 * 2 * 7 steps, 101 * 44 bytes
    ("100D2", Cost(101, 100, 2828, 4444)),
    # a negation walks its table once more: 12 + 6
    ("-1D6", Cost(6, 3, 18, 216)),
    # 1D4 is Cost(4, 2, 8, 144); the sum 2..10, pairs 6 * 4
    ("1D6+1D4", Cost(9, 5, 44, 324)),
    ("1D6-1D4", Cost(9, 5, 44, 324)),
    # 100D2 + 1D4: 101..204, 102 bits (2 words), pairs 101 * 4 * 2: 2828 + 8 + 808
    ("100D2+1D4", Cost(104, 102, 3644, 4576)),
    # 1D30 (5 bits, 60 steps) has more than 24 entries: (101 + 30) * 2 * 4 = 1048
    ("100D2+1D30", Cost(130, 105, 3936, 5720)),
    # 1D100 (7 bits, 200 steps) twice: the second is the same table, no new steps; (100 + 100) * 4
    ("1D100+1D100", Cost(199, 14, 1000, 7164)),
    # 1D99: 7 bits, 198 steps; (100 + 99) * 4 = 796
    ("1D100+1D99", Cost(198, 14, 1194, 7128)),
    # a product visits the pairs: 6 * 4; its values 1..24
    ("1D6*1D4", Cost(24, 5, 44, 864)),
    ("100D2*1D4", Cost(701, 102, 3644, 30844)),
    # runs: 6//1+1 + 6//2+1 + 6//3+1 + 6//4+1 = 16, times 4; bounds widened by one: -1..7
    ("1D6/1D4", Cost(9, 5, 84, 324)),
    # runs 101//1+1 + 101//2+1 + 101//3+1 = 187, times 2 words and 4; quotients 32..201
    ("100D2/1D3", Cost(170, 102, 4330, 7480)),
    # a comparison: a table of two entries, steps (6 + 4) * 1 on top of both sides
    ("1D6>=1D4", Cost(2, 5, 30, 216)),
    ("100D2>=1D4", Cost(2, 102, 3046, 4444)),
]


@pytest.mark.parametrize("expression, price", PRICES)
def test_the_price_of_each_kind_of_node(expression, price):
    assert estimate(parse(expression)) == price


def test_a_span_of_2001_values_is_priced_and_2002_refused():
    assert estimate(parse("1D1000+1D1000+1D3")).length == 2001  # 3..2003
    with pytest.raises(DiceLimitError, match="spans 2002 values; exact odds are limited to 2001"):
        odds("1D1000+1D1000+1D4")


def _priced_at(monkeypatch, steps: int, memory: int) -> None:
    monkeypatch.setattr(cost_module, "estimate", lambda parsed: Cost(1, 0, steps, memory))


def test_an_estimate_at_the_step_limit_is_allowed_and_one_more_refused(monkeypatch):
    _priced_at(monkeypatch, MAX_EXACT_STEPS, 0)
    assert check(parse("1D6")).steps == 2_000_000
    _priced_at(monkeypatch, MAX_EXACT_STEPS + 1, 0)
    with pytest.raises(DiceLimitError, match=r"about 2,000,001 steps; the limit is 2,000,000 \(about a second\)"):
        check(parse("1D6"))


def test_an_estimate_at_the_memory_limit_is_allowed_and_one_byte_more_refused(monkeypatch):
    _priced_at(monkeypatch, 1, MAX_EXACT_BYTES)
    assert check(parse("1D6")).memory == 64 * 1024 * 1024
    _priced_at(monkeypatch, 1, MAX_EXACT_BYTES + 1)
    with pytest.raises(DiceLimitError, match="about 64 MB; the limit is 64 MB: roll it instead"):
        check(parse("1D6"))
