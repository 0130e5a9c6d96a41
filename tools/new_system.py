"""Start a new system from ``templates/system/``: its package, chapter, catalogue file and tests.

    python tools/new_system.py mecha-x --source-file 005_0123456789abcdef.txt \\
        --name "Mecha X RPG" --short-name "Mecha X" --id-prefix mx- --kind "a hex-map mecha wargame"

The source text must already be in ``sources/`` (its name gives the code, ``005``). Every file of
the template is copied with its placeholders filled in; nothing is overwritten. The new system
is in the registry at once (``rules_lib.systems`` reads its catalogue file), so the site's
navigation, the home page, the source pages and the catalogue tests take it up without an edit;
CONTRIBUTING.md "Adding a system" lists what to write next.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "templates" / "system"
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def values(system: str, source_file: str, name: str, short_name: str, id_prefix: str, kind: str) -> dict[str, str]:
    """The placeholders' values, checked as the registry checks them."""
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", system):
        raise ValueError(f"system {system!r}: lower-case words joined by '-' (it is the book folder and --system name)")
    if not re.fullmatch(r"\d{3}_[0-9a-f]{16}\.txt", source_file):
        raise ValueError(f"source file {source_file!r}: NNN_<16 hex digits>.txt, as in sources/")
    if not re.fullmatch(r"[a-z][a-z0-9]*-", id_prefix):
        raise ValueError(f"id prefix {id_prefix!r}: lower-case letters and digits ending in '-'")
    return {"system": system, "package": system.replace("-", "_"), "code": source_file[:3],
            "source_file": source_file, "name": name, "short_name": short_name, "id_prefix": id_prefix,
            "kind": kind}


def _fill(text: str, filled: dict[str, str], escape) -> str:
    return _PLACEHOLDER.sub(lambda m: escape(filled[m.group(1)]), text)


def create(root: Path, filled: dict[str, str], template: Path = TEMPLATE) -> list[Path]:
    """Copy the template into ``root``; the files written. Refuses to overwrite anything."""
    if not (root / "sources" / filled["source_file"]).exists():
        raise ValueError(f"sources/{filled['source_file']} does not exist: add the source text first")
    plan = {}
    for path in sorted(template.rglob("*")):
        if path.is_dir() or path == template / "README.md":
            continue
        target = root / _fill(path.relative_to(template).as_posix(), filled, str)
        if target.exists():
            raise ValueError(f"{target.relative_to(root)} exists already: the system is there, or choose another name")
        # a string inside JSON or TOML is escaped as JSON (which TOML's basic strings share)
        escape = (lambda v: json.dumps(v, ensure_ascii=False)[1:-1]) if path.suffix in (".ipynb", ".toml") else str
        plan[target] = _fill(path.read_text(encoding="utf-8"), filled, escape)
    for target, text in plan.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return list(plan)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("system", help="the system's name: book folder and rules-lib --system (mecha-x)")
    parser.add_argument("--source-file", required=True, help="the text in sources/ (005_<16 hex digits>.txt)")
    parser.add_argument("--name", required=True, help="display name (Mecha X RPG)")
    parser.add_argument("--short-name", required=True, help="navigation title and glossary heading (Mecha X)")
    parser.add_argument("--id-prefix", required=True, help="worked-example id prefix (mx-)")
    parser.add_argument("--kind", required=True, help="what kind of game, for the home page")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this one)")
    args = parser.parse_args(argv)
    try:
        filled = values(args.system, args.source_file, args.name, args.short_name, args.id_prefix, args.kind)
        written = create(args.root, filled)
    except ValueError as error:
        print(f"new_system: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(path.relative_to(args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
