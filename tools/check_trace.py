"""Which values of the book's checks a rule decides: the notebooks run, their calls traced.

A value a notebook passes to ``check_example`` proves something only if a rule computed it from
the example's inputs. This module runs every notebook that checks an entry, in this process
(no Jupyter kernel), and finds for each value:

1. **where it comes from**: the expressions of the notebook it was computed from, followed through
   the names the cells bind (a name bound inside a ``try`` takes the calls tried there, so that a
   refusal caught as ``refused = True`` counts as its rule's result);
2. **what those expressions reached**: while they run, a tracer records every function of a rule
   module (``rules_lib/<system>/``, the dice and the geometry; not figures) that they call, directly
   or through other calls, and the lines it runs;
3. **a witness**: a small wrong version of one of those functions (``tools/mutants.py``: a comparison
   flipped, a number moved by one, a refusal dropped, ...) on a line that ran, under which the notebook,
   replayed from the first cell the value depends on, passes a *different* value. A value with a
   witness is decided by the rule's code; a value without one is a constant, a table cell, a literal
   field of a returned record or a restated input, read back: a **fact**, whatever its spelling.

``tests/test_catalogue.py`` requires a witness for every value of a ``reproduced`` entry that the
entry does not list in its ``facts``. ``tools/mutation.py`` uses the same trace to know which
functions and constants a check reaches. ``python tools/check_trace.py [ID ...]`` prints each value
with its witness.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import signal
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mutants import DRAWING_MODULES, Point, mutated_function, points_of  # noqa: E402

#: seconds a replay under one wrong rule may take (a replay takes milliseconds; a loop that never
#: ends is no witness, and its point is not tried again)
REPLAY_SECONDS = 1


def rule_directories() -> list[Path]:
    """The rule code: every system's package, the dice and the map geometry."""
    from rules_lib.systems import systems

    return [ROOT / "rules_lib" / s.package for s in systems()] + [ROOT / "rules_lib" / "dice",
                                                                   ROOT / "rules_lib" / "geometry"]


def rule_files() -> frozenset[str]:
    return frozenset(str(p.resolve()) for d in rule_directories() for p in d.glob("*.py")
                     if p.name not in DRAWING_MODULES)


@dataclass(frozen=True)
class Span:
    """A piece of a notebook cell's code: its cell and where in it."""

    cell: str  #: the cell's file name, ``<gundam-sentinel/02-movement.ipynb cell 14>``
    line: int
    col: int
    end_line: int
    end_col: int


def cell_name(notebook: Path, index: int) -> str:
    return f"<{notebook.parent.name}/{notebook.name} cell {index}>"


def code_cells(notebook: Path) -> list[str]:
    """The code cells' sources, without IPython's ``%`` and ``!`` lines."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    out = []
    for cell in cells:
        if cell["cell_type"] == "code":
            lines = "".join(cell["source"]).splitlines()
            out.append("\n".join(line for line in lines if not line.lstrip().startswith(("%", "!"))))
    return out


# -- where a value comes from: the cells' names, followed --------------------------------------------

_SOURCES = (ast.Call, ast.Attribute, ast.Subscript, ast.BinOp, ast.UnaryOp, ast.Compare)


@dataclass(frozen=True)
class StaticCheck:
    """A ``check_example`` call as written: its cell, its place, and each value's sources."""

    example_id: str
    cell: int
    span: Span
    #: value name -> the spans it is computed from; ``**`` gives its spans to every value not named
    sources: dict[str, frozenset[Span]]
    spread: frozenset[Span] | None


