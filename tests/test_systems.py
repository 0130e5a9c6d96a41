"""The system registry (``rules_lib.systems``): read from the catalogue files, read by everything
that lists the systems, and never dropping a chapter in silence."""

import shutil
import sys
from pathlib import Path

import pytest

from rules_lib import cli, sheets, systems

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import citations  # noqa: E402
import mkdocs_hooks  # noqa: E402

HEADER = """source_file = "005_0123456789abcdef.txt"
system = "mecha-x"
title = "t"
name = "Mecha X"
short_name = "Mecha X"
package = "mecha_x"
id_prefix = "mx-"
source_title = "Mecha X, combat rules"
kind = "a game"
"""


def test_the_registry_lists_the_systems_in_source_order():
    listed = [(s.code, s.system, s.package, s.id_prefix) for s in systems.systems()]
    assert listed == sorted(listed)
    assert listed[:4] == [
        ("000", "gundam-sentinel", "gundam_sentinel", "gs-"), ("001", "wis6", "wis6", "wis6-"),
        ("002", "nemesis", "nemesis", "nem-"), ("004", "verse-world", "verse_world", "vw-")]
    assert systems.get("wis6").source_file == "001_b9af664c3920e39c.txt"
    with pytest.raises(ValueError, match="no system 'wis7': the systems are gundam-sentinel, wis6"):
        systems.get("wis7")


def test_everything_that_lists_the_systems_reads_the_registry():
    names = list(systems.names())
    assert list(cli.SYSTEMS) == ["generic", *names]
    assert list(sheets.SYSTEMS) == names
    assert list(mkdocs_hooks.CHAPTERS) == [*mkdocs_hooks.GUIDES, *names]
    assert [text.chapter for text in citations.TEXTS.values()] == names
    assert set(citations.PACKAGE_TEXT) == {s.package for s in systems.systems()}
    home = mkdocs_hooks.systems_table()
    for system in systems.systems():
        assert f"| {system.name} | `{system.code}` |" in home and f"]({system.system}/" in home


def test_a_header_without_a_field_is_refused_naming_it(tmp_path):
    (tmp_path / "005-mecha-x.toml").write_text(HEADER.replace('id_prefix = "mx-"\n', ""), encoding="utf-8")
    with pytest.raises(ValueError, match="005-mecha-x.toml: the registry header lacks id_prefix"):
        systems.systems(tmp_path)
    (tmp_path / "005-mecha-x.toml").write_text(HEADER.replace('"mecha_x"', '"Mecha-X"'), encoding="utf-8")
    with pytest.raises(ValueError, match="package 'Mecha-X' is not a lower-case Python module name"):
        systems.systems(tmp_path)


def test_two_files_naming_one_system_are_refused(tmp_path):
    (tmp_path / "005-mecha-x.toml").write_text(HEADER, encoding="utf-8")
    (tmp_path / "006-mecha-y.toml").write_text(HEADER.replace("005_", "006_"), encoding="utf-8")
    with pytest.raises(ValueError, match="two catalogue files name the same system: \\['mecha-x'\\]"):
        systems.systems(tmp_path)


def test_a_chapter_no_catalogue_names_fails_the_navigation_instead_of_vanishing(tmp_path):
    book = tmp_path / "book"
    for folder in ("dice", *systems.names(), "mecha-x"):
        (book / folder).mkdir(parents=True)
        (book / folder / "01-first.ipynb").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="book/mecha-x/ has notebooks but no catalogue file names it"):
        mkdocs_hooks.chapter_nav(book)
    (tmp_path / "examples").mkdir()
    for system in systems.systems():
        shutil.copy(ROOT / "examples" / system.catalogue, tmp_path / "examples")
    (tmp_path / "examples" / "005-mecha-x.toml").write_text(HEADER, encoding="utf-8")
    nav = mkdocs_hooks.chapter_nav(book, systems.systems(tmp_path / "examples"))
    assert {"Mecha X": ["mecha-x/01-first.ipynb"]} in nav


def test_a_registered_system_without_a_chapter_fails_the_navigation(tmp_path):
    book = tmp_path / "book"
    for folder in ("dice", *systems.names()[1:]):
        (book / folder).mkdir(parents=True)
        (book / folder / "01-first.ipynb").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match="registry names the system 'gundam-sentinel', but book/gundam-sentinel/"):
        mkdocs_hooks.chapter_nav(book)
