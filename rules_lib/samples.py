"""The sample units as data: the book's sample sheets, one TOML table per unit, by id.

The one place the guided battles and the sheets both read them from, below both: each system's
``battle_state.sample_units`` builds its battle's units from these tables, and
``rules_lib.sheets`` validates the same tables against the rules (a source per value) and exports
them. Neither imports the other for them. The files are ``rules_lib/sheets/data/<system>/*.toml``
(the folder named as ``rules-lib --system`` names the system).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "sheets" / "data"


def sample_tables(system: str) -> dict[str, dict[str, Any]]:
    """Every sample unit of ``system`` as its TOML table, by its ``id``, in file-name order."""
    # looked up among the folders there are: a system's name is never made into a path
    folders = {p.name: p for p in DATA.iterdir() if p.is_dir()}
    folder = folders.get(system) if isinstance(system, str) else None
    if folder is None:
        raise ValueError(f"system {system!r:.60} has no sample units: allowed are {', '.join(sorted(folders))}")
    tables: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.toml")):
        table = tomllib.loads(path.read_text(encoding="utf-8"))
        unit_id = table.get("id")
        if not isinstance(unit_id, str) or not unit_id.strip():
            raise ValueError(f"{path.name}: sheet id {unit_id!r} is not a non-empty text")
        if unit_id in tables:
            raise ValueError(f"{path.name}: sheet id {unit_id!r} is used twice")
        tables[unit_id] = table
    return tables
