"""The two tests of a table of refusal cases (tests/<package>/test_refusals.py): each refused case
raises, and each accepted case (the nearest input the rule allows) does not."""

from collections.abc import Callable

import pytest

Cases = dict[str, Callable[[], object]]


def refusal_tests(refused: Cases, accepted: Cases, error: type[Exception] = ValueError):
    @pytest.mark.parametrize("case", refused, ids=list(refused))
    def test_the_rule_refuses(case):
        with pytest.raises(error):
            refused[case]()

    @pytest.mark.parametrize("case", accepted, ids=list(accepted))
    def test_the_rule_accepts_the_nearest_allowed_case(case):
        accepted[case]()

    return test_the_rule_refuses, test_the_rule_accepts_the_nearest_allowed_case