class _Flow:
    def __init__(self, notebook: Path) -> None:
        self.notebook = notebook
        self.bound: dict[str, frozenset[Span]] = {}
        self.tried: list[frozenset[Span]] = []
        self.checks: list[StaticCheck] = []
        self.cell = 0

    def span(self, node: ast.AST) -> Span:
        return Span(cell_name(self.notebook, self.cell), node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)

    def sources(self, node: ast.AST | None) -> frozenset[Span]:
        if node is None:
            return frozenset()
        found: set[Span] = set()
        for sub in ast.walk(node):
            if isinstance(sub, _SOURCES):
                found.add(self.span(sub))
            elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                found |= self.bound.get(sub.id, frozenset())
        return frozenset(found)

    def bind(self, target: ast.AST, sources: frozenset[Span]) -> None:
        for tried in self.tried:
            sources |= tried
        if isinstance(target, ast.Name):
            self.bound[target.id] = self.bound.get(target.id, frozenset()) | sources
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.bind(element, sources)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, sources)
        elif isinstance(target, (ast.Subscript, ast.Attribute)):  # table[k] = v fills table
            self.bind(target.value, sources | self.sources(target))

    def statements(self, body: Iterable[ast.stmt]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, stmt: ast.stmt) -> None:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "check_example":
                self.record(node)
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                self.bind(target, self.sources(stmt.value))
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            if stmt.value is not None:
                self.bind(stmt.target, self.sources(stmt.value) | self.sources(stmt.target))
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            for _ in range(2):  # twice: a name bound late in the body feeds the next round
                self.bind(stmt.target, self.sources(stmt.iter))
                self.statements(stmt.body)
            self.statements(stmt.orelse)
        elif isinstance(stmt, ast.While):
            for _ in range(2):
                self.statements(stmt.body)
        elif isinstance(stmt, ast.If):
            self.statements(stmt.body)
            self.statements(stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, self.sources(item.context_expr))
            self.statements(stmt.body)
        elif isinstance(stmt, ast.Try):
            tried = frozenset().union(*(self.sources(s) for s in stmt.body))
            self.tried.append(tried)
            self.statements(stmt.body)
            for handler in stmt.handlers:
                self.statements(handler.body)
            self.statements(stmt.orelse)
            self.tried.pop()
            self.statements(stmt.finalbody)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            self.filled_by_method(stmt.value)

    def filled_by_method(self, call: ast.Call) -> None:
        """``table.setdefault(rule(x), []).append(y)``: the name filled takes the call's sources."""
        node: ast.AST = call
        while isinstance(node, (ast.Call, ast.Attribute, ast.Subscript)):
            node = node.func if isinstance(node, ast.Call) else node.value
        if isinstance(node, ast.Name) and node.id in self.bound:
            self.bind(node, self.sources(call))

    def record(self, call: ast.Call) -> None:
        if not call.args or not isinstance(call.args[0], ast.Constant) or not isinstance(call.args[0].value, str):
            return
        named = {kw.arg: self.sources(kw.value) for kw in call.keywords if kw.arg}
        spread = [self.sources(kw.value) for kw in call.keywords if kw.arg is None]
        self.checks.append(StaticCheck(call.args[0].value, self.cell, self.span(call), named,
                                       frozenset().union(*spread) if spread else None))


def static_checks(notebook: Path) -> list[StaticCheck]:
    flow = _Flow(notebook)
    for index, source in enumerate(code_cells(notebook)):
        flow.cell = index
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        flow.statements(tree.body)
    return flow.checks


# -- what the cells reach: a tracer --------------------------------------------------------------


@dataclass
class _Reach:
    functions: set[tuple[str, str]] = field(default_factory=set)  #: (file, qualname)
    lines: set[tuple[str, int]] = field(default_factory=set)


