"""Mutation run over the rule modules: does a catalogue check fail when a rule is wrong?

For each system, the rule modules (``rules_lib/<package>/*.py``) are mutated one small change at
a time (and, in the run named ``shared``, the dice and geometry code every chapter uses) (a comparison flipped at its boundary or negated, ``+``/``-`` swapped, ``*``/``//``
swapped, a whole number moved by one, ``True``/``False`` swapped, ``and``/``or`` swapped, a
``not`` dropped, ``min``/``max`` and ``any``/``all`` swapped), and the book's own check cells are run against each mutant: the notebooks'
code cells are executed in-process (no Jupyter kernel), in a forked child that imports the
mutated module instead of the real one. A mutant is **killed** when a ``check_example`` call
fails, or a cell leading to one raises; otherwise it **survives**.

Only lines that some check actually executes are mutated (the baseline run records, with
``coverage``, which lines each check's cells reach); a change to a line no check reaches could
not be caught by any check and says nothing about the catalogue. Changes that only alter an
explanation or an error are not made: inside f-strings, ``raise``, ``steps.append(...)``, the
bounds of input checks (``check_int(..., minimum=0)``), decorators (``frozen=True``), and the test
of an ``if`` whose branches only raise or only append to the working, and drawing code (figure
modules, functions that build SVG or HTML).

The report, per system: the mutation score (killed / mutants), the surviving mutants, every
``reproduced`` entry that no mutant made fail (its check could not fail), and the survivors in
the rules a reproduced entry checks (the functions its check cell calls or reads as properties).
Those two lists must be empty, or each survivor justified as an equivalent mutant in
``tools/mutation_equivalents.toml``; otherwise the run exits non-zero.

Why a small home-made mutator and not mutmut or cosmic-ray: the checks live in notebooks, not in
pytest. Those tools run the test command once per mutant, which here would be nbval starting a
Jupyter kernel for each notebook: minutes per mutant on this project's shared 2-core machine.
Executing the cells in a forked process takes a fraction of a second per mutant, and knowing which
cells each check needs lets a mutant run only the notebooks that can see it.

Usage: ``python tools/mutation.py [system ...] [--jobs N] [--limit N] [--only GLOB] [--json PATH]``
(``--only`` mutates only matching modules, for working on one file; its "never failed" list is then partial)
(``make mutation``). Systems: any of the registry's (``rules_lib.systems``), and shared (default: all).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import importlib.abc
import importlib.util
import io
import json
import os
import select
import signal
import sys
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from rules_lib.systems import systems  # noqa: E402

#: system name -> package, from the registry (the catalogue files' headers)
SYSTEMS = {system.system: system.package for system in systems()}
#: what each run mutates, and the chapters whose checks it runs: a system's package against its
#: chapter; the shared dice and geometry code against every chapter (the dice chapter included)
TARGETS = {
    **{system: ((f"rules_lib/{package}",), (system,)) for system, package in SYSTEMS.items()},
    "shared": (("rules_lib/dice", "rules_lib/geometry"), ("dice", *SYSTEMS)),
}
EQUIVALENTS = ROOT / "tools" / "mutation_equivalents.toml"
#: seconds a mutant may run before it counts as killed (an endless loop is a failure too)
TIMEOUT = 60
#: calls whose arguments are explanation, not rule
EXPLAINING_CALLS = frozenset({"append", "extend", "join", "format"})
EXPLAINING_NAMES = frozenset({"steps", "lines", "log", "explanation", "notes", "parts", "out"})
#: names that only hold words for the working
WORDING_NAMES = EXPLAINING_NAMES | {"why", "rounded", "label", "text", "message", "note", "shown", "verdict", "times"}
#: input checks: their bounds refuse bad input with a clear error, they are not the rule's value
#: drawing, not rules: figures and the HTML/SVG of boards and sheets
DRAWING_MODULES = frozenset({"figures.py"})
DRAWING_SUFFIXES = ("_svg", "_html", "_rows", "sheet_lines")
VALIDATORS = frozenset({"whole", "check_int", "check_count", "check_choice", "_choice", "check_ability",
                        "check_level", "check_faces", "check_dice_pair", "_check_die", "_check_dice"})


# -- the notebooks: cells, and which cells each check needs ---------------------------------------


@dataclass(frozen=True)
class Check:
    """One ``check_example`` call: its notebook, the code cell it is in, and the cells that lead to it."""

    example_id: str
    notebook: Path
    cell: int
    segment: tuple[int, ...]


def code_cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    out = []
    for cell in cells:
        if cell["cell_type"] == "code":
            lines = "".join(cell["source"]).splitlines()
            out.append("\n".join(line for line in lines if not line.lstrip().startswith(("%", "!"))))
    return out


def checks_of(folder: Path) -> list[Check]:
    """Every check of the chapter, with the code cells since the previous check (its segment)."""
    from rules_lib.catalogue import _CHECK_CALL

    found = []
    for notebook in sorted(folder.glob("*.ipynb")):
        previous = -1
        for index, source in enumerate(code_cells(notebook)):
            ids = _CHECK_CALL.findall(source)
            for example_id in ids:
                found.append(Check(example_id, notebook, index, tuple(range(previous + 1, index + 1))))
            if ids:
                previous = index
    return found


def called_names(checks: list[Check]) -> dict[str, set[str]]:
    """Example id -> names called or read as attributes in the cell that checks it (the rules it checks).

    Only the check's own cell: the cells before it also print tables and odds for the reader,
    which are not what the check asserts."""
    names: dict[str, set[str]] = {}
    cells = {nb: code_cells(nb) for nb in {c.notebook for c in checks}}
    for check in checks:
        found = names.setdefault(check.example_id, set())
        for index in (check.cell,):
            try:
                tree = ast.parse(cells[check.notebook][index])
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    func = node.func
                    if isinstance(func, ast.Name):
                        found.add(func.id)
                    elif isinstance(func, ast.Attribute):
                        found.add(func.attr)
                elif isinstance(node, ast.Attribute):
                    found.add(node.attr)  # properties are rules too
    return names


# -- running the cells ---------------------------------------------------------------------------


def _purge_rules_lib() -> None:
    for name in [n for n in sys.modules if n == "rules_lib" or n.startswith("rules_lib.")]:
        del sys.modules[name]


class _MutantLoader(importlib.abc.Loader):
    def __init__(self, code, path: Path) -> None:
        self.code, self.path = code, path

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        module.__file__ = str(self.path)
        exec(self.code, module.__dict__)


class _MutantFinder(importlib.abc.MetaPathFinder):
    def __init__(self, name: str, code, path: Path) -> None:
        self.name, self.loader = name, _MutantLoader(code, path)

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        return importlib.util.spec_from_loader(fullname, self.loader, origin=str(self.loader.path))


def run_checks(notebooks: dict[Path, int], coverage_of=None) -> dict[str, bool]:
    """Execute each notebook's code cells up to the given cell; example id -> whether its check passed.

    A check whose cell is not reached, or whose segment raised, counts as failed. With
    ``coverage_of`` (a started ``coverage.Coverage``), each cell is measured in its own context.
    """
    from IPython.display import display

    import rules_lib.catalogue as catalogue

    original = catalogue.check_example
    results: dict[str, bool] = {}

    def recording_check(example_id: str, **computed):
        try:
            result = original(example_id, **computed)
        except Exception:
            results[example_id] = False
            raise
        results.setdefault(example_id, True)
        return result

    catalogue.check_example = recording_check
    for notebook, last in notebooks.items():
        namespace = {"__name__": "__main__", "display": display}
        failed_since_check = False
        for index, source in enumerate(code_cells(notebook)[: last + 1]):
            if coverage_of is not None:
                coverage_of.switch_context(f"{notebook.name}:{index}")
            expected = set(catalogue._CHECK_CALL.findall(source))
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    exec(compile(source, f"<{notebook.name} cell {index}>", "exec"), namespace)
            except Exception:
                failed_since_check = True
            for example_id in expected:
                if failed_since_check or example_id not in results:
                    results[example_id] = False
            if expected:
                failed_since_check = False
    catalogue.check_example = original
    return results


def _child(task, write_fd: int) -> None:
    """In a forked child: import the mutant (if any), run the checks, send the failed ids back."""
    try:
        signal.alarm(TIMEOUT)
        _purge_rules_lib()
        if task["mutant"] is not None:
            module, code, path = task["mutant"]
            sys.meta_path.insert(0, _MutantFinder(module, code, path))
        results = run_checks(task["notebooks"])
        payload = json.dumps(sorted(i for i, ok in results.items() if not ok)).encode()
    except BaseException as error:  # the mutant broke even the import: everything fails
        payload = json.dumps({"error": repr(error)[:200]}).encode()
    with os.fdopen(write_fd, "wb") as pipe:
        pipe.write(payload)
    os._exit(0)


def in_child(task) -> list[str] | dict:
    """Run ``task`` in a forked process; the ids that failed, {"error": ...}, or {"timeout": True}."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(task, write_fd)
    os.close(write_fd)
    chunks = []
    deadline = time.monotonic() + TIMEOUT + 5
    with os.fdopen(read_fd, "rb") as pipe:
        while True:
            ready, _, _ = select.select([pipe], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return {"timeout": True}
            chunk = os.read(pipe.fileno(), 65536)
            if not chunk:
                break
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        return {"error": f"child ended with status {status}"}
    return json.loads(b"".join(chunks))


def baseline_coverage(sources: tuple[str, ...], checks: list[Check]) -> dict[Path, dict[int, set[str]]]:
    """Run every check once, measured: module file -> line -> the example ids whose segment reaches it."""
    import coverage

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            _purge_rules_lib()
            cov = coverage.Coverage(data_file=None, include=[str(ROOT / source / "*.py") for source in sources])
            cov.start()
            notebooks = {}
            for check in checks:
                notebooks[check.notebook] = max(notebooks.get(check.notebook, 0), check.cell)
            results = run_checks(notebooks, cov)
            cov.stop()
            data = cov.get_data()
            lines = {f: {n: list(c) for n, c in data.contexts_by_lineno(f).items()} for f in data.measured_files()}
            payload = json.dumps({"results": results, "lines": lines}).encode()
        except BaseException as error:
            payload = json.dumps({"error": repr(error)}).encode()
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(payload)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        data = json.loads(pipe.read())
    os.waitpid(pid, 0)
    if "error" in data:
        raise SystemExit(f"baseline run failed: {data['error']}")
    failing = sorted(i for i, ok in data["results"].items() if not ok)
    if failing:
        raise SystemExit(f"the unmutated book already fails these checks: {failing}")
    by_context: dict[str, set[str]] = {}
    for check in checks:
        for index in check.segment:
            by_context.setdefault(f"{check.notebook.name}:{index}", set()).add(check.example_id)
    covered: dict[Path, dict[int, set[str]]] = {}
    for filename, lines in data["lines"].items():
        for line, contexts in lines.items():
            ids = set().union(*(by_context.get(c, set()) for c in contexts))
            if ids:
                covered.setdefault(Path(filename), {})[int(line)] = ids
    return covered


# -- mutants -------------------------------------------------------------------------------------

COMPARE_SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
                 ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
BINOP_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
               ast.Div: ast.Mult, ast.Mod: ast.FloorDiv}
