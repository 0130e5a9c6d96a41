"""Mutation run over the rule modules: does a catalogue check fail when a rule is wrong?

For each system, its rule modules (``rules_lib/<package>/*.py``; in the run named ``shared``, the
dice and geometry code every chapter uses) are changed one small change at a time
(``tools/mutants.py``: comparisons, arithmetic, numbers moved by one, flags, ``min``/``max``, clamps,
refusals dropped, branches swapped; module constants, default arguments, the bounds of input checks
and f-strings that are results included), and the book's own check cells run against each
**mutant**: the notebooks' code cells are executed in-process (no Jupyter kernel), in a forked child
that imports the changed module instead of the real one. Only lines some check's cells execute are
changed (the baseline run records them with ``coverage``). A mutant is

- **killed by the book** when a ``check_example`` call fails, or a cell leading to one raises;
- **killed only by pytest** when the book's checks pass but a unit test that runs the changed line
  fails (the baseline records, per test, the lines it runs and its time; a mutant runs those tests,
  the fastest first, until one fails; tests that need the built site or a browser are left out; by
  default only survivors in rules a check reaches go to this stage, ``--pytest-all`` sends every one);
- a **survivor** otherwise. A survivor is **in a checked rule** when its function is one a check
  reaches (the functions the values it passes were computed by, directly or through calls, traced
  by ``tools/check_trace.py``), or its constant is read by such a function or by the check's cells.

Every survivor in a checked rule must be killed (a check, or a test) or listed, with its reason, in
``tools/mutation_equivalents.toml``; an equivalent whose key names no live mutant, or that a check or
test kills, is an error too. The report also names every ``reproduced`` entry no mutant made fail,
and every value of a ``reproduced`` entry (not listed in its ``facts``) that no mutant of a rule's
code changed (the value is read back, not computed). All of those lists should be empty; the run
exits non-zero otherwise.

Why a small home-made mutator and not mutmut or cosmic-ray: the checks live in notebooks, not in
pytest. Those tools run the test command once per mutant, which here would be nbval starting a
Jupyter kernel for each notebook: minutes per mutant on this project's shared 2-core machine.
Executing the cells in a forked process takes a fraction of a second per mutant, and knowing which
cells each check needs lets a mutant run only the notebooks that can see it.

Usage: ``python tools/mutation.py [system ...] [--jobs N] [--only GLOB] [--no-pytest] [--json PATH]``
(``make mutation``). Systems: any of the registry's (``rules_lib.systems``), and shared (default: all).
``--only`` changes only matching modules (for work on one file); its entry and value lists are then partial.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
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
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from check_trace import code_cells  # noqa: E402
from mutants import DRAWING_MODULES, Point, mutated_module, points_of  # noqa: E402

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
CACHE = ROOT / ".cache" / "mutation"
#: seconds a mutant may run the book's checks before it counts as killed (an endless loop fails too)
TIMEOUT = 60
#: seconds a mutant may at least run its unit tests (or three times what they took unchanged); more
#: counts as killed: a test that never ends fails
PYTEST_TIMEOUT = 120
#: unit tests the pytest stage leaves out: the slow tests of the checks themselves
PYTEST_SKIPPED = ("tests/test_checks_can_fail.py", "tests/test_catalogue.py::test_every_reproduced_value")


# -- the notebooks: cells, and which cells each check needs ---------------------------------------


@dataclass(frozen=True)
class Check:
    """One ``check_example`` call: its notebook, the code cell it is in, and the cells that lead to it."""

    example_id: str
    notebook: Path
    cell: int
    segment: tuple[int, ...]


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


def run_checks(notebooks: dict[Path, int], coverage_of=None, wrong: dict[str, set[str]] | None = None) -> dict[str, bool]:
    """Execute each notebook's code cells up to the given cell; example id -> whether its check passed.

    A check whose cell is not reached, or whose segment raised, counts as failed. With
    ``coverage_of`` (a started ``coverage.Coverage``), each cell is measured in its own context.
    With ``wrong``, the names of the values each failing check got wrong are added to it.
    """
    from IPython.display import display

    import rules_lib.catalogue as catalogue

    original = catalogue.check_example
    results: dict[str, bool] = {}

    def recording_check(example_id: str, **computed):
        if wrong is not None:
            stated = catalogue.get_example(example_id).expected
            moved = {k for k in stated if k in computed and not _same(computed[k], stated[k])}
            if moved:
                wrong.setdefault(example_id, set()).update(moved)
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


def _same(a, b) -> bool:
    from rules_lib.catalogue import _same as same

    try:
        return bool(same(a, b))
    except Exception:  # noqa: BLE001 - a wrong rule's value may not even compare
        return False


def _quiet_fds() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)


def _child(task, write_fd: int) -> None:
    """In a forked child: import the mutant (if any), run the checks or the tests, send the result back."""
    try:
        signal.alarm(task.get("timeout", TIMEOUT))
        _purge_rules_lib()
        if task["mutant"] is not None:
            module, code, path = task["mutant"]
            sys.meta_path.insert(0, _MutantFinder(module, code, path))
        if task.get("pytest"):
            import pytest

            _quiet_fds()
            status = pytest.main([*task["pytest"], "-x", "-q", "-p", "no:cacheprovider", "--no-header"], plugins=[])
            payload = json.dumps({"pytest": int(status)}).encode()
        else:
            wrong: dict[str, set[str]] = {}
            results = run_checks(task["notebooks"], wrong=wrong)
            payload = json.dumps({"failed": sorted(i for i, ok in results.items() if not ok),
                                  "wrong": {i: sorted(keys) for i, keys in wrong.items()}}).encode()
    except BaseException as error:  # the mutant broke even the import: everything fails
        payload = json.dumps({"error": repr(error)[:200]}).encode()
    with os.fdopen(write_fd, "wb") as pipe:
        pipe.write(payload)
    os._exit(0)


def in_child(task) -> dict:
    """Run ``task`` in a forked process: its result, {"error": ...}, or {"timeout": True}."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(task, write_fd)
    os.close(write_fd)
    chunks = []
    deadline = time.monotonic() + task.get("timeout", TIMEOUT) + 5
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


