"""rules_lib imports in layers: its import graph, built from the modules' source, has no circle.

What counts as an edge from module A to module B (every kind that makes B run when A runs, or
that A's names would make run):

- an ``import`` or ``from ... import`` statement anywhere in A: at module level, inside a
  function (a lazy import is still a dependency), or under ``if TYPE_CHECKING`` (what readers
  and tools follow);
- the packages around B that such an import runs first (``from ..gundam_sentinel.units import
  x`` also runs ``rules_lib/gundam_sentinel/__init__.py``), except A's own packages, which run
  before A in any case;
- the modules a package offers through ``rules_lib.lazy.lazy_names`` (its ``_BATTLE`` table):
  imported when one of their names is first read.

Not counted: ``importlib.import_module`` with a computed name (``rules_lib.sheets.module`` and
``rules_lib.browser`` import the modules of a registry or of a folder by name; each loads modules
below it, and the modules' own imports are counted).

The sample units are data in :mod:`rules_lib.samples`, below both the battles and the sheets.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "rules_lib"


def _modules(root: Path = ROOT, package: str = PACKAGE) -> dict[str, tuple[Path, bool]]:
    """Every module of ``package`` by dotted name: its file and whether it is a package's ``__init__``."""
    modules = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return modules


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The module a (relative) import in ``module`` names."""
    if level == 0:
        return name or ""
    return importlib.util.resolve_name("." * level + (name or ""), module if is_package else module.rpartition(".")[0])


def _lazy_tables(tree: ast.Module) -> Iterator[ast.Dict]:
    """The dict literals a module passes to ``lazy_names`` (directly, or by the name it assigned them to)."""
    assigned = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                for t in node.targets if isinstance(t, ast.Name) and isinstance(node.value, ast.Dict)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_names" and len(node.args) == 3:
            table = node.args[2]
            table = assigned.get(table.id) if isinstance(table, ast.Name) else table
            if isinstance(table, ast.Dict):
                yield table


def _imported(module: str, path: Path, is_package: bool, modules: Mapping[str, object]) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every import of ``module``, the kinds the module docstring names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node.level, node.module)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                yield (submodule if submodule in modules else base), node.lineno
    for table in _lazy_tables(tree):
        for key in table.keys:
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                relative = key.value
                level = len(relative) - len(relative.lstrip("."))
                yield _absolute(module, is_package, level, relative.lstrip(".") or None), key.lineno


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, dict[str, int]]:
    """module -> {module of ``package`` it imports: the line of the (first) import}."""
    modules = _modules(root, package)
    graph: dict[str, dict[str, int]] = {}
    for module, (path, is_package) in modules.items():
        edges = graph.setdefault(module, {})
        for target, line in _imported(module, path, is_package, modules):
            parts = target.split(".")
            for end in range(1, len(parts) + 1):  # the target and the packages its import runs first
                runs = ".".join(parts[:end])
                own = module == runs or module.startswith(runs + ".")
                if runs in modules and not own:
                    edges.setdefault(runs, line)
    return graph


def circles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """The graph's strongly connected parts of more than one module (or a module importing itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the graph is a few hundred modules
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.append(member)
                if member == node:
                    break
            if len(part) > 1 or node in graph.get(node, {}):
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _describe(part: list[str], graph: Mapping[str, Mapping[str, int]]) -> str:
    edges = [f"  {a} -> {b} (line {line})" for a in part for b, line in graph[a].items() if b in part]
    return "\n".join([" <-> ".join(part), *edges])


def test_rules_lib_has_no_import_circle():
    graph = import_graph()
    found = circles(graph)
    assert not found, "import circles in rules_lib:\n" + "\n\n".join(_describe(part, graph) for part in found)


def test_the_graph_sees_every_kind_of_import_it_counts(tmp_path):
    """A circle whose links are one of each counted kind (a function-level import, a TYPE_CHECKING
    import, a lazy table, an enclosing package run first), so it closes only if each is counted, is
    found; a package importing its own module is not a circle."""
    package = tmp_path / "demo"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from . import inner\n")  # a package and its module: no circle
    (package / "sub" / "inner.py").write_text("def f():\n    from ..late import g\n")  # function level
    (package / "late.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .lazy_pkg import x\n")
    (package / "lazy_pkg").mkdir()
    (package / "lazy_pkg" / "__init__.py").write_text(
        "from ..lazy import lazy_names\n_BATTLE = {'.state': ('S',)}\n__getattr__, __dir__ = lazy_names(__name__, globals(), _BATTLE)\n")
    (package / "lazy_pkg" / "state.py").write_text("from ..other.leaf import y\n")  # runs demo.other first
    (package / "other").mkdir()
    (package / "other" / "__init__.py").write_text("from ..sub.inner import f\n")
    (package / "other" / "leaf.py").write_text("")
    (package / "lazy.py").write_text("")
    graph = import_graph(tmp_path, "demo")
    assert circles(graph) == [sorted(["demo.sub.inner", "demo.late", "demo.lazy_pkg", "demo.lazy_pkg.state",
                                      "demo.other", "demo.sub"])]
    assert "demo.sub" not in graph["demo.sub.inner"]  # its own package runs first anyway


@pytest.mark.parametrize("system", ["gundam_sentinel", "verse_world", "wis6"])
def test_the_battle_and_the_sheets_read_the_sample_units_from_the_one_lower_module(system):
    graph = import_graph()
    assert "rules_lib.samples" in graph[f"rules_lib.{system}.battle_state"]
    assert "rules_lib.samples" in graph["rules_lib.sheets.base"]
    assert not any(m.startswith("rules_lib.sheets") for m in graph[f"rules_lib.{system}.battle_state"])
    assert not any(m.startswith(PACKAGE + ".") for m in graph["rules_lib.samples"]), "samples must stay the bottom"
