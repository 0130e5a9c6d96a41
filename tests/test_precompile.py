"""The start-up modules the site serves as bytecode (tools/precompile.py) are compiled from the very sources they replace.

Uses the site in $RULES_LIB_SITE_DIR (`make test` builds it beside these tests: they wait for it),
else builds one. That the bytecode runs, and gives the same results as CPython, is what the browser
tests check.
"""

from __future__ import annotations

import _imp
import io
import json
import logging
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import precompile  # noqa: E402
import vendor  # noqa: E402


def compiled_from(pyc: bytes, source: bytes) -> bool:
    """An unchecked hash-based .pyc (PEP 552) whose hash is that of ``source``, keyed by the pyc's own magic."""
    flags = int.from_bytes(pyc[4:8], "little")
    return flags == 1 and _imp.source_hash(int.from_bytes(pyc[:4], "little"), source) == pyc[8:16]


def npm_stdlib() -> zipfile.ZipFile:
    with tarfile.open(fileobj=io.BytesIO(vendor._download(vendor.PYODIDE)), mode="r:gz") as archive:
        return zipfile.ZipFile(io.BytesIO(archive.extractfile("package/python_stdlib.zip").read()))


def test_the_served_standard_library_is_pyodide_s_with_its_start_up_modules_compiled(site_dir):
    original = npm_stdlib()
    served = zipfile.ZipFile(site_dir / "vendor" / "pyodide" / "python_stdlib.zip")
    assert served.comment == precompile.MARKER
    compiled = [name for name in served.namelist() if name.endswith(".pyc")]
    assert len(compiled) >= 100
    assert sorted(name.removesuffix("c") for name in served.namelist()) == sorted(original.namelist())
    for name in served.namelist():
        if name in compiled:
            assert compiled_from(served.read(name), original.read(name[:-1])), name
        else:
            assert served.read(name) == original.read(name), name
    # what every start imports is among them; what no calculator needs stays source
    assert {"encodings/__init__.pyc", "dataclasses.pyc", "fractions.pyc", "json/decoder.pyc"} <= set(compiled)
    assert {"smtplib.py", "imaplib.py", "sqlite3/__init__.py"} <= set(served.namelist())


def test_the_wheels_bytecode_is_compiled_from_their_sources_and_named_in_the_manifest(site_dir):
    wheels = site_dir / "vendor" / "wheels"
    manifest = json.loads((wheels / "manifest.json").read_text())
    bytecode = zipfile.ZipFile(wheels / manifest["bytecode"])
    sources = {}
    for name in manifest["wheels"]:
        if name not in manifest["lazy"].values():
            archive = zipfile.ZipFile(wheels / name)
            sources.update({member: archive.read(member) for member in archive.namelist() if member.endswith(".py")})
    tag = "cpython-314"
    names = bytecode.namelist()
    assert any(name.startswith("rules_lib/widgets/__pycache__/") for name in names)
    assert any(name.startswith("ipywidgets/") for name in names) and not any(name.startswith("icepool/") for name in names)
    for name in names:
        folder, _, file = name.rpartition("/__pycache__/")
        source = f"{folder}/{file.removesuffix(f'.{tag}.pyc')}.py"
        assert file.endswith(f".{tag}.pyc") and source in sources, name
        assert compiled_from(bytecode.read(name), sources[source]), name
    assert manifest["sha256"][manifest["bytecode"]] == vendor.hashlib.sha256((wheels / manifest["bytecode"]).read_bytes()).hexdigest()


def test_without_node_the_site_serves_the_sources_and_says_so(tmp_path, monkeypatch, caplog):
    runtime = tmp_path / "pyodide"
    runtime.mkdir()
    with zipfile.ZipFile(runtime / "python_stdlib.zip", "w") as archive:
        archive.writestr("json/__init__.py", "x = 1\n")
    (runtime / "pyodide.asm.wasm").write_bytes(b"\0asm")
    before = (runtime / "python_stdlib.zip").read_bytes()
    monkeypatch.setattr(precompile, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(precompile, "node", lambda: None)
    with caplog.at_level(logging.WARNING):
        assert precompile.precompile(runtime, [], [], tmp_path / "start-bytecode.zip") is False
    assert "no Node to precompile" in caplog.text
    assert (runtime / "python_stdlib.zip").read_bytes() == before and not (tmp_path / "start-bytecode.zip").exists()


def test_a_failing_node_leaves_the_sources_and_says_why(tmp_path, monkeypatch, caplog):
    runtime = tmp_path / "pyodide"
    runtime.mkdir()
    with zipfile.ZipFile(runtime / "python_stdlib.zip", "w") as archive:
        archive.writestr("json/__init__.py", "x = 1\n")
    (runtime / "pyodide.asm.wasm").write_bytes(b"\0asm")  # not a runtime Node can start
    before = (runtime / "python_stdlib.zip").read_bytes()
    monkeypatch.setattr(precompile, "CACHE", tmp_path / "cache")
    with caplog.at_level(logging.WARNING):
        assert precompile.precompile(runtime, [], [], tmp_path / "start-bytecode.zip") is False
    assert "precompiling the start-up modules failed" in caplog.text
    assert (runtime / "python_stdlib.zip").read_bytes() == before and not list((tmp_path / "cache").glob("*/done"))
