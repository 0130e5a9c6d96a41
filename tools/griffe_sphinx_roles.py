"""Griffe extension: Sphinx roles in docstrings become mkdocstrings cross-references.

The docstrings name other objects the Sphinx way (``:func:`~rules_lib.wis6.move```,
``:class:`IllegalStep```, ``:mod:`.d36```); mkdocstrings renders Markdown, which would show
the role as text. Each role becomes ``[`move`][rules_lib.wis6.movement.move]``, a link made by
mkdocs-autorefs, with the target resolved the way Sphinx reads it: a full path as written, a
short or dotted name (leading dot or not) in the object's own scope, then each enclosing
module or package outwards. ``~`` shows only the last name. A name the API pages do not show
(undocumented or private) links to the nearest object they show, e.g. its module. A name found nowhere stays as code
and is reported (a warning, which fails ``mkdocs build --strict``).

Used by ``mkdocs.yml`` (``mkdocstrings`` → ``python`` → ``options`` → ``extensions``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|data|exc|obj|const|type):`(~?)(\.?)([\w.]+)`")


def _find(obj: griffe.Object, path: str) -> griffe.Object | griffe.Alias | None:
    try:
        return obj.modules_collection[path]
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def resolve(obj: griffe.Object, name: str) -> str | None:
    """The canonical path ``name`` refers to in the docstring of ``obj``, or None."""
    if name.split(".")[0] == obj.package.name:
        candidates = [name]
    else:
        scope: griffe.Object | None = obj if obj.is_module or obj.is_class else obj.parent
        candidates = []
        while scope is not None:
            candidates.append(f"{scope.path}.{name}")
            scope = scope.parent
    for candidate in candidates:
        found = _find(obj, candidate)
        if found is not None:
            try:
                target = found.final_target if found.is_alias else found
            except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                return None
            return _rendered(target).path
    return None


def _rendered(target: griffe.Object) -> griffe.Object:
    """The target, or its nearest parent the API pages show (they leave out private and undocumented names)."""
    while not target.is_module and (target.docstring is None or target.name.startswith("_")):
        target = target.parent
    return target


def rewrite(obj: griffe.Object, text: str) -> str:
    def link(match: re.Match) -> str:
        tilde, _dot, name = match.groups()
        shown = name.rsplit(".", 1)[-1] if tilde else name
        target = resolve(obj, name)
        if target is None:
            griffe.logger.warning("%s: %s names nothing in %s", obj.path, match.group(0), obj.package.name)
            return f"`{shown}`"
        return f"[`{shown}`][{target}]"

    return ROLE.sub(link, text)


class SphinxRoles(griffe.Extension):
    """Rewrite the roles of every docstring once the whole package is loaded (so names resolve)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._visit(pkg)

    def _visit(self, obj: griffe.Object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rewrite(obj, obj.docstring.value)
        for member in obj.members.values():
            if not member.is_alias:
                self._visit(member)
