"""Run inside Pyodide (tools/precompile_stdlib.mjs) at build time: the modules a page starts with, compiled.

Pyodide ships its standard library as source, and the wheels are source too, so every start
compiled the modules it imported; in the browser's worker that was most of a cold start. Here
every module a calculator page imports at start is imported, and each of the calculators is built
once (what a page does before it is live). Then:
- the standard-library modules loaded are written back into its zip as bytecode (``.pyc``) in
  place of their source; the rest stay source;
- the wheels' modules loaded (but for those of wheels fetched only on first import) are written
  as ``__pycache__`` files into one archive, unpacked by the worker over the wheels.
The bytecode comes from this very interpreter, so it matches the runtime the site serves; each is
an unchecked hash-based ``.pyc`` (PEP 552): the hash of the source it was compiled from, no timestamp.

Inputs (globals set by the Node script): ``STDLIB_IN``, ``STDLIB_OUT`` and ``BYTECODE_OUT`` (paths
in Pyodide's file system), ``LAZY_MODULES`` (JSON list of the top-level modules of the wheels
fetched on first import), and the wheels already unpacked where the worker unpacks them.
"""

import importlib.util
import json
import marshal
import os
import sys
import zipfile

MARKER = b"rules_lib: start-up modules precompiled"
PREFIX = "/lib/python314.zip/"


def start_up_files() -> set[str]:
    """The source files of the modules a calculator page loads before it is live."""
    import rules_lib.browser as browser

    browser.import_shared()  # what the worker imports first
    browser.prebuild_calculators(json.dumps(browser.calculator_names()))
    files = {getattr(module, "__file__", None) or "" for module in list(sys.modules.values())}
    return {name for name in files if name.endswith(".py")}


def bytecode(source: bytes, filename: str) -> bytes:
    code = compile(source, filename, "exec", dont_inherit=True)
    unchecked_hash = (1).to_bytes(4, "little")  # PEP 552 flags: hash-based, source not checked
    return importlib.util.MAGIC_NUMBER + unchecked_hash + importlib.util.source_hash(source) + marshal.dumps(code)


def precompile_stdlib(hot: set[str], stdlib_in: str, stdlib_out: str) -> None:
    hot = {name.removeprefix(PREFIX) for name in hot if name.startswith(PREFIX)}
    with zipfile.ZipFile(stdlib_in) as source, zipfile.ZipFile(stdlib_out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in source.infolist():
            data = source.read(info)
            if info.filename in hot:
                entry = zipfile.ZipInfo(info.filename + "c", info.date_time)
                entry.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(entry, bytecode(data, PREFIX + info.filename))
            else:
                out.writestr(info, data)
        out.comment = MARKER


def wheels_bytecode(hot: set[str], lazy_modules: list[str], bytecode_out: str) -> None:
    """``__pycache__`` files for the wheels' modules, relative to where the wheels are unpacked."""
    root = os.getcwd() + "/"
    with zipfile.ZipFile(bytecode_out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for name in sorted(hot):
            relative = name.removeprefix(root)
            if not name.startswith(root) or relative.split("/")[0] in lazy_modules:
                continue
            folder, _, file = relative.rpartition("/")
            cached = f"{folder}/__pycache__/{file[:-3]}.{sys.implementation.cache_tag}.pyc".lstrip("/")
            entry = zipfile.ZipInfo(cached, (1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            with open(name, "rb") as source:
                out.writestr(entry, bytecode(source.read(), name))
        out.comment = MARKER


def precompile(stdlib_in: str, stdlib_out: str, bytecode_out: str, lazy_modules: list[str]) -> int:
    hot = start_up_files()
    precompile_stdlib(hot, stdlib_in, stdlib_out)
    wheels_bytecode(hot, lazy_modules, bytecode_out)
    return len(hot)


# set by tools/precompile_stdlib.mjs
COMPILED = precompile(STDLIB_IN, STDLIB_OUT, BYTECODE_OUT, json.loads(LAZY_MODULES))  # noqa: F821