def _forked(function, *args):
    """``function(*args)`` in a forked child (with rules_lib imported afresh); its JSON result."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            _purge_rules_lib()
            payload = json.dumps(function(*args)).encode()
        except BaseException as error:
            payload = json.dumps({"error": repr(error)}).encode()
        with os.fdopen(write_fd, "wb") as pipe:
            pipe.write(payload)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        data = json.loads(pipe.read())
    os.waitpid(pid, 0)
    if isinstance(data, dict) and "error" in data:
        raise SystemExit(f"baseline run failed: {data['error']}")
    return data


# -- the baseline: lines the checks run, functions their values reach ----------------------------


def _coverage_of_checks(sources: tuple[str, ...], checks: list[Check]) -> dict:
    import coverage

    cov = coverage.Coverage(data_file=None, include=[str(ROOT / source / "*.py") for source in sources])
    cov.start()
    notebooks: dict[Path, int] = {}
    for check in checks:
        notebooks[check.notebook] = max(notebooks.get(check.notebook, 0), check.cell)
    results = run_checks(notebooks, cov)
    cov.stop()
    data = cov.get_data()
    lines = {f: {n: list(c) for n, c in data.contexts_by_lineno(f).items()} for f in data.measured_files()}
    return {"results": results, "lines": lines}


def baseline_coverage(sources: tuple[str, ...], checks: list[Check]) -> dict[Path, dict[int, set[str]]]:
    """Run every check once, measured: module file -> line -> the example ids whose segment reaches it."""
    data = _forked(_coverage_of_checks, sources, checks)
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


def _reach_of_checks(chapters: tuple[str, ...]) -> dict:
    import check_trace

    book = check_trace.Book(check_trace.book_notebooks(chapters))
    book.run()
    functions: set[tuple[str, str]] = set()
    names: set[str] = set()
    for check in book.checks:
        for key in check.values:
            functions |= book.reached(check, key).functions
        for cell, index in book.slice_of(check, check.values):
            statement = book.statements[cell][index][0]
            names |= {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(statement)
                      if isinstance(n, (ast.Name, ast.Attribute))}
    return {"functions": sorted(functions), "names": sorted(names)}


@dataclass(frozen=True)
class Reach:
    """What a run's checks reach: rule functions (file, qualified name) and the names they read."""

    functions: frozenset[tuple[str, str]]
    names: frozenset[str]

    def reaches(self, point: Point) -> bool:
        """Whether a check reaches ``point``: its function, or (at import) a name it binds."""
        if point.at_import:
            return bool(set(point.binds) & self.names)
        filename = str(point.file.resolve())
        parts = point.function.split(".")
        for n in range(len(parts), 0, -1):
            if (filename, ".".join(parts[:n])) in self.functions:
                return True
        return any(f == filename and q.startswith(parts[0] + ".<locals>") for f, q in self.functions)


