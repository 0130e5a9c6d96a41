"""The worked-example catalogue: well-formed, and every reproduced example checked by a notebook.

nbval executes those notebooks: a computed value that differs from what the text
states makes ``check_example`` raise there, which fails the run.
"""

import re
import tomllib
from pathlib import Path

import pytest

from rules_lib.catalogue import (
    STATUSES,
    ExampleMismatch,
    catalogue_dir,
    check_example,
    checked_in_notebooks,
    load_catalogue,
)

ROOT = Path(__file__).resolve().parents[1]
PREFIXES = {"gundam-sentinel": "gs-", "wis6": "wis6-", "nemesis": "nem-", "verse-world": "vw-"}
SOURCE_FILES = {"gundam-sentinel": "000", "wis6": "001", "nemesis": "002", "verse-world": "004"}
def test_catalogue_covers_all_four_texts():
    systems = {e.system for e in load_catalogue().values()}
    assert systems == set(PREFIXES)


@pytest.mark.parametrize("example", load_catalogue().values(), ids=lambda e: e.id)
def test_entry_is_well_formed(example):
    assert example.id.startswith(PREFIXES[example.system])
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", example.id)
    assert example.source.startswith(SOURCE_FILES[example.system] + " §")
    assert example.status in STATUSES
    assert example.title and example.summary and example.expected


def test_every_file_names_its_source_text():
    for path in catalogue_dir().glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert path.name.startswith(data["source_file"][:3])
        assert re.fullmatch(r"\d{3}_[0-9a-f]{16}\.txt", data["source_file"])


def test_reproduced_examples_are_checked_by_a_notebook_and_pending_ones_are_not():
    checked = checked_in_notebooks(ROOT / "book")
    catalogue = load_catalogue()
    unknown = sorted(set(checked) - set(catalogue))
    assert not unknown, f"notebooks check examples that are not in the catalogue: {unknown}"
    unchecked = sorted(i for i, e in catalogue.items() if e.status == "reproduced" and i not in checked)
    assert not unchecked, f"marked reproduced but no notebook checks them: {unchecked}"
    stale = sorted(i for i, e in catalogue.items() if e.status == "pending" and i in checked)
    assert not stale, f"checked by a notebook but still marked pending (mark them reproduced): {stale}"


def test_check_example_fails_on_a_different_value():
    example = next(e for e in load_catalogue().values() if e.id == "wis6-levels-ability-32")
    values = dict(example.expected)
    assert "✓ wis6-levels-ability-32 (001 §3-1)" in repr(check_example(example.id, **values))
    values["level_2_max_roll"] = 17
    with pytest.raises(ExampleMismatch, match="computed 17, the text states 16"):
        check_example(example.id, **values)
    with pytest.raises(ExampleMismatch, match="missing"):
        check_example(example.id, level_1_max_roll=32)
    with pytest.raises(KeyError, match="no worked example"):
        check_example("gs-no-such-example")