BOOLOP_SWAPS = {ast.And: ast.Or, ast.Or: ast.And}
CALL_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}


@dataclass(frozen=True)
class Mutant:
    file: Path
    module: str
    line: int
    col: int
    kind: str
    description: str
    function: str
    index: int  # the n-th mutation point of the file (stable for a given source)
    examples: frozenset[str] = field(default_factory=frozenset)

    @property
    def key(self) -> str:
        return f"{self.file.relative_to(ROOT).as_posix()}:{self.line}:{self.description}"


def _explaining(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` is not rule: in a message (an f-string, a ``raise``, an assert,
    ``steps.append(...)``), an input check's bounds, or a decorator (``frozen=True``)."""
    _last = node
    while node in parents:
        _last, node = node, parents[node]
        if isinstance(node, (ast.JoinedStr, ast.Raise, ast.Assert)):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
            if node.func.attr in EXPLAINING_CALLS and isinstance(target, ast.Name) and target.id in EXPLAINING_NAMES:
                return True
        if isinstance(node, ast.Call) and _validator(node.func):
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and _explains(node):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _last in node.decorator_list:
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            return False
    return False


def _validator(func: ast.expr) -> bool:
    """An input check, called by its name or as ``checks.<name>`` (``checks.whole(x, minimum=0)``)."""
    if isinstance(func, ast.Name):
        return func.id in VALIDATORS
    return (isinstance(func, ast.Attribute) and func.attr in VALIDATORS
            and isinstance(func.value, ast.Name) and func.value.id == "checks")


def _in_annotation(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    child = node
    while child in parents:
        parent = parents[child]
        if isinstance(parent, ast.AnnAssign) and child is parent.annotation:
            return True
        if isinstance(parent, ast.arg) and child is parent.annotation:
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and child is parent.returns:
            return True
        child = parent
    return False


def _enclosing_function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    names = []
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
    return ".".join(reversed(names)) or "<module>"


def _points(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str]]:
    """(node, kind, description) for every mutation of the tree, in a stable order."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in COMPARE_SWAPS:
                    yield node, f"compare:{i}", f"{type(op).__name__} -> {COMPARE_SWAPS[type(op)].__name__}"
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
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            yield node, "bool", f"{node.value} -> {not node.value}"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield node, "int+1", f"{node.value} -> {node.value + 1}"


def _in_function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` runs when its function is called. A default argument (``rolls: int = 1``)
    runs when the function is defined, at import, yet every call that omits it uses it: like a
    constant, it is judged by every check."""
    while node in parents:
        child, node = node, parents[node]
        if isinstance(node, ast.arguments) and (child in node.defaults or child in node.kw_defaults):
            node = parents[node]  # the function whose signature this is: its defaults are not inside it
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
    return False


def mutants_of(path: Path, module: str, covered: dict[int, set[str]], every_check: frozenset[str]) -> list[Mutant]:
    """The mutants of one module on lines a check reaches. A line outside any function (a constant,
    a dataclass default) runs at import, under whichever cell imported first, but any check may
    read it later: such a mutant is run against every check of the chapter."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    docstrings = {
        id(body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        for body in [node.body]
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    }
    found = []
    for index, (node, kind, description) in enumerate(_points(tree)):
        line = node.lineno
        if line not in covered or id(node) in docstrings:
            continue
        if _explaining(node, parents) or _in_annotation(node, parents) or _guards_explanation(node, parents):
            continue
        if _enclosing_function(node, parents).endswith(DRAWING_SUFFIXES):
            continue
        examples = frozenset(covered[line]) if _in_function(node, parents) else every_check
        found.append(Mutant(path, module, line, node.col_offset, kind, description,
                            _enclosing_function(node, parents), index, examples))
    return found


def mutated_code(mutant: Mutant):
    tree = ast.parse(mutant.file.read_text(encoding="utf-8"))
    node, kind, _ = list(_points(tree))[mutant.index]
    if kind.startswith("compare:"):
        i = int(kind.split(":")[1])
        node.ops[i] = COMPARE_SWAPS[type(node.ops[i])]()
    elif kind in ("binop", "augassign"):
        node.op = BINOP_SWAPS[type(node.op)]()
    elif kind == "boolop":
        node.op = BOOLOP_SWAPS[type(node.op)]()
    elif kind == "not":
        replacement = copy.copy(node.operand)
        parent = {c: p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}[node]
        for name, value in ast.iter_fields(parent):
            if value is node:
                setattr(parent, name, replacement)
            elif isinstance(value, list):
                setattr(parent, name, [replacement if v is node else v for v in value])
    elif kind == "call":
        node.func = ast.Name(CALL_SWAPS[node.func.id], ast.Load())
    elif kind == "bool":
        node.value = not node.value
    elif kind == "int+1":
        node.value = node.value + 1
    ast.fix_missing_locations(tree)
    return compile(tree, str(mutant.file), "exec")


# -- the run -------------------------------------------------------------------------------------


def _explains(statement: ast.stmt) -> bool:
    """A statement that only refuses input or writes the working: ``raise``, ``steps.append(...)``, or
    an ``if``/``elif`` whose branches only do that."""
    if isinstance(statement, ast.Raise):
        return True
    if isinstance(statement, ast.If):  # an elif chain whose every branch only explains
        return all(_explains(s) for s in statement.body) and all(_explains(s) for s in statement.orelse)
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return all(isinstance(t, ast.Name) and t.id in WORDING_NAMES for t in targets)
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        func = statement.value.func
        return (isinstance(func, ast.Attribute) and func.attr in EXPLAINING_CALLS
                and isinstance(func.value, ast.Name) and func.value.id in EXPLAINING_NAMES)
    return False


def _guards_explanation(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` is in the test of an ``if`` that only raises (input validation) or only
    writes the working (``steps.append``): a change there alters an error or an explanation."""
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.If) and node is parent.test:
            return all(_explains(s) for s in parent.body) and all(_explains(s) for s in parent.orelse)
        if isinstance(parent, ast.stmt):
            return False
        node = parent
    return False


def run_system(system: str, jobs: int, limit: int | None, only: tuple[str, ...] = ()) -> dict:
    from rules_lib.catalogue import load_catalogue

    sources, chapters = TARGETS[system]
    catalogue = load_catalogue()
    checks = [check for chapter in chapters for check in checks_of(ROOT / "book" / chapter)]
    covered = baseline_coverage(sources, checks)
    mutants = []
    every_check = frozenset(c.example_id for c in checks)
    for source in sources:
        for path in sorted((ROOT / source).glob("*.py")):
            if path.name == "__init__.py" or path.name in DRAWING_MODULES:
                continue
            if only and not any(path.match(pattern) for pattern in only):
                continue
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            mutants.extend(mutants_of(path, module, covered.get(path.resolve(), {}), every_check))
    if limit:
        mutants = mutants[:limit]
    last_cell: dict[str, tuple[Path, int]] = {c.example_id: (c.notebook, c.cell) for c in checks}
    started = time.monotonic()
    outcomes: dict[str, dict] = {}
    queue = list(mutants)

    def task_of(mutant: Mutant) -> dict:
        notebooks: dict[Path, int] = {}
        for example_id in mutant.examples:
            notebook, cell = last_cell[example_id]
            notebooks[notebook] = max(notebooks.get(notebook, 0), cell)
        return {"mutant": (mutant.module, mutated_code(mutant), mutant.file), "notebooks": notebooks}

    # sequential unless --jobs > 1: each child is forked and waited for by in_child
    if jobs <= 1:
        for number, mutant in enumerate(queue, 1):
            outcomes[mutant.key] = {"result": in_child(task_of(mutant)), "mutant": mutant}
            if number % 50 == 0:
                print(f"  {system}: {number}/{len(queue)} mutants, {time.monotonic() - started:.0f} s", file=sys.stderr)
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(jobs) as pool:
            futures = {pool.submit(in_child, task_of(m)): m for m in queue}
            for future, mutant in futures.items():
                outcomes[mutant.key] = {"result": future.result(), "mutant": mutant}

    killed, survived = [], []
    failed_by: dict[str, int] = {}
    for outcome in outcomes.values():
        mutant, result = outcome["mutant"], outcome["result"]
        if isinstance(result, dict):  # timeout or a broken import: the checks did not pass
            killed.append(mutant)
            for example_id in mutant.examples:
                failed_by[example_id] = failed_by.get(example_id, 0) + 1
        elif result:
            killed.append(mutant)
            for example_id in result:
                failed_by[example_id] = failed_by.get(example_id, 0) + 1
        else:
            survived.append(mutant)

    equivalents = tomllib.loads(EQUIVALENTS.read_text(encoding="utf-8")).get("equivalent", {}) if EQUIVALENTS.exists() else {}
    names = called_names(checks)
    # the reproduced entries this run's chapters check (the dice chapter checks some of other systems)
    reproduced = sorted(i for i in last_cell if catalogue[i].status == "reproduced"
                        and (system == "shared" or catalogue[i].system == system))
    never_failed = [i for i in reproduced if not failed_by.get(i)]
    in_checked_rules = []
    for mutant in survived:
        rule = mutant.function.split(".")[-1]
        checked_by = sorted(i for i in mutant.examples if i in reproduced and rule in names.get(i, set()))
        if checked_by and mutant.key not in equivalents:
            in_checked_rules.append((mutant, checked_by))
    return {
        "system": system,
        "mutants": len(outcomes),
        "killed": len(killed),
        "survived": [_describe(m) for m in survived],
        "score": len(killed) / len(outcomes) if outcomes else 1.0,
        "reproduced": len(reproduced),
        "reproduced_checked": reproduced,
        "failed_entries": sorted(failed_by),
        "reproduced_never_failed": never_failed,
        "survivors_in_checked_rules": [{**_describe(m), "checked_by": ids} for m, ids in in_checked_rules],
        "equivalents_used": sorted(k for k in equivalents if k in {m.key for m in survived}),
        "seconds": round(time.monotonic() - started, 1),
    }


def _describe(mutant: Mutant) -> dict:
    return {"key": mutant.key, "function": mutant.function, "examples": sorted(mutant.examples)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("systems", nargs="*", help=f"any of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--limit", type=int, default=None, help="at most this many mutants a system (a quick look)")
    parser.add_argument("--json", type=Path, default=None, help="also write the report as JSON here")
    parser.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="mutate only the modules whose path matches (e.g. 'verse_world/combat.py'); repeatable")
    parser.add_argument("--show-survivors", action="store_true", help="list every surviving mutant")
    args = parser.parse_args(argv)
    unknown = [s for s in args.systems if s not in TARGETS]
    if unknown:
        parser.error(f"unknown system(s) {unknown}: allowed are {', '.join(TARGETS)}")
    # import the heavy libraries once, before forking, so that each mutant starts fast
    import icepool  # noqa: F401
    import IPython.display  # noqa: F401
    import ipywidgets  # noqa: F401

    reports = [run_system(system, args.jobs, args.limit, tuple(args.only)) for system in (args.systems or list(TARGETS))]
    bad = False
    # an entry can fail if a mutant of its own system's rules or of the shared code made it fail
    failed_somewhere = {i for r in reports for i in r["failed_entries"]}
    judged_by_system = {i for r in reports if r["system"] != "shared" for i in r["reproduced_checked"]}
    for r in reports:
        # the shared run judges only the entries no system run checks (those of the dice chapter)
        pool = [i for i in r["reproduced_checked"] if r["system"] != "shared" or i not in judged_by_system]
        r["reproduced_never_failed"] = [i for i in pool if i not in failed_somewhere]
    print("\nmutation score per system (killed / mutants on lines the checks reach)")
    for r in reports:
        print(f"  {r['system']:16} {r['killed']:5} / {r['mutants']:<5} = {r['score']:.1%}   "
              f"({len(r['survived'])} survive; {r['seconds']} s)")
    for r in reports:
        if r["reproduced_never_failed"]:
            bad = True
            print(f"\n{r['system']}: reproduced entries that no mutant made fail: {r['reproduced_never_failed']}")
        if r["survivors_in_checked_rules"]:
            bad = True
            print(f"\n{r['system']}: surviving mutants in rules a reproduced entry checks "
                  f"(kill them with a check, or justify them in {EQUIVALENTS.relative_to(ROOT)}):")
            for s in r["survivors_in_checked_rules"]:
                print(f"  {s['key']}  in {s['function']}  (checked by {', '.join(s['checked_by'])})")
        if args.show_survivors:
            print(f"\n{r['system']}: all survivors")
            for s in r["survived"]:
                print(f"  {s['key']}  in {s['function']}")
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if not bad:
        print("\nevery reproduced entry fails under some mutant, and no mutant survives in a rule one checks")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
