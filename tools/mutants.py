"""Small wrong versions of the rule modules: where a change can be made, and the changed code.

Shared by ``tools/mutation.py`` (each mutant against the book's checks, in a forked child) and
``tools/check_trace.py`` (which value of a check a rule's code decides). A **point** is one change
at one place of a module:

- a comparison flipped at its boundary or negated (``<`` to ``<=``, ``==`` to ``!=``, ``in`` to ``not in``),
- ``+``/``-`` and ``*``/``//`` swapped, ``and``/``or`` swapped, a ``not`` dropped,
- a whole number moved by one either way, ``True``/``False`` swapped,
- ``min``/``max`` and ``any``/``all`` swapped, a clamp dropped (``max(0, x)`` to ``x``),
- a refusal dropped (``if ...: raise`` never raises), the branches of an ``if`` swapped.

Refusals are rules too (no stacking, the movement budget, a tackle only after 3 squares), and so
are the bounds of an input check (``checks.whole(x, minimum=low, maximum=high)``) other than a
plain ``minimum=0``, a computation inside an f-string that is a result, a module constant and a
default argument. What is not changed: docstrings, annotations, decorators, messages (inside a
``raise`` or an ``assert``), the working (``steps.append(...)``, names that only hold words), an
``if`` that only writes the working, and drawing code (figure modules, functions building SVG or HTML).

Each point has a **key** that stays the same when unrelated lines move:
``<file>:<function>:<the changed expression>:<change>``, with ``#2``, ``#3`` for a second and third
point of the same text in the same function (``tools/mutation_equivalents.toml`` uses them).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMPARE_SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
                 ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
BINOP_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
               ast.Div: ast.Mult, ast.Mod: ast.FloorDiv}
BOOLOP_SWAPS = {ast.And: ast.Or, ast.Or: ast.And}
CALL_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}

#: calls whose arguments are explanation, not rule
EXPLAINING_CALLS = frozenset({"append", "extend", "join", "format"})
EXPLAINING_NAMES = frozenset({"steps", "lines", "log", "explanation", "notes", "parts", "out"})
#: names that only hold words for the working
WORDING_NAMES = EXPLAINING_NAMES | {"why", "rounded", "label", "text", "message", "note", "shown", "verdict", "times"}
#: drawing, not rules: figures and the HTML/SVG of boards and sheets
DRAWING_MODULES = frozenset({"figures.py"})
DRAWING_SUFFIXES = ("_svg", "_html", "_rows", "sheet_lines")
#: input checks (rules_lib.checks and the systems' own): their bounds are mutated, not the value or its name
VALIDATORS = frozenset({"whole", "number", "check_int", "check_count", "check_choice", "_choice", "check_ability",
                        "check_level", "check_faces", "check_dice_pair", "_check_die", "_check_dice"})
BOUNDS = frozenset({"minimum", "maximum"})


@dataclass(frozen=True)
class Point:
    """One change at one place of a module."""

    file: Path
    module: str
    index: int  #: the n-th point of the file, in a stable order (for a given source)
    line: int
    col: int
    description: str
    #: the qualified name of the innermost function or class around it, ``<module>`` at the top
    function: str
    #: the outermost function around it (``Class.method`` or ``name``): the code swapped in process;
    #: empty when the point runs at import (a constant, a class attribute, a default argument)
    top: str
    snippet: str
    key: str
    #: whether the change is to a refusal (an ``if`` that only raises, or an input check's bound)
    in_refusal: bool = False
    #: whether the change only picks another row: a number given as it is (a record's field, a
    #: table's cell) or a choice by a name, a type or a missing argument (``mode == "thruster"``,
    #: ``isinstance(x, str)``, ``dice is None``); such a change moves a value read back from a table
    #: as much as a computed one, so it is no witness that a rule computes the value
    picks_a_row: bool = False
    #: for a point that runs at import, the names its statement binds (a constant, a class attribute,
    #: or the function whose default it is): a check that reads one of them reaches the point
    binds: tuple[str, ...] = ()

    @property
    def at_import(self) -> bool:
        """Whether the point runs when the module is imported: judged by every check that reads it."""
        return not self.top

    @property
    def where(self) -> str:
        """``file:line``, for a reader."""
        return f"{self.file.relative_to(ROOT).as_posix()}:{self.line}"


def _holds_words(target: ast.expr) -> bool:
    """``steps``, ``lines``, ... or ``self.steps``: a name that holds the working."""
    name = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else ""
    return name in EXPLAINING_NAMES


def _is_raise_only(body: list[ast.stmt]) -> bool:
    return bool(body) and all(isinstance(s, ast.Raise) for s in body)


def _explains(statement: ast.stmt) -> bool:
    """A statement that only writes the working: ``steps.append(...)``, a wording name, or an
    ``if``/``elif`` whose branches only do that."""
    if isinstance(statement, ast.If):
        return all(_explains(s) for s in statement.body) and all(_explains(s) for s in statement.orelse)
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return all(isinstance(t, ast.Name) and t.id in WORDING_NAMES for t in targets)
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        func = statement.value.func
        return isinstance(func, ast.Attribute) and func.attr in EXPLAINING_CALLS and _holds_words(func.value)
    return False


def _validator(func: ast.expr) -> bool:
    """An input check, called by its name or as ``checks.<name>`` (``checks.whole(x, minimum=0)``)."""
    if isinstance(func, ast.Name):
        return func.id in VALIDATORS
    return (isinstance(func, ast.Attribute) and func.attr in VALIDATORS
            and isinstance(func.value, ast.Name) and func.value.id == "checks")


class _Tree:
    """A parsed module with each node's parent."""

    def __init__(self, source: str) -> None:
        self.tree = ast.parse(source)
        self.parents = {child: parent for parent in ast.walk(self.tree) for child in ast.iter_child_nodes(parent)}
        self.docstrings = {
            id(body[0].value)
            for node in ast.walk(self.tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            for body in [node.body]
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
        }

    def ancestors(self, node: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
        """(child, parent) pairs from ``node`` up to the module."""
        while node in self.parents:
            parent = self.parents[node]
            yield node, parent
            node = parent

    def explaining(self, node: ast.AST) -> bool:
        """Whether ``node`` is words, not rule: a message, the working, an annotation, a decorator,
        a docstring, or an input check's value and name (its bounds are rule)."""
        if id(node) in self.docstrings or (isinstance(node, ast.If) and _explains(node)):
            return True
        for child, parent in self.ancestors(node):
            if isinstance(parent, (ast.Raise, ast.Assert)):
                return True
            if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute):
                if parent.func.attr in EXPLAINING_CALLS and _holds_words(parent.func.value):
                    return True
            if isinstance(parent, ast.Call) and _validator(parent.func):
                keyword = child if isinstance(child, ast.keyword) else None
                return keyword is None or keyword.arg not in BOUNDS
            if isinstance(parent, ast.keyword) and parent.arg == "minimum" and isinstance(parent.value, ast.Constant) \
                    and parent.value.value == 0 and isinstance(self.parents.get(parent), ast.Call) \
                    and _validator(self.parents[parent].func):
                return True  # minimum=0: a count or a distance is never negative (input sense, not a rule)
            if isinstance(parent, (ast.Assign, ast.AnnAssign)) and _explains(parent):
                return True
            if isinstance(parent, ast.If) and child is parent.test and _explains(parent):
                return True  # an if that only writes the working
            if isinstance(parent, ast.AnnAssign) and child is parent.annotation:
                return True
            if isinstance(parent, ast.arg) and child is parent.annotation:
                return True
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and child is parent.returns:
                return True
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and child in parent.decorator_list:
                return True
        return False

    def in_refusal(self, node: ast.AST) -> bool:
        """Whether ``node`` is a refusal, its test, or the bound of an input check."""
        if isinstance(node, ast.If) and _is_raise_only(node.body):
            return True
        for child, parent in self.ancestors(node):
            if isinstance(parent, ast.If) and child is parent.test and _is_raise_only(parent.body):
                return True
            if isinstance(parent, ast.Call) and _validator(parent.func):
                return True
            if isinstance(parent, ast.stmt):
                return False
        return False

    def picks_a_row(self, node: ast.AST, kind: str) -> bool:
        if kind in ("int+1", "int-1", "bool"):
            return self._given_as_is(node)
        if kind.startswith("compare:") or kind in ("not", "boolop"):
            return _by_name(node)
        if kind == "swap-branches":
            return _by_name(node.test)
        return False

    def _given_as_is(self, node: ast.AST) -> bool:
        """A constant that is a value as it stands: returned, a field or item, assigned, a branch's result."""
        parent = self.parents.get(node)
        if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub):  # -3 is one number
            node, parent = parent, self.parents.get(parent)
        if isinstance(parent, ast.keyword):
            call = self.parents.get(parent)
            return isinstance(call, ast.Call) and _builds_a_record(call.func)
        if isinstance(parent, (ast.Return, ast.Dict, ast.Tuple, ast.List, ast.Set, ast.Assign, ast.AnnAssign,
                               ast.Yield)):
            return True
        if isinstance(parent, ast.IfExp):
            return node is not parent.test
        if isinstance(parent, ast.Call) and node in parent.args:
            return _builds_a_record(parent.func)
        return False

    def binds(self, node: ast.AST) -> tuple[str, ...]:
        """The names bound by the import-time statement around ``node`` (see `Point.binds`)."""
        for child, parent in self.ancestors(node):
            if isinstance(parent, ast.arguments) and (child in parent.defaults or child in parent.kw_defaults):
                function = self.parents.get(parent)
                return (function.name,) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) else ()
            if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
                return tuple(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
            if isinstance(parent, ast.ClassDef):
                return (parent.name,)
        return ()

    def qualname(self, node: ast.AST) -> str:
        names = [p.name for _, p in self.ancestors(node)
                 if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        return ".".join(reversed(names)) or "<module>"

    def top_function(self, node: ast.AST) -> str:
        """The outermost function around ``node`` whose body runs at a call (``Class.method``), or ""
        when ``node`` runs at import (module and class bodies, default arguments)."""
        scopes: list[ast.AST] = []
        in_default = False
        for child, parent in self.ancestors(node):
            if isinstance(parent, ast.arguments) and (child in parent.defaults or child in parent.kw_defaults):
                in_default = True  # evaluated where its function is defined, not inside it
                continue
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and in_default:
                in_default = False
                continue
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                scopes.append(parent)
        names: list[str] = []
        for scope in reversed(scopes):  # from the module in
            if isinstance(scope, ast.ClassDef):
                names.append(scope.name)
            elif isinstance(scope, ast.Lambda):
                return ""  # a module-level lambda has no name to swap: judged as import-time code
            else:
                names.append(scope.name)
                return ".".join(names)
        return ""


def _snippet(node: ast.AST, tree: _Tree) -> str:
    shown = node
    if isinstance(node, ast.Constant) and node in tree.parents:
        shown = tree.parents[node]
        if isinstance(shown, ast.keyword):
            return f"{shown.arg}={ast.unparse(node)}"
        if isinstance(shown, ast.arguments):  # a default: name=value
            positional = [*shown.posonlyargs, *shown.args]
            pairs = list(zip(positional[len(positional) - len(shown.defaults):], shown.defaults, strict=True))
            pairs += [(a, d) for a, d in zip(shown.kwonlyargs, shown.kw_defaults, strict=True) if d is not None]
            return next(f"{a.arg}={ast.unparse(node)}" for a, d in pairs if d is node)
    text = f"if {ast.unparse(shown.test)}" if isinstance(shown, ast.If) else ast.unparse(shown)
    if shown is not node and isinstance(shown, (ast.Call, ast.Tuple, ast.List, ast.Set)):
        items = shown.args if isinstance(shown, ast.Call) else shown.elts
        if any(item is node for item in items):  # which of its numbers: Square(0, 0) [2]
            text = f"{' '.join(text.split())[:70]} [{next(i for i, item in enumerate(items, 1) if item is node)}]"
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def _raw_points(tree: _Tree) -> Iterator[tuple[ast.AST, str, str]]:
    """(node, kind, description) for every change the tree allows, in a stable order."""
    for node in ast.walk(tree.tree):
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in COMPARE_SWAPS:
                    where = f" (comparison {i + 1})" if len(node.ops) > 1 else ""
                    yield node, f"compare:{i}", f"{type(op).__name__} -> {COMPARE_SWAPS[type(op)].__name__}{where}"
        elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAPS:
            yield node, "binop", f"{type(node.op).__name__} -> {BINOP_SWAPS[type(node.op)].__name__}"
        elif isinstance(node, ast.AugAssign) and type(node.op) in BINOP_SWAPS:
            yield node, "augassign", f"{type(node.op).__name__}= -> {BINOP_SWAPS[type(node.op)].__name__}="
        elif isinstance(node, ast.BoolOp):
            yield node, "boolop", f"{type(node.op).__name__} -> {BOOLOP_SWAPS[type(node.op)].__name__}"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "not", "not x -> x"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALL_SWAPS:
            yield node, "call", f"{node.func.id}() -> {CALL_SWAPS[node.func.id]}()"
            if node.func.id in ("min", "max") and len(node.args) == 2 and not node.keywords:
                yield node, "clamp", f"{node.func.id}(a, b) -> one of them (clamp dropped)"
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            yield node, "bool", f"{node.value} -> {not node.value}"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, "int+1", f"{node.value} -> {node.value + 1}"
            yield node, "int-1", f"{node.value} -> {node.value - 1}"
        elif isinstance(node, ast.If) and _is_raise_only(node.body):
            yield node, "drop-refusal", "refusal dropped"
        elif isinstance(node, (ast.If, ast.IfExp)) and not (isinstance(node.test, ast.UnaryOp)
                                                            and isinstance(node.test.op, ast.Not)):
            yield node, "swap-branches", "branches swapped"


def _builds_a_record(func: ast.expr) -> bool:
    """A class (``Tackle(...)``, ``rules.Options(...)``) or a container (``dict(...)``): its arguments are data."""
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name[:1].isupper() or name in ("dict", "tuple", "list", "frozenset", "set")


def _names_a_row(node: ast.AST) -> bool:
    """A comparison with a name (a string, or strings), with None, or an ``isinstance`` test."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("isinstance", "callable"):
        return True
    if not isinstance(node, ast.Compare):
        return False
    for operand in (node.left, *node.comparators):
        if isinstance(operand, ast.Constant) and (isinstance(operand.value, str) or operand.value is None):
            return True
        if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) and operand.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in operand.elts):
            return True
    return False


def _by_name(test: ast.AST) -> bool:
    """Whether a test only chooses by names, types or missing arguments (no comparison of numbers)."""
    tests = [n for n in ast.walk(test) if isinstance(n, ast.Compare) or (
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("isinstance", "callable"))]
    return bool(tests) and all(_names_a_row(t) for t in tests)


def _drawing(function: str) -> bool:
    return any(part.endswith(DRAWING_SUFFIXES) for part in function.split("."))


@cache
def _points_of(path: Path, source: str) -> tuple[Point, ...]:
    tree = _Tree(source)
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    relative = path.relative_to(ROOT).as_posix()
    found: list[Point] = []
    seen: dict[str, int] = {}
    for index, (node, kind, description) in enumerate(_raw_points(tree)):
        if tree.explaining(node):
            continue
        function = tree.qualname(node)
        if _drawing(function):
            continue
        snippet = _snippet(node, tree)
        base = f"{relative}:{function}:{snippet}:{description}"
        seen[base] = seen.get(base, 0) + 1
        key = base if seen[base] == 1 else f"{base}#{seen[base]}"
        found.append(Point(path, module, index, node.lineno, node.col_offset, description, function,
                           tree.top_function(node), snippet, key, tree.in_refusal(node),
                           tree.picks_a_row(node, kind), tree.binds(node)))
    return tuple(found)


def points_of(path: Path) -> tuple[Point, ...]:
    """Every point of the module at ``path``, in a stable order, each with a key of its own."""
    path = path.resolve()
    return _points_of(path, path.read_text(encoding="utf-8"))


def _mutate(node: ast.AST, kind: str, replace) -> None:
    """Make the change ``kind`` at ``node``; ``replace(new)`` puts ``new`` in ``node``'s place."""
    if kind.startswith("compare:"):
        i = int(kind.split(":")[1])
        node.ops[i] = COMPARE_SWAPS[type(node.ops[i])]()
    elif kind in ("binop", "augassign"):
        node.op = BINOP_SWAPS[type(node.op)]()
    elif kind == "boolop":
        node.op = BOOLOP_SWAPS[type(node.op)]()
    elif kind == "not":
        replace(copy.copy(node.operand))
    elif kind == "call":
        node.func = ast.Name(CALL_SWAPS[node.func.id], ast.Load())
    elif kind == "clamp":
        first, second = node.args
        replace(second if isinstance(first, ast.Constant) else first)
    elif kind == "bool":
        node.value = not node.value
    elif kind == "int+1":
        node.value = node.value + 1
    elif kind == "int-1":
        node.value = node.value - 1
    elif kind == "drop-refusal":
        node.test = ast.Constant(False)
    elif kind == "swap-branches":
        node.test = ast.UnaryOp(ast.Not(), node.test)


def _put(parent: ast.AST, step: tuple[str, int | None], new: ast.AST) -> None:
    name, index = step
    if index is None:
        setattr(parent, name, new)
    else:
        getattr(parent, name)[index] = new


def _steps(tree: _Tree, node: ast.AST) -> list[tuple[str, int | None]]:
    """The way from the module down to ``node``: (field, index in a list or None) at each level."""
    steps = []
    while node in tree.parents:
        parent = tree.parents[node]
        for name, value in ast.iter_fields(parent):
            if value is node:
                steps.append((name, None))
                break
            if isinstance(value, list) and any(v is node for v in value):
                steps.append((name, next(i for i, v in enumerate(value) if v is node)))
                break
        node = parent
    return steps[::-1]


def _follow(node: ast.AST, steps: list[tuple[str, int | None]]) -> ast.AST:
    for name, index in steps:
        node = getattr(node, name) if index is None else getattr(node, name)[index]
    return node


@cache
def _parsed(path: Path, source: str) -> tuple[_Tree, list[tuple[ast.AST, str, str]]]:
    tree = _Tree(source)
    return tree, list(_raw_points(tree))


def _changed_copy(point: Point, whole_module: bool) -> ast.Module:
    """A copy of the module (or of only the top-level statement holding the point) with its change."""
    tree, raw = _parsed(point.file, point.file.read_text(encoding="utf-8"))
    node, kind, _ = raw[point.index]
    steps = _steps(tree, node)
    if whole_module:
        root = copy.deepcopy(tree.tree)
    else:
        root = ast.Module([copy.deepcopy(tree.tree.body[steps[0][1]])], [])
        steps = [("body", 0), *steps[1:]]
    parent = _follow(root, steps[:-1])
    _mutate(_follow(root, steps), kind, lambda new: _put(parent, steps[-1], new))
    ast.fix_missing_locations(root)
    return root


def mutated_module(point: Point):
    """The code object of the whole module with ``point``'s change."""
    return compile(_changed_copy(point, whole_module=True), str(point.file), "exec")


def mutated_function(point: Point):
    """The code object of ``point.top`` (its outermost function) with the change, or None."""
    module = compile(_changed_copy(point, whole_module=False), str(point.file), "exec")
    return function_code(module, point.top)


def function_code(module_code, qualname: str):
    """The code object of the function ``qualname`` inside a compiled module, or None."""
    stack = [module_code]
    while stack:
        code = stack.pop()
        if code.co_qualname == qualname and code is not module_code:
            return code
        stack.extend(c for c in code.co_consts if hasattr(c, "co_qualname"))
    return None


def source_patch(path: Path, old: str, new: str):
    """The module at ``path`` compiled with the one occurrence of ``old`` replaced by ``new``
    (a hand-written wrong rule, ``tests/test_checks_can_fail.py``)."""
    source = path.read_text(encoding="utf-8")
    count = source.count(old)
    if count != 1:
        raise ValueError(f"{path.name}: {old!r} occurs {count} times, not once: make the patch's text unique")
    return compile(source.replace(old, new), str(path), "exec")
