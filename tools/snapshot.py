"""The memory snapshot a page's Python restores instead of starting afresh, made at build time.

Starting Pyodide and importing the calculators took 1.5-2.5 s of every page load on the published
site (GitHub Pages, where pages could keep no snapshot of their own: its origin is shared by every
project of the owner, so another could plant one). Restoring a memory snapshot takes 0.25-0.35 s.
So the build makes one: the site's own Pyodide, run in Node (``tools/snapshot.mjs``), starts as the
page's worker does, unpacks the wheels and their bytecode, imports every calculator module
(``rules_lib.browser.prepare_snapshot``) and builds as many calculators as its memory holds, and
that memory is written gzipped beside the wheels as
``python-snapshot-<digest>.gz`` (about 7 MB; its name changes with its content). A reader's first
calculators page starts Python afresh, then, once the page is quiet, fetches the snapshot, checks it
against the manifest, and stores the memory it holds in Cache Storage; later pages restore that
memory if its SHA-256 is the manifest's ``memory_sha256`` (Cache Storage belongs to the whole origin:
on GitHub Pages another project could write there, but not the build's digest).

Pyodide restores a snapshot only into the memory its wasm starts with (30 MiB): a snapshot that
would need more is refused here, with a warning, and the pages start afresh. Without Node, or
should it fail, the same. Cached in ``.cache/vendor/snapshot``, keyed by every input.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import shutil
import subprocess
from pathlib import Path

from precompile import node

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "vendor" / "snapshot"
NODE_SCRIPT = ROOT / "tools" / "snapshot.mjs"
#: the runtime files the snapshot depends on (the standard library as precompiled)
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
PREFIX = "python-snapshot-"

log = logging.getLogger("mkdocs.rules_lib.snapshot")


def snapshot_into(runtime: Path, archives: list[Path], site_wheels: Path) -> dict[str, str] | None:
    """Write the snapshot into ``site_wheels``: its file name and the SHA-256 of the memory it holds
    (``{"file", "memory_sha256"}``, for the manifest), or None (and a warning) if none could be made.

    ``archives``: the wheels, then the wheels' bytecode, unpacked in that order as the worker does.
    """
    key = hashlib.sha256()
    for path in [NODE_SCRIPT, *(runtime / name for name in RUNTIME_FILES), *archives]:
        key.update(path.name.encode() + b"\0" + path.read_bytes())
    cached = CACHE / key.hexdigest()[:16] / "snapshot.gz"
    if not cached.exists():
        executable = node()
        if executable is None:
            log.warning("no Node to make the Python snapshot with: every page starts Python afresh")
            return None
        shutil.rmtree(CACHE, ignore_errors=True)
        cached.parent.mkdir(parents=True)
        done = subprocess.run([executable, str(NODE_SCRIPT), str(runtime), str(cached), *map(str, archives)],
                              capture_output=True, text=True)
        if done.returncode or not cached.exists():
            # a warning: a strict build (make site, make test) stops; a preview (make serve) goes on
            log.warning("making the Python snapshot failed (%s); every page starts Python afresh:\n%s",
                        executable, done.stderr[-3000:])
            shutil.rmtree(cached.parent, ignore_errors=True)
            return None
        log.info("Python snapshot: %s", done.stdout.strip())
    packed = cached.read_bytes()
    name = f"{PREFIX}{hashlib.sha256(packed).hexdigest()[:16]}.gz"
    for old in site_wheels.glob(f"{PREFIX}*"):
        old.unlink()
    shutil.copyfile(cached, site_wheels / name)
    return {"file": name, "memory_sha256": hashlib.sha256(gzip.decompress(packed)).hexdigest()}