def baseline_reach(chapters: tuple[str, ...]) -> Reach:
    data = _forked(_reach_of_checks, chapters)
    functions = frozenset((f, q) for f, q in data["functions"])
    names = set(data["names"])
    for filename, qualname in functions:  # the names the reached functions read
        names |= _names_read(Path(filename), qualname)
    return Reach(functions, frozenset(names))


def _names_read(path: Path, qualname: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    target = qualname.replace(".<locals>", "").split(".")
    nodes: list[ast.AST] = [tree]
    for part in target:
        nodes = [child for node in nodes for child in ast.iter_child_nodes(node)
                 if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and child.name == part]
        if not nodes:
            return set()
    return {n.id if isinstance(n, ast.Name) else n.attr for node in nodes for n in ast.walk(node)
            if isinstance(n, (ast.Name, ast.Attribute))}


# -- the unit tests: which test runs which line ---------------------------------------------------


def _tree_digest() -> str:
    digest = hashlib.sha256()
    for folder in ("rules_lib", "tests"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".toml", ".json") and "__pycache__" not in path.parts:
                digest.update(path.relative_to(ROOT).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _pytest_coverage() -> dict:
    import coverage
    import pytest

    cov = coverage.Coverage(data_file=None, include=[str(ROOT / "rules_lib" / "*")])
    failed: list[str] = []
    seconds: dict[str, float] = {}

    class Contexts:
        @pytest.hookimpl(tryfirst=True)
        def pytest_collection_modifyitems(self, config, items):
            kept = [item for item in items if "site_dir" not in getattr(item, "fixturenames", ())
                    and not item.get_closest_marker("browser")
                    and not any(item.nodeid.startswith(s) for s in PYTEST_SKIPPED)]
            items[:] = kept

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item, nextitem):
            cov.switch_context(item.nodeid)
            yield
            cov.switch_context("")

        def pytest_runtest_logreport(self, report):
            seconds[report.nodeid] = seconds.get(report.nodeid, 0.0) + report.duration
            if report.failed:
                failed.append(report.nodeid)

    _quiet_fds()
    cov.start()
    pytest.main(["tests", "-q", "-p", "no:cacheprovider", "-m", "not browser", "--no-header"], plugins=[Contexts()])
    cov.stop()
    data = cov.get_data()
    lines = {f: {n: sorted(c for c in cs if c) for n, cs in data.contexts_by_lineno(f).items()}
             for f in data.measured_files()}
    return {"lines": lines, "failed": sorted(set(failed)), "seconds": seconds}


def baseline_tests() -> tuple[dict[str, dict[int, list[str]]], dict[str, float]]:
    """File -> line -> the unit tests that run it, fastest first (cached under .cache/ by the tree's
    digest): a mutant's tests stop at the first failure, so the quick ones go first."""
    cached = CACHE / f"pytest-{_tree_digest()}.json"
    if cached.exists():
        data = json.loads(cached.read_text(encoding="utf-8"))
    else:
        print("  the unit tests, measured once per tree (a few minutes)", file=sys.stderr)
        data = _forked(_pytest_coverage)
        CACHE.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(data), encoding="utf-8")
    failed, seconds = set(data["failed"]), data["seconds"]
    by_line = {f: {int(n): sorted((t for t in ts if t not in failed), key=lambda t: (seconds.get(t, 0.0), t))
                   for n, ts in lines.items()}
               for f, lines in data["lines"].items()}
    return by_line, seconds


