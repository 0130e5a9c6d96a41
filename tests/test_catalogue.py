"""The worked-example catalogue: well-formed, every checked entry checked by a notebook, and
the checks able to fail.

nbval executes those notebooks: a computed value that differs from what the text
states makes ``check_example`` raise there, which fails the run. The tests below make sure such a
value comes from a rule: the notebooks are run here with their calls traced
(``tools/check_trace.py``), and every value of a ``reproduced`` entry that the entry does not list
as a fact must change under some wrong version of the rule code it reached. Cheaper tests read the
check calls without running them: no literal is passed, and a constant a check reads is one the
rules read.
"""

import ast
import re
import sys
import tomllib
from pathlib import Path

import pytest

from rules_lib.catalogue import (
    CHECKED_STATUSES,
    STATUSES,
    Example,
    ExampleMismatch,
    catalogue_dir,
    check_example,
    checked_in_notebooks,
    load_catalogue,
)
from rules_lib.systems import systems

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from check_calls import check_calls, names_read_by_rule_functions  # noqa: E402

#: the registry, from the catalogue files' headers (rules_lib.systems)
SYSTEMS = {system.system: system for system in systems()}
CALLS = check_calls(ROOT / "book")
#: bounds of the traced run (tools/check_trace.py --check): about 40 s and 150 MB when nothing is wrong
TRACE_SECONDS = 900
TRACE_MEMORY_BYTES = 4 * 2**30


def _ruling_titles(system: str) -> set[str]:
    text = (ROOT / "book" / system / "_rulings.md").read_text(encoding="utf-8")
    return {line[4:].strip() for line in text.splitlines() if line.startswith("### ")}


def test_every_entry_belongs_to_a_registered_system():
    named = {e.system for e in load_catalogue().values()}
    assert named <= set(SYSTEMS)


def test_every_registered_system_has_its_package_chapter_and_source_text():
    for system in systems():
        assert (ROOT / "rules_lib" / system.package / "__init__.py").exists(), system
        assert sorted((ROOT / "book" / system.book_folder).glob("[0-9]*.ipynb")), system
        assert (ROOT / "sources" / system.source_file).exists(), system
        assert (ROOT / "book" / system.book_folder / "_rulings.md").exists(), system


@pytest.mark.parametrize("example", load_catalogue().values(), ids=lambda e: e.id)
def test_entry_is_well_formed(example):
    system = SYSTEMS[example.system]
    assert example.id.startswith(system.id_prefix)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", example.id)
    assert example.source.startswith(system.code + " §")
    assert example.status in STATUSES
    assert example.title and example.summary and example.expected
    titles = {title for named in example.readings.values() for title in named}
    unknown = sorted(titles - _ruling_titles(example.system))
    assert not unknown, f"readings name rulings that book/{example.system}/_rulings.md lacks: {unknown}"


def test_every_file_names_its_source_text():
    for path in catalogue_dir().glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert path.name.startswith(data["source_file"][:3])
        assert re.fullmatch(r"\d{3}_[0-9a-f]{16}\.txt", data["source_file"])


def test_checked_examples_are_checked_by_a_notebook_and_pending_ones_are_not():
    checked = checked_in_notebooks(ROOT / "book")
    catalogue = load_catalogue()
    unknown = sorted(set(checked) - set(catalogue))
    assert not unknown, f"notebooks check examples that are not in the catalogue: {unknown}"
    unchecked = sorted(i for i, e in catalogue.items() if e.status in CHECKED_STATUSES and i not in checked)
    assert not unchecked, f"marked {CHECKED_STATUSES} but no notebook checks them: {unchecked}"
    stale = sorted(i for i, e in catalogue.items() if e.status == "pending" and i in checked)
    assert not stale, f"checked by a notebook but still marked pending: {stale}"


def test_every_reproduced_value_is_changed_by_a_wrong_rule():
    """A ✓ is earned by behaviour: each value of a reproduced entry, unless the entry lists it in its
    ``facts``, comes from rule code that decides it. The notebooks run with their calls traced, and
    for each value some small wrong version of a rule function it reached (a comparison, a number,
    a refusal, ...) must make the check pass a different value (``tools/check_trace.py --check``).

    It runs in a fresh interpreter, bounded in time and memory: a wrong rule can loop or allocate
    without end, and no state of the other tests may change what the book computes."""
    import resource
    import subprocess

    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (TRACE_MEMORY_BYTES, TRACE_MEMORY_BYTES))

    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "check_trace.py"), "--check"], cwd=ROOT, capture_output=True,
        text=True, timeout=TRACE_SECONDS, preexec_fn=bounded,
    )
    assert done.returncode == 0, (
        "values of reproduced entries that no wrong rule changes are read back (a constant, a table cell, a "
        "literal field, the input), not computed: compute them with a rule, or list them in the entry's facts "
        f"(python tools/check_trace.py ID shows what each reached):\n{done.stdout[-6000:]}{done.stderr[-3000:]}"
    )


