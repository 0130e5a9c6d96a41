"""The memory snapshots a page's Python restores instead of starting afresh, made at build time.

Starting Pyodide and importing the calculators took 2-3 s of a first page's start here (the
interpreter's own start, then ipywidgets and the calculator modules); restoring a memory snapshot
takes about 0.4 s. So the build makes them: the site's own Pyodide, run in Node
(``tools/snapshot.mjs``), starts as the page's worker does, unpacks the wheels and their bytecode,
and for each group of ``rules_lib.browser.snapshot_groups`` (a system's calculators and guided
battle, the table sheets, the dice) imports the group's modules and builds as many of its
calculators as its memory holds. Each memory is written as ``python-snapshot-<group>-<digest>.zst``
beside the wheels (about 4 MB): XOR-ed with the memory the wasm starts with, which makes the
unchanged static data zeros, then zstd-compressed (``book/javascripts/python-memory.js``).

Every page with calculators, on a first visit as on later ones, fetches the snapshot of its
calculators' group like any other file (the browser's HTTP cache keeps it), checks it against the
manifest's SHA-256, and restores it; nothing is kept in storage the origin shares.

Pyodide restores a snapshot only into the memory its wasm starts with (30 MiB): a group whose
modules alone outgrow it fails the build's snapshot step, with a warning, and the pages start
afresh. Without Node (or a Node without zstd), the same. Cached in ``.cache/vendor/snapshot``,
keyed by every input.

The same inputs give the same snapshot, byte for byte (``tests/test_reproducible_vendor.py``).
Two things made two builds differ: what Python draws from the system's randomness as it starts
(its hash secret for str and bytes, which reorders every dict and set in memory, millions of
bytes; the seed of ``random``'s shared generator; the uuid4 ids of the widgets built), and the
clocks (file times and ``time.time`` values Python keeps, a few hundred bytes). While a snapshot
is made, ``snapshot.mjs`` replaces both in Node: the randomness by a SHA-256 counter seeded with
the group's name, the clocks by counters from fixed values (the wall clock from 2000-01-01) that
step one millisecond a reading. Nothing a reader's page does changes: every reader of one build
already restored the same memory, hash secret and generator state with it; now two builds agree
too. A secret hash seed guards a server against hash flooding, keys an attacker chooses to
collide; a page's Python hashes only its own reader's inputs, in the reader's own browser, so a
known seed gives nobody anything. The calculators' dice come from the seed the reader sees
(``SeededDice(seed)``), not from the shared generator, and once restored ``os.urandom`` draws from
the browser's ``crypto.getRandomValues`` again. The times kept are of 2000, not of the build; a
page's files are made at restore with the reader's own time, so a cached file time never matches
one and Python reads the folder again, as it did when the cached time was the build's.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from precompile import node

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "vendor" / "snapshot"
NODE_SCRIPT = ROOT / "tools" / "snapshot.mjs"
#: the snapshot's packing, shared with the page's worker
MEMORY_SCRIPT = ROOT / "book" / "javascripts" / "python-memory.js"
#: the runtime files the snapshot depends on (the standard library as precompiled)
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
PREFIX = "python-snapshot-"

log = logging.getLogger("mkdocs.rules_lib.snapshot")


def _make(executable: str, runtime: Path, folder: Path, group: str, archives: list[Path]) -> dict | str:
    """One group's snapshot into ``folder``: what it holds built, or the error Node gave."""
    done = subprocess.run([executable, str(NODE_SCRIPT), str(runtime), str(folder), group, *map(str, archives)],
                          capture_output=True, text=True)
    if done.returncode:
        return f"{group}: {done.stderr[-3000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def snapshot_into(runtime: Path, archives: list[Path], site_wheels: Path) -> list[dict] | None:
    """Write the snapshots into ``site_wheels``; for the manifest, each one's file name, the modules
    it holds imported and the calculators it holds built (``[{"file", "modules", "built"}]``), or
    None (and a warning) if they could not all be made.

    ``archives``: the wheels, then the wheels' bytecode, unpacked in that order as the worker does.
    The groups are made two at a time (this project's machine has two cores).
    """
    from rules_lib.browser import snapshot_groups

    groups = snapshot_groups()
    key = hashlib.sha256(json.dumps(groups, sort_keys=True).encode())
    for path in [NODE_SCRIPT, MEMORY_SCRIPT, *(runtime / name for name in RUNTIME_FILES), *archives]:
        key.update(path.name.encode() + b"\0" + path.read_bytes())
    cached = CACHE / key.hexdigest()[:16]
    made_file = cached / "made.json"
    if not made_file.exists():
        executable = node()
        if executable is None:
            log.warning("no Node to make the Python snapshots with: every page starts Python afresh")
            return None
        shutil.rmtree(CACHE, ignore_errors=True)
        cached.mkdir(parents=True)
        with ThreadPoolExecutor(max_workers=2) as pool:
            made = dict(zip(groups, pool.map(lambda group: _make(executable, runtime, cached, group, archives), groups),
                            strict=True))
        failed = [result for result in made.values() if isinstance(result, str)]
        if failed:
            # a warning: a strict build (make site, make test) stops; a preview (make serve) goes on
            log.warning("making the Python snapshots failed (%s); every page starts Python afresh:\n%s",
                        executable, "\n".join(failed))
            shutil.rmtree(cached, ignore_errors=True)
            return None
        made_file.write_text(json.dumps(made))
    made = json.loads(made_file.read_text())
    for old in site_wheels.glob(f"{PREFIX}*"):
        old.unlink()
    entries = []
    for group, modules in groups.items():
        packed = (cached / f"{group}.zst").read_bytes()
        name = f"{PREFIX}{group.replace('_', '-')}-{hashlib.sha256(packed).hexdigest()[:16]}.zst"
        (site_wheels / name).write_bytes(packed)
        entries.append({"file": name, "modules": modules, "built": made[group]["built"]})
        log.info("Python snapshot %s: %d bytes, %d of %d calculators built", group, len(packed),
                 len(made[group]["built"]), made[group]["of"])
    return entries