# -- the run -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    point: Point
    examples: frozenset[str]

    @property
    def key(self) -> str:
        return self.point.key


def _modules(sources: Iterable[str], only: tuple[str, ...]) -> list[Path]:
    paths = []
    for source in sources:
        for path in sorted((ROOT / source).glob("*.py")):
            if path.name == "__init__.py" or path.name in DRAWING_MODULES:
                continue
            if only and not any(path.match(pattern) for pattern in only):
                continue
            paths.append(path)
    return paths


def load_equivalents() -> dict[str, str]:
    if not EQUIVALENTS.exists():
        return {}
    return tomllib.loads(EQUIVALENTS.read_text(encoding="utf-8")).get("equivalent", {})


def _run_all(tasks: list[dict], jobs: int, label: str) -> list[dict]:
    started = time.monotonic()
    results: list[dict] = [{}] * len(tasks)
    if jobs <= 1:
        for number, task in enumerate(tasks):
            results[number] = in_child(task)
            if (number + 1) % 100 == 0:
                print(f"  {label}: {number + 1}/{len(tasks)}, {time.monotonic() - started:.0f} s", file=sys.stderr)
        return results
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(jobs) as pool:
        for number, result in enumerate(pool.map(in_child, tasks)):
            results[number] = result
            if (number + 1) % 100 == 0:
                print(f"  {label}: {number + 1}/{len(tasks)}, {time.monotonic() - started:.0f} s", file=sys.stderr)
    return results


