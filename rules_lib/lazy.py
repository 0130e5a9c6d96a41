"""A package's names imported when first read (PEP 562), so that a calculator page does not load a battle.

Each system package offers its guided battle's names (``step``, ``BattleState``, ``fire_odds``...)
beside its rules, but the calculators use only the rules, and importing the battle modules was
most of importing a system package (Gundam Sentinel: 0.18 s, 0.11 s without them, in CPython on
this project's machine; in the browser the time delays a page's first live result). `lazy_names`
gives a package a module ``__getattr__`` that imports a battle module when one of its names is
first read; the package lists the names in its ``__all__`` as before, so ``import *``, readers and
tools see the same API (``tests/test_lazy.py`` holds each list to its module's ``__all__``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping


def lazy_names(package: str, namespace: dict,
               lazy: Mapping[str, tuple[str, ...]]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` (its ``__name__`` and ``globals()``).

    ``lazy`` maps a module, relative to the package (``".battle_state"``, ``"..battle"``), to the
    names it gives the package; a submodule of the package is also offered under its own name.
    """
    modules = {importlib.util.resolve_name(relative, package): names for relative, names in lazy.items()}
    submodules = {dotted.rpartition(".")[2]: dotted for dotted in modules if dotted.rpartition(".")[0] == package}

    def module_getattr(name: str) -> object:
        if name in submodules:
            return importlib.import_module(submodules[name])
        for dotted, names in modules.items():
            if name in names:
                value = namespace[name] = getattr(importlib.import_module(dotted), name)
                return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def module_dir() -> list[str]:
        return sorted({*namespace, *submodules, *(name for names in modules.values() for name in names)})

    return module_getattr, module_dir
