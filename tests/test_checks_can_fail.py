"""A wrong rule turns a notebook check red (issue 31: "tests of the tests").

Each system's folder of tests holds ``wrong_rules.toml`` (``tests/wrong_rules.toml`` for the dice and
the geometry): hand-written wrong versions of its rules, one text of a module replaced by another: a
constant, a comparison, an off-by-one, a dropped clamp, swapped branches, a removed refusal. Each is
applied on its own, in a forked child that imports the changed module instead of the real one
(``tools/mutation.py``), and the chapters' notebook check cells run there: at least one
``check_example`` must fail, or a cell leading to one raise, as it would under nbval. The unchanged
library passes every check. ``make mutation`` does the same for every small change of the rule modules.
"""

import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from mutants import source_patch  # noqa: E402
from mutation import checks_of, in_child  # noqa: E402

#: every kind a system's list must have at least one of (``other`` is allowed too)
KINDS = ("constant", "comparison", "off-by-one", "clamp", "branches", "refusal")
FILES = sorted(ROOT.glob("tests/**/wrong_rules.toml"))


def _lists() -> dict[Path, dict]:
    return {path: tomllib.loads(path.read_text(encoding="utf-8")) for path in FILES}


def _cases():
    for path, data in _lists().items():
        for number, rule in enumerate(data.get("wrong_rule", []), 1):
            label = f"{path.parent.name}-{number}-{rule['kind']}"
            yield pytest.param(tuple(data["chapters"]), rule, id=label)


def _notebooks(chapters: tuple[str, ...]) -> dict[Path, int]:
    """Each notebook of the chapters with a check, up to its last check cell."""
    last: dict[Path, int] = {}
    for chapter in chapters:
        for check in checks_of(ROOT / "book" / chapter):
            last[check.notebook] = max(last.get(check.notebook, 0), check.cell)
    return last


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


@pytest.mark.parametrize("chapters", sorted({tuple(d["chapters"]) for d in _lists().values()}))
def test_the_unchanged_library_passes_every_check(chapters):
    result = in_child({"mutant": None, "notebooks": _notebooks(chapters)})
    assert result.get("failed") == [], result


@pytest.mark.parametrize(("chapters", "rule"), list(_cases()))
def test_a_wrong_rule_fails_a_notebook_check(chapters, rule):
    path = ROOT / rule["module"]
    code = source_patch(path, rule["old"], rule["new"])
    result = in_child({"mutant": (_module_name(path), code, path), "notebooks": _notebooks(chapters)})
    failed = result.get("failed")
    assert failed is None or failed, (
        f"{rule['module']}: {rule['old']!r} -> {rule['new']!r} ({rule['why']}) passes every check of "
        f"{', '.join(chapters)}"
    )


def test_every_list_names_a_kind_and_each_system_has_every_kind():
    for path, data in _lists().items():
        rules = data.get("wrong_rule", [])
        unknown = sorted({r["kind"] for r in rules} - {*KINDS, "other"})
        assert not unknown, f"{path}: unknown kinds {unknown}: allowed are {KINDS} and 'other'"
        assert all(r.get("why") for r in rules), f"{path}: every wrong rule says which rule of the text it breaks"
        missing = sorted(set(KINDS) - {r["kind"] for r in rules})
        assert not missing, f"{path}: no wrong rule of the kinds {missing}"