def run_system(system: str, jobs: int, only: tuple[str, ...] = (), use_pytest: bool = True,
               pytest_all: bool = False) -> dict:
    from rules_lib.catalogue import load_catalogue

    sources, chapters = TARGETS[system]
    catalogue = load_catalogue()
    checks = [check for chapter in chapters for check in checks_of(ROOT / "book" / chapter)]
    started = time.monotonic()
    covered = baseline_coverage(sources, checks)
    reach = baseline_reach(chapters)
    every_check = frozenset(c.example_id for c in checks)
    modules = _modules(sources, only)
    mutants = []
    for path in modules:
        lines = covered.get(path.resolve(), {})
        for point in points_of(path):
            if point.line in lines:
                mutants.append(Mutant(point, every_check if point.at_import else frozenset(lines[point.line])))
    last_cell: dict[str, tuple[Path, int]] = {c.example_id: (c.notebook, c.cell) for c in checks}

    def task_of(mutant: Mutant) -> dict:
        notebooks: dict[Path, int] = {}
        for example_id in mutant.examples:
            notebook, cell = last_cell[example_id]
            notebooks[notebook] = max(notebooks.get(notebook, 0), cell)
        point = mutant.point
        return {"mutant": (point.module, mutated_module(point), point.file), "notebooks": notebooks}

    book = _run_all([task_of(m) for m in mutants], jobs, f"{system}, the book's checks")
    killed_by_book, survivors = [], []
    failed_by: dict[str, int] = {}
    changed: dict[str, set[str]] = {}  # example id -> values some mutant of a rule's code changed
    for mutant, result in zip(mutants, book, strict=True):
        if "failed" in result and not result["failed"]:
            survivors.append(mutant)
            continue
        killed_by_book.append(mutant)
        for example_id in result.get("failed", mutant.examples):
            failed_by[example_id] = failed_by.get(example_id, 0) + 1
        if not mutant.point.at_import and not mutant.point.picks_a_row:
            for example_id, keys in result.get("wrong", {}).items():
                changed.setdefault(example_id, set()).update(keys)

    killed_by_tests: list[Mutant] = []
    if use_pytest and survivors:
        tests, seconds = baseline_tests()
        tasks, asked = [], []
        for mutant in survivors:
            if not (pytest_all or reach.reaches(mutant.point)):
                continue
            by_line = tests.get(str(mutant.point.file.resolve()), {})
            if mutant.point.at_import:
                nodeids = list(dict.fromkeys(t for ts in by_line.values() for t in ts))
            else:
                nodeids = list(by_line.get(mutant.point.line, ()))
            if nodeids:
                point = mutant.point
                usual = sum(seconds.get(t, 1.0) for t in nodeids)
                tasks.append({"mutant": (point.module, mutated_module(point), point.file), "pytest": nodeids,
                              "timeout": int(max(PYTEST_TIMEOUT, 3 * usual + 30))})
                asked.append(mutant)
        for mutant, result in zip(asked, _run_all(tasks, jobs, f"{system}, the unit tests"), strict=True):
            if result.get("pytest", 1) != 0:
                killed_by_tests.append(mutant)
        killed = {m.key for m in killed_by_tests}
        survivors = [m for m in survivors if m.key not in killed]

    equivalents = load_equivalents()
    live = {p.key for path in modules for p in points_of(path)}
    mine = {k for k in equivalents if any(k.startswith(p.relative_to(ROOT).as_posix() + ":") for p in modules)}
    surviving = {m.key for m in survivors}
    in_checked = [m for m in survivors if reach.reaches(m.point) and m.key not in equivalents]
    reproduced = sorted(i for i in last_cell if catalogue[i].status == "reproduced"
                        and (system == "shared" or catalogue[i].system == system))
    return {
        "system": system,
        "mutants": len(mutants),
        "killed_by_book": len(killed_by_book),
        "killed_only_by_pytest": len(killed_by_tests),
        "survivors": len(survivors),
        "score_book": len(killed_by_book) / len(mutants) if mutants else 1.0,
        "score": (len(killed_by_book) + len(killed_by_tests)) / len(mutants) if mutants else 1.0,
        "survivors_in_checked_rules": [_describe(m) for m in in_checked],
        "survivors_elsewhere": [_describe(m) for m in survivors if not reach.reaches(m.point) and m.key not in equivalents],
        "equivalents_used": sorted(k for k in mine if k in surviving),
        "equivalents_stale": sorted(k for k in mine if k not in live),
        "equivalents_killed": sorted(k for k in mine if k in live and k not in surviving
                                     and any(m.key == k for m in mutants)),
        "reproduced_checked": reproduced,
        "dice_checked": sorted({c.example_id for c in checks if c.notebook.parent.name == "dice"}),
        "failed_entries": sorted(failed_by),
        "changed_values": {i: sorted(keys) for i, keys in changed.items()},
        "seconds": round(time.monotonic() - started, 1),
    }


def _describe(mutant: Mutant) -> dict:
    point = mutant.point
    return {"key": point.key, "where": point.where, "function": point.function}


