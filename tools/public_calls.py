"""The public API of ``rules_lib`` and the book's real calls to it, for the hostile sweep.

``tests/hostile/test_public_api_sweep.py`` offers hostile values to every public function and
method. Each needs a working call to start from (the other arguments stay as they were): those
are the book's own calls, recorded here once by running every notebook's code in this process
(no Jupyter kernel) under a tracer, and stored in ``tests/hostile/public_calls.json`` as Python
source that rebuilds each argument (``rules_lib.geometry.hex.Hex(q=1, r=2)``). An argument that
cannot be written so (a widget, a function) leaves that call out.

``python tools/public_calls.py`` regenerates the file (about two minutes); the test only reads it.

The public API is every function, class (its constructor) and public method of a class, named
by a module's ``__all__`` (or, without one, its names without a leading underscore) and defined
in that module, in every module of ``rules_lib`` except those that need a user interface: the
calculators (``rules_lib.widgets``), the browser's side of the site (``rules_lib.browser``) and
the command lines (``rules_lib.cli``, ``rules_lib.sheets.cli``, ``rules_lib.__main__``), which
have their own hostile tests.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import importlib
import inspect
import io
import json
import pkgutil
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CALLS_FILE = ROOT / "tests" / "hostile" / "public_calls.json"

#: modules that need a user interface (see the module's docstring)
EXCLUDED = ("rules_lib.widgets", "rules_lib.browser", "rules_lib.cli", "rules_lib.sheets.cli", "rules_lib.__main__")
#: recorded calls kept per function: the first the book makes (the sweep starts from it)
CALLS_PER_FUNCTION = 1
#: the longest source kept for one call (a whole battle state is left out)
MAX_SOURCE = 12_000


def public_modules() -> list[str]:
    """Every module of ``rules_lib`` the sweep reads, in name order."""
    import rules_lib

    names = ["rules_lib"] + [m.name for m in pkgutil.walk_packages(rules_lib.__path__, "rules_lib.")]
    return sorted(n for n in names if not any(n == e or n.startswith(e + ".") for e in EXCLUDED))


def _public_names(module) -> list[str]:
    return list(getattr(module, "__all__", [n for n in vars(module) if not n.startswith("_")]))


def public_callables() -> dict[str, Callable]:
    """``module:qualname`` -> every public function, class and public method (unbound) of the API."""
    found: dict[str, Callable] = {}
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in _public_names(module):
            value = vars(module).get(name)
            if value is None or getattr(value, "__module__", None) != module_name:
                continue  # re-exported (counted where it is defined), lazy, or a constant
            if inspect.isfunction(value):
                found[f"{module_name}:{name}"] = value
            elif inspect.isclass(value) and not issubclass(value, BaseException):
                found[f"{module_name}:{name}"] = value
                for attribute, member in vars(value).items():
                    if attribute.startswith("_"):
                        continue
                    if isinstance(member, (staticmethod, classmethod)):
                        member = member.__func__
                    if inspect.isfunction(member):
                        found[f"{module_name}:{name}.{attribute}"] = getattr(value, attribute)
    return dict(sorted(found.items()))


def is_method(key: str, function: Callable) -> bool:
    """An instance method: its first argument is ``self``."""
    if "." not in key.partition(":")[2] or inspect.isclass(function) or inspect.ismethod(function):
        return False
    parameters = list(inspect.signature(function).parameters)
    return bool(parameters) and parameters[0] == "self"


# -- arguments as source ------------------------------------------------------------------------


def source_of(value: Any, budget: list[int] | None = None) -> str | None:
    """Python source that rebuilds ``value`` (with `namespace`), or ``None`` when there is none."""
    budget = [MAX_SOURCE] if budget is None else budget
    text = _source(value, budget)
    return text if text is not None and budget[0] >= 0 else None


def _source(value: Any, budget: list[int]) -> str | None:
    if budget[0] < 0:
        return None
    text: str | None
    if isinstance(value, enum.Enum):  # before int: an IntEnum is one
        text = f"{_class_path(type(value))}.{value.name}"
    elif value is None or type(value) in (bool, int, str) or (type(value) is float and value == value):
        text = repr(value)
    elif isinstance(value, Fraction):
        text = f"Fraction({value.numerator}, {value.denominator})"
    elif isinstance(value, tuple) and hasattr(type(value), "_fields"):  # a NamedTuple
        parts = [_source(v, budget) for v in value]
        if any(p is None for p in parts):
            return None
        text = f"{_class_path(type(value))}({', '.join(parts)})"
    elif type(value) in (tuple, list, set, frozenset):
        parts = [_source(v, budget) for v in (sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value)]
        if any(p is None for p in parts):
            return None
        inner = ", ".join(parts) + ("," if isinstance(value, tuple) and len(parts) == 1 else "")
        text = {tuple: f"({inner})", list: f"[{inner}]", set: f"{{{inner}}}" if parts else "set()",
                frozenset: f"frozenset([{inner}])"}.get(type(value))
    elif isinstance(value, dict) and type(value) is dict:
        parts = [(_source(k, budget), _source(v, budget)) for k, v in value.items()]
        if any(k is None or v is None for k, v in parts):
            return None
        text = "{" + ", ".join(f"{k}: {v}" for k, v in parts) + "}"
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = []
        for field in dataclasses.fields(value):
            if not field.init:
                continue
            part = _source(getattr(value, field.name), budget)
            if part is None:
                return None
            fields.append(f"{field.name}={part}")
        text = f"{_class_path(type(value))}({', '.join(fields)})"
    else:
        return None
    budget[0] -= len(text)
    return text


def _class_path(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def namespace() -> dict[str, Any]:
    """What the stored sources are evaluated in: ``rules_lib`` with every module imported."""
    import rules_lib

    for name in public_modules():
        importlib.import_module(name)
    return {"rules_lib": rules_lib, "Fraction": Fraction}


# -- recording the book's calls -----------------------------------------------------------------


class _Recorder:
    def __init__(self, callables: dict[str, Callable]) -> None:
        self.keys: dict[Any, tuple[str, bool]] = {}
        for key, function in callables.items():
            if inspect.isclass(function):  # its own __init__ (a dataclass's is made for it)
                target = vars(function).get("__init__")
            else:
                target = inspect.unwrap(function)
            code = getattr(target, "__code__", None)
            if code is not None:
                self.keys.setdefault(code, (key, inspect.isclass(function)))
        self.calls: dict[str, list[dict]] = {}
        self.seen: set[tuple[str, str]] = set()
        self.namespace = namespace()

    def __call__(self, frame, event, arg):
        """The global tracer: a public function's frame is traced to its first line."""
        found = self.keys.get(frame.f_code) if event == "call" else None
        if found is None or len(self.calls.get(found[0], ())) >= CALLS_PER_FUNCTION:
            return None

        def first_line(frame, event, arg):
            # read at the first line, not at the call: in CPython 3.11 reading a frame's locals
            # before its cells are made breaks the function's closures
            self._record(frame, *found)
            return None

        return first_line

    def _record(self, frame, key: str, constructor: bool) -> None:
        call = self._arguments(frame, constructor)
        if call is None:
            return
        fingerprint = json.dumps(call, sort_keys=True)
        if (key, fingerprint) in self.seen:
            return
        self.seen.add((key, fingerprint))
        self.calls.setdefault(key, []).append(call)

    def _arguments(self, frame, constructor: bool) -> dict | None:
        code = frame.f_code
        names = list(code.co_varnames[: code.co_argcount + code.co_kwonlyargcount])
        positional_only = code.co_posonlyargcount
        call: dict[str, Any] = {"args": [], "kwargs": {}}
        budget = [MAX_SOURCE]
        values = frame.f_locals
        for index, name in enumerate(names):
            if index == 0 and (constructor or name == "cls"):
                continue  # the instance being made, or a class method's class
            text = source_of(values[name], budget)
            if text is None or not self._rebuilds(text, values[name]):
                return None
            if index < positional_only:
                call["args"].append(text)
            else:
                call["kwargs"][name] = text
        if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
            return None  # *args and **options are left to the signature's values
        return call

    def _rebuilds(self, text: str, value: Any) -> bool:
        try:
            return bool(eval(text, dict(self.namespace)) == value)  # noqa: S307 - our own sources
        except Exception:  # noqa: BLE001 - a value that does not rebuild is left out
            return False