class _Tracer:
    """Records, for the cells' expressions that are running, the rule functions called and their lines."""

    def __init__(self, rule_files: frozenset[str], cells: set[str]) -> None:
        self.rule_files, self.cells = rule_files, cells
        self.active: dict[Any, frozenset[Span]] = {}
        self.reach: dict[frozenset[Span], _Reach] = {}
        self._positions: dict[Any, list] = {}

    def spans_on_stack(self, frame) -> frozenset[Span]:
        found = []
        frame = frame.f_back
        while frame is not None:
            code = frame.f_code
            if code.co_filename in self.cells:
                positions = self._positions.get(code)
                if positions is None:
                    positions = self._positions[code] = list(code.co_positions())
                line, end_line, col, end_col = positions[frame.f_lasti // 2]
                if line is not None:
                    found.append(Span(code.co_filename, line, col, end_line, end_col))
            frame = frame.f_back
        return frozenset(found)

    def __call__(self, frame, event, arg):
        code = frame.f_code
        if code.co_filename not in self.rule_files:
            return None
        spans = self.active.get(frame.f_back)
        if spans is None:
            spans = self.spans_on_stack(frame)
            if not spans:
                return None  # not called from a notebook (an import, say)
        self.active[frame] = spans
        reach = self.reach.get(spans)
        if reach is None:
            reach = self.reach[spans] = _Reach()
        reach.functions.add((code.co_filename, code.co_qualname))
        lines = reach.lines
        filename = code.co_filename

        def local(frame, event, arg):
            if event == "line":
                lines.add((filename, frame.f_lineno))
            elif event == "return":
                self.active.pop(frame, None)
            return local

        return local

    def by_span(self) -> dict[Span, _Reach]:
        out: dict[Span, _Reach] = {}
        for spans, reach in self.reach.items():
            for span in spans:
                mine = out.setdefault(span, _Reach())
                mine.functions |= reach.functions
                mine.lines |= reach.lines
        return out


# -- running the book ----------------------------------------------------------------------------


@dataclass
class TracedCheck:
    """A ``check_example`` call as it ran: the values it passed and, per value, what they reached."""

    example_id: str
    notebook: Path
    cell: int
    span: Span
    values: dict[str, Any]
    #: value name -> the spans it comes from (see `StaticCheck`)
    sources: dict[str, frozenset[Span]]


class _Recorder:
    """Stands in for ``check_example`` while the book runs: records what each call passes.

    In the book's own run a value that differs from the text fails the cell, as under nbval; in a
    replay under a wrong rule the difference is what is looked for, so the call only records."""

    def __init__(self, real, cells: set[str]) -> None:
        self.real, self.cells = real, cells
        self.calls: dict[tuple[str, Span | None], dict[str, Any]] = {}
        self.replaying = False

    def __call__(self, example_id: str, **values: Any):
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename not in self.cells:
            frame = frame.f_back
        span = None
        if frame is not None:
            line, end_line, col, end_col = list(frame.f_code.co_positions())[frame.f_lasti // 2]
            span = Span(frame.f_code.co_filename, line, col, end_line, end_col)
        self.calls[(example_id, span)] = values
        if not self.replaying:
            return self.real(example_id, **values)
        try:
            return self.real(example_id, **values)
        except AssertionError:
            return None


@contextlib.contextmanager
def _checks_recorded_by(recorder: _Recorder):
    import rules_lib.catalogue as catalogue

    catalogue.check_example = recorder
    try:
        yield recorder
    finally:
        catalogue.check_example = recorder.real


def _no_display(*objects: Any, **options: Any) -> None:
    return None


class Book:
    """The notebooks that check entries, run once in this process, with what each cell starts from."""

    def __init__(self, notebooks: list[Path]) -> None:
        self.notebooks = notebooks
        self.cells = {nb: code_cells(nb) for nb in notebooks}
        self.compiled = {nb: [compile(src, cell_name(nb, i), "exec") for i, src in enumerate(cells)]
                         for nb, cells in self.cells.items()}
        #: cell name -> its top-level statements, each compiled on its own (a replay runs a slice of them)
        self.statements: dict[str, list[tuple[ast.stmt, Any]]] = {}
        for nb, cells in self.cells.items():
            for i, src in enumerate(cells):
                name = cell_name(nb, i)
                try:
                    body = ast.parse(src).body
                except SyntaxError:
                    body = []
                self.statements[name] = [(stmt, compile(ast.Module([stmt], []), name, "exec")) for stmt in body]
        self.snapshots: dict[Path, list[dict[str, Any]]] = {}
        self.checks: list[TracedCheck] = []
        self.reach: dict[Span, _Reach] = {}
        self.errors: list[str] = []
        import rules_lib.catalogue as catalogue

        names = {cell_name(nb, i) for nb in notebooks for i in range(len(self.cells[nb]))}
        self.recorder = _Recorder(catalogue.check_example, names)

    def run(self, trace: bool = True) -> None:
        tracer = _Tracer(rule_files(), self.recorder.cells)
        with _checks_recorded_by(self.recorder) as recorder:
            for notebook in self.notebooks:
                namespace: dict[str, Any] = {"__name__": "__main__", "display": _no_display}
                shots = self.snapshots[notebook] = []
                for index, code in enumerate(self.compiled[notebook]):
                    if trace:
                        sys.settrace(tracer)
                    try:
                        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                            exec(code, namespace)
                    except Exception as error:  # noqa: BLE001 - nbval reports it; here it is named
                        self.errors.append(f"{cell_name(notebook, index)}: {error!r}"[:300])
                    finally:
                        sys.settrace(None)
                    shots.append(dict(namespace))  # what the notebook holds after the cell
        self.reach = tracer.by_span()
        statics = {(s.example_id, s.span): s for nb in self.notebooks for s in static_checks(nb)}
        for (example_id, span), values in recorder.calls.items():
            static = statics.get((example_id, span))
            if static is None or span is None:
                continue
            notebook = next(nb for nb in self.notebooks if span.cell.startswith(f"<{nb.parent.name}/{nb.name} "))
            sources = {key: static.sources.get(key, static.spread or frozenset()) for key in values}
            self.checks.append(TracedCheck(example_id, notebook, static.cell, span, values, sources))

    def slice_of(self, check: TracedCheck, keys: Iterable[str]) -> tuple[tuple[str, int], ...]:
        """The statements the values ``keys`` of ``check`` are computed by, in the order they ran,
        and the check's own statement last: (cell name, statement index) pairs."""
        wanted = set()
        for span in [check.span, *(s for key in keys for s in check.sources.get(key, ()))]:
            for index, (stmt, _) in enumerate(self.statements.get(span.cell, ())):
                if stmt.lineno <= span.line <= stmt.end_lineno:
                    wanted.add((span.cell, index))
        order = {cell_name(check.notebook, i): i for i in range(len(self.cells[check.notebook]))}
        return tuple(sorted((w for w in wanted if w[0] in order and order[w[0]] <= check.cell),
                            key=lambda w: (order[w[0]], w[1])))

    def replay(self, check: TracedCheck, statements: tuple[tuple[str, int], ...]) -> dict[tuple[str, Span], dict[str, Any]]:
        """Run ``statements`` again on what the notebook held after the check's cell; the values
        each check among them passed. Names the slice does not bind keep the values they had."""
        namespace = dict(self.snapshots[check.notebook][check.cell])
        recorder = self.recorder
        kept, recorder.calls, recorder.replaying = recorder.calls, {}, True
        try:
            with _checks_recorded_by(recorder):
                for cell, index in statements:
                    try:
                        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                            exec(self.statements[cell][index][1], namespace)
                    except TimeoutError:
                        raise
                    except Exception:  # noqa: BLE001 - a wrong rule may well raise
                        pass
            return recorder.calls
        finally:
            recorder.calls, recorder.replaying = kept, False

    def reached(self, check: TracedCheck, key: str) -> _Reach:
        """The rule functions and lines the value ``key`` of ``check`` reached."""
        out = _Reach()
        for span in check.sources.get(key, ()):
            reach = self.reach.get(span)
            if reach is not None:
                out.functions |= reach.functions
                out.lines |= reach.lines
        return out


def book_notebooks(chapters: Iterable[str] | None = None) -> list[Path]:
    """The notebooks with a ``check_example`` call, of the given chapters (default: all)."""
    folders = [ROOT / "book" / c for c in chapters] if chapters else sorted(p for p in (ROOT / "book").iterdir() if p.is_dir())
    return [nb for folder in folders for nb in sorted(folder.glob("*.ipynb")) if "check_example(" in nb.read_text(encoding="utf-8")]


# -- witnesses -----------------------------------------------------------------------------------


def _live_function(module, qualname: str):
    """The function object whose code is ``qualname`` in ``module`` (through properties and wrappers)."""
    target: Any = module
    for part in qualname.split("."):
        target = (target.__dict__.get(part) if isinstance(target, type) else getattr(target, part, None))
        if target is None:
            return None
    for attribute in ("fget", "__func__", "func"):
        if hasattr(target, attribute) and not hasattr(target, "__code__"):
            target = getattr(target, attribute)
    seen = 0
    while not (hasattr(target, "__code__") and target.__code__.co_qualname == qualname) and seen < 10:
        target = getattr(target, "__wrapped__", None)
        if target is None:
            return None
        seen += 1
    return target


@cache
def _imports() -> dict[str, set[str]]:
    """Rule module -> the rules_lib modules it imports (a package's ``__init__`` counts as its modules)."""
    found: dict[str, set[str]] = {}
    for filename in rule_files() | {str(p) for p in (ROOT / "rules_lib").glob("*.py")}:
        path = Path(filename)
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
                names.add(base)
                names.update(f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        found[name] = {n for n in names if n.startswith("rules_lib")}
    return found


@cache
def dependents(module: str) -> frozenset[str]:
    """``module`` and every rule module that imports it, directly or through others: the caches a
    change to it can reach."""
    imports = _imports()
    out = {module}
    while True:
        more = {m for m, names in imports.items() if m not in out and names & out}
        if not more:
            return frozenset(out)
        out |= more


def _clear_caches(modules: Iterable[Any]) -> None:
    for module in modules:
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


#: point key -> the code object of its function with the change (or None)
_MUTATED_CODE: dict[str, Any] = {}


@contextlib.contextmanager
def swapped(point: Point):
    """``point``'s function runs with its change while inside (its code object swapped in place)."""
    import importlib

    module = importlib.import_module(point.module)
    function = _live_function(module, point.top)
    if function is None:
        raise LookupError(f"{point.key}: no live function {point.top}")
    if point.key not in _MUTATED_CODE:  # the same point is tried by many checks: compile it once
        _MUTATED_CODE[point.key] = mutated_function(point)
    code = _MUTATED_CODE[point.key]
    if code is None or code.co_freevars != function.__code__.co_freevars:
        raise LookupError(f"{point.key}: cannot swap {point.top}")
    rule_modules = [sys.modules[name] for name in dependents(point.module) if name in sys.modules]
    original = function.__code__
    _clear_caches(rule_modules)
    function.__code__ = code

    def timeout(signum, frame):
        raise TimeoutError("a replay under a wrong rule ran too long")

    previous = signal.signal(signal.SIGALRM, timeout)
    # repeating: a wrong rule that swallows the first TimeoutError in a loop gets another
    signal.setitimer(signal.ITIMER_REAL, REPLAY_SECONDS, REPLAY_SECONDS / 10)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        function.__code__ = original
        _clear_caches(rule_modules)


def _same(a: Any, b: Any) -> bool:
    from rules_lib.catalogue import _same as same

    try:
        return bool(same(a, b))
    except Exception:  # noqa: BLE001 - values a wrong rule made may not even compare
        return False


@dataclass
class Verdict:
    """What decides one value of one check: a witness point, under which the check passes a
    different value, or nothing (the value is read back: a fact). A wrong rule under which the
    computation only raises is no witness: it may break a shared step (a sheet's text) of values
    that are read back all the same."""

    example_id: str
    key: str
    witness: Point | None
    functions: frozenset[tuple[str, str]]


def candidates(book: Book, check: TracedCheck, key: str) -> list[Point]:
    """Points on lines the value's computation ran, in the functions it reached (the system's own first)."""
    reach = book.reached(check, key)
    by_file: dict[str, set[int]] = {}
    for filename, line in reach.lines:
        by_file.setdefault(filename, set()).add(line)
    functions = {(f, q) for f, q in reach.functions}
    found = []
    for filename, lines in by_file.items():
        for point in points_of(Path(filename)):
            if point.at_import or point.line not in lines:
                continue
            # the point's own function (or one around it) must be one the value reached
            qualified = point.function
            if not any((filename, q) in functions for q in _enclosing(qualified)):
                continue
            found.append(point)
    return found


def _enclosing(qualname: str) -> list[str]:
    parts = qualname.split(".")
    return [".".join(parts[:n]) for n in range(len(parts), 0, -1)] + [
        ".".join(parts[:n]).replace(".", ".<locals>.") for n in range(len(parts), 0, -1)]


def witnesses(book: Book, example_ids: set[str] | None = None, skip: dict[str, tuple[str, ...]] | None = None,
              progress=None) -> list[Verdict]:
    """A verdict for every value of every traced check (of ``example_ids``), not those in ``skip``.

    For each check, the points on the lines its values ran are tried one at a time (the slice of
    statements computing the values replayed under each) until every value has a witness or none is left."""
    skip = skip or {}
    verdicts: dict[tuple[str, str], Verdict] = {}
    chosen = [c for c in book.checks if example_ids is None or c.example_id in example_ids]
    endless: set[str] = set()
    for number, check in enumerate(chosen):
        if progress:
            progress(number, len(chosen))
        keys = [k for k in check.values if k not in skip.get(check.example_id, ())]
        for key in keys:
            functions = frozenset(book.reached(check, key).functions)
            verdict = verdicts.setdefault((check.example_id, key), Verdict(check.example_id, key, None, functions))
            verdict.functions |= functions
        open_keys = [k for k in keys if verdicts[(check.example_id, k)].witness is None]
        if not open_keys:
            continue
        statements = book.slice_of(check, open_keys)
        own = {key: {p.key for p in candidates(book, check, key)} for key in open_keys}
        tried = sorted({p.key: p for key in open_keys for p in candidates(book, check, key)
                        if not p.picks_a_row}.values(), key=_candidate_order)
        for point in tried:
            if not open_keys:
                break
            if point.key in endless:
                continue
            try:
                with swapped(point):
                    calls = book.replay(check, statements)
            except LookupError:
                continue
            except TimeoutError:
                endless.add(point.key)
                continue
            values = calls.get((check.example_id, check.span)) or {}
            for key in list(open_keys):
                if point.key in own[key] and key in values and not _same(values[key], check.values[key]):
                    verdicts[(check.example_id, key)].witness = point
                    open_keys.remove(key)
    return list(verdicts.values())


def _candidate_order(point: Point) -> tuple:
    shared = ("/rules_lib/dice/", "/rules_lib/geometry/")
    return (any(s in str(point.file) for s in shared), str(point.file), point.line, point.index)


def reproduced_facts() -> dict[str, tuple[str, ...]]:
    """For each ``reproduced`` entry, the values it declares as facts (no witness is asked of them)."""
    from rules_lib.catalogue import load_catalogue

    return {i: e.facts for i, e in load_catalogue().items() if e.status == "reproduced"}


def unwitnessed(verdicts: list[Verdict]) -> list[Verdict]:
    """The values of ``reproduced`` entries, not declared facts, that no rule's code decides."""
    facts = reproduced_facts()
    return [v for v in verdicts if v.example_id in facts and v.key not in facts[v.example_id] and v.witness is None]


def check() -> int:
    """Every value of every reproduced entry, not a declared fact, has a witness; every such entry
    has a traced value; no cell raises. Prints what fails (the test runs this in a fresh process)."""
    book = Book(book_notebooks())
    book.run()
    facts = reproduced_facts()
    verdicts = witnesses(book, set(facts), facts)
    read_back = sorted(f"{v.example_id}: {v.key}" for v in unwitnessed(verdicts))
    untraced = sorted(set(facts) - {v.example_id for v in verdicts})
    for error in book.errors:
        print(f"a cell of the book raises: {error}")
    for value in read_back:
        print(f"read back, no wrong rule changes it: {value}")
    for example_id in untraced:
        print(f"reproduced, but the book never passes a value that is not a fact: {example_id}")
    print(f"{len(verdicts)} values of {len(facts)} reproduced entries traced")
    return 1 if book.errors or read_back or untraced else 0


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*", help="entries to show (default: every reproduced entry)")
    parser.add_argument("--chapter", action="append", default=None, help="only this chapter's notebooks")
    parser.add_argument("--all-values", action="store_true", help="also the values declared as facts")
    parser.add_argument("--check", action="store_true",
                        help="what tests/test_catalogue.py asks: print only what fails, exit 1 if anything does")
    args = parser.parse_args(argv)
    if args.check:
        return check()
    from rules_lib.catalogue import load_catalogue

    catalogue = load_catalogue()
    book = Book(book_notebooks(args.chapter))
    book.run()
    for error in book.errors:
        print(f"cell error: {error}")
    wanted = set(args.ids) if args.ids else {i for i, e in catalogue.items() if e.status == "reproduced"}
    skip = {} if args.all_values else reproduced_facts()
    verdicts = sorted(witnesses(book, wanted, skip), key=lambda v: (v.example_id, v.key))
    missing = 0
    for v in verdicts:
        if v.witness is None:
            missing += 1
            reached = ", ".join(sorted(q for _, q in v.functions)) or "no rule function"
            print(f"{v.example_id}: {v.key}: NO WITNESS (reached: {reached})")
        else:
            print(f"{v.example_id}: {v.key}: changed by {v.witness.where} {v.witness.function}: "
                  f"{v.witness.snippet}: {v.witness.description}")
    print(f"\n{len(verdicts)} values, {missing} without a witness")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
