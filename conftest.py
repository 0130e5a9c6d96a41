"""Project-wide pytest hooks: the run ends by stating how much of the catalogue the book checks."""

import os
import sys
from collections import Counter

from hypothesis import settings

# No test is timed (speed goals live in benchmarks/): hypothesis' per-example deadline would make a
# property test fail on a busy machine, so it is off for every test.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")

# The library speaks English in the tests, and so do the notebooks' kernels nbval starts (they inherit
# this environment), whatever the machine's locale: the stored outputs are English (rules_lib.messages).
# A test of another language sets it itself.
os.environ["RULES_LIB_LANG"] = "en"


def pytest_terminal_summary(terminalreporter):
    sweep = sys.modules.get("tests.hostile.test_public_api_sweep")
    if sweep is not None and sweep.summary():
        terminalreporter.write_sep("-", "hostile sweep of the public API")
        terminalreporter.write_line(sweep.summary())
    from rules_lib.catalogue import STATUSES, load_catalogue
    from rules_lib.systems import systems

    examples = load_catalogue().values()
    terminalreporter.write_sep("-", "worked-example catalogue")

    def counts(rows) -> str:
        by_status = Counter(e.status for e in rows)
        return ", ".join(f"{by_status[s]} {s}" for s in (*STATUSES[1:], STATUSES[0]))

    for system in systems():
        name = system.system
        terminalreporter.write_line(f"{name}: {counts([e for e in examples if e.system == name])}")
    terminalreporter.write_line(f"all texts: {counts(examples)} (of {len(examples)})")
    terminalreporter.write_line(
        "reproduced: a rule function computes a stated value; consistent: agrees under the book's "
        "reading, not derivable from the text alone; fact: a number the text states as a rule"
    )
