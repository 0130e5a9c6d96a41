"""The Python half of the live calculators on the published site (run inside Pyodide, in a Web Worker).

The site shows each calculator from the widget state stored when the book was built.
In the reader's browser, Pyodide then constructs the same calculator class from
``rules_lib``; this module pairs its widget tree with the page's widget models, takes
the reader's input changes (sent by the page as messages), and returns the states that
changed, which the page applies. Every number a reader sees therefore comes from the same library call as in
the notebook.

Calculators mark themselves live with `live_class`, a DOM class that names the
class to construct. Their widget tree must keep its shape (values change, children
do not), which is how the two trees are paired.

Nothing here imports ipywidgets at module level: `install_ipython_stand_in` must
run first in the browser, where IPython (which ipywidgets imports) is not installed.
"""

from __future__ import annotations

import functools
import importlib
import json
import pkgutil
import re
import sys
import types
import weakref
from typing import Any

# re-exported: the site's build and tests read them here, beside the rest of the live bridge
from .live import LIVE_PREFIX as LIVE_PREFIX
from .live import live_class as live_class

#: modules of rules_lib.widgets that hold no calculator of their own
_NOT_CALCULATOR_MODULES = frozenset({"base", "layout", "render"})
_CLASS_NAME = re.compile(r"[A-Z][A-Za-z0-9]*")
#: state keys that are references to other widgets or bookkeeping, never copied
_NOT_COPIED = frozenset({"children", "layout", "style", "_dom_classes", "_view_count", "tabbable", "tooltip"})
#: the widget state keys a reader changes, which the page sends Python (live-calculators.js INPUT_KEYS)
INPUT_KEYS = ("value", "index")
#: widget models whose value a calculator computes, never a reader: `LiveCalculator.preload` is given
#: the stored inputs without them (the page's head would otherwise carry its results twice)
OUTPUT_MODELS = frozenset({"HTMLModel", "HTMLMathModel", "LabelModel"})
#: calculators constructed before the page asked (`prebuild_calculators`): a root widget, a
#: `LiveCalculator` already loaded with the page's stored inputs, or the error constructing one
#: raised; each taken once
_PREBUILT: dict[str, Any] = {}
#: every LiveCalculator not yet collected: the widgets they hold are in use (`orphan_widgets`)
_CALCULATORS: weakref.WeakSet[LiveCalculator] = weakref.WeakSet()


@functools.cache
def calculator_modules() -> frozenset[str]:
    """The modules whose calculators a page may construct: those of ``rules_lib.widgets``.

    Cached: a page restored from a snapshot asks without reading the package's folder, whose files
    may not be unpacked yet (live-python-worker.js defers them).
    """
    install_ipython_stand_in()  # the package imports ipywidgets, which imports IPython
    from . import widgets

    return frozenset(
        f"{widgets.__name__}.{info.name}" for info in pkgutil.iter_modules(widgets.__path__)
        if info.name not in _NOT_CALCULATOR_MODULES
    )


def calculator_class(dotted: str) -> type:
    """The calculator class a page names (``module:Class``), if it is on the allow-list.

    The name comes from the page's stored widget state, which the page could be made to carry
    anything in: only a public calculator class (a subclass of ``rules_lib.widgets.Calculator``)
    defined in one of `calculator_modules` is constructed; no other module is even imported.
    """
    module_name, _, qualname = str(dotted).partition(":")
    if module_name not in calculator_modules() or not _CLASS_NAME.fullmatch(qualname):
        raise ValueError(f"{dotted!r} is not a live calculator: allowed are public classes of "
                         f"{', '.join(sorted(calculator_modules()))}")
    from .widgets.base import Calculator

    cls = getattr(importlib.import_module(module_name), qualname, None)
    if not (isinstance(cls, type) and issubclass(cls, Calculator) and cls.__module__ == module_name):
        raise ValueError(f"{dotted!r} is not a live calculator: {qualname} is not a Calculator of {module_name}")
    return cls


