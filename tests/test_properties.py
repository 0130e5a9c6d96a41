"""Property tests: the parser never fails with anything but DiceSyntaxError; odds are exact."""

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from rules_lib.dice import MAX_EXACT_SPAN, DiceLimitError, DiceSyntaxError, distribution, parse, roll
from rules_lib.dice.parser import bounds

ALPHABET = "0123456789dD+-*/()<>=UR ×÷６Ｄ " + "x!.,abc"


@given(st.text(alphabet=ALPHABET, max_size=40) | st.text(max_size=40))
@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
def test_any_string_either_parses_or_raises_dice_syntax_error(text):
    try:
        parse(text)
    except DiceSyntaxError:
        pass


def _leaves():
    numbers = st.integers(0, 20).map(str)
    dice = st.builds(lambda n, s: f"{n}D{s}", st.integers(1, 3), st.sampled_from([2, 3, 4, 6, 8, 36]))
    return numbers | dice


def _combine(children):
    binary = st.tuples(children, st.sampled_from(["+", "-", "*"]), children).map(lambda t: f"{t[0]}{t[1]}{t[2]}")
    division = st.tuples(children, st.integers(1, 6), st.sampled_from(["", "U", "R"])).map(
        lambda t: f"({t[0]})/{t[1]}{t[2]}"
    )
    return binary | division | children.map(lambda c: f"({c})") | children.map(lambda c: f"-{c}")


EXPRESSIONS = st.recursive(_leaves(), _combine, max_leaves=4)
COMPARED = st.tuples(EXPRESSIONS, st.sampled_from([">", ">=", "<", "<=", "=", "<>"]), st.integers(-5, 40)).map(
    lambda t: f"{t[0]}{t[1]}{t[2]}"
)


@given(EXPRESSIONS | COMPARED, st.integers(0, 2**32))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_valid_expressions_have_exact_distributions_containing_their_rolls(text, seed):
    parsed = parse(text)
    try:
        dist = distribution(parsed)
    except DiceLimitError as refusal:
        # a refusal is right only for an expression too wide or too costly for exact odds
        assert f"exact odds are limited to {MAX_EXACT_SPAN + 1}" in str(refusal) or "the limit is" in str(refusal)
        assert "roll it instead" in str(refusal)
        reject()
    assert dist.total() == 1
    result = roll(parsed, seed=seed)
    if parsed.comparison is None:
        assert result.total in dist.support
        low, high = bounds(parsed.value)
        assert low <= min(dist.support) and max(dist.support) <= high
    else:
        assert result.success in dist.support
