"""Every public rule function whose parameters are whole numbers and flags refuses nonsense in them.

For each such function of every system, the dice package and the map geometry, each ``int``
or ``bool`` parameter is given 1.5, NaN, ``"abc"`` and ``None`` in turn (the others a plain 3 or
False): the call must end in a ``ValueError`` (with a message), never return or fail otherwise.
"""

import importlib
import inspect
import math
import typing

import pytest

from rules_lib.systems import systems

#: every system of the registry, the dice package and the map geometry
MODULES = [f"rules_lib.{system.package}" for system in systems()] + [
    "rules_lib.dice", "rules_lib.geometry.hex", "rules_lib.geometry.square"]
BAD = [1.5, math.nan, "abc", None]


def _cases():
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        # public names: a module's __all__, or (geometry) every name without a leading underscore
        for name in getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")]):
            function = getattr(module, name, None)
            if not inspect.isfunction(function):
                continue
            try:
                signature, hints = inspect.signature(function), typing.get_type_hints(function)
            except (TypeError, NameError):
                continue
            params = [p for p in signature.parameters.values()
                      if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
            required = [p for p in params if p.default is p.empty]
            if any(hints.get(p.name) not in (int, bool) for p in required):
                continue
            for target in params:
                if hints.get(target.name) in (int, bool):
                    plain = {p.name: 3 if hints.get(p.name) is int else False for p in required}
                    yield pytest.param(function, plain, target.name, id=f"{module_name}.{name}({target.name})")


@pytest.mark.parametrize("function, plain, name", list(_cases()))
def test_bad_values_are_refused_by_name(function, plain, name):
    for bad in BAD:
        with pytest.raises(ValueError) as refusal:
            function(**{**plain, name: bad})
        assert str(refusal.value)