def import_calculator_modules(dotted_json: str | None = None) -> list[str]:
    """Import the modules of the calculators a page names (JSON list of ``module:Class``), or all of them.

    The page names its calculators before it has drawn them, so their modules (the slow part of
    constructing the first calculator) are imported in the worker meanwhile. Names that are not
    on the allow-list are skipped here; constructing them is refused by `calculator_class`.
    """
    imported = sorted(calculator_modules() if dotted_json is None else _named_modules(dotted_json))
    for module_name in imported:
        importlib.import_module(module_name)
    return imported


def calculator_names(modules: list[str] | None = None) -> list[str]:
    """Every live calculator as ``module:Class``: what any page may build (the allow-list's own test),
    or those of the given calculator modules. Imports the modules."""
    names = []
    for module_name in import_calculator_modules(None if modules is None else json.dumps([f"{m}:" for m in modules])):
        for name in list(vars(sys.modules[module_name])):
            try:
                calculator_class(f"{module_name}:{name}")
            except ValueError:
                continue
            names.append(f"{module_name}:{name}")
    return names


def lacks_calculator_modules(dotted_json: str) -> bool:
    """Whether a page names a calculator (JSON list of ``module:Class``) whose module is not imported yet."""
    return any(module_name not in sys.modules for module_name in _named_modules(dotted_json))


def _named_modules(dotted_json: str) -> set[str]:
    """The calculator modules of the classes a page names (JSON list of ``module:Class``), on the allow-list."""
    return {str(d).partition(":")[0] for d in json.loads(dotted_json)} & calculator_modules()


def prebuild_calculators(dotted_json: str, stored_json: str | None = None) -> list[str]:
    """Construct one of each calculator a page names (JSON list of ``module:Class``), before it asks;
    the names built now.

    Constructing computes the calculator's first result, the slow part of pairing it with the page,
    and is done while the page draws. A `LiveCalculator` takes a prebuilt one untouched, at most
    once, or raises the error its construction raised. Names that are not live calculators are
    skipped here and refused when the page asks for them. With the page's stored inputs (JSON object
    of ``module:Class`` to the depth-first list of its widgets' inputs, as `LiveCalculator.load`
    takes them), a calculator is loaded with them too, prebuilt or not: when the page sends the same
    inputs, its answer is ready.
    """
    stored = json.loads(stored_json) if stored_json else {}
    built = []
    for dotted in json.loads(dotted_json):
        if dotted not in _PREBUILT:
            try:
                _PREBUILT[dotted] = calculator_class(str(dotted))()
            except ValueError:
                continue
            except Exception as error:  # noqa: BLE001 - raised again when the page asks for it
                _PREBUILT[dotted] = error
            built.append(dotted)
        if dotted in stored and not isinstance(_PREBUILT[dotted], (Exception, LiveCalculator)):
            calculator = LiveCalculator(dotted)
            calculator.preload(stored[dotted])
            _PREBUILT[dotted] = calculator
    return built


#: the module a roll of dice clicked in the text needs (`roll_inline`): the snapshot of a page
#: without calculators, whose Python starts at a reader's first click, holds it
ROLLING_MODULE = "rules_lib.cli"


def snapshot_groups() -> dict[str, list[str]]:
    """The memory snapshots the build makes (``tools/snapshot.py``), each named, with the modules it
    holds imported: one a system (its calculators and its guided battle), one the table sheets, one
    the dice (with `ROLLING_MODULE`). Every calculator module is in exactly one; a page restores the
    snapshot that holds all of its calculators' modules.
    """
    prefix = "rules_lib.widgets."
    groups: dict[str, list[str]] = {}
    for module_name in sorted(calculator_modules()):
        groups.setdefault(module_name.removeprefix(prefix).removesuffix("_battle"), []).append(module_name)
    groups["dice_odds"].append(ROLLING_MODULE)
    return groups