def _unchanged_values(reports: list[dict]) -> dict[str, list[str]]:
    """Values of reproduced entries, not listed as facts, that no mutant of a rule's code changed."""
    from rules_lib.catalogue import load_catalogue

    catalogue = load_catalogue()
    changed: dict[str, set[str]] = {}
    for r in reports:
        for i, keys in r["changed_values"].items():
            changed.setdefault(i, set()).update(keys)
    # a system's entries are judged by its own run (the shared run changes the dice and the geometry,
    # not the rules that use them); the shared run judges the entries of the dice chapter
    systems_run = {r["system"] for r in reports}
    judged = {i for r in reports for i in r["reproduced_checked"]
              if catalogue[i].system in systems_run or (r["system"] == "shared" and i in r["dice_checked"])}
    out = {}
    for i in sorted(judged):
        entry = catalogue[i]
        unchanged = [k for k in entry.expected if k not in entry.facts and k not in changed.get(i, set())]
        if unchanged:
            out[i] = unchanged
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("systems", nargs="*", help=f"any of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--json", type=Path, default=None, help="also write the report as JSON here")
    parser.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="mutate only the modules whose path matches (e.g. 'verse_world/attack.py'); repeatable")
    parser.add_argument("--no-pytest", action="store_true", help="skip the unit-test stage (survivors of the book stay)")
    parser.add_argument("--pytest-all", action="store_true",
                        help="run the unit tests for every survivor, not only those in rules a check reaches")
    parser.add_argument("--show-survivors", action="store_true", help="list every surviving mutant")
    args = parser.parse_args(argv)
    unknown = [s for s in args.systems if s not in TARGETS]
    if unknown:
        parser.error(f"unknown system(s) {unknown}: allowed are {', '.join(TARGETS)}")
    # import the heavy libraries once, before forking, so that each mutant starts fast
    import icepool  # noqa: F401
    import IPython.display  # noqa: F401
    import ipywidgets  # noqa: F401
    import pytest  # noqa: F401

    os.environ.pop("RULES_LIB_SITE_DIR", None)
    chosen = args.systems or list(TARGETS)
    reports = [run_system(system, args.jobs, tuple(args.only), not args.no_pytest, args.pytest_all)
               for system in chosen]
    bad = False
    failed_somewhere = {i for r in reports for i in r["failed_entries"]}
    judged_by_system = {i for r in reports if r["system"] != "shared" for i in r["reproduced_checked"]}
    for r in reports:
        # the shared run judges only the entries no system run checks (those of the dice chapter)
        pool = [i for i in r["reproduced_checked"] if r["system"] != "shared" or i not in judged_by_system]
        r["reproduced_never_failed"] = [i for i in pool if i not in failed_somewhere]
    unchanged = _unchanged_values(reports) if not args.only else {}

    print("\nper system: mutants on lines the checks run; killed by the book's checks; killed only by the unit "
          "tests; survivors (in rules a check reaches / elsewhere); score (book / all)")
    for r in reports:
        print(f"  {r['system']:16} {r['mutants']:5}  book {r['killed_by_book']:5}  pytest only {r['killed_only_by_pytest']:4}"
              f"  survive {len(r['survivors_in_checked_rules']):3} / {len(r['survivors_elsewhere']):3}"
              f" (+{len(r['equivalents_used'])} equivalent)  score {r['score_book']:.1%} / {r['score']:.1%}"
              f"  ({r['seconds']} s)")
    for r in reports:
        for name, title in (
            ("reproduced_never_failed", "reproduced entries that no mutant made fail"),
            ("equivalents_stale", f"equivalents in {EQUIVALENTS.name} that name no live mutant"),
            ("equivalents_killed", f"equivalents in {EQUIVALENTS.name} that a check or test kills (not equivalent)"),
        ):
            if r[name]:
                bad = True
                print(f"\n{r['system']}: {title}:")
                for item in r[name]:
                    print(f"  {item}")
        if r["survivors_in_checked_rules"]:
            bad = True
            print(f"\n{r['system']}: surviving mutants in rules a check reaches "
                  f"(kill them with a check or a test, or justify them in {EQUIVALENTS.relative_to(ROOT)}):")
            for s in r["survivors_in_checked_rules"]:
                print(f"  {s['where']}  {s['key']}")
        if args.show_survivors and r["survivors_elsewhere"]:
            print(f"\n{r['system']}: survivors in code no check reaches")
            for s in r["survivors_elsewhere"]:
                print(f"  {s['where']}  {s['key']}")
    if unchanged:
        bad = True
        print("\nvalues of reproduced entries (not listed as facts) that no mutant of a rule's code changed:")
        for i, keys in unchanged.items():
            print(f"  {i}: {', '.join(keys)}")
    if args.json:
        for r in reports:
            r["changed_values"] = {i: keys for i, keys in r["changed_values"].items()}
        args.json.write_text(json.dumps({"reports": reports, "unchanged_values": unchanged}, indent=1,
                                        ensure_ascii=False) + "\n", encoding="utf-8")
    if not bad:
        print("\nevery reproduced entry fails under some mutant, every value is changed by one, and no mutant "
              "survives in a rule a check reaches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
