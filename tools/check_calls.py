"""What the book's ``check_example`` calls pass: values a rule computed, constants, or literals.

A check can fail only if the values it passes come from the library's rules. This module
reads every notebook's code cells (no execution), follows the names they bind, and sorts
each value passed to ``check_example`` into:

- ``computed``: a call to a library function (or a name bound from one) is involved;
- ``constant``: only imported names (module constants, enum members, data tables) are involved;
- ``literal``: only Python literals are involved (an echo of the stated value: it cannot fail).

Used by ``tests/test_catalogue.py`` and ``tools/mutation.py``.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

#: calls that only repackage their arguments: computed only if an argument is
PASSIVE_CALLS = frozenset(
    {"len", "tuple", "list", "set", "frozenset", "dict", "sorted", "int", "float", "str", "bool",
     "Fraction", "min", "max", "sum", "abs", "round", "range", "repr", "type", "getattr"}
)
PASSIVE_METHODS = frozenset({"get", "keys", "values", "items", "index", "count", "copy"})
KINDS = ("computed", "constant", "literal")


@dataclass(frozen=True)
class CheckCall:
    """One ``check_example`` call in a notebook, and the kind of each value it passes."""

    example_id: str
    notebook: Path
    cell: int
    kinds: dict[str, str]
    #: value name -> module-level names (UPPER_CASE) it reads, for values that are constants
    constants: dict[str, frozenset[str]]
    source: str


def _code_cells(notebook: Path) -> list[tuple[int, str]]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    out = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            lines = "".join(cell["source"]).splitlines()
            out.append((index, "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))))
    return out


class _Scanner:
    def __init__(self, notebook: Path) -> None:
        self.notebook = notebook
        self.bound: dict[str, str] = {}
        self.calls: list[CheckCall] = []
        #: inside ``try``: a literal assigned there records whether a rule raised, so it is computed
        self.in_try = 0

    def kind(self, node: ast.AST, local: frozenset[str] = frozenset()) -> str:
        try:
            ast.literal_eval(node)
            return "literal"
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        if isinstance(node, ast.Call):
            func = node.func
            passive = (isinstance(func, ast.Name) and func.id in PASSIVE_CALLS) or (
                isinstance(func, ast.Attribute) and func.attr in PASSIVE_METHODS
            )
            if not passive:
                return "computed"
            parts = [*node.args, *(k.value for k in node.keywords)]
            if isinstance(func, ast.Attribute):
                parts.append(func.value)
            return self._combine(parts, local)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            names = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
            parts = [g.iter for g in node.generators] + [c for g in node.generators for c in g.ifs]
            parts += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            return self._combine(parts, local | names)
        if isinstance(node, ast.Name):
            if node.id in local:
                return "literal"  # a comprehension variable: its iterable decides
            return self.bound.get(node.id, "constant")
        if isinstance(node, ast.Lambda):
            return "computed"
        return self._combine(list(ast.iter_child_nodes(node)), local)

    def _combine(self, parts: list[ast.AST], local: frozenset[str]) -> str:
        kinds = {self.kind(p, local) for p in parts if isinstance(p, ast.expr)}
        for kind in KINDS:
            if kind in kinds:
                return kind
        return "literal"

    def bind(self, target: ast.AST, kind: str) -> None:
        if self.in_try and kind == "literal":
            kind = "computed"
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                self.bound[node.id] = kind

    def statement(self, stmt: ast.stmt, cell: int, text: str) -> None:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "check_example":
                self.record(node, cell, text)
        if isinstance(stmt, ast.Assign):
            kind = self.kind(stmt.value)
            for target in stmt.targets:
                self.bind(target, kind)
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and stmt.value is not None:
            self.bind(stmt.target, self.kind(stmt.value))
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            self.bind(stmt.target, self.kind(stmt.iter))
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            self._mutation(stmt.value)
        elif isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            self.bound[stmt.name] = "computed"
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                self.bound.pop((alias.asname or alias.name).split(".")[0], None)
        if isinstance(stmt, (ast.With, ast.For, ast.If, ast.While, ast.Try)):
            children = list(ast.iter_child_nodes(stmt))
            if isinstance(stmt, ast.Try):
                children += [s for handler in stmt.handlers for s in handler.body]
                self.in_try += 1
            for child in children:
                if isinstance(child, ast.stmt):
                    self.statement(child, cell, text)
            if isinstance(stmt, ast.Try):
                self.in_try -= 1

    def _mutation(self, call: ast.Call) -> None:
        """``table.setdefault(rule(x), []).append(y)``: a name filled by method calls takes their kind."""
        node: ast.AST = call
        arguments: list[ast.expr] = []
        while isinstance(node, (ast.Call, ast.Attribute)):
            if isinstance(node, ast.Call):
                arguments += [*node.args, *(k.value for k in node.keywords)]
                node = node.func
            else:
                node = node.value
        if isinstance(node, ast.Name) and node.id in self.bound and arguments:
            if self._combine(arguments, frozenset()) == "computed":
                self.bound[node.id] = "computed"

    def record(self, call: ast.Call, cell: int, text: str) -> None:
        if not call.args or not isinstance(call.args[0], ast.Constant):
            return
        # ``**values``: every stated value comes from that mapping, so it has the mapping's kind
        kinds = {kw.arg or f"**{ast.unparse(kw.value)}": self.kind(kw.value) for kw in call.keywords}
        constants = {
            kw.arg: frozenset(_upper_names(kw.value))
            for kw in call.keywords
            if kw.arg and kinds[kw.arg] == "constant"
        }
        self.calls.append(
            CheckCall(call.args[0].value, self.notebook, cell, kinds, constants, ast.get_source_segment(text, call) or "")
        )


def _upper_names(node: ast.AST) -> set[str]:
    names = set()
    for sub in ast.walk(node):
        ident = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else None
        if ident and ident.isupper() and len(ident) > 1:
            names.add(ident)
    return names


def check_calls(book: Path) -> list[CheckCall]:
    """Every ``check_example`` call in the notebooks under ``book``, with the kind of each value."""
    calls = []
    for notebook in sorted(book.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in notebook.parts:
            continue
        scanner = _Scanner(notebook)
        for index, text in _code_cells(notebook):
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            for stmt in tree.body:
                scanner.statement(stmt, index, text)
        calls.extend(scanner.calls)
    return calls


def names_read_by_rule_functions(package: Path) -> set[str]:
    """Identifiers read inside function bodies of the rule modules (not widgets, not the catalogue)."""
    read = set()
    for path in package.rglob("*.py"):
        if "widgets" in path.parts or path.name in {"catalogue.py", "browser.py", "cli.py"}:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                        read.add(sub.id)
                    elif isinstance(sub, ast.Attribute):
                        read.add(sub.attr)
    return read


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    for call in check_calls(root / "book"):
        shown = " ".join(f"{k}:{v}" for k, v in call.kinds.items())
        print(f"{call.example_id}: {shown}")