def _notebooks() -> Iterator[Path]:
    for folder in sorted(p for p in (ROOT / "book").iterdir() if p.is_dir()):
        yield from sorted(folder.glob("*.ipynb"))


def record() -> dict[str, list[dict]]:
    """Run every notebook's code under the recorder: each public function's first distinct calls."""
    sys.path.insert(0, str(ROOT / "tools"))
    from check_trace import cell_name, code_cells

    recorder = _Recorder(public_callables())
    for notebook in _notebooks():
        scope: dict[str, Any] = {"__name__": "__main__", "display": lambda *a, **k: None}
        for index, source in enumerate(code_cells(notebook)):
            try:
                code = compile(source, cell_name(notebook, index), "exec")
            except SyntaxError:
                continue
            sys.settrace(recorder)
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    exec(code, scope)  # noqa: S102 - the book's own cells
            except Exception as error:  # noqa: BLE001 - nbval reports a failing cell; here it is named
                print(f"{cell_name(notebook, index)}: {error!r}"[:200], file=sys.stderr)
            finally:
                sys.settrace(None)
    return dict(sorted(recorder.calls.items()))


def main() -> int:
    calls = record()
    CALLS_FILE.write_text(json.dumps(calls, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{sum(map(len, calls.values()))} calls of {len(calls)} public functions written to {CALLS_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