def prepare_snapshot(group: str | None = None) -> list[str]:
    """Python as a memory snapshot of the site starts (built by ``tools/snapshot.py``): started as a
    page's worker starts it, the group's modules imported (`snapshot_groups`; every calculator module
    when None), garbage collected. Returns the group's calculators in the order the snapshot should
    hold them built: the calculators, then the guided battles, then the table sheets.

    Pyodide restores a snapshot only into the memory its wasm starts with (30 MiB):
    ``tools/snapshot.mjs`` builds as many as fit, one at a time (`prebuild_calculators`, then
    ``gc.collect()``); a page builds the rest after the restore.
    """
    import gc

    import_shared()
    modules = None if group is None else snapshot_groups()[group]
    for module_name in modules or ():
        importlib.import_module(module_name)
    names = calculator_names(None if modules is None else [m for m in modules if m in calculator_modules()])
    gc.collect()
    return sorted(names, key=lambda name: (name.startswith("rules_lib.widgets.sheets:"),
                                           name.partition(":")[0].endswith("_battle")))


def import_shared() -> None:
    """What a page's Python imports first, whatever its calculators: ipywidgets (after the IPython
    stand-in), and the library's dice and widgets."""
    install_ipython_stand_in()
    import ipywidgets  # noqa: F401

    import rules_lib.dice  # noqa: F401
    import rules_lib.widgets  # noqa: F401


def install_ipython_stand_in() -> None:
    """Give ipywidgets the three IPython names it imports; no display machinery runs here."""
    if "IPython" in sys.modules:
        return
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: None
    display = types.ModuleType("IPython.display")
    display.display = lambda *args, **kwargs: None
    display.clear_output = lambda *args, **kwargs: None
    core = types.ModuleType("IPython.core")
    shell = types.ModuleType("IPython.core.interactiveshell")

    class InteractiveShell:  # only ever asked whether an instance exists
        @classmethod
        def initialized(cls) -> bool:
            return False

    shell.InteractiveShell = InteractiveShell
    ipython.display, ipython.core, core.interactiveshell = display, core, shell
    sys.modules.update(
        {"IPython": ipython, "IPython.display": display, "IPython.core": core, "IPython.core.interactiveshell": shell}
    )


class LazyWheels:
    """An import hook that installs a wheel the first time one of its modules is imported.

    The page's Python (in a Web Worker) starts with the wheels every calculator needs; a wheel
    only some calculators import (none at present) is fetched when first imported, with a synchronous
    request (allowed in a worker), and checked against the SHA-256 of the build's manifest
    before it is unpacked: a wheel that differs is refused, as at start.
    """

    def __init__(self, wheels: dict[str, dict[str, str]], fetch: Any, target: str | None = None) -> None:
        #: top-level module -> {"url": ..., "sha256": ...}
        self.wheels = dict(wheels)
        self.fetch = fetch  # url -> bytes
        self.target = target  # where to unpack; by default, asked of sysconfig when first needed

    def _target(self) -> str:
        if self.target is None:
            import sysconfig  # its first question took 0.1-0.2 s of every start in the browser

            self.target = sysconfig.get_path("purelib")  # where Pyodide unpacks the other wheels
        return self.target

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        wheel = self.wheels.pop(name.partition(".")[0], None)
        if wheel is None:
            return None
        import hashlib
        import importlib.machinery
        import io
        import zipfile

        data = bytes(self.fetch(wheel["url"]))
        if hashlib.sha256(data).hexdigest() != wheel["sha256"]:
            raise ImportError(f"the wheel {wheel['url'].rsplit('/', 1)[-1]} does not match the build's digest")
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            archive.extractall(self._target())
        importlib.invalidate_caches()
        return importlib.machinery.PathFinder.find_spec(name, path if path is not None else [self._target()], target)


