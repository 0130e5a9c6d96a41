"""Project-wide pytest hooks: the run ends by stating how much of the catalogue is reproduced."""

from collections import Counter


def pytest_terminal_summary(terminalreporter):
    from rules_lib.catalogue import load_catalogue

    examples = load_catalogue().values()
    by_status = Counter(e.status for e in examples)
    terminalreporter.write_sep("-", "worked-example catalogue")
    for system in sorted({e.system for e in examples}):
        counts = Counter(e.status for e in examples if e.system == system)
        terminalreporter.write_line(
            f"{system}: {counts['reproduced']} reproduced, {counts['pending']} pending"
        )
    terminalreporter.write_line(
        f"all texts: {by_status['reproduced']} reproduced, {by_status['pending']} pending "
        f"(of {sum(by_status.values())})"
    )
