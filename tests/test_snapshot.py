"""The Python memory snapshot the build ships (tools/snapshot.py) is named and checked by the manifest.

Uses the site in $RULES_LIB_SITE_DIR (`make test` builds it first), else builds one. That a page
restores it and computes as CPython does is what the browser tests check
(tests/test_browser.py, tests/hostile/test_snapshot_browser.py).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import snapshot  # noqa: E402

#: Pyodide's snapshot header: a magic number, then the offset of the memory (pyodide.asm.mjs, makeSnapshot)
PYODIDE_SNAPSHOT_MAGIC = 1886286592


def wasm_start_memory(wasm: bytes) -> int:
    """The bytes of memory a wasm module starts with (its memory section's initial pages)."""
    def leb(at: int) -> tuple[int, int]:
        value = shift = 0
        while True:
            byte = wasm[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value, at

    at = 8
    while at < len(wasm):
        section, (size, body) = wasm[at], leb(at + 1)
        if section == 5:  # memory: count, then limits (flags, initial pages, ...)
            _, limits = leb(body)
            return leb(limits + 1)[0] * 65536
        at = body + size
    raise AssertionError("the wasm declares no memory")


def test_the_manifest_names_the_snapshot_and_the_digests_of_its_file_and_its_memory(site_dir):
    wheels = site_dir / "vendor" / "wheels"
    manifest = json.loads((wheels / "manifest.json").read_text())
    named = manifest["snapshot"]
    packed = (wheels / named["file"]).read_bytes()
    assert named["file"] == f"{snapshot.PREFIX}{hashlib.sha256(packed).hexdigest()[:16]}.gz"
    assert manifest["sha256"][named["file"]] == hashlib.sha256(packed).hexdigest()
    memory = gzip.decompress(packed)
    assert named["memory_sha256"] == hashlib.sha256(memory).hexdigest()
    # one snapshot: a build removes the one it replaces
    assert [path.name for path in wheels.glob(f"{snapshot.PREFIX}*")] == [named["file"]]
    # Pyodide's own format, and no more memory than its wasm starts with (all it can restore into)
    magic, header = struct.unpack_from("<2I", memory)
    assert magic == PYODIDE_SNAPSHOT_MAGIC
    assert len(memory) - header == wasm_start_memory((site_dir / "vendor" / "pyodide" / "pyodide.asm.wasm").read_bytes())


def _runtime_not_startable(tmp_path, monkeypatch) -> Path:
    runtime = tmp_path / "pyodide"
    runtime.mkdir()
    for name in snapshot.RUNTIME_FILES:
        (runtime / name).write_bytes(b"not a runtime Node can start")
    monkeypatch.setattr(snapshot, "CACHE", tmp_path / "cache")
    return runtime


def test_without_node_there_is_no_snapshot_and_the_build_says_so(tmp_path, monkeypatch, caplog):
    runtime = _runtime_not_startable(tmp_path, monkeypatch)
    monkeypatch.setattr(snapshot, "node", lambda: None)
    with caplog.at_level(logging.WARNING):
        assert snapshot.snapshot_into(runtime, [], tmp_path) is None
    assert "no Node to make the Python snapshot" in caplog.text
    assert not list(tmp_path.glob(f"{snapshot.PREFIX}*"))


def test_a_failing_node_leaves_no_snapshot_and_says_why(tmp_path, monkeypatch, caplog):
    runtime = _runtime_not_startable(tmp_path, monkeypatch)
    with caplog.at_level(logging.WARNING):
        assert snapshot.snapshot_into(runtime, [], tmp_path) is None
    assert "making the Python snapshot failed" in caplog.text
    assert not list(tmp_path.glob(f"{snapshot.PREFIX}*")) and not list((tmp_path / "cache").rglob("*.gz"))
