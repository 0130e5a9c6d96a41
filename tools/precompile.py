"""The modules a calculator page starts with, as bytecode: a cold start compiles far less.

Pyodide ships its standard library as source (``python_stdlib.zip``), the wheels are source too,
and a cold start compiled every module it imported: measured in Node on this project's machine,
Pyodide's own start took 2.8-4.0 s with the source and 0.9-1.2 s with its start-up modules
precompiled, and the calculators' imports 0.43-0.49 s against 0.23 s. At build time the site's own
Pyodide runs in Node (Playwright's bundled Node, or ``node`` on the PATH), imports what a
calculator page imports, builds every calculator once (`tools/precompile_in_pyodide.py`), and
- writes the standard-library modules then loaded back into its zip as ``.pyc``, in place of
  their source (the zip grows by about 0.8 MB; the others stay source);
- writes the wheels' modules then loaded as ``__pycache__`` files into ``start-bytecode.zip``,
  which the worker unpacks over the wheels.
The worker checks both against the manifest like every runtime file and wheel (``tools/vendor.py``).
It takes about 9 s; cached in ``.cache/vendor/bytecode``, keyed by every input, so a preview
redoes it only when ``rules_lib``, a wheel or the runtime changed. Without Node, or should Node
fail, the build warns (a strict build stops there) and the site serves the sources.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import subprocess
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "vendor" / "bytecode"
NODE_SCRIPT = ROOT / "tools" / "precompile_stdlib.mjs"
PYODIDE_SCRIPT = ROOT / "tools" / "precompile_in_pyodide.py"
#: the archive of the wheels' bytecode, beside the wheels
BYTECODE = "start-bytecode.zip"
#: the zip comment a precompiled standard library carries (set by tools/precompile_in_pyodide.py)
MARKER = b"rules_lib: start-up modules precompiled"

log = logging.getLogger("mkdocs.rules_lib.precompile")


def node() -> str | None:
    """Playwright's bundled Node (installed with the dev tools, pinned), else ``node`` on the PATH."""
    try:
        import playwright
    except ImportError:
        bundled = None
    else:
        bundled = Path(playwright.__file__).parent / "driver" / "node"
    if bundled is not None and bundled.is_file():
        return str(bundled)
    return shutil.which("node")


def is_precompiled(stdlib: Path) -> bool:
    with zipfile.ZipFile(stdlib) as archive:
        return archive.comment == MARKER


def precompile(runtime: Path, wheels: list[Path], lazy_modules: list[str], bytecode: Path) -> bool:
    """Precompile the start-up modules: ``runtime/python_stdlib.zip`` is replaced, ``bytecode`` written.

    ``wheels``: every browser wheel; ``lazy_modules``: the top-level modules of those fetched only on
    first import, whose bytecode is left out. False (and a warning, the site then serving source
    only) when there is no Node to run Pyodide with.
    """
    stdlib = runtime / "python_stdlib.zip"
    key = hashlib.sha256(json.dumps(sorted(lazy_modules)).encode())
    for path in [stdlib, runtime / "pyodide.asm.wasm", NODE_SCRIPT, PYODIDE_SCRIPT, *wheels]:
        key.update(path.name.encode() + b"\0" + path.read_bytes())
    cached = CACHE / key.hexdigest()[:16]
    if not (cached / "done").exists():
        executable = node()
        if executable is None:
            log.warning("no Node to precompile the start-up modules with: the site serves them as source "
                        "(cold starts about 2 s slower); install the dev tools or Node")
            return False
        shutil.rmtree(CACHE, ignore_errors=True)
        cached.mkdir(parents=True)
        done = subprocess.run([executable, str(NODE_SCRIPT), str(runtime), str(cached / stdlib.name),
                               str(cached / BYTECODE), str(PYODIDE_SCRIPT), json.dumps(sorted(lazy_modules)),
                               *map(str, wheels)], capture_output=True, text=True)
        if done.returncode or not is_precompiled(cached / stdlib.name):
            # a warning: a strict build (make site, make test) stops; a preview (make serve) goes on
            log.warning("precompiling the start-up modules failed (%s); the site serves them as source:\n%s",
                        executable, done.stderr[-3000:])
            shutil.rmtree(cached, ignore_errors=True)
            return False
        (cached / "done").write_text(done.stdout)
    shutil.copyfile(cached / stdlib.name, stdlib)
    shutil.copyfile(cached / BYTECODE, bytecode)
    return True