def install_lazy_wheels(wheels_json: str) -> None:
    """Install `LazyWheels` for the wheels the page loads on first import (JSON: module -> url, sha256)."""

    def fetch(url: str) -> bytes:
        from js import XMLHttpRequest  # only in the browser

        request = XMLHttpRequest.new()
        request.open("GET", url, False)
        request.responseType = "arraybuffer"
        request.send(None)
        if request.status != 200:
            raise ImportError(f"{url} could not be fetched (HTTP {request.status})")
        return request.response.to_py()

    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, LazyWheels)]
    wheels = json.loads(wheels_json)
    if wheels:  # no hook when the build has no such wheel
        sys.meta_path.append(LazyWheels(wheels, fetch))


class LiveCalculator:
    """One calculator on the page: its widget tree, and the state last sent to the page."""

    def __init__(self, dotted: str) -> None:
        prebuilt = _PREBUILT.pop(dotted, None)
        if isinstance(prebuilt, Exception):
            raise prebuilt
        _CALCULATORS.add(self)
        if isinstance(prebuilt, LiveCalculator):
            self.__dict__.update(prebuilt.__dict__)
            return
        self.root = prebuilt if prebuilt is not None else calculator_class(dotted)()
        self.widgets = _flatten(self.root)
        self.model_names = [w._model_name for w in self.widgets]
        self.sent = [_copied_state(w) for w in self.widgets]
        #: the inputs `preload` loaded and the changes that gave, until the page's own `load`
        self.preloaded: tuple[list[dict[str, Any]], list[Any]] | None = None
        #: whether `load` found the page's inputs preloaded
        self.answered_from_preload = False

    def preload(self, states: list[dict[str, Any]]) -> None:
        """Load the page's stored inputs before it sends them (the `OUTPUT_MODELS` may be left out);
        `load` then answers with these changes when the page's inputs are the same."""
        self.preloaded = (self._inputs_of(states), self._load(states))

    def _inputs_of(self, states: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The states but those of the `OUTPUT_MODELS`, which are left empty."""
        return [{} if name in OUTPUT_MODELS else state for name, state in zip(self.model_names, states, strict=True)]

    def shape(self) -> list[str]:
        """The model names of the tree in depth-first order; the page checks it matches."""
        return list(self.model_names)

    def load(self, states_json: str) -> str:
        """Take the page's stored input values (depth-first list of states); return the changes.

        After `preload` with the same inputs, the changes it found (nothing is computed again); with
        others, those changes and then the ones these inputs make.
        """
        return json.dumps(self._load(json.loads(states_json)))

    def _load(self, states: list[dict[str, Any]]) -> list[Any]:
        earlier: list[Any] = []
        if self.preloaded is not None:
            (preloaded, earlier), self.preloaded = self.preloaded, None
            self.answered_from_preload = len(states) == len(self.widgets) and preloaded == self._inputs_of(states)
            if self.answered_from_preload:
                return earlier
        for widget, state in zip(self.widgets, states, strict=True):
            inputs = {k: v for k, v in state.items() if k in INPUT_KEYS and k in widget.keys}
            if inputs and any(_copied_state(widget).get(k) != v for k, v in inputs.items()):
                widget.set_state(inputs)
        return earlier + self._changes()

    def close(self) -> None:
        """Let the calculator go: close every widget it made (its tree, and their layouts and styles).

        ipywidgets keeps each open widget in its registry, so a Python serving page after page (the
        shared worker) would otherwise keep every calculator of every page it served.
        """
        for widget in _widget_graph(self.root):
            widget.close()

    def set_input(self, index: int, state_json: str) -> str:
        """The reader changed widget ``index``; apply it and return what changed."""
        self.widgets[index].set_state(json.loads(state_json))
        return self.changes()

    def click(self, index: int, content_json: str) -> str:
        """A button-like custom message from the page."""
        self.widgets[index]._handle_custom_msg(json.loads(content_json), [])
        return self.changes()

    def changes(self) -> str:
        """JSON list of [index, {key: value}] for every widget whose state changed since last sent."""
        return json.dumps(self._changes())

    def _changes(self) -> list[Any]:
        out = []
        for index, widget in enumerate(self.widgets):
            now = _copied_state(widget)
            before = self.sent[index]
            delta = {k: v for k, v in now.items() if before.get(k) != v}
            if delta:
                out.append([index, delta])
                self.sent[index] = now
        return out


def orphan_widgets() -> int:
    """How many open widgets no calculator holds: none, unless a calculator was let go unclosed.

    A calculator holds the widgets it refers to (`_widget_graph`), in use by a page or prebuilt
    for one. The worker's page test asks after pages have come and gone.
    """
    import gc

    from ipywidgets.widgets.widget import _instances  # ipywidgets' registry of open widgets (8.x)

    gc.collect()  # a calculator let go is collected, its widgets left in the registry
    # a prebuilt LiveCalculator is in _CALCULATORS; a prebuilt calculator not yet wrapped is a root itself
    roots = [c.root for c in _CALCULATORS] + [p for p in _PREBUILT.values() if not isinstance(p, (Exception, LiveCalculator))]
    held = {id(widget) for root in roots for widget in _widget_graph(root)}
    return sum(1 for widget in list(_instances.values()) if id(widget) not in held)


def roll_inline(text: str) -> str:
    """Roll a dice expression clicked in the rule text, or a chat-palette line; JSON with the shown
    line or the error.

    The generic notation is tried first, then each system's dice commands (``BB+14>54``). Dice in
    the rule text are notation written with spaces for reading (``1D3×3 + 6``): they are read
    with the spaces left out first, then as a chat line (``SL<=13 【反応】evasion``: a command, a
    space and a comment, as ``rules-lib roll`` reads it, :mod:`rules_lib.dice.chat`).
    """
    from .cli import SYSTEMS, roll_text  # the CLI's registry and wording, so the shell and page agree

    squeezed = "".join(text.split())
    readings = (squeezed, text) if squeezed != text else (text,)
    errors: dict[str, str] = {}  # the first refusal of each reading; the one of the text as written is shown
    for reading, (name, (roll_function, _)) in ((r, s) for r in readings for s in SYSTEMS.items()):
        try:
            result = roll_function(reading)
        except ValueError as problem:
            errors.setdefault(reading, str(problem))
            continue
        outcome = roll_outcome(result.to_dict())
        line = roll_text(result).splitlines()[0] + (f": {outcome}" if outcome else "")
        return json.dumps({"ok": True, "system": name, "line": line, "outcome": outcome,
                           "detail": roll_text(result), "total": result.to_dict().get("total")})
    return json.dumps({"ok": False, "line": errors[text]})


def roll_outcome(rolled: dict[str, Any]) -> str | None:
    """What a roll with a comparison came to, in the words of its rule: hit or miss (``BB+14>54``),
    success or failure (``2D6>=10``, ``GS+3>7``); None for a roll with nothing to compare."""
    if rolled.get("hit") is not None:
        return ("hit" if rolled["hit"] else "miss") + (" (critical)" if rolled.get("critical") and rolled["hit"] else "")
    if rolled.get("success") is not None:
        return "success" if rolled["success"] else "failure"
    return None


def _flatten(widget: Any) -> list[Any]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found.extend(_flatten(child))
    return found


def _widget_graph(root: Any) -> list[Any]:
    """Every widget ``root`` refers to, through any trait (children, layout, style), and itself."""
    from ipywidgets import Widget

    found: dict[int, Any] = {}
    waiting = [root]
    while waiting:
        widget = waiting.pop()
        if id(widget) in found:
            continue
        found[id(widget)] = widget
        for key in widget.keys:
            value = getattr(widget, key)
            values = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else (value,)
            waiting.extend(v for v in values if isinstance(v, Widget))
    return list(found.values())


def _copied_state(widget: Any) -> dict[str, Any]:
    state = widget.get_state()
    return {k: v for k, v in state.items() if k not in _NOT_COPIED and not _is_reference(v)}


def _is_reference(value: Any) -> bool:
    if isinstance(value, str):
        return value.startswith("IPY_MODEL_")
    if isinstance(value, (list, tuple)):
        return any(_is_reference(v) for v in value)
    return False
