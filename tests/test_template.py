"""A fifth system from ``templates/system/`` (``tools/new_system.py``), in a throwaway copy of the
repository: it imports, the site's navigation, home page and source pages take it up without an
edit, its notebooks' code runs and their cells are tagged, its code is ruff-clean, and its own tests
and the catalogue tests pass."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import new_system  # noqa: E402

SOURCE = "005_0123456789abcdef.txt"
#: what the copy must show, run there by its own Python so that its rules_lib is the one imported
PROBE = """
import json, sys
from pathlib import Path
sys.path.insert(0, "tools")
import rules_lib, rules_lib.mecha_x
from rules_lib import systems
assert Path(rules_lib.__file__).resolve().parents[1] == Path.cwd().resolve(), rules_lib.__file__
import citations, mkdocs_hooks
nav = mkdocs_hooks.chapter_nav()
chapter = [item["Mecha X"] for item in nav if "Mecha X" in item]
home = mkdocs_hooks.systems_table()
for notebook in sorted(Path("book/mecha-x").glob("*.ipynb")):
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            exec("".join(cell["source"]), {})
print(json.dumps({
    "systems": systems.names(), "chapter": chapter, "home": "| Mecha X RPG | `005` |" in home,
    "text": citations.TEXTS["005"].title, "section": citations.line_of_section("005", "1-1"),
    "glossary": "## Mecha X" in mkdocs_hooks.chapter_parts("glossary"),
}))
"""


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("repo")
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("rules_lib", "examples", "sources", "tools", "templates", "book"):
        shutil.copytree(ROOT / folder, root / folder, ignore=skip)
    (root / "tests").mkdir()
    for name in ("__init__.py", "test_catalogue.py"):
        shutil.copy(ROOT / "tests" / name, root / "tests" / name)
    for name in ("conftest.py", "pyproject.toml"):
        shutil.copy(ROOT / name, root / name)
    (root / "sources" / SOURCE).write_text("Mecha X 戦闘ルール\n１−１．戦闘\n行動は…\n", encoding="utf-8")
    filled = new_system.values("mecha-x", SOURCE, "Mecha X RPG", "Mecha X", "mx-", "a hex-map mecha wargame")
    written = new_system.create(root, filled)
    assert {p.relative_to(root).as_posix() for p in written} >= {
        "rules_lib/mecha_x/__init__.py", "rules_lib/mecha_x/rules.py", "rules_lib/mecha_x/battle.py",
        "book/mecha-x/01-combat.ipynb", "book/mecha-x/02-first-battle.ipynb", "book/mecha-x/03-calculators.ipynb",
        "book/mecha-x/_glossary.md", "book/mecha-x/_rulings.md", "examples/005-mecha-x.toml",
        "tests/mecha_x/test_rules.py"}
    return root


def _run(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("RULES_LIB_EXAMPLES", None)
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=300)


def test_the_new_system_imports_and_the_site_takes_it_up(copy):
    done = _run(copy, "-c", PROBE)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown["systems"][-1] == "mecha-x"
    assert shown["chapter"] == [["mecha-x/01-combat.ipynb", "mecha-x/02-first-battle.ipynb",
                                 "mecha-x/03-calculators.ipynb"]]
    assert shown["home"] and shown["glossary"]
    assert shown["text"] == "Mecha X RPG, combat rules" and shown["section"] == 2


def test_the_new_system_passes_its_own_checks_and_the_catalogue_tests(copy):
    # the traced run re-traces the whole book (a new system has no reproduced entry yet): the main
    # run's own trace test covers it, so the copy leaves it out (a minute of make test)
    done = _run(copy, "-m", "pytest", "-q", "tests/mecha_x", "tests/test_catalogue.py",
                "--deselect", "tests/test_catalogue.py::test_every_reproduced_value_is_changed_by_a_wrong_rule")
    assert done.returncode == 0, done.stdout[-3000:]
    assert "mecha-x: 0 reproduced" in done.stdout
    tags = _run(copy, "tools/tag_cells.py", "--check")
    assert tags.returncode == 0, tags.stdout + tags.stderr
    lint = subprocess.run([str(Path(sys.executable).parent / "ruff"), "check", "--no-cache", "rules_lib/mecha_x",
                           "tests/mecha_x", "tools/new_system.py"], cwd=copy, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout


def test_the_template_refuses_to_overwrite_and_names_a_missing_source(copy, tmp_path):
    filled = new_system.values("mecha-x", SOURCE, "Mecha X RPG", "Mecha X", "mx-", "k")
    with pytest.raises(ValueError, match="exists already"):
        new_system.create(copy, filled)
    with pytest.raises(ValueError, match=f"sources/{SOURCE} does not exist: add the source text first"):
        new_system.create(tmp_path, filled)
    with pytest.raises(ValueError, match="system 'Mecha X'"):
        new_system.values("Mecha X", SOURCE, "n", "s", "mx-", "k")