def test_a_reproduced_entry_states_a_value_that_is_not_a_fact():
    only_facts = sorted(i for i, e in load_catalogue().items()
                        if e.status == "reproduced" and set(e.expected) <= set(e.facts))
    assert not only_facts, f"every value is a fact: make these entries status 'fact': {only_facts}"


def test_no_check_passes_a_literal():
    literals = sorted(
        f"{call.example_id}: {key}"
        for call in CALLS
        for key, kind in call.kinds.items()
        if kind == "literal"
    )
    assert not literals, f"these checks pass the stated value as a literal, so they cannot fail: {literals}"


def test_constants_a_reproduced_check_reads_are_read_by_a_rule_function():
    """One source per number: a constant checked as a reproduced value is the one a rule uses.

    A value the text states as a plain fact (no rule computes it) is named in the entry's
    ``facts`` (or the entry is a ``fact``), and the ✓ table says so.
    """
    catalogue = load_catalogue()
    read = names_read_by_rule_functions(ROOT / "rules_lib")
    unread = sorted(
        f"{call.example_id}: {key} reads {name}"
        for call in CALLS
        if catalogue[call.example_id].status == "reproduced"
        for key, names in call.constants.items()
        if key not in catalogue[call.example_id].facts
        for name in names
        if name not in read
    )
    assert not unread, f"checks read constants that no rule function reads (list them in facts): {unread}"


def test_no_rule_function_returns_a_literal_true_or_false():
    literal = []
    for path in sorted((ROOT / "rules_lib").rglob("*.py")):
        if path.name == "browser.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
                if (
                    len(body) == 1
                    and isinstance(body[0], ast.Return)
                    and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, bool)
                ):
                    literal.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert not literal, f"a rule is a computation the code consults, or a stated fact; not `return True`: {literal}"


def test_check_example_fails_on_a_different_value():
    example = load_catalogue()["wis6-levels-ability-32"]
    values = dict(example.expected)
    result = check_example(example.id, **values)
    assert result.line() == "✓ matches the text, 001 §3-1"
    assert "level_2_max_roll = 16: as the text states" in repr(result)
    assert 'id="example-wis6-levels-ability-32"' in result._repr_html_()
    values["level_2_max_roll"] = 17
    with pytest.raises(ExampleMismatch, match="computed 17, the text states 16"):
        check_example(example.id, **values)
    with pytest.raises(ExampleMismatch, match="missing"):
        check_example(example.id, level_1_max_roll=32)
    with pytest.raises(KeyError, match="no worked example"):
        check_example("gs-no-such-example")


def _entry(**changes) -> Example:
    fields = dict(id="x", title="t", source="001 §1", status="reproduced", summary="s", system="wis6", file="f")
    fields["expected"] = {"a": 1, "b": 2}
    return Example(**{**fields, **changes})


@pytest.mark.parametrize(
    ("changes", "line", "basis_of_b"),
    [
        ({}, "✓ matches the text, 001 §1", "as the text states"),
        ({"inputs": "book"}, "✓ matches the text's rule for the book's inputs, 001 §1", "the text's rule"),
        ({"readings": {"b": ("R",)}}, "✓ matches the text, 001 §1; 1 of 2 values by the book's reading", "ruling: R"),
        ({"readings": {"a": ("Q",), "b": ("R", "S")}}, "✓ consistent with the text under the book's reading, 001 §1", "rulings: R; S"),
        ({"instances": ("b",)}, "✓ matches the text, 001 §1; 1 of 2 values an instance the book chose", "an instance the book chose"),
        ({"status": "fact"}, "✓ rule fact, as the text states, 001 §1", "a rule fact"),
        ({"status": "consistent", "why_consistent": "W"}, "✓ consistent with the text under the book's reading", "as"),
    ],
)
def test_the_check_line_says_what_each_value_rests_on(changes, line, basis_of_b):
    from rules_lib.catalogue import CheckResult

    result = CheckResult(_entry(**changes), {"a": 1, "b": 2})
    assert result.line().startswith(line)
    assert basis_of_b in dict((k, basis) for k, _, basis in result.rows())["b"]
    html = result._repr_html_()
    assert html.startswith('<details class="example-check" id="example-x"') and "<summary" in html


def test_a_malformed_entry_is_refused(tmp_path):
    from rules_lib.catalogue import _example

    entry = {"id": "x", "title": "t", "source": "001 §1", "summary": "s", "expected": {"a": 1}}
    with pytest.raises(ValueError, match="status 'done' is not one of"):
        _example({**entry, "status": "done"}, "wis6", "f")
    with pytest.raises(ValueError, match="why_consistent is required"):
        _example({**entry, "status": "consistent"}, "wis6", "f")
    with pytest.raises(ValueError, match="readings name values that are not expected"):
        _example({**entry, "status": "reproduced", "readings": {"b": "R"}}, "wis6", "f")
    with pytest.raises(ValueError, match="instances name values that are not expected"):
        _example({**entry, "status": "reproduced", "instances": ["b"]}, "wis6", "f")
